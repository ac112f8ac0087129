"""The teller: what a board tells costs no more than the move told (no engine but the board's own
imported to tell it)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.config import Config
from controller.games import game_names, get_game
from controller.journal import Journal
from controller.localbroker import Broker
from controller.mqtt import MqttBridge
from controller.table import Table
from controller.teller import MOST_SEATS
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels


def test_most_seats_is_the_most_players_of_any_game() -> None:
    assert max(get_game(name).max_players for name in game_names()) == MOST_SEATS


A_MOVE_TOLD = """
import json, sys, time
from controller.app import build_service
from controller.config import Config
from hardware.inputs import ButtonEvent

config = Config.from_dict({"board": {"id": "told", "game": "scriptorium"}, "sensors": {"url": "sim"},
                           "inputs": {"enabled": False}, "mqtt": {"port": PORT}})
service = build_service(config)
service.start()
service.post(ButtonEvent("roll"))
deadline = time.monotonic() + 10
while time.monotonic() < deadline and not service.read(lambda s: s.match.record.actions):  # told in the same step
    time.sleep(0.005)  # poll interval
told = service.read(lambda s: len(s.match.record.actions))
service.stop()
print(json.dumps({"told": told, "engines": sorted(m for m in sys.modules if m.count(".") == 2
                                                  and m.startswith("controller.games."))}))
"""


def test_a_board_tells_its_moves_and_every_seat_without_importing_the_other_games(broker: Broker) -> None:
    """Every ``player/<n>`` topic a game may have is emptied or filled after each move: the number
    of them is known without importing every engine (the first move told took 80 ms and 4 MB)."""
    code = A_MOVE_TOLD.replace("PORT", str(broker.port))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["told"] == 1
    engines = {m.split(".")[2] for m in seen["engines"]} & set(game_names())
    assert engines == {"scriptorium"}, seen["engines"]


def test_the_tables_log_says_a_move_once_its_state_is_out(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """The log's lines (on a Pi a write to journald, which may wait) come once the move's events
    and state are handed to MQTT, never on their path."""
    layout = load_layout("scriptorium")
    config = Config.from_dict({"board": {"id": "logged", "game": "scriptorium", "seed": 1},
                               "inputs": {"enabled": False}})
    bridge = MqttBridge(config.mqtt, config.board.id)  # not started: what it would send is kept
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table.build(config, LedStrip(RecordingPixels(layout.led_count)), layout, journal, bridge, None,
                        lambda event: None, time.monotonic, time.time)
    told_at_log: list[tuple[str, int]] = []

    class Told(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            state = bridge._retained.get(f"{bridge.base}/state")  # the state handed to MQTT by then
            told_at_log.append((record.getMessage(), json.loads(state)["moves"] if state else -1))

    handler = Told()
    logging.getLogger("arbitro.table").addHandler(handler)
    caplog.set_level(logging.INFO, logger="arbitro.table")
    try:
        table.teller.tell(table.opened)
        table.teller.tell(table.session.request("roll", {}))
    finally:
        logging.getLogger("arbitro.table").removeHandler(handler)
        journal.close()
    assert len(table.session.match.record.actions) == 1 and told_at_log
    assert told_at_log[-1][1] == 1, told_at_log  # the roll's line: its state already out
