"""MQTT: the live game for displays, and commands in (paho-mqtt 2.x, MQTT 5).

Topics under ``<base_topic>/<board_id>/`` (see ``docs/mqtt.md`` for every payload):

* ``status``: retained ``online`` / ``offline``; ``offline`` is also the last will.
* ``state``: retained JSON, the whole public game state.
* ``events``: one JSON message per thing that happened, with a sequence number.
* ``request/<command>`` -> ``response/<command>`` (or the MQTT 5 response topic the request
  names, when it is not one of the board's other topics), echoing the request's ``id`` and MQTT 5
  correlation data. A malformed, oversized, retained or out-of-phase request is answered with an
  error and changes nothing.
* ``player/<n>``: retained, what only player n may see (the broker's ACL protects it); emptied
  (a zero-length retained message) for every seat the game has not got.
* ``events/recent``: retained, the last :data:`RECENT_EVENTS` events with their ``seq`` and this
  run's id, for a display that missed some (it connected late, or the broker was away).
* ``info``: retained, versions (arbitro, payloads, sensor protocol, the sensor board's firmware),
  the game and the layout.

State and events go at QoS 1; nothing published while the broker is away is lost or reordered
(see :class:`MqttBridge`): on every (re)connect the bridge republishes ``status``, the latest
``state`` and private topics (a restarted broker may have lost its retained messages) and then the
events it held, in order.

The bridge never touches the game: requests become :class:`Command` events posted to the service's
loop, which answers through ``Command.reply``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

from controller import commands, homeassistant
from controller.config import MqttConfig
from controller.games.base import Message, Phrase
from controller.i18n import as_json, say
from controller.mqtt_network import NetworkLoop

log = logging.getLogger("arbitro.mqtt")

MAX_REQUEST_BYTES = 4096
RECENT_EVENTS = 50  # events kept on the retained events/recent: a few turns of any game
RECENT_DELAY = 0.5  # seconds: a burst of events updates events/recent once, this long after it began
COMMANDS = tuple(commands.COMMANDS)

# -- why a malformed request is refused, said in the board's language (docs/mqtt.md, Requests) ----
TOO_LARGE = Phrase("request.too_large", "request too large: {size} bytes, at most {limit}")
NOT_UTF8 = Phrase("request.not_utf8", "the request is not JSON: it is not UTF-8 text")
NOT_JSON = Phrase("request.not_json", "the request is not JSON: line {line}, column {column}")
TOO_DEEP = Phrase("request.too_deep", "the request is not JSON: it is nested too deeply")
NOT_OBJECT = Phrase("request.not_object", "the request must be a JSON object")
BAD_ID = Phrase("request.bad_id", "id must be a string or an integer of at most {limit} characters")
RETAINED = Phrase("request.retained", "a request must not be retained: publish it without the retain flag")
UNKNOWN_COMMAND = Phrase("request.unknown_command", "unknown command {command}; commands: {commands}")
BAD_RESPONSE_TOPIC = Phrase("request.bad_response_topic",
                            "the response topic must be 1..256 characters, without wildcards, not a $ topic")
FOREIGN_RESPONSE_TOPIC = Phrase("request.foreign_response_topic",
                                "a response topic under {tree}/ must be under {board}/response/")
DISCOVERY_RESPONSE_TOPIC = Phrase("request.discovery_response_topic",
                                  "a response topic may not be under {prefix}/")
ID_MAX = 128  # characters of a request's id


@dataclass(frozen=True)
class Command:
    """A request from MQTT, for the service's loop. ``reply`` publishes the answer."""

    name: str
    args: dict[str, Any]
    reply: Callable[[bool, Any], None]
    id: str | int | None = None
    """The request's ``id``: the same request repeated (same command, id and arguments) runs once."""
    to_operator: bool = False
    """The answer goes to this board's ``response/`` tree, which the broker's ACL lets only operators
    read (an MQTT 5 response topic elsewhere may be read by anyone the broker allows)."""


