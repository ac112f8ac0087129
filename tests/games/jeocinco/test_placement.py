"""Dice and placement: the four roll cases, case 5, paths and bridges, the fast game."""

import pytest

from controller.games import CHANCE, IllegalAction
from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B

from .helpers import disputable, placements, play, position, sides, slot


def test_the_turn_starts_with_both_dice_as_one_chance_node() -> None:
    s = position(phase="roll", roll="-", actor=-1, left="0+0")
    assert s.current_player == CHANCE and s.phase == "roll"
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 36
    assert all(p == pytest.approx(1 / 36) for _, p in outcomes)
    texts = {s.action_to_text(a) for a, _ in outcomes}
    assert {"roll 1A", "roll 5E", "roll *C", "roll 4+", "roll *+"} <= texts


def test_plain_roll_own_pentagon_in_the_rolled_hexagon() -> None:
    # player 0 plays N (yellow): roll 3C -> the five sides of C3N, nothing else on an empty board
    s = play(position(phase="roll", roll="-", actor=-1, left="0+0"), "roll 3C")
    assert s.current_player == 0 and s.phase == "place"
    assert placements(s) == set(sides("C3N"))
    assert s.position.rolled == 1


def test_plain_roll_also_next_to_your_pieces_on_that_hexagon() -> None:
    s = position(pieces={"C3E-C3S": 0}, roll="3C")
    # the sides of C3N plus the empty slots sharing an end point with the piece on C3E-C3S
    assert placements(s) == set(sides("C3N")) | {"C2N-C2W", "C2N-C3E", "C2W-C3S"}


def test_a_piece_elsewhere_does_not_help_a_plain_roll() -> None:
    s = position(pieces={"A1N-A1E": 0}, roll="3C")
    assert placements(s) == set(sides("C3N"))


def test_a_placement_outside_the_roll_is_refused_with_the_rule() -> None:
    s = position(roll="3C")
    with pytest.raises(IllegalAction, match="hexagon C3"):
        s.apply(s.action_from_text("place A1N-A1E"))
    with pytest.raises(IllegalAction, match="side of your colour's"):
        s.apply(s.action_from_text("place C3E-C3S"))


def test_wildcard_number_any_hexagon_of_the_letter_column() -> None:
    s = position(roll="*C")
    expected = set()
    for r in range(1, 6):
        expected |= set(sides(f"C{r}N"))
    assert placements(s) == expected and len(expected) == 25
    assert s.position.rolled == 1


def test_plus_one_any_hexagon_of_the_number_row_and_two_pieces() -> None:
    s = play(position(phase="roll", roll="-", actor=-1, left="0+0"), "roll 4+")
    assert s.position.rolled == 2
    expected = set()
    for c in "ABCDE":
        expected |= set(sides(f"{c}4N"))
    assert placements(s) == expected
    s = play(s, "place A4N-A4E", "place E4N-E4E")  # two pieces in two hexagons of row 4
    assert s.phase == "roll" and s.current_player == CHANCE
    assert s.holder(slot("A4N-A4E")) == 0 and s.holder(slot("E4N-E4E")) == 0


def test_both_wildcards_two_pieces_anywhere_in_your_colour_or_next_to_your_pieces() -> None:
    s = position(roll="*+", left="2+0", pieces={"A1E-A1S": 0})
    allowed = placements(s)
    assert len(allowed) == 125 + 2  # every N side, plus the piece's two neighbours that are not N sides
    assert {"E5N-E5E", "A1E-s", "A1S-se"} <= allowed
    assert "C3E-C3S" not in allowed


def test_case_five_a_blocked_pentagon_frees_the_placement() -> None:
    # player 1 (E) completed C3E; its tower's side C3N-C3E is a side of player 0's C3N, which can
    # therefore never be completed: roll 3C lets player 0 play anywhere under the placement rules.
    s = position(towers={"C3E": "C3E-C3S"}, roll="3C")
    allowed = placements(s)
    assert "A1N-A1E" in allowed and "E5N-E5E" in allowed
    assert "C3N-C3E" not in allowed and "C2N-C3E" not in allowed  # held by the tower's owner
    assert len(allowed) == 123


def test_case_five_refusal_names_the_case() -> None:
    s = position(towers={"C3E": "C3E-C3S"}, roll="3C")
    with pytest.raises(IllegalAction, match=r"C3N, which can never be completed \(case 5\)"):
        s.apply(s.action_from_text("place D3E-D3S"))


