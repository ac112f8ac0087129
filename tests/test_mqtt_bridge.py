"""MqttBridge over a real Mosquitto: every payload of real games fits its JSON Schema, response
topics stay out of the board's other topics, Home Assistant discovery, a quiet clean stop."""

from __future__ import annotations

import json
import logging
import socket
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller import schemas
from controller.demo import play_game
from controller.games import Game
from controller.localbroker import Broker
from controller.mqtt import COMMANDS
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import bridge_of, mqtt_service

BASE = "arbitro/b1"


def toy_service(port: int, **mqtt: object) -> Service:
    service = mqtt_service("toy", "b1", port, seed=5, mqtt=mqtt)
    assert bridge_of(service).flush()  # the broker has all of it: a later subscriber gets the retained messages
    return service


@pytest.fixture
def toy(toy_game: Game, broker: Broker) -> Iterator[Service]:
    service = toy_service(broker.port)
    yield service
    service.stop()


def check_all(listener: Listener) -> Counter[str]:
    """Validate every message the listener got on a board's topics; count them by kind."""
    kinds: Counter[str] = Counter()
    windows: dict[str, bytes] = {}
    for topic, payload, *_ in listener.messages:
        base = "/".join(topic.split("/")[:2])
        kind = schemas.payload_kind(base, topic)
        assert kind is not None
        if kind[0] == "request" and kind[1] not in COMMANDS:
            continue  # a request for no command: no schema fits it (and the service refused it)
        if kind[0] == "recent":  # up to 50 events each, all of them checked on events: the last one in full
            windows[base] = payload
            kinds["recent"] += 1
            continue
        schemas.check(base, topic, payload)
        kinds[kind[0]] += 1
        if kind[0] == "event":
            kinds["event:" + json.loads(payload)["type"]] += 1
        if kind[0] == "response":
            body = json.loads(payload)
            kinds[f"response:{body['command']}:{body['ok']}"] += 1
    for base, payload in windows.items():
        schemas.check(base, f"{base}/events/recent", payload)
        sent = [json.loads(p) for t, p, *_ in listener.messages if t == f"{base}/events"]
        window = json.loads(payload)["events"]
        upto = next(i for i, e in enumerate(sent) if e["seq"] == window[-1]["seq"]) + 1 if window else 0
        n = min(len(window), upto)  # it may reach back before the listener subscribed, and trail the last events
        assert window[len(window) - n:] == sent[upto - n:upto], "events/recent holds the last events as they went"
    return kinds


def test_every_payload_of_real_games_fits_its_schema(broker: Broker) -> None:
    listener = Listener(broker.port, ["arbitro/#"])
    try:
        for game, board, actions in (("serpientes", "g1", 400), ("scriptorium", "g2", 120), ("contigo", "g3", 400)):
            final = play_game(game, broker=("127.0.0.1", broker.port), seed=3, players=None, seat=None, pace=0,
                              headless=True, max_actions=actions, board_id=board)
            assert final["over"]
            listener.wait_for(lambda m, b=board: m[0] == f"arbitro/{b}/status" and m[1] == b"offline")
        kinds = check_all(listener)
        for board in ("g1", "g2", "g3"):
            events = listener.json_on(f"arbitro/{board}/events")
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # none lost in normal play
            states = [s["seq"] for s in listener.json_on(f"arbitro/{board}/state")]
            assert states == sorted(set(states))
    finally:
        listener.close()
    for kind in ("status", "state", "event", "player", "request", "response", "event:link", "event:chance",
                 "event:action", "event:game_over", "response:choose:True"):
        assert kinds[kind] > 0, (kind, kinds)


def test_every_command_and_error_answer_fits_its_schema(toy: Service, broker: Broker) -> None:
    op = Listener(broker.port, [f"{BASE}/#"])
    try:
        requests: list[tuple[str, dict[str, Any]]] = [
                    ("state", {}), ("record", {"private": True}), ("roll", {}), ("choose", {"action": "b2"}),
                    ("undo", {}),
                    ("configure", {"allow_takeback": False}), ("enter", {"value": "x"}),
                    ("choose", {"action": "a1"}), ("resign", {"player": 1}), ("roll", {}),
                    ("new_game", {"seed": 3}), ("enter", {"value": "1"}), ("configure", {"chance": "auto"}),
                    ("new_game", {"game": "toy"}), ("undo", {}), ("hint", {}), ("play", {"seat": 0, "action": "a1"}),
                    ("join", {"code": "arbitro-join:x"}), ("consent", {"seat": 0}), ("show", {"game": 1}),
                    ("press", {"button": "next"}), ("nope", {})]
        answered: Counter[str] = Counter()
        for command, args in requests:
            answer = op.request(BASE, command, {"id": f"{command}-{uuid.uuid4().hex[:6]}", **args})
            schemas.validator("response").validate(answer)
            answered[f"{command}:{answer['ok']}"] += 1
            if command in COMMANDS:
                schemas.validator("request", command).validate(args)
        # the toy game has no computer player and no phone seat: its hint and play are refused, the
        # refusals within the schema too; a board with no other board refuses a join; no takeback
        # waits for consent; a board without a journal has no game to show
        assert {f"{c}:True" for c in COMMANDS if c not in ("hint", "play", "join", "consent", "show")} | {
            "enter:False", "roll:False", "hint:False", "play:False", "join:False", "consent:False", "show:False",
            "nope:False"} == set(answered)
        op.fence(BASE)  # every event and state published before has arrived
        kinds = check_all(op)
        for kind in ("event:undo", "event:new_game", "event:resign", "event:chance", "event:action"):
            assert kinds[kind] > 0, (kind, kinds)
    finally:
        op.close()


