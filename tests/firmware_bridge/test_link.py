"""HostLink over real pseudo-terminals (and TCP), against the CPython-run firmware or a hand-driven fake MCU."""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import random
import select
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.link import HostLink, LinkDown, LinkError, LinkUp, SensorChanged, Snapshot
from firmware_bridge.sim import SimulatedBoard
from tests.support.waiting import wait_until

BLOCKS = [("presence", 283), ("count", 28)]
E = TypeVar("E")


def wait_for(
    q: queue.Queue[Any],
    kind: type[E],
    pred: Callable[[E], bool] = lambda e: True,
    timeout: float = 3.0,
    pump: Callable[[], None] | None = None,
    seen: list[object] | None = None,
) -> E:
    """The next event of type ``kind`` matching ``pred`` (others go to ``seen``); ``pump`` runs between polls."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pump is not None:
            pump()
        try:
            event = q.get(timeout=0.002 if pump else 0.05)
        except queue.Empty:
            continue
        if isinstance(event, kind) and pred(event):
            return event
        if seen is not None:
            seen.append(event)
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


def until(cond: Callable[[], bool], timeout: float = 3.0) -> None:
    """Wait until ``cond()`` holds."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.005)


def drain(q: queue.Queue[Any], seconds: float, pump: Callable[[], None] | None = None) -> list[object]:
    """Every event posted in the next ``seconds``."""
    out, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pump is not None:
            pump()
        with contextlib.suppress(queue.Empty):
            out.append(q.get(timeout=0.002))
    return out


@pytest.fixture
def events() -> queue.Queue[Any]:
    return queue.Queue()


@pytest.fixture
def links() -> Iterator[list[HostLink]]:
    made: list[HostLink] = []
    yield made
    for link in made:
        link.stop()


def connect(board: SimulatedBoard, q: queue.Queue[Any], links: list[HostLink], **kw: object) -> HostLink:
    """A started HostLink on ``board`` whose LinkUp and first Snapshot have been posted."""
    kw.setdefault("backoff_max", 0.1)
    link = HostLink(board.url, q.put, **kw)  # type: ignore[arg-type]
    links.append(link)
    link.start()
    pump = (lambda: board.advance(1)) if board.firmware.clock.__class__.__name__ == "ManualClock" else None
    wait_for(q, LinkUp, pump=pump)
    snap = wait_for(q, Snapshot, pump=pump)
    assert list(snap.values) == board.values()
    return link


@pytest.mark.parametrize("transport", ["pty", "tcp"])
def test_sensor_change_becomes_changed_event(transport: str, events: queue.Queue[Any], links: list[HostLink]) -> None:
    with SimulatedBoard(BLOCKS, "contigo", transport=transport) as board:
        board.set_many({7: 1, 290: 2})
        assert board.wait_idle()
        link = connect(board, events, links)
        assert link.hello is not None
        assert link.hello.blocks == tuple(BLOCKS) and link.hello.board_kind == "contigo"
        t0 = time.monotonic()
        board.set(42, 1)
        event = wait_for(events, SensorChanged)
        assert (event.channel, event.value) == (42, 1)
        assert t0 < event.received < time.monotonic()
        board.set(300, 5)
        event = wait_for(events, SensorChanged)
        assert (event.channel, event.value) == (300, 5)
        stats = link.stats
        assert stats["seq_gaps"] == stats["corrupt"] == stats["invalid"] == 0
        link.stop()
        assert isinstance(wait_for(events, LinkDown), LinkDown)


def test_chatter_yields_exactly_one_change_over_pty(events: queue.Queue[Any], links: list[HostLink]) -> None:
    """A contact bouncing every 2 ms for 100 ms, scanned every 1 ms with debounce 3 (manual clock)."""
    with SimulatedBoard(BLOCKS, clock="manual", scan_ms=1.0, debounce_scans=3) as board:
        connect(board, events, links)
        for i in range(50):
            board.set(100, (i + 1) % 2)
            board.advance(2)
        board.set(100, 1)
        board.advance(10)
        got = [e for e in drain(events, 0.3, pump=lambda: board.advance(1)) if isinstance(e, SensorChanged)]
        assert [(e.channel, e.value) for e in got] == [(100, 1)]


