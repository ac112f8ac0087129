"""``arbitro display``: a web server that draws every board live from MQTT (docs/display.md).

One paho client (its own thread) subscribes to the boards' topics and hands each message to the
asyncio loop, which keeps a :class:`BoardModel` per board and pushes what changed to the open pages
over Server-Sent Events. Pages get complete snapshots, never diffs, so a page that missed some
(or a slow one, whose pending updates are coalesced) is right again with the next one.

A hall scales by sharing: each board's latest hall line is encoded once and every page's
:class:`Subscriber` holds a reference to it (the latest per board, never a queue); the line names
its thumbnail by version (``/thumb/<board>/<version>.svg``), fetched once per version by each
browser, cached for good and sent gzipped, instead of the SVG inline in every line. A busy hall
is one write per page a tick: a tick's lines are framed once and written straight to every page
that has read all it was sent.

The display only reads the boards' topics; it writes its own retained ``<board>/names``, and the
moves phone seats tap on their pages, as ``request/play`` with the seat's secret (docs/display.md).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import gzip
import hashlib
import ipaddress
import json
import logging
import queue
import secrets
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import segno
from aiohttp import web
from aiohttp.abc import AbstractStreamWriter

from controller.display.model import MAX_NAMES, BoardModel, parse_names
from controller.display.render import board_svg
from controller.mqtt import set_nodelay

log = logging.getLogger("arbitro.display")

STATIC = Path(str(resources.files("controller.display") / "static"))
BOARD_ID = r"{board:[A-Za-z0-9_.\-]{1,64}}"
SEAT = r"{seat:[0-9]{1,2}}"
PLAY_ANSWER_S = 10.0  # how long a seat page waits for the service's answer to its move
KEEPALIVE = 15.0  # seconds between SSE comments, so that dead connections are noticed
SEND_BUFFER = 128 * 1024  # bytes the kernel may hold for one page's stream (a few board snapshots)
WRITE_BUFFER = 8 * 1024  # bytes beyond that the server holds for a page before its stream waits for it to read


@dataclass
class DisplayConfig:
    broker_host: str = "127.0.0.1"
    broker_port: int = 1883
    username: str = ""
    password: str = ""
    tls_ca: str | None = None  # a CA file: TLS to the broker ("" for the system's CAs)
    base_topic: str = "arbitro"
    host: str = "0.0.0.0"
    port: int = 8080
    delay: float = 0.0  # spectator delay for every board, seconds
    board_delays: dict[str, float] = field(default_factory=dict)  # per board, overriding ``delay``
    public_url: str = ""  # how phones reach this server (for the seat QR codes); default: the page's own address
    # Pairing a phone to a seat hands out that seat's hand, and names are the operator's to set: only
    # a board page opened with this key (the operator's link, printed at start) may do either.
    # Random unless given.
    pair_key: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    max_pages: int = 200  # open pages (event streams) at once; one more is refused (503) until one closes
    stuck_after: float = 10.0  # seconds a page may leave what it was sent unread before it is dropped
    tick: float = 0.02  # seconds: a busy hall's changes go out together, one write per page a tick

    def delay_of(self, board: str) -> float:
        return self.board_delays.get(board, self.delay)


class SeatPlay:
    """Lets a person play a seat by clicking on its seat page (the demo uses it): whoever plays the
    seat offers the legal moves, a click on the page picks one. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._offers: dict[tuple[str, int], list[str]] = {}
        self._picked: dict[tuple[str, int], queue.Queue[str]] = {}
        self.changed: Callable[[str, int], None] = lambda board, seat: None  # set by the display

    def offer(self, board: str, seat: int, moves: list[str]) -> None:
        with self._lock:
            self._offers[(board, seat)] = list(moves)
            self._picked.setdefault((board, seat), queue.Queue())
        self.changed(board, seat)

    def offered(self, board: str, seat: int) -> list[str] | None:
        with self._lock:
            return self._offers.get((board, seat))

    def pick(self, board: str, seat: int, move: str) -> bool:
        with self._lock:
            if move not in self._offers.get((board, seat), ()):
                return False
            del self._offers[(board, seat)]
            self._picked[(board, seat)].put(move)
        self.changed(board, seat)
        return True

    def wait(self, board: str, seat: int, timeout: float | None = None) -> str:
        """The move clicked for ``seat`` (after ``offer``); raises ``queue.Empty`` on timeout."""
        with self._lock:
            picked = self._picked.setdefault((board, seat), queue.Queue())
        return picked.get(timeout=timeout)