def request_with_response_topic(op: Listener, topic: str) -> None:
    props = Properties(PacketTypes.PUBLISH)
    props.ResponseTopic = topic
    props.CorrelationData = b"corr-1"
    op.client.publish(f"{BASE}/request/state", json.dumps({"id": topic[:100]}), qos=1, properties=props)


def test_a_response_topic_may_not_point_at_the_boards_other_topics(toy: Service, broker: Broker) -> None:
    op = Listener(broker.port, ["arbitro/#"])
    try:
        for topic in (f"{BASE}/state", f"{BASE}/events", f"{BASE}/player/0", "arbitro/b2/response/state",
                      f"{BASE}/request/roll", "arbitro/b1/resp#", "$SYS/x", "x" * 300):
            request_with_response_topic(op, topic)
            got = op.wait_for(lambda m, t=topic: m[0] == f"{BASE}/response/state" and json.loads(m[1])["id"] == t[:100])
            body = json.loads(got[1])
            assert body["ok"] is False and "response topic" in body["error"], body
            assert got[3].CorrelationData == b"corr-1"
        mine = f"{BASE}/response/desk/{uuid.uuid4().hex}"
        request_with_response_topic(op, mine)
        got = op.wait_for(lambda m: m[0] == mine)
        assert json.loads(got[1])["ok"] is True and got[3].CorrelationData == b"corr-1"
        op.fence(BASE)  # whatever the service published for these requests has arrived
        check_all(op)  # nothing but states on state, events on events...
        assert not [t for t, *_ in op.messages if t.startswith("arbitro/b2/")]
    finally:
        op.close()


def test_home_assistant_discovery_is_retained_and_republished_when_it_announces_itself(toy_game: Game,
                                                                                       broker: Broker) -> None:
    service = toy_service(broker.port, homeassistant=True)
    ha = Listener(broker.port, ["homeassistant/+/+/+/config"])
    try:
        expected = {f"homeassistant/{c}/arbitro_b1/{e}/config" for c, e in (
            ("binary_sensor", "online"), ("sensor", "turn"), ("sensor", "phase"), ("sensor", "last_move"),
            ("sensor", "violation"), ("sensor", "score_1"), ("sensor", "score_2"), ("button", "roll"),
            ("button", "undo"), ("button", "hint"), ("button", "confirm"), ("button", "next"),
            ("select", "game"))}  # (tests/test_homeassistant.py: their keys)
        configs = {}
        for _ in expected:
            topic, payload, retained, _props = ha.wait_for(lambda m: m[0] not in configs)
            assert retained is True
            configs[topic] = json.loads(payload)
        assert set(configs) == expected
        for body in configs.values():
            schemas.validator("discovery").validate(body)
        before = len(ha.messages)
        ha.client.publish("homeassistant/status", b"offline", qos=1)
        ha.fence(BASE)  # the service has had the offline, and sent anything it sent for it
        assert len(ha.messages) == before
        ha.client.publish("homeassistant/status", b"online", qos=1)
        for topic in configs:
            ha.wait_for(lambda m, t=topic: m[0] == t and m[2] is False)  # sent again, live
    finally:
        ha.close()
        service.stop()


def test_a_clean_stop_is_quiet_and_leaves_offline(toy_game: Game, broker: Broker,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    service = toy_service(broker.port)
    with caplog.at_level(logging.INFO, logger="arbitro.mqtt"):
        service.stop()
    assert [r for r in caplog.records if r.name == "arbitro.mqtt" and r.levelno >= logging.WARNING] == []
    late = Listener(broker.port, [f"{BASE}/status"])
    try:
        status = late.wait_for(lambda m: True)
        assert status[1] == b"offline" and status[2] is True
    finally:
        late.close()


def test_a_retained_request_is_refused_and_never_run_again(toy: Service, broker: Broker) -> None:
    op = Listener(broker.port, [f"{BASE}/response/#", f"{BASE}/events"])
    try:
        op.client.publish(f"{BASE}/request/roll", json.dumps({"id": "kept"}), qos=1, retain=True)
        got = json.loads(op.wait_for(lambda m: m[0] == f"{BASE}/response/roll")[1])
        assert got["ok"] is False and got["id"] == "kept" and "retain" in got["error"]
        # The broker keeps it; a reconnecting service must not receive it again.
        # The answer's PUBACK home first (else paho resends the answer, rightly): the broker sent it to
        # the service before it passed on the fence's request, on the same connection.
        op.fence(BASE)
        connection = bridge_of(toy).client.socket()
        assert isinstance(connection, socket.socket)
        connection.shutdown(socket.SHUT_RDWR)  # the connection drops; paho reconnects
        deadline = time.monotonic() + 5
        while bridge_of(toy).connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)  # poll interval (paho waits at least 0.2 s before reconnecting)
        assert not bridge_of(toy).connected.is_set(), "the service's connection did not drop"
        assert bridge_of(toy).connected.wait(10)
        # Subscribed again (connected is set on the SUBACK): a retained request handed out on the new
        # subscription would have reached the service before this fence's request.
        op.fence(BASE)
        assert len([m for m in op.messages if m[0] == f"{BASE}/response/roll"]) == 1
        assert op.json_on(f"{BASE}/events") == [] and toy.read(lambda s: len(s.match.record.actions)) == 0
    finally:
        op.client.publish(f"{BASE}/request/roll", b"", qos=1, retain=True)  # clear it
        op.close()
