"""The remote sync core (``controller.remote``), pure: two boards' :class:`Sync` exchanging wires in
memory, delivered late, twice, out of order or changed on the way."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from controller.games import CHANCE, get_game
from controller.games.chance import commitment, draw, seed_secret
from controller.games.record import Match
from controller.remote import JoinCode, Sync, Wire, hides_information
from controller.seats.remote import RemoteSeat

SECRET = seed_secret(7)

REMOTE = RemoteSeat.kind  # the seat another board plays


def pair(game: str, options: dict[str, Any] | None = None, players: int = 2) -> tuple[Sync, Sync]:
    """A host (seat 0 at its table) and a joining board (seat 1 and up)."""
    g = get_game(game)
    opts, n = g.resolve(options, players)
    code = JoinCode("a", "b", game, opts, n, ("table", *(REMOTE,) * (n - 1)), commitment(SECRET))
    code = JoinCode.decode(code.encode())  # as it travels
    host = Sync("a", code, code.seats)
    host.secret = SECRET
    return host, Sync("b", code, code.joiner_seats())


def play(host: Sync, joiner: Sync, rng: random.Random) -> Wire:
    """The next action, by the board whose it is (the host draws chance with its secret)."""
    state = owner(host, joiner).state
    if state.current_player == CHANCE:
        node = Match(host.record()).chance_node(len(host.log))
        action = draw(SECRET, node, state.chance_outcomes())
        wire = host.local(state.action_to_text(action), drawn=True)
    else:
        board = host if host.seats[state.current_player] != REMOTE else joiner
        wire = board.local(state.action_to_text(rng.choice(state.own_actions())))
    assert wire is not None
    return wire


def owner(host: Sync, joiner: Sync) -> Sync:
    """The board to play next, on the line of play that has gone furthest."""
    state = max(host, joiner, key=lambda s: len(s.log)).state
    return host if state.current_player == CHANCE or host.seats[state.current_player] != REMOTE else joiner


def other(host: Sync, joiner: Sync, wire: Wire) -> Sync:
    return joiner if wire.board == host.me else host


@pytest.mark.parametrize(("game", "options"), [("contigo", {}), ("jeocinco", {"max_rounds": 8}),
                                               ("scriptorium", {"round_limit": 15})])
def test_a_whole_game_agrees_with_late_repeated_and_reordered_wires(game: str, options: dict[str, Any]) -> None:
    host, joiner = pair(game, options)
    rng = random.Random(3)
    held: list[Wire] = []
    applied: list[int] = []

    def deliver() -> None:  # the bridge is back: what waited arrives reversed, and twice
        for w in reversed(held):
            applied.extend(a.seq for a in other(host, joiner, w).receive(w))
            assert other(host, joiner, w).receive(w) == []  # a repeat is ignored
        held.clear()

    while not (host.state.is_terminal() and joiner.state.is_terminal()) and len(host.log) < 400:
        if held and (rng.random() < 0.3 or len(owner(host, joiner).log) < max(len(host.log), len(joiner.log))):
            deliver()  # a board plays only once it has caught up
        if max(host, joiner, key=lambda s: len(s.log)).state.is_terminal():
            break
        held.append(play(host, joiner, rng))
    deliver()
    assert host.stopped is None and joiner.stopped is None
    assert [w.text for w in host.log] == [w.text for w in joiner.log]
    assert sorted(applied) == sorted(set(applied))  # nothing agreed twice
    assert len(applied) == len(host.log)  # nothing lost: each action crossed once


def test_a_wrong_digest_stops_the_game_saying_which_action_and_why() -> None:
    host, joiner = pair("contigo")
    rng = random.Random(1)
    while True:
        wire = play(host, joiner, rng)
        if wire.board == host.me and host.state.current_player != CHANCE:
            break
        other(host, joiner, wire).receive(wire)
    forged = dataclasses.replace(wire, digest="0" * 32)
    assert joiner.receive(forged) == []
    assert joiner.stopped is not None and joiner.stopped.seq == wire.seq
    assert "another position" in joiner.stopped.reason and wire.text in joiner.stopped.reason
    # The host hears of it from the joining board's status, and stops too.
    host.peer_status(joiner.status())
    assert host.stopped == joiner.stopped


def test_a_move_for_a_seat_the_sender_does_not_own_is_refused() -> None:
    host, joiner = pair("contigo")
    state = joiner.state
    text = state.action_to_text(state.own_actions()[0])
    if state.current_player == CHANCE or joiner.seats[state.current_player] == REMOTE:
        from controller.remote import digest
        forged = Wire(1, text, digest(state.apply(state.action_from_text(text))), "b")
        assert host.receive(forged) == []
        assert host.stopped is not None and "to play" in host.stopped.reason


def test_an_action_that_differs_at_a_known_seq_is_a_disagreement() -> None:
    host, joiner = pair("contigo")
    rng = random.Random(2)
    wire = play(host, joiner, rng)
    other(host, joiner, wire).receive(wire)
    assert other(host, joiner, wire).receive(wire) == []
    assert other(host, joiner, wire).stopped is None
    changed = Wire(wire.seq, "x" + wire.text, wire.digest, wire.board)
    other(host, joiner, wire).receive(changed)
    stopped = other(host, joiner, wire).stopped
    assert stopped is not None and stopped.seq == wire.seq


def test_a_status_tells_what_to_send_again() -> None:
    host, joiner = pair("scriptorium")
    rng = random.Random(4)
    mine: list[Wire] = []
    while len(mine) < 3:  # the host's actions (its seat's, and the dice): the joining board gets the first
        wire = play(host, joiner, rng)
        board = other(host, joiner, wire)
        if wire.board == joiner.me or not mine:
            board.receive(wire)
        if wire.board == host.me:
            mine.append(wire)
    assert len(joiner.log) < len(host.log)
    again = host.peer_status(joiner.status())
    assert [w.seq for w in again] == [w.seq for w in host.log[len(joiner.log):]]
    assert [a.seq for w in again for a in joiner.receive(w)] == [w.seq for w in again]


def test_a_stale_status_sends_nothing_again_and_a_new_connection_s_does() -> None:
    """A status made before wires the other board has since taken (it waited in a busy loop's
    queue) asks for nothing: sending them again for every such status flooded both boards. After
    a restart the other board's new connection says afresh what it has."""
    host, joiner = pair("scriptorium")
    rng = random.Random(4)
    early = joiner.status()
    while len(host.log) < 4:
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
    assert len(joiner.log) == len(host.log) > early["have"]
    assert host.peer_status({**joiner.status(), "link": "b1:1"}) == []
    assert host.peer_status({**early, "link": "b1:1"}) == []  # stale: the wires it lacks have come since
    assert host.peer_have == len(host.log)
    again = host.peer_status({**early, "link": "b2:1"})  # the joining board started again with less
    assert [w.seq for w in again] == [w.seq for w in host.log[early["have"]:] if w.board == host.me] != []

