"""The referee matches sensed boards to legal actions, progress, takebacks and violations."""

from __future__ import annotations

from typing import Any

from controller.games import Game
from controller.games.record import Match
from controller.referee import Referee


def _referee(toy_game: Game, **kw: Any) -> tuple[Match, Referee]:
    match = Match.new("toy", seed=3)
    match.apply_text("first 0")
    return match, Referee(match, toy_game.channels(), **kw)


def board(**pieces: int) -> dict[str, int]:
    view = {f"sq:{c}{r}": 0 for r in "123" for c in "abc"}
    view.update({f"sq:{k}": v for k, v in pieces.items()})
    return view


def test_a_legal_placement_is_applied(toy_game: Game) -> None:
    match, ref = _referee(toy_game)
    assert ref.judge(board()).kind == "in_sync"
    v = ref.judge(board(b2=1))
    assert v.kind == "applied" and v.actions == ("b2",)
    assert match.state.to_text() == "....x.... 1"


def test_wrong_players_piece_is_a_violation_and_nothing_changes(toy_game: Game) -> None:
    match, ref = _referee(toy_game)
    v = ref.judge(board(b2=2))
    assert v.kind == "violation"
    assert v.channels == ("sq:b2",)
    assert "b2" in v.message and "wrong" in v.message
    assert match.state.to_text() == "......... 0"
    assert ref.judge(board()).kind == "in_sync"


def test_two_pieces_at_once_is_a_violation(toy_game: Game) -> None:
    _, ref = _referee(toy_game)
    v = ref.judge(board(a1=1, c3=1))
    assert v.kind == "violation" and v.channels == ("sq:a1", "sq:c3")


def test_takeback_restores_the_earlier_position(toy_game: Game) -> None:
    match, ref = _referee(toy_game)
    ref.judge(board(b2=1))
    v = ref.judge(board())
    assert v.kind == "takeback" and v.actions == ("b2",)
    assert match.state.to_text() == "......... 0"


def test_takeback_can_be_refused_by_the_table(toy_game: Game) -> None:
    match, ref = _referee(toy_game, allow_takeback=False)
    ref.judge(board(b2=1))
    assert ref.judge(board()).kind == "violation"
    assert match.state.to_text() == "....x.... 1"


def test_targets_are_the_empty_squares_for_the_player(toy_game: Game) -> None:
    _, ref = _referee(toy_game)
    ref.judge(board(b2=1))
    targets = ref.targets(board(b2=1))
    assert set(targets) == {f"sq:{s}" for s in ("a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3")}
    assert set(targets.values()) == {2}
