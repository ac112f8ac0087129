"""Issue 38.8: a broker that cannot be used is said plainly, by the service and by the display: an
MQTT 3.1.1-only broker (amqtt, a small Python broker) as "does not speak MQTT 5", an unreachable one
at once and then with back-off."""

from __future__ import annotations

import itertools
import json
import logging
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.mqtt import FIRST_RETELL, LAST_RETELL, BrokerTrouble
from tests.support.waiting import wait_until


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def mqtt311_broker(tmp_path: Path) -> Iterator[int]:
    """amqtt 0.12 on a free port: it speaks MQTT 3.1.1 only and answers an MQTT 5 CONNECT with
    "unacceptable protocol version"."""
    port = free_port()
    config = tmp_path / "amqtt.yaml"
    config.write_text(f"listeners:\n  default:\n    type: tcp\n    bind: 127.0.0.1:{port}\n"
                      "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n")
    broker = subprocess.Popen([sys.executable, "-c", "from amqtt.scripts.broker_script import main; main()",
                               "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: listening(port) or broker.poll() is not None, "amqtt to listen", timeout=30)
        assert broker.poll() is None, "amqtt did not start"
        yield port
    finally:
        broker.terminate()
        broker.wait(10)


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's stderr, line by line, as it comes (read on a thread: the test waits with a deadline)."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def first_line_with(lines: queue.Queue[str], text: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    seen = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if text in line:
            return line
        seen.append(line)
    raise AssertionError(f"no {text!r} within {timeout}s; saw:\n{''.join(seen)[-3000:]}")


def arbitro(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller.cli", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def stopped(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(30)


def test_the_service_says_an_mqtt_311_broker_does_not_speak_mqtt_5(mqtt311_broker: int, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[mqtt]\nport = {mqtt311_broker}\n[sensors]\nurl = 'none'\n[inputs]\npin_factory = 'mock'\n")
    run = arbitro("run", "--config", str(config))
    try:
        lines = lines_of(run)
        first_line_with(lines, "new game", timeout=30)  # the service is up (Python started, the game set)
        line = first_line_with(lines, "MQTT 5", timeout=5)
    finally:
        stopped(run)
    assert f"MQTT broker 127.0.0.1:{mqtt311_broker} does not speak MQTT 5" in line, line


def test_the_display_says_an_mqtt_311_broker_does_not_speak_mqtt_5(mqtt311_broker: int) -> None:
    display = arbitro("display", "--broker", f"127.0.0.1:{mqtt311_broker}", "--listen", "127.0.0.1:0")
    try:
        lines = lines_of(display)
        first_line_with(lines, "display on", timeout=30)  # the display is up
        line = first_line_with(lines, "MQTT 5", timeout=5)
    finally:
        stopped(display)
    assert f"display: MQTT broker 127.0.0.1:{mqtt311_broker} does not speak MQTT 5" in line, line


def test_the_display_names_an_unreachable_broker_at_once() -> None:
    with socket.socket() as bound:  # bound but not listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        display = arbitro("display", "--broker", f"127.0.0.1:{port}", "--listen", "127.0.0.1:0")
        try:
            line = first_line_with(lines_of(display), "not reachable", timeout=5)
        finally:
            stopped(display)
    assert f"display: MQTT broker 127.0.0.1:{port} is not reachable" in line, line


def test_a_broker_still_away_is_told_again_with_back_off(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    trouble = BrokerTrouble(logging.getLogger("arbitro.test"), "board a", "127.0.0.1", 1, clock=lambda: now[0])
    told_at = []
    with caplog.at_level(logging.INFO, logger="arbitro.test"):
        while now[0] < 2000:  # paho retries about every 0.2 s .. 5 s: here every second
            before = len(caplog.records)
            trouble.unreachable()
            if len(caplog.records) > before:
                told_at.append(now[0])
            now[0] += 1.0
        gaps = [b - a for a, b in itertools.pairwise(told_at)]
        assert told_at[0] == 0.0 and gaps[:3] == [FIRST_RETELL, 2 * FIRST_RETELL, 4 * FIRST_RETELL], told_at
        assert max(gaps) == LAST_RETELL and gaps == sorted(gaps), gaps
        assert "(still, 6 attempts)" in caplog.records[1].getMessage()
        trouble.refused(type("Reason", (), {"value": 0x84})())  # another reason: told at once
        assert "does not speak MQTT 5" in caplog.records[-1].getMessage()
        trouble.connected()
        assert "reached after" in caplog.records[-1].getMessage()
        trouble.unreachable()  # away again: told at once
        assert caplog.records[-1].getMessage().endswith("is not reachable; trying again")


def test_the_display_pages_are_told_the_broker_does_not_speak_mqtt_5(mqtt311_broker: int) -> None:
    from controller.display.server import DisplayConfig, RunningDisplay

    display = RunningDisplay(DisplayConfig(broker_port=mqtt311_broker, host="127.0.0.1", port=0))
    try:
        def why() -> object:
            return json.loads(display.call(lambda: display.display.hall.status(None)))["why"]

        wait_until(lambda: why() == "not_mqtt5", "the hall's status to say why", timeout=5)
        with urllib.request.urlopen(f"{display.url}api/hall/events", timeout=5) as stream:
            lines = [stream.readline() for _ in range(4)]  # retry, then the status event a page starts with
        data = next(line for line in lines if line.startswith(b"data: "))
        assert b"event: status\n" in lines and json.loads(data.removeprefix(b"data: "))["why"] == "not_mqtt5", lines
    finally:
        display.stop()
