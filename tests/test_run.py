"""``arbitro run`` as an operator starts it: a configuration file, a board, MQTT; SIGTERM stops it."""

from __future__ import annotations

import signal
import subprocess
import sys

from tests.support.mqttc import Listener


def test_arbitro_run_referees_a_simulated_board_and_stops_cleanly(broker, tmp_path):
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
        output = service.stdout.read()
        display.close()
    assert "new game: Scriptorium" in output and "chance outcome" in output
    listing = subprocess.run([sys.executable, "-m", "controller.cli", "journal", str(tmp_path / "journal.sqlite")],
                             capture_output=True, text=True, check=True).stdout
    assert "run1" in listing and "in play" in listing
