"""The sensor board as the tools see it: a ``HostLink`` whose events land in a queue, and the values."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from firmware_bridge.link import HostLink, LinkError, LinkUp, SensorChanged, Snapshot
from firmware_bridge.protocol import Hello


class BoardError(RuntimeError):
    """The sensor board did not answer, or answered something the tool cannot use."""


class BoardLink:
    """``values`` follows the board (snapshot, then changes); ``changes`` counts each channel's changes
    since ``start``; ``wait(pred)`` waits on a condition of the values, never a fixed time."""

    def __init__(self, url: str, *, heartbeat_timeout: float = 1.0) -> None:
        self.url = url
        self.events: queue.Queue[object] = queue.Queue()
        self.link = HostLink(url, self.events.put, heartbeat_timeout=heartbeat_timeout)
        self.values: list[int] = []
        self.hello: Hello | None = None
        self.errors: list[str] = []
        self.on_change: Callable[[int, int], None] | None = None
        self._snapshots = 0
        self._up_snapshots = -1  # the snapshot count when the last LinkUp came (its snapshot follows)

    def start(self, timeout: float = 10.0) -> Hello:
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
