"""The messages to the service's loop, and the small interfaces it is written against: each has a real part and a
simulated twin (or a test's own), and the loop never knows which it has."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

Post = Callable[[object], None]


class Link(Protocol):
    """The sensor board's link (``firmware_bridge.link.HostLink``)."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def request_snapshot(self) -> object: ...
    def configure(self, scan_ms: float, debounce_scans: int, heartbeat_ms: int = 0) -> bool: ...


class Publisher(Protocol):
    """Where state and events go (``controller.mqtt.MqttBridge``)."""

    post: Post
    connected: threading.Event

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def publish_state(self, state: dict[str, Any]) -> None: ...
    def publish_private(self, player: int, data: dict[str, Any] | None) -> None: ...
    def publish_info(self, info: dict[str, Any]) -> None: ...
    def publish_events(self, events: list[dict[str, Any]]) -> list[int]: ...


class Inputs(Protocol):
    """The table's buttons and ring encoders (``hardware.inputs.TableInputs``)."""

    post: Post

    def calibrate(self, offsets: dict[str, int]) -> None: ...
    def close(self) -> None: ...
    def offsets(self) -> dict[str, int]: ...


class Sound(Protocol):
    """Who hears what is told at the table (``controller.sound.TableSound``: the buzzer, the voice)."""

    def hear(self, events: list[dict[str, Any]], state: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Stop:
    """Ends the loop."""


@dataclass(frozen=True)
class Call:
    """Runs ``fn`` inside the loop (tests and the demo read the session without racing it)."""

    fn: Callable[[], Any]
    done: queue.Queue[tuple[bool, Any]]

    def run(self) -> None:
        try:
            self.done.put((True, self.fn()))
        except Exception as exc:  # handed to the caller, who raises it
            self.done.put((False, exc))
