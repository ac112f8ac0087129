"""Issue 38.7: Home Assistant discovery as its documentation describes it, over a real Mosquitto.

The tables below are taken from Home Assistant's MQTT documentation:
https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery (discovery payloads, the
abbreviations, ``origin`` and ``device``) and the pages of each component:
https://www.home-assistant.io/integrations/sensor.mqtt/, .../binary_sensor.mqtt/,
.../button.mqtt/, .../select.mqtt/. The value templates are rendered with Jinja2, as Home
Assistant renders them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import jinja2
import pytest

from controller import schemas
from controller.games import game_names
from controller.localbroker import Broker
from controller.mqtt import COMMANDS
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import bridge_of, mqtt_service

BASE = "arbitro/b1"
DISPLAY = "http://hall.example:8080"

# -- Home Assistant's documented keys (the URLs above) ------------------------------------------------

ABBREVIATIONS = {  # the ones of the keys these entities may use
    "avty": "availability", "avty_mode": "availability_mode", "avty_t": "availability_topic",
    "avty_tpl": "availability_template", "cmd_t": "command_topic", "cmd_tpl": "command_template",
    "dev": "device", "dev_cla": "device_class", "e": "encoding", "en": "enabled_by_default",
    "ent_cat": "entity_category", "exp_aft": "expire_after", "frc_upd": "force_update", "ic": "icon",
    "json_attr_t": "json_attributes_topic", "json_attr_tpl": "json_attributes_template", "name": "name",
    "o": "origin", "obj_id": "object_id", "off_dly": "off_delay", "ops": "options", "opt": "optimistic",
    "pl_avail": "payload_available", "pl_not_avail": "payload_not_available", "pl_off": "payload_off",
    "pl_on": "payload_on", "pl_prs": "payload_press", "qos": "qos", "ret": "retain", "stat_cla": "state_class",
    "stat_t": "state_topic", "uniq_id": "unique_id", "unit_of_meas": "unit_of_measurement",
    "val_tpl": "value_template",
}
DEVICE_ABBREVIATIONS = {"cns": "connections", "cu": "configuration_url", "hw": "hw_version", "ids": "identifiers",
                        "mf": "manufacturer", "mdl": "model", "mdl_id": "model_id", "name": "name",
                        "sa": "suggested_area", "sn": "serial_number", "sw": "sw_version", "via_device": "via_device"}
ORIGIN_ABBREVIATIONS = {"name": "name", "sw": "sw_version", "url": "support_url"}
COMMON = {"availability", "availability_mode", "availability_template", "availability_topic", "device",
          "enabled_by_default", "encoding", "entity_category", "icon", "json_attributes_template",
          "json_attributes_topic", "name", "object_id", "origin", "payload_available", "payload_not_available",
          "qos", "unique_id"}
COMPONENTS: dict[str, tuple[set[str], set[str]]] = {  # component: (its own keys, those required)
    "sensor": ({"device_class", "expire_after", "force_update", "state_class", "state_topic",
                "unit_of_measurement", "value_template", "options", "suggested_display_precision"}, {"state_topic"}),
    "binary_sensor": ({"device_class", "expire_after", "force_update", "off_delay", "payload_off", "payload_on",
                       "state_topic", "value_template"}, {"state_topic"}),
    "button": ({"command_template", "command_topic", "device_class", "payload_press", "retain"}, {"command_topic"}),
    "select": ({"command_template", "command_topic", "optimistic", "options", "retain", "state_topic",
                "value_template"}, {"command_topic", "options"}),
}
ENTITY_CATEGORIES = {"config", "diagnostic"}


def expanded(body: dict[str, Any], table: dict[str, str]) -> dict[str, Any]:
    """``body`` with its abbreviated keys written out; an unknown key stays as it is (and fails)."""
    full = set(table.values())
    return {k if k in full else table.get(k, k): v for k, v in body.items()}


def retained_on_broker(port: int, topics: list[str]) -> dict[str, bytes]:
    """What a new subscriber to ``topics`` is handed now: the retained messages (not emptied)."""
    marker = f"test/marker/{uuid.uuid4().hex}"
    viewer = Listener(port, [*topics, marker])
    try:
        viewer.client.publish(marker, b"x", qos=1)
        viewer.wait_for(lambda m: m[0] == marker)  # after the retained ones: one session, in order
        return {t: p for t, p, retained, _ in viewer.messages if retained and p}
    finally:
        viewer.close()


def configs_on_broker(port: int) -> dict[str, dict[str, Any]]:
    """The discovery configurations retained on the broker now."""
    return {t: json.loads(p) for t, p in retained_on_broker(port, ["homeassistant/#"]).items()}


def private_topics_on_broker(port: int) -> set[str]:
    return set(retained_on_broker(port, [f"{BASE}/player/+"]))


def settled(service: Service) -> None:
    assert bridge_of(service).flush(), "the broker did not take everything the service published"


@pytest.fixture
def contigo(broker: Broker) -> Iterator[Service]:
    service = mqtt_service("contigo", "b1", broker.port, seed=3,
                           mqtt={"homeassistant": True, "display_url": DISPLAY})
    settled(service)
    yield service
    service.stop()


def render(template: str, state: dict[str, Any]) -> str:
    env = jinja2.Environment(undefined=jinja2.ChainableUndefined, autoescape=False)
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False}
    return env.from_string(template).render(value_json=state, value=json.dumps(state))


def test_discovery_uses_only_home_assistants_documented_keys(contigo: Service, broker: Broker) -> None:
    configs = configs_on_broker(broker.port)
    state = contigo.call(contigo.public_state)
    components = {topic.split("/")[1] for topic in configs}
    assert components == set(COMPONENTS), components
    ids = [body["unique_id"] for body in configs.values()]
    assert len(ids) == len(set(ids)), ids
    for topic, raw in configs.items():
        schemas.validator("discovery").validate(raw)
        component = topic.split("/")[1]
        body = expanded(raw, ABBREVIATIONS)
        own, required = COMPONENTS[component]
        assert set(body) <= COMMON | own, (topic, set(body) - COMMON - own)
        assert required <= set(body), (topic, required - set(body))
        assert body.get("entity_category", "config") in ENTITY_CATEGORIES, topic
        device = expanded(body["device"], DEVICE_ABBREVIATIONS)
        origin = expanded(body["origin"], ORIGIN_ABBREVIATIONS)
        assert set(device) <= set(DEVICE_ABBREVIATIONS.values()) and set(origin) <= set(ORIGIN_ABBREVIATIONS.values())
        assert device["model"] == state["title"] and device["sw_version"] and origin["name"] == "arbitro"
        assert device["configuration_url"] == f"{DISPLAY}/board/b1"
        if topic.endswith("/online/config"):
            assert body["state_topic"] == f"{BASE}/status" and body["entity_category"] == "diagnostic"
        else:  # available while the board is
            assert (body["availability_topic"], body["payload_available"]) == (f"{BASE}/status", "online")
        if "command_topic" in body:  # wired to a request of the command table
            command = body["command_topic"].removeprefix(f"{BASE}/request/")
            assert command in COMMANDS, body["command_topic"]
    buttons = {t.split("/")[3] for t in configs if t.split("/")[1] == "button"}
    assert buttons == {"roll", "undo", "hint"}
    game = configs["homeassistant/select/arbitro_b1/game/config"]
    assert game["options"] == list(game_names()) and game["entity_category"] == "config"
    assert json.loads(jinja2.Environment().from_string(game["command_template"]).render(value="serpientes")) == {
        "game": "serpientes"}


def test_the_sensors_say_the_turn_by_name_from_one_and_the_scores_as_numbers(contigo: Service,
                                                                            broker: Broker) -> None:
    configs = configs_on_broker(broker.port)
    sensor = {t.split("/")[3]: body for t, body in configs.items() if t.split("/")[1] == "sensor"}
    assert set(sensor) == {"turn", "phase", "last_move", "violation", "score_1", "score_2"}
    state = contigo.call(contigo.public_state)
    assert render(sensor["turn"]["value_template"], {**state, "turn": 1}) == f"2 · {state['players'][1]['name']}"
    assert render(sensor["turn"]["value_template"], {**state, "turn": None}) == "a chance step"
    assert render(sensor["turn"]["value_template"], {**state, "turn": None, "over": True}) == "the game is over"
    assert render(sensor["phase"]["value_template"], state) == state["phase"]
    assert render(sensor["last_move"]["value_template"], state) == "no move yet"
    moved = {**state, "last_action": "a1", "last_action_words": {"code": "x", "params": {}, "text": "red plays a1"}}
    assert render(sensor["last_move"]["value_template"], moved) == "red plays a1"
    assert render(sensor["violation"]["value_template"], state) == "none"
    wrong = {**state, "violation": {"message": "a piece should not be at a1", "channels": ["a1"]}}
    assert render(sensor["violation"]["value_template"], wrong) == "a piece should not be at a1"
    for n in (1, 2):
        assert sensor[f"score_{n}"]["state_class"] == "measurement"
        assert float(render(sensor[f"score_{n}"]["value_template"], state)) == state["scores"][n - 1]
    for body in sensor.values():  # never None, never empty
        assert render(body["value_template"], state) not in ("None", ""), body["name"]


def test_four_then_two_players_leave_no_stale_entity_or_seat(contigo: Service, broker: Broker) -> None:
    operator = Listener(broker.port, [])
    try:
        assert operator.request(BASE, "new_game", {"num_players": 4})["ok"]
        settled(contigo)
        four = configs_on_broker(broker.port)
        assert {t for t in four if "/score_" in t} == {f"homeassistant/sensor/arbitro_b1/score_{n}/config"
                                                      for n in (1, 2, 3, 4)}
        assert private_topics_on_broker(broker.port) == {f"{BASE}/player/{p}" for p in range(4)}
        assert operator.request(BASE, "new_game", {"num_players": 2})["ok"]
        settled(contigo)
        two = configs_on_broker(broker.port)
        assert set(two) == set(four) - {f"homeassistant/sensor/arbitro_b1/score_{n}/config" for n in (3, 4)}
        assert private_topics_on_broker(broker.port) == {f"{BASE}/player/{p}" for p in range(2)}
    finally:
        operator.close()


def test_another_game_after_a_restart_leaves_no_stale_entity_or_seat(broker: Broker) -> None:
    """A board set up for another game (its layout changed, the service restarted) with fewer players:
    what the earlier run left retained is removed."""
    first = mqtt_service("contigo", "b1", broker.port, seed=3, mqtt={"homeassistant": True})
    operator = Listener(broker.port, [])
    try:
        assert operator.request(BASE, "new_game", {"num_players": 4})["ok"]
        settled(first)
    finally:
        operator.close()
        first.stop()
    assert len([t for t in configs_on_broker(broker.port) if "/score_" in t]) == 4
    again = mqtt_service("serpientes", "b1", broker.port, seed=3, board={"num_players": 3},
                         mqtt={"homeassistant": True})
    try:
        settled(again)
        state = again.call(again.public_state)
        assert state["game"] == "serpientes" and len(state["players"]) == 3
        configs = configs_on_broker(broker.port)
        assert {t for t in configs if "/score_" in t} == {f"homeassistant/sensor/arbitro_b1/score_{n}/config"
                                                         for n in (1, 2, 3)}
        assert {body["device"]["model"] for body in configs.values()} == {state["title"]}
        assert private_topics_on_broker(broker.port) == {f"{BASE}/player/{p}" for p in range(3)}
    finally:
        again.stop()


def test_the_entities_are_named_in_the_boards_language(broker: Broker) -> None:
    service = mqtt_service("contigo", "b1", broker.port, seed=3, board={"language": "es"},
                           mqtt={"homeassistant": True})
    try:
        settled(service)
        names = {t.split("/")[3]: body["name"] for t, body in configs_on_broker(broker.port).items()}
        assert (names["turn"], names["undo"], names["score_2"]) == ("Turno de", "Deshacer", "Puntos del jugador 2")
        state = service.call(service.public_state)
        turn = {t.split("/")[3]: b for t, b in configs_on_broker(broker.port).items()}["turn"]["value_template"]
        assert render(turn, {**state, "turn": None, "over": True}) == "la partida ha terminado"
    finally:
        service.stop()
