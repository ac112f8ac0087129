"""Towers, bridges and the win: five towers in one connected group."""

import itertools
from typing import Any

import pytest

from controller.games import CHANCE, TERMINAL, IllegalAction
from controller.games.jeocinco import board as B
from controller.games.jeocinco.state import JeocincoState

from .helpers import pent, placements, play, position, sides, slot, slot_path, texts


def _changed(a: JeocincoState, b: JeocincoState) -> set[str]:
    va, vb = a.physical_view(), b.physical_view()
    return {k for k in va if va[k] != vb[k]}


def test_five_sides_make_a_tower_that_replaces_one_piece() -> None:
    four = {n: 0 for n in sides("C3N") if n != "C3N-C3E"}
    s = position(pieces=four, roll="3C")
    s = play(s, "place C3N-C3E")
    assert s.phase == "tower" and s.current_player == 0
    assert texts(s) == [f"tower C3N {n}" for n in sides("C3N")]
    with pytest.raises(IllegalAction, match="tower must replace"):
        s.apply(s.action_from_text("place A1N-A1E"))
    with pytest.raises(IllegalAction, match="not a side of C3N"):
        s.apply(s.action_from_text("tower C3N A1N-A1E"))
    after = play(s, "tower C3N C3N-C3S")
    # one action, two channel changes: the piece leaves its slot, the tower stands on its socket
    assert _changed(s, after) == {"slot:C3N-C3S", "tower:C3N"}
    assert after.physical_view()["tower:C3N"] == 1 and after.physical_view()["slot:C3N-C3S"] == 0
    assert after.tower_count(0) == 1 and after.position.bridges_in_hand[0] == 1 and after.scores() == [1.0, 0.0]
    assert after.holder(slot("C3N-C3S")) == 0  # the slot the tower freed still counts as the owner's
    assert after.phase == "roll" and after.position.order[after.position.turn] == 1  # no bridge to lay: the turn ends


def test_the_slot_freed_by_a_tower_is_closed_to_everyone() -> None:
    s = position(players=3, colours="NES", towers={"C3N": "C3N-C3S"}, roll="3C", actor=2, turn=2)
    assert "C3N-C3S" not in placements(s)
    with pytest.raises(IllegalAction, match="held by player 0"):
        s.apply(s.action_from_text("place C3N-C3S"))


def test_only_your_own_colour_makes_a_tower() -> None:
    # player 0 (N) surrounds C3E (an E pentagon) with his path pieces: no tower
    four = {n: 0 for n in sides("C3E") if n != "C3E-D3W"}
    s = position(pieces=four, roll="*+")
    s = play(s, "place C3E-D3W")
    assert s.phase == "roll" and s.tower_count(0) == 0


def test_at_most_two_bridges_in_hand() -> None:
    four = {n: 0 for n in sides("C3N") if n != "C3N-C3E"}
    s = play(position(pieces=four, roll="3C", spare="20"), "place C3N-C3E", "tower C3N C3N-C3S")
    assert s.position.bridges_in_hand[0] == 2 and s.tower_count(0) == 1


def _bridge_position(**kw: Any) -> JeocincoState:
    # player 0 holds both supports of the waist bridge B3E-B3S~C3N-C3W and of its crossing twin
    pieces = {"B3E-B3S": 0, "C3N-C3W": 0, "B3N-B3E": 0, "C3S-C3W": 0}
    return position(pieces=pieces, **kw)


def test_a_bridge_is_laid_on_two_of_your_pieces_any_time_in_your_turn() -> None:
    s = _bridge_position(roll="3C", left="1+0", spare="10")
    acts = texts(s)
    assert "bridge B3E-B3S~C3N-C3W" in acts and "bridge B3N-B3E~C3S-C3W" in acts
    assert "done" not in acts  # a piece is still to be placed
    before = s
    s = play(s, "bridge B3E-B3S~C3N-C3W")  # before the piece
    assert _changed(before, s) == {"bridge:B3E-B3S~C3N-C3W"}
    assert s.position.bridges_in_hand[0] == 0 and s.current_player == 0 and s.position.rolled == 1
    s = play(s, "place C3N-C3E")
    assert s.phase == "roll"