def test_the_joining_board_checks_every_drawn_outcome_against_the_commitment() -> None:
    host, joiner = pair("scriptorium", {"round_limit": 15})
    rng = random.Random(5)
    while not host.state.is_terminal():
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
    assert host.status()["secret"] == SECRET.hex()
    joiner.peer_status(host.status())
    assert joiner.verified and joiner.stopped is None
    assert host.record_json() == joiner.record_json()
    assert host.record_json()["boards"] == {"host": "a", "joiner": "b"}


def test_a_secret_that_is_not_the_commitments_stops_the_game() -> None:
    host, joiner = pair("scriptorium", {"round_limit": 15})
    rng = random.Random(5)
    while not host.state.is_terminal():
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
    joiner.peer_status({**host.status(), "secret": seed_secret(8).hex()})
    assert not joiner.verified and joiner.stopped is not None and "does not verify" in joiner.stopped.reason


def test_the_secret_stays_on_the_host_while_the_game_runs() -> None:
    host, joiner = pair("scriptorium")
    rng = random.Random(6)
    for _ in range(5):
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
        assert host.status()["secret"] is None
        assert SECRET.hex() not in str(wire.to_json())


def test_join_codes_refuse_other_text() -> None:
    with pytest.raises(ValueError, match="begins with"):
        JoinCode.decode("hello")
    with pytest.raises(ValueError, match="not a join code"):
        JoinCode.decode("arbitro-join:!!!")
    code = JoinCode("a", "b", "contigo", {}, 2, ("table", "bot:easy"), "c")
    with pytest.raises(ValueError, match="no remote seat"):
        JoinCode.decode(code.encode())


def test_wires_refuse_other_json() -> None:
    with pytest.raises(ValueError):
        Wire.from_json({"seq": 0, "text": "x", "digest": "d", "board": "a", "drawn": False})
    with pytest.raises(ValueError):
        Wire.from_json([1])
    wire = Wire(3, "a1", "d", "a", True)
    assert Wire.from_json(wire.to_json()) == wire