def set_nodelay(client: mqtt.Client) -> None:
    """Send small packets at once: paho leaves Nagle's algorithm on, which with delayed ACKs costs
    tens of milliseconds per request/answer round trip."""
    sock = client.socket()
    if sock is not None and hasattr(sock, "setsockopt"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


NOT_MQTT5 = 0x84  # CONNACK "unsupported protocol version" (an MQTT 3.1.1 broker's return code 1, as paho reads it)
FIRST_RETELL = 5.0  # seconds: a broker still away is told again after this, then twice as long each time
LAST_RETELL = 300.0
CONNACK_WAIT = 1.0  # seconds a broker may take to answer a CONNECT before it is asked in MQTT 3.1.1
NO_MQTT5 = ("does not speak MQTT 5 (arbitro needs MQTT 5: Mosquitto 1.6 or later, EMQX 4.3 or later; "
            "see docs/mqtt.md, Brokers)")


class BrokerTrouble:
    """Says plainly why a broker cannot be used: at the first failure, then with back-off (5 s, 10 s,
    ... 5 min) while it lasts, and once more when it is over. paho retries by itself, quietly.

    A broker that speaks only MQTT 3.1.1 may refuse an MQTT 5 CONNECT ("unsupported protocol
    version") or never answer it (amqtt waits for the will's fields where MQTT 5 puts its
    properties): a CONNECT left unanswered :data:`CONNACK_WAIT` s is followed by an MQTT 3.1.1
    CONNECT on a connection of its own, to tell the two apart."""

    def __init__(self, logger: logging.Logger, who: str, host: str, port: int, *, tls: bool = False,
                 clock: Callable[[], float] = time.monotonic, told: Callable[[], None] | None = None) -> None:
        self.log, self.who, self.clock = logger, who, clock
        self.told = told  # called (on paho's or the timer's thread) when :attr:`why` changes
        self.why: str | None = None  # what is wrong now: "not_mqtt5", "refused", "unreachable", "silent"; None
        self.host, self.port, self.tls, self.where = host, port, tls, f"{host}:{port}"
        self._lock = threading.Lock()  # paho's thread and the CONNACK timer both tell
        self._said: str | None = None  # what was last told, None while the broker is fine
        self._next_at = 0.0
        self._wait = FIRST_RETELL
        self._failures = 0
        self._attempt = self._answered = 0  # CONNECTs sent, and the last one answered

    def watch(self, client: mqtt.Client) -> None:
        """Hear ``client``'s failed connections (its ``on_connect`` calls :meth:`refused` or :meth:`connected`)."""
        client.on_connect_fail = self.unreachable
        client.on_pre_connect = self._arm

    def _tell(self, why: str, kind: str) -> None:
        if kind != self.why:
            self.why = kind
            if self.told is not None:
                self.told()
        with self._lock:
            self._failures += 1
            now = self.clock()
            if why != self._said or now >= self._next_at:
                again = f" (still, {self._failures} attempts)" if why == self._said else ""
                self.log.warning("%s: MQTT broker %s %s%s", self.who, self.where, why, again)
                self._wait = FIRST_RETELL if why != self._said else min(self._wait * 2, LAST_RETELL)
                self._said, self._next_at = why, now + self._wait

    def refused(self, reason: Any) -> None:
        """The broker answered the CONNECT with a failure (paho's ``ReasonCode``)."""
        self._answered = self._attempt
        if getattr(reason, "value", None) == NOT_MQTT5:
            self._tell(NO_MQTT5, "not_mqtt5")
        else:
            self._tell(f"refused the connection: {reason}", "refused")

    def unreachable(self, *_paho: object) -> None:
        """paho's ``on_connect_fail``: no connection at all (nothing listens, no route, TLS failed)."""
        self._answered = self._attempt
        self._tell("is not reachable; trying again", "unreachable")

    def connected(self) -> None:
        self._answered = self._attempt
        if self.why is not None:
            self.why = None
            if self.told is not None:
                self.told()
        with self._lock:
            if self._said is not None:
                self.log.info("%s: MQTT broker %s reached after %d failed attempt(s)", self.who, self.where,
                              self._failures)
            self._said, self._failures, self._wait = None, 0, FIRST_RETELL

    def _arm(self, *_paho: object) -> None:
        self._attempt += 1
        timer = threading.Timer(CONNACK_WAIT, self._unanswered, (self._attempt,))
        timer.daemon = True
        timer.start()

    def _unanswered(self, attempt: int) -> None:
        if attempt != self._attempt or self._answered >= attempt:
            return
        if not self.tls and speaks_mqtt311(self.host, self.port):
            if self._answered < attempt:  # answered in 3.1.1 at once, still not in 5 (not just slow)
                self._tell(NO_MQTT5, "not_mqtt5")
        else:
            self._tell(f"has not answered the MQTT 5 CONNECT within {CONNACK_WAIT:g} s", "silent")


def speaks_mqtt311(host: str, port: int, timeout: float = CONNACK_WAIT) -> bool:
    """Whether the broker answers an MQTT 3.1.1 CONNECT (a clean session, no will) with a CONNACK,
    whatever its return code: then it speaks MQTT 3.1.1."""
    client_id = f"arbitro-probe-{secrets.token_hex(4)}".encode()
    body = b"\x00\x04MQTT\x04\x02\x00\x0a" + len(client_id).to_bytes(2, "big") + client_id
    reply = b""
    try:
        with socket.create_connection((host, port), timeout) as s:
            s.settimeout(timeout)
            s.sendall(bytes([0x10, len(body)]) + body)
            while len(reply) < 4 and (chunk := s.recv(4 - len(reply))):
                reply += chunk
            if len(reply) == 4:
                s.sendall(b"\xe0\x00")  # DISCONNECT
    except OSError:
        return False
    return reply[:2] == b"\x20\x02"


class MqttBridge:
    """One paho client: publishes the board's topics, turns requests into :class:`Command` events.

    Ordering and loss (QoS 1 throughout): while the bridge is *live* (connected, and the broker
    has acknowledged the request subscription made in ``on_connect``) every publish goes straight
    to paho. While it is not, events wait in :attr:`held` (in order, unbounded) and ``state`` /
    ``player/<n>`` only keep their latest payload. Messages paho had already taken when the
    connection died are resent by paho itself right after the CONNACK, before the SUBACK is read;
    only then (``_on_subscribe``) does the bridge republish ``state``, the private topics and
    the Home Assistant discovery, and send the held events. So a subscriber sees every event
    once or (resent with DUP after a lost PUBACK) twice, never out of order, and the retained
    ``state`` ends as the latest one, also on a restarted broker that lost its retained messages.
    """

    def __init__(self, cfg: MqttConfig, board_id: str, post: Callable[[object], None] | None = None,
                 client_id: str | None = None, language: str = "en") -> None:
        self.cfg = cfg
        self.language = language  # the board's (board.language): what a malformed request is told in
        self.base = f"{cfg.base_topic}/{board_id}"
        self.board_id = board_id
        self.post: Callable[[object], None] = post or (lambda event: None)  # the service binds its own
        self.connected = threading.Event()  # set while live, cleared on disconnect
        self._lock = threading.RLock()  # guards the fields below, orders publishes and every call to paho
        self._live = False
        self._stopping = False
        self._sync_mid: int | None = None
        self._retained: dict[str, bytes] = {}  # state, info, events/recent and player/<n>: the latest payload
        self._published: dict[str, dict[str, Any] | None] = {}  # info and player/<n>: the data last published
        self.held: deque[bytes] = deque()  # events published while not live
        self._event_seq = 0
        self.run = secrets.token_hex(8)  # this bridge's life, which its events' seq numbers count
        self._recent: deque[bytes] = deque(maxlen=RECENT_EVENTS)
        # events/recent is sent once a burst is out, by one thread for the bridge's life: starting a
        # timer's thread per burst made the loop wait, before the state, for that thread to start
        self._window_at: float | None = None  # when it is due
        self._window_wake = threading.Condition(self._lock)
        self._windows = threading.Thread(target=self._send_windows, name="arbitro-mqtt-window", daemon=True)
        # From the first connection on: a window left by an earlier run is replaced, not added to.
        self._retained[f"{self.base}/events/recent"] = self._recent_payload()
        self._last_info: mqtt.MQTTMessageInfo | None = None
        # Home Assistant: what the configurations are made from, those on the broker, and this
        # board's configurations found retained there (an earlier run's, another game's)
        self._ha_info: dict[str, Any] | None = None
        self._ha_state: dict[str, Any] | None = None
        self._ha_key: tuple[object, ...] | None = None
        self._discovery: dict[str, bytes] = {}
        self._found: set[str] = set()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"arbitro-{board_id}",
                        protocol=mqtt.MQTTv5)
        if cfg.username:
            c.username_pw_set(cfg.username, cfg.password or None)
        if cfg.tls:
            c.tls_set(ca_certs=cfg.ca_certs or None, certfile=cfg.certfile or None,
                      keyfile=cfg.keyfile or None, cert_reqs=ssl.CERT_REQUIRED)
        c.will_set(f"{self.base}/status", b"offline", qos=1, retain=True)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.trouble = BrokerTrouble(log, f"board {board_id}", cfg.host, cfg.port, tls=cfg.tls)
        self.trouble.watch(c)
        self.client = c
        self.network = NetworkLoop(c, self._lock, min_delay=0.2, max_delay=5.0, unreachable=self.trouble.unreachable)

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying until the broker answers): the bridge's network thread."""
        self.client.connect_async(self.cfg.host, self.cfg.port, keepalive=self.cfg.keepalive)
        self.network.start()
        self._windows.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Publish ``offline``, wait up to ``timeout`` s for what is in flight, disconnect quietly
        (a warning only if events held while the broker was away are still undelivered)."""
        self._stopping = True
        with self._lock:
            self._send_window()  # the last events' window on the broker (not live: nothing due any more)
            self._window_wake.notify()
        if self.connected.is_set():
            with self._lock:
                info = self.network.publish(f"{self.base}/status", b"offline", retain=True)
            with contextlib.suppress(RuntimeError, ValueError):  # the connection went away meanwhile
                info.wait_for_publish(timeout)
        if self.held:
            log.warning("MQTT: stopping with %d event(s) that never reached the broker", len(self.held))
        self.network.stop(timeout)

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object = None) -> None:
        if reason.is_failure:
            self.trouble.refused(reason)
            return
        self.trouble.connected()
        log.info("MQTT connected to %s:%s", self.cfg.host, self.cfg.port)
        set_nodelay(client)
        if self.cfg.homeassistant:
            client.subscribe(f"{self.cfg.discovery_prefix}/status", qos=1)
            client.subscribe(homeassistant.mine(self.cfg, self.board_id), qos=1)  # stale ones to remove
        # Paho resends what the last connection left unacknowledged right after this callback;
        # the SUBACK to this subscription comes later, and _on_subscribe sends the rest then.
        # Requests: no stored (retained) ones on subscribing, and the retain flag kept on live ones,
        # so that _on_message can refuse a request published with it.
        options = SubscribeOptions(qos=1, retainAsPublished=True, retainHandling=SubscribeOptions.RETAIN_DO_NOT_SEND)
        self._sync_mid = client.subscribe(f"{self.base}/request/+", options=options)[1]

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int, reason_codes: object,
                      properties: object = None) -> None:
        if mid != self._sync_mid:
            return
        with self._lock:
            # Online only now: a request sent on seeing it reaches the request subscription.
            self.network.publish(f"{self.base}/status", b"online", retain=True)
            for topic, payload in self._retained.items():
                self.network.publish(topic, payload, retain=True)
            if self.held:
                log.info("MQTT: sending %d event(s) held while disconnected", len(self.held))
            while self.held:
                self._last_info = self.network.publish(f"{self.base}/events", self.held.popleft())
            self._live = True
            if self.cfg.homeassistant:
                self._publish_discovery(again=True)
        self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object = None) -> None:
        with self._lock:
            self._live = False
        self.connected.clear()
        if self._stopping:
            log.info("MQTT disconnected (%s)", reason)
        else:
            log.warning("MQTT disconnected (%s); reconnecting", reason)

    # -- publishing (any thread) -----------------------------------------------------------------

    def _publish_retained(self, topic: str, payload: bytes) -> None:
        with self._lock:
            if self._retained.get(topic) == payload:
                return
            self._retained[topic] = payload
            if self._live:
                self._last_info = self.network.publish(topic, payload, retain=True)

    def publish_state(self, state: dict[str, Any]) -> None:
        """Publish the public state (retained, QoS 1); an unchanged payload is not sent again."""
        self._publish_retained(f"{self.base}/state", json.dumps(state, separators=(",", ":")).encode())
        if self.cfg.homeassistant:
            with self._lock:
                self._ha_state = state
                self._publish_discovery()

    def _publish_changed(self, topic: str, data: dict[str, Any] | None) -> None:
        """Publish ``data`` as JSON (None: empty) retained on ``topic`` when it differs from what was
        last published there: told after every move, most seats' views and the info are the same,
        and comparing them costs a fraction of encoding them."""
        if topic in self._published and self._published[topic] == data:
            return
        self._published[topic] = data
        self._publish_retained(topic, b"" if data is None else json.dumps(data, separators=(",", ":")).encode())

    def publish_private(self, player: int, data: dict[str, Any] | None) -> None:
        """Publish what only ``player`` may see to ``player/<n>`` (retained, QoS 1) when it changed;
        ``None`` empties the topic (a seat the game has not got: nothing stale stays there)."""
        self._publish_changed(f"{self.base}/player/{player}", data)

    def publish_info(self, info: dict[str, Any]) -> None:
        """Publish the board's ``info`` (retained, QoS 1) when it changed."""
        self._publish_changed(f"{self.base}/info", info)
        if self.cfg.homeassistant:
            with self._lock:
                self._ha_info = info

    def publish_event(self, event: dict[str, Any]) -> int:
        """Publish one event (see :meth:`publish_events`) and return its sequence number."""
        return self.publish_events([event])[-1]

    def publish_events(self, events: list[dict[str, Any]]) -> list[int]:
        """Publish events in order (QoS 1; held in order while not live) and return their sequence
        numbers (1, 2, ... for the life of this bridge). The window of recent events follows
        :data:`RECENT_DELAY` later, once for a whole burst (or at once on :meth:`flush`)."""
        seqs = []
        with self._lock:
            for event in events:
                self._event_seq += 1
                seqs.append(self._event_seq)
                payload = json.dumps({"seq": self._event_seq, **event}, separators=(",", ":")).encode()
                if self._live:
                    self._last_info = self.network.publish(f"{self.base}/events", payload)
                else:
                    self.held.append(payload)
                self._recent.append(payload)
            self._retained[f"{self.base}/events/recent"] = self._recent_payload()  # as a reconnect sends it
            if self._window_at is None:
                self._window_at = time.monotonic() + RECENT_DELAY
                self._window_wake.notify()
        return seqs

    def _send_windows(self) -> None:
        """Publish events/recent :data:`RECENT_DELAY` after each burst began, until :meth:`stop`."""
        with self._lock:
            while not self._stopping:
                due = self._window_at
                if due is None or due > time.monotonic():
                    self._window_wake.wait(None if due is None else due - time.monotonic())
                else:
                    self._send_window()

    def _send_window(self) -> None:
        """Publish events/recent now if an update is due (the caller holds ``_lock``)."""
        if self._window_at is None:
            return
        self._window_at = None
        if self._live:
            topic = f"{self.base}/events/recent"
            self._last_info = self.network.publish(topic, self._retained[topic], retain=True)

    def _recent_payload(self) -> bytes:
        return b'{"run":"%s","events":[%s]}' % (self.run.encode(), b",".join(self._recent))

    @property
    def last_event_seq(self) -> int:
        """The ``seq`` of the last event published (0 before the first)."""
        with self._lock:
            return self._event_seq

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the broker has acknowledged everything published so far (False on timeout
        or while not live)."""
        with self._lock:
            self._send_window()
            info, live, held = self._last_info, self._live, bool(self.held)
        if not live or held:
            return False
        if info is None:
            return True
        try:
            info.wait_for_publish(timeout)
            return info.is_published()
        except (RuntimeError, ValueError):
            return False

    # -- requests ----------------------------------------------------------------------------------

    def response_topic_error(self, topic: str) -> Message | None:
        """Why an MQTT 5 response topic named by a request is refused, or None when it is usable.

        Answers may go anywhere outside the ``<base_topic>/`` tree and, inside it, only under this
        board's ``response/``: a request cannot make the service write onto ``state``,
        ``events``, a player's topic or another board's topics."""
        if not topic or len(topic) > 256 or any(ch in topic for ch in "+#\0") or topic.startswith("$"):
            return BAD_RESPONSE_TOPIC()
        if topic.startswith(f"{self.cfg.base_topic}/") and not topic.startswith(f"{self.base}/response/"):
            return FOREIGN_RESPONSE_TOPIC(tree=self.cfg.base_topic, board=self.base)
        if self.cfg.homeassistant and topic.startswith(f"{self.cfg.discovery_prefix}/"):
            return DISCOVERY_RESPONSE_TOPIC(prefix=self.cfg.discovery_prefix)
        return None

    def refusal(self, message: Message) -> dict[str, Any]:
        """A malformed request's answer: its ``error`` in the board's language, its ``code`` and ``params``."""
        return {"error": say(message, self.language), **as_json(message)}

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if self.cfg.homeassistant and msg.topic == f"{self.cfg.discovery_prefix}/status":
            if msg.payload == b"online":
                with self._lock:
                    self._publish_discovery(again=True)
            return
        if self.cfg.homeassistant and msg.topic.startswith(f"{self.cfg.discovery_prefix}/"):
            if msg.retain and msg.payload:  # one of this board's, stored: removed unless it is current
                with self._lock:
                    self._found.add(msg.topic)
                    self._remove_stale()
            return
        if not msg.topic.startswith(f"{self.base}/request/"):
            return
        name = msg.topic[len(self.base) + len("/request/"):]
        props = getattr(msg, "properties", None)
        default_topic = f"{self.base}/response/{name}"
        response_topic = getattr(props, "ResponseTopic", None) or default_topic
        correlation = getattr(props, "CorrelationData", None)
        request_id: Any = None

        def reply(ok: bool, result: Any) -> None:
            body: dict[str, Any] = {"id": request_id, "command": name[:64], "ok": ok}
            if not ok and isinstance(result, dict):  # a refusal said with its code and params
                body.update(result)
            else:
                body["result" if ok else "error"] = result
            out = Properties(PacketTypes.PUBLISH)
            if correlation is not None:
                out.CorrelationData = correlation
            with self._lock:
                self.network.publish(response_topic, json.dumps(body, separators=(",", ":")),
                                     properties=out if correlation is not None else None)

        refused = self.response_topic_error(response_topic)
        if refused is not None:  # answered on the default topic, once the id is known
            response_topic = default_topic
        elif msg.retain:  # a broker would keep it and hand it out again: refused, never run
            refused = RETAINED()
        if len(msg.payload) > MAX_REQUEST_BYTES:
            reply(False, self.refusal(TOO_LARGE(size=len(msg.payload), limit=MAX_REQUEST_BYTES)))
            return
        try:
            args = json.loads(msg.payload.decode("utf-8")) if msg.payload else {}
        except UnicodeDecodeError:
            reply(False, self.refusal(NOT_UTF8()))
            return
        except json.JSONDecodeError as exc:  # where it stops being JSON (json's own words for why are English)
            reply(False, self.refusal(NOT_JSON(line=exc.lineno, column=exc.colno)))
            return
        except RecursionError:
            reply(False, self.refusal(TOO_DEEP()))
            return
        if not isinstance(args, dict):
            reply(False, self.refusal(NOT_OBJECT()))
            return
        raw_id = args.pop("id", None)
        if raw_id is not None and not (isinstance(raw_id, str | int) and not isinstance(raw_id, bool)
                                       and len(str(raw_id)) <= ID_MAX):
            reply(False, self.refusal(BAD_ID(limit=ID_MAX)))
            return
        request_id = raw_id
        if refused is not None:
            reply(False, self.refusal(refused))
            return
        if name not in COMMANDS:
            reply(False, self.refusal(UNKNOWN_COMMAND(command=repr(name[:64]), commands=", ".join(COMMANDS))))
            return
        to_operator = response_topic.startswith(f"{self.base}/response/")
        self.post(Command(name, args, reply, request_id, to_operator=to_operator))

    # -- Home Assistant discovery ----------------------------------------------------------------

    def _publish_discovery(self, again: bool = False) -> None:
        """The discovery configurations, retained, when what they are made of changed (``again``:
        all of them, as Home Assistant asks); those the board no longer has emptied. The caller
        holds ``_lock``."""
        if self._ha_state is None:  # nothing to say yet: the first state says how many players
            return
        info, state = self._ha_info or {}, self._ha_state
        key = (info.get("game"), info.get("title"), info.get("arbitro"), len(state.get("players") or ()))
        if key != self._ha_key:
            self._ha_key = key
            new = {topic: json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
                   for topic, body in homeassistant.configs(self.cfg, self.board_id, self.language, info,
                                                            state).items()}
            self._found.update(set(self._discovery) - set(new))
            again = again or new != self._discovery
            self._discovery = new
        if self._live and again:
            for topic, payload in self._discovery.items():
                self._last_info = self.network.publish(topic, payload, retain=True)
        self._remove_stale()

    def _remove_stale(self) -> None:
        """Empty this board's configurations found on the broker that it no longer has (the caller
        holds ``_lock``; only once the current ones are known)."""
        if not self._live or self._ha_key is None:
            return
        for topic in sorted(self._found - set(self._discovery)):
            self._last_info = self.network.publish(topic, b"", retain=True)
        self._found.clear()