def test_unplug_and_replug_mid_stream_ends_with_a_matching_snapshot(events: queue.Queue[Any],
                                                                    links: list[HostLink]) -> None:
    with SimulatedBoard(BLOCKS, transport="pty") as board:
        link = connect(board, events, links)
        url = board.url
        view: list[int] = board.values()
        rng = random.Random(3)
        stop = threading.Event()

        def churn() -> None:
            while not stop.is_set():
                ch = rng.randrange(board.channels)
                board.set(ch, rng.randint(0, 1 if ch < 283 else 9))
                time.sleep(0.004)

        churner = threading.Thread(target=churn)
        churner.start()
        try:
            time.sleep(0.15)
            board.unplug()
            time.sleep(0.2)
            board.replug()
            time.sleep(0.15)
        finally:
            stop.set()
            churner.join()
        assert board.url == url
        seen: list[Any] = []
        wait_for(events, LinkDown, seen=seen)
        wait_for(events, LinkUp, seen=seen)
        snap = wait_for(events, Snapshot, seen=seen)
        view = list(snap.values)
        assert board.wait_idle()
        for event in drain(events, 0.2):
            if isinstance(event, SensorChanged):
                view[event.channel] = event.value
        assert view == board.values()
        assert link.stats["connects"] == 2 and link.stats["disconnects"] == 1


def test_tcp_unplug_replug_keeps_the_url(events: queue.Queue[Any], links: list[HostLink]) -> None:
    with SimulatedBoard(BLOCKS, transport="tcp") as board:
        connect(board, events, links)
        url = board.url
        board.unplug()
        board.set(3, 1)
        wait_for(events, LinkDown)
        board.replug()
        assert board.url == url
        wait_for(events, LinkUp)
        snap = wait_for(events, Snapshot)
        assert snap.values[3] == 1


def test_garbage_between_firmware_frames_loses_no_frame(events: queue.Queue[Any], links: list[HostLink]) -> None:
    rng = random.Random(7)
    with SimulatedBoard(BLOCKS) as board:
        link = connect(board, events, links)
        for ch in range(60):
            board.set(ch, 1)
            board.inject(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))) + b"\x00" * rng.randint(0, 1))
            time.sleep(0.003)
        got: set[int] = set()
        while len(got) < 60:
            event = wait_for(events, SensorChanged)
            got.add(event.channel)
        assert got == set(range(60))
        stats = link.stats
        assert stats["corrupt"] > 0 and stats["seq_gaps"] == 0


# -- against a hand-driven fake MCU on the pty_pair fixture --------------------------------------


