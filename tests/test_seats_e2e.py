"""End to end, per game: computer players' moves carried out by the simulated hands on the
simulated board, through the sensors, to the end of a whole game (``arbitro demo --bots``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.games import game_names
from controller.localbroker import Broker
from tests.support.mqttc import Listener

SEEDS = {"contigo": 7}
"""Seed 5's easy Contigo game runs to 823 actions, seed 7's ends by a line after 140 (the suite's time)."""


@pytest.mark.parametrize("game", game_names())
def test_a_whole_game_with_computer_players_is_carried_out_at_the_simulated_table(game: str, broker: Broker) -> None:
    display = Listener(broker.port, ["arbitro/bots/state", "arbitro/bots/events"])
    try:
        done = subprocess.run(
            [sys.executable, "-m", "controller.cli", "demo", "--game", game, "--headless", "--pace", "0",
             "--seed", str(SEEDS.get(game, 5)), "--bots", "easy", "--broker", f"127.0.0.1:{broker.port}",
             "--board-id", "bots", "--max-actions", "5000"],
            capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        final = json.loads(display.wait_for(lambda m: m[0] == "arbitro/bots/state" and json.loads(m[1])["over"])[1])
        assert {p["seat"] for p in final["players"]} == {"bot:easy"}
        assert final["resigned"] is None  # the game ended by its own rules, not the demo's limit
        events = display.json_on("arbitro/bots/events")
        carried = [e for e in events if e["type"] == "action" and e["by"] == "bot"]
        assert len(carried) > 5
        assert any(e["type"] == "expected" for e in events)
        assert not [e for e in events if e["type"] == "violation"], "the hands did something else than the computer"
    finally:
        display.close()
