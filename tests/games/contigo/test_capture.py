"""The capture game: singles pass over pawns and capture, doubles move in L over empty squares only,
pass moves, and the two ways to win."""

from __future__ import annotations

from typing import Any

from controller.games import TERMINAL

from .builder import moves_from, play, position, refusal

CAP: dict[str, Any] = {"game": "capture"}
# Red: 10 singles + the double on d1 (12 men); c3 can go north over its own c4 onto Blue's c5.
RED = {"r": "a1 b1 c1 e1 f1 b2 e2 f2 c3 c4", "R": "d1"}
BLUE = {"b": "a6 b6 d6 e6 f6 a5 b5 d5 e5 c5", "B": "c6"}


def test_single_passes_over_any_pawn_and_captures_an_enemy() -> None:
    state = position({**RED, **BLUE}, pits={"n-c": 2}, **CAP)
    assert "c3xc5" in moves_from(state, "c3")
    after = play(state, "c3xc5")
    assert after.captured == (1, 0)
    assert after.scores() == [1.0, 0.0]
    view = after.physical_view()
    assert view["sq:c5"] == 1 and view["sq:c3"] == 0
    assert after.phase == "beads" and after.current_player == 0
    assert "captured=1,0" in after.to_text()


def test_capture_text_accepts_dash_too() -> None:
    state = position({**RED, **BLUE}, pits={"n-c": 2}, **CAP)
    assert state.action_from_text("c3-c5") == state.action_from_text("c3xc5")


def test_single_may_not_land_on_its_own_piece() -> None:
    state = position({**RED, **BLUE}, pits={"n-c": 1}, **CAP)
    assert "your own piece" in refusal(state, "c3-c4")


def test_single_in_capture_game_may_jump_an_enemy() -> None:
    # c3 north 3 over Blue's c5?  c4 red, c5 blue, c6 blue double: land on c6 = capture the double.
    state = position({**RED, **BLUE}, pits={"n-c": 3}, **CAP)
    assert "c3xc6" in moves_from(state, "c3")


# --------------------------------------------------------------------------- doubles

D_RED = {"r": "a1 b1 c1 e1 f1 a2 b2 c2 e2", "R": "d1"}  # d2 empty, 11 men
D_BLUE = {"b": "a6 b6 d6 e6 f6 b5 c5 d5 e5 f5", "B": "c6"}
D_PITS = {"n-d": 2, "e-3": 2, "e-1": 0, "w-1": 0}


def test_double_moves_in_l_over_empty_squares() -> None:
    state = position({**D_RED, **D_BLUE}, pits=D_PITS, **CAP)
    # north 2 (n-d) over d2 to the corner d3, then east 2 (e-3) -> f3 or west 2 (w-3) -> b3
    assert moves_from(state, "d1") == {"d1-f3", "d1-b3"}


def test_double_blocked_by_a_piece_in_its_path() -> None:
    blocked = position({"r": D_RED["r"] + " d2", "R": "d1", **D_BLUE}, pits=D_PITS, **CAP)
    assert moves_from(blocked, "d1") == set()
    reason = refusal(blocked, "d1-f3")
    assert "may not pass over the piece on d2" in reason


def test_double_blocked_at_the_corner_square() -> None:
    blocked = position({**D_RED, **D_BLUE, "b": D_BLUE["b"].replace("f5", "d3")}, pits=D_PITS, **CAP)
    assert "d1-f3" not in moves_from(blocked, "d1")
    assert "piece on d3" in refusal(blocked, "d1-f3")


def test_double_never_moves_straight() -> None:
    state = position({**D_RED, **D_BLUE}, pits=D_PITS, **CAP)
    assert "a double always moves in an L" in refusal(state, "d1-d3")


def test_double_captures_at_the_end_of_its_l_and_a_single_moves_straight() -> None:
    state = position({**D_RED, **D_BLUE, "b": D_BLUE["b"].replace("f5", "f3")}, pits=D_PITS, **CAP)
    assert "d1xf3" in moves_from(state, "d1")


