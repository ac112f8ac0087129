"""Nothing acknowledged is ever lost: ``arbitro run`` is killed with SIGKILL at 21 points of a
scripted game of every game — right after a request went out, right after an event about it
arrived, right after its ``ok`` — and started again. Every request whose answer was lost is sent
again with its id (it runs once); every acknowledged action is still there after the restart,
and the game finishes exactly as the same game played without a crash."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from controller.games import CHANCE, game_names, get_game
from controller.games.record import Match, Record
from controller.journal import Journal
from controller.localbroker import Broker
from tests.support.mqttc import Listener

KILLS = 21  # seven of each kind: after a request went out, after its event, after its answer
SHORT: dict[str, tuple[dict[str, Any], int, int]] = {
    "contigo": ({}, 2, 3), "jeocinco": ({"fast": True, "max_rounds": 25}, 2, 2), "scriptorium": ({}, 2, 3),
    "serpientes": ({"tokens": 5, "max_rounds": 12}, 3, 1)}
"""Each registered game's options, players and seed for a game short enough to kill 21 times."""


def scripted(game: str, options: dict[str, Any], players: int, seed: int) -> tuple[Record, list[str]]:
    """A whole seeded game with random moves: its record and each action's public text."""
    match = Match(Record.seeded(game, get_game(game).options(options), players, seed))
    rng = random.Random(seed)
    while not match.state.is_terminal():
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match.record, list(match.public_log)


class Board:
    """``arbitro run`` with no sensor board, a journal, and the test's broker."""

    def __init__(self, tmp: Path, port: int, game: str, options: dict[str, Any], players: int, seed: int,
                 journal: Path | None = None) -> None:
        self.id = f"k-{game}-{uuid.uuid4().hex[:6]}"
        self.base = f"arbitro/{self.id}"
        self.journal = journal or tmp / "journal.sqlite"
        self.config = tmp / "config.toml"
        self.config.write_text(f"""
[board]
id = "{self.id}"
game = "{game}"
num_players = {players}
seed = {seed}
options = {json.dumps(options).replace('":', '" =')}
[sensors]
url = "none"
[inputs]
enabled = false
[mqtt]
port = {port}
[journal]
path = "{self.journal}"
""")
        self.log = open(tmp / "service.log", "a")  # noqa: SIM115 (kept open across restarts)
        self.proc: subprocess.Popen[bytes] | None = None
        self.op = Listener(port, [f"{self.base}/status", f"{self.base}/state", f"{self.base}/events"])

    def start(self) -> dict[str, Any]:
        """Start the service; its first state once it is online."""
        mark = len(self.op.messages)
        self.proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(self.config)],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.op.wait_for(lambda m: m[0] == f"{self.base}/status" and m[1] == b"online", 30, since=mark)
        state: dict[str, Any] = json.loads(self.op.wait_for(lambda m: m[0] == f"{self.base}/state", 30, since=mark)[1])
        return state

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def send(self, command: str, args: dict[str, Any]) -> None:
        self.op.client.publish(f"{self.base}/request/{command}", json.dumps(args), qos=1)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
        self.op.close()
        self.log.close()


@pytest.mark.parametrize("game", game_names())
def test_sigkill_anywhere_loses_no_acknowledged_action(tmp_path: Path, broker: Broker, game: str) -> None:
    options, players, seed = SHORT[game]
    record, public = scripted(game, options, players, seed)
    n = len(record.actions)
    rng = random.Random(n)
    points = [*sorted(rng.sample(range(n - 1), KILLS - 1)), n - 1]  # after the last: the end is shown again
    kinds = ["sent", "event", "answered"]
    rng.shuffle(points)
    kills = {i: kinds[k % 3] for k, i in enumerate(points)}
    board = Board(tmp_path, broker.port, game, options, players, seed)
    answers = Listener(broker.port, [f"{board.base}/response/#"])
    reference = Match(Record(record.game, record.options, record.num_players, record.keys))
    try:
        board.start()
        acknowledged = 0
        for i, text in enumerate(record.actions):
            chance = reference.state.current_player == CHANCE
            command, args = ("roll", {"id": f"a{i}"}) if chance else ("choose", {"id": f"a{i}", "action": text})
            reference.apply_text(text)
            mark = len(board.op.messages)
            board.send(command, args)
            when = kills.get(i)
            if when == "sent":
                board.kill()
            elif when == "event":
                board.op.wait_for(lambda m: m[0] == f"{board.base}/events", since=mark)
                board.kill()
            if when in ("sent", "event"):  # the answer may be lost: start again and ask again, same id
                state = board.start()
                assert state["moves"] >= acknowledged, f"{game}: acknowledged actions lost at {i}"
                board.send(command, args)
            answer = json.loads(answers.wait_for(lambda m, i=i: json.loads(m[1]).get("id") == f"a{i}",
                                                 since=max(0, len(answers.messages) - 3))[1])
            assert answer["ok"], answer
            assert answer["result"].get("outcome", answer["result"].get("action")) == public[i]
            acknowledged = i + 1
            if when == "answered":
                board.kill()
                state = board.start()
                assert state["moves"] >= acknowledged, f"{game}: the acknowledged action {i} was lost"
        final = json.loads(board.op.wait_for(lambda m: m[0] == f"{board.base}/state"
                                             and json.loads(m[1])["moves"] == n)[1])
        assert final["over"] and final["scores"] == list(reference.state.scores())
    finally:
        board.close()
        answers.close()
    journal = Journal(board.journal)
    (game_id, *_), = [(g["id"],) for g in journal.games()]
    assert journal.record(game_id).actions == record.actions  # the game finished exactly as without a crash
    assert all(json.loads(m[1])["ok"] for m in answers.messages)
