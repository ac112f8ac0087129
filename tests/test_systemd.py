"""The unit file verifies and stays locked down; the service speaks systemd's notify protocol."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import build_parser
from controller.config import Config
from controller.display.cli import config_from
from controller.service import Service
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels

UNIT = Path(__file__).parent.parent / "systemd" / "arbitro.service"
DISPLAY = UNIT.with_name("arbitro-display.service")  # arbitro display, at the service's bar (issue 34.7)
UNITS = pytest.mark.parametrize("source", [UNIT, DISPLAY], ids=["service", "display"])
ANALYZE = shutil.which("systemd-analyze") or "systemd-analyze"  # the README's test command installs it


def installed_unit(tmp_path: Path, source: Path = UNIT) -> Path:
    """The unit with ExecStart pointing at this checkout's arbitro (verify wants an executable)."""
    arbitro = shutil.which("arbitro") or sys.executable
    unit = tmp_path / source.name
    unit.write_text(source.read_text().replace("/opt/arbitro/.venv/bin/arbitro", str(arbitro)))
    return unit


@UNITS
def test_the_unit_verifies_without_warnings(tmp_path: Path, source: Path) -> None:
    done = subprocess.run([ANALYZE, "verify", str(installed_unit(tmp_path, source))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # Unknown keys are only warnings: none may be there.
    assert "Unknown" not in done.stderr and source.name not in done.stderr, done.stderr


def unit_settings(source: Path) -> list[tuple[str, ...]]:
    """The unit's ``key=value`` lines, in order (a key may come more than once)."""
    return [tuple(line.split("=", 1)) for line in source.read_text().splitlines() if "=" in line and line[0] != "#"]


def exposure(tmp_path: Path, source: Path) -> float:
    """``systemd-analyze security --offline=true``'s overall exposure of the unit (0 best, 10 worst)."""
    done = subprocess.run([ANALYZE, "security", "--offline=true", str(installed_unit(tmp_path, source))],
                          capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert found, done.stdout
    return float(found.group(1))


@UNITS
def test_the_unit_is_locked_down(tmp_path: Path, source: Path) -> None:
    assert exposure(tmp_path, source) <= 2.0
    text = source.read_text()
    for line in ("Restart=on-failure", "ProtectSystem=strict", "DevicePolicy=closed", "NoNewPrivileges=yes",
                 "CapabilityBoundingSet=\n", "After=network-online.target mosquitto.service"):
        assert line in text
    if source == UNIT:
        for line in ("Type=notify", "WatchdogSec=", "User=arbitro", "StateDirectory=arbitro"):
            assert line in text


def test_the_display_is_at_least_as_locked_down_as_the_service(tmp_path: Path) -> None:
    """The display reads no device and keeps nothing: a user of its own for each start, no device node."""
    assert exposure(tmp_path, DISPLAY) <= exposure(tmp_path, UNIT)
    settings = unit_settings(DISPLAY)
    assert ("DynamicUser", "yes") in settings and ("PrivateDevices", "yes") in settings
    assert not [value for key, value in settings if key == "DeviceAllow"]
    (start,) = [value for key, value in settings if key == "ExecStart"]
    program, *args = start.split()
    assert program == "/opt/arbitro/.venv/bin/arbitro"
    config = config_from(build_parser().parse_args(args))  # options arbitro display takes, as it reads them
    assert (config.broker_host, config.broker_port, config.port) == ("127.0.0.1", 1883, 8080)


def test_the_unit_allows_exactly_the_device_nodes_it_needs() -> None:
    """DevicePolicy=closed: only these nodes (issue 12.10: a Pi 5's NeoPixels need the RP1 PIO, /dev/pio0)."""
    settings = unit_settings(UNIT)
    allowed = {value for key, value in settings if key == "DeviceAllow"}
    assert allowed == {
        "/dev/gpiochip0 rw", "/dev/gpiochip4 rw",  # lgpio: buttons, ring encoders (gpiochip4: early Pi 5 kernels)
        "/dev/arbitro-sensors rw", "char-ttyACM rw",  # the sensor MCU, by its udev name or as ttyACM*
        "/dev/spidev0.0 rw",  # NeoPixels over SPI (Pi 3/4)
        "/dev/pio0 rw",  # NeoPixels through the RP1's PIO (Pi 5)
    }
    assert ("DevicePolicy", "closed") in settings
    # Raspberry Pi OS gives /dev/pio0 (and the GPIO chips) to group gpio, SPI to spi, ttyACM to dialout.
    groups = {value for key, value in settings if key == "SupplementaryGroups"}
    assert groups == {"gpio dialout spi"}


def test_the_service_says_ready_and_pings_the_watchdog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.setenv("WATCHDOG_USEC", "100000")
        monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
        config = Config.from_dict({"board": {"game": "contigo"}, "inputs": {"enabled": False},
                                   "mqtt": {"enabled": False}})
        layout = load_layout("contigo")
        service = Service(config, LedStrip(RecordingPixels(layout.led_count)), layout=layout).start()
        try:
            got = [sock.recv(256).decode() for _ in range(4)]
        finally:
            service.stop()
        stopping = sock.recv(256).decode()
    assert got[0].startswith("READY=1\nSTATUS=refereeing Contigo")
    assert got[1:] == ["WATCHDOG=1"] * 3
    assert stopping == "STOPPING=1"
