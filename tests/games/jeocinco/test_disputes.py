"""Disputes: who may challenge what, the roll-off, the extra piece, the order of play, bridges."""

import pytest

from controller.games import CHANCE, IllegalAction
from controller.games.jeocinco import board as B

from .helpers import disputable, placements, play, position, slot


def test_a_dispute_won_takes_the_slot_and_earns_an_extra_piece() -> None:
    s = position(pieces={"C3N-C3E": 1}, roll="3C")
    assert "C3N-C3E" in disputable(s)
    before = s.physical_view()
    s = play(s, "dispute C3N-C3E")
    assert s.phase == "challenge" and s.current_player == CHANCE
    assert s.physical_view() == before  # the challenger's piece only leans against the slot
    s = play(s, "roll 5")
    assert s.phase == "defence" and s.current_player == CHANCE
    s = play(s, "roll 2")
    assert s.holder(slot("C3N-C3E")) == 0
    assert (s.phase, s.current_player, s.position.rolled, s.position.extra) == ("place", 0, 0, 1)
    # the extra piece goes anywhere under the placement rules: any N side or next to a piece of yours
    assert "A1N-A1E" in placements(s)
    assert "C3E-C3S" in placements(s)  # next to the won piece
    s = play(s, "place A1N-A1E")
    assert s.phase == "roll" and s.position.order[s.position.turn] == 1


def test_a_dispute_lost_costs_the_piece_and_the_challenged_plays_his_extra_after_the_challenger() -> None:
    # three players in order 0, 1, 2; player 0 (N) rolled 3+ (two pieces) and challenges player 2 (S)
    s = position(players=3, colours="NES", pieces={"C3N-C3S": 2}, roll="3+", left="2+0")
    s = play(s, "dispute C3N-C3S", "roll 2", "roll *")  # the wildcard is the highest roll
    assert s.holder(slot("C3N-C3S")) == 2
    assert (s.current_player, s.position.rolled, s.position.extra) == (0, 1, 0)  # the challenger finishes first
    assert s.position.queue == ((2, 1),)
    s = play(s, "place C3N-C3E")
    assert (s.phase, s.current_player, s.position.extra) == ("place", 2, 1)  # then the challenged's extra piece
    assert "A1S-se" in placements(s)  # anywhere in his colour
    s = play(s, "place A1S-se")
    assert s.phase == "roll" and s.position.order[s.position.turn] == 1  # and play goes on with the next player


def test_the_wildcard_beats_five_and_ties_are_rolled_again() -> None:
    s = position(pieces={"C3N-C3E": 1}, roll="3C")
    s = play(s, "dispute C3N-C3E", "roll 4", "roll 4")
    assert s.phase == "challenge" and s.position.dispute is not None
    assert s.position.dispute[4] == 1  # tie: both roll again
    s = play(s, "roll *", "roll 5")
    assert s.holder(slot("C3N-C3E")) == 0


def test_endless_ties_leave_the_piece_with_the_challenged() -> None:
    s = position(pieces={"C3N-C3E": 1}, roll="3C", phase="challenge", dispute="C3N-C3E:0:1:-:9", disputed=1,
                 left="0+0")
    s = play(s, "roll 3", "roll 3")  # the tenth tie
    assert s.holder(slot("C3N-C3E")) == 1
    # the challenger has nothing left to place, so the challenged plays his extra piece at once
    assert (s.current_player, s.position.extra, s.position.queue) == (1, 1, ())


def test_a_path_piece_can_be_disputed_by_a_player_whose_path_reaches_it() -> None:
    # player 1's piece on C3S-C3W (an S|W slot: neither player's colour). Player 0 (N) reaches it
    # from his piece on C3N-C3W (on the rolled hexagon), player 0 with no piece near cannot.
    s = position(pieces={"C3S-C3W": 1, "C3N-C3W": 0}, roll="3C")
    assert "C3S-C3W" in disputable(s)
    s = position(pieces={"C3S-C3W": 1}, roll="3C")
    assert "C3S-C3W" not in disputable(s)
    with pytest.raises(IllegalAction, match="hexagon C3"):
        s.apply(s.action_from_text("dispute C3S-C3W"))


def test_a_completed_pentagon_can_never_be_disputed() -> None:
    s = position(towers={"C3E": "C3E-C4S"}, roll="3C")  # C3N-C3E is a side of the completed C3E
    assert "C3N-C3E" not in disputable(s)
    with pytest.raises(IllegalAction, match=r"completed pentagon C3E .*never be disputed"):
        s.apply(s.action_from_text("dispute C3N-C3E"))


