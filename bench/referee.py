"""Referee latency, end to end: from the last byte of a CHANGED frame written to the pty to the
LED bytes leaving the strip's buffer, and to the new state at a subscriber in another process.

    python -m bench.referee [GAME ...] [--moves N] [--debounce-ms MS] [--commit-ms MS] [--stages | --tell]

A scripted MCU (HELLO, snapshots, heartbeats, CHANGED frames written by hand to a real pty) plays
seeded random legal games against the real service (host link, referee, journal on, an LED strip
that blocks for a WS2812's wire time, MQTT to a private Mosquitto), at a player's pace: each move
once the strip is idle and the next move table built. For each physical move the frames of its
changes are written a few ms apart; the clock starts just before the ``os.write`` of the last one.
Marks:

* ``link``: last byte written -> ``SensorChanged`` received by the host link;
* ``led``: last byte written -> the first LED frame after it leaves the strip's buffer (the
  simulated strip's ``_transmit`` begins: a NeoPixel's bytes go on the wire from there);
* ``mqtt``: last byte written -> the new state handed to paho;
* ``sub``: last byte written -> the new state printed by a C ``mosquitto_sub`` in another process.

``--stages`` also prints where a clean move's time goes: p50/p99 of each stage of the loop
(``bench.stages``: bytes read, frame parsed, taken by the loop, judged, LED frame drawn, worker,
LED bytes out, journal committed, state stamped, JSON, written to the broker, the publish returned, at the
subscriber), and the loop thread's CPU time from taking the frame to queueing the state.
``--tell`` measures only the CPU of telling a move (:func:`tell_cpu`), without the loop or paho.

Moves come in three kinds: **final** (the board is exactly the only legal move with a trace:
taken and told at once), **held** (exactly one legal move, but others could still follow: shown
at once, told once the board has been still for the commit window; their ``mqtt`` and ``sub`` are
reported with that deliberate wait, ``sensors.commit_ms``, taken off) and **windowed** (anything
else: judged after the debounce window; reported apart, window included). Clean moves are the
final and held ones.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import select
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho

from bench.serial_link import FakeMcu
from bench.stages import LOOP, ORDER, Stages
from controller.config import Config, SensorsConfig
from controller.games import CHANCE, ChannelKind, game_names
from controller.journal import Journal
from controller.localbroker import Broker
from controller.mqtt import Command, MqttBridge, set_nodelay
from controller.service import Service
from controller.table import Table
from firmware_bridge import protocol as P
from firmware_bridge.link import HostLink, SensorChanged
from hardware.inputs import ButtonEvent, EncoderEvent
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class TableMcu(FakeMcu):
    """A scripted sensor MCU for one board: answers HELLO and SNAPSHOT requests, sends heartbeats."""

    def __init__(self, blocks: list[tuple[str, int]], values: list[int]) -> None:
        super().__init__(sum(n for _, n in blocks))
        self.blocks = tuple(blocks)
        self.values = list(values)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def send(self, msg: P.Message) -> None:
        with self.lock:
            os.write(self.fd, P.encode(msg, self.seq))
            self.seq = (self.seq + 1) & 0xFFFF

    def _serve(self) -> None:
        dec = P.Decoder()
        last_beat = 0.0
        while not self.stopping.is_set():
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    return
                for _, msg in dec.feed(data):
                    if isinstance(msg, P.RequestHello):
                        self.send(P.Hello(1, "bench", "0", self.blocks))
                    elif isinstance(msg, P.RequestSnapshot):
                        for part in P.split_snapshot(list(self.values), 0):
                            self.send(part)
            if time.monotonic() - last_beat > 0.2:
                self.send(P.Heartbeat(int(time.monotonic() * 1000) & 0xFFFFFFFF, 0))
                last_beat = time.monotonic()

    def change(self, channel: int, value: int) -> float:
        """Write one CHANGED frame; returns the monotonic time just before the write."""
        self.values[channel] = value
        with self.lock:
            frame = P.encode(P.Changed(channel, value, int(time.monotonic() * 1000) & 0xFFFFFFFF), self.seq)
            self.seq = (self.seq + 1) & 0xFFFF
            t = time.monotonic()
            os.write(self.fd, frame)
        return t

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(1)
        super().close()


class Subscriber:
    """A C ``mosquitto_sub`` in a process of its own, printing each state with its arrival time;
    :meth:`first` is when the first state past a number of moves arrived (wall clock)."""

    def __init__(self, port: int, topic: str) -> None:
        self.proc = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-q", "1", "--nodelay", "-F", "%U %p",
                                      "-t", topic], stdout=subprocess.PIPE, text=True)
        self.seen: list[tuple[float, int]] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            at, _, payload = line.partition(" ")
            with self.cond:
                self.seen.append((float(at), json.loads(payload)["moves"]))
                self.cond.notify_all()

    def first(self, past: int, timeout: float = 10.0) -> float:
        with self.cond:
            self.cond.wait_for(lambda: any(m > past for _, m in self.seen), timeout)
            return next(t for t, m in self.seen if m > past)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(5)


def measure(game_name: str, moves: int, debounce_ms: float, commit_ms: float, broker_port: int,
            seed: int = 1, hurry: bool = False) -> dict[str, list[float]]:
    """Per move: its marks (s). ``sub`` is net of the commit window a held move waits, ``seen`` is
    what a display gets (window included). ``hurry``: each move comes as soon as the last one's
    state is out, before its successor's move table is built (the unready table)."""
    layout = load_layout(game_name)
    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-referee-"))
    config = Config.from_dict({"board": {"id": f"bench-{game_name}-{seed}", "game": game_name, "seed": seed},
                               "sensors": {"debounce_ms": debounce_ms, "commit_ms": commit_ms},
                               "inputs": {"enabled": False}, "mqtt": {"port": broker_port}})
    mqtt = MqttBridge(config.mqtt, config.board.id)
    pixels = RecordingPixels(layout.led_count, wire=True)  # a Pi's strip: the wire time of every frame
    strip = LedStrip(pixels)
    stages = Stages()
    service = Service(config, strip, layout=layout, mqtt=mqtt, journal=Journal(folder / "journal.sqlite"),
                      link_factory=lambda url, post: HostLink(url, stamped, heartbeat_timeout=2.0))
    stamped = stages.attach(service, mqtt, pixels)
    start_view = service.session.state.physical_view()
    values = [0] * layout.sensor_count
    for channel, sensor in layout.sensor_of.items():
        values[sensor] = start_view[channel]
    mcu = TableMcu(layout.blocks, values)
    config.sensors.url = mcu.path
    out: dict[str, list[float]] = {"link": [], "led": [], "mqtt": [], "sub": [], "seen": [], "clean": [],
                                   "final": [], "unready": [], "loop_cpu": [], "gc": []}
    out.update({f"stage:{stage}": [] for stage in ORDER[1:]})
    out.update({f"cpu:{stage}": [] for stage in LOOP[1:]})
    display = Subscriber(broker_port, f"arbitro/{config.board.id}/state")
    service.start()
    rng = random.Random(seed)
    kinds = {c.name: c.kind for c in service.session.channels}
    try:
        _wait(service, lambda: service.session.board_known)
        played = 0
        while played < moves:
            state = service.call(lambda: service.session.state)
            if state.is_terminal():
                service.post(Command("new_game", {"seed": rng.randrange(1 << 30)}, lambda ok, r: None))
                _wait(service, lambda: not service.session.state.is_terminal())
                continue
            before = service.call(lambda: len(service.session.match.record.actions))

            def moved(before: int = before) -> bool:
                return len(service.session.match.record.actions) > before

            if state.current_player == CHANCE:
                service.post(ButtonEvent("roll"))
                _wait(service, moved)
                _settle_setup(service, mcu, layout, kinds)
                continue
            action = rng.choice(state.legal_actions())
            view, after = state.physical_view(), state.apply(action).physical_view()
            changes = {c: v for c, v in after.items() if view[c] != v}
            sensors = {c: v for c, v in changes.items() if kinds[c] != ChannelKind.OFFSET}
            if not sensors:  # no sensor frame to time: rings and silent choices
                for c, v in changes.items():
                    service.post(EncoderEvent(c, v))
                if not changes:
                    text = state.action_to_text(action)
                    service.post(Command("choose", {"action": text}, lambda ok, r: None))
                _wait(service, moved)
                continue
            # A player's pace: the last move's frames are on the strip, its successor's table is built.
            if not hurry:
                _wait(service, lambda: not service.session.referee.unready)
            unready = service.call(lambda: service.session.referee.unready)
            strip.flush()
            for c, v in changes.items():
                if kinds[c] == ChannelKind.OFFSET:
                    service.post(EncoderEvent(c, v))
            order = sorted(sensors, key=lambda c: sensors[c] > 0)
            for c in order[:-1]:
                mcu.change(layout.sensor_of[c], sensors[c])
                time.sleep(0.003)
            sent = len(pixels.transmit_times)
            wall = time.time() - time.monotonic()  # the subscriber's clock is the wall clock
            stages.arm(layout.sensor_of[order[-1]], before)
            t0 = mcu.change(layout.sensor_of[order[-1]], sensors[order[-1]])
            stages.at["write"] = t0  # just before the os.write
            if not stages.queued.wait(10):
                raise TimeoutError(f"the move's state was not published; stages reached: {', '.join(stages.at)}")
            sub = display.first(before) - wall
            stages.at["sub"] = sub
            strip.flush()
            stages.armed = False
            at = stages.at
            # nan: the move lit nothing new (the strip sends no frame it already shows), nothing to time
            led = next((began for began, _ in pixels.transmit_times[sent:] if began >= t0), math.nan)
            clean = at["frame"] - at["read"] < debounce_ms / 1000
            hold = at["commit"] - at["shown"] if "commit" in at else 0.0  # the deliberate wait, taken off
            out["link"].append(at["read"] - t0)
            out["led"].append(led - t0)
            out["mqtt"].append(at["stamped"] - t0 - hold)
            out["sub"].append(sub - t0 - hold)
            out["seen"].append(sub - t0)
            out["unready"].append(float(bool(unready)))
            out["clean"].append(float(clean))
            out["final"].append(float(not stages.held))
            out["loop_cpu"].append(stages.loop_cpu() or 0.0)
            out["gc"].append(stages.collected())
            passed = stages.deltas()
            for stage in ORDER[1:]:
                out[f"stage:{stage}"].append(passed.get(stage, math.nan))  # nan: a stage this move has not
            worked = stages.cpu_deltas()
            for stage in LOOP[1:]:
                out[f"cpu:{stage}"].append(worked.get(stage, math.nan))
            played += 1
    finally:
        service.stop()
        stages.detach()
        mcu.close()
        display.close()
        if service.journal is not None:
            service.journal.close()
    return out


