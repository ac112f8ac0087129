"""What the hall and the board pages are told of the boards: a board page's snapshot (after the
board's spectator delay), the hall's line and thumbnail per board, and the status of the broker
and of every board's service.

A hall scales by sharing: each board's latest hall line is encoded once and every page's
:class:`Subscriber` holds a reference to it (the latest per board, never a queue); the line names
its thumbnail by version (``/thumb/<board>/<version>.svg``), fetched once per version by each
browser, cached for good and sent gzipped, instead of the SVG inline in every line. A burst of
messages (a state, its events, the names) goes out as one snapshot, and a busy hall's boards go
out together once a tick.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import hashlib
import json
import time
from typing import Any

from aiohttp import web

from controller.display.broker import BrokerLink
from controller.display.config import DisplayConfig
from controller.display.model import BoardModel
from controller.display.render import board_svg
from controller.display.streams import Streams, Subscriber, Tick, sse


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


Release = tuple[str, bytes | None, bytes | None, Thumb | None]
"""What a flush releases of a board: its snapshot for board pages (None: nobody watches it), its
hall line and its thumbnail (None: it has published no state)."""


class Hall:
    """The boards as the hall and the board pages see them. ``loop`` is set once the display runs
    (until then a change waits for :meth:`flush`)."""

    def __init__(self, config: DisplayConfig, boards: dict[str, BoardModel], streams: Streams,
                 broker: BrokerLink) -> None:
        self.config = config
        self.boards = boards
        self.streams = streams
        self.broker = broker
        # board -> its latest released snapshot (after the delay), an event; made when a board page
        # needs it: a board nobody watches (without a delay) has none, it is made when one opens
        self.public: dict[str, bytes] = {}
        self.lines: dict[str, bytes] = {}  # board -> its hall line, an event (one copy for every page)
        self.thumbs: dict[str, Thumb] = {}  # board -> the thumbnail its hall line names
        self._versions: dict[str, str] = {}  # board -> its latest state message's digest, its thumbnail's version
        self._dirty: set[str] = set()
        self._flush_due = False
        self._flushed_at = 0.0  # time.monotonic() of the last flush
        self.loop: asyncio.AbstractEventLoop | None = None

    def stated(self, board: str, payload: bytes) -> None:
        """A state message came: its digest names the board's next thumbnail."""
        self._versions[board] = hashlib.blake2b(payload, digest_size=8).hexdigest()

    def changed(self, board: str) -> None:
        # A burst of messages (a state, its events, the names) goes out as one snapshot, and a busy
        # hall's boards go out together once a tick: the first change after a quiet tick at once.
        self._dirty.add(board)
        if self._flush_due or self.loop is None:
            return
        self._flush_due = True
        wait = self._flushed_at + self.config.tick - time.monotonic()
        if wait > 0:
            self.loop.call_later(wait, self.flush)
        else:
            self.loop.call_soon(self.flush)

    def hidden(self, board: str) -> bool:
        """Offline for longer than ``hide_after``: the hall no longer lists it (greyed until then)."""
        model, after = self.boards.get(board), self.config.hide_after
        return (model is not None and after > 0 and model.status == "offline" and model.status_since is not None
                and time.time() - model.status_since >= after)

    def went_offline(self, board: str) -> None:
        """A board's status is now offline: looked at again when it would be hidden."""
        if self.loop is not None and self.config.hide_after > 0:
            self.loop.call_later(self.config.hide_after + 0.05, self.changed, board)

    def drop(self, board: str) -> None:
        """The board leaves the hall (forgotten: its state emptied on the broker, or hidden)."""
        self.lines.pop(board, None)
        self.thumbs.pop(board, None)
        gone = sse("gone", json.dumps({"board": board}))
        for sub in self.streams.hall:
            sub.put(f"board:{board}", gone)

    def forget(self, board: str) -> None:
        """Its state was emptied (``arbitro forget``): the display forgets the board altogether."""
        self.drop(board)
        self.public.pop(board, None)
        self._versions.pop(board, None)
        self._dirty.discard(board)
        self.boards.pop(board, None)

    def flush(self) -> None:
        self._flush_due, self._flushed_at = False, time.monotonic()
        dirty, self._dirty = self._dirty, set()
        now: list[Release] = []
        for board in sorted(dirty):
            if board not in self.boards:
                continue
            if self.hidden(board):
                self.drop(board)
                continue
            model = self.boards[board]
            delay = self.config.delay_of(board)
            # A board page's snapshot carries the picture: drawn only when a page shows it.
            snapshot = self.snapshot(board) if delay > 0 or self.streams.watchers.get(board) else None
            line = thumb = None
            if model.state is not None:  # the hall lists boards that publish a state (stray names are no board)
                thumb = self.thumbs.get(board)
                if thumb is None or thumb.version != self._versions[board]:
                    thumb = Thumb(self._versions[board], model.state)
                line = sse("board", json.dumps({**model.summary(), "thumb": f"/thumb/{board}/{thumb.version}.svg"}))
            if delay > 0 and self.loop is not None:
                self.loop.call_later(delay, self.release, [(board, snapshot, line, thumb)])
            else:
                now.append((board, snapshot, line, thumb))
        if now:
            self.release(now)

    def snapshot(self, board: str) -> bytes:
        return sse("board", json.dumps(self.boards[board].snapshot(self.config.delay_of(board))))

    def release(self, releases: list[Release]) -> None:
        lines = {}
        for board, snapshot, line, thumb in releases:
            if snapshot is None:
                self.public.pop(board, None)  # made again when a board page opens
            else:
                self.public[board] = snapshot
                for sub in self.streams.watchers.get(board, ()):
                    sub.put("board", snapshot)
            if line is not None and thumb is not None and board in self.boards and not self.hidden(board):
                self.thumbs[board] = thumb
                self.lines[board] = lines[f"board:{board}"] = line
        if lines and self.streams.hall:
            tick = Tick(lines)
            for sub in self.streams.hall:
                sub.put_tick(tick)

    def status(self, board: str | None) -> str:
        """The broker's and every board's status; with ``board``, its service's and since when."""
        c = self.config
        boards = {b: m.status for b, m in self.boards.items()}
        out: dict[str, Any] = {"broker": self.broker.up, "address": f"{c.broker_host}:{c.broker_port}",
                               "why": self.broker.trouble.why, "boards": boards}
        if board is not None:
            model = self.boards.get(board)
            out["service"] = model.status if model else None
            out["since"] = model.status_since if model else None
        return json.dumps(out)

    def push_status(self) -> None:
        """The status to every page: the hall, the board pages, the seat pages."""
        data = sse("status", self.status(None))
        for sub in self.streams.hall:
            sub.put("status", data)
        for board, subs in self.streams.watchers.items():
            data = sse("status", self.status(board))
            for sub in subs:
                sub.put("status", data)
        for (board, _seat), subs in self.streams.seat_watchers.items():
            data = sse("status", self.status(board))
            for sub in subs:
                sub.put("status", data)

    # -- the pages' requests --------------------------------------------------------------------

    async def hall_events(self, request: web.Request) -> web.StreamResponse:
        sub = Subscriber()
        sub.put("status", sse("status", self.status(None)))
        for board, line in sorted(self.lines.items()):
            sub.put(f"board:{board}", line)
        return await self.streams.serve(request, sub, self.streams.hall)

    async def thumb(self, request: web.Request) -> web.Response:
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

    async def board_events(self, request: web.Request) -> web.StreamResponse:
        board = request.match_info["board"]
        sub = Subscriber()
        sub.put("status", sse("status", self.status(board)))
        if board not in self.public and board in self.boards and not self.config.delay_of(board) > 0:
            self.public[board] = self.snapshot(board)  # nobody watched it: made now
        if board in self.public:
            sub.put("board", self.public[board])
        return await self.streams.serve(request, sub, self.streams.watchers.setdefault(board, set()))
