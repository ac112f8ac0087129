"""``arbitro forget BOARD``: clear a board's retained topics from a broker (docs/mqtt.md, A hall).

A board that is gone for good (a test board, a Pi moved to another hall) leaves its retained
messages on the broker: its state, status, info, events/recent, player/<n>, the display's names,
its Home Assistant discovery. Every new subscriber would be handed them. This empties each one
(a zero-length retained message deletes it); Home Assistant removes the entities whose
configuration is emptied, and the display drops a board whose state is.

It finds them by subscribing (``<base>/<board>/#`` and ``<prefix>/+/arbitro_<board>/+/config``):
the broker hands over what it keeps; a message of its own, published after subscribing, marks the
end of them (one session: the broker delivers in order).
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

import paho.mqtt.client as mqtt

from controller import homeassistant
from controller.config import MqttConfig


class ForgetError(RuntimeError):
    """The broker could not be reached, refused us, or a board that is online was named."""


@dataclass
class Forgotten:
    topics: list[str]  # the retained topics emptied, in order


def forget(cfg: MqttConfig, board: str, *, even_online: bool = False, timeout: float = 10.0) -> Forgotten:
    """Empty every retained topic of ``board`` on the broker of ``cfg``. A board whose ``status``
    is ``online`` is refused (it would publish them all again) unless ``even_online``."""
    base = f"{cfg.base_topic}/{board}"
    marker = f"{base}/forget/{secrets.token_hex(8)}"  # read back by us alone: never retained
    found: dict[str, bytes] = {}
    done, connected = threading.Event(), threading.Event()
    refused: list[str] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"arbitro-forget-{secrets.token_hex(4)}",
                         protocol=mqtt.MQTTv5)
    if cfg.username:
        client.username_pw_set(cfg.username, cfg.password or None)
    if cfg.tls:
        client.tls_set(ca_certs=cfg.ca_certs or None, certfile=cfg.certfile or None, keyfile=cfg.keyfile or None)

    def on_connect(c: mqtt.Client, u: object, f: object, reason: object, p: object = None) -> None:
        if getattr(reason, "is_failure", False):
            refused.append(str(reason))
            done.set()
            return
        c.subscribe([(f"{base}/#", 1), (homeassistant.mine(cfg, board), 1)])
        connected.set()

    def on_subscribe(c: mqtt.Client, u: object, mid: int, codes: object, p: object = None) -> None:
        c.publish(marker, b"end", qos=1)

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        if m.topic == marker:
            done.set()
        elif m.retain and m.payload:
            found[m.topic] = bytes(m.payload)

    client.on_connect, client.on_subscribe, client.on_message = on_connect, on_subscribe, on_message
    try:
        client.connect(cfg.host, cfg.port, keepalive=30)
    except OSError as exc:
        raise ForgetError(f"MQTT broker {cfg.host}:{cfg.port} is not reachable: {exc.strerror or exc}") from exc
    client.loop_start()
    try:
        if not done.wait(timeout):
            raise ForgetError(f"MQTT broker {cfg.host}:{cfg.port} did not hand over the retained topics of {board} "
                              f"within {timeout:g} s (may this account read {base}/#?)")
        if refused:
            raise ForgetError(f"MQTT broker {cfg.host}:{cfg.port} refused the connection: {refused[0]}")
        if found.get(f"{base}/status") == b"online" and not even_online:
            raise ForgetError(f"board {board} is online: stop its service first (or --even-online; it will "
                              "publish its topics again)")
        infos = [client.publish(topic, b"", qos=1, retain=True) for topic in sorted(found)]
        for info in infos:
            info.wait_for_publish(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    return Forgotten(sorted(found))
