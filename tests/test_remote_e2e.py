"""End to end: one game on two boards. Two services, two simulated tables, two Mosquitto brokers
bridged over TLS as docs/remote.md sets them up; whole games with the bridge cut and restored at
seeded moments; both journals end equal, nothing applied twice; a corrupted action is caught."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from controller.config import Config, ConfigError
from controller.games.record import Record, verify
from controller.session import Session
from tests.support.mqttc import Listener
from tests.support.remote import Board, brokers, game_of, wait

GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "contigo": ({}, 2),
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


@pytest.mark.parametrize("game", list(GAMES))
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


def test_dealt_hidden_cards_are_refused_for_a_remote_game(tmp_path: Path) -> None:
    """Serpientes with cards arbitro deals: each board's engine would have to know every hand, so a
    remote game of it is refused, in the configuration and in the request alike."""
    board = {"id": "a", "game": "serpientes", "seats": ["table", "remote"], "num_players": 3}
    with pytest.raises(ConfigError, match="hidden cards"):
        Config.from_dict({"board": board, "remote": {"peer": "b"}})
    with pytest.raises(ConfigError, match=r"remote\.peer"):
        Config.from_dict({"board": {**board, "options": {"dealing": "physical"}}})
    config = Config.from_dict({"board": {**board, "seats": []}, "remote": {"peer": "b"}})
    session = Session(config.board, check_board=lambda *a: None, fresh_secret=lambda: b"s" * 32, peer="b")
    session.opened([])
    ok, error = session.request("new_game", {"seats": ["table", "remote"], "num_players": 3}).answer or (True, "")
    assert not ok and "hidden cards" in error
    ok, _ = session.request("new_game", {"seats": ["table", "remote"], "num_players": 3,
                                         "options": {"dealing": "physical"}}).answer or (False, "")
    assert ok


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
