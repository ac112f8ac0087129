"""``bench.serial_link`` runs (tiny sizes): its pieces measure what they claim."""

from __future__ import annotations

from bench import serial_link
from firmware_bridge import protocol as P


def test_bench_pieces_run() -> None:
    frames = [P.encode(P.Changed(i, 1, i), i) for i in range(200)]
    assert serial_link.decoder_rate(frames, rounds=1) > 0
    assert serial_link.link_flood(300) > 0
    latencies = serial_link.link_latency(30)
    assert len(latencies) == 30 and all(0 < x < 1 for x in latencies)
    assert len(serial_link.sim_latency(5)) == 5
