"""The pages' event streams (Server-Sent Events): every open page, by what it shows, and the loop
that sends one page what waits for it.

Pages get complete snapshots, never diffs, so a page that missed some (or a slow one, whose pending
updates are coalesced) is right again with the next one. Each page's :class:`Subscriber` holds the
latest message per key (a board, the status), never a queue, and the messages are the display's
own encoded copies, shared by every page. A busy hall is one write per page a tick: a tick's lines
are framed once (:class:`Tick`) and written straight to every page that has read all it was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter

from controller.display.config import DisplayConfig

log = logging.getLogger("arbitro.display")

KEEPALIVE = 15.0  # seconds between SSE comments, so that dead connections are noticed
SEND_BUFFER = 128 * 1024  # bytes the kernel may hold for one page's stream (a few board snapshots)
WRITE_BUFFER = 8 * 1024  # bytes beyond that the server holds for a page before its stream waits for it to read


def sse(event: str, data: str) -> bytes:
    """One Server-Sent Event, encoded (once, however many pages it goes to)."""
    return f"event: {event}\ndata: {data}\n\n".encode()


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


class Streams:
    """Every open page's stream, by what it shows: the hall, a board page, a seat page."""

    def __init__(self, config: DisplayConfig) -> None:
        self.config = config
        self.hall: set[Subscriber] = set()
        self.watchers: dict[str, set[Subscriber]] = {}  # board -> its board pages
        self.seat_watchers: dict[tuple[str, int], set[Subscriber]] = {}  # (board, seat) -> its seat page
        self.closing = False

    def all(self) -> list[Subscriber]:
        subs = list(self.hall)
        for group in (*self.watchers.values(), *self.seat_watchers.values()):
            subs.extend(group)
        return subs

    def close(self) -> None:
        """The server is stopping: every stream ends."""
        self.closing = True
        for sub in self.all():
            sub.wake.set()

    async def serve(self, request: web.Request, sub: Subscriber, group: set[Subscriber]) -> web.StreamResponse:
        """Send ``sub``'s messages to the page until it goes. A page that leaves what it was sent
        unread for ``stuck_after`` seconds is dropped (its browser reconnects by itself, and gets
        the latest snapshot), so what it holds here is at most the transport's buffer."""
        if len(self.all()) >= self.config.max_pages:
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
            while not self.closing:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow the cancel of a page
                # that closed just as its wake came, and its place would be held until the next keepalive
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(KEEPALIVE):
                        await sub.wake.wait()
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
            if not self.closing:
                log.debug("page %s %s went away", request.remote, request.path)
            raise
        finally:
            group.discard(sub)
        return response

    async def _send(self, writer: AbstractStreamWriter, data: bytes) -> None:
        try:
            async with asyncio.timeout(self.config.stuck_after):
                await writer.write(data)
                await writer.drain()  # waits while the server holds more than WRITE_BUFFER for the page
        except TimeoutError:
            raise ConnectionError(f"it read nothing for {self.config.stuck_after:g} s") from None
