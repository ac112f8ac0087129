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

from controller.games.base import Phrase
from controller.i18n import say as say_in
from controller.tools.board import BoardError, BoardLink, open_port
from controller.words import listing
from firmware_bridge.boardconfig import write_firmware
from firmware_bridge.protocol import Stop, encode
from hardware.layout import Layout, LayoutError, channel_blocks

MPREMOTE = (sys.executable, "-m", "mpremote")

STOPPED = Phrase("tools.flash.stopped", "the running firmware stopped; copying {files}")
NOT_RUNNING = Phrase("tools.flash.not_running", "no firmware was running; copying {files}")
MPREMOTE_FAILED = Phrase("tools.flash.mpremote_failed", "copying failed (mpremote ended with code {code}): {output}")
FLASHED_BUT = Phrase("tools.flash.flashed_but", "flashed, but {problem}")
DISAGREES = Phrase("tools.flash.disagrees", "flashed, but the board disagrees with the layout: {problem}")
FLASHED = Phrase("tools.flash.flashed", "flashed: the board says it is {kind}, with {blocks}; firmware {firmware}")


class FlashError(RuntimeError):
    """Flashing failed; the message says at which step."""


def stop_firmware(port: str, timeout: float = 2.0, language: str = "en") -> bool:
    """Send STOP and wait for the MicroPython prompt; False when none came (no firmware running,
    or a board that is not ours: mpremote's own Ctrl-C then does the rest)."""
    try:
        ser = open_port(port, language)
    except BoardError as exc:
        raise FlashError(str(exc)) from exc
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
          timeout: float = 15.0, say: Callable[[str], None] = print, language: str = "en") -> str:
    """Flash ``layout``'s firmware to the Pico on ``port``; returns the HELLO's firmware text.
    Everything said (``say``) and every ``FlashError`` is in ``language``."""
    values = layout.board_config()
    with tempfile.TemporaryDirectory(prefix="arbitro-fw-") as tmp:
        files = write_firmware(values, Path(tmp), source)
        stopped = stop_firmware(port, language=language)
        names = listing([f.name for f in files])
        say(say_in((STOPPED if stopped else NOT_RUNNING)(files=names), language))
        command = mpremote_command(port, files, mpremote)
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            output = (result.stderr or result.stdout).strip()
            raise FlashError(say_in(MPREMOTE_FAILED(code=result.returncode, output=output), language))
    if not check:
        return ""
    board = BoardLink(port, language=language)
    try:
        hello = board.start(timeout)
    except BoardError as exc:
        raise FlashError(say_in(FLASHED_BUT(problem=str(exc)), language)) from exc
    finally:
        board.close()
    try:
        layout.check_firmware(hello)
    except LayoutError as exc:
        raise FlashError(say_in(DISAGREES(problem=str(exc)), language)) from exc
    say(say_in(FLASHED(kind=hello.board_kind, blocks=channel_blocks(hello.blocks), firmware=hello.firmware), language))
    return hello.firmware
