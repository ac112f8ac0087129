"""End to end: one game on two boards. Two services, two simulated tables, two Mosquitto brokers
bridged over TLS as docs/remote.md sets them up; whole games with the bridge cut and restored at
seeded moments; both journals end equal, nothing applied twice; a corrupted action is caught; a
game with dealt hidden cards in which neither broker carries a card of the other board's seat."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from controller.games import game_names
from controller.games.record import Record, verify
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.remote import Board, brokers, game_of, wait

GAMES: dict[str, tuple[dict[str, Any], int]] = {  # each registered game's options and players, short games
    "contigo": ({"turn_limit": 30}, 2),  # two easy players may shuffle on to the turn limit's draw
    "scriptorium": ({"round_limit": 12}, 2),
    "jeocinco": ({"max_rounds": 6}, 2),
    "serpientes": ({"dealing": "physical", "two_players": True, "tokens": 2, "max_rounds": 4}, 2),
}


def journal_actions(path: Path) -> list[tuple[str, int | None]]:
    with sqlite3.connect(path) as db:
        (game,) = db.execute("SELECT max(id) FROM games").fetchone()
        return list(db.execute("SELECT text, key FROM actions WHERE game = ? ORDER BY n", (game,)))


def start(game: str, tmp_path: Path, joiner_seats: tuple[str, ...] = ("bot:easy",)) -> tuple[Board, Board, Any, Any]:
    hosting, joining, _ = brokers(tmp_path, "a", "b")
    options, players = GAMES[game]
    host = Board(game, "a", "b", hosting.port, tmp_path / "a.sqlite",
                 board={"options": options, "num_players": players, "seats": ["bot:easy", "remote"]})
    joiner = Board(game, "b", "a", joining.port, tmp_path / "b.sqlite")
    code = host.read(lambda s: (s.remote_view() or {})["code"])
    ok, result = joiner.service.call(lambda: joiner.service.session.request("join", {"code": code,
                                                                                   "seats": list(joiner_seats)}).answer)
    assert ok, result
    joiner.service.post(object())  # the loop turns: (an unknown event is only logged)
    return host, joiner, hosting, joining


@pytest.mark.parametrize("game", game_names())
def test_a_whole_remote_game_with_the_bridge_cut_and_restored(game: str, tmp_path: Path) -> None:
    host, joiner, hosting, joining = start(game, tmp_path)
    rng = random.Random(game)
    # What each broker carries of the other board: its remote topics only, never a state or a seat's topic.
    crossed = [Listener(joining.port, ["arbitro/a/#"]), Listener(hosting.port, ["arbitro/b/#"])]
    try:
        cut_at = sorted(rng.sample(range(1, 25), 3))  # after so many actions the bridge goes, and comes back
        cuts = 0
        deadline = time.monotonic() + 120
        while not (game_of(host)["over"] and game_of(joiner)["over"]) and time.monotonic() < deadline:
            did = host.tend() | joiner.tend()
            if cut_at and len(game_of(host)["actions"]) >= cut_at[0]:
                cut_at.pop(0)
                joining.stop()  # the joining board's broker, and so the bridge, away
                for _ in range(rng.randrange(1, 6)):
                    host.tend()  # the host's table plays on meanwhile
                joining.start()
                cuts += 1
            if not did:
                wait(lambda: True, "")
        assert cuts >= 1
        assert game_of(host)["over"] and game_of(joiner)["over"], (game_of(host), game_of(joiner))
        wait(lambda: game_of(joiner)["remote"]["verified"], "the joining board to check the host's dice", 30)
        a, b = game_of(host), game_of(joiner)
        assert a["remote"]["stopped"] is None and b["remote"]["stopped"] is None, (a["remote"], b["remote"])
        assert a["actions"] == b["actions"] and a["drawn"] == b["drawn"]
        assert a["record"] == b["record"] and a["record"]["boards"] == {"host": "a", "joiner": "b"}
        verify(Record.from_dict(a["record"]))
        topics = {t for listener in crossed for t, *_ in listener.messages}
        assert {t.rsplit("/", 1)[0] for t in topics} == {"arbitro/a/remote", "arbitro/b/remote"}, topics
    finally:
        for listener in crossed:
            listener.close()
        for board in (host, joiner):
            board.close()
        hosting.stop()
        joining.stop()
    # Both journals end equal: the same actions, each once, the same chance outcomes drawn.
    assert journal_actions(tmp_path / "a.sqlite") == journal_actions(tmp_path / "b.sqlite")


DEALT = {"two_players": True, "tokens": 3, "max_rounds": 2}
"""Serpientes with the cards arbitro deals: a short game, the host's seat 0 and the joining board's seat 1."""
HIDDEN_TEXT = re.compile(r"^(draw|add) [a-z]+$")
"""A card drawn or added, named: what only its own seat may read."""


def strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a JSON value, with the key it is under."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def reveals(messages: list[Any], seats: set[int], secret: str) -> list[str]:
    """What the messages one broker carried say of a card of a seat not in ``seats`` (the other
    board's), or of the host's secret: each as a line naming the topic (empty: nothing)."""
    found = []
    for topic, payload, *_ in messages:
        if not payload:
            continue  # a retained message cleared
        if secret in payload.decode(errors="replace"):
            found.append(f"{topic}: the host's secret")
        seat = re.fullmatch(r"arbitro/[a-z]+/player/(\d+)", topic)
        if seat is not None:  # a seat's own page: only this board's seats have one here
            if int(seat[1]) not in seats:
                found.append(f"{topic}: another board's seat")
            continue
        try:
            data = json.loads(payload)
        except ValueError:
            continue
        for key, value in strings(data):
            if HIDDEN_TEXT.match(value):
                found.append(f"{topic}: {key} = {value!r}")
            if key in ("hand", "sequence"):
                found.append(f"{topic}: a {key}")
            if value.startswith("serpientes ") and "hands=" in value:
                fields = dict(f.split("=", 1) for f in value.split()[1:])
                counted = [fields[k].split("/") for k in ("hands", "seqs")] + [[fields["deck"], fields["discard"]]]
                if not all(part.startswith("#") for parts in counted for part in parts):
                    found.append(f"{topic}: a position with cards named: {value}")
    return found


def test_a_dealt_serpientes_game_keeps_each_board_s_cards_from_the_other(tmp_path: Path) -> None:
    """Serpientes with the cards arbitro deals, across the two bridged brokers, a computer player at
    each table and the bridge cut and restored. Until the host reveals its secret, nothing either
    broker carries — a subscriber to ``#`` on each — names a card of a seat at the other board (a
    hand, a sequence, a card drawn or added, a position with cards) or the secret the deck is drawn
    with; each seat's page is on its own board's broker alone. The joining board checks the host's
    whole record at the end; then both journals are equal."""
    hosting, joining, _ = brokers(tmp_path, "a", "b")
    everything = [Listener(hosting.port, ["#"]), Listener(joining.port, ["#"])]
    host = Board("serpientes", "a", "b", hosting.port, tmp_path / "a.sqlite",
                 board={"options": DEALT, "num_players": 2, "seats": ["bot:easy", "remote"]})
    joiner = Board("serpientes", "b", "a", joining.port, tmp_path / "b.sqlite")
    try:
        code = host.read(lambda s: (s.remote_view() or {})["code"])
        ok, result = joiner.service.call(lambda: joiner.service.session.request(
            "join", {"code": code, "seats": ["bot:easy"]}).answer)
        assert ok, result
        rng = random.Random(24)
        cut_at = sorted(rng.sample(range(6, 24), 2))  # the deal, and the first turns
        deadline = time.monotonic() + 60  # under load; alone it takes 10 s
        while not (game_of(host)["over"] and game_of(joiner)["over"]) and time.monotonic() < deadline:
            did = host.tend() | joiner.tend()
            if cut_at and len(game_of(host)["actions"]) >= cut_at[0]:
                cut_at.pop(0)
                joining.stop()  # the bridge away while the host's table plays on
                for _ in range(rng.randrange(1, 6)):
                    host.tend()
                joining.start()
            if not did:
                wait(lambda: True, "")
        assert len(cut_at) < 2, ("the game ended before the bridge was cut", game_of(host), game_of(joiner))
        secret = ended_alike(host, joiner)
    finally:
        close_all((host, joiner), everything, hosting, joining)
    nothing_revealed(everything, secret)
    assert journal_actions(tmp_path / "a.sqlite") == journal_actions(tmp_path / "b.sqlite")


def close_all(boards: Iterable[Board], listeners: list[Listener], *brokers: Broker) -> None:
    for board in boards:
        board.close()
    for listener in listeners:
        listener.close()
    for broker in brokers:
        broker.stop()


def ended_alike(host: Board, joiner: Board) -> str:
    """The dealt game over on both boards, the host's record checked by the joining board, both
    records the same and replaying; returns the host's secret, revealed at the end."""
    assert game_of(host)["over"] and game_of(joiner)["over"], (game_of(host), game_of(joiner))
    wait(lambda: game_of(joiner)["remote"]["verified"], "the joining board to check the host's record", 30)
    a, b = game_of(host), game_of(joiner)
    assert a["remote"]["stopped"] is None and b["remote"]["stopped"] is None, (a["remote"], b["remote"])
    assert a["actions"] == b["actions"] and a["record"] == b["record"]
    verify(Record.from_dict(a["record"]))
    secret: str = a["record"]["fair"]["keys"][-1]["secret"]
    return secret


