"""Where a clean move's time goes: monotonic stamps at each stage of the real loop, for
``bench.referee --stages``.

The stamps are taken by wrapping the service's parts from the bench (:meth:`Stages.attach`),
never by code on the production path: the service runs unchanged when no bench asks. One move is
timed at a time: :meth:`Stages.arm` before its last frame is written, then each stage is stamped
once, and only after the stage it follows (so a stamp always belongs to this move's frame; the
LEDs' stages, from ``frame`` to ``shown``, are there only when the move changed the picture):

``read``
    the frame's bytes were read by the host link (``SensorChanged.received``)
``posted``
    the frame was parsed and its event posted into the loop
``taken``
    the loop took the event from its queue
``judged``
    the session judged the board
``frame``
    the LED frame was drawn (``LedStrip.show`` called)
``worker``
    the strip's worker took the frame
``led``
    the LED bytes began to leave the strip's buffer (``_transmit``)
``shown``
    ``LedStrip.show`` returned to the loop
``commit``
    a held move: the commit window is over (the time before it is deliberate, and left out)
``states``
    the public and private states are worked out, and the journal is to be written
``journal``
    the journal's transaction is committed (``synchronous=FULL``: durable)
``stamped``
    the public state, stamped, reached ``publish_state``
``json``
    its JSON was made
``sent``
    the packet was written to the broker's socket (by the loop's thread itself, within the publish:
    ``controller.mqtt_network``)
``queued``
    the publish returned, in the loop
``sub``
    the C ``mosquitto_sub`` in another process printed it (added by the bench)

It also takes the loop thread's CPU time (``time.thread_time``) at each stage the loop stamps, so
that waiting (for the GIL, another thread, the disk) shows apart from working, whatever else the
machine runs.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.mqtt import MqttBridge
from controller.service import Service
from firmware_bridge.link import SensorChanged
from hardware.leds import RecordingPixels

Method = Callable[..., Any]

ORDER = ("write", "read", "posted", "taken", "judged", "frame", "worker", "led", "shown", "commit", "states",
         "journal", "stamped", "json", "sent", "queued", "sub")
"""The stages in the order a move passes them (``commit`` only for a held move)."""
LOOP = ("taken", "judged", "frame", "shown", "commit", "states", "journal", "stamped", "json", "queued")
"""The stages the loop's own thread stamps."""


