"""Seats are parts (``controller.seats``): a new kind of seat is one module and one line in the
table, and nothing outside ``controller/seats/`` asks what kind a seat is."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import ClassVar

import pytest

from controller.games import Game
from controller.games.base import Phrase
from controller.seats import KINDS
from controller.seats.base import Ask, Seat
from controller.seats.computer import COMPUTER
from controller.session import Decide, Outcome, Session
from tests.test_session import session_for, show

ROOT = Path(__file__).resolve().parent.parent
KIND_WORDS = frozenset(cls.kind for cls in KINDS.values())

class ScriptedSeat(Seat):
    """A fifth kind, as a test writes it: it plays the first of its legal moves, in text order."""

    kind: ClassVar[str] = "script"
    who: ClassVar[Phrase | None] = COMPUTER  # a phrase of the catalogue: a test declares none of its own
    decides: ClassVar[bool] = True
    by: ClassVar[str] = "script"

    def decide(self, ask: Ask, rng: random.Random) -> str:
        from controller.games import get_game

        state = get_game(ask.game).state_from_text(str(ask.public_view["position"]))
        return min(state.action_to_text(a) for a in state.own_actions())


def carry_out(s: Session, outcome: Outcome) -> Outcome:
    """The loop's part for a seat that decides: ask the seat itself, then the table carries the move out."""
    ask = next(e for e in outcome.effects if isinstance(e, Decide))
    seat, given = ask.decision()  # as the loop asks it (controller.computer)
    text = seat.decide(given, random.Random(ask.seed))
    s.decided(ask.moves, text, ask.hint)
    show(s, s.expected_view())
    return s.judge()


def test_a_fifth_kind_of_seat_is_one_module_and_one_line_and_plays_a_whole_game(
        toy_game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(KINDS, ScriptedSeat.kind, ScriptedSeat)
    s = session_for("toy", chance="auto")
    s.new_game("toy", {}, 2, 1, ["script", "table"])
    outcome = s.judge()
    played: list[tuple[str, int, str]] = []
    while not s.over:
        if s.state.current_player == 0:
            outcome = carry_out(s, outcome)
        else:  # the person at the table plays the first empty square from the end
            state = s.state
            action = max(state.own_actions(), key=state.action_to_text)
            show(s, state.apply(action).physical_view())
            outcome = s.judge()
        played += [(e["action"], e["player"], e["by"]) for e in outcome.events if e["type"] == "action"]
    assert s.state.is_terminal() and len(played) >= 5
    assert {by for _, p, by in played if p == 0} == {"script"} and {by for _, p, by in played if p == 1} == {"board"}
    assert s.public_state()["players"][0]["seat"] == "script"


def seat_kind_comparisons(path: Path) -> list[str]:
    """Where a module compares a value with a seat kind's word (``seat == "phone"``,
    ``seat.startswith("bot:")``, ``"remote" in seats``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            # ``x == "phone"``; ``"remote" in seats`` (not ``"table" in fair``: a record's key, no seat)
            membership = any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
            if membership and "seat" not in ast.unparse(node.comparators[-1]):
                continue
            for side in sides:
                if isinstance(side, ast.Constant) and isinstance(side.value, str) and (
                        side.value in KIND_WORDS or side.value.startswith("bot:")):
                    found.append(f"{path}:{node.lineno}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("startswith", "removeprefix") and node.args and \
                isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("bot"):
            found.append(f"{path}:{node.lineno}")
    return found


def test_no_module_outside_the_seats_compares_a_seat_kind() -> None:
    found = [hit for path in sorted((ROOT / "controller").rglob("*.py"))
             if "seats" not in path.relative_to(ROOT / "controller").parts[:1]
             for hit in seat_kind_comparisons(path)]
    assert found == []


def test_the_check_finds_a_planted_comparison(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('def f(seat: str, seats: list[str], fair: dict[str, int]) -> bool:\n'
                       '    return seat == "phone" or seat.startswith("bot:") or "remote" in seats\n'
                       'def g(fair: dict[str, int]) -> bool:\n    return "table" in fair\n')
    assert len(seat_kind_comparisons(planted)) == 3
