"""Many boards, one broker: ``python -m bench.mqtt_boards [--boards 10,100] [--seconds 12]``.

N simulated boards, each a real :class:`controller.mqtt.MqttBridge` (its own paho client and
thread, as on a board's Pi), publish like the service does: a retained ``state`` and an ``events``
message per move at human pace (one every ``--pace`` seconds, jittered), a burst of ``--burst``
moves now and then (takebacks, a flush after an outage), and once, half-way, every board bursts at
the same moment. The boards run in a child process; one subscriber in this process takes
``arbitro/+/events`` and checks that every board's events arrive complete and in order (the
``seq`` field), and measures publish-to-receive latency (the event carries its publish time on the
shared monotonic clock). A private Mosquitto is started unless ``--broker HOST:PORT`` is given.
Each run stops by itself: ``--seconds`` of traffic, then it drains until every event has arrived or
nothing more has come for ``QUIET`` seconds. An event is *lost* when it never arrived, *late* when it
arrived more than ``LATE`` seconds after the traffic ended; exit status 1 when anything was lost or
out of order.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import multiprocessing as mp
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.config import MqttConfig
from controller.localbroker import Broker
from controller.mqtt import MqttBridge, set_nodelay

LATE = 10.0
"""Seconds after the traffic ended past which an arrival counts as late (still not lost)."""
QUIET = 30.0
"""Seconds without a new arrival after which what has not arrived counts as lost."""


def board_id(i: int) -> str:
    return f"bench{i:03d}"


def run_boards(host: str, ports: list[int], n: int, seconds: float, pace: float, burst: int, burst_p: float,
               seed: int, ready: Any, go: Any, result: Any) -> None:
    """The child process: ``n`` bridges publishing for ``seconds``, board ``i`` to ``ports[i % len(ports)]``
    (one broker, or each board's own); puts {board: events sent} in ``result``."""
    bridges = [MqttBridge(MqttConfig(host=host, port=ports[i % len(ports)], base_topic="arbitro"), board_id(i),
                          lambda e: None, client_id=f"bench-{seed}-{i}") for i in range(n)]
    for b in bridges:
        b.start()
    for b in bridges:
        if not b.connected.wait(30):
            raise SystemExit("a board could not connect")
    ready.set()
    go.wait()
    rng = random.Random(seed)
    moves = [0] * n
    start = time.monotonic()
    end = start + seconds
    all_burst_at = start + seconds / 2
    all_burst_done = False
    queue = [(start + rng.uniform(0, pace), i) for i in range(n)]
    heapq.heapify(queue)

    def move(i: int, kind: str) -> None:
        moves[i] += 1
        now = time.monotonic()
        bridges[i].publish_event({"type": "bench", "game": "bench", "move": moves[i], "kind": kind, "t": now})
        bridges[i].publish_state({"schema": 1, "board": board_id(i), "moves": moves[i], "t": now,
                                  "board_view": {"cells": list(range(40))}})

    while True:
        now = time.monotonic()
        if now >= end:
            break
        if not all_burst_done and now >= all_burst_at:
            all_burst_done = True
            for i in range(n):
                for _ in range(burst):
                    move(i, "all")
        at, i = queue[0]
        if at > now:
            time.sleep(min(at - now, max(0.0, all_burst_at - now) if not all_burst_done else at - now, 0.05))
            continue
        heapq.heapreplace(queue, (at + pace * rng.uniform(0.5, 1.5), i))
        if rng.random() < burst_p:
            for _ in range(burst):
                move(i, "burst")
        else:
            move(i, "pace")
    for b in bridges:
        b.flush(30)
    result.put({b.board_id: b.last_event_seq for b in bridges})
    for b in bridges:
        b.stop()


class Collector:
    """The one subscriber: every board's events, in arrival order, with their latency and arrival time.

    With ``session`` it is a hall display that must miss nothing across its broker's restart: an
    MQTT 3.1.1 persistent session (``clean_session=False``), which Mosquitto 2.0 writes to disk and
    restores after a restart, so what the broker took from a bridge before the display was back is
    delivered to it. (Mosquitto 2.0.11 does not restore an MQTT 5 session, expiry or not, after a
    restart: ``docs/mqtt.md``, "A hall".) ``rejoin``: seconds before it reconnects once its broker
    is gone (a starved display is late).
    """

    def __init__(self, host: str, port: int, session: bool = False, rejoin: float = 0.1) -> None:
        self.lock = threading.Lock()
        self.seqs: dict[str, list[int]] = {}
        self.arrived: dict[tuple[str, int], float] = {}  # (board, seq): first arrival
        self.latency: dict[str, list[float]] = {"pace": [], "burst": [], "all": []}
        self.count = 0
        if session:
            self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-collector",
                                      protocol=mqtt.MQTTv311, clean_session=False)
        else:
            self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-collector",
                                      protocol=mqtt.MQTTv5)
        self.client.max_inflight_messages_set(100)
        self.client.reconnect_delay_set(rejoin, max(rejoin, 0.5))  # type: ignore[arg-type]  # floats work too
        subscribed = threading.Event()

        def on_connect(c: mqtt.Client, u: object, flags: Any, *_: object) -> None:
            set_nodelay(c)
            if not flags.session_present:  # a kept session still holds the subscription
                c.subscribe("arbitro/+/events", 1)

        self.client.on_connect = on_connect
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect(host, port)
        self.client.loop_start()
        if not subscribed.wait(10):
            raise SystemExit("the collector could not subscribe")

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        body = json.loads(msg.payload)
        board = msg.topic.split("/")[1]
        with self.lock:
            self.seqs.setdefault(board, []).append(body["seq"])
            if self.arrived.setdefault((board, body["seq"]), now) == now:
                self.latency[body["kind"]].append(now - body["t"])
                self.count += 1

    def drain(self, total: int) -> float:
        """Wait until ``total`` distinct events have arrived or none came for ``QUIET`` s; returns when
        the wait began (the traffic's end)."""
        ended = time.monotonic()
        seen, last_new = -1, ended
        while True:
            with self.lock:
                count = self.count
            now = time.monotonic()
            if count >= total or now - last_new > QUIET:
                return ended
            if count != seen:
                seen, last_new = count, now
            time.sleep(0.05)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def bench(host: str, port: int, n: int, seconds: float, pace: float, burst: int, burst_p: float,
          seed: int, *, board_ports: list[int] | None = None, session: bool = False, rejoin: float = 0.1,
          during: Callable[[], None] | None = None) -> dict[str, Any]:
    """One run with ``n`` boards; returns its figures (and whether every board's events were whole).

    The collector subscribes at ``host:port``; the boards publish there too, or to ``board_ports``
    (brokers of their own, bridged to it). ``during`` runs once the traffic has begun (a broker's
    restart); ``session``: the collector keeps its session across it; ``rejoin``: the seconds it
    waits before reconnecting."""
    collector = Collector(host, port, session=session, rejoin=rejoin)
    ctx = mp.get_context("spawn")
    ready, go, result = ctx.Event(), ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=run_boards, args=(host, board_ports or [port], n, seconds, pace, burst, burst_p, seed,
                                                ready, go, result))
    proc.start()
    try:
        if not ready.wait(120):
            raise SystemExit("the boards did not connect")
        started = time.monotonic()
        go.set()
        if during is not None:
            during()
        sent: dict[str, int] = result.get(timeout=seconds + 60)
        ended = collector.drain(sum(sent.values()))
        elapsed = time.monotonic() - started
    finally:
        proc.join(15)
        if proc.is_alive():
            proc.kill()
        collector.close()
    return tally(collector, sent, ended) | {"boards": n, "seconds": elapsed}


