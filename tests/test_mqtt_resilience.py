"""Availability and delivery against a real Mosquitto: the last will of a killed service, and a
broker stopped and restarted mid-game (it runs with ``persistence false``: everything retained is
gone with it, so the service must publish it again, and every event it had must still arrive).

A restarted broker keeps no sessions, so an observer only sees what is published after it has
subscribed again. The restart tests therefore keep the service from connecting
(``NetworkLoop.held``, as a longer network outage would) until the observer is back,
which makes "nothing lost, nothing reordered" checkable to the event.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.games import Game
from controller.localbroker import Broker
from controller.mqtt import Command, MqttBridge
from controller.service import Service
from firmware_bridge.sim import SimulatedBoard
from hardware.inputs import ButtonEvent
from hardware.layout import load_layout
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service

ROOT = Path(__file__).resolve().parents[1]
BASE = "arbitro/r1"


def test_a_killed_service_turns_status_offline_through_its_will(broker: Broker, tmp_path: Path) -> None:
    layout = load_layout("contigo")
    with SimulatedBoard(layout.blocks, board_kind=layout.board_kind) as sim:
        config = tmp_path / "config.toml"
        config.write_text(f'[board]\nid = "k1"\ngame = "contigo"\n[sensors]\nurl = "{sim.url}"\n'
                          f'[inputs]\npin_factory = "mock"\n[mqtt]\nport = {broker.port}\n')
        watcher = Listener(broker.port, ["arbitro/k1/status", "arbitro/k1/state"])
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            watcher.wait_for(lambda m: m[0] == "arbitro/k1/status" and m[1] == b"online", timeout=20)
            state = watcher.latest_state("arbitro/k1", where=lambda s: s["sensors"] == "up", timeout=20)
            assert state["game"] == "contigo" and state["board"] == "k1"
            proc.send_signal(signal.SIGKILL)
            assert proc.wait(10) == -signal.SIGKILL
            watcher.wait_for(lambda m: m[0] == "arbitro/k1/status" and m[1] == b"offline", timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            watcher.close()
    late = Listener(broker.port, ["arbitro/k1/#"])
    try:
        status = late.wait_for(lambda m: m[0] == "arbitro/k1/status")
        assert status[1] == b"offline" and status[2] is True  # the will is retained
        assert late.latest_state("arbitro/k1")["seq"] >= state["seq"]  # the last state stays for displays
    finally:
        late.close()


@pytest.fixture
def toy(toy_game: Game, broker: Broker) -> Iterator[tuple[Service, MqttBridge]]:
    """A noughts-and-crosses service on board ``r1`` (roll decides who starts) and its bridge."""
    service = mqtt_service("toy", "r1", broker.port, seed=9)
    assert isinstance(service.mqtt, MqttBridge)
    yield service, service.mqtt
    service.stop()


def seqs(listener: Listener) -> list[int]:
    return [e["seq"] for e in listener.json_on(f"{BASE}/events")]


def wait_for_seq(listener: Listener, last: int, timeout: float = 10.0) -> None:
    listener.wait_for(lambda m: m[0] == f"{BASE}/events" and json.loads(m[1])["seq"] == last, timeout)


def outage(broker: Broker, bridge: MqttBridge, during: Callable[[], object], then_subscribe: list[str]) -> Listener:
    """Stop the broker, keep the bridge from connecting, run ``during()``, restart the broker on the
    same port, subscribe a fresh observer, let the bridge reconnect; returns the observer."""
    broker.stop()
    deadline = time.monotonic() + 10
    while bridge.connected.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)  # poll interval
    assert not bridge.connected.is_set(), "the bridge did not notice the broker going away"
    with bridge.network.held():
        during()
        broker.start()
        observer = Listener(broker.port, then_subscribe)
    assert bridge.connected.wait(15), "the bridge did not reconnect"
    assert bridge.flush(10)
    return observer


def test_a_restarted_broker_gets_status_state_and_every_event_back(toy: tuple[Service, MqttBridge],
                                                                   broker: Broker) -> None:
    service, bridge = toy
    before = Listener(broker.port, [f"{BASE}/#"])
    answers: list[tuple[bool, object]] = []
    try:
        assert before.request(BASE, "roll", {})["ok"]
        assert before.request(BASE, "choose", {"action": "a1"})["ok"]
        assert bridge.flush()
        wait_for_seq(before, bridge.last_event_seq)
    finally:
        before.close()
    seen_before = seqs(before)

    squares = ("b2", "c3", "a2", "b1", "c1", "a3", "b3", "c2")

    def play_while_down() -> None:
        service.post(ButtonEvent("undo"))  # takes back a1
        service.post(ButtonEvent("undo"))  # and the draw for who starts
        service.post(ButtonEvent("roll"))
        for i, square in enumerate(squares):
            service.post(Command("choose", {"action": square}, lambda ok, result: answers.append((ok, result))))
            if i < len(squares) - 1:
                service.post(ButtonEvent("undo"))
        service.call(lambda: None)
        assert len(bridge.held) == 3 + 2 * len(squares) - 1 and bridge.connected.is_set() is False

    after = outage(broker, bridge, play_while_down, [f"{BASE}/#"])
    try:
        last = bridge.last_event_seq
        wait_for_seq(after, last)
        assert seen_before + seqs(after) == list(range(1, last + 1))  # none lost, none repeated, in order
        kinds = [e["type"] for e in after.json_on(f"{BASE}/events")]
        assert kinds == ["undo", "undo", "chance", *["action", "undo"] * (len(squares) - 1), "action"]
        assert [ok for ok, _ in answers] == [True] * len(squares)
        assert after.wait_for(lambda m: m[0] == f"{BASE}/status")[1] == b"online"
    finally:
        after.close()
    late = Listener(broker.port, [f"{BASE}/status", f"{BASE}/state", f"{BASE}/player/+"])
    try:
        status = late.wait_for(lambda m: m[0] == f"{BASE}/status")
        assert status[1] == b"online" and status[2] is True
        state = late.latest_state(BASE)
        expected = service.call(service.public_state)
        assert state == expected and state["last_action"] == "c2"
        late.wait_for(lambda m: m[0] == f"{BASE}/player/1" and m[2] is True)
    finally:
        late.close()


def test_events_in_flight_when_the_broker_dies_are_neither_lost_nor_reordered(toy: tuple[Service, MqttBridge],
                                                                              broker: Broker) -> None:
    service, bridge = toy
    before = Listener(broker.port, [f"{BASE}/events"])
    stop = threading.Event()

    def drive() -> None:  # a roll and an undo every few milliseconds: a steady stream of events
        while not stop.is_set():
            service.post(ButtonEvent("roll"))
            service.post(ButtonEvent("undo"))
            time.sleep(0.003)  # input timing (the rate of presses), not a wait

    driver = threading.Thread(target=drive)
    driver.start()
    try:
        wait_for_seq(before, 21)  # events flowing: more than 20 delivered before the outage

        def keep_playing() -> None:  # until more than 20 events wait for the broker to come back
            deadline = time.monotonic() + 10
            while len(bridge.held) <= 20:
                assert time.monotonic() < deadline, f"only {len(bridge.held)} events held during the outage"
                time.sleep(0.01)  # poll interval
            stop.set()
            driver.join()
            service.call(lambda: None)
            before.close()

        after = outage(broker, bridge, keep_playing, [f"{BASE}/events"])
    finally:
        stop.set()
        driver.join()
    try:
        last = bridge.last_event_seq
        wait_for_seq(after, last)
        got_before, got_after = seqs(before), seqs(after)
        assert got_before == list(range(1, len(got_before) + 1))
        # After the restart: perhaps again a few the old broker delivered but did not acknowledge
        # (QoS 1 resends them), then every other one, in order.
        assert got_after == sorted(got_after) and len(set(got_after)) == len(got_after)
        # The one loss MQTT allows: an event the dying broker acknowledged in its last moment but
        # had not yet passed on (it is the broker's then, and a broker without persistence loses
        # it). So a missing event can only sit between the last one seen before the outage and the
        # first one resent after it; anything else missing is the bridge's fault.
        missing = set(range(1, last + 1)) - set(got_before) - set(got_after)
        assert all(max(got_before) < s < min(got_after) for s in missing), sorted(missing)
        # How many the broker took in its last moments depends on its lag to the subscriber (two
        # events every 3 ms here: six were lost once); none of those the bridge held while the
        # broker was away (the last 21 or more) may be among them
        assert all(s <= last - 21 for s in missing), (sorted(missing), last)
        assert len(got_before) > 20 and last - len(got_before) > 20  # events both before and during the outage
    finally:
        after.close()


def test_the_bridge_reconnects_by_itself_and_puts_status_and_state_back(toy: tuple[Service, MqttBridge],
                                                                        broker: Broker) -> None:
    service, bridge = toy
    broker.stop()
    deadline = time.monotonic() + 10
    while bridge.connected.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)  # poll interval
    assert not bridge.connected.is_set(), "the bridge did not notice the broker going away"
    service.post(ButtonEvent("roll"))  # a move while the broker is away
    service.call(lambda: None)
    broker.start()  # empty: persistence false, nothing retained
    assert bridge.connected.wait(15)
    assert bridge.flush(10)
    late = Listener(broker.port, [f"{BASE}/status", f"{BASE}/state"])
    try:
        status = late.wait_for(lambda m: m[0] == f"{BASE}/status")
        assert status[1] == b"online" and status[2] is True
        assert late.latest_state(BASE) == service.call(service.public_state)
        assert service.call(service.public_state)["moves"] == 1
    finally:
        late.close()