class Stages:
    """Stamps of the move being timed (:attr:`at`, monotonic seconds by stage) and the loop's CPU."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.channel = -1  # the sensor of the frame being timed
        self.armed = False
        self.moves = 0
        self.held = False  # a held move: the stamps from the journal on follow the commit window
        self.loop = threading.get_ident()  # the service's loop thread (known once it takes the event)
        self.queued = threading.Event()  # the move's state is queued: the bench waits on it, never polls the loop
        self.collections: list[tuple[float, float]] = []  # the loop thread's garbage collections: CPU began, ended
        self._collecting: float | None = None

    def arm(self, sensor: int, moves: int) -> None:
        """Time the move that the frame of ``sensor`` ends, played after ``moves`` actions."""
        self.at, self.cpu, self.channel, self.armed, self.held = {}, {}, sensor, True, False
        self.moves = moves
        self.collections, self._collecting = [], None
        self.at["write"] = time.monotonic()  # the bench sets the exact time once its write returns
        self.queued.clear()

    def mark(self, stage: str, after: str, when: float | None = None) -> None:
        if self.armed and stage not in self.at and after in self.at:
            self.at[stage] = time.monotonic() if when is None else when
            if stage == "taken":
                self.loop = threading.get_ident()
            if stage in LOOP and threading.get_ident() == self.loop:
                self.cpu[stage] = time.thread_time()

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        """gc's callback: a collection in the loop thread while the timed move is in the loop."""
        if not (self.armed and "taken" in self.at and "queued" not in self.at
                and threading.get_ident() == self.loop):
            return
        if phase == "start":
            self._collecting = time.thread_time()
        elif self._collecting is not None:
            self.collections.append((self._collecting, time.thread_time()))
            self._collecting = None

    def collected(self) -> float:
        """The loop thread's CPU seconds in garbage collections within :meth:`loop_cpu` (a held
        move's commit window, when the loop is idle, left out)."""
        stamped = [self.cpu[stage] for stage in LOOP if stage in self.cpu]
        window = None
        if "commit" in self.cpu:
            before = [self.cpu[stage] for stage in LOOP[:LOOP.index("commit")] if stage in self.cpu]
            window = (before[-1], self.cpu["commit"])
        return sum(end - began for began, end in self.collections
                   if stamped and stamped[0] <= began <= stamped[-1]
                   and not (window is not None and window[0] <= began <= window[1]))

    def detach(self) -> None:
        """Stop timing garbage collections (the service is stopped)."""
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)

    def loop_cpu(self) -> float | None:
        """The loop thread's CPU seconds from taking the event to queueing the state (a held
        move's commit window left out: the loop does other work meanwhile)."""
        if "taken" in self.cpu and "queued" in self.cpu:
            return sum(self.cpu_deltas().values())
        return None

    def attach(self, service: Service, mqtt: MqttBridge, pixels: RecordingPixels) -> Callable[[object], None]:
        """Wrap the parts of ``service`` (publishing with ``mqtt``, its strip writing to ``pixels``) to
        stamp each stage; returns the ``post`` to give the host link."""
        assert service.kept is not None
        mark = self.mark

        def moved() -> bool:  # in the loop: what is written and told from now on is the move
            return len(service.session.match.record.actions) > self.moves

        def post(event: object) -> None:
            if isinstance(event, SensorChanged) and event.channel == self.channel:
                mark("read", "write", event.received)
                mark("posted", "read")
            service.post(event)

        def handle(original: Method, event: object) -> None:
            if isinstance(event, SensorChanged) and event.channel == self.channel and "taken" not in self.at:
                mark("taken", "posted")
            original(event)

        def judge(original: Method, settled: bool) -> Any:
            if settled and "judged" in self.at:
                self.held = True
                mark("commit", "judged")
            outcome = original(settled=settled)
            mark("judged", "taken")
            return outcome

        def show(original: Method, frame: Any) -> Any:
            mark("frame", "judged")
            done = original(frame)
            mark("shown", "frame")
            return done

        def write(original: Method, frame: Any) -> None:
            mark("worker", "frame")
            original(frame)

        def transmit(original: Method, buffer: bytearray) -> None:
            mark("led", "worker")
            original(buffer)

        def keep(original: Method, session: Any) -> Any:
            if moved():
                mark("states", "commit" if self.held else "judged")  # the LEDs' stages only when the scene changed
            done = original(session)
            mark("journal", "states")
            return done

        def publish_state(original: Method, state: dict[str, Any]) -> None:
            if moved():
                mark("stamped", "journal")
            original(state)

        def publish_retained(original: Method, topic: str, payload: bytes) -> None:
            state = topic.endswith("/state")
            if state:
                mark("json", "stamped")
            original(topic, payload)
            if state and "json" in self.at and "queued" not in self.at:
                mark("queued", "json")
                self.queued.set()

        def sock_send(original: Method, buf: bytes | bytearray) -> Any:
            sent = original(buf)
            if b"/state" in buf:
                mark("sent", "json")  # the loop's thread writes it before its publish returns
            return sent

        for owner, name, around in (
                (service, "_handle", handle), (service.session, "judge", judge), (service.strip, "show", show),
                (service.strip, "_write", write), (pixels, "_transmit", transmit), (service.kept, "keep", keep),
                (mqtt, "publish_state", publish_state), (mqtt, "_publish_retained", publish_retained),
                (mqtt.client, "_sock_send", sock_send)):
            _wrap(owner, name, around)
        gc.callbacks.append(self._gc)
        return post

    def cpu_deltas(self) -> dict[str, float]:
        """The loop thread's CPU seconds reaching each of its stages from the one before (the
        commit window left out)."""
        return _steps(self.cpu, LOOP)

    def deltas(self) -> dict[str, float]:
        """Seconds spent reaching each stage from the one before it (the commit window left out)."""
        return _steps(self.at, ORDER)


def _steps(stamps: dict[str, float], order: Sequence[str]) -> dict[str, float]:
    """From each stamped stage of ``order`` to the next one stamped; the commit window left out."""
    out = {}
    last = None
    for stage in order:
        if stage not in stamps:
            continue
        if last is not None and stage != "commit":
            out[stage] = stamps[stage] - stamps[last]
        last = stage
    return out


def _wrap(owner: object, name: str, around: Callable[..., Any]) -> None:
    """Replace the method ``name`` of this ``owner`` alone by ``around(original, *args)``."""
    original = getattr(owner, name)
    setattr(owner, name, lambda *args, **kwargs: around(original, *args, **kwargs))