def clean_values(r: dict[str, list[float]], key: str) -> list[float]:
    """``key``'s figures over the clean moves of a :func:`measure` result (nan: a stage the move has not)."""
    return [v for v, c in zip(r[key], r["clean"], strict=True) if c and not math.isnan(v)]


def stage_table(r: dict[str, list[float]]) -> str:
    """p50/p99 (ms) of the time spent reaching each stage from the one before, over clean moves,
    with the loop thread's CPU time for the stages it stamps."""
    def cell(key: str) -> str:
        values = clean_values(r, key) if key in r else []
        if not values:
            return ""
        return f"{_percentile(values, .5) * 1e3:6.3f}/{_percentile(values, .99) * 1e3:6.3f}"

    lines = [f"    {'stage (clean moves)':28} {'wall p50/p99 ms':>15}  {'loop CPU p50/p99 ms':>19}"]
    for stage in ORDER[1:]:
        if stage != "commit":
            lines.append(f"    {'-> ' + stage:28} {cell(f'stage:{stage}'):>15}  {cell(f'cpu:{stage}'):>19}")
    lines.append(f"    {'loop CPU, taken -> queued':28} {'':>15}  {cell('loop_cpu'):>19}")
    lines.append(f"    {'of it, garbage collections':28} {'':>15}  {cell('gc'):>19}")
    return "\n".join(lines)


