"""What ``arbitro run`` imports before it says ``online``: only what the service needs, so that a
Pi reaches ``online`` fast (``bench.startup``)."""

from __future__ import annotations

import json
import subprocess
import sys

from controller.games.registry import ENGINES
from controller.localbroker import Broker

LAZY = ("controller.sound", "controller.voice", "hardware.buzzer", *ENGINES.values(), "gpiozero",
        "cryptography", "controller.localbroker", "controller.hands", "firmware_bridge.sim")
"""Modules the service's start does not need: the sounds (off unless configured), the engines
(only the configured game's is imported, once the configuration is read), gpiozero (the buttons
and rings are made once ``online`` is out), the cryptography that seals a remote game's hidden
cards, and the demo's own broker, hands and simulated board (the parser reads the demo's options)."""


def _imported_by_the_run_command() -> set[str]:
    code = ("import sys\n"
            "from controller.cli import build_parser\n"
            "build_parser().parse_args(['run'])\n"
            "import controller.app\n"
            "import json; print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_the_run_commands_parser_and_the_service_import_no_engine_and_no_sound() -> None:
    imported = _imported_by_the_run_command()
    assert not imported & set(LAZY), sorted(imported & set(LAZY))


def test_the_version_is_still_told_when_asked_for() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("arbitro "), (done.stdout, done.stderr)


ONLINE_THEN_A_PRESS = """
import json, sys, threading, time
from controller.app import build_service
from controller.config import Config

config = Config.from_dict({"board": {"id": "early", "game": "scriptorium"}, "sensors": {"url": "sim"},
                           "inputs": {"pin_factory": "mock"}, "mqtt": {"port": PORT}})
service = build_service(config)
seen = {"built": "gpiozero" in sys.modules}


class Online(threading.Event):  # set by the bridge once the retained online is published
    def set(self) -> None:
        seen["online"] = "gpiozero" in sys.modules
        super().set()


service.mqtt.connected = Online()
service.start()
pin = service.inputs.buttons["roll"].pin  # pressed the moment start returns: the loop has just begun
pin.drive_low()
pin.drive_high()
deadline = time.monotonic() + 10
while time.monotonic() < deadline and not service.read(lambda s: s.match.record.actions):
    time.sleep(0.005)  # poll interval
seen["rolled"] = service.read(lambda s: len(s.match.record.actions))
service.stop()
print(json.dumps(seen))
"""


def test_online_is_out_before_gpiozero_is_imported_and_a_press_as_the_buttons_come_up_is_answered(
        broker: Broker) -> None:
    """The buttons are made after ``online`` (before the loop starts): a press the moment they are
    up waits in the loop's queue and is answered, here Scriptorium's first roll."""
    code = ONLINE_THEN_A_PRESS.replace("PORT", str(broker.port))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == {"built": False, "online": False, "rolled": 1}