def sse(event: str, data: str) -> bytes:
    """One Server-Sent Event, encoded (once, however many pages it goes to)."""
    return f"event: {event}\ndata: {data}\n\n".encode()


class Thumb:
    """A board's hall thumbnail at one version (named by the state message it is drawn from), drawn
    and gzipped when a browser first fetches it: the hall line goes out without waiting for it."""

    def __init__(self, version: str, state: dict[str, Any]) -> None:
        self.version = version
        self.state = state

    @functools.cached_property
    def svg(self) -> bytes:
        return board_svg(self.state).encode()

    @functools.cached_property
    def gzipped(self) -> bytes:
        return gzip.compress(self.svg, 6)


class Tick:
    """The hall lines of one flush, encoded once for every page: as they are, and as one HTTP chunk."""

    def __init__(self, lines: dict[str, bytes]) -> None:
        self.lines = lines
        self.data = b"".join(lines.values())

    @functools.cached_property
    def chunk(self) -> bytes:
        return b"%x\r\n%b\r\n" % (len(self.data), self.data)


class Subscriber:
    """One open page: the latest message per key (a board, the status) waits here until the page's
    stream sends it, so a slow page holds one snapshot per board, never a queue of them; the
    messages are the display's own encoded copies, shared by every page."""

    def __init__(self) -> None:
        self.pending: dict[str, bytes] = {}
        self.wake = asyncio.Event()
        # Set once the page's stream is under way: from then on, whenever it has read all it was
        # sent, a hall tick is written straight to it (one write, no task of its own to wake).
        self.transport: asyncio.Transport | None = None
        self.chunked = True  # its response's body is HTTP/1.1 chunks

    def put(self, key: str, message: bytes) -> None:
        self.pending[key] = message  # a newer one replaces an unsent one
        self.wake.set()

    def put_tick(self, tick: Tick) -> None:
        """One flush's hall lines: written now if the page has read all it was sent (the kernel
        holds nothing of it), else kept with what waits for its stream, the latest per board."""
        t = self.transport
        if t is not None and not self.pending and not t.is_closing() and t.get_write_buffer_size() == 0:
            t.write(tick.chunk if self.chunked else tick.data)
            return
        self.pending.update(tick.lines)
        self.wake.set()

    def take(self) -> bytes:
        out, self.pending = b"".join(self.pending.values()), {}
        self.wake.clear()
        return out


Release = tuple[str, bytes | None, bytes | None, Thumb | None]
"""What a flush releases of a board: its snapshot for board pages (None: nobody watches it), its
hall line and its thumbnail (None: it has published no state)."""