def test_own_turn_bridges_hold_the_turn_until_done_which_keeps_the_bridge_in_hand() -> None:
    s = _bridge_position(roll="3C", left="0+0", spare="20", ownbridges=1)
    assert "done" in texts(s)
    s2 = play(s, "done")
    assert s2.phase == "roll" and s2.position.bridges_in_hand[0] == 2
    assert s2.physical_view() == s.physical_view()  # no physical trace: a button
    s3 = play(s, "bridge B3E-B3S~C3N-C3W")
    # the other bridge would cross the first: nothing left to do, the turn ends by itself
    assert s3.phase == "roll" and s3.position.bridges_in_hand[0] == 1
    s4 = _bridge_position(roll="3C", left="1+0", spare="10", bridges=("B3E-B3S~C3N-C3W",), ownbridges=1)
    assert "bridge B3N-B3E~C3S-C3W" not in texts(s4)
    with pytest.raises(IllegalAction, match="cross the bridge from B3E-B3S to C3N-C3W"):
        s4.apply(s4.action_from_text("bridge B3N-B3E~C3S-C3W"))


def test_bridge_refusals_say_why() -> None:
    s = _bridge_position(roll="3C", left="1+0", spare="00")
    with pytest.raises(IllegalAction, match=r"player 0 \(N\) has no bridge in hand"):
        s.apply(s.action_from_text("bridge B3E-B3S~C3N-C3W"))
    s = position(pieces={"B3E-B3S": 0, "C3N-C3W": 1}, roll="3C", spare="11")
    with pytest.raises(IllegalAction, match=r"two pieces of one player: slot B3E-B3S holds player 0 \(N\)'s, "
                                            r"slot C3N-C3W player 1 \(E\)'s"):
        s.apply(s.action_from_text("bridge B3E-B3S~C3N-C3W"))
    s = position(pieces={"B3E-B3S": 0}, roll="3C", spare="10")
    with pytest.raises(IllegalAction, match="slot C3N-C3W is empty"):
        s.apply(s.action_from_text("bridge B3E-B3S~C3N-C3W"))
    with pytest.raises(IllegalAction, match="no such bridge"):
        s.apply(("bridge", B.NUM_BRIDGES))
    # own-turn bridges: another player's, or in a turn not one's own (a challenged player placing his
    # extra piece), are refused
    s = _bridge_position(roll="3C", left="1+0", spare="10", actor=1, turn=1, ownbridges=1)
    with pytest.raises(IllegalAction, match=r"only during their owner's own turn .* not player 0 \(N\)'s"):
        s.apply(s.action_from_text("bridge B3E-B3S~C3N-C3W"))
    s = _bridge_position(roll="3C", left="0+1", spare="10", stage="X", actor=0, turn=1, ownbridges=1)
    with pytest.raises(IllegalAction, match="only during their owner's own turn"):
        s.apply(s.action_from_text("bridge B3E-B3S~C3N-C3W"))


def test_diagonal_bridges_can_be_switched_off() -> None:
    k = next(k for k in range(B.NUM_BRIDGES) if B.BRIDGE_FAMILY[k] == "diagonal")
    a, b = B.BRIDGE_SLOTS[k]
    pieces = {B.SLOT_NAMES[a]: 0, B.SLOT_NAMES[b]: 0}
    on = position(pieces=pieces, roll="*+", left="1+0", spare="10")
    assert f"bridge {B.BRIDGE_NAMES[k]}" in texts(on)
    off = position(pieces=pieces, roll="*+", left="1+0", spare="10", diagonal=0)
    assert f"bridge {B.BRIDGE_NAMES[k]}" not in texts(off)
    with pytest.raises(IllegalAction, match=r"diagonal bridges .* are off"):
        off.apply(("bridge", k))