def nothing_revealed(everything: list[Listener], secret: str) -> None:
    """What each broker carried (board a's, board b's) names no card of the other board's seat."""
    for listener, here, seats in zip(everything, "ab", ({0}, {1}), strict=True):
        # From the remote game's start on this board (board b had a game of its own before it joined)...
        since = next(i for i, (topic, payload, *_) in enumerate(listener.messages)
                     if topic == f"arbitro/{here}/state" and json.loads(payload)["remote"] is not None)
        # ... to the end, which reveals the secret (the host's game_over event, its state, its remote status)
        until = next(i for i, (_, payload, *_) in enumerate(listener.messages) if secret.encode() in payload)
        end = json.loads(listener.messages[until][1])
        assert end.get("type") == "game_over" or end.get("over") or end.get("board") == "a", end
        carried = listener.messages[since:until]
        assert any(t == "arbitro/a/remote/wire" and b'"sealed"' in p for t, p, *_ in carried)  # b's cards crossed
        found = reveals(carried, seats, secret)
        assert found == [], "\n".join(found)


@pytest.mark.parametrize("restarts", ["b", "a"])
def test_a_dealt_game_goes_on_after_a_board_restarts(restarts: str, tmp_path: Path) -> None:
    """A board's service stops in the middle of a dealt game and starts again on its journal, which
    kept its sealing key (the joining board: its own arrangement of the host's cards): the boards
    resynchronise, the game ends with the host's record checked, the journals equal, and neither
    broker carried a card of the other board's seat."""
    hosting, joining, _ = brokers(tmp_path, "a", "b")
    everything = [Listener(hosting.port, ["#"]), Listener(joining.port, ["#"])]
    config = {"options": DEALT, "num_players": 2, "seats": ["bot:easy", "remote"]}
    boards = {"a": Board("serpientes", "a", "b", hosting.port, tmp_path / "a.sqlite", board=config),
              "b": Board("serpientes", "b", "a", joining.port, tmp_path / "b.sqlite")}
    try:
        code = boards["a"].read(lambda s: (s.remote_view() or {})["code"])
        ok, result = boards["b"].service.call(lambda: boards["b"].service.session.request(
            "join", {"code": code, "seats": ["bot:easy"]}).answer)
        assert ok, result

        def played(actions: int) -> bool:
            boards["a"].tend()
            boards["b"].tend()
            return len(game_of(boards["b"])["actions"]) >= actions

        wait(lambda: played(20), "the deal and the first turns on both boards", 30)
        boards[restarts].close()
        boards[restarts] = Board("serpientes", restarts, "b" if restarts == "a" else "a",
                                 hosting.port if restarts == "a" else joining.port, tmp_path / f"{restarts}.sqlite",
                                 board=config if restarts == "a" else None)
        resumed = game_of(boards[restarts])
        assert resumed["remote"] is not None and not resumed["over"], "the dealt game was not resumed mid-game"
        host, joiner = boards["a"], boards["b"]
        deadline = time.monotonic() + 60
        while not (game_of(host)["over"] and game_of(joiner)["over"]) and time.monotonic() < deadline:
            if not (host.tend() | joiner.tend()):
                wait(lambda: True, "")
        secret = ended_alike(host, joiner)
    finally:
        close_all(boards.values(), everything, hosting, joining)
    nothing_revealed(everything, secret)
    assert journal_actions(tmp_path / "a.sqlite") == journal_actions(tmp_path / "b.sqlite")


