"""A test MQTT client: collects messages per topic, sends requests and waits for answers."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.mqtt import set_nodelay

Message = tuple[str, bytes, bool, Any]
"""A message as a listener keeps it: topic, payload, retain, MQTT 5 properties."""


class Listener:
    """Subscribes to ``topics`` and keeps every message, in arrival order.

    With ``wait`` (the default) the constructor returns once the broker has acknowledged every
    subscription (its SUBACKs): from then on, whatever is published reaches this listener.
    """

    def __init__(self, port: int, topics: list[str], *, username: str | None = None, password: str | None = None,
                 client_id: str | None = None, reply_topic: str | None = None, tls_ca: str | None = None,
                 wait: bool = True) -> None:
        self.messages: list[Message] = []
        self.cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"t-{uuid.uuid4().hex[:8]}",
                                  protocol=mqtt.MQTTv5)
        if username:
            self.client.username_pw_set(username, password)
        self.connected = threading.Event()
        self.refused: list[Any] = []
        self.reply_topic = reply_topic or f"test/replies/{uuid.uuid4().hex}"
        self._waiting: dict[bytes, queue.Queue[mqtt.MQTTMessage]] = {}
        self._unacked: set[int | None] = set()  # SUBSCRIBEs of the current connection the broker has not acknowledged
        self.subscribed = threading.Event()  # set once every one of them has been

        def on_connect(c: mqtt.Client, u: Any, f: Any, reason: Any, p: Any = None) -> None:
            if reason.is_failure:
                self.refused.append(reason)
                return
            set_nodelay(c)
            self.subscribed.clear()
            # The SUBACKs come through this same network thread, after this callback: no race.
            self._unacked = {c.subscribe(t, qos=1)[1] for t in [*topics, self.reply_topic]}
            self.connected.set()

        def on_subscribe(c: mqtt.Client, u: Any, mid: int, reason_codes: Any, p: Any = None) -> None:
            self._unacked.discard(mid)
            if not self._unacked:
                self.subscribed.set()

        def on_message(c: mqtt.Client, u: Any, m: mqtt.MQTTMessage) -> None:
            if m.topic == self.reply_topic:
                corr = getattr(m.properties, "CorrelationData", None)
                if corr in self._waiting:
                    self._waiting.pop(corr).put(m)
                return
            with self.cond:
                self.messages.append((m.topic, bytes(m.payload), m.retain, getattr(m, "properties", None)))
                self.cond.notify_all()

        self.client.on_connect = on_connect
        self.client.on_message = on_message
        self.client.on_subscribe = on_subscribe
        if tls_ca:
            self.client.tls_set(ca_certs=tls_ca)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not wait:
            return
        if not self.connected.wait(10) and not self.refused:
            raise TimeoutError("test client could not connect")
        if self.connected.is_set() and not self.subscribed.wait(10):
            raise TimeoutError(f"the broker did not acknowledge the subscriptions to {topics}")

    def wait_for(self, predicate: Callable[..., object], timeout: float = 10.0, since: int = 0) -> Message:
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

    def json_on(self, topic: str) -> list[dict[str, Any]]:
        with self.cond:
            return [json.loads(p) for t, p, *_ in self.messages if t == topic]

    def latest_state(self, base: str, timeout: float = 10.0,
                     where: Callable[[dict[str, Any]], object] = lambda s: True) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(
            self.wait_for(lambda m: m[0] == f"{base}/state" and where(json.loads(m[1])), timeout)[1])
        return state

    def request(self, base: str, command: str, payload: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Send a request with an MQTT 5 response topic and correlation data; return the answer."""
        corr = uuid.uuid4().bytes
        got: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self._waiting[corr] = got
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = self.reply_topic
        props.CorrelationData = corr
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(f"{base}/request/{command}", body, qos=1, properties=props)
        try:
            m = got.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer to {command} on {base} within {timeout}s") from None
        answer: dict[str, Any] = json.loads(m.payload)
        return answer

    def fence(self, base: str, timeout: float = 10.0) -> None:
        """A round trip through the service of board ``base``: once it returns, every message the
        service published before it, on any topic this listener reads, has arrived, and whatever
        reached the service before this listener's request has been handled.

        How: a ``state`` request (no event, no change to the game; it publishes ``state`` again).
        The service takes the messages of its one connection in order (the bridge handles them
        one by one, and queues commands to the loop, which runs them in order) and publishes from
        that one connection, the answer after all it published before. MQTT itself promises order
        only per topic and publisher (MQTT 5.0 section 4.6, Ordered Topic); Mosquitto, one thread
        with one outgoing queue per session, keeps it across topics too, which this relies on. So
        a message this listener published before the fence (on any topic) reaches the service
        before the fence does, and a message the service published (or would have) in reply to
        it comes here before the answer."""
        answer = self.request(base, "state", {}, timeout=timeout)
        if not answer.get("ok"):
            raise AssertionError(f"the fence request through {base} was refused: {answer}")

    def close(self) -> None:
        """Disconnect, then stop the network thread (in this order it wakes at once)."""
        self.client.disconnect()
        self.client.loop_stop()
