"""The many-boards bench runs and finds every board's events complete and in order (a short run)."""

from __future__ import annotations

from bench.mqtt_boards import bench
from controller.localbroker import Broker


def test_a_short_bench_run_loses_nothing(broker: Broker) -> None:
    r = bench("127.0.0.1", broker.port, n=8, seconds=2.0, pace=0.3, burst=15, burst_p=0.1, seed=3)
    assert r["problems"] == [] and r["received"] == r["sent"] > 8 * 15
    assert 0 < r["p50_ms"] <= r["p99_ms"] <= r["max_ms"]
