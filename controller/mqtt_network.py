"""paho's network loop in a thread of the bridge's own, so that a publish is written to the
broker's socket at once by the thread that publishes.

With paho's ``loop_start`` a publish only queues its packet and wakes paho's thread, which then
writes it: on the reference machine that wake was 0.25-0.44 ms (p50) of a move told at once
(``docs/performance.md``). paho's external-loop API (``loop_read``, ``loop_write``,
``loop_misc``, ``want_write``) lets any thread write, but two threads must never write at once
(each could send half a packet). So every paho call here holds one lock (the bridge's), and so
does every :meth:`NetworkLoop.publish`. Connecting does not: it may block for seconds while the
broker is away, and the game's loop must not wait for it; nothing is written meanwhile, as a
publish writes at once only on a connected client and a connection is only made here.
"""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties

log = logging.getLogger("arbitro.mqtt")

TICK_S = 1.0  # the longest wait between keep-alive checks (paho's own loop waits as long)


class NetworkLoop:
    """Reads, keeps alive, (re)connects and writes what a publish could not, for ``client``, in its
    own thread; ``lock`` (re-entrant: paho's callbacks publish) serializes every paho call.
    ``unreachable`` hears a connection that could not be made. The wait before connecting again
    grows from ``min_delay`` to ``max_delay`` seconds, and starts again once a connection was made."""

    def __init__(self, client: mqtt.Client, lock: threading.RLock, *, min_delay: float, max_delay: float,
                 unreachable: Callable[[], None]) -> None:
        self.client = client
        self.lock = lock
        self.min_delay, self.max_delay = min_delay, max_delay
        self.unreachable = unreachable
        self._delay = 0.0  # the wait before the next attempt to connect
        self._closing = False
        self._holding = False  # no connection is made (:meth:`held`)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._queuing = threading.local()  # this thread is queuing a packet it writes itself
        self._thread = threading.Thread(target=self._run, name="arbitro-mqtt-network", daemon=True)
        client.on_socket_register_write = self._asked_to_write

    def start(self) -> None:
        self._thread.start()

    def publish(self, topic: str, payload: bytes | str, *, retain: bool = False,
                properties: Properties | None = None) -> mqtt.MQTTMessageInfo:
        """Publish at QoS 1 (the caller holds :attr:`lock`): on a connected client written to the
        socket at once by this thread, else (or what the socket could not take) by the network thread."""
        self._queuing.now = True
        try:
            info = self.client.publish(topic, payload, qos=1, retain=retain, properties=properties)
        finally:
            self._queuing.now = False
        # Not from within paho's callbacks (the network thread writes once the callback returns).
        if self.client.is_connected() and threading.current_thread() is not self._thread:
            self.client.loop_write()
        if self.client.want_write():
            self._wake()
        return info

    def stop(self, timeout: float) -> None:
        """Disconnect (the DISCONNECT written now, if connected) and end the thread."""
        with self.lock:
            self.client.disconnect()
            if self.client.socket() is not None:
                self.client.loop_write()
        self._closing = True
        self._wake()
        if self._thread.is_alive():
            self._thread.join(timeout)
        for end in (self._wake_r, self._wake_w):
            end.close()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """No connection is made inside (a longer network outage, as the tests make one); the
        attempts go on, at once, after it."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            self._wake()

    def _asked_to_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        """paho has a packet to write: the network thread writes it, unless the thread that queued it will."""
        if not getattr(self._queuing, "now", False):
            self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):  # full: already woken; closed: stopping
            self._wake_w.send(b"\0")

    def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` or until woken to stop."""
        with contextlib.suppress(OSError, ValueError):
            select.select([self._wake_r], [], [], seconds)
        self._drain()

    def _drain(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            while self._wake_r.recv(4096):
                pass

    def _run(self) -> None:
        while not self._closing:
            sock = self.client.socket()
            if sock is None:
                self._connect()
            else:
                self._step(sock)

    def _connect(self) -> None:
        """Connect: the first time at once, then after a wait that grows with every attempt and starts
        again from ``min_delay`` once the broker has answered (as paho's own loop does)."""
        if self._holding:
            self._pause(TICK_S)
            return
        if self._delay:
            self._pause(self._delay)
            if self._closing or self._holding:
                return
        self._delay = min(max(self._delay * 2, self.min_delay), self.max_delay)
        try:
            self.client.reconnect()
        except OSError:
            self.unreachable()
        except Exception:  # a connection must be tried again whatever went wrong
            log.exception("MQTT: connecting failed")

    def _step(self, sock: Any) -> None:
        """Wait for the socket (or a wake), then read, write and keep alive, holding the lock."""
        with self.lock:
            writing = self.client.want_write()
        pending = getattr(sock, "pending", None)  # TLS: bytes already decrypted wait in the socket object
        try:
            if pending is not None and pending():
                readable: list[Any] = [sock]
            else:
                readable, _, _ = select.select([sock, self._wake_r], [sock] if writing else [], [], TICK_S)
        except (OSError, ValueError, TypeError):  # closed meanwhile (a write failed in another thread)
            readable = [sock]
        self._drain()
        with self.lock:
            if self.client.socket() is not sock:
                return
            rc = mqtt.MQTT_ERR_SUCCESS
            if sock in readable:
                rc = self.client.loop_read()
            if rc == mqtt.MQTT_ERR_SUCCESS and self.client.want_write():
                rc = self.client.loop_write()
            if rc == mqtt.MQTT_ERR_SUCCESS:
                self.client.loop_misc()
            if self.client.is_connected():
                self._delay = self.min_delay
