"""The builder's commands as typed: a clear line and a non-zero exit when the board or the layout
is not right (their interactive flows are tested in test_record, test_calibrate, test_diagnose)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from controller.cli import main
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import load_layout


@pytest.mark.parametrize("argv,words", [
    (["layout", "--game", "chess", "--out", "x.json", "--url", "loop://"], "unknown game 'chess'"),
    (["calibrate", "--layout", "no-such-layout.json", "--url", "loop://"], "no-such-layout.json"),
    (["layout", "--game", "contigo", "--out", "x.json", "--url", "/dev/arbitro-nowhere", "--timeout", "0.5"],
     "/dev/arbitro-nowhere"),
])
def test_the_builders_commands_refuse_with_one_clear_line(argv: list[str], words: str,
                                                          capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()


def test_calibrate_on_a_board_with_no_analog_channels_says_so(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    layout = load_layout("serpientes")  # presence sensors only: nothing to calibrate
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 20))
    with SimulatedBoard(layout.blocks, board_kind=layout.board_kind) as sim:
        code = main(["calibrate", "--layout", "serpientes", "--url", sim.url, "--timeout", "2",
                     "--out", str(tmp_path / "cal.json")])
    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    assert "no count or piece channels: nothing to calibrate" in captured.err
    assert not (tmp_path / "cal.json").exists()
