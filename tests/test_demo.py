"""``arbitro demo`` runs headless to the end of a game, and a display on the broker sees it all."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.games import game_names
from tests.support.mqttc import Listener


@pytest.mark.parametrize("game", game_names())
def test_demo_plays_a_game_to_the_end_and_every_state_reaches_the_broker(game, broker):
    display = Listener(broker.port, ["arbitro/demo/state", "arbitro/demo/events", "arbitro/demo/status"])
    try:
        done = subprocess.run(
            [sys.executable, "-m", "controller.cli", "demo", "--game", game, "--headless", "--pace", "0",
             "--seed", "3", "--broker", f"127.0.0.1:{broker.port}", "--board-id", "demo"],
            capture_output=True, text=True, timeout=240)
        assert done.returncode == 0, done.stderr[-3000:]
        assert "game over after" in done.stdout
        final = display.wait_for(lambda m: m[0] == "arbitro/demo/state" and json.loads(m[1])["over"])
        states = display.json_on("arbitro/demo/state")
        seqs = [s["seq"] for s in states]
        assert seqs == list(range(1, len(seqs) + 1)), "a state change did not reach the display"
        last = json.loads(final[1])
        assert last["game"] == game and last["moves"] > 10
        events = display.json_on("arbitro/demo/events")
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert any(e["type"] == "game_over" for e in events)
        assert sum(1 for e in events if e["type"] == "action" and e["by"] == "board") > 5
        display.wait_for(lambda m: m[0] == "arbitro/demo/status" and m[1] == b"offline")
    finally:
        display.close()


def test_two_demos_on_one_broker_keep_to_their_own_boards(broker):
    """Each run has its own board id, hence its own MQTT client id and topics: neither knocks the other off."""
    statuses = Listener(broker.port, ["arbitro/+/status"])
    command = [sys.executable, "-m", "controller.cli", "demo", "--game", "contigo", "--headless", "--pace", "0.01",
               "--broker", f"127.0.0.1:{broker.port}"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = None
    try:
        # The second starts once the first is online, so the two play at the same time.
        statuses.wait_for(lambda m: m[1] == b"online", 60)
        second = subprocess.Popen([*command, "--seed", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        outputs = [p.communicate(timeout=240) for p in (first, second)]
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
        statuses.close()
    for p, (out, err) in zip((first, second), outputs, strict=True):
        assert p.returncode == 0 and "game over after" in out, err[-3000:]
        assert "Traceback" not in err and "reconnecting" not in err, err[-3000:]
    boards = {topic.split("/")[1] for topic, payload, *_ in statuses.messages if payload == b"online"}
    assert len(boards) == 2, statuses.messages
    said = [payload for _, payload, *_ in statuses.messages]
    assert said[:2] == [b"online", b"online"], "the two demos did not play at the same time"
    for board in boards:
        said = [payload for topic, payload, *_ in statuses.messages if topic == f"arbitro/{board}/status"]
        assert said == [b"online", b"offline"], (board, said)
