"""Every bench, one table: ``python -m bench [--quick]``.

Runs the benches (``bench.referee``, ``bench.loop``, ``bench.display``, ``bench.startup``,
``bench.games``, ``bench.judge``'s memory pass, ``bench.serial_link``, ``bench.mqtt_boards``,
``bench.remote``) and prints one row per figure: what it is, its target, the figure here, a
percentile's p50 and sample count, a Raspberry Pi Zero 2 W estimate with its source, and
pass/fail against the target here. A percentile pools every run's samples (at least
``MIN_SAMPLES`` of them, or the row says it has fewer). The Pi column scales CPU figures only: an
I/O row gives a floor (its CPU scaled plus a documented I/O time), a row that depends on this
machine's load and the bench's own processes says "not estimated". docs/performance.md explains
each row's clocks. Under fifteen minutes here; ``--quick`` is a smaller run (a few minutes) that
checks the command itself.
"""

from __future__ import annotations

import argparse
import math
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
PI_SOURCE = "x4.3 (CPU only): 7-Zip 1-thread 835 vs ~3,600 MIPS (interpreted code up to x8)"
SAME = "x1: memory does not scale with the CPU"
WIRE_S_PER_LED = 30e-6  # a WS2812's wire: 24 bits of 1.25 us per LED (the WS2812B datasheet)
WIRE_MS = 649 * WIRE_S_PER_LED * 1e3  # Jeocinco's strip
SD_WRITE_MS = 2.0
SD_SOURCE = ("an SD card's write, 2 ms: an A1 card guarantees 500 random 4 KB writes/s (SD Association, "
             "Application Performance Class); the journal's commit is at least one")
