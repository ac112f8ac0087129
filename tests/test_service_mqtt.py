"""The service over a real Mosquitto: retained state, commands with answers, malformed requests."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from controller.games import Game
from controller.localbroker import Broker
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service

BASE = "arbitro/t1"


@pytest.fixture
def toy_service(toy_game: Game, broker: Broker) -> Iterator[Service]:
    service = mqtt_service("toy", "t1", broker.port, seed=5)
    yield service
    service.stop()


def test_a_late_display_gets_the_retained_state_and_status(toy_service: Service, broker: Broker) -> None:
    display = Listener(broker.port, [f"{BASE}/#"])
    try:
        status = display.wait_for(lambda m: m[0] == f"{BASE}/status")
        assert status[1] == b"online" and status[2] is True
        state = display.latest_state(BASE)
        assert state["game"] == "toy" and state["phase"] in ("play", "over") and state["pending_chance"]
    finally:
        display.close()


def test_commands_are_answered_and_change_the_game(toy_service: Service, broker: Broker) -> None:
    op = Listener(broker.port, [f"{BASE}/#"])
    try:
        answer = op.request(BASE, "roll", {"id": "r1"})
        assert answer["ok"] is True and answer["id"] == "r1" and answer["result"]["outcome"].startswith("first")
        player = int(answer["result"]["outcome"][-1])
        answer = op.request(BASE, "choose", {"id": 7, "action": "b2"})
        assert answer == {"id": 7, "command": "choose", "ok": True, "result": {"action": "b2"}}
        state = op.latest_state(BASE, where=lambda s: s["moves"] == 2)
        assert state["turn"] == 1 - player and state["last_action"] == "b2"
        answer = op.request(BASE, "choose", {"action": "b2"})
        assert answer["ok"] is False and "b2" in answer["error"]
        answer = op.request(BASE, "undo", {})
        assert answer["ok"] is True and answer["result"]["undone"] == "b2"
        events = [e["type"] for e in op.json_on(f"{BASE}/events")]
        assert events[:3] == ["chance", "action", "undo"]
    finally:
        op.close()


def _malformed(rng: random.Random, i: int) -> tuple[str, bytes]:
    kind = i % 10
    if kind == 0:
        return "choose", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    if kind == 1:
        return "choose", json.dumps({"action": rng.choice([1, None, [], {}, True, 2.5])}).encode()
    if kind == 2:
        return "new_game", json.dumps({"game": rng.choice(["chess", "", 5, "x" * 300])}).encode()
    if kind == 3:
        return "choose", b"{" * rng.randrange(1, 3000)
    if kind == 4:
        return rng.choice(["fly", "delete", "exec", "x" * 50]), b"{}"
    if kind == 5:
        return "choose", json.dumps({"action": "a1" * rng.randrange(200, 2000)}).encode()
    if kind == 6:
        return "enter", json.dumps({"value": rng.choice(["first 9", 12, "7", ""])}).encode()
    if kind == 7:
        return "resign", json.dumps({"player": rng.choice([-1, 99, "zero", None])}).encode()
    if kind == 8:
        return "configure", json.dumps({"chance": rng.choice(["never", 3]), "extra": 1}).encode()
    return "choose", json.dumps([1, 2, 3]).encode()


def test_a_thousand_malformed_requests_are_refused_and_change_nothing(toy_service: Service, broker: Broker) -> None:
    op = Listener(broker.port, [f"{BASE}/#"])
    try:
        op.request(BASE, "roll", {})
        before = toy_service.call(lambda: toy_service.session.match.state.to_text())
        rng = random.Random(11)
        for i in range(1000):
            command, payload = _malformed(rng, i)
            answer = op.request(BASE, command, payload)
            assert answer["ok"] is False and answer["error"], (command, payload[:50], answer)
        assert toy_service.running()
        assert toy_service.call(lambda: toy_service.session.match.state.to_text()) == before
        assert op.request(BASE, "state", {})["ok"] is True
    finally:
        op.close()


def test_a_resignation_ends_the_game_and_undo_takes_it_back(toy_service: Service, broker: Broker) -> None:
    op = Listener(broker.port, [f"{BASE}/#"])
    try:
        op.request(BASE, "roll", {})
        first = op.request(BASE, "state", {})["result"]["turn"]
        assert op.request(BASE, "choose", {"action": "a1"})["ok"]
        answer = op.request(BASE, "resign", {"player": first})
        assert answer["ok"] and answer["result"] == {"resigned": first}
        state = op.request(BASE, "state", {})["result"]
        assert state["over"] and state["winners"] == [1 - first] and state["turn"] is None
        assert op.request(BASE, "choose", {"action": "b2"})["error"] == "choose: the game is over"
        assert op.request(BASE, "undo", {})["result"] == {"undone": "resign"}
        state = op.request(BASE, "state", {})["result"]
        assert not state["over"] and state["moves"] == 2 and state["turn"] == 1 - first
    finally:
        op.close()
