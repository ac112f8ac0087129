"""Sensor link speed: decoder throughput and pty-to-event latency.

    python -m bench.serial_link [--frames N] [--samples N] [--sim-samples N]

1. ``Decoder.feed`` alone: CHANGED frames (16 bytes) and full SNAPSHOT parts (240 values) per
   second, fed in 4 KiB chunks.
2. ``HostLink`` over a real pty, flooded: CHANGED frames per second from written to posted.
3. Latency over a real pty: a fake MCU writes one CHANGED frame every ms; from just before the
   ``os.write`` of the frame (so the write itself is included) to ``post`` being called on the
   reader thread, p50 / p99 / max.
4. Latency through the simulated board (``SimulatedBoard.set`` -> ``SensorChanged`` posted),
   which adds the firmware's scan period and debounce (1 ms x 3 scans by default).
"""

from __future__ import annotations

import argparse
import os
import queue
import select
import threading
import time
import tty

from firmware_bridge import protocol as P
from firmware_bridge.link import HostLink, LinkUp, SensorChanged, Snapshot
from firmware_bridge.sim import SimulatedBoard


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def decoder_rate(frames: list[bytes], rounds: int = 3) -> float:
    """Frames per second through ``Decoder.feed`` (best of ``rounds``)."""
    stream = b"".join(frames)
    best = 0.0
    for _ in range(rounds):
        dec = P.Decoder()
        t0 = time.perf_counter()
        n = 0
        for i in range(0, len(stream), 4096):
            n += len(dec.feed(stream[i : i + 4096]))
        best = max(best, n / (time.perf_counter() - t0))
        assert n == len(frames)
    return best


class FakeMcu:
    """A pty whose controller end answers the host's handshake."""

    def __init__(self, channels: int = 16) -> None:
        self.fd, device = os.openpty()
        tty.setraw(self.fd)
        tty.setraw(device)
        self.device = device
        self.path = os.ttyname(device)
        self.channels = channels
        self.seq = 0

    def send(self, msg: P.Message) -> None:
        os.write(self.fd, P.encode(msg, self.seq))
        self.seq += 1

    def handshake(self, events: queue.Queue) -> None:
        dec = P.Decoder()
        deadline = time.monotonic() + 5
        state = "hello"
        while time.monotonic() < deadline and state != "done":
            if select.select([self.fd], [], [], 0.05)[0]:
                for _, msg in dec.feed(os.read(self.fd, 4096)):
                    if isinstance(msg, P.RequestHello) and state == "hello":
                        self.send(P.Hello(1, "bench", "0", (("presence", self.channels),)))
                        state = "snapshot"
                    elif isinstance(msg, P.RequestSnapshot) and state == "snapshot":
                        for part in P.split_snapshot([0] * self.channels, 0):
                            self.send(part)
                        state = "done"
        ev = [events.get(timeout=5), events.get(timeout=5)]
        assert isinstance(ev[0], LinkUp) and isinstance(ev[1], Snapshot), ev

    def close(self) -> None:
        for fd in (self.fd, self.device):
            os.close(fd)


def link_flood(frames: int) -> float:
    """CHANGED frames per second from the pty to ``post``."""
    mcu = FakeMcu()
    events: queue.Queue = queue.Queue()
    link = HostLink(mcu.path, events.put)
    link.start()
    try:
        mcu.handshake(events)
        data = b"".join(P.encode(P.Changed(i % 16, i % 2, i), mcu.seq + i) for i in range(frames))
        done = threading.Event()
        count = [0]

        def post(event: object) -> None:
            if isinstance(event, SensorChanged):
                count[0] += 1
                if count[0] == frames:
                    done.set()

        link.post = post
        t0 = time.perf_counter()
        view = memoryview(data)
        while view:
            select.select([], [mcu.fd], [])
            view = view[os.write(mcu.fd, view[:4096]) :]
        done.wait(60)
        return count[0] / (time.perf_counter() - t0)
    finally:
        link.stop()
        mcu.close()


def link_latency(samples: int, interval: float = 0.001) -> list[float]:
    """Seconds from just before each CHANGED frame's os.write to its SensorChanged being posted."""
    mcu = FakeMcu()
    events: queue.Queue = queue.Queue()
    link = HostLink(mcu.path, events.put)
    link.start()
    try:
        mcu.handshake(events)
        written = [0.0] * samples
        posted = [0.0] * samples

        def post(event: object) -> None:
            if isinstance(event, SensorChanged):
                posted[event.mcu_ms] = time.perf_counter()

        link.post = post
        frames = [P.encode(P.Changed(i % 16, i % 2, i), mcu.seq + i) for i in range(samples)]
        for i, frame in enumerate(frames):
            written[i] = time.perf_counter()
            os.write(mcu.fd, frame)
            time.sleep(interval)
        time.sleep(0.1)
        return [p - w for p, w in zip(posted, written, strict=True) if p]
    finally:
        link.stop()
        mcu.close()


def sim_latency(samples: int) -> list[float]:
    """Seconds from ``SimulatedBoard.set`` to ``SensorChanged`` posted (scan + debounce included)."""
    with SimulatedBoard([("presence", 283), ("count", 28)]) as board:
        events: queue.Queue = queue.Queue()
        link = HostLink(board.url, events.put)
        link.start()
        try:
            assert isinstance(events.get(timeout=5), LinkUp)
            assert isinstance(events.get(timeout=5), Snapshot)
            out = []
            for i in range(samples):
                t0 = time.perf_counter()
                board.set(i % 283, 1 - board.values()[i % 283])
                while not isinstance(events.get(timeout=5), SensorChanged):
                    pass
                out.append(time.perf_counter() - t0)
                time.sleep(0.002)
            return out
        finally:
            link.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=20_000, help="frames for the throughput figures")
    parser.add_argument("--samples", type=int, default=1000, help="CHANGED frames for the pty latency")
    parser.add_argument("--sim-samples", type=int, default=200, help="changes for the simulated-board latency")
    args = parser.parse_args()

    changed = [P.encode(P.Changed(i % 500, i % 2, i), i) for i in range(args.frames)]
    parts = [P.encode(p, i) for i, p in enumerate(P.split_snapshot(bytes(i % 3 for i in range(240)), 0) * 2000)]
    print(f"decoder, CHANGED frames ({len(changed[0])} B):        {decoder_rate(changed):>10,.0f} frames/s")
    print(f"decoder, SNAPSHOT parts ({len(parts[0])} B, 240 values): {decoder_rate(parts):>8,.0f} frames/s")
    print(f"HostLink over a pty, CHANGED flood:      {link_flood(args.frames):>10,.0f} frames/s")
    lat = [x * 1e6 for x in link_latency(args.samples)]
    print(
        f"pty write -> event posted ({len(lat)} frames, 1/ms):  p50 {_percentile(lat, 0.5):6.0f} us"
        f"  p99 {_percentile(lat, 0.99):6.0f} us  max {max(lat):6.0f} us"
    )
    sim = [x * 1e3 for x in sim_latency(args.sim_samples)]
    print(
        f"SimulatedBoard.set -> event (scan 1 ms, debounce 3): p50 {_percentile(sim, 0.5):5.2f} ms"
        f"  p99 {_percentile(sim, 0.99):5.2f} ms  max {max(sim):5.2f} ms"
    )


if __name__ == "__main__":
    main()
