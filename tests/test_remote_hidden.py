"""A remote game with dealt hidden cards (``controller.remote_hidden``), pure: the host's and the
joining board's :class:`Sync` exchanging wires in memory. The joining board holds only what its
seats may know, is dealt its own cards sealed, follows the host's hidden cards unseen, and checks
the host's whole record at the end."""

from __future__ import annotations

import dataclasses
import random

import pytest

from controller.config import Config
from controller.games import CHANCE, get_game
from controller.games.chance import commitment, draw, seed_secret
from controller.games.record import Match, Record, verify
from controller.games.serpientes.state import SerpientesState
from controller.remote import JoinCode, Sync, Wire
from controller.remote_hidden import private_key, public_key
from controller.seats.remote import RemoteSeat
from controller.session import Session

REMOTE = RemoteSeat.kind  # the seat another board plays

SECRET = seed_secret(11)
OPTIONS = {"tokens": 3, "max_rounds": 4}
SEATS = ("table", REMOTE, "table")  # the joining board plays seat 1


def pair() -> tuple[Sync, Sync]:
    """A host (seats 0 and 2) and a joining board (seat 1), each with its key; the host does not
    yet know the joining board's (it comes in the joining board's first status)."""
    g = get_game("serpientes")
    opts, n = g.resolve(OPTIONS, 3)
    host_key = private_key(b"h" * 32)
    code = JoinCode.decode(JoinCode("a", "b", "serpientes", opts, n, SEATS, commitment(SECRET),
                                    public_key(host_key)).encode())
    host = Sync("a", code, code.seats, secret=SECRET, key=host_key)
    joiner = Sync("b", code, code.joiner_seats(), key=private_key(b"j" * 32))
    return host, joiner


def truth(host: Sync) -> SerpientesState:
    assert isinstance(host.state, SerpientesState)
    return host.state


def play(host: Sync, joiner: Sync, rng: random.Random, forge_draw: bool = False) -> Wire | None:
    """The next action, by the board whose it is: the host draws chance with its secret (or, with
    ``forge_draw``, a card of its own choosing for its own seat), each board plays its own seats
    from the position it holds."""
    state = host.state
    if state.current_player == CHANCE:
        node = Match(host.record()).chance_node(len(host.log))
        outcomes = state.chance_outcomes()
        action = draw(SECRET, node, outcomes)
        if forge_draw:
            action = next(a for a, _ in outcomes if a != action)
        return host.local(state.action_to_text(action), drawn=True)
    board = joiner if host.seats[state.current_player] == REMOTE else host
    return board.local(board.state.action_to_text(rng.choice(board.state.own_actions())))


def exchange(host: Sync, joiner: Sync) -> None:
    """Each board's status to the other, and the wires it lacks sent again."""
    for wire in joiner.peer_status(host.status()):
        host.receive(wire)
    for wire in host.peer_status(joiner.status()):
        joiner.receive(wire)


def host_seat_to_draw(host: Sync) -> bool:
    p = truth(host).position
    return p.phase == "draw" and SEATS[p.player] != REMOTE


def play_to_the_end(host: Sync, joiner: Sync, rng: random.Random, forge_at: int = -1) -> list[Wire]:
    """A whole game, each wire delivered at once (the statuses exchanged first: the keys)."""
    exchange(host, joiner)
    crossed = []
    while not host.state.is_terminal():
        forge = len(host.log) >= forge_at >= 0 and host_seat_to_draw(host)
        if forge:
            forge_at = -1
        wire = play(host, joiner, rng, forge_draw=forge)
        assert wire is not None and host.stopped is None and joiner.stopped is None, (host.stopped, joiner.stopped)
        (joiner if wire.board == host.me else host).receive(wire)
        crossed.append(wire)
    return crossed


def test_a_joiner_seat_is_dealt_its_cards_sealed_once_the_host_knows_its_key() -> None:
    host, joiner = pair()
    rng = random.Random(1)
    held = []
    while truth(host).position.phase in ("tokens", "first", "deal"):
        held.append(play(host, joiner, rng))
    # The joining board's key is not known yet: a card dealt to its seat waits, sealed later.
    dealt_to_b = [w.seq for w in host.log if w.text == "draw" and w.seq in host.unsealed]
    assert dealt_to_b and all(held[seq - 1] is None for seq in dealt_to_b)
    assert all(w is not None for w in held if w is not None and w.seq not in dealt_to_b)
    exchange(host, joiner)
    assert len(joiner.log) == len(host.log) and joiner.stopped is None
    for wire in host.log:  # every wire says "draw" only; the joining board's cards come sealed for it
        assert wire.text == "draw" or not wire.text.startswith("draw")
        assert bool(wire.sealed) == (wire.seq in dealt_to_b)
    followed = joiner.state
    assert isinstance(followed, SerpientesState)
    assert followed.private_view(1)["hand"] == truth(host).private_view(1)["hand"]
    assert followed.public_text() == truth(host).public_text()