class FakeMcu:
    """The MCU end of ``pty_pair``: writes frames, reads what the host sends."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.seq = 0
        self.decoder = P.Decoder()

    def send(self, *msgs: P.Message, seq: int | None = None, garbage: bytes = b"") -> None:
        data = bytearray()
        for msg in msgs:
            if seq is not None:
                self.seq = seq
            data += garbage + P.encode(msg, self.seq)
            self.seq += 1
        os.write(self.fd, bytes(data))

    def expect(self, kind: type, timeout: float = 2.0) -> P.Message:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.02)[0]:
                for _, msg in self.decoder.feed(os.read(self.fd, 4096)):
                    if isinstance(msg, kind):
                        return msg
        raise AssertionError(f"host sent no {kind.__name__}")

    def requests(self, kind: type, n: int, timeout: float = 5.0) -> list[float]:
        """When each of the next ``n`` ``kind`` requests arrived, sending heartbeats meanwhile (alive, unanswering)."""
        times: list[float] = []
        deadline = time.monotonic() + timeout
        next_beat = 0.0
        while len(times) < n:
            now = time.monotonic()
            assert now < deadline, f"host sent {len(times)} {kind.__name__}, not {n}"
            if now >= next_beat:
                self.send(P.Heartbeat(int(now * 1000) & 0xFFFFFFFF, 0))
                next_beat = now + 0.05
            if select.select([self.fd], [], [], 0.01)[0]:
                got = self.decoder.feed(os.read(self.fd, 4096))
                times += [time.monotonic() for _, msg in got if isinstance(msg, kind)]
        return times

    def handshake(self, q: queue.Queue[Any], channels: int = 10) -> None:
        self.expect(P.RequestHello)
        self.send(P.Hello(1, "fake", "0", (("presence", channels),), 1000, 3, 250))
        self.expect(P.RequestSnapshot)
        self.send(*P.split_snapshot([0] * channels, 0))
        wait_for(q, LinkUp)
        wait_for(q, Snapshot)


def test_sequence_gap_triggers_a_snapshot_request(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                                  links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put)
    links.append(link)
    link.start()
    mcu.handshake(events)
    mcu.send(P.Changed(1, 1, 10))
    mcu.send(P.Changed(2, 1, 11), seq=mcu.seq + 3)
    assert [wait_for(events, SensorChanged).channel for _ in range(2)] == [1, 2]
    mcu.expect(P.RequestSnapshot)
    assert link.stats["seq_gaps"] == 1


def test_missed_heartbeat_triggers_snapshot_then_reconnect(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                                           links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put, heartbeat_timeout=0.15, reconnect_after=0.6, backoff_max=0.05)
    links.append(link)
    link.start()
    mcu.handshake(events)
    mcu.expect(P.RequestSnapshot, timeout=0.5)
    assert link.stats["missed_heartbeats"] >= 1
    assert "no frame" in wait_for(events, LinkDown).reason
    mcu.expect(P.RequestHello)  # reopened
    assert link.stats["connects"] == 2


def test_heartbeats_keep_the_link_quiet(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                        links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    # ten heartbeats 50 ms apart span 0.5 s, longer than the timeout: without them the link would
    # count a miss; six times the pace as the timeout leaves room for a loaded machine
    link = HostLink(path, events.put, heartbeat_timeout=0.3)
    links.append(link)
    link.start()
    mcu.handshake(events)
    for i in range(10):
        mcu.send(P.Heartbeat(i, i))
        time.sleep(0.05)  # the microcontroller's pace, not a wait for the link
    wait_until(lambda: link.stats["heartbeats"] == 10, "the link to count the ten heartbeats")
    assert link.stats["missed_heartbeats"] == 0


def test_frames_before_hello_are_ignored_and_errors_posted(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                                           links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put)
    links.append(link)
    link.start()
    mcu.expect(P.RequestHello)
    mcu.send(P.Changed(1, 1, 1))
    mcu.handshake(events, channels=4)
    mcu.send(P.Error(P.ERR_BAD_FRAME, "bad frame"), P.Changed(9, 1, 5))
    assert "MCU error 1: bad frame" in wait_for(events, LinkError).message
    assert "channel 9" in wait_for(events, LinkError).message
    mcu.send(*P.split_snapshot([0] * 5, 1))
    assert "snapshot of 5" in wait_for(events, LinkError).message
    stats = link.stats
    assert stats["ignored_before_hello"] == 1 and stats["mcu_errors"] == 1 and stats["bad_channel"] == 2


def test_garbage_glued_to_frames_loses_none(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                            links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put)
    links.append(link)
    link.start()
    mcu.handshake(events)
    rng = random.Random(11)
    for i in range(200):
        garbage = bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))
        mcu.send(P.Changed(i % 10, i % 2, i), garbage=garbage)
    got = [wait_for(events, SensorChanged).mcu_ms for _ in range(200)]
    assert got == list(range(200))
    assert link.stats["seq_gaps"] == 0


def test_open_failure_posts_one_error_and_retries(tmp_path: Path, events: queue.Queue[Any],
                                                  links: list[HostLink]) -> None:
    link = HostLink(str(tmp_path / "ttyNOPE"), events.put, backoff_initial=0.01, backoff_max=0.02)
    links.append(link)
    link.start()
    assert "cannot open" in wait_for(events, LinkError).message
    time.sleep(0.2)
    assert link.stats["open_failures"] >= 3
    assert events.empty()


def test_configure_is_confirmed_by_hello(events: queue.Queue[Any], links: list[HostLink]) -> None:
    with SimulatedBoard(BLOCKS) as board:
        link = connect(board, events, links)
        assert link.configure(2.0, 1, 100)
        hello = wait_for(events, LinkUp).hello
        assert (hello.scan_us, hello.debounce_scans, hello.heartbeat_ms) == (2000, 1, 100)
        wait_for(events, Snapshot)
        board.set(9, 1)
        assert wait_for(events, SensorChanged).channel == 9
        with pytest.raises(ValueError):
            link.configure(0.01, 1)


def test_loop_url_opens(events: queue.Queue[Any], links: list[HostLink]) -> None:
    """``loop://`` echoes the host's own REQUEST_HELLO, which is no HELLO: the link is never ready."""
    link = HostLink("loop://", events.put, heartbeat_timeout=0.1)
    links.append(link)
    link.start()
    assert wait_for(events, LinkError).message.startswith("not ready: no HELLO")
    assert link.stats["connects"] == 1 and link.stats["frames"] >= 2 and not link.connected
    assert events.empty()


def test_a_failing_post_does_not_kill_the_reader(pty_pair: tuple[int, str], events: queue.Queue[Any],
                                                 links: list[HostLink]) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)

    def post(event: object) -> None:
        if isinstance(event, SensorChanged) and event.channel == 1:
            raise RuntimeError("controller bug")
        events.put(event)

    link = HostLink(path, post)
    links.append(link)
    link.start()
    mcu.handshake(events)
    mcu.send(P.Changed(1, 1, 1), P.Changed(2, 1, 2))
    assert wait_for(events, SensorChanged).channel == 2


def test_mcu_reboot_is_a_new_link_up_and_snapshot(events: queue.Queue[Any], links: list[HostLink]) -> None:
    with SimulatedBoard(BLOCKS) as board:
        link = connect(board, events, links)
        board.set(8, 1)
        wait_for(events, SensorChanged)
        board.reboot()
        assert wait_for(events, LinkUp).hello.board_kind == "generic"
        assert wait_for(events, Snapshot).values[8] == 1
        board.unplug()
        board.set(9, 1)
        wait_for(events, LinkDown)
        board.replug(reboot=True)
        wait_for(events, LinkUp)
        assert list(wait_for(events, Snapshot).values) == board.values()
        assert link.stats["seq_gaps"] == 0


