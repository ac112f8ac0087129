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
from datetime import UTC, datetime
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
from tests.test_session import session_for

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


def press_payload(button: dict[str, Any]) -> dict[str, Any]:
    """What Home Assistant publishes when ``button`` is pressed: its command template rendered with
    its template functions (``now()``, a time zone's aware time, as Home Assistant's)."""
    env = jinja2.Environment(autoescape=False)
    env.globals["now"] = lambda: datetime.now(UTC)
    payload: dict[str, Any] = json.loads(env.from_string(button["command_template"]).render(
        value=button.get("payload_press", "PRESS")))
    return payload


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
    assert buttons == {"roll", "undo", "hint", "confirm", "next"}
    for button in ("confirm", "next"):  # the table's buttons: a press request, each press with its own id
        body = configs[f"homeassistant/button/arbitro_b1/{button}/config"]
        assert body["command_topic"] == f"{BASE}/request/press"
        first, second = press_payload(body), press_payload(body)
        assert first["button"] == button and first["id"] != second["id"], (first, second)
        schemas.validator("request", "press").validate(first)
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
        assert (names["confirm"], names["next"]) == ("Confirmar", "Siguiente opción")
        state = service.call(service.public_state)
        turn = {t.split("/")[3]: b for t, b in configs_on_broker(broker.port).items()}["turn"]["value_template"]
        assert render(turn, {**state, "turn": None, "over": True}) == "la partida ha terminado"
    finally:
        service.stop()


def test_home_assistants_next_and_confirm_press_the_tables_buttons_once_each_and_tell_no_card(broker: Broker) -> None:
    """Issue 38.7: *Next choice* and *Confirm* publish what Home Assistant would (their command
    templates rendered) on a real broker; the table's ``next`` moves the player's highlighted card
    on ``player/<n>`` alone (no event, no new state, the answer naming no card), a resend of the same
    press (its id) presses once, a retained press is refused, and ``confirm`` programs the card."""
    service = mqtt_service("serpientes", "b1", broker.port, seed=3, board={"chance": "auto"},
                           mqtt={"homeassistant": True})
    try:
        settled(service)
        player, choices, at = service.read(lambda s: (s.state.current_player, s.choices(), s.choice))
        assert player >= 0 and len(choices) > 1, (player, choices)
        buttons = {t.split("/")[3]: body for t, body in configs_on_broker(broker.port).items()
                   if t.split("/")[1] == "button"}
        watcher = Listener(broker.port, [f"{BASE}/player/{player}", f"{BASE}/state", f"{BASE}/events",
                                         f"{BASE}/response/press"])
        try:
            watcher.wait_for(lambda m: m[0] == f"{BASE}/player/{player}")  # its retained view
            seq = watcher.latest_state(BASE)["seq"]
            start = len(watcher.messages)

            def press(button: str, *, again: bytes | None = None, retain: bool = False) -> bytes:
                payload = again or json.dumps(press_payload(buttons[button])).encode()
                watcher.client.publish(f"{BASE}/request/press", payload, qos=1, retain=retain)
                return payload

            def choice_told(choice: str) -> None:
                watcher.wait_for(lambda m: m[0] == f"{BASE}/player/{player}" and json.loads(m[1])["choice"] == choice,
                                 since=start)

            first = press("next")
            choice_told(choices[(at + 1) % len(choices)])
            press("next", again=first)  # a QoS 1 resend of the same press: the same id, pressed once
            press("next", retain=True)  # a retained press: refused, never run
            watcher.client.publish(f"{BASE}/request/press", b"", qos=1, retain=True)  # none left (itself refused)
            watcher.fence(BASE)
            assert service.read(lambda s: s.choice) == (at + 1) % len(choices)
            answers = [json.loads(p) for t, p, *_ in watcher.messages[start:] if t == f"{BASE}/response/press"]
            pressed = [a for a in answers if a["ok"]]  # a refusal is answered at once: before, maybe
            assert len(answers) == 4 and len(pressed) == 2, answers  # the press and its resend, answered alike
            assert [a["result"] for a in pressed] == [{"pressed": "next"}] * 2 and pressed[0]["id"] == pressed[1]["id"]
            assert "request.retained" in {a.get("code") for a in answers if not a["ok"]}
            assert not any(c in json.dumps(answers) for c in choices)  # the answer names no card
            told = {t for t, *_ in watcher.messages[start:]} - {f"{BASE}/player/{player}", f"{BASE}/response/press"}
            assert told <= {f"{BASE}/state"}, told  # no event at all
            assert {json.loads(p)["seq"] for t, p, *_ in watcher.messages[start:] if t == f"{BASE}/state"} <= {seq}

            chosen = choices[(at + 1) % len(choices)]
            before, public = service.read(lambda s: (len(s.match.record.actions),
                                                     s.state.public_action_text(s.state.action_from_text(chosen))))
            press("confirm")
            action = watcher.wait_for(lambda m: m[0] == f"{BASE}/events" and json.loads(m[1])["type"] == "action",
                                      since=start)
            assert json.loads(action[1])["action"] == public  # told as everyone may see it, as the button's is
            assert service.read(lambda s: s.match.record.actions[before]) == chosen
        finally:
            watcher.close()
    finally:
        service.stop()


def test_a_press_is_the_tables_button_refused_in_words_when_it_can_do_nothing() -> None:
    """The ``press`` request on its own (the session): ``next`` held goes back, as the table's button
    does; ``confirm`` with no choice is refused with the button's reason, and nothing changes."""
    s = session_for("serpientes", seed=3, chance="auto", num_players=4)
    choices, at = s.choices(), s.choice
    assert len(choices) > 1
    assert s.request("press", {"button": "next", "held": True}).answer == (True, {"pressed": "next"})
    assert s.choice == (at - 1) % len(choices)
    before = len(s.match.record.actions)
    assert s.request("press", {"button": "confirm"}).answer == (True, {"pressed": "confirm"})
    assert s.match.record.actions[before] == choices[(at - 1) % len(choices)]  # the highlighted one, taken
    contigo = session_for("contigo")
    moves = len(contigo.match.record.actions)
    refused = contigo.request("press", {"button": "confirm"})
    assert refused.answer is not None and not refused.answer[0]
    assert refused.refusal is not None and refused.refusal.code == "table.refused"
    assert "there is no choice to confirm" in refused.refusal.text
    assert len(contigo.match.record.actions) == moves and "refused" not in [e["type"] for e in refused.events]