def tally(collector: Collector, sent: dict[str, int], ended: float) -> dict[str, Any]:
    """Lost (never arrived), late (first arrived over ``LATE`` s after the traffic ended), duplicates
    (QoS 1 allows them) and order (of first arrivals), board by board."""
    problems = []
    lost = late = 0
    with collector.lock:
        for board, count in sent.items():
            got = collector.seqs.get(board, [])
            first = list(dict.fromkeys(got))
            missing = sorted(set(range(1, count + 1)) - set(first))
            lost += len(missing)
            late += sum(1 for seq in first if collector.arrived[(board, seq)] > ended + LATE)
            disorder = [(a, b) for a, b in itertools.pairwise(first) if b <= a]
            if missing or disorder:
                problems.append(f"{board}: sent {count}, got {len(first)}, missing {missing[:5]}, "
                                f"out of order {len(disorder)} {disorder[:2]}")
        every = [x for values in collector.latency.values() for x in values]
        return {"sent": sum(sent.values()), "received": collector.count, "lost": lost, "late": late,
                "duplicates": sum(len(v) for v in collector.seqs.values()) - collector.count,
                "disordered": sum(1 for p in problems if "missing [], " in p),
                "problems": problems, "samples": len(every),
                "p50_ms": 1000 * percentile(every, 50), "p99_ms": 1000 * percentile(every, 99),
                "max_ms": 1000 * max(every, default=float("nan")),
                **{f"{k}_p50_ms": 1000 * percentile(v, 50) for k, v in collector.latency.items()},
                **{f"{k}_p99_ms": 1000 * percentile(v, 99) for k, v in collector.latency.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mqtt_boards", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", default="10,100", help="comma-separated board counts, one run each (max 100)")
    parser.add_argument("--seconds", type=float, default=12.0, help="traffic per run (all runs: under 60 s in all)")
    parser.add_argument("--pace", type=float, default=2.0, help="mean seconds between a board's moves")
    parser.add_argument("--burst", type=int, default=20, help="moves in a burst")
    parser.add_argument("--burst-p", type=float, default=0.05, help="chance that a board's move is a burst")
    parser.add_argument("--broker", help="HOST:PORT (default: a private Mosquitto)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.boards.split(",")]
    if any(not 1 <= c <= 100 for c in counts):
        parser.error("--boards: 1 to 100 each")
    private = None
    if args.broker:
        host, _, port_text = args.broker.rpartition(":")
        host, port = host or "127.0.0.1", int(port_text)
    else:
        from bench.hall import delivery_lines

        folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-"))
        private = Broker(folder, extra=delivery_lines(folder))  # the shipped broker's queue and in-flight limit
        private.start()
        host, port = "127.0.0.1", private.port
    ok = True
    try:
        print(f"{'boards':>6} {'events':>7} {'recv':>7} {'lost':>5} {'late':>5} {'ev/s':>7} {'p50 ms':>7} "
              f"{'p99 ms':>7} {'max ms':>7}  {'pace p50/p99':>13} {'burst p50/p99':>14} "
              f"{'all-at-once p50/p99':>20}  result")
        for n in counts:
            r = bench(host, port, n, args.seconds, args.pace, args.burst, args.burst_p, args.seed + n)
            ok = ok and not r["problems"] and r["received"] == r["sent"]
            print(f"{r['boards']:>6} {r['sent']:>7} {r['received']:>7} {r['lost']:>5} {r['late']:>5} "
                  f"{r['sent'] / args.seconds:>7.0f} "
                  f"{r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} {r['max_ms']:>7.1f}  "
                  f"{r['pace_p50_ms']:>6.1f}/{r['pace_p99_ms']:<6.1f} "
                  f"{r['burst_p50_ms']:>6.1f}/{r['burst_p99_ms']:<7.1f}"
                  f" {r['all_p50_ms']:>9.1f}/{r['all_p99_ms']:<10.1f}  "
                  + ("every board complete and in order" if not r["problems"] else "; ".join(r["problems"][:3])),
                  flush=True)
    finally:
        if private is not None:
            private.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
