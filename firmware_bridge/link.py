"""The host side of the sensor link: a pyserial reader thread that posts typed events.

``HostLink(url, post)`` opens ``url`` (a device path such as ``/dev/ttyACM0`` or the stable
udev name ``/dev/arbitro-sensors``, or any pyserial URL: ``socket://127.0.0.1:7000``,
``loop://``) on its own thread and calls ``post(event)`` from that thread for each of:

- ``LinkUp(hello)``: the link is ready: a HELLO arrived (on every (re)connect, after an MCU
  reboot, and after a ``configure``, which the MCU confirms with a HELLO) **and** the snapshot
  asked for after it is complete. It is posted just before that ``Snapshot``, so every
  ``LinkUp`` is followed at once by the board's full state.
- ``Snapshot(values)``: every channel's debounced value, all parts assembled.
- ``SensorTime(mcu_ms)``: a heartbeat's MCU uptime, while up: in sensor time, nothing changed until then;
- ``SensorChanged(channel, value, mcu_ms, received)``: a channel settled on a new value;
  ``received`` is ``time.monotonic()`` when the frame's bytes were read. Only while up (between
  ``LinkUp`` and ``LinkDown``): changes before the first snapshot are in that snapshot.
- ``LinkError(message)``: the port cannot be opened (once per outage), the MCU sent ERROR, a
  frame contradicts the HELLO (channel out of range, snapshot of the wrong size), or the link is
  not ready: a HELLO or snapshot did not come when asked (message starts ``not ready:``, once
  per episode; the link keeps asking with backoff and logs every retry).
- ``LinkDown(reason)``: after a ``LinkUp``, no frame came for ``heartbeat_timeout`` s (the port
  stays open and a snapshot is asked for: its ``LinkUp`` and ``Snapshot`` follow when the board
  speaks again), or the port failed (it is then reopened).

Guarantees: the read path never sleeps (blocking reads with ``read_timeout``); frames before
the first HELLO of a connection are ignored (stale bytes); a sequence gap triggers a snapshot
request, and so does a missed heartbeat (no frame for ``heartbeat_timeout`` s), which is also
a ``LinkDown``: a silent board is never reported up; a REQUEST_HELLO or
REQUEST_SNAPSHOT left unanswered is sent again after ``retry_initial`` s, doubling up to
``retry_max`` s, until the answer comes (heartbeats alone never make the link ready); corrupt
bytes are counted, logged and dropped by ``protocol.Decoder`` and the stream resyncs at the next
delimiter; ``reconnect_after`` s without any frame, or any port error, closes the port, and it
is reopened with exponential backoff (``backoff_initial`` doubling to ``backoff_max``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from firmware_bridge.protocol import (
    PROTOCOL_VERSION,
    Changed,
    Configure,
    Decoder,
    Error,
    Heartbeat,
    Hello,
    Message,
    RequestHello,
    RequestSnapshot,
    SetRaw,
    SnapshotPart,
    encode,
)

log = logging.getLogger("arbitro.firmware_bridge.link")


@dataclass(frozen=True)
class LinkUp:
    """The MCU said HELLO: its channel layout and settings."""

    hello: Hello


@dataclass(frozen=True)
class LinkDown:
    """The connection was lost (``reason`` says how); the link is reconnecting."""

    reason: str


@dataclass(frozen=True)
class Snapshot:
    """Every channel's debounced value, indexed by channel."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class SensorChanged:
    """Channel ``channel`` settled on ``value`` at MCU uptime ``mcu_ms``; ``received``: host monotonic time."""

    channel: int
    value: int
    mcu_ms: int
    received: float


@dataclass(frozen=True)
class SensorTime:
    """The sensor board's clock: a HEARTBEAT said its uptime ``mcu_ms`` with nothing changed since
    the frames before it (frames come in order), so the board was still until then in sensor time."""

    mcu_ms: int


@dataclass(frozen=True)
class LinkError:
    """Something the controller may want to show or log; the link keeps running."""

    message: str


Event = LinkUp | LinkDown | Snapshot | SensorChanged | LinkError

