"""``arbitro firmware flash``: the firmware and a ``board_config.py`` generated from the layout, onto the Pico.

Steps: generate ``board_config.py`` from the layout (``Layout.board_config()``); send STOP on
the port, so a running arbitro firmware (which turns Ctrl-C off) returns to the REPL; copy
``arbitro_fw.py``, ``board_config.py`` and ``main.py`` with ``mpremote connect PORT fs cp ... :``
and ``+ reset``; then wait for the HELLO and check it against the layout (blocks, board kind,
configuration id), unless ``--no-check``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import serial

from controller.tools.board import BoardError, BoardLink
from controller.words import channel_blocks
from firmware_bridge.boardconfig import write_firmware
from firmware_bridge.protocol import Stop, encode
from hardware.layout import Layout, LayoutError

MPREMOTE = (sys.executable, "-m", "mpremote")


class FlashError(RuntimeError):
    """Flashing failed; the message says at which step."""


def stop_firmware(port: str, timeout: float = 2.0) -> bool:
    """Send STOP and wait for the MicroPython prompt; False when none came (no firmware running,
    or a board that is not ours: mpremote's own Ctrl-C then does the rest)."""
    try:
        ser = serial.serial_for_url(port, timeout=0.05)
    except (serial.SerialException, OSError) as exc:
        raise FlashError(f"cannot open {port}: {exc}") from exc
    try:
        ser.write(encode(Stop(), 0))
        seen = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = (seen + ser.read(256))[-64:]
            if b">>> " in seen:
                return True
        return False
    finally:
        ser.close()


def mpremote_command(port: str, files: Sequence[Path], mpremote: Sequence[str] = MPREMOTE) -> list[str]:
    """``mpremote connect PORT fs cp FILE... : + reset``."""
    return [*mpremote, "connect", port, "fs", "cp", *(str(f) for f in files), ":", "+", "reset"]


def flash(layout: Layout, port: str, *, source: str = "", mpremote: Sequence[str] = MPREMOTE, check: bool = True,
          timeout: float = 15.0, say: Callable[[str], None] = print) -> str:
    """Flash ``layout``'s firmware to the Pico on ``port``; returns the HELLO's firmware text."""
    values = layout.board_config()
    with tempfile.TemporaryDirectory(prefix="arbitro-fw-") as tmp:
        files = write_firmware(values, Path(tmp), source)
        stopped = stop_firmware(port)
        say(f"firmware {'stopped' if stopped else 'not running'}; copying {', '.join(f.name for f in files)}")
        command = mpremote_command(port, files, mpremote)
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            raise FlashError(f"mpremote failed ({result.returncode}): {(result.stderr or result.stdout).strip()}")
    if not check:
        return ""
    board = BoardLink(port)
    try:
        hello = board.start(timeout)
    except BoardError as exc:
        raise FlashError(f"flashed, but {exc}") from exc
    finally:
        board.close()
    try:
        layout.check_firmware(hello)
    except LayoutError as exc:
        raise FlashError(f"flashed, but the board disagrees with the layout: {exc}") from exc
    say(f"ok: {hello.board_kind} says HELLO with {channel_blocks(hello.blocks)}, {hello.firmware}")
    return hello.firmware