def test_with_diagonal_bridges_off_a_base_or_waist_bridge_is_laid() -> None:
    # the waist bridge of the section 7 example, in the two-family variant
    s = _bridge_position(roll="3C", left="1+0", spare="10", diagonal=0)
    assert "bridge B3E-B3S~C3N-C3W" in texts(s)
    before = s
    s = play(s, "bridge B3E-B3S~C3N-C3W")
    assert _changed(before, s) == {"bridge:B3E-B3S~C3N-C3W"}
    assert s.position.bridges_in_hand[0] == 0
    assert s.position.bridges == (B.BRIDGE_INDEX[frozenset((slot("B3E-B3S"), slot("C3N-C3W")))],)
    # the bridge joins its supports: rolling 3B reaches B4E-B4S next to C3N-C3W (section 4)
    path = position(pieces={"B3E-B3S": 0, "C3N-C3W": 0}, roll="3B", bridges=("B3E-B3S~C3N-C3W",), diagonal=0)
    assert "B4E-B4S" in placements(path)


def test_with_diagonal_bridges_off_all_ninety_base_and_waist_pairs_are_layable() -> None:
    layable = []
    for k in range(B.NUM_BRIDGES):
        a, b = B.BRIDGE_SLOTS[k]
        s = position(pieces={B.SLOT_NAMES[a]: 0, B.SLOT_NAMES[b]: 0}, roll="*+", left="0+0", spare="10",
                     diagonal=0, ownbridges=1)
        if f"bridge {B.BRIDGE_NAMES[k]}" in texts(s):
            assert play(s, f"bridge {B.BRIDGE_NAMES[k]}").position.bridges == (k,)
            layable.append(B.BRIDGE_FAMILY[k])
    assert len(layable) == 90 and set(layable) == {"base", "waist"}


# ---- the win ------------------------------------------------------------------------------------

TOWERS = ["A1N", "C1N", "C3N", "E3N", "E5N"]


def _win_setup(connect_last: bool, last_complete: bool) -> tuple[dict[str, int], dict[str, str], str]:
    """Player 0 (N): towers on the first four pentagons joined by paths; the fifth has four sides
    (or a tower) and is joined to the others only if ``connect_last``."""
    pieces: dict[str, int] = {}
    towers: dict[str, str] = {}
    held = 0
    for name in TOWERS:
        held |= B.PENT_MASK[pent(name)]
    links = list(itertools.pairwise(TOWERS))
    if not connect_last:
        links = links[:-1]
    for x, y in links:
        for s in slot_path(B.PENT_MASK[pent(x)], B.PENT_MASK[pent(y)]):
            if not held >> s & 1:
                pieces[B.SLOT_NAMES[s]] = 0
    last_path_end = slot_path(B.PENT_MASK[pent(TOWERS[3])], B.PENT_MASK[pent(TOWERS[4])])[-1]
    missing = next(s for s in B.PENT_SLOTS[pent(TOWERS[4])] if s != last_path_end)
    for name in TOWERS[:4]:
        towers[name] = sides(name)[0]
    if last_complete:
        towers[TOWERS[4]] = B.SLOT_NAMES[missing]
    else:
        for s in B.PENT_SLOTS[pent(TOWERS[4])]:
            if s != missing:
                pieces[B.SLOT_NAMES[s]] = 0
    return pieces, towers, B.SLOT_NAMES[missing]


def test_a_fifth_tower_not_connected_does_not_win() -> None:
    pieces, towers, missing = _win_setup(connect_last=False, last_complete=False)
    s = position(pieces=pieces, towers=towers, roll="*+", left="2+0")
    s = play(s, f"place {missing}", f"tower E5N {missing}")
    assert s.tower_count(0) == 5
    assert not s.is_terminal() and s.returns() == [0.0, 0.0]