def tell_cpu(game_name: str, moves: int, seed: int = 1) -> list[float]:
    """The CPU seconds of telling each of ``moves`` seeded random moves, as the loop tells a clean
    move once the LEDs have started: the public and private states worked out, the journal written
    (on disk, ``synchronous=FULL``), the events and the state said, stamped and made JSON. The
    session and the teller are driven directly, without judging, the pty or paho (the bridge is
    not started, so nothing is sent): the work the cuts of issue 23 are about, repeatable on a
    loaded machine (its thread's CPU time)."""
    layout = load_layout(game_name)
    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-tell-"))
    config = Config.from_dict({"board": {"id": f"bench-tell-{game_name}", "game": game_name, "seed": seed},
                               "inputs": {"enabled": False}})
    journal = Journal(folder / "journal.sqlite")
    table = Table.build(config, LedStrip(RecordingPixels(layout.led_count)), layout, journal,
                        MqttBridge(config.mqtt, config.board.id), None, lambda event: None, time.monotonic, time.time)
    session, teller = table.session, table.teller
    teller.tell(table.opened)
    rng = random.Random(seed)
    out: list[float] = []
    try:
        while len(out) < moves:
            state = session.state
            if state.is_terminal() or state.current_player == CHANCE:
                name, args = ("new_game", {"seed": rng.randrange(1 << 30)}) if state.is_terminal() else ("roll", {})
                outcome = session.request(name, args)
                session.sensed.update(session.state.physical_view())
                teller.tell(outcome)
                continue
            text = state.action_to_text(rng.choice(state.legal_actions()))
            outcome = session.request("choose", {"action": text})
            session.sensed.update(session.state.physical_view())  # the board shows the move, as a clean one
            began = time.thread_time()
            teller.tell(outcome)
            out.append(time.thread_time() - began)
    finally:
        journal.close()
    return out