def test_a_corrupted_action_is_caught_by_the_hash_check_on_both_boards(tmp_path: Path) -> None:
    host, joiner, hosting, joining = start("contigo", tmp_path, joiner_seats=("table",))  # b's player never moves
    try:
        def b_to_play() -> bool:
            host.tend()
            return bool(host.read(lambda s: s.remote is not None and s.remote.state.current_player == 1
                                  and s.remote.peer_have == len(s.remote.log)))
        wait(b_to_play, "the host's moves to reach b, and b to be to play")
        agreed = game_of(host)["remote"]["agreed"]
        # A forged next action from "b", with a digest of some other position, into the host's broker.
        state = host.read(lambda s: s.remote and s.remote.state)
        text = state.action_to_text(state.own_actions()[0])
        forged = {"seq": agreed + 1, "text": text, "digest": "0" * 32, "board": "b", "drawn": False}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        client.connect("127.0.0.1", hosting.port)
        client.loop_start()
        client.publish("arbitro/b/remote/wire", json.dumps(forged), qos=1).wait_for_publish(5)
        client.loop_stop()
        client.disconnect()
        wait(lambda: game_of(host)["remote"]["stopped"] is not None, "the host to stop")
        stopped = game_of(host)["remote"]["stopped"]
        assert "another position" in stopped["reason"]
        assert stopped["seq"] == agreed + 1 and text in stopped["reason"]
        wait(lambda: game_of(joiner)["remote"]["stopped"] == stopped, "the joining board to stop too")
        assert game_of(host)["over"] and game_of(joiner)["over"]
    finally:
        for board in (host, joiner):
            board.close()
        hosting.stop()
        joining.stop()