MIN_SAMPLES = 200
"""A percentile row pools at least this many samples (a p99 of fewer is its run's maximum)."""
NOT_ESTIMATED = "not estimated"
"""The Pi column of a row that depends on this machine's load and the bench's own processes (its
subscriber, broker, readers, browser): scaling it by the CPU would say nothing of a Pi."""
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
    factor: float = PI_FACTOR  # scales CPU figures only; 0: no Pi figure
    source: str = PI_SOURCE
    pi_note: str = ""  # said in the Pi column instead of a figure ("not estimated")
    floor: float | None = None  # an I/O row (row units): the Pi figure is cpu_part x factor + floor, a lower bound
    cpu_part: float = 0.0
    p50: float | None = None  # a percentile row: its p50 and sample count beside the p99 in "here"
    n: int = 0
    p50_limit: float | None = None  # a target on the p50 instead (issue 39: a move told at once, p50)

    @property
    def verdict(self) -> str:
        if self.p50_limit is not None and self.p50 is not None:
            return "pass" if self.p50 <= self.p50_limit else "FAIL"
        if self.limit is None:
            return "-"
        return "pass" if self.here <= self.limit else "FAIL"

    def cells(self) -> list[str]:
        if self.pi_note:
            pi, source = self.pi_note, "the bench's own load and processes on this machine"
        elif self.factor == 0:
            pi, source = "-", "-"
        elif self.floor is not None:
            pi, source = f">= {self.cpu_part * self.factor + self.floor:.2f} {self.unit}", self.source
        else:
            pi, source = f"{self.here * self.factor:.2f} {self.unit}", self.source
        spread = "-" if self.p50 is None else (f"p50 {self.p50:.2f} {self.unit}, n={self.n}"
                                               + ("" if self.n >= MIN_SAMPLES else f" (< {MIN_SAMPLES}: not a p99)"))
        return [self.figure, self.target, f"{self.here:.2f} {self.unit}", spread, pi, source, self.verdict]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def p50(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def spread(figure: str, target: str, seconds: list[float], limit_ms: float | None, *, source: str = PI_SOURCE,
           pi_note: str = "", floor: float | None = None, cpu_part: float = 0.0,
           p50_limit_ms: float | None = None) -> Row:
    """A latency row from pooled samples (seconds): p99 in "here", p50 and the count beside it;
    judged by the p99 against ``limit_ms``, or by the p50 against ``p50_limit_ms``."""
    return Row(figure, target, p99(seconds) * 1e3, "ms", limit_ms, source=source, pi_note=pi_note,
               floor=floor, cpu_part=cpu_part, p50=p50(seconds) * 1e3, n=len(seconds), p50_limit=p50_limit_ms)


def sampled(game: str, samples: int, broker_port: int, moves: int, hurry: bool = False) -> dict[str, list[float]]:
    """bench.referee's marks of ``game``'s clean moves, seeded runs of ``moves`` pooled until there
    are ``samples`` of them (and at most 24 runs)."""
    from bench.referee import measure

    pooled: dict[str, list[float]] = defaultdict(list)
    for seed in range(1, 25):
        r = measure(game, moves, 25.0, 200.0, broker_port, seed=seed, hurry=hurry)
        for i, clean in enumerate(r["clean"]):
            if clean:
                for key, values in r.items():
                    pooled[key].append(values[i])
        if len(pooled["led"]) >= samples:
            break
    return pooled


def referee_rows(samples: int, moves: int, broker_port: int) -> list[Row]:
    from bench.referee import null_service
    from controller.games import game_names
    from hardware.layout import load_layout

    null: list[float] = []
    while len(null) < samples:
        null += null_service(moves, broker_port)
    rows = [spread("null service: frame -> mosquitto_sub (no referee, the same link, broker, subscriber)",
                   "reference", null, None, pi_note=NOT_ESTIMATED)]
    for game in game_names():
        r = sampled(game, samples, broker_port, moves)
        held = [h for h, final in zip(r["seen"], r["final"], strict=True) if not final]
        wire = load_layout(game).led_count * WIRE_S_PER_LED
        rows.append(spread(f"{game}: clean move, frame -> LED bytes out (lit {wire * 1e3:.1f} ms later: the wire)",
                           "<= 1.2 ms (Pi <= 5 ms)", [v for v in r["led"] if not math.isnan(v)], 1.2,
                           source=f"{PI_SOURCE}; all CPU up to the bytes; then 30 us per LED on the wire "
                                  "(WS2812B datasheet: 24 bits x 1.25 us)"))
        rows.append(spread(f"{game}: clean move, frame -> state at another process (mosquitto_sub) as a display "
                           f"gets it, commit window included ({len(held)} of {len(r['seen'])} moves held "
                           f"{200:.0f} ms: {len(held) / len(r['seen']):.0%})",
                           "for the record", r["seen"], None, pi_note=NOT_ESTIMATED))
        loop = p99([x for x in r["loop_cpu"] if x]) * 1e3
        rows.append(spread(f"{game}: the same, net of the commit window (every move as if told at once), journal on",
                           "p50 <= 3 ms", r["sub"], None, p50_limit_ms=3.0, floor=SD_WRITE_MS, cpu_part=loop,
                           source=f"the loop's CPU p99 ({loop:.2f} ms) x{PI_FACTOR} + {SD_SOURCE}; the broker hop "
                                  "and the subscriber not estimated"))
        if game == "jeocinco":
            gap = [s - led for s, led in zip(r["sub"], r["led"], strict=True) if not math.isnan(led)]
            rows.append(spread("jeocinco: state after its LED frame began (not waiting for the wire)",
                               f"< {WIRE_MS:.1f} ms (the wire)", gap, WIRE_MS, pi_note=NOT_ESTIMATED))
        for key, what in STAGE_ROWS.items():
            values = [v for v in r[key] if not math.isnan(v)]
            if values:
                io = key == "stage:journal"
                rows.append(spread(f"{game}: clean move, {what}", "for the record", values, None,
                                   floor=SD_WRITE_MS if io else None, source=SD_SOURCE if io else PI_SOURCE))
    return rows


def worst_step(r: dict[str, list[float]]) -> str:
    """What the worst step of a :func:`sampled` result spent its CPU on: its largest stage, and
    the garbage collections in it and in every step."""
    worst = max(range(len(r["loop_cpu"])), key=lambda i: r["loop_cpu"][i])
    parts = {key.removeprefix("cpu:"): r[key][worst] for key in r if key.startswith("cpu:")
             and not math.isnan(r[key][worst])}
    largest = max(parts, key=lambda stage: parts[stage])
    collecting = [x for x in r["gc"] if x]
    return (f"the worst step's largest part reaching '{largest}' {parts[largest] * 1e3:.2f} ms, garbage collection "
            f"{r['gc'][worst] * 1e3:.2f} ms; {len(collecting)} steps collected garbage, "
            f"at most {max(collecting, default=0.0) * 1e3:.2f} ms")


def loop_rows(positions: int, samples: int, moves: int, broker_port: int) -> list[Row]:
    from bench.loop import bench_configuration, configurations
    from controller.games import game_names

    worst: dict[str, tuple[float, str]] = {}
    unready: dict[str, tuple[float, str]] = {}
    idle: dict[str, float] = defaultdict(float)
    for game, label, options, players in configurations(game_names()):
        on_board, step, _, cold = bench_configuration(game, options, players, positions, 1)
        if on_board > worst.get(game, (0.0, ""))[0]:
            worst[game] = (on_board, label)
        if cold > unready.get(game, (0.0, ""))[0]:
            unready[game] = (cold, label)
        idle[game] = max(idle[game], step)
    rows = []
    for game in game_names():
        r = sampled(game, samples, broker_port, moves, hurry=True)  # each board right after the last state
        steps = [x for x in r["loop_cpu"] if x]
        hurried = [x for x, u in zip(r["loop_cpu"], r["unready"], strict=True) if x and u]
        rows.append(Row(f"{game}: any board through the loop, the whole step as the loop runs it (judge, LED frame, "
                        f"states, journal, JSON, publish), worst CPU of {len(steps)} clean moves, each right after "
                        f"the last one's state ({len(hurried)} found the table unready: worst "
                        f"{max(hurried, default=0.0) * 1e3:.2f} ms; {worst_step(r)})", "<= 5 ms (Pi <= 22 ms)",
                        max(steps) * 1e3, "ms", 5.0, p50=p50(steps) * 1e3, n=len(steps)))
        seconds, label = worst[game]
        rows.append(Row(f"{game}: the referee's part of any board, table built, worst CPU of every configuration "
                        f"(at {label})", "<= 5 ms", seconds * 1e3, "ms", 5.0))
        seconds, label = unready[game]
        rows.append(Row(f"{game}: the referee's part of any board, table not yet built (right after a move), worst "
                        f"CPU of every configuration (at {label})", "<= 5 ms", seconds * 1e3, "ms", 5.0))
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
                  None, pi_note=NOT_ESTIMATED) for step, what in (
        ("publish->recv", "publish -> paho's thread in the display has it (the bench's publisher and the broker)"),
        ("recv->taken", "-> the display's event loop takes it"),
        ("taken->flush", "-> its tick begins (the tick: 20 ms at most)"),
        ("flush->written", "-> the line made and written to every stream (the display's work done)"),
        ("written->read", "-> a stream's reader read it (the kernel and the bench's readers)"))]
    stages += [
        Row(f"display: its event loop's lag, p99, {where} (a null process's on the same machine: "
            f"{at['null process lag p99']:.1f} ms; both sleep 10 ms at a time)", "for the record", at["loop lag p99"],
            "ms", None, pi_note=NOT_ESTIMATED),
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
            big["sse_p99"], "ms", 50.0, pi_note=NOT_ESTIMATED),
        Row("display: publish -> line made by the display, p99, 100 boards x 200 viewers (the rest is writing and "
            "reading it)", "for the record", big["made_p99"], "ms", None, pi_note=NOT_ESTIMATED),
        *stages,
        Row(f"display: its CPU over {seconds:.0f} s of traffic, 100 boards x 200 viewers (the readers': "
            f"{big['readers_cpu_s']:.1f} s)", "for the record", big["cpu_s"], "s", None),
        Row("display: its CPU per publish, 100 boards x 200 viewers (a line made once and written to every stream; the "
            f"display used {big['cpu_s'] / seconds:.0%} of a core, the readers {big['readers_cpu_s'] / seconds:.0%})",
            "for the record", big["cpu_s"] / max(1, big["messages"]) * 1e3, "ms", None),
        Row("display: (publish, stream) pairs never read, 100 boards x 200 viewers", "0", big["sse_missed"], "",
            0.0, 1.0, "x1: a count"),
        Row("display: publish -> hall page drawn (Chromium), p99, 100 boards", "for the record", big["p99"], "ms",
            None, pi_note=NOT_ESTIMATED),
    ]


