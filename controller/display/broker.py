"""The display's MQTT client. paho's network thread hands each message to the display's asyncio
loop, which does all the rest: the loop is woken once for all the messages that queue up
meanwhile. The display only reads the boards' topics; what it writes (the names, the phone seats'
moves) goes out through :meth:`BrokerLink.publish`."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from controller.display.config import DisplayConfig
from controller.mqtt import BrokerTrouble, set_nodelay

log = logging.getLogger("arbitro.display")

TOPICS = ("state", "events", "events/recent", "status", "names", "player/+", "response/play", "response/consent",
          "response/record")
"""What the display subscribes to, under ``<base>/<board>/``."""


def post(loop: asyncio.AbstractEventLoop | None, fn: Callable[..., None], *args: Any) -> None:
    """From another thread: run ``fn(*args)`` in ``loop`` (nothing once it is closed)."""
    if loop is not None and not loop.is_closed():
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(fn, *args)


def settle(answers: dict[str, asyncio.Future[dict[str, Any]]], payload: bytes) -> None:
    """A service's answer (``payload``) to a request the display sent: the one awaiting its ``id`` in
    ``answers`` gets it; anything else (not JSON, another client's answer) is nobody's here."""
    try:
        answer = json.loads(payload)
    except ValueError:
        return
    request_id = answer.get("id") if isinstance(answer, dict) else None
    waiting = answers.get(request_id) if isinstance(request_id, str) else None
    if waiting is not None and not waiting.done():
        waiting.set_result(answer)


class BrokerLink:
    """The client: ``on_message(topic, payload)`` and ``on_up(up)`` run in the display's loop."""

    def __init__(self, config: DisplayConfig, on_message: Callable[[str, bytes], None],
                 on_up: Callable[[bool], None]) -> None:
        self.config = config
        self.on_message = on_message
        self.on_up = on_up
        self.up = False
        self.client: mqtt.Client | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._inbox: collections.deque[tuple[str, bytes]] = collections.deque()  # from paho's thread
        self._inbox_due = False
        self.trouble = BrokerTrouble(log, "display", config.broker_host, config.broker_port,
                                     tls=config.tls_ca is not None, told=lambda: post(self.loop, self._told))

    @property
    def ready(self) -> bool:
        """Connected: what is published now reaches the broker."""
        return self.client is not None and self.up

    def publish(self, topic: str, payload: str, *, retain: bool = False) -> None:
        assert self.client is not None, "published before start"
        self.client.publish(topic, payload, qos=1, retain=retain)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        c = self.config
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"arbitro-display-{secrets.token_hex(4)}",
                             protocol=mqtt.MQTTv5)
        if c.username:
            client.username_pw_set(c.username, c.password)
        if c.tls_ca is not None:
            client.tls_set(ca_certs=c.tls_ca or None)
        client.reconnect_delay_set(min_delay=0.25, max_delay=2)  # type: ignore[arg-type]  # seconds: back within 2 s
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        self.trouble.watch(client)
        client.on_message = lambda _client, _userdata, m: self._hand_over(m.topic, bytes(m.payload))
        client.connect_async(c.broker_host, c.broker_port, keepalive=10)
        client.loop_start()
        self.client = client

    def stop(self) -> None:
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()

    def _hand_over(self, topic: str, payload: bytes) -> None:
        """In paho's thread: queue the message; the loop is woken once for all that queue up meanwhile."""
        self._inbox.append((topic, payload))
        if not self._inbox_due:
            self._inbox_due = True
            post(self.loop, self._take_inbox)

    def _take_inbox(self) -> None:
        self._inbox_due = False  # before taking: a message queued from now on wakes the loop again
        while self._inbox:
            self.on_message(*self._inbox.popleft())

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        if reason.is_failure:
            self.trouble.refused(reason)
            return
        self.trouble.connected()
        set_nodelay(client)  # acknowledgements go out at once, not after Nagle's wait
        base = self.config.base_topic
        client.subscribe([(f"{base}/+/{t}", 1) for t in TOPICS])
        post(self.loop, self._changed, True)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        post(self.loop, self._changed, False)

    def _told(self) -> None:
        """What is wrong with the broker changed: the pages are told (with the status)."""
        if not self.up:
            self.on_up(False)

    def _changed(self, up: bool) -> None:
        self.up = up
        self.on_up(up)
