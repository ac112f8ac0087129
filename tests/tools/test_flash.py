"""`arbitro firmware flash` with the real mpremote against a simulated Pico (raw REPL on a pty,
its filesystem a directory; the copied files boot under CPython with doubles of ``machine``)."""

from __future__ import annotations

import json
import logging
import subprocess
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.i18n import say
from controller.tools.flash import FLASHED, MPREMOTE, flash, mpremote_command
from firmware_bridge.sim_pico import SimPico
from hardware.layout import LayoutError, channel_blocks, load_layout


def test_flash_writes_the_layouts_firmware_and_the_board_says_so(tmp_path: Path) -> None:
    layout = load_layout("scriptorium")
    with SimPico(tmp_path / "flash") as pico:
        said: list[str] = []
        firmware = flash(layout, pico.url, say=said.append)
        assert firmware.endswith(" cfg " + layout.board_config()["CONFIG_ID"])
        assert sorted(p.name for p in (tmp_path / "flash").iterdir()) == ["arbitro_fw.py", "board_config.py", "main.py"]
        assert "BOARD_KIND = 'scriptorium-ref-1'" in (tmp_path / "flash" / "board_config.py").read_text()
        assert pico.running_firmware and pico.boots == 2  # mpremote's reset booted the new files

        # Again over the running firmware (Ctrl-C is off: STOP gets the REPL back), now calibrated
        # data: the board then runs the new configuration, which the old layout refuses.
        data = layout.to_dict()
        data["firmware"] = {"scan_us": 1500}
        other = type(layout).from_dict(data)
        flash(other, pico.url, say=said.append)
        assert pico.boots == 3 and pico.machine is not None and pico.machine.config["scan_us"] == 1500
        assert said[-2].startswith("the running firmware stopped; copying arbitro_fw.py, ")


def test_the_layout_and_the_firmware_cannot_disagree(tmp_path: Path) -> None:
    from controller.tools.board import BoardLink

    contigo = load_layout("contigo")
    with SimPico(tmp_path / "flash") as pico:
        flash(contigo, pico.url, check=False)
        board = BoardLink(pico.url)
        try:
            hello = board.start()
        finally:
            board.close()
    contigo.check_firmware(hello)
    data = contigo.to_dict()
    data["board_kind"] = "contigo-mine"
    with pytest.raises(LayoutError, match="contigo-mine"):
        type(contigo).from_dict(data).check_firmware(hello)
    data = contigo.to_dict()
    data["calibration"] = {"zero": {"pit:nw": 30000}, "count": {"channel": "pit:nw", "levels": {"0": 0, "1": 2000}}}
    with pytest.raises(LayoutError, match="flash it"):  # calibrated since: the Pico still has the old thresholds
        type(contigo).from_dict(data).check_firmware(hello)


def test_mpremote_alone_cannot_break_into_the_running_firmware(tmp_path: Path) -> None:
    """Why flash sends STOP first: the firmware turns Ctrl-C off, so mpremote gets no raw REPL."""
    with SimPico(tmp_path / "flash") as pico:
        flash(load_layout("contigo"), pico.url)
        # the firmware's heartbeats keep the line busy: mpremote waits for a raw REPL that never comes
        with pytest.raises(subprocess.TimeoutExpired):
            subprocess.run([*MPREMOTE, "connect", pico.url, "fs", "ls"], capture_output=True, timeout=4, check=False)
        assert pico.running_firmware


def test_cli_flash_says_in_words_and_no_false_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """No "MCU error 1: bad frame" from what mpremote left on the line, and the board's language
    (the default configuration's: Spanish) for what is said."""
    layout_file = tmp_path / "mine.json"
    layout = load_layout("contigo")
    layout_file.write_text(json.dumps(layout.to_dict()))
    assert mpremote_command("/dev/ttyACM0", [Path("a.py")], ["mpremote"]) == [
        "mpremote", "connect", "/dev/ttyACM0", "fs", "cp", "a.py", ":", "+", "reset"]
    caplog.set_level(logging.INFO)
    with SimPico(tmp_path / "flash") as pico:
        assert main(["firmware", "flash", "--layout", str(layout_file), "--url", pico.url]) == 0
        assert main(["firmware", "flash", "--layout", str(layout_file), "--url", pico.url]) == 0  # over a running one
    out, err = capsys.readouterr()
    hello = f"arbitro-fw 0.1.0 cfg {layout.board_config()['CONFIG_ID']}"
    assert say(FLASHED(kind="contigo-ref-1", blocks=channel_blocks(layout.blocks), firmware=hello), "es") in out
    assert err == "" and [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.parametrize("command", [["firmware", "flash", "--layout", "contigo"], ["diagnose", "--layout", "contigo"],
                                     ["calibrate", "--layout", "contigo"]])
@pytest.mark.parametrize("url", ["socket://127.0.0.1:1", "/dev/ttyARBITRO-missing"])
def test_a_missing_board_fails_at_once_naming_what_was_tried(command: list[str], url: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "arbitro.toml"
    config.write_text('[board]\nlanguage = "en"\n')
    start = time.monotonic()
    assert main([*command, "--url", url, "--config", str(config)]) == 1
    assert time.monotonic() - start <= 2.0
    err = capsys.readouterr().err
    reason = "nothing listens there" if url.startswith("socket") else "no such device (is the Pico plugged in?)"
    assert err.startswith(f"arbitro: no sensor board at {url}: {reason}; serial devices on this machine: "), err
    assert "Errno" not in err and "'" not in err  # words, not an exception's repr
