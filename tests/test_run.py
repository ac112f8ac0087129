"""``arbitro run`` as an operator starts it: a configuration file, a board, MQTT; SIGTERM stops it."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games import get_game
from controller.i18n import say
from controller.localbroker import Broker
from tests.support.mqttc import Listener


def test_arbitro_run_referees_a_simulated_board_and_stops_cleanly(broker: Broker, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"""
[board]
id = "run1"
game = "scriptorium"
[sensors]
url = "sim"
[inputs]
pin_factory = "mock"
[mqtt]
port = {broker.port}
[journal]
path = "{tmp_path / 'journal.sqlite'}"
""")
    display = Listener(broker.port, ["arbitro/run1/#"])
    service = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        display.wait_for(lambda m: m[0] == "arbitro/run1/status" and m[1] == b"online", 20)
        state = display.latest_state("arbitro/run1", 20, where=lambda s: s["sensors"] == "up"
                                     and s["verdict"] == "in_sync")
        assert state["game"] == "scriptorium" and state["pending_chance"]
        answer = display.request("arbitro/run1", "roll", {"id": 1})
        assert answer["ok"] and answer["result"]["outcome"]
        service.send_signal(signal.SIGTERM)
        assert service.wait(20) == 0
        display.wait_for(lambda m: m[0] == "arbitro/run1/status" and m[1] == b"offline", 10)
    finally:
        if service.poll() is None:
            service.kill()
        assert service.stdout is not None
        output = service.stdout.read()
        display.close()
    rolled = say(get_game("scriptorium").action_words(answer["result"]["outcome"], None), "es")
    assert "new game: Scriptorium" in output and f"INFO arbitro.table: {rolled}" in output  # in the board's language
    listing = subprocess.run([sys.executable, "-m", "controller.cli", "journal", str(tmp_path / "journal.sqlite")],
                             capture_output=True, text=True, check=True).stdout
    assert "run1" in listing and "in play" in listing


def test_arbitro_run_off_a_pi_without_lgpio_says_what_to_do(broker: Broker, tmp_path: Path) -> None:
    if importlib.util.find_spec("lgpio") or os.path.exists("/proc/device-tree/model"):
        pytest.skip("gpiozero can open real GPIO here")
    config = tmp_path / "config.toml"
    # inputs.pin_factory = "": a real Pi's
    config.write_text(f'[board]\nid = "nogpio"\n[sensors]\nurl = "sim"\n[mqtt]\nport = {broker.port}\n')
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    *logged, error = done.stderr.strip().splitlines()
    # The buttons are opened once the service is online (gpiozero is slow to import): what it told
    # before is logged, the error is the one line it ends with, and it says offline again.
    assert done.returncode == 2 and all(" INFO arbitro" in line for line in logged), done.stderr
    assert "cannot open the Pi's GPIO (lgpio: No module named 'lgpio')" in error
    assert ".[pi]" in error and 'inputs.pin_factory = "mock"' in error
    display = Listener(broker.port, ["arbitro/nogpio/status"])
    try:
        display.wait_for(lambda m: m[0] == "arbitro/nogpio/status" and m[1] == b"offline", 10)
    finally:
        display.close()
