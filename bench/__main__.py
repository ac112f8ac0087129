"""Every bench, one table: ``python -m bench [--quick]``.

Runs the benches (``bench.referee``, ``bench.loop``, ``bench.display``, ``bench.startup``,
``bench.games``, ``bench.judge``'s memory pass, ``bench.serial_link``, ``bench.mqtt_boards``,
``bench.remote``) and
prints one row per figure: what it is, its target, the figure here, a Raspberry Pi Zero 2 W
estimate (the figure times the factor, with the factor's source) and pass/fail against the target
here. Latency figures are the median of three runs' p99s, beside a null service measured in the same
run (the same pty, host link, broker and ``mosquitto_sub``, no referee). Under ten minutes here;
``--quick`` is a smaller run (a minute or two) that checks the command itself.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PI_FACTOR = 4.3
PI_SOURCE = "x4.3: 7-Zip 1-thread 835 vs ~3,600 MIPS (interpreted code up to x8)"
SAME = "x1: memory does not scale with the CPU"
WIRE_MS = 649 * 0.03  # Jeocinco's strip on a WS2812's wire: 30 us per LED
STAGE_ROWS = {
    "cpu:judged": "the loop's CPU judging it (of frame -> LED bytes)",
    "cpu:states": "the loop's CPU working out its public and private states",
    "stage:journal": "the journal's commit, fsync included (wall)",
    "loop_cpu": "the loop's CPU from the frame taken to the state queued",
}
"""A clean move's stages in the table (``bench.referee --stages`` prints them all): the causes of the
two latency figures."""


@dataclass
class Row:
    figure: str
    target: str
    here: float
    unit: str
    limit: float | None  # the target here (upper bound), None: no target, for the record
    factor: float = PI_FACTOR
    source: str = PI_SOURCE

    @property
    def verdict(self) -> str:
        if self.limit is None:
            return "-"
        return "pass" if self.here <= self.limit else "FAIL"

    def cells(self) -> list[str]:
        pi = "-" if self.factor == 0 else f"{self.here * self.factor:.2f} {self.unit}"
        return [self.figure, self.target, f"{self.here:.2f} {self.unit}", pi, self.source if self.factor else "-",
                self.verdict]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def median_of_runs(runs: list[list[float]]) -> float:
    return statistics.median(p99(r) for r in runs if r)


def referee_rows(runs: int, moves: int, broker_port: int) -> list[Row]:
    from bench.referee import clean_values, measure, null_service
    from controller.games import game_names

    rows = []
    null = [null_service(moves, broker_port) for _ in range(runs)]
    null_ms = median_of_runs(null) * 1e3
    rows.append(Row("null service: frame -> mosquitto_sub, p99", "reference", null_ms, "ms", None))
    for game in game_names():
        led: list[list[float]] = []
        sub: list[list[float]] = []
        wire_gap: list[list[float]] = []
        stages: dict[str, list[list[float]]] = defaultdict(list)  # bench.stages: where the time goes
        for seed in range(1, runs + 1):
            r = measure(game, moves, 25.0, 200.0, broker_port, seed=seed)
            clean = [i for i, c in enumerate(r["clean"]) if c]
            led.append([r["led"][i] for i in clean])
            sub.append([r["sub"][i] for i in clean])
            wire_gap.append([r["sub"][i] - r["led"][i] for i in clean])
            for key in STAGE_ROWS:
                stages[key].append(clean_values(r, key))
        n = sum(len(x) for x in led)
        rows.append(Row(f"{game}: clean move, frame -> LED bytes out, p99 ({n} moves)", "<= 1.2 ms (Pi <= 5 ms)",
                        median_of_runs(led) * 1e3, "ms", 1.2))
        sub_ms = median_of_runs(sub) * 1e3
        rows.append(Row(f"{game}: clean move, frame -> state at mosquitto_sub, journal on, p99 "
                        f"({sub_ms / null_ms:.1f}x null)", "<= 3 ms", sub_ms, "ms", 3.0))
        if game == "jeocinco":
            rows.append(Row("jeocinco: state after its LED frame began, p99 (not waiting for the wire)",
                            f"< {WIRE_MS:.1f} ms (the wire)", median_of_runs(wire_gap) * 1e3, "ms", WIRE_MS, 1.0,
                            "x1: the wire takes as long on a Pi"))
        for key, what in STAGE_ROWS.items():
            rows.append(Row(f"{game}: clean move, {what}, p99", "for the record", median_of_runs(stages[key]) * 1e3,
                            "ms", None))
    return rows


def loop_rows(positions: int) -> list[Row]:
    from bench.loop import bench_configuration, configurations
    from controller.games import game_names

    worst: dict[str, tuple[float, str]] = {}
    idle: dict[str, float] = defaultdict(float)
    for game, label, options, players in configurations(game_names()):
        on_board, step, _ = bench_configuration(game, options, players, positions, 1)
        if on_board > worst.get(game, (0.0, ""))[0]:
            worst[game] = (on_board, label)
        idle[game] = max(idle[game], step)
    rows = []
    for game, (seconds, label) in worst.items():
        rows.append(Row(f"{game}: any board through the loop, next table's first step included, worst CPU "
                        f"(at {label})", "<= 5 ms (Pi <= 22 ms)", seconds * 1e3, "ms", 5.0))
        rows.append(Row(f"{game}: one idle step of the next move table, worst CPU", "<= 5 ms", idle[game] * 1e3,
                        "ms", 5.0))
    return rows


def display_rows(quick: bool) -> list[Row]:
    from bench.display import run

    seconds = 5.0 if quick else 15.0
    big = run(100, seconds, 1.0, 1, viewers=200, stages=True)
    small = run(20, seconds, 1.0, 1, viewers=50)
    at = big["stages"]
    where = "100 boards x 200 viewers"
    stages = [Row(f"display: where a line's time goes, p99, {where}: {what}", "for the record", at[f"{step} p99"], "ms",
                  None) for step, what in (
        ("publish->recv", "publish -> paho's thread in the display has it (the bench's publisher and the broker)"),
        ("recv->taken", "-> the display's event loop takes it"),
        ("taken->flush", "-> its tick begins (the tick: 20 ms at most)"),
        ("flush->written", "-> the line made and written to every stream (the display's work done)"),
        ("written->read", "-> a stream's reader read it (the kernel and the bench's readers)"))]
    stages += [
        Row(f"display: its event loop's lag, p99, {where} (a null process's on the same machine: "
            f"{at['null process lag p99']:.1f} ms; both sleep 10 ms at a time)", "for the record", at["loop lag p99"],
            "ms", None),
        Row(f"display: its loop's CPU per tick, p99 (p50 {at['tick CPU p50']:.2f} ms; {at['ticks']:.0f} ticks), "
            f"{where}", "for the record", at["tick CPU p99"], "ms", None),
        Row(f"display: its loop's CPU per thumbnail drawn for a browser, mean ({at['thumbs']:.0f} drawn), {where}",
            "for the record", at["thumb CPU s"] / max(1, at["thumbs"]) * 1e3, "ms", None),
        Row(f"display: Chromium's CPU over the traffic, {where} (the display's {big['cpu_s']:.1f} s, the readers' "
            f"{big['readers_cpu_s']:.1f} s; not on a Pi)", "for the record", big["browser_cpu_s"], "s", None, 0.0),
    ]
    return [
        Row("display: RSS, 100 boards, 200 hall viewers", "<= 80 MB", big["peak_rss_mb"], "MB", 80.0, 1.0, SAME),
        Row("display: RSS, 20 boards, 50 hall viewers", "<= 60 MB", small["peak_rss_mb"], "MB", 60.0, 1.0, SAME),
        Row("display: publish -> SSE event at a viewer, p99, 100 boards x 200 viewers", "<= 50 ms",
            big["sse_p99"], "ms", 50.0),
        Row("display: publish -> line made by the display, p99, 100 boards x 200 viewers (the rest is writing and "
            "reading it)", "for the record", big["made_p99"], "ms", None),
        *stages,
        Row(f"display: its CPU over {seconds:.0f} s of traffic, 100 boards x 200 viewers (the readers': "
            f"{big['readers_cpu_s']:.1f} s)", "for the record", big["cpu_s"], "s", None),
        Row("display: its CPU per publish, 100 boards x 200 viewers (a line made once and written to every stream; the "
            f"display used {big['cpu_s'] / seconds:.0%} of a core, the readers {big['readers_cpu_s'] / seconds:.0%})",
            "for the record", big["cpu_s"] / max(1, big["messages"]) * 1e3, "ms", None),
        Row("display: (publish, stream) pairs never read, 100 boards x 200 viewers", "0", big["sse_missed"], "",
            0.0, 1.0, "x1: a count"),
        Row("display: publish -> hall page drawn (Chromium), p99, 100 boards", "for the record", big["p99"], "ms",
            None),
    ]


def service_rows(runs: int, broker_port: int) -> list[Row]:
    from bench.startup import in_play_rss, installed_env, start_once
    from controller.games import game_names

    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-start-"))
    env = installed_env(folder)
    rows = []
    for game in game_names():
        started = [start_once(game, broker_port, folder, env) for _ in range(runs)]
        rows.append(Row(f"{game}: service start -> retained online, median", "<= 0.3 s",
                        statistics.median(r[0] for r in started), "s", 0.3))
        rows.append(Row(f"{game}: service start -> retained online, its CPU (every thread), median", "for the record",
                        statistics.median(r[3] for r in started), "s", None))
        rows.append(Row(f"{game}: service RSS, idle", "<= 45 MB", max(r[2] for r in started), "MB", 45.0, 1.0, SAME))
        rows.append(Row(f"{game}: service RSS in play (the demo's process: service, bots, board)", "<= 45 MB",
                        in_play_rss(game, broker_port, env, 4.0 if runs < 3 else 8.0), "MB", 45.0, 1.0, SAME))
    return rows


def other_rows(quick: bool, broker_port: int) -> list[Row]:
    from bench import games as games_bench
    from bench import judge, serial_link
    from bench import remote as remote_bench
    from bench.mqtt_boards import bench as mqtt_boards
    from controller.games import game_names, get_game

    rows = []
    for name in game_names():
        game = get_game(name)
        options, players = game.configurations()[0]
        r = games_bench.bench_configuration(game, options, players, 5 if quick else 20, 0.5)
        rows.append(Row(f"{name}: legal actions, p99 (default configuration)", "for the record",
                        r["legal_p99_us"] / 1e3, "ms", None))
    peak, _, _ = judge.long_game(100 if quick else 600, 1, trace=True)
    rows.append(Row("referee cache over a contigo capture game, traced peak", "for the record", peak, "MB", None,
                    1.0, SAME))
    latency = serial_link.link_latency(200 if quick else 1000)
    rows.append(Row("serial link: CHANGED frame -> SensorChanged, p99", "for the record", p99(latency) * 1e3, "ms",
                    None))
    r = mqtt_boards("127.0.0.1", broker_port, 100, 5.0 if quick else 12.0, 2.0, 20, 0.05, 1)
    rows.append(Row(f"100 boards on one broker: event -> subscriber, p99 ({len(r['problems'])} boards lost any)",
                    "for the record", r["p99_ms"], "ms", None))
    crossed = remote_bench.measure(10 if quick else 40, Path(tempfile.mkdtemp(prefix="arbitro-remote-")))
    rows.append(Row("remote game: move accepted on A -> carry-out LEDs on B through the bridge, p50", "for the record",
                    statistics.median(crossed) * 1e3, "ms", None))
    rows.append(Row("remote game: move accepted on A -> carry-out LEDs on B through the bridge, p99", "for the record",
                    p99(crossed) * 1e3, "ms", None))
    return rows


def table(rows: list[Row]) -> str:
    head = ["figure", "target here", "here", "Pi Zero 2 W estimate", "factor", "result"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join(lines)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load} at the end"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smaller run that checks the command")
    args = parser.parse_args(argv)
    from controller.localbroker import Broker

    t0 = time.monotonic()
    broker = Broker(Path(tempfile.mkdtemp(prefix="arbitro-bench-"))).start()
    rows: list[Row] = []
    steps: list[tuple[str, Callable[[], list[Row]]]] = [
        ("referee", lambda: referee_rows(3, 10 if args.quick else 40, broker.port)),
        ("loop", lambda: loop_rows(1 if args.quick else 3)),
        ("display", lambda: display_rows(args.quick)),
        ("service", lambda: service_rows(1 if args.quick else 3, broker.port)),
        ("others", lambda: other_rows(args.quick, broker.port)),
    ]
    try:
        for name, step in steps:
            print(f"running {name}...", file=sys.stderr, flush=True)
            try:
                rows += step()
            except Exception as exc:  # one bench that cannot run is a failed row, the others still count
                rows.append(Row(f"{name}: could not run ({type(exc).__name__}: {exc})", "runs", 1.0, "", 0.0, 0.0))
    finally:
        broker.stop()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}; "
          f"{time.monotonic() - t0:.0f} s. Clean moves: the board is exactly one legal move; a held one "
          "(others could still follow) is told after sensors.commit_ms (200 ms), deliberately: that wait is "
          "taken off its state figure, never off its LED figure.")
    print(table(rows))
    return 0 if all(r.verdict != "FAIL" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