def test_dispute_reasons() -> None:
    s = position(pieces={"C3N-C3S": 0}, roll="3C")
    with pytest.raises(IllegalAction, match="empty: nothing to dispute"):
        s.apply(s.action_from_text("dispute C3N-C3E"))
    with pytest.raises(IllegalAction, match="your own piece"):
        s.apply(s.action_from_text("dispute C3N-C3S"))


def test_at_most_so_many_disputes_per_turn() -> None:
    s = position(pieces={"C3N-C3E": 1, "C3N-C3S": 1}, roll="3+", left="2+0", disputes=1)
    s = play(s, "dispute C3N-C3E", "roll 1", "roll 2")  # lost
    assert s.current_player == 0 and s.position.rolled == 1
    assert disputable(s) == set()
    with pytest.raises(IllegalAction, match="at most 1 disputes"):
        s.apply(s.action_from_text("dispute C3N-C3S"))


def test_a_bridge_falls_with_its_lost_support() -> None:
    bridge = "C3N-C3E~D3S-D3W"
    s = position(pieces={"C3N-C3E": 1, "D3S-D3W": 1}, bridges=(bridge,), roll="3C")
    assert s.physical_view()[f"bridge:{bridge}"] == 1
    s = play(s, "dispute C3N-C3E", "roll *", "roll 1")
    assert s.holder(slot("C3N-C3E")) == 0
    assert s.position.bridges == ()
    assert s.physical_view()[f"bridge:{bridge}"] == 0
    assert s.holder(slot("D3S-D3W")) == 1  # the other support stays


def test_a_bridge_between_two_completed_pentagons_cannot_be_lost() -> None:
    # the diagonal bridge C3N-C4W~C4N-C4W... rests on sides of two N pentagons; use C3N and the N
    # pentagon facing it across a slanted slot
    k = next(k for k, (a, b) in enumerate(B.BRIDGE_SLOTS)
             if any(p == B.PENT_INDEX["C3N"] for p in B.SLOT_PENTS[a] + B.SLOT_PENTS[b])
             and all(any(B.PENT_COLOUR[p] == 0 for p in B.SLOT_PENTS[x]) for x in (a, b)))
    a, b = B.BRIDGE_SLOTS[k]
    pa, pb = (next(p for p in B.SLOT_PENTS[x] if B.PENT_COLOUR[p] == 0) for x in (a, b))
    assert {B.PENT_NAMES[pa], B.PENT_NAMES[pb]} >= {"C3N"}
    towers = {}
    for p, x in ((pa, a), (pb, b)):  # the tower replaces a piece that is not the support
        towers[B.PENT_NAMES[p]] = next(B.SLOT_NAMES[t] for t in B.PENT_SLOTS[p] if t != x)
    # player 1 (E) plays with both wildcards: anything N or E... he cannot touch the supports
    s = position(colours="NE", towers=towers, bridges=(B.BRIDGE_NAMES[k],), roll="*+", left="2+0",
                 actor=1, turn=1, pieces={"A1E-A1S": 1})
    assert not {B.SLOT_NAMES[a], B.SLOT_NAMES[b]} & disputable(s)
    with pytest.raises(IllegalAction, match="never be disputed"):
        s.apply(("dispute", a))


def test_a_bridge_with_one_support_in_a_completed_pentagon_can_still_fall() -> None:
    # player 0 (N) completed C3N; bridge C3N-C3E~D3S-D3W rests on C3N-C3E (completed) and D3S-D3W
    # (not completed, an S|W slot); player 1 reaches D3S-D3W along his path and wins it.
    bridge = "C3N-C3E~D3S-D3W"
    s = position(colours="NE", towers={"C3N": "C3N-C3S"}, pieces={"D3S-D3W": 0, "D3N-D3S": 1},
                 bridges=(bridge,), roll="3D", actor=1, turn=1)
    assert "D3S-D3W" in disputable(s) and "C3N-C3E" not in disputable(s)
    s = play(s, "dispute D3S-D3W", "roll 5", "roll 4")
    assert s.holder(slot("D3S-D3W")) == 1 and s.position.bridges == ()


def test_only_the_actor_disputes_and_only_with_a_piece_to_place() -> None:
    s = position(pieces={"C3N-C3E": 1, "A1N-A1E": 0}, roll="3C", left="0+0", spare="10",
                 bridges=())
    with pytest.raises(IllegalAction, match="no piece left"):
        s.apply(("dispute", slot("C3N-C3E")))
