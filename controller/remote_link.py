"""The service's side of a remote game on MQTT: its own paho client on the board's broker.

The two boards' brokers are bridged (``docs/remote.md``; :func:`bridge_stanza` writes the bridge
for this board's Mosquitto). Each service publishes on its own board's topics and reads the other
board's, which the bridge brings in:

* ``<base>/<board>/remote/wire``: each action this board accepted (``controller.remote.Wire``), QoS 1;
* ``<base>/<board>/remote/status``: retained, this board's ``Sync.status()`` and ``link``, which
  names each connection of this client: a status with a ``link`` not seen before is
  answered with this board's own status once, so that after an outage each board learns what the
  other lacks, and sends it again (nothing else of either board crosses the bridge).

Like the other adapters it only posts :class:`RemoteIn` events to the service's loop.
"""

from __future__ import annotations

import json
import logging
import secrets
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.config import MqttConfig, RemoteConfig
from controller.remote import Wire

log = logging.getLogger("arbitro.remote")

MAX_REMOTE_BYTES = 256 * 1024  # a status may carry the host's whole record at the end (hidden cards)


@dataclass(frozen=True)
class RemoteIn:
    """A message from the other board: ``wire`` or ``status``, its JSON object."""

    kind: str
    data: dict[str, Any]


def bridge_stanza(base_topic: str, board: str, remote: RemoteConfig) -> str:
    """The Mosquitto bridge from this board's broker to the other board's (``/etc/mosquitto/conf.d/``):
    this board's remote topics out, the other's in, over TLS with this board's account there."""
    lines = [
        f"# arbitro remote game: board {board} <-> board {remote.peer} (docs/remote.md)",
        f"connection arbitro-remote-{board}",
        f"address {remote.address}",
        f"remote_clientid arbitro-remote-{board}",
        "bridge_protocol_version mqttv50",
        "cleansession false",
        "start_type automatic",
        "restart_timeout 1 10",
        f"topic {base_topic}/{board}/remote/# out 1",
        f"topic {base_topic}/{remote.peer}/remote/# in 1",
        "notifications true",
        f"notification_topic {base_topic}/{board}/remote/bridge",
    ]
    if remote.cafile:
        lines += [f"bridge_cafile {remote.cafile}", "bridge_insecure false", "bridge_tls_version tlsv1.2"]
    if remote.username:
        lines += [f"remote_username {remote.username}", f"remote_password {remote.password}"]
    return "\n".join(lines) + "\n"


class RemoteLink:
    """Publishes this board's wires and status, posts the other board's as :class:`RemoteIn`."""

    def __init__(self, cfg: MqttConfig, board: str, peer: str, post: Callable[[object], None]) -> None:
        self.cfg = cfg
        self.mine = f"{cfg.base_topic}/{board}/remote"
        self.theirs = f"{cfg.base_topic}/{peer}/remote"
        self.post = post
        self._lock = threading.Lock()
        self._status: dict[str, Any] | None = None  # this board's last status, sent again on each connection
        self._run = secrets.token_hex(4)  # this client's life: with a count, names each connection
        self._link = 0
        self._seen_links: set[str] = set()
        self.connected = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"arbitro-remote-{board}", protocol=mqtt.MQTTv5)
        if cfg.username:
            c.username_pw_set(cfg.username, cfg.password or None)
        if cfg.tls:
            c.tls_set(ca_certs=cfg.ca_certs or None, certfile=cfg.certfile or None, keyfile=cfg.keyfile or None,
                      cert_reqs=ssl.CERT_REQUIRED)
        c.reconnect_delay_set(min_delay=0.2, max_delay=2)  # type: ignore[arg-type]  # seconds, a float is fine
        c.on_connect = self._on_connect
        c.on_disconnect = lambda *args: self.connected.clear()
        c.on_message = self._on_message
        self.client = c

    def start(self) -> None:
        self.client.connect_async(self.cfg.host, self.cfg.port, keepalive=self.cfg.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object = None) -> None:
        if reason.is_failure:
            log.warning("remote: the broker refused the connection: %s", reason)
            return
        client.subscribe([(f"{self.theirs}/wire", 1), (f"{self.theirs}/status", 1)])
        with self._lock:
            self._link += 1
            self._publish_status()
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        kind = msg.topic.removeprefix(f"{self.theirs}/")
        if kind not in ("wire", "status") or not msg.payload or len(msg.payload) > MAX_REMOTE_BYTES:
            return
        try:
            data = json.loads(msg.payload)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            log.warning("remote: a %s that is not JSON was dropped", kind)
            return
        if not isinstance(data, dict):
            return
        if kind == "status" and isinstance(data.get("link"), str) and data["link"] not in self._seen_links:
            self._seen_links.add(data["link"])
            with self._lock:  # the other board connected again: it hears what this board has
                self._publish_status()
        self.post(RemoteIn(kind, data))

    def send(self, wires: Sequence[Wire], status: dict[str, Any]) -> None:
        """This board's new (or asked-for) wires, in order, then its status (retained)."""
        with self._lock:
            for wire in wires:
                self.client.publish(f"{self.mine}/wire", json.dumps(wire.to_json(), separators=(",", ":")), qos=1)
            self._status = status
            self._publish_status()

    def _publish_status(self) -> None:
        if self._status is not None:
            body = json.dumps({**self._status, "link": f"{self._run}:{self._link}"}, separators=(",", ":"))
            self.client.publish(f"{self.mine}/status", body, qos=1, retain=True)