def test_a_whole_dealt_game_agrees_and_the_host_record_is_checked_at_the_end() -> None:
    host, joiner = pair()
    crossed = play_to_the_end(host, joiner, random.Random(2))
    # A host's seat played cards the joining board could not see: it rearranged its unseen cards.
    arranged = [host.text(seq) for seq in joiner.arranged]
    assert any(t.startswith("step") for t in arranged), "no host's step needed a card placed elsewhere"
    assert any(t.startswith("draw") for t in arranged), "no card dealt to b needed one"
    kinds = truth(host).kinds
    hidden = {f"{verb} {k}" for verb in ("draw", "add") for k in kinds}
    for wire in crossed:  # nothing on the way names a hidden card in plain text
        assert wire.text not in hidden and not any(k in wire.sealed for k in kinds)
    assert not joiner.verified
    assert joiner.record().actions != host.record().actions  # the host's cards are not the joiner's yet
    exchange(host, joiner)
    assert joiner.verified and joiner.stopped is None
    assert joiner.record_json() == host.record_json()
    verify(Record.from_dict(joiner.record_json()))
    assert joiner.state.to_text() == host.state.to_text()


def test_every_sealed_wire_of_a_dealt_game_is_as_long_as_every_other() -> None:
    """AES-GCM keeps a text's length: unpadded, a sealed card's kind could be read from it. Both
    boards' sealed wires (the host's draws for the joining board, the joining board's adds), of
    three whole games, all of one length; and each opens to its card."""
    lengths: dict[int, set[str]] = {}
    for seed in (2, 6, 7):
        host, joiner = pair()
        crossed = play_to_the_end(host, joiner, random.Random(seed))
        sealed = [w for w in crossed if w.sealed]
        assert {w.board for w in sealed} == {"a", "b"}, "both boards sealed cards"
        for wire in sealed:
            receiver = joiner if wire.board == "a" else host
            lengths.setdefault(len(wire.sealed), set()).add(receiver.text(wire.seq))
    assert len(lengths) == 1, {n: sorted(texts) for n, texts in lengths.items()}
    assert len(next(iter(lengths.values()))) > 3  # many cards, of several kinds, in that one length


def test_a_forged_hidden_draw_passes_in_play_and_is_caught_at_the_end() -> None:
    host, joiner = pair()
    play_to_the_end(host, joiner, random.Random(3), forge_at=20)  # the host gives its seat a card the secret did not
    assert joiner.stopped is None  # the joining board could not see that card
    exchange(host, joiner)
    assert not joiner.verified and joiner.stopped is not None
    assert "does not verify" in joiner.stopped.reason
    assert host.stopped == joiner.stopped  # and the host hears of it


def test_a_forged_record_of_a_hidden_card_is_caught_at_the_end() -> None:
    host, joiner = pair()
    play_to_the_end(host, joiner, random.Random(4))
    status = host.status()
    texts = list(status["texts"])
    for i, text in enumerate(texts):  # a card the host's seat added, claimed to be another
        kinds = truth(host).kinds
        if text.startswith("add ") and SEATS[Match(host.record(texts=texts[:i])).state.current_player] != REMOTE:
            texts[i] = "add " + next(k for k in kinds if k != text[4:])
            break
    joiner.peer_status({**status, "texts": texts})
    assert not joiner.verified and joiner.stopped is not None
    assert "does not agree" in joiner.stopped.reason or "does not verify" in joiner.stopped.reason


def test_a_card_for_the_joiner_sent_unsealed_stops_the_game() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    rng = random.Random(5)
    while True:
        before = len(host.log)
        wire = play(host, joiner, rng)
        assert wire is not None
        if wire.sealed:
            break
        joiner.receive(wire)
        assert len(joiner.log) == before + 1
    joiner.receive(dataclasses.replace(wire, sealed=""))
    assert joiner.stopped is not None and "sealed" in joiner.stopped.reason



def session(peer: str = "b") -> Session:
    config = Config.from_dict({"board": {"id": "a", "game": "serpientes", "num_players": 3}, "remote": {"peer": peer}})
    s = Session(config.board, check_board=lambda *a: None, fresh_secret=lambda: b"s" * 32, peer=peer)
    s.opened([])
    return s