def service_rows(runs: int, broker_port: int) -> list[Row]:
    from bench.startup import in_play_rss, installed_env, start_once
    from controller.games import game_names

    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-start-"))
    env = installed_env(folder)
    rows = []
    for game in game_names():
        started = [start_once(game, broker_port, folder, env) for _ in range(runs)]
        cpu = statistics.median(r[3] for r in started)
        rows.append(Row(f"{game}: service start -> retained online, median (wall)", "<= 0.3 s",
                        statistics.median(r[0] for r in started), "s", 0.3, floor=0.0, cpu_part=cpu,
                        source=f"its CPU ({cpu:.2f} s) x{PI_FACTOR}: the rest of the wall time here waits on this "
                               "machine's load, the broker and process start"))
        rows.append(Row(f"{game}: service start -> retained online, its CPU (every thread), median", "for the record",
                        cpu, "s", None))
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
    rows.append(spread("serial link: CHANGED frame -> SensorChanged (a pty here, a UART on the Pi)", "for the record",
                       latency, None, pi_note=NOT_ESTIMATED))
    r = mqtt_boards("127.0.0.1", broker_port, 100, 5.0 if quick else 12.0, 2.0, 20, 0.05, 1)
    rows.append(Row("100 boards on one broker: events lost (never arrived)", "0", r["lost"], "", 0.0, 1.0,
                    "x1: a count"))
    rows.append(Row("100 boards on one broker: events late (arrived > 10 s after the traffic ended)",
                    "for the record", r["late"], "", None, 1.0, "x1: a count"))
    rows.append(Row("100 boards on one broker: event -> subscriber (every process here)", "for the record",
                    r["p99_ms"], "ms", None, pi_note=NOT_ESTIMATED, p50=r["p50_ms"], n=r["samples"]))
    crossed = remote_bench.measure(10 if quick else MIN_SAMPLES, Path(tempfile.mkdtemp(prefix="arbitro-remote-")))
    rows.append(spread("remote game: move accepted on A -> carry-out LEDs on B through the bridge", "for the record",
                       crossed, None, pi_note=NOT_ESTIMATED))
    return rows


def table(rows: list[Row]) -> str:
    head = ["figure", "target here", "here (p99 where a percentile)", "p50, samples", "Pi Zero 2 W estimate",
            "its source", "result"]
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
    from bench.hall import delivery_lines

    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-"))
    broker = Broker(folder, extra=delivery_lines(folder)).start()  # queued and delivered as the shipped broker
    rows: list[Row] = []
    steps: list[tuple[str, Callable[[], list[Row]]]] = [
        ("referee", lambda: referee_rows(20 if args.quick else MIN_SAMPLES, 10 if args.quick else 60, broker.port)),
        ("loop", lambda: loop_rows(1 if args.quick else 3, 20 if args.quick else MIN_SAMPLES,
                                   10 if args.quick else 60, broker.port)),
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
