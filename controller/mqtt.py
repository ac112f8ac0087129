"""MQTT: the live game for displays, and commands in (paho-mqtt 2.x, MQTT 5).

Topics under ``<base_topic>/<board_id>/`` (see ``docs/mqtt.md`` for every payload):

* ``status``: retained ``online`` / ``offline``; ``offline`` is also the last will.
* ``state``: retained JSON, the whole public game state.
* ``events``: one JSON message per thing that happened, with a sequence number.
* ``request/<command>`` -> ``response/<command>`` (or the MQTT 5 response topic the request
  names), echoing the request's ``id`` and MQTT 5 correlation data.
* ``player/<n>``: retained, what only player n may see (the broker's ACL protects it).

State and events go at QoS 1. Paho keeps QoS 1 messages published while the broker is away and
sends them, in order, once it is back; on every (re)connect the bridge republishes ``status`` and
the last ``state`` (a restarted broker may have lost its retained messages).

The bridge never touches the game: requests become :class:`Command` events posted to the service's
loop, which answers through ``Command.reply``.
"""

from __future__ import annotations

import json
import logging
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.config import MqttConfig

log = logging.getLogger("arbitro.mqtt")

MAX_REQUEST_BYTES = 4096
COMMANDS = ("new_game", "undo", "roll", "enter", "choose", "resign", "configure", "state")


@dataclass(frozen=True)
class Command:
    """A request from MQTT, for the service's loop. ``reply`` publishes the answer."""

    name: str
    args: dict[str, Any]
    reply: Callable[[bool, Any], None]