def seat_kinds(board: Board) -> list[str]:
    """``players[].seat`` in the board's public state."""
    return [p["seat"] for p in board.read(lambda s: s.public_state()["players"])]


@pytest.mark.parametrize("restarts", ["b", "a"])
def test_a_restarted_board_resumes_the_remote_game_from_its_journal(restarts: str, tmp_path: Path) -> None:
    """One board's service stops mid-game (a power cut) and starts again on its journal: the boards
    resynchronise by sequence number and finish the game, their journals and records equal, and
    each names the other board's players ``remote`` throughout."""
    host, joiner, hosting, joining = start("contigo", tmp_path)
    seats = {"a": ["bot:easy", "remote"], "b": ["remote", "bot:easy"]}
    boards = {"a": host, "b": joiner}
    try:
        wait(lambda: (host.tend() | joiner.tend()) is not None and len(game_of(host)["actions"]) >= 6, "six actions")
        assert {b: seat_kinds(board) for b, board in boards.items()} == seats
        away = boards.pop(restarts)
        away.close()
        stays = next(iter(boards.values()))
        for _ in range(3):
            stays.tend()  # the other table plays on while this board is away
        port, config = (joining.port, None) if restarts == "b" else (hosting.port, {"seats": seats["a"]})
        boards[restarts] = Board("contigo", restarts, "b" if restarts == "a" else "a", port,
                                 tmp_path / f"{restarts}.sqlite", board=config)
        host, joiner = boards["a"], boards["b"]
        assert game_of(boards[restarts])["remote"] is not None, "the remote game was not resumed"
        assert seat_kinds(boards[restarts]) == seats[restarts]
        deadline = time.monotonic() + 90
        while not (game_of(host)["over"] and game_of(joiner)["over"]) and time.monotonic() < deadline:
            if not (host.tend() | joiner.tend()):
                time.sleep(0.005)  # poll interval: the hands look again
        a, b = game_of(host), game_of(joiner)
        assert a["over"] and b["over"] and a["remote"]["stopped"] is None and b["remote"]["stopped"] is None
        assert a["actions"] == b["actions"]
        wait(lambda: game_of(joiner)["remote"]["verified"], "the joining board to check the host's dice")
        assert game_of(host)["record"] == game_of(joiner)["record"]
        assert game_of(joiner)["record"]["seats"] == seats["a"]
        assert {b: seat_kinds(board) for b, board in boards.items()} == seats
    finally:
        for board in boards.values():
            board.close()
        hosting.stop()
        joining.stop()
    assert journal_actions(tmp_path / "a.sqlite") == journal_actions(tmp_path / "b.sqlite")
