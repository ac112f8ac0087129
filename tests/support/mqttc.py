"""A test MQTT client: collects messages per topic, sends requests and waits for answers."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.mqtt import set_nodelay


class Listener:
    """Subscribes to ``topics`` and keeps every message, in arrival order."""

    def __init__(self, port: int, topics: list[str], *, username: str | None = None, password: str | None = None,
                 client_id: str | None = None, reply_topic: str | None = None, tls_ca: str | None = None,
                 wait: bool = True) -> None:
        self.messages: list[tuple[str, bytes, bool, Any]] = []
        self.cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"t-{uuid.uuid4().hex[:8]}",
                                  protocol=mqtt.MQTTv5)
        if username:
            self.client.username_pw_set(username, password)
        self.connected = threading.Event()
        self.refused: list[Any] = []
        self.reply_topic = reply_topic or f"test/replies/{uuid.uuid4().hex}"
        self._waiting: dict[bytes, queue.Queue] = {}

        def on_connect(c, u, f, reason, p=None):
            if reason.is_failure:
                self.refused.append(reason)
                return
            set_nodelay(c)
            for t in [*topics, self.reply_topic]:
                c.subscribe(t, qos=1)
            self.connected.set()

        def on_message(c, u, m):
            if m.topic == self.reply_topic:
                corr = getattr(m.properties, "CorrelationData", None)
                if corr in self._waiting:
                    self._waiting.pop(corr).put(m)
                return
            with self.cond:
                self.messages.append((m.topic, m.payload, m.retain, getattr(m, "properties", None)))
                self.cond.notify_all()

        self.client.on_connect = on_connect
        self.client.on_message = on_message
        if tls_ca:
            self.client.tls_set(ca_certs=tls_ca)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not wait:
            return
        if not self.connected.wait(10) and not self.refused:
            raise TimeoutError("test client could not connect")
        time.sleep(0.05)  # let the subscriptions be granted

    def wait_for(self, predicate, timeout: float = 10.0, since: int = 0):
        """The first message (topic, payload, retain, properties) from index ``since`` on for which
        ``predicate`` holds."""
        deadline = time.monotonic() + timeout
        seen = since
        with self.cond:
            while True:
                for m in self.messages[seen:]:
                    if predicate(m):
                        return m
                seen = len(self.messages)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no matching message; got {[(t, p[:80]) for t, p, *_ in self.messages[-5:]]}")
                self.cond.wait(left)

    def json_on(self, topic: str) -> list[dict]:
        with self.cond:
            return [json.loads(p) for t, p, *_ in self.messages if t == topic]

    def latest_state(self, base: str, timeout: float = 10.0, where=lambda s: True) -> dict:
        return json.loads(self.wait_for(lambda m: m[0] == f"{base}/state" and where(json.loads(m[1])), timeout)[1])

    def request(self, base: str, command: str, payload: Any, timeout: float = 10.0) -> dict:
        """Send a request with an MQTT 5 response topic and correlation data; return the answer."""
        corr = uuid.uuid4().bytes
        got: queue.Queue = queue.Queue()
        self._waiting[corr] = got
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = self.reply_topic
        props.CorrelationData = corr
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(f"{base}/request/{command}", body, qos=1, properties=props)
        m = got.get(timeout=timeout)
        return json.loads(m.payload)

    def close(self) -> None:
        """Disconnect, then stop the network thread (in this order it wakes at once)."""
        self.client.disconnect()
        self.client.loop_stop()
