"""Pawn moves: distances from the governing pits, jumping, the advanced L form."""

from __future__ import annotations

from controller.games.contigo.board import GOV, PIT_NAMES, SQUARE_INDEX

from .builder import moves_from, play, position, refusal

# Red c3 alone in its row and column; the other pawns stay out of its way.
RED = "c3 a2 f2 a1 e1 f1"
BLUE = "a6 b6 f6 a5 e5 a4"


def test_governing_pits_of_a_square() -> None:
    c3 = SQUARE_INDEX["c3"]
    assert [PIT_NAMES[p] for p in GOV[c3]] == ["n-c", "e-3", "s-c", "w-3"]
    f6 = SQUARE_INDEX["f6"]
    assert [PIT_NAMES[p] for p in GOV[f6]] == ["n-f", "e-6", "s-f", "w-6"]


def test_each_direction_moves_exactly_the_governing_pit_count() -> None:
    state = position({"r": RED, "b": BLUE}, pits={"n-c": 3, "e-3": 1, "s-c": 2, "w-3": 2})
    assert moves_from(state, "c3") == {"c3-c6", "c3-d3", "c3-c1", "c3-a3"}
    after = play(state, "c3-c6")
    assert after.to_text().split()[9] == "board=bbr..b/b...b./b...../....../r....r/r...rr"
    assert after.phase == "beads" and after.current_player == 0


def test_other_counts_change_the_moves() -> None:
    state = position({"r": RED, "b": BLUE}, pits={"n-c": 1, "e-3": 3, "s-c": 1, "w-3": 1})
    assert moves_from(state, "c3") == {"c3-c4", "c3-f3", "c3-c2", "c3-b3"}


def test_wrong_distance_is_refused_naming_the_pit() -> None:
    state = position({"r": RED, "b": BLUE}, pits={"n-c": 3})
    reason = refusal(state, "c3-c5")
    assert "n-c" in reason and "3 beads" in reason and "not 2" in reason


def test_empty_pit_and_moves_off_the_board_give_no_move() -> None:
    state = position({"r": RED, "b": BLUE}, pits={"n-c": 0, "e-3": 4, "s-c": 3, "w-3": 2})
    # north: empty pit; east: 4 from c3 would leave the board; south: 3 would leave the board
    assert moves_from(state, "c3") == {"c3-a3"}
    assert "n-c is empty" in refusal(state, "c3-c4")


def test_diagonal_or_crooked_moves_are_refused() -> None:
    state = position({"r": RED, "b": BLUE})
    assert "not straight" in refusal(state, "c3-d4")


def test_alignment_pawn_jumps_its_own_pawn_but_not_an_opponent() -> None:
    own = position({"r": "c3 c4 a1 e1 f1 f2", "b": BLUE}, pits={"n-c": 3})
    assert "c3-c6" in moves_from(own, "c3")
    theirs = position({"r": "c3 a2 a1 e1 f1 f2", "b": "c4 b6 f6 a5 e5 a4"}, pits={"n-c": 3})
    assert "c3-c6" not in moves_from(theirs, "c3")
    reason = refusal(theirs, "c3-c6")
    assert "blue pawn on c4" in reason and "never an opponent" in reason


def test_alignment_pawn_lands_on_empty_squares_only() -> None:
    state = position({"r": "c3 c6 a1 e1 f1 f2", "b": "c5 b6 f6 a5 e5 a4"}, pits={"n-c": 3, "e-3": 3})
    assert "occupied" in refusal(state, "c3-c6")
    state2 = position({"r": "c3 a2 a1 e1 f1 f2", "b": "f3 b6 f6 a5 e5 a4"}, pits={"e-3": 3})
    assert "occupied" in refusal(state2, "c3-f3")


def test_only_own_pawns_move() -> None:
    state = position({"r": RED, "b": BLUE})
    assert "blue's" in refusal(state, "a6-a4")
    assert "no pawn on d3" in refusal(state, "d3-d5")


# --------------------------------------------------------------------------- advanced form (L)

L_RED = "c3 a1 f1 e6 f3 a4"
L_BLUE = "c4 c5 b6 f6 a2 e2"
L_PITS = {"n-c": 2, "e-5": 3, "w-5": 1, "e-3": 1, "n-d": 3, "s-d": 2, "s-c": 0, "w-3": 0}


def test_l_move_legs_are_governed_from_where_each_leg_starts() -> None:
    state = position({"r": L_RED, "b": L_BLUE}, pits=L_PITS, form="L")
    # north 2 (n-c) to the corner c5, then east 3 (e-5) -> f5 or west 1 (w-5) -> b5;
    # east 1 (e-3) to the corner d3, then north 3 (n-d) -> d6 or south 2 (s-d) -> d1.
    # The first route passes over the blue pawns on c4 and c5 (the corner): the L passes over anything.
    assert moves_from(state, "c3") == {"c3-f5", "c3-b5", "c3-d6", "c3-d1"}


def test_l_second_leg_count_comes_from_the_corner() -> None:
    state = position({"r": L_RED, "b": L_BLUE}, pits={**L_PITS, "e-5": 2}, form="L")
    assert "c3-e5" in moves_from(state, "c3") and "c3-f5" not in moves_from(state, "c3")
    reason = refusal(state, "c3-f5")
    assert "e-5" in reason and "2 beads" in reason


def test_advanced_form_refuses_straight_moves() -> None:
    state = position({"r": L_RED, "b": L_BLUE}, pits=L_PITS, form="L")
    assert "always moves in an L" in refusal(state, "c3-c2")


def test_l_move_lands_on_empty_squares_only_in_the_alignment_game() -> None:
    state = position({"r": L_RED, "b": "c4 c5 b6 f6 a2 d6"}, pits=L_PITS, form="L")
    assert "c3-d6" not in moves_from(state, "c3")
    assert "occupied" in refusal(state, "c3-d6")


def test_l_move_result() -> None:
    state = position({"r": L_RED, "b": L_BLUE}, pits=L_PITS, form="L")
    after = play(state, "c3-d1")
    assert after.physical_view()["sq:c3"] == 0 and after.physical_view()["sq:d1"] == 1
