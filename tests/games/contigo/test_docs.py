"""Every worked example in docs/rules/contigo.md is what the engine does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.games.contigo import GAME

from .builder import moves_from, refusal

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "contigo.md"


def _blocks() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    return [block.strip().splitlines() for block in re.findall(r"```text\n(.*?)```", text, re.S)]


def test_the_doc_has_worked_examples() -> None:
    blocks = _blocks()
    assert len(blocks) >= 15
    assert all(block[0].startswith("position: ") for block in blocks)


@pytest.mark.parametrize("block", _blocks(), ids=lambda b: b[1][:40] if len(b) > 1 else b[0][:40])
def test_worked_example(block: list[str]) -> None:
    state = GAME.state_from_text(block[0].removeprefix("position: "))
    for line in block[1:]:
        head, _, rest = line.partition(":")
        rest = rest.strip()
        if head.startswith("moves "):
            assert moves_from(state, head.split()[1]) == ({m.strip() for m in rest.split(",")} if rest else set()), line
        elif head.startswith("beads "):
            src = head.split()[1]
            legal = {t for t in map(state.action_to_text, state.legal_actions()) if t.startswith(f"beads {src}>")}
            assert legal == set(rest.split(" | ")), line
        elif head == "drops":
            legal = {t for t in map(state.action_to_text, state.legal_actions()) if t.startswith("drop ")}
            assert legal == {d.strip() for d in rest.split(",")}, line
        elif head == "refused":
            action, reason = rest.split(" -> ", 1)
            assert refusal(state, action) == reason, line
        elif head == "play":
            action, after = rest.split(" -> ", 1)
            assert state.apply(state.action_from_text(action)).to_text() == after, line
        else:
            raise AssertionError(f"unknown example line {line!r}")