def test_dealt_cards_are_hidden_information() -> None:
    assert hides_information("serpientes", {"dealing": "arbitro"})
    assert not hides_information("serpientes", {"dealing": "physical"})
    assert not hides_information("contigo", {})


def restarted(board: Sync, peer: Sync, actions: int) -> Sync:
    """``board`` after a restart: its journal kept ``actions`` actions, with its own seats."""
    record = dataclasses.replace(board.record(), actions=[w.text for w in board.log[:actions]],
                                 drawn={w.seq - 1: 0 for w in board.log[:actions] if w.drawn}, seats=list(board.seats))
    if not board.host:
        record.keys = [dataclasses.replace(record.keys[0], secret=None)]
    return Sync.resumed(board.me, peer.me, record)


def to_carry_out(host: Sync, joiner: Sync, rng: random.Random) -> Wire:
    """Play on until the joining board has agreed a move of the host's table, not yet carried out."""
    while True:
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
        if wire.board == host.me and not wire.drawn:
            return wire


def test_a_move_lit_again_after_a_restart_and_carried_out_before_its_wire_comes_back_agrees() -> None:
    """The race after a restart: the joining board had agreed the host's move (lit for carry-out),
    then restarted on a journal without it. The journal lights it again and the table carries it
    out before the host's status and resent wire arrive: the move is the host's, not a stop, and
    the wire that then comes again is a repeat."""
    host, joiner = pair("contigo")
    rng = random.Random(8)
    wire = to_carry_out(host, joiner, rng)
    joiner = restarted(joiner, host, wire.seq - 1)
    assert joiner.local(wire.text) is None  # the other board's move: nothing to send it
    assert joiner.stopped is None and joiner.log[-1] == wire
    again = host.peer_status({**joiner.status(), "have": wire.seq - 1})  # the status from before it
    assert wire in again and all(joiner.receive(w) == [] for w in again)
    while not host.state.is_terminal():
        wire = play(host, joiner, rng)
        other(host, joiner, wire).receive(wire)
    joiner.peer_status(host.status())
    assert host.stopped is None and joiner.stopped is None and joiner.verified
    assert [w.text for w in host.log] == [w.text for w in joiner.log]


def test_a_move_lit_again_after_a_restart_that_the_other_board_did_not_play_stops_the_game() -> None:
    host, joiner = pair("contigo")
    wire = to_carry_out(host, joiner, random.Random(8))
    joiner = restarted(joiner, host, wire.seq - 1)
    state = joiner.state
    other_move = next(t for t in map(state.action_to_text, state.own_actions()) if t != wire.text)
    assert joiner.local(other_move) is None and joiner.stopped is None
    assert joiner.receive(wire) == []
    assert joiner.stopped is not None and joiner.stopped.seq == wire.seq
    assert other_move in joiner.stopped.reason and wire.text in joiner.stopped.reason


def test_a_chance_outcome_drawn_on_the_joining_board_stops_the_game() -> None:
    _, joiner = pair("contigo")
    state = joiner.state
    assert state.current_player == CHANCE
    assert joiner.local(state.action_to_text(state.chance_outcomes()[0][0]), drawn=True) is None
    assert joiner.stopped is not None and "a's to play" in joiner.stopped.reason


def test_the_record_is_the_same_on_both_boards_after_either_restarts() -> None:
    """The joining board learns the host's seats (a computer player here) from the host's status,
    also after a restart, so the record of the remote game stays the same on both boards."""
    g = get_game("contigo")
    opts, n = g.resolve({}, 2)
    code = JoinCode("a", "b", "contigo", opts, n, ("bot:hard", REMOTE), commitment(SECRET))
    host, joiner = Sync("a", code, code.seats), Sync("b", code, code.joiner_seats())
    host.secret = SECRET
    wire = to_carry_out(host, joiner, random.Random(9))
    for restarts in ("b", "a", "b"):
        if restarts == "b":
            joiner = restarted(joiner, host, len(joiner.log))
        else:
            host = restarted(host, joiner, len(host.log))
        host.peer_status(joiner.status())
        joiner.peer_status(host.status())
        assert host.record_json() == joiner.record_json(), restarts
        assert joiner.record_json()["seats"] == ["bot:hard", REMOTE]
    assert wire in joiner.log
