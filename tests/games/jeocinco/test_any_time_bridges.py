"""Bridges "en cualquier momento": an earned bridge is laid at any decision, also in another
player's turn, by the owner of both its supports (own-turn bridges are the variant)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.games import CHANCE, IllegalAction
from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B
from controller.games.jeocinco.state import JeocincoState
from controller.games.record import Match, Record
from controller.journal import Journal
from controller.ledview import game_colours, player_colour
from tests.support.table import Table, expected_targets

from .helpers import play, position, sides, slot, texts

# Player 0 holds both supports of this waist bridge (and of its crossing twin), player 1 acts.
WAIST = "B3E-B3S~C3N-C3W"
SUPPORTS = {"B3E-B3S": 0, "C3N-C3W": 0, "B3N-B3E": 0, "C3S-C3W": 0}


def _in_player_1s_turn(**kw: Any) -> JeocincoState:
    return position(pieces=SUPPORTS, roll="3C", actor=1, turn=1, spare="10", **kw)


def test_a_bridge_is_laid_in_another_players_turn_and_the_turn_stays_his() -> None:
    s = _in_player_1s_turn()
    assert s.current_player == 1
    bridge = s.action_from_text(f"bridge {WAIST}")
    assert f"bridge {WAIST}" in texts(s) and s.player_of(bridge) == 0
    assert s.player_of(s.action_from_text("place C3E-C3S")) == 1
    assert s.physical_changes(bridge) == {f"bridge:{WAIST}": 1}
    after = s.apply(bridge)
    assert after.position.bridges == (B.BRIDGE_INDEX[frozenset((slot("B3E-B3S"), slot("C3N-C3W")))],)
    assert after.position.bridges_in_hand == (0, 0)  # the owner's bridge left his hand
    moved = after.position
    assert (after.current_player, moved.turn, moved.actor, moved.rolled, moved.roll) == (1, 1, 1, 1, s.position.roll)
    assert f"bridge {WAIST}" not in texts(after)
    assert play(after, "place C3E-C3S").phase == "roll"


def test_a_seat_is_offered_only_its_own_actions_not_anothers_bridge() -> None:
    s = _in_player_1s_turn()
    own = [s.action_to_text(a) for a in s.own_actions()]
    assert "place C3E-C3S" in own and f"bridge {WAIST}" not in own  # player 0's bridge is his to lay
    assert set(own) | {f"bridge {WAIST}"} <= set(texts(s))


def test_own_turn_bridges_refuse_a_bridge_out_of_turn() -> None:
    s = _in_player_1s_turn(ownbridges=1)
    assert not any(t.startswith("bridge") for t in texts(s))
    with pytest.raises(IllegalAction, match="only during their owner's own turn"):
        s.apply(s.action_from_text(f"bridge {WAIST}"))


def test_bridges_are_laid_while_another_player_builds_a_tower_or_places_a_waiting_piece() -> None:
    four = {n: 1 for n in sides("C3E") if n != "C3E-D3W"}
    s = play(position(pieces={**SUPPORTS, **four}, roll="3C", actor=1, turn=1, spare="10"), "place C3E-D3W")
    assert s.phase == "tower" and s.current_player == 1
    assert f"bridge {WAIST}" in texts(s)
    s = play(s, f"bridge {WAIST}")
    assert s.phase == "tower" and s.current_player == 1 and s.position.bridges_in_hand == (0, 0)
    # the challenged player 1 places his waiting extra piece after player 0's turn
    s = position(pieces=SUPPORTS, roll="3C", actor=1, turn=0, stage="X", left="0+1", spare="10")
    assert s.current_player == 1 and f"bridge {WAIST}" in texts(s)
    s = play(s, f"bridge {WAIST}")
    assert s.current_player == 1 and s.position.extra == 1


def test_the_turn_ends_with_its_pieces_though_a_bridge_is_in_hand() -> None:
    s = position(pieces=SUPPORTS, roll="3C", spare="10")
    after = play(s, "place C3N-C3E")
    assert after.phase == "roll" and after.position.turn == 1  # no done to press
    assert after.position.bridges_in_hand == (1, 0)
    own = play(position(pieces=SUPPORTS, roll="3C", spare="10", ownbridges=1), "place C3N-C3E")
    assert own.phase == "place" and "done" in texts(own)  # own-turn bridges: now or never


def test_pieces_with_no_slot_wait_while_a_bridge_can_be_laid() -> None:
    # Player 0 (N) rolls 3B: every side of B3N and every slot next to his piece on B3 is held, and
    # disputes are off. Laying his bridge joins C3N-C3W to that piece and opens its neighbours.
    mine = {"B3E-B3S", "C3N-C3W"}
    full = B.PENT_MASK[B.PENT_INDEX["B3N"]] | B.adjacent(1 << slot("B3E-B3S"))
    pieces = {B.SLOT_NAMES[s]: 1 for s in B.bits(full) if B.SLOT_NAMES[s] not in mine}
    s = position(pieces={**pieces, **dict.fromkeys(mine, 0)}, roll="3B", spare="10", disputes=0)
    assert texts(s) == [f"bridge {WAIST}", "done"]
    assert play(s, "done").phase == "roll"  # done forfeits the piece
    s = play(s, f"bridge {WAIST}")
    assert s.phase == "place" and "place B4E-B4S" in texts(s)


def _game_until_player_1_may_bridge() -> tuple[Match, str]:
    """A two-player game (dice entered as a table would) up to player 0's placement, with player 1
    holding a bridge whose supports are both his: a tower on C3E and C4E-C4S."""
    bridge = "C3E-C3S~C4E-C4S"
    targets = [*(n for n in sides("C3E") if n != "C3E-C3S"), "C3E-C3S", "C4E-C4S"]
    match = Match.new("jeocinco", {}, 2, seed=1)
    for text in ("roll 5", "roll 1", "colour N", "colour E"):
        match.apply_text(text)
    while True:
        match.apply_text("roll *+")  # two pieces anywhere in your colour or next to your pieces
        state = match.state
        assert isinstance(state, JeocincoState)
        if state.current_player == 0 and state.position.bridges_in_hand[1]:
            return match, bridge
        while match.state.current_player == state.current_player:
            s = match.state
            assert isinstance(s, JeocincoState)
            if s.phase == "tower":
                match.apply_text("tower C3E C3E-D3W")
            elif s.current_player == 1:
                match.apply_text(f"place {targets.pop(0)}")
            else:  # player 0 keeps clear of every piece (so of player 1's slots, and of towers)
                match.apply(next(a for a in s.legal_actions() if isinstance(a, tuple) and a[0] == "place"
                                 and B.SLOT_NAMES[a[1]] not in
                                 targets and not B.ADJ_MASK[a[1]] & (s.position.pieces[0] | s.position.pieces[1])))


def test_a_bridge_out_of_turn_replays_and_undoes_exactly() -> None:
    match, bridge = _game_until_player_1_may_bridge()
    state = match.state
    assert state.current_player == 0 and state.player_of(state.action_from_text(f"bridge {bridge}")) == 1
    before = state.to_text()
    match.apply_text(f"bridge {bridge}")
    match.apply(next(a for a in match.state.legal_actions() if isinstance(a, tuple) and a[0] == "place"))
    record = Record.from_dict(match.record.to_dict())
    assert record.replay().to_text() == match.state.to_text()
    match.undo()
    match.undo()
    assert match.state.to_text() == before


def test_a_bridge_laid_out_of_turn_at_the_board_is_taken_and_not_lit_as_the_players_target(tmp_path: Path) -> None:
    match, bridge = _game_until_player_1_may_bridge()
    path = str(tmp_path / "journal.sqlite")
    journal = Journal(path)
    journal.start("t-jeocinco", match.record)
    journal.close()
    channel = f"bridge:{bridge}"
    with Table("jeocinco", seed=1, journal=path) as table:
        table.idle()
        state = table.state
        assert isinstance(state, JeocincoState)
        assert state.current_player == 0 and state.position.bridges_in_hand == (0, 1)
        # player 0's LEDs show player 0's moves, not player 1's bridge
        colour = player_colour(0, game_colours(state))
        lit = table.lit_in(colour) - set(table.layout.status_leds)
        want = {i for c in expected_targets(GAME, state) for i in table.layout.leds_of[c]}
        assert lit == want and want
        assert channel not in expected_targets(GAME, state)
        assert not set(table.layout.leds_of[channel]) & lit
        assert channel not in table.service.call(table.service.public_state)["targets"]
        # player 1 lays it in player 0's turn: the referee takes it, the turn stays player 0's
        moves = table.moves
        table.hands.set_channels({channel: 1})
        table.wait(lambda s: len(s.match.record.actions) == moves + 1, "the bridge to be taken")
        table.idle()
        assert table.verdict.kind in ("applied", "in_sync")
        state = table.state
        assert isinstance(state, JeocincoState)
        assert state.position.bridges_in_hand == (0, 0) and state.current_player == 0 and state.phase == "place"
        # undo takes it back; lifted again, the board is in sync; laid again, it is taken again
        table.hands.press("undo")
        table.wait(lambda s: len(s.match.record.actions) == moves, "the undo")
        table.hands.set_channels({channel: 0})
        table.idle()
        state = table.state
        assert isinstance(state, JeocincoState)
        assert table.verdict.kind == "in_sync" and state.position.bridges_in_hand == (0, 1)
        table.hands.set_channels({channel: 1})
        table.wait(lambda s: len(s.match.record.actions) == moves + 1, "the bridge to be taken again")
        # player 0 goes on with his turn at the board: his two pieces
        for _ in range(2):
            table.play(next(a for a in table.state.legal_actions() if isinstance(a, tuple) and a[0] == "place"))
        table.idle()
        final = table.state
        assert isinstance(final, JeocincoState)
        assert final.current_player == CHANCE and final.position.turn == 1
        record = Record.from_dict(table.service.session.match.record.to_dict())
    assert f"bridge {bridge}" in record.actions
    assert record.replay().to_text() == final.to_text()
