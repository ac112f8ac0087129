"""``arbitro sim``: the simulated board as a process, driven through stdin, read through HostLink."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.link import HostLink, LinkUp, SensorChanged, Snapshot
from firmware_bridge.sim import SimulatedBoard, load_layout, parse_channels, run_console
from tests.firmware_bridge.test_link import wait_for

ROOT = Path(__file__).resolve().parents[2]


def test_parse_channels() -> None:
    assert parse_channels("presence:283,count:28") == [("presence", 283), ("count", 28)]
    assert parse_channels(" piece:36 , count:28") == [("piece", 36), ("count", 28)]
    for bad in ["", "presence", "beads:3", "count:0", "count:x"]:
        with pytest.raises(ValueError):
            parse_channels(bad)


def test_load_layout(tmp_path: Path) -> None:
    path = tmp_path / "contigo.json"
    path.write_text(json.dumps({"board_kind": "contigo", "blocks": [["piece", 36], ["count", 28]]}))
    assert load_layout(str(path)) == ("contigo", [("piece", 36), ("count", 28)])
    path.write_text(json.dumps({"blocks": [["marbles", 3]]}))
    with pytest.raises(ValueError, match="bad layout"):
        load_layout(str(path))


def test_console_commands() -> None:
    with SimulatedBoard([("presence", 8), ("count", 2)]) as board:
        out = io.StringIO()
        script = "set 1 1 9 4\nwait\nshow\nset 1 7\nset 20 1\nset 1\nfrobnicate\nsnapshot\nhelp\nquit\nset 2 1\n"
        assert run_console(board, io.StringIO(script), out) == 0
        lines = out.getvalue().splitlines()
        assert lines[:3] == ["ok", "ok", "ok 1=1 9=4"]
        assert lines[3].startswith("error: channel 1 (presence) value 7")
        assert lines[4] == "error: channel 20 not in 0..9"
        assert lines[5].startswith("error: set CH VALUE")
        assert lines[6].startswith("error: unknown command")
        assert lines[7] == "ok" and lines[8].startswith("commands")
        assert board.values()[2] == 0  # nothing after quit


@pytest.fixture
def sim_process(request: pytest.FixtureRequest) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", *request.param],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=5)


@pytest.mark.parametrize(
    ("sim_process", "analog"),
    [(["--channels", "presence:283,count:28"], 290), (["--channels", "piece:36,count:28", "--tcp", "0"], 40)],
    indirect=["sim_process"],
)
def test_arbitro_sim_process(sim_process: subprocess.Popen[str], analog: int) -> None:
    assert sim_process.stdin and sim_process.stdout
    url = sim_process.stdout.readline().strip()
    assert url.startswith("socket://127.0.0.1:") or Path(url).is_symlink()
    events: queue.Queue[Any] = queue.Queue()
    link = HostLink(url, events.put)
    link.start()
    try:
        hello = wait_for(events, LinkUp, timeout=5).hello
        assert hello.channels == 311 or hello.blocks == (("piece", 36), ("count", 28))
        wait_for(events, Snapshot)
        sim_process.stdin.write(f"set 5 1 {analog} 3\n")
        sim_process.stdin.flush()
        assert sim_process.stdout.readline().strip() == "ok"
        changed = {wait_for(events, SensorChanged).channel for _ in range(2)}
        assert changed == {5, analog}
        sim_process.stdin.write("snapshot\n")
        sim_process.stdin.flush()
        snap = wait_for(events, Snapshot)
        assert snap.values[5] == 1 and snap.values[analog] == 3
        sim_process.stdin.write("quit\n")
        sim_process.stdin.flush()
        assert sim_process.wait(timeout=5) == 0
    finally:
        link.stop()


def test_arbitro_sim_pico_rehearses_firmware_flash(tmp_path: Path) -> None:
    """``arbitro sim --pico DIR``: a builder flashes the simulated Pico as a real one, and its
    firmware then says HELLO as the layout's."""
    from controller.cli import main
    from hardware.layout import load_layout

    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "sim", "--pico", str(tmp_path / "fs")], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin and proc.stdout and proc.stderr
        url = proc.stdout.readline().strip()
        assert "rehearse: arbitro firmware flash --layout GAME --url " + url in proc.stderr.readline()
        assert main(["firmware", "flash", "--layout", "serpientes", "--url", url]) == 0
        board_config = (tmp_path / "fs" / "board_config.py").read_text()
        assert f"CONFIG_ID = '{load_layout('serpientes').board_config()['CONFIG_ID']}'" in board_config
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=5)
