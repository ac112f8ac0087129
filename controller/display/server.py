"""``arbitro display``: a web server that draws every board live from MQTT (docs/display.md).

One paho client (its own thread, :mod:`~controller.display.broker`) subscribes to the boards'
topics and hands each message to the asyncio loop, which keeps a :class:`BoardModel` per board and
pushes what changed to the open pages over Server-Sent Events (:mod:`~controller.display.streams`).
:class:`Display` puts the parts together and routes each address to the part that answers it: the
hall and the board pages (:mod:`~controller.display.hall`), the seat pages, the names and the
phone seats' moves (:mod:`~controller.display.seats`), the records' download and the replay
viewer (:mod:`~controller.display.replays`), the pages' files (``static/``).

The display only reads the boards' topics; it writes its own retained ``<board>/names``, and the
moves phone seats tap on their pages, as ``request/play`` with the seat's secret (docs/display.md).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import queue
import signal
import socket
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.display.broker import BrokerLink, post
from controller.display.config import DisplayConfig
from controller.display.hall import Hall
from controller.display.model import BoardModel, parse_names
from controller.display.replays import Replays
from controller.display.results import Results
from controller.display.seats import SeatPlay, Seats
from controller.display.streams import Streams

__all__ = ["Display", "DisplayConfig", "RunningDisplay", "SeatPlay", "main"]
"""What the demo, the command line and the tests take from here (the parts live in their modules)."""

log = logging.getLogger("arbitro.display")

STATIC = Path(str(resources.files("controller.display") / "static"))
BOARD_ID = r"{board:[A-Za-z0-9_.\-]{1,64}}"
SEAT = r"{seat:[0-9]{1,2}}"


class Display:
    """The display server. ``await start()``, ``await stop()``; or :class:`RunningDisplay`."""

    def __init__(self, config: DisplayConfig, seat_play: SeatPlay | None = None) -> None:
        self.config = config
        self.boards: dict[str, BoardModel] = {}
        self.streams = Streams(config)
        self.broker = BrokerLink(config, self._on_message, self._on_broker)
        self.hall = Hall(config, self.boards, self.streams, self.broker)
        self.seats = Seats(config, self.boards, self.streams, self.hall, self.broker, seat_play)
        self.replays = Replays(config, self.boards, self.broker)
        self.results = Results()
        self.runner: web.AppRunner | None = None
        self.port = config.port

    # -- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.hall.loop = loop
        if self.seat_play is not None:
            self.seat_play.changed = lambda board, seat: post(loop, self.seats.push, board, seat)
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
        self.broker.start(loop)
        log.info("display on %s, broker %s:%d", self.url, self.config.broker_host, self.config.broker_port)

    async def stop(self) -> None:
        self.streams.close()
        self.broker.stop()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def seat_play(self) -> SeatPlay | None:
        """Who plays a seat by clicking on its page (the demo's), if anyone."""
        return self.seats.seat_play

    @property
    def url(self) -> str:
        host = self.config.host
        if host in ("0.0.0.0", "::", ""):
            host = _lan_address()
        return f"http://{host}:{self.port}/"

    def seat_url(self, board: str, seat: int) -> str:
        """Seat ``seat``'s page on ``board``, with its token, as phones reach this server."""
        return self.seats.url(board, seat, self.config.public_url or self.url)

    # -- what the boards publish ----------------------------------------------------------------

    def _on_broker(self, up: bool) -> None:
        if up:
            self.seats.keep_names()
        self.hall.push_status()

    def _on_message(self, topic: str, payload: bytes) -> None:
        """A board's message (in the loop): its model changes, and the pages that show it are told."""
        base = self.config.base_topic + "/"
        if not topic.startswith(base):
            return
        board, _, kind = topic[len(base):].partition("/")
        if kind in ("response/play", "response/consent"):
            self.seats.answered(payload)
            return
        if kind == "response/record":
            self.replays.answered(payload)
            return
        if not payload and kind == "state":  # emptied: the board was forgotten (arbitro forget)
            if board in self.boards:
                self.hall.forget(board)
                self.hall.push_status()
            return
        model = self.boards.get(board)
        if model is None:
            if not payload:
                return
            model = self.boards[board] = BoardModel(board)
        if kind == "status":
            if not payload:
                return
            model.on_status(payload.decode(errors="replace"))
            if model.status == "offline":
                self.hall.went_offline(board)
            self.hall.push_status()
            self.seats.push_board(board)
            self.hall.changed(board)
            return
        if kind == "names":
            names = parse_names(payload)
            if names is not None:
                model.on_names(names)
                self.seats.push_board(board)
                self.hall.changed(board)
            return
        seat = kind[7:] if kind.startswith("player/") and kind[7:].isdigit() else None
        if seat is not None and not payload:  # emptied: the game has no such seat
            model.on_private(int(seat), None)
            self.seats.push_board(board)
            return
        if not payload:  # emptied (arbitro forget): nothing to take
            return
        try:
            data = json.loads(payload)
        except ValueError:
            log.warning("%s: not JSON", topic)
            return
        if not isinstance(data, dict):
            return
        if kind == "state":
            was_over = model.state is not None and bool(model.state.get("over"))
            model.on_state(data)
            if data.get("over") and not was_over:
                self.results.finished(board, data, model.names)
            self.hall.stated(board, payload)
            self.seats.push_board(board)
            self.hall.changed(board)
        elif kind == "events":
            model.on_event(data)
            self.hall.changed(board)
        elif kind == "events/recent":
            model.on_recent(data)
            self.hall.changed(board)
        elif seat is not None:
            model.on_private(int(seat), data)
            self.seats.push_board(board)

    # -- HTTP: which part answers each address --------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        hall, seats = self.hall, self.seats
        app.router.add_get("/", _page("hall.html"))
        app.router.add_get(f"/board/{BOARD_ID}", _page("board.html"))
        app.router.add_get(f"/board/{BOARD_ID}/seat/{SEAT}", self._seat_page)
        app.router.add_get("/replay", _page("replay.html"))
        app.router.add_get(f"/api/board/{BOARD_ID}/record", self.replays.download)
        app.router.add_post("/api/replay", self.replays.position)
        app.router.add_get("/results", _page("results.html"))
        app.router.add_get("/api/results", self.results.json)
        app.router.add_get("/results.csv", self.results.results_csv)
        app.router.add_get("/standings.csv", self.results.standings_csv)
        app.router.add_get("/api/hall/events", hall.hall_events)
        app.router.add_get(f"/thumb/{BOARD_ID}/{{version:[0-9a-f]{{16}}}}.svg", hall.thumb)
        app.router.add_get(f"/api/board/{BOARD_ID}/events", hall.board_events)
        app.router.add_get(f"/api/board/{BOARD_ID}/seat/{SEAT}/events", seats.events)
        app.router.add_post(f"/api/board/{BOARD_ID}/names", seats.set_names)
        app.router.add_get(f"/api/board/{BOARD_ID}/pair/{SEAT}", seats.pair)
        app.router.add_post(f"/api/board/{BOARD_ID}/pair/{SEAT}", seats.pair)
        app.router.add_post(f"/api/board/{BOARD_ID}/seat/{SEAT}/play", seats.play)
        app.router.add_post(f"/api/board/{BOARD_ID}/seat/{SEAT}/move", seats.move)
        app.router.add_post(f"/api/board/{BOARD_ID}/seat/{SEAT}/consent", seats.consent)
        app.router.add_static("/static/", STATIC)
        return app

    async def _seat_page(self, request: web.Request) -> web.StreamResponse:
        self.seats.allowed(request)
        return web.FileResponse(STATIC / "seat.html", headers={"Cache-Control": "no-store"})


def _page(name: str) -> Callable[[web.Request], Any]:
    async def handler(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
    return handler


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