def null_service(samples: int, broker_port: int) -> list[float]:
    """The same plumbing without a referee, LEDs or journal: a CHANGED frame written to the pty ->
    the host link -> a small retained state published with paho -> the C ``mosquitto_sub``; seconds."""
    mcu = FakeMcu()
    events: queue.Queue[object] = queue.Queue()
    link = HostLink(mcu.path, events.put, heartbeat_timeout=60.0)  # this MCU sends no heartbeats
    link.start()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="bench-null-service")
    client.on_connect = lambda c, *_: set_nodelay(c)
    client.connect("127.0.0.1", broker_port)
    client.loop_start()
    topic = f"arbitro/bench-null-{time.monotonic_ns()}/state"  # nothing retained from an earlier run
    display = Subscriber(broker_port, topic)
    out = []
    try:
        mcu.handshake(events)
        while not display.seen:  # until the subscriber is in place (nothing is retained)
            client.publish(topic, json.dumps({"moves": 0}), qos=1)
            time.sleep(0.05)
        for i in range(samples):
            frame = P.encode(P.Changed(i % 16, (i + 1) % 2, i), mcu.seq + i)
            t0 = time.time()
            os.write(mcu.fd, frame)
            while not isinstance(events.get(timeout=5), SensorChanged):
                pass
            client.publish(topic, json.dumps({"moves": i + 1}), qos=1)
            out.append(display.first(i) - t0)
            time.sleep(0.005)  # input timing: a move at a time
    finally:
        display.close()
        client.loop_stop()
        client.disconnect()
        link.stop()
        mcu.close()
    return out


def _settle_setup(service: Service, mcu: TableMcu, layout, kinds) -> None:
    """Carry out on the board what a chance outcome asks for (tokens placed, rings set)."""
    expected = service.call(service.session.referee.expected)
    for c, v in expected.items():
        if kinds[c] == ChannelKind.OFFSET:
            service.post(EncoderEvent(c, v))
        elif mcu.values[layout.sensor_of[c]] != v:
            mcu.change(layout.sensor_of[c], v)


def _wait(service: Service, predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if service.call(predicate):
            return
        time.sleep(0.001)
    raise TimeoutError("the service did not get there")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--moves", type=int, default=150, help="timed physical moves per game")
    parser.add_argument("--debounce-ms", type=float, default=SensorsConfig().debounce_ms)
    parser.add_argument("--commit-ms", type=float, default=SensorsConfig().commit_ms)
    parser.add_argument("--stages", action="store_true", help="where a clean move's time goes, stage by stage")
    parser.add_argument("--tell", action="store_true",
                        help="only the CPU of telling a move (states, journal, teller, JSON; no loop, no paho)")
    args = parser.parse_args(argv)
    if args.tell:
        for name in args.games or game_names():
            v = tell_cpu(name, args.moves)
            print(f"{name:12} telling a move, CPU p50/p99 ms ({len(v)} moves): "
                  f"{_percentile(v, .5) * 1e3:.3f}/{_percentile(v, .99) * 1e3:.3f}")
        return
    broker = Broker(Path(tempfile.mkdtemp(prefix="arbitro-bench-"))).start()
    try:
        print(f"debounce window {args.debounce_ms:.0f} ms (windowed moves include it), commit window "
              f"{args.commit_ms:.0f} ms (held and windowed moves' mqtt and sub include it)")
        print(f"{'game':12} {'moves':9} {'n':>4} {'link p50/p99 ms':>16} {'led p50/p99 ms':>15} "
              f"{'mqtt p50/p99 ms':>16} {'sub p50/p99 ms':>15}")
        for name in args.games or game_names():
            r = measure(name, args.moves, args.debounce_ms, args.commit_ms, broker.port)
            kinds = [("final" if final else "held") if clean else "windowed"
                     for clean, final in zip(r["clean"], r["final"], strict=True)]
            for label in ("final", "held", "windowed"):
                rows = [i for i, k in enumerate(kinds) if k == label]
                if not rows:
                    continue
                picked = {k: [r[k][i] for i in rows] for k in ("link", "led", "mqtt", "sub")}
                cells = [f"{_percentile(v, .5) * 1e3:6.2f}/{_percentile(v, .99) * 1e3:6.2f}" for v in picked.values()]
                print(f"{name:12} {label:9} {len(rows):4d} {cells[0]:>16} {cells[1]:>15} {cells[2]:>16} {cells[3]:>15}")
            if args.stages:
                print(stage_table(r))
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
