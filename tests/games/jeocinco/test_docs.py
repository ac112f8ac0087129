"""Every worked example of docs/rules/jeocinco.md parses and plays as written."""

from pathlib import Path

import pytest

from controller.games.jeocinco import GAME

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "jeocinco.md"


def _examples():
    lines = [line.strip() for line in DOC.read_text(encoding="utf-8").splitlines()]
    out = []
    for i, line in enumerate(lines):
        if line.startswith("position: "):
            play = lines[i + 1][len("play: "):] if lines[i + 1].startswith("play: ") else ""
            out.append((line[len("position: "):], [a.strip() for a in play.split(";") if a.strip()]))
    return out


EXAMPLES = _examples()


def test_the_document_has_examples():
    assert len(EXAMPLES) >= 15
    assert (DOC.parent / "jeocinco-example.svg").exists()


@pytest.mark.parametrize(("position", "actions"), EXAMPLES, ids=[str(i) for i in range(len(EXAMPLES))])
def test_example(position, actions):
    state = GAME.state_from_text(position)
    assert state.to_text() == position
    for text in actions:
        state = state.apply(state.action_from_text(text))


def test_the_win_examples_end_as_described():
    nowin, win = (e for e in EXAMPLES if "towers=A1N@" in e[0])
    for (position, actions), over in ((nowin, False), (win, True)):
        state = GAME.state_from_text(position)
        for text in actions:
            state = state.apply(state.action_from_text(text))
        assert state.is_terminal() is over