class Display:
    """The display server. ``await start()``, ``await stop()``; or :func:`start_in_thread`."""

    def __init__(self, config: DisplayConfig, seat_play: SeatPlay | None = None) -> None:
        self.config = config
        self.seat_play = seat_play
        self.boards: dict[str, BoardModel] = {}
        # board -> its latest released snapshot (after the delay), an event; made when a board page
        # needs it: a board nobody watches (without a delay) has none, it is made when one opens
        self.public: dict[str, bytes] = {}
        self.hall_lines: dict[str, bytes] = {}  # board -> its hall line, an event (one copy for every page)
        self.thumbs: dict[str, Thumb] = {}  # board -> the thumbnail its hall line names
        self._versions: dict[str, str] = {}  # board -> its latest state message's digest, its thumbnail's version
        self.tokens: dict[tuple[str, int], str] = {}
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # a play request's id -> its answer, awaited
        self.broker_up = False
        self.hall: set[Subscriber] = set()
        self.watchers: dict[str, set[Subscriber]] = {}
        self.seat_watchers: dict[tuple[str, int], set[Subscriber]] = {}
        self._dirty: set[str] = set()
        self._flush_due = False
        self._flushed_at = 0.0  # time.monotonic() of the last flush
        self._inbox: collections.deque[tuple[str, bytes]] = collections.deque()  # from paho's thread
        self._inbox_due = False
        self._closing = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.runner: web.AppRunner | None = None
        self.client: mqtt.Client | None = None
        self.port = config.port

    # -- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.seat_play is not None:
            self.seat_play.changed = lambda board, seat: self._threadsafe(self._push_seat, board, seat)
        # handler_cancellation: a page that closes ends its stream at once, and frees its place.
        self.runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.config.host, self.config.port)
        try:
            await site.start()
        except OSError:  # the port is taken: leave nothing behind, the caller decides
            await self.runner.cleanup()
            raise
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        self._start_mqtt()
        log.info("display on %s, broker %s:%d", self.url, self.config.broker_host, self.config.broker_port)

    async def stop(self) -> None:
        self._closing = True
        for sub in self._all_subscribers():
            sub.wake.set()
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def url(self) -> str:
        host = self.config.host
        if host in ("0.0.0.0", "::", ""):
            host = _lan_address()
        return f"http://{host}:{self.port}/"

    def _all_subscribers(self) -> list[Subscriber]:
        subs = list(self.hall)
        for group in (*self.watchers.values(), *self.seat_watchers.values()):
            subs.extend(group)
        return subs

    # -- MQTT (paho's thread posts into the loop) -----------------------------------------------

    def _start_mqtt(self) -> None:
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
        client.on_message = lambda _client, _userdata, m: self._hand_over(m.topic, bytes(m.payload))
        client.connect_async(c.broker_host, c.broker_port, keepalive=10)
        client.loop_start()
        self.client = client

    def _hand_over(self, topic: str, payload: bytes) -> None:
        """In paho's thread: queue the message; the loop is woken once for all that queue up meanwhile."""
        self._inbox.append((topic, payload))
        if not self._inbox_due:
            self._inbox_due = True
            self._threadsafe(self._take_inbox)

    def _take_inbox(self) -> None:
        self._inbox_due = False  # before taking: a message queued from now on wakes the loop again
        while self._inbox:
            self._on_message(*self._inbox.popleft())

    def _threadsafe(self, fn: Callable[..., None], *args: Any) -> None:
        if self.loop is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self.loop.call_soon_threadsafe(fn, *args)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        if reason.is_failure:
            log.warning("the broker refused the display: %s", reason)
            return
        set_nodelay(client)  # acknowledgements go out at once, not after Nagle's wait
        base = self.config.base_topic
        client.subscribe([(f"{base}/+/{t}", 1) for t in ("state", "events", "events/recent", "status", "names",
                                                          "player/+", "response/play")])
        self._threadsafe(self._broker, True)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        self._threadsafe(self._broker, False)

    def _broker(self, up: bool) -> None:
        self.broker_up = up
        if up and self.client is not None:
            # The names are ours to keep: a broker that restarted without its retained messages gets them back.
            for model in self.boards.values():
                if model.names:
                    self.client.publish(self._names_topic(model.board), json.dumps(model.names), qos=1, retain=True)
        self._push_status()

    def _on_message(self, topic: str, payload: bytes) -> None:
        base = self.config.base_topic + "/"
        if not topic.startswith(base):
            return
        board, _, kind = topic[len(base):].partition("/")
        if kind == "response/play":
            self._answered(payload)
            return
        model = self.boards.get(board)
        if model is None:
            model = self.boards[board] = BoardModel(board)
        if kind == "status":
            model.on_status(payload.decode(errors="replace"))
            self._push_status()
            self._push_seats(board)
            self._changed(board)
            return
        if kind == "names":
            names = parse_names(payload)
            if names is not None:
                model.on_names(names)
                self._push_seats(board)
                self._changed(board)
            return
        seat = kind[7:] if kind.startswith("player/") and kind[7:].isdigit() else None
        if seat is not None and not payload:  # emptied: the game has no such seat
            model.on_private(int(seat), None)
            self._push_seats(board)
            return
        try:
            data = json.loads(payload)
        except ValueError:
            log.warning("%s: not JSON", topic)
            return
        if not isinstance(data, dict):
            return
        if kind == "state":
            model.on_state(data)
            self._versions[board] = hashlib.blake2b(payload, digest_size=8).hexdigest()
            self._push_seats(board)
            self._changed(board)
        elif kind == "events":
            model.on_event(data)
            self._changed(board)
        elif kind == "events/recent":
            model.on_recent(data)
            self._changed(board)
        elif seat is not None:
            model.on_private(int(seat), data)
            self._push_seats(board)

    # -- pushing to pages -----------------------------------------------------------------------

    def _changed(self, board: str) -> None:
        # A burst of messages (a state, its events, the names) goes out as one snapshot, and a busy
        # hall's boards go out together once a tick: the first change after a quiet tick at once.
        self._dirty.add(board)
        if self._flush_due or self.loop is None:
            return
        self._flush_due = True
        wait = self._flushed_at + self.config.tick - time.monotonic()
        if wait > 0:
            self.loop.call_later(wait, self._flush)
        else:
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due, self._flushed_at = False, time.monotonic()
        dirty, self._dirty = self._dirty, set()
        now: list[Release] = []
        for board in sorted(dirty):
            model = self.boards[board]
            delay = self.config.delay_of(board)
            # A board page's snapshot carries the picture: drawn only when a page shows it.
            snapshot = self._snapshot(board) if delay > 0 or self.watchers.get(board) else None
            line = thumb = None
            if model.state is not None:  # the hall lists boards that publish a state (stray names are no board)
                thumb = self.thumbs.get(board)
                if thumb is None or thumb.version != self._versions[board]:
                    thumb = Thumb(self._versions[board], model.state)
                line = sse("board", json.dumps({**model.summary(), "thumb": f"/thumb/{board}/{thumb.version}.svg"}))
            if delay > 0 and self.loop is not None:
                self.loop.call_later(delay, self._release, [(board, snapshot, line, thumb)])
            else:
                now.append((board, snapshot, line, thumb))
        if now:
            self._release(now)

    def _snapshot(self, board: str) -> bytes:
        return sse("board", json.dumps(self.boards[board].snapshot(self.config.delay_of(board))))

    def _release(self, releases: list[Release]) -> None:
        lines = {}
        for board, snapshot, line, thumb in releases:
            if snapshot is None:
                self.public.pop(board, None)  # made again when a board page opens
            else:
                self.public[board] = snapshot
                for sub in self.watchers.get(board, ()):
                    sub.put("board", snapshot)
            if line is not None and thumb is not None:
                self.thumbs[board] = thumb
                self.hall_lines[board] = lines[f"board:{board}"] = line
        if lines and self.hall:
            tick = Tick(lines)
            for sub in self.hall:
                sub.put_tick(tick)

    def _status(self, board: str | None) -> str:
        c = self.config
        boards = {b: m.status for b, m in self.boards.items()}
        out: dict[str, Any] = {"broker": self.broker_up, "address": f"{c.broker_host}:{c.broker_port}",
                               "boards": boards}
        if board is not None:
            model = self.boards.get(board)
            out["service"] = model.status if model else None
            out["since"] = model.status_since if model else None
        return json.dumps(out)

    def _push_status(self) -> None:
        data = sse("status", self._status(None))
        for sub in self.hall:
            sub.put("status", data)
        for board, subs in self.watchers.items():
            data = sse("status", self._status(board))
            for sub in subs:
                sub.put("status", data)
        for (board, _seat), subs in self.seat_watchers.items():
            data = sse("status", self._status(board))
            for sub in subs:
                sub.put("status", data)

    def _seat_json(self, board: str, seat: int) -> str:
        model = self.boards.get(board) or BoardModel(board)
        data = model.seat(seat)
        data["offer"] = self.seat_play.offered(board, seat) if self.seat_play is not None else None
        return json.dumps(data)

    def _push_seat(self, board: str, seat: int) -> None:
        subs = self.seat_watchers.get((board, seat))
        if subs:
            data = sse("seat", self._seat_json(board, seat))
            for sub in subs:
                sub.put("seat", data)

    def _push_seats(self, board: str) -> None:
        for b, seat in list(self.seat_watchers):
            if b == board:
                self._push_seat(board, seat)

    # -- seats and tokens -----------------------------------------------------------------------

    def token(self, board: str, seat: int) -> str:
        """Seat ``seat``'s token on ``board`` (made on first use): whoever holds it sees that hand."""
        key = (board, seat)
        if key not in self.tokens:
            self.tokens[key] = secrets.token_urlsafe(18)
        return self.tokens[key]

    def renew_token(self, board: str, seat: int) -> str:
        self.tokens.pop((board, seat), None)
        token = self.token(board, seat)
        for sub in self.seat_watchers.pop((board, seat), set()):  # the old phone's page stops at once
            sub.pending.clear()
            sub.put("gone", sse("gone", "{}"))
        return token

    def _allowed(self, request: web.Request) -> tuple[str, int]:
        board, seat = request.match_info["board"], int(request.match_info["seat"])
        expected = self.tokens.get((board, seat))
        given = request.query.get("token", "")
        if expected is None or not secrets.compare_digest(given.encode(), expected.encode()):
            raise web.HTTPForbidden(text="forbidden")
        return board, seat

    def seat_url(self, board: str, seat: int, base: str | None = None) -> str:
        base = (base or self.config.public_url or self.url).rstrip("/")
        return f"{base}/board/{board}/seat/{seat}?token={self.token(board, seat)}"

    # -- HTTP -----------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._page("hall.html"))
        app.router.add_get(f"/board/{BOARD_ID}", self._page("board.html"))
        app.router.add_get(f"/board/{BOARD_ID}/seat/{SEAT}", self._seat_page)
        app.router.add_get("/api/hall/events", self._hall_events)
        app.router.add_get(f"/thumb/{BOARD_ID}/{{version:[0-9a-f]{{16}}}}.svg", self._thumb)
        app.router.add_get(f"/api/board/{BOARD_ID}/events", self._board_events)
        app.router.add_get(f"/api/board/{BOARD_ID}/seat/{SEAT}/events", self._seat_events)
        app.router.add_post(f"/api/board/{BOARD_ID}/names", self._set_names)
        app.router.add_get(f"/api/board/{BOARD_ID}/pair/{SEAT}", self._pair)
        app.router.add_post(f"/api/board/{BOARD_ID}/pair/{SEAT}", self._pair)
        app.router.add_post(f"/api/board/{BOARD_ID}/seat/{SEAT}/play", self._play)
        app.router.add_post(f"/api/board/{BOARD_ID}/seat/{SEAT}/move", self._move)
        app.router.add_static("/static/", STATIC)
        return app

    def _page(self, name: str) -> Callable[[web.Request], Any]:
        async def handler(request: web.Request) -> web.FileResponse:
            return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
        return handler

    async def _seat_page(self, request: web.Request) -> web.StreamResponse:
        self._allowed(request)
        return web.FileResponse(STATIC / "seat.html", headers={"Cache-Control": "no-store"})

    async def _stream(self, request: web.Request, sub: Subscriber, group: set[Subscriber]) -> web.StreamResponse:
        """Send ``sub``'s messages to the page until it goes. A page that leaves what it was sent
        unread for ``stuck_after`` seconds is dropped (its browser reconnects by itself, and gets
        the latest snapshot), so what it holds here is at most the transport's buffer."""
        if len(self._all_subscribers()) >= self.config.max_pages:
            log.debug("page %s refused: %d pages open already", request.remote, self.config.max_pages)
            raise web.HTTPServiceUnavailable(text=f"too many pages open ({self.config.max_pages}); try again later",
                                             headers={"Retry-After": "10"})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        sock = request.transport.get_extra_info("socket") if request.transport is not None else None
        if sock is not None:  # what the kernel holds for a page that does not read is bounded too
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        if request.transport is not None:  # and what the server holds: past it, the page waits (latest line a board)
            request.transport.set_write_buffer_limits(high=WRITE_BUFFER)
        group.add(sub)
        try:
            writer = await response.prepare(request)
            assert writer is not None  # a stream's response is prepared once
            await self._send(writer, b"retry: 1000\n\n")  # the browser reconnects after a second when cut
            sub.transport, sub.chunked = request.transport, response.headers.get("Transfer-Encoding") == "chunked"
            while not self._closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(sub.wake.wait(), KEEPALIVE)
                data = sub.take()
                if b"event: gone" in data:
                    await self._send(writer, data)
                    break
                await self._send(writer, data or b": keepalive\n\n")
        except ConnectionError as exc:  # the page went away, or read nothing for too long: one line
            log.debug("page %s %s dropped: %s", request.remote, request.path, exc or type(exc).__name__)
            if request.transport is not None:
                request.transport.abort()
        except asyncio.CancelledError:  # the page closed its connection (or the server is stopping)
            if not self._closing:
                log.debug("page %s %s went away", request.remote, request.path)
            raise
        finally:
            group.discard(sub)
        return response

    async def _send(self, writer: AbstractStreamWriter, data: bytes) -> None:
        async def write() -> None:
            await writer.write(data)
            await writer.drain()  # waits while the server holds more than WRITE_BUFFER for the page

        try:
            await asyncio.wait_for(write(), self.config.stuck_after)
        except TimeoutError:
            raise ConnectionError(f"it read nothing for {self.config.stuck_after:g} s") from None

    async def _hall_events(self, request: web.Request) -> web.StreamResponse:
        sub = Subscriber()
        sub.put("status", sse("status", self._status(None)))
        for board, line in sorted(self.hall_lines.items()):
            sub.put(f"board:{board}", line)
        return await self._stream(request, sub, self.hall)

    async def _thumb(self, request: web.Request) -> web.Response:
        """A board's thumbnail at the version its hall line names: the same version never changes,
        so browsers keep it for good; an older one leads to the current one."""
        board = request.match_info["board"]
        thumb = self.thumbs.get(board)
        if thumb is None:
            raise web.HTTPNotFound(text="no such board")
        if request.match_info["version"] != thumb.version:
            raise web.HTTPSeeOther(f"/thumb/{board}/{thumb.version}.svg", headers={"Cache-Control": "no-cache"})
        headers = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=thumb.gzipped, content_type="image/svg+xml", headers=headers)
        return web.Response(body=thumb.svg, content_type="image/svg+xml", headers=headers)

    async def _board_events(self, request: web.Request) -> web.StreamResponse:
        board = request.match_info["board"]
        sub = Subscriber()
        sub.put("status", sse("status", self._status(board)))
        if board not in self.public and board in self.boards and not self.config.delay_of(board) > 0:
            self.public[board] = self._snapshot(board)  # nobody watched it: made now
        if board in self.public:
            sub.put("board", self.public[board])
        return await self._stream(request, sub, self.watchers.setdefault(board, set()))

    async def _seat_events(self, request: web.Request) -> web.StreamResponse:
        board, seat = self._allowed(request)
        sub = Subscriber()
        sub.put("status", sse("status", self._status(board)))
        sub.put("seat", sse("seat", self._seat_json(board, seat)))
        return await self._stream(request, sub, self.seat_watchers.setdefault((board, seat), set()))

    async def _set_names(self, request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.query.get("key", ""), self.config.pair_key):
            raise web.HTTPForbidden(text="setting names needs the operator's key")
        board = request.match_info["board"]
        names = parse_names(await request.read())
        if names is None:
            raise web.HTTPBadRequest(text=f"names: a JSON list of at most {MAX_NAMES} short strings")
        if self.client is None or not self.broker_up:
            raise web.HTTPServiceUnavailable(text="the MQTT broker is not reachable")
        # Through the broker, like any client's names: the page changes when the message comes back.
        self.client.publish(self._names_topic(board), json.dumps(names), qos=1, retain=True)
        return web.json_response({"names": names})

    async def _pair(self, request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.query.get("key", ""), self.config.pair_key):
            raise web.HTTPForbidden(text="pairing a seat needs the operator's key")
        board, seat = request.match_info["board"], int(request.match_info["seat"])
        model = self.boards.get(board)
        if model is None or seat >= max(model.seats(), 1):
            raise web.HTTPNotFound(text="no such seat")
        if request.method == "POST":
            self.renew_token(board, seat)
        url = self.seat_url(board, seat, base=self.config.public_url or f"{request.scheme}://{request.host}")
        qr = segno.make(url, error="m").svg_inline(scale=4, border=2)
        return web.json_response({"url": url, "qr": qr}, headers={"Cache-Control": "no-store"})

    async def _play(self, request: web.Request) -> web.Response:
        board, seat = self._allowed(request)
        if self.seat_play is None:
            raise web.HTTPNotFound(text="this display does not take moves")
        try:
            move = (await request.json())["action"]
        except (ValueError, KeyError, TypeError) as exc:
            raise web.HTTPBadRequest(text="expected {\"action\": TEXT}") from exc
        if not isinstance(move, str) or not self.seat_play.pick(board, seat, move):
            raise web.HTTPConflict(text=f"{move!r} is not one of the moves offered")
        return web.json_response({"played": move})

    async def _move(self, request: web.Request) -> web.Response:
        """A phone seat's move, tapped on its page: sent to the service as ``request/play`` with the
        seat's secret (from its ``player/<n>`` topic, never given to the page); the service's answer,
        coded, back to the page."""
        board, seat = self._allowed(request)
        try:
            move = (await request.json())["action"]
        except (ValueError, KeyError, TypeError) as exc:
            raise web.HTTPBadRequest(text="expected {\"action\": TEXT}") from exc
        if not isinstance(move, str):
            raise web.HTTPBadRequest(text="expected {\"action\": TEXT}")
        model = self.boards.get(board)
        secret = model.secret(seat) if model is not None else None
        if secret is None:
            raise web.HTTPConflict(text="this seat is not played from a phone")
        if self.client is None or not self.broker_up or self.loop is None:
            raise web.HTTPServiceUnavailable(text="the MQTT broker is not reachable")
        request_id = f"display-{secrets.token_hex(8)}"
        answer = self.answers[request_id] = self.loop.create_future()
        body = {"id": request_id, "seat": seat, "secret": secret, "action": move}
        self.client.publish(f"{self.config.base_topic}/{board}/request/play", json.dumps(body), qos=1)
        try:
            result = await asyncio.wait_for(answer, PLAY_ANSWER_S)
        except TimeoutError:
            raise web.HTTPGatewayTimeout(text="the referee did not answer") from None
        finally:
            self.answers.pop(request_id, None)
        return web.json_response({k: v for k, v in result.items() if k != "id"})

    def _answered(self, payload: bytes) -> None:
        """The service answered a ``play`` request: the page that sent it gets the answer."""
        try:
            answer = json.loads(payload)
        except ValueError:
            return
        request_id = answer.get("id") if isinstance(answer, dict) else None
        waiting = self.answers.get(request_id) if isinstance(request_id, str) else None
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)

    def _names_topic(self, board: str) -> str:
        return f"{self.config.base_topic}/{board}/names"


