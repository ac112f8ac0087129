"""The display under load: ``python -m bench.display [--boards 20] [--viewers 0] [--seconds 15] [--pace 1.0]``.

A private Mosquitto, ``arbitro display`` in a child process (as in production), and Debian's
headless Chromium with the hall page open. N boards (the four games in turn) publish real public
states, each board one move every ``--pace`` seconds (jittered), from prepared random games. For
every message the benchmark records when it was published; the hall page records when it drew
each board's state (its ``arbitro:update`` event, after the thumbnail is in the page). Latency =
drawn - published, on the machine's one wall clock; a state the page skipped (coalesced into a
newer one) counts until the newer one was drawn. At the end: the display server's RSS (current
and peak) from ``/proc``. ``--viewers N`` opens N more hall streams, plain sockets that read
every event as a phone's page would, in two processes of their own (not the display's, nor the
publishers'), which read on at the end until each stream has every board's last state or 10 s
passed: ``sse`` p50/p99 is over every stream and every publish, publish -> that stream read
the board's line (or a newer one); ``made p99``, publish -> the display made the line read (the
line's own ``now``: the rest is writing and reading it); ``missed``, the (publish, stream) pairs
never read. ``CPU s``: the display's CPU time over the measured traffic (it does not grow with the
machine's load, as latencies do), and the streams' readers' in all, and Chromium's.
``--stages``: the display stamped at each stage of a line (``bench.display_stages``), the steps
printed with its loop's lag beside a null process's; ``--browser-nice N``: Chromium made N nicer.
Exit status 1 when p99 > 100 ms, the peak RSS > 60 MB, or a state was not drawn or not read.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import json
import multiprocessing
import os
import random
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from bench.display_stages import LAG_PERIOD
from controller.gameclock import GameClock
from controller.games import CHANCE, game_names, get_game
from controller.games.chance import SCHEME
from controller.games.record import Match, Record
from controller.localbroker import Broker
from controller.session import told

CHROMIUM = "/usr/bin/chromium"
P99_LIMIT_MS = 100.0
RSS_LIMIT_MB = 60.0


def public_states(game: str, board: str, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` state messages of one random game, as the service publishes them (public fields only)."""
    g = get_game(game)
    rng = random.Random(seed)
    states: list[dict[str, Any]] = []
    while len(states) < count:
        match = Match(Record.seeded(game, g.options({}), g.players(None), rng.randrange(2**31)))
        clock = GameClock.start(time.time(), match.state.num_players)
        while len(states) < count and not match.state.is_terminal():
            s = match.state
            if s.current_player == CHANCE:
                match.resolve_chance()
            else:
                match.apply(rng.choice(s.legal_actions()))
            s = match.state
            turn = s.current_player if s.current_player >= 0 else None
            now = time.time()
            clock.observe(turn, s.is_terminal(), now)
            states.append({
                "schema": 1, "seq": len(states) + 1, "board": board, "game": game, "title": g.title,
                "options": match.record.options, "num_players": s.num_players,
                "players": [{**p, "seat": "table"} for p in s.player_info()],
                "turn": turn, "phase": s.phase, "moves": len(match.record.actions),
                "last_action": match.public_log[-1], "board_view": (view := s.public_view()),
                "notes": [told(note) for note in g.notes(view)], "scores": list(s.scores()),
                "over": s.is_terminal(), "winners": s.winners() if s.is_terminal() else [], "resigned": None,
                "pending_chance": None, "fair": fair(match), "targets": [], "verdict": "applied", "violation": None,
                "setup": None, "ambiguous": 0, "sensors": "up", "health": {"status": "ok"}, "time": round(now, 3),
                "clock": clock.to_json(now),
            })
    return states


def fair(match: Match) -> dict[str, Any]:
    """The state's ``fair``: the commitment, and the secret once the game is over (as ``Session.fairness``)."""
    key = match.record.keys[-1]
    secret = key.secret.hex() if match.state.is_terminal() and key.secret is not None else None
    return {"scheme": SCHEME, "commitment": key.commitment, "secret": secret}


