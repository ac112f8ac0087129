"""Home Assistant MQTT discovery for one board (docs/mqtt.md, Home Assistant).

Following Home Assistant's MQTT discovery documentation
(https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery) and Zigbee2MQTT's way of using
it: every configuration names its ``origin`` (arbitro) and one device per board (model = the
game, ``sw_version``, ``configuration_url`` = the board's page on the display when
``mqtt.display_url`` is set); every entity but *Board online* is available while ``status`` is
``online``. The entities' names are in the board's language.

:func:`configs` is pure: the configurations for what the board is now (its ``info`` and ``state``);
:class:`~controller.mqtt.MqttBridge` publishes them, and empties (removes in Home Assistant) any
configuration of this board that is not among them: a score of a player the game no longer has,
and what a board ``forget`` left.
"""

from __future__ import annotations

import json
from typing import Any

from controller.config import MqttConfig
from controller.games import game_names
from controller.games.base import Phrase
from controller.i18n import say

ONLINE = Phrase("ha.online", "Board online")
TURN = Phrase("ha.turn", "Whose turn")
PHASE = Phrase("ha.phase", "Phase")
LAST_MOVE = Phrase("ha.last_move", "Last move")
VIOLATION = Phrase("ha.violation", "Violation")
SCORE = Phrase("ha.score", "Score of player {number}")
ROLL = Phrase("ha.roll", "Roll the dice")
UNDO = Phrase("ha.undo", "Undo")
HINT = Phrase("ha.hint", "Hint")
CONFIRM = Phrase("ha.confirm", "Confirm")
NEXT = Phrase("ha.next", "Next choice")
GAME = Phrase("ha.game", "Game")
CHANCE_STEP = Phrase("ha.chance_step", "a chance step")
GAME_OVER = Phrase("ha.game_over", "the game is over")
NO_VIOLATION = Phrase("ha.no_violation", "none")
NO_MOVE = Phrase("ha.no_move", "no move yet")

BUTTONS = (("roll", ROLL), ("undo", UNDO), ("hint", HINT))
"""The buttons, each the request of the same name (controller/commands.py) with no arguments."""
TABLE_BUTTONS = (("confirm", CONFIRM), ("next", NEXT))
"""The table's buttons with no request of their own: each a ``press`` request."""
PRESS_TEMPLATE = '{{"button": "{button}", "id": "ha-{button}-{{{{ now().timestamp() }}}}"}}'
"""A press's payload: its own id, made by Home Assistant from the moment of the press (its template
function ``now()``), so that a resend of it presses once and every press presses."""


def node(board_id: str) -> str:
    """The board's node id in discovery topics and unique ids."""
    return f"arbitro_{board_id}"


def mine(cfg: MqttConfig, board_id: str) -> str:
    """The subscription that holds every discovery configuration of the board."""
    return f"{cfg.discovery_prefix}/+/{node(board_id)}/+/config"


def _literal(text: str) -> str:
    """``text`` as a Jinja string literal (JSON's escaping is one Jinja reads)."""
    return json.dumps(text)


def configs(cfg: MqttConfig, board_id: str, language: str, info: dict[str, Any] | None,
            state: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Discovery topic -> configuration, for the board as ``info`` and ``state`` say it is now."""
    base, n = f"{cfg.base_topic}/{board_id}", node(board_id)
    info = info or {}
    device: dict[str, Any] = {"identifiers": [n], "name": f"arbitro {board_id}", "manufacturer": "arbitro"}
    if info.get("title") or info.get("game"):
        device["model"] = str(info.get("title") or info.get("game"))
    if info.get("arbitro"):
        device["sw_version"] = str(info["arbitro"])
    if cfg.display_url:
        device["configuration_url"] = f"{cfg.display_url.rstrip('/')}/board/{board_id}"
    origin = {"name": "arbitro", "support_url": "https://arbitro.example/docs/mqtt.md#home-assistant"}
    if info.get("arbitro"):
        origin["sw_version"] = str(info["arbitro"])
    common = {"device": device, "origin": origin}
    available = {"availability_topic": f"{base}/status", "payload_available": "online",
                 "payload_not_available": "offline"}

    def said(phrase: Phrase, **params: object) -> str:
        return say(phrase(**params), language)

    def sensor(key: str, name: str, template: str, **more: Any) -> tuple[str, dict[str, Any]]:
        return (f"{cfg.discovery_prefix}/sensor/{n}/{key}/config",
                {"name": name, "unique_id": f"{n}_{key}", "object_id": f"{n}_{key}", "state_topic": f"{base}/state",
                 "value_template": template, **available, **more, **common})

    turn = ("{% set t = value_json.turn %}{% if t is number %}{{ t + 1 }} · {{ value_json.players[t].name }}"
            f"{{% elif value_json.over %}}{{{{ {_literal(said(GAME_OVER))} }}}}"
            f"{{% else %}}{{{{ {_literal(said(CHANCE_STEP))} }}}}{{% endif %}}")
    last = ("{% if value_json.last_action_words is defined %}{{ value_json.last_action_words.text }}"
            "{% elif value_json.last_action %}{{ value_json.last_action }}"
            f"{{% else %}}{{{{ {_literal(said(NO_MOVE))} }}}}{{% endif %}}")
    violation = ("{% if value_json.violation %}{{ value_json.violation.message }}"
                 f"{{% else %}}{{{{ {_literal(said(NO_VIOLATION))} }}}}{{% endif %}}")
    out = dict([
        sensor("turn", said(TURN), turn, icon="mdi:account-arrow-right"),
        sensor("phase", said(PHASE), "{{ value_json.phase }}"),
        sensor("last_move", said(LAST_MOVE), last),
        sensor("violation", said(VIOLATION), violation, icon="mdi:alert"),
    ])
    out[f"{cfg.discovery_prefix}/binary_sensor/{n}/online/config"] = {
        "name": said(ONLINE), "unique_id": f"{n}_online", "object_id": f"{n}_online",
        "state_topic": f"{base}/status", "payload_on": "online", "payload_off": "offline",
        "device_class": "connectivity", "entity_category": "diagnostic", **common}
    for p in range(len((state or {}).get("players") or ())):
        topic, body = sensor(f"score_{p + 1}", said(SCORE, number=p + 1), f"{{{{ value_json.scores[{p}] }}}}",
                             state_class="measurement")
        out[topic] = body
    def button(key: str, phrase: Phrase, request: str, **payload: str) -> tuple[str, dict[str, Any]]:
        return (f"{cfg.discovery_prefix}/button/{n}/{key}/config",
                {"name": said(phrase), "unique_id": f"{n}_{key}", "object_id": f"{n}_{key}",
                 "command_topic": f"{base}/request/{request}", **payload, **available, **common})

    out.update(button(command, phrase, command, payload_press="{}") for command, phrase in BUTTONS)
    out.update(button(key, phrase, "press", command_template=PRESS_TEMPLATE.format(button=key))
               for key, phrase in TABLE_BUTTONS)
    out[f"{cfg.discovery_prefix}/select/{n}/game/config"] = {
        "name": said(GAME), "unique_id": f"{n}_game", "object_id": f"{n}_game", "entity_category": "config",
        "state_topic": f"{base}/state", "value_template": "{{ value_json.game }}", "options": list(game_names()),
        "command_topic": f"{base}/request/new_game", "command_template": '{"game": {{ value | tojson }}}',
        **available, **common}
    return out