def _lan_address() -> str:
    """This machine's address on the local network (for the printed URL), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            address = s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


class RunningDisplay:
    """A display in a thread of its own (the demo, tests): ``.display``, ``.url``, ``.stop()``."""

    def __init__(self, config: DisplayConfig, seat_play: SeatPlay | None = None) -> None:
        self.display = Display(config, seat_play)
        self.loop = asyncio.new_event_loop()
        started: queue.Queue[BaseException | None] = queue.Queue()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.display.start())
            except BaseException as exc:  # e.g. the port is taken: tell the caller
                started.put(exc)
                return
            started.put(None)
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name="arbitro-display", daemon=True)
        self.thread.start()
        error = started.get(timeout=30)
        if error is not None:
            self.thread.join(10)
            self.loop.close()  # not left to the garbage collector, which may find its sockets gone at exit
            raise error

    @property
    def url(self) -> str:
        return self.display.url

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in the display's loop and return what it returns."""
        async def wrapped() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.display.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def main(config: DisplayConfig) -> int:
    """Serve until SIGINT or SIGTERM (``arbitro display``)."""
    async def serve() -> None:
        display = Display(config)
        await display.start()
        print(f"arbitro display: {display.url} (the hall), {display.url}board/<board> (a board); pair phones to "
              f"seats from {display.url}board/<board>?key={config.pair_key} (keep this link to yourself)", flush=True)
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            await display.stop()

    asyncio.run(serve())
    return 0