def set_nodelay(client: mqtt.Client) -> None:
    """Send small packets at once: paho leaves Nagle's algorithm on, which with delayed ACKs costs
    tens of milliseconds per request/answer round trip."""
    sock = client.socket()
    if sock is not None and hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttBridge:
    """One paho client: publishes the board's topics, turns requests into :class:`Command` events."""

    def __init__(self, cfg: MqttConfig, board_id: str, post: Callable[[object], None],
                 client_id: str | None = None) -> None:
        self.cfg = cfg
        self.base = f"{cfg.base_topic}/{board_id}"
        self.board_id = board_id
        self.post = post
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self._state: bytes | None = None
        self._private: dict[int, bytes] = {}
        self._event_seq = 0
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"arbitro-{board_id}",
                        protocol=mqtt.MQTTv5)
        if cfg.username:
            c.username_pw_set(cfg.username, cfg.password or None)
        if cfg.tls:
            c.tls_set(ca_certs=cfg.ca_certs or None, cert_reqs=ssl.CERT_REQUIRED)
        c.will_set(f"{self.base}/status", b"offline", qos=1, retain=True)
        c.reconnect_delay_set(min_delay=0.2, max_delay=5)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> None:
        self.client.connect_async(self.cfg.host, self.cfg.port, keepalive=self.cfg.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        if self.connected.is_set():
            self.client.publish(f"{self.base}/status", b"offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object = None) -> None:
        if reason.is_failure:
            log.warning("MQTT broker refused the connection: %s", reason)
            return
        log.info("MQTT connected to %s:%s", self.cfg.host, self.cfg.port)
        set_nodelay(client)
        client.subscribe(f"{self.base}/request/+", qos=1)
        client.publish(f"{self.base}/status", b"online", qos=1, retain=True)
        with self._lock:
            if self._state is not None:
                client.publish(f"{self.base}/state", self._state, qos=1, retain=True)
            for player, payload in self._private.items():
                client.publish(f"{self.base}/player/{player}", payload, qos=1, retain=True)
            self.connected.set()
        if self.cfg.homeassistant:
            client.subscribe(f"{self.cfg.discovery_prefix}/status", qos=1)
            self._publish_discovery()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object = None) -> None:
        with self._lock:
            self.connected.clear()
        log.warning("MQTT disconnected (%s); reconnecting", reason)

    # -- publishing (any thread) -----------------------------------------------------------------

    def publish_state(self, state: dict[str, Any]) -> None:
        payload = json.dumps(state, separators=(",", ":")).encode()
        with self._lock:  # while away, only the latest state matters: it goes out on (re)connect
            self._state = payload
            if self.connected.is_set():
                self.client.publish(f"{self.base}/state", payload, qos=1, retain=True)

    def publish_event(self, event: dict[str, Any]) -> int:
        """Publish one event (QoS 1, queued while the broker is away); returns its sequence number."""
        with self._lock:
            self._event_seq += 1
            seq = self._event_seq
        payload = json.dumps({"seq": seq, **event}, separators=(",", ":")).encode()
        self.client.publish(f"{self.base}/events", payload, qos=1)
        return seq

    def publish_private(self, player: int, data: dict[str, Any]) -> None:
        payload = json.dumps(data, separators=(",", ":")).encode()
        with self._lock:
            if self._private.get(player) == payload:
                return
            self._private[player] = payload
            if self.connected.is_set():
                self.client.publish(f"{self.base}/player/{player}", payload, qos=1, retain=True)

    # -- requests ----------------------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if self.cfg.homeassistant and msg.topic == f"{self.cfg.discovery_prefix}/status":
            if msg.payload == b"online":
                self._publish_discovery()
            return
        name = msg.topic.rsplit("/", 1)[-1]
        props = getattr(msg, "properties", None)
        response_topic = getattr(props, "ResponseTopic", None) or f"{self.base}/response/{name}"
        correlation = getattr(props, "CorrelationData", None)
        request_id: Any = None

        def reply(ok: bool, result: Any) -> None:
            body: dict[str, Any] = {"id": request_id, "command": name, "ok": ok}
            body["result" if ok else "error"] = result
            out = Properties(PacketTypes.PUBLISH)
            if correlation is not None:
                out.CorrelationData = correlation
            client.publish(response_topic, json.dumps(body, separators=(",", ":")), qos=1,
                           properties=out if correlation is not None else None)

        if len(msg.payload) > MAX_REQUEST_BYTES:
            reply(False, f"request too large: {len(msg.payload)} bytes, at most {MAX_REQUEST_BYTES}")
            return
        try:
            args = json.loads(msg.payload.decode("utf-8")) if msg.payload else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            reply(False, f"the request is not JSON: {exc}")
            return
        if not isinstance(args, dict):
            reply(False, "the request must be a JSON object")
            return
        raw_id = args.pop("id", None)
        if raw_id is not None and not (isinstance(raw_id, str | int) and not isinstance(raw_id, bool)
                                       and len(str(raw_id)) <= 128):
            reply(False, "id must be a string or an integer of at most 128 characters")
            return
        request_id = raw_id
        if name not in COMMANDS:
            reply(False, f"unknown command {name!r}; commands: {', '.join(COMMANDS)}")
            return
        self.post(Command(name, args, reply))

    # -- Home Assistant discovery ----------------------------------------------------------------

    def _publish_discovery(self) -> None:
        node = f"arbitro_{self.board_id}"
        device = {"identifiers": [node], "name": f"arbitro {self.board_id}", "manufacturer": "arbitro"}
        availability = {"availability_topic": f"{self.base}/status", "payload_available": "online",
                        "payload_not_available": "offline"}
        entities = {
            f"binary_sensor/{node}/online/config": {
                "name": "Board online", "unique_id": f"{node}_online", "state_topic": f"{self.base}/status",
                "payload_on": "online", "payload_off": "offline", "device_class": "connectivity", "device": device},
            f"sensor/{node}/current_player/config": {
                "name": "Current player", "unique_id": f"{node}_current_player", "state_topic": f"{self.base}/state",
                "value_template": "{{ value_json.turn }}", "device": device, **availability},
            f"sensor/{node}/scores/config": {
                "name": "Scores", "unique_id": f"{node}_scores", "state_topic": f"{self.base}/state",
                "value_template": "{{ value_json.scores | join(', ') }}", "device": device, **availability},
        }
        for topic, body in entities.items():
            self.client.publish(f"{self.cfg.discovery_prefix}/{topic}", json.dumps(body), qos=1, retain=True)
