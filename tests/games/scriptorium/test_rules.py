"""Scriptorium rules, one test per rule, from hand-made positions.

Colours: red 0, orange 1, yellow 2, green 3, blue 4, violet 5. A part with offset o shows colour
(p - o) mod 6 at position p (every part repeats the six colours twice). Position "A" below is
offsets 3,0,1,0: Centre sector p is (p-3) mod 6, Inner p is p mod 6, Middle p is (p-1) mod 6, Outer
p is p mod 6. So around i3 (green): i2 yellow, i4 blue, m2 orange, m3 yellow, Centre sector 3 red.
"""

from __future__ import annotations

from typing import Any

import pytest

from controller.games import CHANCE, TERMINAL, IllegalAction
from controller.games.scriptorium import GAME
from controller.games.scriptorium import board as B
from controller.games.scriptorium.state import ScriptoriumState

from .helpers import acts, field, location, play, pos

A = "3,0,1,0"


def refused(state: ScriptoriumState, action_text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        state.apply(state.action_from_text(action_text))
    return err.value.reason


# --- the board ------------------------------------------------------------------------------

def test_board_lines_from_the_layout_file() -> None:
    def names(loc_text: str) -> list[str]:
        return sorted(B.location_text(x) for x in B.NEIGHBOURS[location(loc_text)])

    assert names("i3") == ["i2", "i4", "m2", "m3"]          # Inner(p): Middle(p-1), Middle(p)
    assert names("o3") == ["m2", "m3", "o2", "o4"]          # Outer(p): Middle(p-1), Middle(p)
    assert names("m3") == ["i3", "i4", "m2", "m4", "o3", "o4"]
    assert names("i0") == ["i1", "i11", "m0", "m11"]        # wraps round
    assert {p: p for p in range(12)} == B.HUB_GATE         # the hub reaches Inner p through sector p
    assert len(B.LAYOUT.ring_lines) == 36 and len(B.LAYOUT.cross_lines) == 48
    # six colours, each twice per part, diametrically opposite
    for part in range(4):
        row = B.LAYOUT.space_colours[part]
        assert sorted(row) == sorted(list(range(6)) * 2)
        assert all(row[s] == row[(s + 6) % 12] for s in range(12))


def test_a_differently_drawn_board_needs_only_new_layout_data() -> None:
    data = {
        "name": "test", "positions": 12, "colours": ["red", "orange", "yellow", "green", "blue", "violet"],
        "parts": ["centre", "inner", "middle", "outer"],
        "angle_shift": {"centre": 0, "inner": 0, "middle": 0.5, "outer": 0},
        "space_colours": {p: [s % 6 for s in range(12)] for p in ("centre", "inner", "middle", "outer")},
        "hub_lines": [[p, (p + 1) % 12] for p in range(12)],
        "ring_lines": [["inner", 0, "inner", 1]],
        "cross_lines": [["outer", 5, "middle", 5, "a"]],
    }
    layout = B.load_layout(data)
    nb = layout.neighbours()
    assert nb[B.INNER * 12 + 0] == (B.INNER * 12 + 1,)
    assert nb[B.OUTER * 12 + 5] == (B.MIDDLE * 12 + 5,)
    assert nb[B.MIDDLE * 12 + 3] == ()
    data["cross_lines"] = [["centre", 5, "middle", 5, "a"]]
    with pytest.raises(ValueError):
        B.load_layout(data)


# --- moves ----------------------------------------------------------------------------------

def test_the_two_lines_from_an_inner_space() -> None:
    s = pos(offsets=A, pawns="i3,hub")
    assert acts(s.apply(("colour", 1))) == ["i3-m2"]   # orange: Middle(p-1)
    assert acts(s.apply(("colour", 4))) == ["i3-i4"]   # blue: the ring neighbour
    after = play(s, "roll orange", "i3-m2")
    assert field(after, "pawns") == "m2,hub"


def test_a_choice_of_two_same_coloured_targets() -> None:
    s = play(pos(offsets=A, pawns="i3,hub"), "roll yellow")
    assert s.current_player == 0 and s.phase == "move"
    assert acts(s) == ["i3-i2", "i3-m3"]
    assert field(play(s, "i3-i2"), "pawns") == "i2,hub"
    assert field(play(s, "i3-m3"), "pawns") == "m3,hub"


def test_a_middle_space_may_offer_three_targets() -> None:
    # m3's neighbours: i3, i4, m2, m4, o3, o4
    s = play(pos(offsets="0,1,0,2", pawns="m3,hub"), "roll green")
    # i3 (3-1)=yellow, i4 green; m2 yellow, m4 blue; o3 (3-2)=orange, o4 yellow -> only i4 is green
    assert acts(s) == ["m3-i4"]
    s = play(pos(offsets="0,1,0,2", pawns="m3,hub"), "roll yellow")
    assert acts(s) == ["m3-i3", "m3-m2", "m3-o4"]


def test_no_target_means_no_move_and_the_turn_passes() -> None:
    s = play(pos(offsets=A, pawns="i3,hub"), "roll green")   # nothing green next to i3
    assert s.phase == "roll" and field(s, "turn") == "orange"
    assert field(s, "pawns") == "i3,hub"


def test_a_space_holding_a_pawn_is_dead() -> None:
    s = play(pos(offsets=A, pawns="i3,m3"), "roll yellow")
    assert acts(s) == ["i3-i2"]
    assert refused(s, "i3-m3") == "m3 is a dead space: orange's pawn is on it"


def test_a_space_with_a_black_pin_is_dead() -> None:
    # orange on o1; o0 (red) carries red's pin; red neighbours: o0 (pinned), m1 (red)
    s = play(pos(offsets=A, pawns="hub,o1", pins="o0", turn="orange"), "roll red")
    assert acts(s) == ["o1-m1"]
    assert refused(s, "o1-o0") == "o0 is a dead space: a black pin marks it"


def test_the_hub_holds_any_number_of_pawns_and_leads_to_both_inner_spaces_of_the_colour() -> None:
    s = play(pos(offsets=A, pawns="hub,hub"), "roll yellow")
    assert acts(s) == ["hub-i2", "hub-i8"]
    after = play(s, "hub-i8")
    assert after.phase == "roll" and field(after, "turn") == "orange"   # hub -> Inner: no number die
    s = play(pos(offsets=A, pawns="hub,i2", turn="red"), "roll yellow")
    assert acts(s) == ["hub-i8"]


def test_inner_to_hub_only_through_a_matching_centre_sector() -> None:
    s = play(pos(offsets=A, pawns="i3,hub"), "roll red")       # Centre sector 3 shows red
    assert acts(s) == ["i3-hub"]
    s = play(pos(offsets=A, pawns="i3,hub"), "roll yellow")
    assert refused(s, "i3-hub") == ("the Centre sector at position 3 shows red, not yellow:"
                                     " no way into the hub from i3")
    s = play(pos(offsets=A, pawns="m3,hub"), "roll orange")
    assert acts(s) == ["m3-m2"]
    assert refused(s, "m3-hub") == "only an Inner space leads to the hub"


def test_a_matching_centre_sector_sends_the_pawn_to_the_hub() -> None:
    # offsets 2,0,1,0: Centre sector 3 shows orange, and so does m2: the hub takes precedence
    s = play(pos(offsets="2,0,1,0", pawns="i3,hub"), "roll orange")
    assert acts(s) == ["i3-hub"]
    assert refused(s, "i3-m2") == "the Centre sector at position 3 shows orange, so the pawn on i3 must go to the hub"


def test_other_bad_moves_say_which_rule_they_break() -> None:
    s = play(pos(offsets=A, pawns="i3,hub"), "roll yellow")
    assert refused(s, "i4-i5") == "red's pawn is on i3, not on i4"
    assert refused(s, "i3-m8") == "no black line joins i3 and m8"
    assert refused(s, "i3-o3") == "no black line joins i3 and o3"
    assert refused(s, "i3-i4") == "i4 is blue, but the colour die shows yellow"
    assert "no pawn moves now" in refused(play(pos(offsets=A, phase="clock", turn="orange", round=1, pawns="i3,hub"),
                                               ), "i3-i2")
    roll = pos(offsets=A, pawns="i3,hub")
    assert refused(roll, "i3-i2").startswith("a die decides now")
    assert refused(s, "roll blue").startswith("a roll of the colour die is not what comes next")


# --- changing circle: the number die and the turn of the circle left behind -------------------

def test_changing_circle_turns_the_circle_left_behind_by_the_number_die() -> None:
    s = play(pos(offsets=A, pawns="i3,i5"), "roll orange", "i3-m2")
    assert s.current_player == CHANCE and s.phase == "number"
    s = play(s, "number 4")
    assert s.current_player == 0 and s.phase == "rotate"
    assert acts(s) == ["turn inner left 4"]
    assert refused(s, "turn middle left 4") == "the Inner circle (the one the pawn left) must turn, not the Middle"
    assert refused(s, "turn inner right 4") == ("the Inner turns left (clockwise, the way the play goes round),"
                                                " not right")
    assert refused(s, "turn inner left 3") == "the number die shows 4: the Inner turns 4 spaces, not 3"
    after = play(s, "turn inner left 4")
    assert field(after, "offsets") == "3,4,1,0"
    assert field(after, "pawns") == "m2,i9"          # orange rode the Inner ring from i5 to i9
    view = after.physical_view()
    assert view["enc:inner"] == 4 and view["pos:inner:9"] == 1 and view["pos:inner:5"] == 0
    assert view["pos:middle:2"] == 1 and view["hub"] == 0
    assert after.phase == "roll" and field(after, "turn") == "orange"


def test_ruling_a_six_turns_the_circle_half_a_turn() -> None:
    # a 6 on the number die turns the Inner 6 of its 12 spaces: every space shows the colour it
    # showed before (each colour is twice on the ring, opposite), but the ring and orange's pawn on it
    # have gone half a turn round
    s = play(pos(offsets=A, pawns="i3,i5"), "roll orange", "i3-m2", "number 6")
    assert acts(s) == ["turn inner left 6"]
    assert refused(s, "turn inner left 5") == "the number die shows 6: the Inner turns 6 spaces, not 5"
    inner = [location(f"i{p}") for p in range(12)]
    colours_before = [s.colour_of(loc) for loc in inner]
    after = play(s, "turn inner left 6")
    assert field(after, "offsets") == "3,6,1,0"
    assert field(after, "pawns") == "m2,i11"          # orange rode half the ring round, i5 -> i11
    assert [after.colour_of(loc) for loc in inner] == colours_before
    view = after.physical_view()
    assert view["enc:inner"] == 6 and view["pos:inner:11"] == 1 and view["pos:inner:5"] == 0
    assert after.phase == "roll" and field(after, "turn") == "orange"
    # a half-turn either way is the same turn: "right 6" is accepted, and recorded as "left 6"
    assert s.action_from_text("turn inner right 6") == s.action_from_text("turn inner left 6")
    assert play(s, "turn inner right 6").to_text() == after.to_text()
    assert refused(s, "turn inner right 5").endswith("not right")


def test_pins_and_pawns_turn_with_their_ring() -> None:
    # red on o2 (yellow) leaves the Outer ring for m2; the Outer turns 3: red's pin o0 -> o3, orange o6 -> o9
    s = play(pos(offsets=A, pawns="o2,o6", pins="o0"), "roll orange")
    assert acts(s) == ["o2-m2", "o2-o1"]
    s = play(s, "o2-m2", "number 3")
    assert acts(s) == ["turn outer left 3"]
    after = play(s, "turn outer left 3")
    assert field(after, "offsets") == "3,0,1,3"
    assert field(after, "pins") == "o3"
    assert field(after, "pawns") == "m2,o9"
    assert after.colour_of(location("o3")) == 0 and after.visited(0) == 1   # the pin still marks red
    view = after.physical_view()
    assert view["pos:outer:3"] == 1 and view["pos:outer:0"] == 0 and view["enc:outer"] == 3


def test_moving_along_a_ring_or_out_of_the_hub_rolls_no_number_die() -> None:
    s = play(pos(offsets=A, pawns="o2,hub"), "roll orange", "o2-o1")
    assert s.phase == "roll" and field(s, "turn") == "orange"


def test_inner_to_hub_turns_the_inner_ring() -> None:
    s = play(pos(offsets=A, pawns="i3,i4"), "roll red", "i3-hub")
    assert s.phase == "number" and field(s, "pending") == "inner"
    s = play(s, "number 2", "turn inner left 2")
    assert field(s, "pawns") == "hub,i6" and field(s, "offsets") == "3,2,1,0"


# --- part 1: the two Outer spaces of your colour ---------------------------------------------

def test_leaving_your_outer_space_leaves_a_black_pin() -> None:
    s = pos(offsets=A, pawns="o0,hub")
    assert s.visited(0) == 1                      # standing on it counts as visited
    s = play(s, "roll orange", "o0-o1")
    assert field(s, "pins") == "o0" and s.visited(0) == 1
    assert s.physical_view()["pos:outer:0"] == 1  # the pin is sensed where the pawn was
    # another colour's Outer space gets no pin
    s = play(pos(offsets=A, pawns="o1,hub"), "roll red", "o1-m1")
    assert field(s, "pins") == "-"


# --- the sync clock ----------------------------------------------------------------------------

def test_a_full_round_ends_with_the_clock_for_the_player_who_closed_it() -> None:
    s = play(pos(offsets=A, pawns="hub,i3", turn="orange"), "roll green")   # orange cannot move
    assert s.phase == "clock" and s.current_player == 1 and field(s, "round") == "1"
    assert acts(s) == ["turn centre left 1"]
    assert refused(s, "turn inner left 1") == "the sync clock turns the active part, the Centre, not the Inner"
    assert refused(s, "turn centre left 2") == ("the sync clock turns one space per round: the Centre turns"
                                                " 1 space, not 2")
    after = play(s, "turn centre left 1")
    assert field(after, "offsets") == "4,0,1,0" and field(after, "active") == "centre"
    assert after.phase == "roll" and field(after, "turn") == "red"


def clock(offsets: str, active: str, outer_line: str = "same") -> tuple[str, str, bool]:
    s = pos(offsets=offsets, active=active, outer_line=outer_line, phase="clock", turn="orange", round=1)
    s = s.apply(s.legal_actions()[0])
    return field(s, "offsets"), field(s, "active"), s.aligned


def test_clock_centre_turns_until_it_meets_the_inner_then_hands_over() -> None:
    assert clock("3,0,1,2", "centre") == ("4,0,1,2", "centre", False)
    assert clock("11,0,1,2", "centre") == ("0,0,1,2", "inner", False)


def test_clock_inner_turns_until_it_meets_the_middle_by_either_line() -> None:
    assert clock("0,0,3,2", "inner") == ("0,1,3,2", "inner", False)
    assert clock("0,0,1,2", "inner") == ("0,1,1,2", "outer", False)     # line a: Inner p - Middle p
    assert clock("0,1,1,2", "inner") == ("0,2,1,2", "outer", False)     # line b: Inner p - Middle p-1


def test_clock_outer_must_meet_the_middle_by_the_inners_line_by_default() -> None:
    assert clock("0,1,1,0", "outer") == ("0,1,1,1", "centre", False)    # same line as the Inner: hand over
    # Inner meets Middle by line a; Outer reaches line b: only the literal variant hands over
    assert clock("5,1,1,1", "outer") == ("5,1,1,2", "outer", False)
    assert clock("5,1,1,1", "outer", "either") == ("5,1,1,2", "centre", False)


def test_alignment_by_the_clock_freezes_the_board() -> None:
    offsets, _active, aligned = clock("11,0,1,0", "centre")
    assert aligned and offsets == "0,0,1,0"
    # a full round on an aligned board: no clock
    s = play(pos(offsets="0,0,1,0", pawns="hub,i3", turn="orange"), "roll violet")
    assert s.phase == "roll" and field(s, "turn") == "red" and field(s, "round") == "1"
    # changing circle on an aligned board: no number die, nothing turns
    s = play(pos(offsets="0,0,1,0", pawns="i3,hub"), "roll yellow", "i3-m3")
    assert s.phase == "roll" and field(s, "offsets") == "0,0,1,0"


def test_alignment_reached_by_a_die_rotation() -> None:
    s = pos(offsets="0,11,1,0", pawns="i3,hub")
    assert not s.aligned
    s = play(s, "roll yellow")
    assert acts(s) == ["i3-m3"]
    s = play(s, "i3-m3", "number 1", "turn inner left 1")
    assert s.aligned and field(s, "offsets") == "0,0,1,0"
    assert s.public_view()["aligned"] is True


def test_a_die_rotation_can_hand_the_clock_over() -> None:
    # active Centre 3 vs Inner 4: the Inner turns 5 more (to 9 = 3 mod 6): Centre meets Inner
    s = play(pos(offsets="3,4,1,0", pawns="i3,hub"), "roll orange")
    # i3 with inner offset 4: (3-4)%6 = violet; m2 = orange
    s = play(s, "i3-m2", "number 5", "turn inner left 5")
    assert field(s, "offsets") == "3,9,1,0" and field(s, "active") == "inner" and not s.aligned


def test_every_board_aligns_by_the_clock_alone_in_the_default_rule() -> None:
    """All 216 relative starts (Centre, Inner, Outer against the Middle), clock only, Centre active:
    every one aligns within 22 rounds; in the literal variant 60 never do. In the default rule every
    board aligns within 22 rounds whichever part is active (so no die turn can leave it stuck)."""
    def rounds_to_align(offsets: str, active: str, outer_line: str) -> int | None:
        off = offsets
        for r in range(1, 60):
            off, active, aligned = clock(off, active, outer_line)
            if aligned:
                return r
        return None

    centre_active: dict[str, list[Any]] = {"same": [], "either": []}
    any_active: list[Any] = []
    for c in range(6):
        for i in range(6):
            for o in range(6):
                start = f"{c},{i},0,{o}"
                if B.is_aligned((c, i, 0, o)):
                    continue
                for line, results in centre_active.items():
                    results.append(rounds_to_align(start, "centre", line))
                any_active += [rounds_to_align(start, a, "same") for a in ("inner", "outer")]
    assert len(centre_active["same"]) == 216 - 6
    assert None not in centre_active["same"] and max(centre_active["same"]) == 22
    assert round(sum(centre_active["same"]) / 216, 1) == 10.8   # the 6 aligned starts count 0 rounds
    assert centre_active["either"].count(None) == 60
    assert None not in any_active and max(any_active) <= 22


def test_ruling_a_literal_board_that_never_aligns_by_the_clock_is_freed_only_by_a_die() -> None:
    # Inner meets the Middle by line a, the Outer by line b: the clock cycles forever
    off, active = "0,0,0,1", "centre"
    for _ in range(40):
        off, active, aligned = clock(off, active, "either")
        assert not aligned
    # a die turn of the Outer can align it: orange on o4 (o offset 1: (4-1)=green) leaves for the Middle
    s = pos(offsets="0,0,0,1", outer_line="either", pawns="hub,o4", turn="orange")
    s = play(s, "roll green")
    assert "o4-m3" in acts(s)
    s = play(s, "o4-m3", "number 5", "turn outer left 5")
    assert s.aligned
    # and the round limit ends the game if nothing does
    last = pos(offsets="0,0,0,1", outer_line="either", round_limit=3, round=2, pawns="hub,i3", turn="orange")
    over = play(last, "roll violet")
    assert over.is_terminal() and over.returns() == [0.0, 0.0] and over.winners() == []


# --- part 2 and the win --------------------------------------------------------------------------

def test_part_two_is_refused_before_alignment() -> None:
    s = pos(offsets=A, pawns="i3,hub", pins="o0,o6")
    assert s.visited(0) == 2
    s = play(s, "roll red", "i3-hub")
    assert not s.is_terminal() and s.winners() == []
    assert s.phase == "number"                    # an ordinary circle change


def test_part_two_won_after_alignment() -> None:
    s = pos(offsets="0,0,1,0", pawns="i3,o2", pins="o0,o6")
    s = play(s, "roll green")
    assert acts(s) == ["i3-hub"]
    s = play(s, "i3-hub")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.returns() == [1.0, -1.0] and s.winners() == [0]
    assert s.scores() == [3.0, 0.0]
    assert field(s, "winner") == "red"
    assert GAME.state_from_text(s.to_text()).to_text() == s.to_text()


def test_the_hub_wins_nothing_without_both_outer_spaces() -> None:
    s = play(pos(offsets="0,0,1,0", pawns="i3,hub", pins="o0"), "roll green", "i3-hub")
    assert not s.is_terminal() and s.phase == "roll" and field(s, "turn") == "orange"


def test_standing_on_the_second_outer_space_completes_part_one() -> None:
    s = pos(offsets="0,0,1,0", pawns="o6,hub", pins="o0")
    assert s.visited(0) == 2


# --- the start ------------------------------------------------------------------------------------

def test_setting_the_board_and_who_starts_are_chance_nodes() -> None:
    s = GAME.new_state(None, 3)
    assert s.current_player == CHANCE and s.phase == "setup"
    assert len(s.chance_outcomes()) == 12
    s = play(s, "set centre 5", "set inner 2", "set middle 7", "set outer 11")
    assert [a for a, _ in s.chance_outcomes()] == [("first", 0), ("first", 1), ("first", 2)]
    s = play(s, "first orange")
    assert s.phase == "roll" and field(s, "turn") == "orange" and field(s, "offsets") == "5,2,7,11"
    assert s.physical_view()["hub"] == 3
    fixed = GAME.new_state({"start": "0,3,5,8"}, 2)
    assert fixed.phase == "first" and field(fixed, "offsets") == "0,3,5,8"
    assert refused(GAME.new_state(None, 2), "set inner 3") == "the board is set part by part: the centre comes next"


def test_round_limit_draw() -> None:
    s = play(pos(round_limit=5, round=4, offsets=A, pawns="hub,i3", turn="orange"), "roll green")
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.winners() == []
    assert GAME.max_game_length({"round_limit": 5}, 2) == 5 + 5 * 9
