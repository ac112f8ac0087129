"""Winning lines, the five-in-a-row variant, the turn limit, no-move turns and the starting layouts."""

from __future__ import annotations

import pytest

from controller.games import CHANCE, TERMINAL, IllegalAction
from controller.games.contigo import GAME
from controller.games.contigo.board import LINES, SQUARE_NAMES, has_line, rotate
from controller.games.contigo.state import ContigoState

from .builder import play, position, refusal


def _over(state: ContigoState, winner: int) -> None:
    assert state.is_terminal() and state.current_player == TERMINAL and state.phase == "over"
    assert state.winners() == [winner]
    assert state.returns()[winner] == 1.0
    assert all(r == -1.0 for p, r in enumerate(state.returns()) if p != winner)
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(("b", 0, ((1, 1),)))


def test_four_in_a_row_wins_and_ends_the_game_before_the_bead_move() -> None:
    state = position({"r": "a1 b1 c1 e3 a5 f4", "b": "a6 b6 d5 e5 f2 c4"}, pits={"s-e": 2})
    after = play(state, "e3-e1")
    _over(after, 0)
    assert "result=red" in after.to_text() and after.turn == 0


def test_an_opposing_pawn_between_the_first_and_last_blocks_the_line() -> None:
    state = position({"r": "a1 b1 c1 e3 a5 f4", "b": "a6 b6 d5 e5 f2 d1"}, pits={"s-e": 2})
    after = play(state, "e3-e1")
    assert not after.is_terminal() and after.phase == "beads"


def test_four_together_on_one_side_of_an_opposing_pawn_win() -> None:
    state = position({"r": "a1 c1 d1 e1 f3 a5", "b": "b1 a6 b6 d5 e5 c4"}, pits={"s-f": 2})
    _over(play(state, "f3-f1"), 0)


def test_four_in_a_column_wins() -> None:
    state = position({"r": "c1 c2 c4 a3 e6 f5", "b": "a6 b6 d6 f1 e2 b4"}, pits={"e-3": 2})
    _over(play(state, "a3-c3"), 0)


def test_four_on_a_long_diagonal_wins() -> None:
    state = position({"r": "a1 b2 c3 d6 f1 a4", "b": "b6 c6 e6 f5 e2 a3"}, pits={"s-d": 2})
    _over(play(state, "d6-d4"), 0)


def test_a_move_that_uncovers_an_opponents_line_makes_him_win() -> None:
    state = position({"r": "d6 a1 b3 f2 e5 c1", "b": "a6 b6 c6 e6 f4 a2"}, pits={"s-d": 2})
    after = play(state, "d6-d4")
    _over(after, 1)


def test_five_variant_counts_rows_and_columns_only() -> None:
    red, blue = "a1 b1 c1 d1 e3 f5", "a6 b6 c6 e5 f3 b4"
    four = position({"r": red, "b": blue}, pits={"s-e": 2}, win="five")
    assert not four.is_terminal()  # four in a row is not enough in this variant
    _over(play(four, "e3-e1"), 0)
    diag = position({"r": "a1 b2 c3 d4 e3 f1", "b": "a6 b6 c6 e6 f3 b4"}, pits={"n-e": 2}, win="five")
    assert not play(diag, "e3-e5").is_terminal()
    row4 = position({"r": "a1 b1 c1 e3 a5 f4", "b": "a6 b6 d5 e5 f2 c4"}, pits={"s-e": 2}, win="five")
    assert not play(row4, "e3-e1").is_terminal()


def test_four_players_win_with_their_four_pawns() -> None:
    pieces = {"r": "a1 b1 e1 f3", "b": "f1 f2 e6 d6", "g": "c2 c3 c4 a5", "y": "a6 b6 d1 e4"}
    state = position(pieces, pits={"e-5": 2}, players=4, to="green")
    after = play(state, "a5-c5")
    _over(after, 2)
    assert after.returns() == [-1.0, -1.0, 1.0, -1.0]