def start_display(port: int, pages: int = 200, stamps: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``arbitro display`` in a child process; with ``stamps``, the same display stamping each stage
    of a line (``bench.display_stages``) into that file as it stops."""
    command = ["controller.cli", "display"] if stamps is None else ["bench.display_stages", str(stamps)]
    proc = subprocess.Popen([sys.executable, "-m", *command, "--broker", f"127.0.0.1:{port}",
                             "--listen", "127.0.0.1:0", "--max-pages", str(pages)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("arbitro display: "):
        proc.kill()
        raise RuntimeError(f"the display did not start: {line!r}")
    return proc, line.split()[2]


class Viewers:
    """``n`` hall streams read in processes of their own, two (one a core here), so that neither their
    reading nor this process's publishing is charged to the other: every line of every stream is
    timed on arrival."""

    READERS = 2

    def __init__(self, url: str, n: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.readers: list[tuple[Connection, multiprocessing.process.BaseProcess]] = []
        for r in range(self.READERS):
            control, child = context.Pipe()
            process = context.Process(target=read_streams, args=(url, range(r, n, self.READERS), child), daemon=True)
            process.start()
            self.readers.append((control, process))
        for control, _ in self.readers:
            if not control.poll(30) or control.recv() != "connected":
                raise RuntimeError("the hall streams did not connect")

    def close(self, last: dict[str, int]) -> tuple[list[Arrival], float]:
        """Every line read, once every stream read each board's ``last`` seq (or 10 s passed), and
        the CPU seconds the readers took (near a core each: they, not the display, were the limit)."""
        for control, _ in self.readers:
            control.send(last)
        arrived: list[Arrival] = []
        cpu = 0.0
        for control, process in self.readers:
            if control.poll(30):
                lines, seconds = control.recv()
                arrived.extend(lines)
                cpu += seconds
            process.join(10)
        return arrived, cpu


LINE = re.compile(rb'event: board\ndata: \{"board": "([^"]+)".*?"seq": (\d+).*?"now": ([0-9.]+)')
Arrival = tuple[int, str, int, float, float]
"""A line read: its stream, board and seq, when it was read, and when the display made it (its ``now``)."""


def read_streams(url: str, viewers: range, control: Connection) -> None:
    """A readers' process: its streams read by one selector until each has read every board's last
    seq (sent at the end) or 10 s passed since."""
    host, port = url.split("//", 1)[1].rstrip("/").split(":")
    selector = selectors.DefaultSelector()
    for i in viewers:
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /api/hall/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, [i, b""])
    control.send("connected")
    arrived: list[Arrival] = []
    seen: dict[int, dict[str, int]] = {i: {} for i in viewers}
    last: dict[str, int] | None = None
    deadline = float("inf")
    while time.monotonic() < deadline:
        if last is None and control.poll():
            last, deadline = control.recv(), time.monotonic() + 10
        if last is not None and all(all(s.get(b, 0) >= q for b, q in last.items()) for s in seen.values()):
            break
        for key, _ in selector.select(0.2):
            viewer, rest = key.data
            try:
                data = key.fileobj.recv(1 << 16)  # type: ignore[union-attr]
            except BlockingIOError:
                continue
            now = time.time()
            complete, _, key.data[1] = (rest + data).rpartition(b"\n\n")
            for board, seq, made in LINE.findall(complete):
                arrived.append((viewer, name := board.decode(), number := int(seq), now, float(made)))
                seen[viewer][name] = number
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    control.send((arrived, time.process_time()))


def null_lag(control: Connection) -> None:
    """A process that does nothing but sleep 10 ms at a time (``bench.display_stages.LAG_PERIOD``),
    until told to stop: how late it wakes is what any process waited for a core meanwhile, the
    baseline of the display loop's own lag."""
    lags = []
    control.send("ready")
    while not control.poll():
        due = time.monotonic() + LAG_PERIOD
        time.sleep(LAG_PERIOD)
        lags.append(time.monotonic() - due)
    control.send(lags)


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of ``pid`` in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far (user and system), in seconds: unlike a latency, it does not
    grow with what else the machine runs."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_pids() -> list[int]:
    """This process's Chromium: its processes, found under this one."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            head, rest = stat.read_text().rsplit(")", 1)
            pid = int(stat.parent.name)
            names[pid], parents[pid] = head.split("(", 1)[1], int(rest.split()[1])
    ours = {os.getpid()}
    for pid in sorted(parents):  # a child has a higher pid than its parent, but for pid wrap-around
        if parents[pid] in ours:
            ours.add(pid)
    return [pid for pid in ours if names.get(pid, "").startswith("chrom")]


def browser_cpu() -> float:
    """CPU seconds used so far by this process's Chromium (the processes that are still there)."""
    total = 0.0
    for pid in browser_pids():
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _latencies(published: list[tuple[tuple[str, int], float]], seen: list[tuple[str, int, float]]) -> list[float]:
    """For each publish, ms until a page had that state or a newer one of its board (skipped: coalesced)."""
    shown: dict[str, list[tuple[int, float]]] = {}
    for board, seq, t in seen:
        shown.setdefault(board, []).append((seq, t))
    out = []
    for (board, seq), t_pub in published:
        t_seen = min((t for s, t in shown.get(board, []) if s >= seq and t >= t_pub), default=None)
        if t_seen is not None:
            out.append((t_seen - t_pub) * 1000)
    return out


def stream_latencies(published: list[tuple[tuple[str, int], float]],
                     arrived: list[Arrival]) -> tuple[list[float], list[float], int]:
    """For each publish and each stream, ms until that stream read the state or a newer one of its
    board (a stream coalesces a state it had no time for), and of that until the display made the
    line it read; and how many (publish, stream) never read it."""
    lines: dict[tuple[int, str], list[tuple[int, float, float]]] = {}
    for viewer, board, seq, t, made in arrived:  # each stream's lines of a board, in the order read
        lines.setdefault((viewer, board), []).append((seq, t, made))
    viewers = {arrival[0] for arrival in arrived}
    out, made_by, missed = [], [], 0
    for (board, seq), t_pub in published:
        for viewer in viewers:
            read = lines.get((viewer, board), [])
            i = bisect.bisect_left(read, seq, key=lambda line: line[0])  # a stream reads them in publishing order
            if i < len(read):
                out.append((read[i][1] - t_pub) * 1000)
                made_by.append((read[i][2] - t_pub) * 1000)
            else:
                missed += 1
    return out, made_by, missed


STAGES = ("recv", "taken", "flush", "written")
"""The display's stages of a line (``bench.display_stages``), after the publish and before a stream reads it."""


def stage_figures(measured: list[tuple[tuple[str, int], float]], arrived: list[Arrival],
                  stamps: dict[str, Any], null: list[float]) -> dict[str, float]:
    """p50/p99 ms of each step, publish -> ``recv`` -> ... -> ``written`` -> read by a stream, over
    the measured publishes that reached each stage (a state coalesced into a newer one before its
    line was made has no ``flush``/``written``); the event loop's lag, and a null process's (``null``,
    seconds) beside it; the streams each tick found busy; the loop's CPU per tick and per thumbnail drawn."""
    at = stamps["at"]
    out: dict[str, float] = {}
    keys = [(f"{board}/{seq}", t) for (board, seq), t in measured]
    previous = "publish"
    for stage in STAGES:
        steps = [(at[stage][k] - (t if previous == "publish" else at[previous][k])) * 1000
                 for k, t in keys if k in at[stage] and (previous == "publish" or k in at[previous])]
        out[f"{previous}->{stage} p50"] = percentile(steps, 0.5)
        out[f"{previous}->{stage} p99"] = percentile(steps, 0.99)
        previous = stage
    wanted = {k for k, _ in keys}
    reads = [(t - at["written"][k]) * 1000 for _viewer, board, seq, t, _made in arrived
             if (k := f"{board}/{seq}") in wanted and k in at["written"]]
    out["written->read p50"], out["written->read p99"] = percentile(reads, 0.5), percentile(reads, 0.99)
    for name, seconds in (("loop lag", stamps["lags"]), ("null process lag", null)):
        lags = [lag * 1000 for lag in seconds]
        out[f"{name} p50"], out[f"{name} p99"] = percentile(lags, 0.5), percentile(lags, 0.99)
    busy = [b for _lines, b, _cpu in stamps["ticks"]]
    out["busy streams p50"], out["busy streams max"] = percentile(busy, 0.5), max(busy, default=float("nan"))
    out["tick writing CPU p50"] = percentile([cpu * 1000 for *_, cpu in stamps["ticks"]], 0.5)
    out["tick writing CPU p99"] = percentile([cpu * 1000 for *_, cpu in stamps["ticks"]], 0.99)
    out["tick CPU p50"] = percentile([cpu * 1000 for cpu in stamps["flushes"]], 0.5)
    out["tick CPU p99"] = percentile([cpu * 1000 for cpu in stamps["flushes"]], 0.99)
    out["ticks"] = len(stamps["flushes"])
    out["thumbs"], out["thumb CPU s"] = len(stamps["thumbs"]), sum(stamps["thumbs"])
    return out


def run(boards: int, seconds: float, pace: float, seed: int, viewers: int = 0, stages: bool = False,
        browser_nice: int = 0) -> dict[str, Any]:
    """``browser_nice``: Chromium's processes made that much nicer once the page is drawn, so that
    the hall page (a phone's, elsewhere in a hall) yields this machine's cores to the display and
    the streams' readers."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    games = game_names()
    per_board = int(seconds / pace) + 3
    names = [f"bench{i:02d}" for i in range(boards)]
    prepared = {b: public_states(games[i % len(games)], b, per_board, seed + i) for i, b in enumerate(names)}
    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-display-"))
    broker = Broker(folder).start()
    stamps = folder / "stamps.json" if stages else None
    display, url = start_display(broker.port, max(200, viewers + 1), stamps)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-display-boards")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    published: dict[tuple[str, int], float] = {}
    streams: Viewers | None = None
    arrived: list[Arrival] = []
    last: dict[str, int] = {}  # each board's last seq, once published
    readers_cpu = 0.0
    null: list[float] = []  # a null process's timer lags (``stages``)
    try:
        streams = Viewers(url, viewers) if viewers else None  # inside: a failure still stops the display
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(url)
            page.evaluate("""() => { window.drawn = [];
                document.addEventListener('arbitro:update', e => window.drawn.push(
                    [e.detail.board, e.detail.seq, Date.now()])); }""")
            sent = dict.fromkeys(names, 0)

            def publish(board: str) -> None:
                state = prepared[board][sent[board]]
                sent[board] += 1
                payload = json.dumps(state)
                published[(board, state["seq"])] = time.time()  # the clock starts as it leaves for the broker
                client.publish(f"arbitro/{board}/state", payload, qos=1, retain=True)

            for b in names:  # every board on the hall page first
                publish(b)
            page.wait_for_function(f"document.querySelectorAll('.card').length === {boards}", timeout=30_000)
            measured_from = len(published)
            for pid in browser_pids() if browser_nice else ():
                with contextlib.suppress(OSError):  # a process of it that ended meanwhile
                    os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, pid) + browser_nice)
            cpu_from, browser_from = cpu_seconds(display.pid), browser_cpu()
            if stages:
                lag_control, child = multiprocessing.get_context("spawn").Pipe()
                prober = multiprocessing.get_context("spawn").Process(target=null_lag, args=(child,), daemon=True)
                prober.start()
                if not lag_control.poll(30) or lag_control.recv() != "ready":
                    raise RuntimeError("the null process did not start")
            rng = random.Random(seed)
            due = sorted((time.monotonic() + rng.uniform(0, pace), b) for b in names)
            end = time.monotonic() + seconds
            while due[0][0] < end:
                at, b = due.pop(0)
                time.sleep(max(0.0, at - time.monotonic()))
                if sent[b] < per_board:
                    publish(b)
                due.append((at + pace * rng.uniform(0.7, 1.3), b))
                due.sort()
            if stages:
                lag_control.send("stop")
                null = lag_control.recv() if lag_control.poll(30) else []
                prober.join(10)
            last = {b: prepared[b][sent[b] - 1]["seq"] for b in names}
            with contextlib.suppress(PlaywrightTimeout):  # what was not drawn by then counts as not drawn
                page.wait_for_function(
                    "last => Object.entries(last).every(([b, s]) => window.drawn.some(d => d[0] === b && d[1] >= s))",
                    arg=last, timeout=10_000)
            drawn = page.evaluate("window.drawn")
            browser_s = browser_cpu() - browser_from
            browser.close()
        rss, peak = rss_mb(display.pid)
        cpu = cpu_seconds(display.pid) - cpu_from
    finally:
        if streams is not None:
            arrived, readers_cpu = streams.close(last)
        client.loop_stop()
        client.disconnect()
        display.terminate()
        display.wait(10)
        broker.stop()

    measured = list(published.items())[measured_from:]
    latencies = _latencies(measured, [(board, seq, t / 1000) for board, seq, t in drawn])
    sse, made, sse_missed = stream_latencies(measured, arrived)
    count = len(published) - measured_from
    figures = stage_figures(measured, arrived, json.loads(stamps.read_text()), null) if stamps is not None else {}
    return {"stages": figures, "boards": boards, "viewers": viewers, "messages": count, "drawn": len(latencies),
            "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
            "max": max(latencies, default=float("nan")), "sse_p50": percentile(sse, 0.5),
            "sse_p99": percentile(sse, 0.99), "made_p99": percentile(made, 0.99), "sse_missed": sse_missed,
            "rss_mb": rss, "peak_rss_mb": peak, "cpu_s": cpu, "readers_cpu_s": readers_cpu, "browser_cpu_s": browser_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.display", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=0, help="hall streams besides the Chromium page")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of traffic")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between two moves of one board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stages", action="store_true",
                        help="where a line's time goes in the display, stage by stage (bench.display_stages)")
    parser.add_argument("--browser-nice", type=int, default=0,
                        help="make Chromium this much nicer (it stands for a phone: its CPU is not the display's)")
    args = parser.parse_args(argv)
    r = run(args.boards, args.seconds, args.pace, args.seed, args.viewers, args.stages, args.browser_nice)
    ok = (r["p99"] <= P99_LIMIT_MS and r["peak_rss_mb"] <= RSS_LIMIT_MB and r["drawn"] == r["messages"]
          and not r["sse_missed"])
    print("boards  viewers  messages  drawn  p50 ms  p99 ms  max ms  sse p50/p99 ms  (made p99)  missed  RSS MB  "
          "peak RSS MB  CPU s (readers, Chromium)  result")
    print(f"{r['boards']:6}  {r['viewers']:7}  {r['messages']:8}  {r['drawn']:5}  {r['p50']:6.1f}  {r['p99']:6.1f}"
          f"  {r['max']:6.1f}  {r['sse_p50']:6.1f}/{r['sse_p99']:6.1f}  ({r['made_p99']:8.1f})  {r['sse_missed']:6}"
          f"  {r['rss_mb']:6.1f}  {r['peak_rss_mb']:11.1f}  {r['cpu_s']:5.1f} ({r['readers_cpu_s']:5.1f}, "
          f"{r['browser_cpu_s']:5.1f})  "
          f"{'ok' if ok else f'FAILED (limits: p99 {P99_LIMIT_MS:g} ms, RSS {RSS_LIMIT_MB:g} MB, all drawn and read)'}")
    for figure, value in r["stages"].items():
        print(f"  {figure:24} {value:10.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