# -- issue 12.2: a lost HELLO or snapshot is asked for again; not ready until both -----------------


def test_lost_hello_and_lost_snapshot_are_asked_for_again(events: queue.Queue[Any], links: list[HostLink]) -> None:
    """The real firmware over a pty, its first HELLO answer and first snapshot lost on the wire.

    Heartbeats keep arriving all along, so only a retry timer brings the link up.
    """
    with SimulatedBoard(BLOCKS) as board:
        board.set(5, 1)
        assert board.wait_idle()
        assert board.firmware.tx_seq >= 1  # the boot HELLO is already out: lose the next ones
        board.lose("Hello")
        board.lose("SnapshotPart", 2)  # 311 channels: both parts of the first snapshot
        link = HostLink(board.url, events.put)  # default timings: heartbeats every 250 ms < 1 s
        links.append(link)
        link.start()
        seen: list[Any] = []
        up = wait_for(events, LinkUp, seen=seen, timeout=5)
        assert up.hello.blocks == tuple(BLOCKS)
        assert [type(e) for e in seen] == [LinkError]
        assert seen[0].message.startswith("not ready: no HELLO")
        assert events.get(timeout=1).values == tuple(board.values())  # the Snapshot, right after
        assert board.wire.lost == 3 and link.ready
        stats = link.stats
        assert stats["hellos"] == 1 and stats["hello_requests"] >= 2 and stats["snapshot_requests"] >= 2


def test_unanswered_requests_repeat_with_backoff_and_nothing_is_up_meanwhile(
    pty_pair: tuple[int, str], events: queue.Queue[Any], links: list[HostLink]
) -> None:
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put, heartbeat_timeout=5.0, retry_initial=0.1, retry_max=0.4)
    links.append(link)
    link.start()
    hellos = mcu.requests(P.RequestHello, 5)
    mcu.send(P.Hello(1, "fake", "0", (("presence", 4),)))
    snaps = mcu.requests(P.RequestSnapshot, 3)
    mcu.send(P.Changed(1, 1, 7))  # before the snapshot: the snapshot holds it
    until(lambda: link.stats["ignored_not_ready"] == 1)
    assert not link.ready and not link.connected
    mcu.send(*P.split_snapshot([0, 1, 0, 0], 0))
    seen: list[Any] = []
    wait_for(events, LinkUp, seen=seen)
    assert events.get(timeout=1).values == (0, 1, 0, 0)
    assert [type(e) for e in seen] == [LinkError]  # said once, no LinkUp, Snapshot or SensorChanged
    assert seen[0].message.startswith("not ready: no HELLO")
    gaps = [b - a for a, b in itertools.pairwise(hellos)]
    for gap, delay in zip(gaps, [0.1, 0.2, 0.4, 0.4], strict=True):  # doubling, capped at retry_max
        assert gap > delay - 0.05, gaps
    snap_gaps = [b - a for a, b in itertools.pairwise(snaps)]
    for gap, delay in zip(snap_gaps, [0.1, 0.2], strict=True):
        assert gap > delay - 0.05, snap_gaps
    assert snap_gaps[0] < 0.35, snap_gaps  # the HELLO restarted the backoff (else 0.4)
    assert link.stats["retries"] >= 6


# -- issue 18.10: silence is not "up" -------------------------------------------------------------


def test_a_silent_board_is_down_within_the_heartbeat_timeout_and_up_again_when_it_speaks(
    pty_pair: tuple[int, str], events: queue.Queue[Any], links: list[HostLink]
) -> None:
    """The port stays open (reconnecting comes much later); the snapshot that ends the silence
    brings the link up again, on the same connection."""
    fd, path = pty_pair
    mcu = FakeMcu(fd)
    link = HostLink(path, events.put, heartbeat_timeout=0.3, reconnect_after=30.0)
    links.append(link)
    link.start()
    mcu.handshake(events)
    quiet_since = time.monotonic()
    down = wait_for(events, LinkDown, timeout=0.3 + 0.7)
    assert time.monotonic() - quiet_since < 0.3 + 0.7 and not link.connected
    assert "no frame for" in down.reason
    mcu.expect(P.RequestSnapshot)
    mcu.send(*P.split_snapshot([0, 1] + [0] * 8, 0))
    wait_for(events, LinkUp)
    assert wait_for(events, Snapshot).values[1] == 1
    assert link.connected and link.stats["connects"] == 1 and link.stats["missed_heartbeats"] == 1