def test_case_five_needs_a_completed_pentagon() -> None:
    s = position(pieces={"C3N-C3E": 1}, roll="3C")
    assert placements(s) == set(sides("C3N")) - {"C3N-C3E"}


def test_case_five_with_a_wildcard_if_any_reachable_hexagon_is_blocked() -> None:
    s = position(towers={"C3E": "C3E-C3S"}, roll="3+", left="2+0")
    assert "A1N-A1E" in placements(s)
    s = position(towers={"C3E": "C3E-C3S"}, roll="2+", left="2+0")  # C2N is blocked too (C2N-C3E)
    assert "A1N-A1E" in placements(s)
    s = position(towers={"C3E": "C3E-C3S"}, roll="4+", left="2+0")
    assert "A1N-A1E" not in placements(s)


def test_path_travel_along_your_connected_pieces() -> None:
    # a path of player 0's pieces from C3 to D5: C3N-C3E (on C3) ... D5N-D5S
    path = ["C3N-C3E", "C4S-C4W", "C4N-C4S", "C4N-C4E", "D5S-D5W", "D5N-D5S"]
    s = position(pieces={n: 0 for n in path}, roll="3C")
    allowed = placements(s)
    far = {B.SLOT_NAMES[t] for t in B.SLOT_ADJ[slot("D5N-D5S")]} - set(path)
    assert far and far <= allowed
    # cut the path in the middle: the far end is out of reach
    s2 = position(pieces={n: 0 for n in path if n != "C4N-C4S"}, roll="3C")
    assert not far & placements(s2)


def test_path_placement_reached_through_a_bridge() -> None:
    # bridge B3E-B3S~C3N-C3W rests on two pieces of player 0; rolling B3 (where B3E-B3S is) lets
    # player 0 travel over the bridge to C3N-C3W and place next to it.
    pieces = {"B3E-B3S": 0, "C3N-C3W": 0}
    bridge = "B3E-B3S~C3N-C3W"
    with_bridge = position(pieces=pieces, bridges=(bridge,), roll="3B")
    without = position(pieces=pieces, roll="3B")
    target = "B4E-B4S"  # touches C3N-C3W, nowhere near hexagon B3
    assert target in placements(with_bridge)
    assert target not in placements(without)
    s = play(with_bridge, f"place {target}")
    assert s.holder(slot(target)) == 0


def test_fast_game_two_pieces_three_with_plus_one() -> None:
    s = play(position(phase="roll", roll="-", actor=-1, left="0+0", fast=1), "roll 3C")
    assert s.position.rolled == 2
    s = play(position(phase="roll", roll="-", actor=-1, left="0+0", fast=1), "roll 3+")
    assert s.position.rolled == 3
    state = GAME.new_state({"fast": True}, 3)
    assert state.options["fast"] is True


def test_no_piece_left_is_refused() -> None:
    s = position(roll="3C", left="0+0", spare="10", pieces={"A1N-A1E": 0, "B1S-B1W": 0})
    # only bridges/done would be offered; this position has no bridge option so we test the reason
    with pytest.raises(IllegalAction, match="no piece left"):
        s.apply(("place", slot("C3N-C3E")))


def test_a_held_slot_cannot_take_a_piece() -> None:
    s = position(pieces={"C3N-C3E": 1, "C3N-C3S": 0}, roll="3C")
    with pytest.raises(IllegalAction, match=r"held by player 1 .*dispute"):
        s.apply(s.action_from_text("place C3N-C3E"))
    with pytest.raises(IllegalAction, match="already holds your piece"):
        s.apply(s.action_from_text("place C3N-C3S"))
    assert "C3N-C3E" in disputable(s)


def test_pieces_with_nowhere_to_go_are_forfeited() -> None:
    # every side of C3N held by player 1 whose E pentagons... use a full hexagon held by player 1 with
    # disputes switched off: nothing to place, nothing to dispute -> the turn passes
    pieces = {n: 1 for n in sides("C3N")}
    s = position(pieces=pieces, roll="-", phase="roll", actor=-1, left="0+0", disputes=0)
    s = play(s, "roll 3C")
    assert s.phase == "roll" and s.position.turn == 1


def test_chance_node_refuses_a_move_and_a_move_refuses_dice() -> None:
    s = position(phase="roll", roll="-", actor=-1, left="0+0")
    with pytest.raises(IllegalAction, match="waiting for both dice"):
        s.apply(("place", slot("C3N-C3E")))
    s = position(roll="3C")
    with pytest.raises(IllegalAction, match="no dice are due"):
        s.apply(("dice", 3, 2))
    assert B.NUM_SLOTS == 283