def test_turn_limit_ends_in_a_draw() -> None:
    state = position({"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"}, phase="beads", turn=2,
                     turn_limit=3)
    after = play(state, "beads nw>n-a 1")
    assert after.is_terminal() and after.returns() == [0.0, 0.0] and after.winners() == []
    assert "result=draw" in after.to_text() and after.turn == 3
    assert GAME.max_game_length({"turn_limit": 3}, 2) == 7


def test_player_without_a_pawn_move_goes_straight_to_the_bead_move() -> None:
    # Every bead sits in a corner: no pit governs a move, so no pawn can move.
    corners = {"nw": 14, "ne": 14, "se": 14, "sw": 14}
    pits = {**dict.fromkeys(["n-a", "n-b", "n-c", "n-d", "n-e", "n-f", "s-a", "s-b", "s-c", "s-d", "s-e",
                             "s-f", "e-1", "e-2", "e-3", "e-4", "e-5", "e-6", "w-1", "w-2", "w-3", "w-4",
                             "w-5", "w-6"], 0), **corners}
    state = position({"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"}, pits=pits, to="blue",
                     phase="beads")
    after = play(state, "beads nw>n-f 6")  # 6 north from file f leaves the board: still no move
    assert after.current_player == 0 and after.phase == "beads"
    assert all(isinstance(a, tuple) and a[0] == "b" for a in after.legal_actions())
    assert "now move beads" in refusal(after, "c3-c4")
    from controller.games import BadPosition

    with pytest.raises(BadPosition, match="no pawn move"):
        GAME.state_from_text(after.to_text().replace("phase=beads", "phase=move"))


# --------------------------------------------------------------------------- layouts


def _squares(state: ContigoState, code: int) -> set[str]:
    return {SQUARE_NAMES[s] for s, c in enumerate(state.board) if c == code}


def test_published_two_player_layout() -> None:
    state = GAME.new_state()
    assert _squares(state, 1) == set(["a1", "b5", "c3", "d4", "e2", "f6"])
    assert _squares(state, 3) == set(["f1", "e5", "d3", "c4", "b2", "a6"])
    assert not has_line(state.board, 0, LINES, 4) and not has_line(state.board, 1, LINES, 4)
    assert all(v == 2 for k, v in state.physical_view().items() if k.startswith("pit:"))


def test_four_player_layout_is_a_quarter_turn_per_seat() -> None:
    state = GAME.new_state({}, 4)
    seats = [{s for s, c in enumerate(state.board) if c == 1 + 2 * p} for p in range(4)]
    assert all(len(s) == 4 for s in seats) and sum(1 for c in state.board if c) == 16
    for p in range(4):
        assert {rotate(s) for s in seats[p]} == seats[(p + 1) % 4]
    assert {SQUARE_NAMES[s] for s in seats[0]} == {"b1", "e1", "d2", "c3"}
    assert all(not has_line(state.board, p, LINES, 4) for p in range(4))
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(("start", p), 0.25) for p in range(4)]
    started = play(state, "start green")
    assert started.current_player == 2 and started.phase == "move"
    after = play(started, started.action_to_text(started.legal_actions()[0]), "beads nw>n-a 1")
    assert after.current_player == 3


def test_capture_layout_is_point_symmetric_with_a_double_each() -> None:
    state = GAME.new_state({"game": "capture"})
    red = _squares(state, 1)
    blue = _squares(state, 3)
    assert red == set(["a1", "b1", "c1", "e1", "f1", "a2", "b2", "c2", "d2", "e2"]) and _squares(state, 2) == {"d1"}
    assert _squares(state, 4) == {"c6"}
    assert {SQUARE_NAMES[rotate(rotate(s))] for s in (i for i, c in enumerate(state.board) if c == 1)} == blue
    assert state.captured == (0, 0)


def test_who_starts_is_a_chance_node() -> None:
    state = GAME.new_state()
    assert state.current_player == CHANCE and state.phase == "start"
    assert state.chance_outcomes() == [(("start", 0), 0.5), (("start", 1), 0.5)]
    assert play(state, "start blue").current_player == 1
    with pytest.raises(IllegalAction):
        state.apply(state.action_from_text("a1-a3"))
    with pytest.raises(IllegalAction, match="decided already"):
        play(state, "start red").apply(("start", 1))
