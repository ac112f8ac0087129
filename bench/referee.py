"""Referee latency: from the last byte of a CHANGED frame written to the pty to the LED frame shown,
the state handed to MQTT and the state received by a real MQTT subscriber, per game.

    python -m bench.referee [GAME ...] [--moves N] [--debounce-ms MS] [--commit-ms MS]

A scripted MCU (HELLO, snapshots, heartbeats, CHANGED frames written by hand to a real pty) plays
seeded random legal games against the real service (host link, referee, LED strip, MQTT bridge to
a private Mosquitto). For each physical move the frames of its changes are written a few ms
apart; the clock starts just before the ``os.write`` of the last one. Reported separately:

* ``link``: last byte written -> ``SensorChanged`` received by the host link;
* ``led``: last byte written -> ``LedStrip.show`` called with the frame that shows the move (taken,
  or held and shown at once);
* ``mqtt``: last byte written -> the new state handed to paho;
* ``sub``: last byte written -> the new state received by a subscriber on the broker.

Moves are reported in three rows: **final** moves (the board is exactly the only legal move there
is: taken and told at once), **held** ones (exactly one legal move, but there are others the hands
could still make it: shown at once, recorded and told once the board has been still for the
commit window, which their ``mqtt`` and ``sub`` figures include) and **windowed** ones (everything
else, such as two moves at once: judged once the board has been still for the debounce window, then
held for the commit window).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho

from bench.serial_link import FakeMcu
from controller.config import Config, SensorsConfig
from controller.games import CHANCE, ChannelKind, game_names
from controller.localbroker import Broker
from controller.mqtt import Command, MqttBridge, set_nodelay
from controller.service import Service
from firmware_bridge import protocol as P
from firmware_bridge.link import HostLink
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


def measure(game_name: str, moves: int, debounce_ms: float, commit_ms: float, broker_port: int,
            seed: int = 1) -> dict[str, list[float]]:
    layout = load_layout(game_name)
    config = Config.from_dict({"board": {"id": f"bench-{game_name}", "game": game_name, "seed": seed},
                               "sensors": {"debounce_ms": debounce_ms, "commit_ms": commit_ms},
                               "inputs": {"enabled": False}, "mqtt": {"port": broker_port}})
    mqtt = MqttBridge(config.mqtt, config.board.id)
    strip = LedStrip(RecordingPixels(layout.led_count))
    service = Service(config, strip, layout=layout, mqtt=mqtt,
                      link_factory=lambda url, post: HostLink(url, post, heartbeat_timeout=2.0))
    start_view = service.session.state.physical_view()
    values = [0] * layout.sensor_count
    for channel, sensor in layout.sensor_of.items():
        values[sensor] = start_view[channel]
    mcu = TableMcu(layout.blocks, values)
    config.sensors.url = mcu.path
    marks: dict[str, float] = {}
    out: dict[str, list[float]] = {"link": [], "led": [], "mqtt": [], "sub": [], "clean": [], "final": []}
    seen = threading.Condition()

    def on_state(client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        moves = json.loads(msg.payload)["moves"]
        with seen:
            if "sub" not in marks and moves > marks.get("before", 1e9):
                marks["sub"] = time.monotonic()
                seen.notify_all()

    display = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"bench-display-{game_name}")
    display.on_message = on_state
    def on_connect(client: paho.Client, *_: object) -> None:
        set_nodelay(client)
        client.subscribe(f"arbitro/{config.board.id}/state", qos=1)

    display.on_connect = on_connect
    display.connect("127.0.0.1", broker_port)
    display.loop_start()

    def timed(fn, key):
        def wrapper(*args, **kwargs):
            moved = len(service.session.match.record.actions) > marks.get("before", 1e9)
            shown = moved or (key == "led" and "before" in marks and service.session.preview is not None)
            if key not in marks and shown:
                marks[key] = time.monotonic()
                if key == "led":
                    marks["received"] = service.last_sensed or 0.0
                    marks["final"] = float(moved)
            return fn(*args, **kwargs)
        return wrapper

    strip.show = timed(strip.show, "led")  # type: ignore[method-assign]  # the clock on the way in
    mqtt.publish_state = timed(mqtt.publish_state, "mqtt")  # type: ignore[method-assign]
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
            marks.clear()
            for c, v in changes.items():
                if kinds[c] == ChannelKind.OFFSET:
                    service.post(EncoderEvent(c, v))
            order = sorted(sensors, key=lambda c: sensors[c] > 0)
            for c in order[:-1]:
                mcu.change(layout.sensor_of[c], sensors[c])
                time.sleep(0.003)
            marks["before"] = before
            t0 = mcu.change(layout.sensor_of[order[-1]], sensors[order[-1]])
            _wait(service, lambda: moved() and "led" in marks and "mqtt" in marks)
            with seen:
                seen.wait_for(lambda: "sub" in marks, 10)
            out["link"].append(marks["received"] - t0)
            out["led"].append(marks["led"] - t0)
            out["mqtt"].append(marks["mqtt"] - t0)
            out["sub"].append(marks["sub"] - t0)
            out["clean"].append(float(marks["led"] - marks["received"] < debounce_ms / 1000))
            out["final"].append(marks["final"])
            played += 1
            time.sleep(0.002)
    finally:
        service.stop()
        mcu.close()
        display.loop_stop()
        display.disconnect()
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
    args = parser.parse_args(argv)
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
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