def test_a_fifth_tower_connected_to_the_other_four_wins() -> None:
    pieces, towers, missing = _win_setup(connect_last=True, last_complete=False)
    s = position(pieces=pieces, towers=towers, roll="*+", left="2+0")
    s = play(s, f"place {missing}")
    assert s.phase == "tower" and not s.is_terminal()
    s = play(s, f"tower E5N {missing}")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.returns() == [1.0, -1.0] and s.winners() == [0]
    assert s.position.end == ("five", 0)
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(("dice", 1, 1))


def test_the_piece_that_joins_five_towers_wins() -> None:
    pieces, towers, _ = _win_setup(connect_last=True, last_complete=True)
    path = [B.SLOT_NAMES[s] for s in slot_path(B.PENT_MASK[pent("E3N")], B.PENT_MASK[pent("E5N")])]
    gap = next(n for n in path[1:-1] if n in pieces)
    del pieces[gap]
    s = position(pieces=pieces, towers=towers, roll="*+", left="2+0")
    assert s.tower_count(0) == 5 and not s.is_terminal()
    assert gap in placements(s)
    s = play(s, f"place {gap}")
    assert s.is_terminal() and s.winners() == [0]


def test_five_towers_joined_by_a_bridge_win() -> None:
    # the first four towers joined by paths; the fifth joined through a bridge laid now
    pieces, towers, _ = _win_setup(connect_last=False, last_complete=True)
    k = next(k for k, (a, b) in enumerate(B.BRIDGE_SLOTS)
             if B.PENT_MASK[pent("E5N")] >> a & 1 or B.PENT_MASK[pent("E5N")] >> b & 1)
    a, b = B.BRIDGE_SLOTS[k]
    for x in (a, b):
        pieces.setdefault(B.SLOT_NAMES[x], 0)
    far = b if B.PENT_MASK[pent("E5N")] >> a & 1 else a
    for x in slot_path(B.PENT_MASK[pent("E3N")], 1 << far):
        pieces.setdefault(B.SLOT_NAMES[x], 0)
    s = position(pieces=pieces, towers={n: t for n, t in towers.items()}, roll="*+", left="1+0", spare="10")
    assert not s.is_terminal()
    s = play(s, f"bridge {B.BRIDGE_NAMES[k]}")
    assert s.is_terminal() and s.winners() == [0]
    # laid in the other player's turn, the bridge wins for its owner all the same
    s = position(pieces=pieces, towers={n: t for n, t in towers.items()}, roll="*+", left="1+0", spare="10",
                 actor=1, turn=1)
    assert s.current_player == 1 and s.player_of(s.action_from_text(f"bridge {B.BRIDGE_NAMES[k]}")) == 0
    s = play(s, f"bridge {B.BRIDGE_NAMES[k]}")
    assert s.is_terminal() and s.winners() == [0]


# ---- the round limit ----------------------------------------------------------------------------

def test_the_round_limit_ends_the_game_most_towers_wins() -> None:
    s = position(towers={"C3N": "C3N-C3S"}, rounds=5, round_=4, turn=1, actor=1, roll="1A")
    s = play(s, "place A1E-A1S")
    assert s.is_terminal() and s.position.end == ("limit", 0)
    assert s.returns() == [1.0, -1.0] and s.scores() == [1.0, 0.0]


def test_the_round_limit_ties_share_and_all_equal_is_a_draw() -> None:
    s = position(players=3, colours="NES", towers={"C3N": "C3N-C3S", "A1E": "A1E-s"}, rounds=5, round_=4,
                 turn=2, actor=2, roll="1A")
    s = play(s, "place A1S-se")
    assert s.is_terminal() and s.returns() == [0.5, 0.5, -1.0] and s.winners() == [0, 1]
    s = position(rounds=5, round_=4, turn=1, actor=1, roll="1A")
    s = play(s, "place A1E-A1S")
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.winners() == []


def test_the_round_limit_waits_for_the_last_turn() -> None:
    s = position(rounds=5, round_=4, turn=0, actor=0, roll="1A")
    s = play(s, "place A1N-A1E")
    assert s.current_player == CHANCE and s.position.order[s.position.turn] == 1