def test_a_host_starts_a_dealt_game_with_a_remote_seat_and_its_key_in_the_join_code() -> None:
    board = {"id": "a", "game": "serpientes", "seats": ["table", "remote"], "num_players": 3}
    Config.from_dict({"board": board, "remote": {"peer": "b"}})  # the configuration takes it
    host = session()
    ok, error = host.request("new_game", {"seats": ["table", "remote"], "num_players": 3}).answer or (False, "")
    assert ok, error
    assert host.remote is not None and host.remote.hidden
    code = JoinCode.decode(host.remote_view()["code"])  # type: ignore[index]
    assert host.remote.key is not None and code.key == public_key(host.remote.key)


def test_a_dealt_remote_game_resumes_with_its_sealing_key_and_not_without() -> None:
    """The journal keeps each board's sealing key; without it (a journal from before) the game is
    set aside (ValueError) before anything changed."""
    host = session()
    host.request("new_game", {"seats": ["table", "remote"], "num_players": 3})
    assert host.remote is not None and host.remote.key is not None
    record = Record.from_dict(host.match.record.to_dict())
    again = session()
    serial = again.serial
    with pytest.raises(ValueError, match="without its sealing key"):
        again.resume(record)
    assert again.serial == serial and again.remote is None  # refused before it changed anything
    again.resume(record, seal=host.remote.key)
    assert again.remote is not None and again.remote.hidden and again.remote.key == host.remote.key
    assert [w.to_json() for w in again.remote.log] == [w.to_json() for w in host.remote.log if not w.sealed]
    assert again.remote_view()["code"] == host.remote_view()["code"]


def kept(board: Sync, peer: Sync) -> Sync:
    """``board`` after a restart, from what its journal kept: its record (the joining board's as it
    followed the game) and its sealing key."""
    record = board.record()
    record.seats = list(board.seats)
    if not board.host:
        record.keys = [dataclasses.replace(record.keys[0], secret=None)]
    return Sync.resumed(board.me, peer.me, Record.from_dict(record.to_dict()), board.key)


@pytest.mark.parametrize("restarts", ["joiner", "host", "both"])
def test_a_dealt_game_goes_on_after_a_restart_and_the_host_record_is_checked_at_the_end(restarts: str) -> None:
    """Either board, or both, restart in the middle of a dealt game (after host's cards the joining
    board arranged anew): each follows its journal's line again, the other board's status brings
    its key back, and the game ends with the host's record checked and equal on both boards."""
    host, joiner = pair()
    rng = random.Random(6)
    exchange(host, joiner)
    while len(joiner.arranged) < 2 or host.state.current_player == CHANCE:
        wire = play(host, joiner, rng)
        assert wire is not None
        (joiner if wire.board == host.me else host).receive(wire)
    if restarts in ("joiner", "both"):
        joiner = kept(joiner, host)
        assert joiner.code.key == ""  # the host's key comes back in its status
    if restarts in ("host", "both"):
        host = kept(host, joiner)
    assert joiner.state.to_text() != host.state.to_text()  # the joining board still holds its arrangement
    exchange(host, joiner)
    assert host.stopped is None and joiner.stopped is None and len(joiner.log) == len(host.log)
    play_to_the_end(host, joiner, rng)
    exchange(host, joiner)
    assert joiner.verified and joiner.stopped is None and host.stopped is None
    assert joiner.record_json() == host.record_json()
    verify(Record.from_dict(joiner.record_json()))


def test_a_restarted_host_seals_a_card_for_the_joining_board_again_and_sends_it() -> None:
    """A card dealt to the joining board's seat, lost with the host's restart, is sealed again with
    the key the journal kept once the joining board's status brings its key, and sent again."""
    host, joiner = pair()
    exchange(host, joiner)
    rng = random.Random(5)
    while True:
        wire = play(host, joiner, rng)
        assert wire is not None
        if wire.sealed:
            break  # the first card for b: it never arrives
        (joiner if wire.board == host.me else host).receive(wire)
    host = kept(host, joiner)
    assert host.log[-1].sealed == "" and wire.seq in host.unsealed  # b's key is not known yet
    again = host.peer_status(joiner.status())
    assert [w.seq for w in again] == [wire.seq] and again[0].sealed == wire.sealed
    assert joiner.receive(again[0]) == again and joiner.stopped is None
    assert joiner.text(wire.seq) == host.text(wire.seq)