_COUNTERS = (
    "connects",
    "open_failures",
    "disconnects",
    "hellos",
    "hello_requests",
    "snapshots",
    "snapshot_requests",
    "retries",
    "changes",
    "heartbeats",
    "seq_gaps",
    "missed_heartbeats",
    "ignored_before_hello",
    "ignored_not_ready",
    "mcu_errors",
    "bad_channel",
    "bytes_read",
)


class HostLink:
    """The sensor MCU over pyserial; see the module docstring for events and guarantees.

    ``start()`` starts the reader thread, ``stop()`` ends it (closing the port; posts
    ``LinkDown("stopped")`` if the link was up). ``request_snapshot()`` and ``configure()`` may be
    called from any thread. ``stats`` is a dict of counters (``_COUNTERS`` plus the decoder's
    ``frames``, ``corrupt``, ``invalid``, ``wrong_version``, ``bytes_dropped``). ``hello`` is the
    latest HELLO (``None`` before the first); ``ready`` says whether its snapshot has come.
    """

    def __init__(
        self,
        url: str,
        post: Callable[[object], None],
        *,
        heartbeat_timeout: float = 1.0,
        reconnect_after: float | None = None,
        read_timeout: float = 0.05,
        backoff_initial: float = 0.05,
        backoff_max: float = 2.0,
        retry_initial: float | None = None,
        retry_max: float = 8.0,
        baudrate: int = 115200,
    ) -> None:
        self.url = url
        self.post = post
        self.heartbeat_timeout = heartbeat_timeout
        self.reconnect_after = 3 * heartbeat_timeout if reconnect_after is None else reconnect_after
        self.read_timeout = read_timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        # A HELLO or snapshot answers within milliseconds; half a heartbeat timeout is ample.
        self.retry_initial = heartbeat_timeout / 2 if retry_initial is None else retry_initial
        self.retry_max = max(retry_max, self.retry_initial)
        self.baudrate = baudrate
        self.hello: Hello | None = None
        self._counts = dict.fromkeys(_COUNTERS, 0)
        self._decoder = Decoder()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._wlock = threading.Lock()
        self._ser: serial.SerialBase | None = None
        self._tx_seq = 0
        self._up = False
        self._expect_seq: int | None = None
        self._parts: dict[int, SnapshotPart] = {}
        self._pending_hello: Hello | None = None  # a HELLO whose LinkUp waits for its snapshot
        self._retry_at: float | None = None  # when to ask again for what is missing; None: nothing asked
        self._retry_delay = self.retry_initial
        self._said_not_ready = False

    # -- public API ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (it opens the port, retrying with backoff)."""
        if self._thread is not None:
            raise RuntimeError("HostLink already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"HostLink({self.url})", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the reader thread and close the port; returns when the thread has ended."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> HostLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        """True between a ``LinkUp`` and the next ``LinkDown``."""
        return self._up

    @property
    def ready(self) -> bool:
        """True when the latest HELLO's snapshot has come (``LinkUp`` posted, none pending)."""
        return self._up and self._pending_hello is None

    @property
    def stats(self) -> dict[str, int]:
        """A copy of the counters (see the class docstring)."""
        d = dict(self._counts)
        dec = self._decoder
        d.update(
            frames=dec.frames,
            corrupt=dec.corrupt,
            invalid=dec.invalid,
            wrong_version=dec.wrong_version,
            bytes_dropped=dec.bytes_dropped,
        )
        return d

    def request_snapshot(self) -> bool:
        """Ask the MCU for a full snapshot (posted as ``Snapshot``), again with backoff until it comes.

        False if the port is not open.
        """
        return self._ask(RequestSnapshot())

    def configure(self, scan_ms: float, debounce_scans: int, heartbeat_ms: int = 0) -> bool:
        """Set the MCU's scan period (0.1..1000 ms), debounce (1..255 scans), heartbeat (ms, 0 = keep).

        The MCU answers with a HELLO (posted as ``LinkUp``) showing the settings in force.
        Raises ``ValueError`` for out-of-range values; False if the port is not open.
        """
        scan_us = round(scan_ms * 1000)
        if not (100 <= scan_us <= 1_000_000 and 1 <= debounce_scans <= 255 and 0 <= heartbeat_ms <= 65535):
            raise ValueError("scan_ms 0.1..1000, debounce_scans 1..255, heartbeat_ms 0..65535")
        return self._send(Configure(scan_us, debounce_scans, heartbeat_ms))

    def set_raw(self, on: bool) -> bool:
        """Raw mode on or off (``protocol.SetRaw``); the MCU answers with HELLO, so ``LinkUp`` and a
        ``Snapshot`` in the new units follow. False if the port is not open."""
        return self._send(SetRaw(1 if on else 0))

    # -- internals -------------------------------------------------------------------------

    def _post(self, event: object) -> None:
        """Hand ``event`` to ``post``; an exception there is logged, never kills the reader thread."""
        try:
            self.post(event)
        except Exception:
            log.exception("post(%r) failed", event)

    def _ask(self, msg: RequestHello | RequestSnapshot, retry: bool = False) -> bool:
        """Send a request and arm the retry timer; a retry doubles the delay up to ``retry_max``."""
        if retry:
            self._retry_delay = min(self._retry_delay * 2, self.retry_max)
        elif self._retry_at is None:
            self._retry_delay = self.retry_initial
        self._retry_at = time.monotonic() + self._retry_delay
        self._counts["hello_requests" if isinstance(msg, RequestHello) else "snapshot_requests"] += 1
        return self._send(msg)

    def _retry(self) -> None:
        """The HELLO or snapshot asked for has not come: say so and ask again."""
        self._counts["retries"] += 1
        missing = "HELLO" if self.hello is None else "snapshot"
        text = f"no {missing} from {self.url} after {self._retry_delay:.2f} s; asking again"
        if self.ready:  # a resync while up: nothing the controller must act on
            log.warning("%s", text)
        else:
            log.warning("not ready: %s", text)
            if not self._said_not_ready:
                self._said_not_ready = True
                self._post(LinkError(f"not ready: {text}"))
        self._ask(RequestHello() if self.hello is None else RequestSnapshot(), retry=True)

    def _send(self, msg: Message) -> bool:
        with self._wlock:
            ser = self._ser
            if ser is None:
                return False
            data = encode(msg, self._tx_seq)
            self._tx_seq = (self._tx_seq + 1) & 0xFFFF
            try:
                ser.write(data)
            except (serial.SerialException, OSError) as e:
                log.warning("write to %s failed: %s", self.url, e)
                return False
            return True

    def _run(self) -> None:
        backoff = self.backoff_initial
        failing = False
        while not self._stop.is_set():
            try:
                ser = serial.serial_for_url(
                    self.url, baudrate=self.baudrate, timeout=self.read_timeout, write_timeout=0.5
                )
            except (serial.SerialException, OSError, ValueError) as e:
                self._counts["open_failures"] += 1
                if not failing:
                    failing = True
                    log.warning("cannot open %s: %s", self.url, e)
                    self._post(LinkError(f"cannot open {self.url}: {e}"))
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self.backoff_max)
                continue
            failing = False
            backoff = self.backoff_initial
            self._counts["connects"] += 1
            try:
                reason = self._session(ser)
            finally:
                with self._wlock:
                    self._ser = None
                with contextlib.suppress(serial.SerialException, OSError):
                    ser.close()
            if self._up:
                self._up = False
                self._counts["disconnects"] += 1
                log.log(logging.INFO if reason == "stopped" else logging.WARNING, "link %s down: %s", self.url, reason)
                self._post(LinkDown(reason))
            if not self._stop.is_set():
                self._stop.wait(self.backoff_initial)

    def _session(self, ser: serial.SerialBase) -> str:
        """Read frames until the port fails, goes silent or ``stop()``; returns why it ended."""
        self._decoder.reset()
        self._expect_seq = None
        self._parts = {}
        self._pending_hello = None
        self._retry_at = None
        self._said_not_ready = False
        self.hello = None
        with self._wlock:
            self._ser = ser
        self._ask(RequestHello())
        last_rx = time.monotonic()
        dec = self._decoder
        while not self._stop.is_set():
            try:
                data = ser.read(1)
                if data:
                    waiting = ser.in_waiting
                    if waiting:
                        data += ser.read(waiting)
            except (serial.SerialException, OSError) as e:
                return f"port error: {e}"
            now = time.monotonic()
            if data:
                self._counts["bytes_read"] += len(data)
                corrupt_before = dec.corrupt + dec.invalid
                for seq, msg in dec.feed(data):
                    last_rx = now
                    self._handle(seq, msg, now)
                if dec.corrupt + dec.invalid != corrupt_before:
                    log.warning(
                        "dropped %d corrupt/invalid frame(s) from %s (total corrupt %d, invalid %d)",
                        dec.corrupt + dec.invalid - corrupt_before,
                        self.url,
                        dec.corrupt,
                        dec.invalid,
                    )
            silence = now - last_rx
            if silence > self.reconnect_after:
                return f"no frame for {silence:.1f} s"
            if self._up and silence > self.heartbeat_timeout:
                self._silent(silence)
            # Heartbeats prove the MCU is alive, not that our request got through: retry on a timer.
            if self._retry_at is not None and now >= self._retry_at:
                self._retry()
        return "stopped"

    def _silent(self, silence: float) -> None:
        """A missed heartbeat: the board is down (its readings may be stale) until the snapshot
        asked for now comes, with its ``LinkUp``; the port stays open until ``reconnect_after``."""
        self._counts["missed_heartbeats"] += 1
        self._counts["disconnects"] += 1
        log.warning("link %s down: no frame for %.2f s; asking for a snapshot", self.url, silence)
        self._up = False
        self._pending_hello = self.hello
        self._post(LinkDown(f"no frame for {silence:.1f} s"))
        self.request_snapshot()

    def _handle(self, seq: int, msg: Message, now: float) -> None:
        if isinstance(msg, Hello):
            self._expect_seq = (seq + 1) & 0xFFFF
            self._counts["hellos"] += 1
            self.hello = msg
            self._parts = {}
            if msg.protocol != PROTOCOL_VERSION:
                self._post(LinkError(f"MCU speaks protocol {msg.protocol}, host {PROTOCOL_VERSION}"))
            # LinkUp waits for the snapshot, so the controller never holds a layout without values.
            self._pending_hello = msg
            self._retry_at = None
            self.request_snapshot()
            return
        hello = self.hello
        if hello is None:
            self._counts["ignored_before_hello"] += 1
            return
        if seq != self._expect_seq:
            self._counts["seq_gaps"] += 1
            log.warning("sequence gap from %s: expected %s, got %d", self.url, self._expect_seq, seq)
            self.request_snapshot()
        self._expect_seq = (seq + 1) & 0xFFFF
        if isinstance(msg, Changed):
            if msg.channel >= hello.channels:
                self._counts["bad_channel"] += 1
                self._post(LinkError(f"CHANGED for channel {msg.channel}, board has {hello.channels}"))
                return
            if not self._up:  # the coming snapshot holds it
                self._counts["ignored_not_ready"] += 1
                return
            self._counts["changes"] += 1
            self._post(SensorChanged(msg.channel, msg.value, msg.mcu_ms, now))
        elif isinstance(msg, SnapshotPart):
            self._snapshot_part(msg, hello)
        elif isinstance(msg, Heartbeat):
            self._counts["heartbeats"] += 1
            if self._up:
                self._post(SensorTime(msg.mcu_ms))
        elif isinstance(msg, Error):
            self._counts["mcu_errors"] += 1
            log.warning("MCU error %d: %s", msg.code, msg.message)
            self._post(LinkError(f"MCU error {msg.code}: {msg.message}"))

    def _snapshot_part(self, part: SnapshotPart, hello: Hello) -> None:
        if self._parts and next(iter(self._parts.values())).snapshot_id != part.snapshot_id:
            self._parts = {}
        self._parts[part.part] = part
        if len(self._parts) < part.parts:
            return
        ordered = [self._parts.get(i) for i in range(part.parts)]
        self._parts = {}
        values = b"".join(p.values for p in ordered if p is not None)
        if None in ordered or len(values) != part.total:
            return
        if part.total != hello.channels:
            self._counts["bad_channel"] += 1
            self._post(LinkError(f"snapshot of {part.total} channels, board has {hello.channels}"))
            return
        self._counts["snapshots"] += 1
        self._retry_at = None
        self._said_not_ready = False
        if self._pending_hello is not None:
            hello_up, self._pending_hello = self._pending_hello, None
            self._up = True
            self._post(LinkUp(hello_up))
        self._post(Snapshot(tuple(values)))
