"""Seat pages, and what needs the operator's key: a seat paired to a phone by a token (the QR code
on the board page opened with the key), the seat page and its stream, the players' names, a phone
seat's move sent to the service as ``request/play`` with the seat's secret, and a seat played by
clicking (:class:`SeatPlay`, the demo's).

Whoever holds a seat's token sees that seat's hand; pairing again renews the token and the old
phone's page stops at once (docs/display.md, "Seats")."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import queue
import secrets
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import segno
from aiohttp import web

from controller.display.broker import BrokerLink, settle
from controller.display.config import DisplayConfig
from controller.display.hall import Hall
from controller.display.model import BoardModel, read_names, said_moves
from controller.display.streams import Streams, Subscriber, sse

PLAY_ANSWER_S = 10.0  # how long a seat page waits for the service's answer to its move


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


class Seats:
    """The seats' tokens and pages, the names, and the phone seats' moves."""

    def __init__(self, config: DisplayConfig, boards: dict[str, BoardModel], streams: Streams, hall: Hall,
                 broker: BrokerLink, seat_play: SeatPlay | None) -> None:
        self.config = config
        self.boards = boards
        self.streams = streams
        self.hall = hall
        self.broker = broker
        self.seat_play = seat_play
        self.tokens: dict[tuple[str, int], str] = {}
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # a play request's id -> its answer, awaited

    # -- tokens ---------------------------------------------------------------------------------

    def token(self, board: str, seat: int) -> str:
        """Seat ``seat``'s token on ``board`` (made on first use): whoever holds it sees that hand."""
        key = (board, seat)
        if key not in self.tokens:
            self.tokens[key] = secrets.token_urlsafe(18)
        return self.tokens[key]

    def renew_token(self, board: str, seat: int) -> str:
        self.tokens.pop((board, seat), None)
        token = self.token(board, seat)
        for sub in self.streams.seat_watchers.pop((board, seat), set()):  # the old phone's page stops at once
            sub.pending.clear()
            sub.put("gone", sse("gone", "{}"))
        return token

    def url(self, board: str, seat: int, base: str) -> str:
        """The seat page's address on the server at ``base``, with its token."""
        return f"{base.rstrip('/')}/board/{board}/seat/{seat}?token={self.token(board, seat)}"

    def allowed(self, request: web.Request) -> tuple[str, int]:
        """The board and seat of a seat page's request, if it carries the seat's token; else 403."""
        board, seat = request.match_info["board"], int(request.match_info["seat"])
        expected = self.tokens.get((board, seat))
        given = request.query.get("token", "")
        if expected is None or not secrets.compare_digest(given.encode(), expected.encode()):
            raise web.HTTPForbidden(text="forbidden")
        return board, seat

    # -- what a seat page is told ---------------------------------------------------------------

    def _seat_json(self, board: str, seat: int) -> str:
        model = self.boards.get(board) or BoardModel(board)
        data = model.seat(seat)
        data["offer"] = self.seat_play.offered(board, seat) if self.seat_play is not None else None
        data["said"].update(said_moves(str((model.state or {}).get("game", "")), seat, data["offer"] or []))
        return json.dumps(data)

    def push(self, board: str, seat: int) -> None:
        subs = self.streams.seat_watchers.get((board, seat))
        if subs:
            data = sse("seat", self._seat_json(board, seat))
            for sub in subs:
                sub.put("seat", data)

    def push_board(self, board: str) -> None:
        """Every open seat page of ``board``."""
        for b, seat in list(self.streams.seat_watchers):
            if b == board:
                self.push(board, seat)

    # -- names (the operator's) -----------------------------------------------------------------

    def _names_topic(self, board: str) -> str:
        return f"{self.config.base_topic}/{board}/names"

    def keep_names(self) -> None:
        """The names are ours to keep: a broker that restarted without its retained messages gets them back
        (for the boards the display knows: stray names for a board that publishes no state are not kept)."""
        for model in self.boards.values():
            if model.names and model.state is not None:
                self.broker.publish(self._names_topic(model.board), json.dumps(model.names), retain=True)

    # -- the pages' requests --------------------------------------------------------------------

    async def events(self, request: web.Request) -> web.StreamResponse:
        board, seat = self.allowed(request)
        sub = Subscriber()
        sub.put("status", sse("status", self.hall.status(board)))
        sub.put("seat", sse("seat", self._seat_json(board, seat)))
        return await self.streams.serve(request, sub, self.streams.seat_watchers.setdefault((board, seat), set()))

    async def set_names(self, request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.query.get("key", ""), self.config.pair_key):
            raise web.HTTPForbidden(text="setting names needs the operator's key")
        board = request.match_info["board"]
        model = self.boards.get(board)
        if model is None or model.state is None:  # names for no board would be published and kept for nothing
            raise web.HTTPNotFound(text=f"names: no board {board!r} (the display knows the boards that publish "
                                        "a state)")
        try:
            names = read_names(await request.read())
        except ValueError as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None
        if not self.broker.ready:
            raise web.HTTPServiceUnavailable(text="the MQTT broker is not reachable")
        # Through the broker, like any client's names: the page changes when the message comes back.
        self.broker.publish(self._names_topic(board), json.dumps(names), retain=True)
        return web.json_response({"names": names})

    async def pair(self, request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.query.get("key", ""), self.config.pair_key):
            raise web.HTTPForbidden(text="pairing a seat needs the operator's key")
        board, seat = request.match_info["board"], int(request.match_info["seat"])
        model = self.boards.get(board)
        if model is None or seat >= max(model.seats(), 1):
            raise web.HTTPNotFound(text="no such seat")
        if request.method == "POST":
            self.renew_token(board, seat)
        url = self.url(board, seat, self.config.public_url or f"{request.scheme}://{request.host}")
        qr = segno.make(url, error="m").svg_inline(scale=4, border=QUIET_ZONE)
        answer = {"url": url, "qr": qr}
        if loopback(url):  # a phone across the room reaches no loopback address: say so beside the code
            answer["warning"] = (f"{urlsplit(url).hostname} is this machine's own address: a phone cannot reach it; "
                                 "start the display with --public-url and the address phones reach it at")
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    async def play(self, request: web.Request) -> web.Response:
        board, seat = self.allowed(request)
        if self.seat_play is None:
            raise web.HTTPNotFound(text="this display does not take moves")
        move = await _action(request)
        if not isinstance(move, str) or not self.seat_play.pick(board, seat, move):
            raise web.HTTPConflict(text=f"{move!r} is not one of the moves offered")
        return web.json_response({"played": move})

    async def move(self, request: web.Request) -> web.Response:
        """A phone seat's move, tapped on its page: sent to the service as ``request/play`` with the
        seat's secret (from its ``player/<n>`` topic, never given to the page); the service's answer,
        coded, back to the page."""
        board, seat = self.allowed(request)
        move = await _action(request)
        if not isinstance(move, str):
            raise web.HTTPBadRequest(text="expected {\"action\": TEXT}")
        return await self._ask_service(board, seat, "play", {"action": move})

    async def consent(self, request: web.Request) -> web.Response:
        """A phone seat's answer to a takeback asked across a chance outcome it has seen
        (``docs/rules/takebacks.md``): sent as ``request/consent`` with the seat's secret."""
        board, seat = self.allowed(request)
        try:
            agree = (await request.json())["agree"]
        except (ValueError, KeyError, TypeError) as exc:
            raise web.HTTPBadRequest(text="expected {\"agree\": true or false}") from exc
        if not isinstance(agree, bool):
            raise web.HTTPBadRequest(text="expected {\"agree\": true or false}")
        return await self._ask_service(board, seat, "consent", {"agree": agree})

    async def _ask_service(self, board: str, seat: int, command: str, fields: dict[str, Any]) -> web.Response:
        """A phone seat's request to its board's service, carrying the seat's secret (from its
        ``player/<n>`` topic, never given to the page); the service's answer, coded, to the page."""
        model = self.boards.get(board)
        secret = model.secret(seat) if model is not None else None
        if secret is None:
            raise web.HTTPConflict(text="this seat is not played from a phone")
        if not self.broker.ready:
            raise web.HTTPServiceUnavailable(text="the MQTT broker is not reachable")
        request_id = f"display-{secrets.token_hex(8)}"
        answer = self.answers[request_id] = asyncio.get_running_loop().create_future()
        body = {"id": request_id, "seat": seat, "secret": secret, **fields}
        self.broker.publish(f"{self.config.base_topic}/{board}/request/{command}", json.dumps(body))
        try:
            result = await asyncio.wait_for(answer, PLAY_ANSWER_S)
        except TimeoutError:
            raise web.HTTPGatewayTimeout(text="the referee did not answer") from None
        finally:
            self.answers.pop(request_id, None)
        return web.json_response({k: v for k, v in result.items() if k != "id"})

    def answered(self, payload: bytes) -> None:
        """The service answered a ``play`` or ``consent`` request: the page that sent it gets the answer."""
        settle(self.answers, payload)


QUIET_ZONE = 4  # modules of white around a QR code, as the QR specification asks


def loopback(url: str) -> bool:
    """``url`` names this machine's own loopback address (which no phone reaches)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def _action(request: web.Request) -> object:
    """The ``action`` of what a seat page sent (``{"action": TEXT}``); 400 without one."""
    try:
        return (await request.json())["action"]
    except (ValueError, KeyError, TypeError) as exc:
        raise web.HTTPBadRequest(text="expected {\"action\": TEXT}") from exc
