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
             "--seed", "3", "--broker", f"127.0.0.1:{broker.port}"],
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