def test_capture_game_l_form_moves_singles_in_l_over_anything() -> None:
    state = position({**RED, **BLUE}, pits={"n-c": 1, "e-4": 1, "w-4": 2}, form="L", **CAP)
    # c3 north 1 onto its own c4 (passed over as the corner), then east 1 -> d4 or west 2 -> a4
    assert {"c3-d4", "c3-a4"} <= moves_from(state, "c3")
    assert "always moves in an L" in refusal(state, "c3-c5")


# --------------------------------------------------------------------------- pass moves

P_RED = {"r": "a1 b1 c1 e1 f1 a2 b2 c2 e2 d4", "R": "d1"}  # 12 men, d2 d3 empty


def test_pass_move_hands_the_double_to_a_single() -> None:
    state = position({**P_RED, **D_BLUE}, pits={"n-d": 3}, **CAP)
    assert "pass d1-d4" in moves_from(state, "d1")
    after = play(state, "pass d1-d4")
    view = after.physical_view()
    assert view["sq:d1"] == 1 and view["sq:d4"] == 2
    assert after.phase == "beads" and after.captured == (0, 0)


def test_pass_move_with_a_wrong_bead_count_is_refused() -> None:
    state = position({**P_RED, **D_BLUE}, pits={"n-d": 2}, **CAP)
    assert "pass d1-d4" not in moves_from(state, "d1")
    reason = refusal(state, "pass d1-d4")
    assert "n-d" in reason and "2 beads" in reason and "3 squares away" in reason


def test_pass_move_needs_an_unobstructed_path() -> None:
    red = {"r": "a1 b1 c1 e1 f1 a2 b2 c2 d3 d4", "R": "d1"}
    state = position({**red, **D_BLUE}, pits={"n-d": 3}, **CAP)
    assert "d3 is occupied" in refusal(state, "pass d1-d4")


def test_pass_move_goes_to_a_friendly_single_only() -> None:
    state = position({**D_RED, **D_BLUE}, pits={"n-d": 4}, **CAP)
    assert "singles" in refusal(state, "pass d1-d5")
    assert "starts from your double" in refusal(state, "pass e2-e5")


def test_no_pass_move_in_the_alignment_game() -> None:
    state = position({"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"})
    assert "capture game" in refusal(state, "pass a1-b1")


# --------------------------------------------------------------------------- winning


def test_seventh_capture_wins_and_ends_the_game_at_once() -> None:
    # Blue has 6 men left (4 singles + double): Red has captured 6.
    state = position({**RED, "b": "c5 a6 b6 f6", "B": "e6"}, pits={"n-c": 2}, **CAP)
    assert state.captured == (6, 0)
    after = play(state, "c3xc5")
    assert after.is_terminal() and after.current_player == TERMINAL and after.phase == "over"
    assert after.returns() == [1.0, -1.0] and after.winners() == [0]
    assert after.scores() == [7.0, 0.0]
    assert after.legal_actions() == []
    assert "result=red" in after.to_text()


def test_taking_a_double_wins_at_once() -> None:
    state = position({**RED, **BLUE}, pits={"n-c": 3}, **CAP)
    after = play(state, "c3xc6")
    assert after.is_terminal() and after.winners() == [0]
    assert after.captured == (2, 0)


def test_six_captures_do_not_win() -> None:
    state = position({**RED, "b": "c5 a6 b6 f6 d6", "B": "e6"}, pits={"n-c": 2}, **CAP)
    assert state.captured == (5, 0)
    after = play(state, "c3xc5")
    assert not after.is_terminal() and after.captured == (6, 0)


def test_refusals_and_the_capture_announcement_carry_codes_and_params() -> None:
    import pytest

    from controller.games import IllegalAction

    state = position({**RED, **BLUE}, pits={"n-c": 1}, **CAP)
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.action_from_text("c3-c4"))
    assert refused.value.refusal.code == "contigo.own_piece"
    assert dict(refused.value.refusal.params) == {"square": "c4"}
    with pytest.raises(IllegalAction) as garbage:
        state.action_from_text("c3c5")
    assert garbage.value.refusal.code == "contigo.no_such_action"
    state = position({**RED, **BLUE}, pits={"n-c": 2}, **CAP)
    action = state.action_from_text("c3xc5")
    assert state.announcements(action, state.apply(action)) == [
        {"type": "capture", "player": 0, "text": "player 0 captures on c5", "code": "contigo.captures",
         "params": {"player": "player 0", "square": "c5"}}]
