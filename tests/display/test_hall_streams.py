"""A hall that keeps up with many boards and pages (issue 23): a busy hall's changes reach each page
as one write a tick, shared by every page; a hall line goes out without waiting for its picture or
for a board page's snapshot nobody watches; and the bench times every stream, not the fastest."""

from __future__ import annotations

import functools
import json
import socket
import time

from bench.display import public_states, stream_latencies
from controller.display.render import board_svg
from controller.display.server import Display, DisplayConfig
from controller.display.streams import Subscriber
from controller.localbroker import Broker
from tests.display.conftest import start_display
from tests.display.test_server_limits import stuck_page
from tests.support.waiting import wait_until


class HallStream:
    """A page's hall stream read off a raw socket, one HTTP chunk (one write of the server's) at a time."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/hall/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.sock.settimeout(15)
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        assert b" 200 " in head.split(b"\r\n", 1)[0] and b"chunked" in head.lower(), head

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            data = self.sock.recv(1 << 16)
            assert data, "the server closed the stream"
            self.buffer += data
        out, self.buffer = self.buffer.split(mark, 1)
        return out

    def chunk(self) -> bytes:
        size = int(self._until(b"\r\n"), 16)
        while len(self.buffer) < size + 2:
            data = self.sock.recv(1 << 16)
            assert data, "the server closed the stream"
            self.buffer += data
        out, self.buffer = self.buffer[:size], self.buffer[size + 2:]
        return out

    def boards_in_next_chunk(self) -> list[str]:
        """The boards whose hall lines the next write carried (keep-alives and the status skipped)."""
        while True:
            found = [json.loads(event.split(b"data: ", 1)[1])["board"]
                     for event in self.chunk().split(b"\n\n") if event.startswith(b"event: board\n")]
            if found:
                return found

    def close(self) -> None:
        self.sock.close()


def test_a_busy_halls_changes_reach_each_page_in_one_write_a_tick(broker: Broker) -> None:
    display = start_display(broker.port, tick=1.0)
    d = display.display
    states = {b: public_states("contigo", b, 1, seed=i)[0] for i, b in enumerate(("h1", "h2", "h3", "h4"))}

    def arrive(board: str) -> None:  # as paho's thread hands a message over
        display.call(lambda: d._on_message(f"arbitro/{board}/state", json.dumps(states[board]).encode()))

    stuck = stuck_page(d.port, "/api/hall/events")  # a page that reads nothing holds up nobody
    pages = [HallStream(d.port) for _ in range(3)]
    try:
        wait_until(lambda: display.call(lambda: len(d.streams.hall) == 4 and all(s.transport for s in d.streams.hall)),
                   "every page's stream under way")
        wait_until(lambda: display.call(lambda: time.monotonic() >= d.hall._flushed_at + d.config.tick),
                   "a tick with nothing to send: the next change goes out at once")
        arrive("h1")
        assert [page.boards_in_next_chunk() for page in pages] == [["h1"]] * 3
        for board in ("h2", "h3", "h4"):  # three changes within the tick, each in a loop turn of its own
            arrive(board)
        assert [page.boards_in_next_chunk() for page in pages] == [["h2", "h3", "h4"]] * 3
    finally:
        for page in pages:
            page.close()
        stuck.close()
        display.stop()


def test_a_hall_line_goes_out_before_its_picture_is_drawn_and_the_picture_when_fetched() -> None:
    display = Display(DisplayConfig())  # not started: its messages handed over as paho's thread would
    viewer = Subscriber()
    display.streams.hall.add(viewer)
    state = public_states("jeocinco", "j1", 4, seed=3)[-1]
    display._on_message("arbitro/j1/state", json.dumps(state).encode())
    display.hall.flush()
    assert b'"board": "j1"' in viewer.pending["board:j1"]
    model, thumb = display.boards["j1"], display.hall.thumbs["j1"]
    assert model._drawn[0] is None, "the picture was drawn before the hall line went out"
    assert "j1" not in display.hall.public, "a board page's snapshot was made with no board page open"
    assert thumb.svg == board_svg(state).encode() and thumb.svg.startswith(b"<svg")  # drawn when fetched
    display._on_message("arbitro/j1/state", json.dumps(state).encode())  # the same message again
    display.hall.flush()
    assert display.hall.thumbs["j1"] is thumb, "the same state's thumbnail was made again"


def test_the_bench_times_every_stream_and_every_publish() -> None:
    published = [(("b1", 1), 10.000), (("b1", 2), 11.000), (("b2", 1), 10.500)]
    arrived = [  # (stream, board, seq, read at, made at)
        (0, "b1", 1, 10.005, 10.001), (0, "b1", 2, 11.005, 11.001), (0, "b2", 1, 10.505, 10.501),  # a quick stream
        (1, "b1", 1, 10.400, 10.001), (1, "b1", 2, 11.900, 11.001),  # a slow one, which never read b2
        (2, "b1", 2, 11.020, 11.001), (2, "b2", 1, 10.520, 10.501),  # one that had no time for b1's first state
    ]
    latencies, made, missed = stream_latencies(published, arrived)
    assert sorted(round(ms) for ms in latencies) == [5, 5, 5, 20, 20, 400, 900, 1020]
    assert sorted(round(ms) for ms in made) == [1, 1, 1, 1, 1, 1, 1, 1001]
    assert missed == 1


def test_what_the_server_holds_for_a_page_that_does_not_read_is_bounded(broker: Broker) -> None:
    display = start_display(broker.port, tick=0.0, stuck_after=60.0)
    d = display.display
    boards = ("s1", "s2", "s3")
    messages = [(f"arbitro/{b}/state", json.dumps(state).encode())
                for n, b in enumerate(boards) for state in public_states("jeocinco", b, 100, seed=n)]
    stuck = stuck_page(d.port, "/api/hall/events")

    def held() -> int:  # what the server's transports hold, beyond what the kernel took
        assert d.runner is not None and d.runner.server is not None
        return max(p.transport.get_write_buffer_size() for p in d.runner.server.connections if p.transport is not None)

    try:
        wait_until(lambda: display.call(lambda: len(d.streams.hall) == 1), "the page's stream under way")
        for i in range(300):  # far more than the kernel's buffers take, a loop turn each
            for topic, payload in messages[i % 100::100]:
                display.call(functools.partial(d._on_message, topic, payload))
        longest = display.call(lambda: max(len(line) for line in d.hall.lines.values()))
        assert display.call(held) > 0, "the kernel took it all: nothing was tested"
        assert display.call(held) <= 8 * 1024 + len(boards) * longest + 64
    finally:
        stuck.close()
        display.stop()
