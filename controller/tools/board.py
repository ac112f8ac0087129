"""The sensor board as the tools see it: a ``HostLink`` whose events land in a queue, and the values."""

from __future__ import annotations

import errno
import os
import queue
import re
import time
from collections.abc import Callable

import serial
from serial.tools.list_ports import comports

from controller.games.base import Phrase
from controller.i18n import say
from controller.words import listing
from firmware_bridge.link import HostLink, LinkError, LinkUp, SensorChanged, Snapshot
from firmware_bridge.protocol import Hello

NO_BOARD = Phrase("tools.board.no_board", "no sensor board at {url}: {reason}; serial devices on this machine: {found}")
NONE_FOUND = Phrase("tools.board.none_found", "none")
REASONS = {
    errno.ENOENT: Phrase("tools.board.enoent", "no such device (is the Pico plugged in?)"),
    errno.ECONNREFUSED: Phrase("tools.board.refused", "nothing listens there"),
    errno.EACCES: Phrase("tools.board.eacces", "permission denied (is this user in the dialout group?)"),
    errno.EBUSY: Phrase("tools.board.ebusy", "in use by another program (is arbitro running?)"),
}


class BoardError(RuntimeError):
    """The sensor board did not answer, or answered something the tool cannot use."""


def _reason(exc: BaseException, language: str) -> str:
    """An open error in words: pyserial wraps the OS error in its text ("[Errno 2] could not open port...")."""
    code = getattr(exc, "errno", None)
    if code is None:
        found = re.search(r"\[Errno (\d+)\]", str(exc))
        code = int(found.group(1)) if found else None
    if code in REASONS:
        return say(REASONS[code](), language)
    return os.strerror(code).lower() if code is not None else str(exc)


def open_port(url: str, language: str = "en", timeout: float = 0.05) -> serial.SerialBase:
    """The board's port opened at once, or ``BoardError`` saying why and which devices there are."""
    try:
        return serial.serial_for_url(url, timeout=timeout)
    except (serial.SerialException, OSError, ValueError) as exc:
        found = sorted(p.device for p in comports()) or [say(NONE_FOUND(), language)]
        raise BoardError(say(NO_BOARD(url=url, reason=_reason(exc, language), found=listing(found)), language)) from exc


class BoardLink:
    """``values`` follows the board (snapshot, then changes); ``changes`` counts each channel's changes
    since ``start``; ``wait(pred)`` waits on a condition of the values, never a fixed time."""

    def __init__(self, url: str, *, heartbeat_timeout: float = 1.0, language: str = "en") -> None:
        self.url = url
        self.language = language
        self.events: queue.Queue[object] = queue.Queue()
        self.link = HostLink(url, self.events.put, heartbeat_timeout=heartbeat_timeout)
        self.values: list[int] = []
        self.hello: Hello | None = None
        self.errors: list[str] = []
        self.on_change: Callable[[int, int], None] | None = None
        self._snapshots = 0
        self._up_snapshots = -1  # the snapshot count when the last LinkUp came (its snapshot follows)

    def start(self, timeout: float = 10.0) -> Hello:
        open_port(self.url, self.language).close()  # a wrong URL fails now, not after ``timeout``
        self.link.start()
        if not self.wait(lambda v: self.hello is not None, timeout):
            self.link.stop()
            raise BoardError(f"no sensor board answered on {self.url} within {timeout:.0f} s"
                             + (f" ({self.errors[-1]})" if self.errors else ""))
        assert self.hello is not None
        return self.hello

    def close(self) -> None:
        self.link.stop()

    def pump(self, timeout: float) -> None:
        """Take the events that arrive within ``timeout`` s (at least one wait)."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            return
        while True:
            self._take(event)
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return

    def _take(self, event: object) -> None:
        if isinstance(event, LinkUp):
            self.hello = event.hello
            self._up_snapshots = self._snapshots
        elif isinstance(event, Snapshot):
            self.values = list(event.values)
            self._snapshots += 1
        elif isinstance(event, SensorChanged) and event.channel < len(self.values):
            self.values[event.channel] = event.value
            if self.on_change is not None:
                self.on_change(event.channel, event.value)
        elif isinstance(event, LinkError):
            self.errors.append(event.message)

    def wait(self, predicate: Callable[[list[int]], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not (self.values and predicate(self.values)):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.pump(min(left, 0.05))
        return True

    def sync(self, timeout: float = 5.0) -> list[int]:
        """A fresh snapshot: every change the board sent before it has been taken (a barrier)."""
        before = self._snapshots
        self.link.request_snapshot()
        if not self.wait(lambda v: self._snapshots > before, timeout):
            raise BoardError("the sensor board sent no snapshot")
        return list(self.values)

    def set_raw(self, on: bool, timeout: float = 5.0) -> None:
        """Raw ADC readings on analog channels (calibration) or values; returns once they flow."""
        self._up_snapshots = -1
        self.link.set_raw(on)
        if not self.wait(lambda v: 0 <= self._up_snapshots < self._snapshots, timeout):
            raise BoardError("the sensor board did not switch raw mode (firmware too old? flash it)")
