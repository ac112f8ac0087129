"""The display server against clients that misbehave (issue 18.9): names only with the operator's
key, a cap on open pages, pages that never read dropped and let go, and a dropped page one line
in the log. Real clients: aiohttp's, and raw sockets that never read."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import socket
import struct
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import aiohttp
import pytest

from bench.display import public_states
from controller.localbroker import Broker
from tests.display.conftest import start_display
from tests.support.mqttc import Listener
from tests.support.waiting import wait_until


def in_a_thread(coro: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run an aiohttp client in a loop of its own thread: Playwright's sync API, once another test
    opened the session's browser, keeps an event loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro()).result(60)


def stuck_page(port: int, path: str) -> socket.socket:
    """A page that asks for its stream and never reads a byte of it (a tiny receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return s


def test_player_names_need_the_operators_key(broker: Broker) -> None:
    display = start_display(broker.port)
    names = Listener(broker.port, ["arbitro/k1/names"])
    url = f"{display.url}api/board/k1/names"
    key = display.display.config.pair_key

    async def post_all() -> list[tuple[int, str]]:
        async with aiohttp.ClientSession() as http:
            answers = []
            for query, listed in (("", ["Mallory"]), ("?key=wrong", ["Mallory"]), (f"?key={key}", ["Ana", "Bo"])):
                async with http.post(url + query, data=json.dumps(listed)) as answer:
                    answers.append((answer.status, await answer.text()))
            return answers

    try:
        board_is_there(display, broker.port, "k1")
        (none, wrong, right) = in_a_thread(post_all)
        assert none == wrong == (403, "setting names needs the operator's key")
        assert right[0] == 200, right
        # The first names to reach the broker are the operator's: the display publishes in order on
        # its one connection, so the refused ones would have come before.
        published = names.wait_for(lambda m: m[0] == "arbitro/k1/names")
        assert json.loads(published[1]) == ["Ana", "Bo"]
    finally:
        names.close()
        display.stop()


def board_is_there(display: Any, port: int, board: str) -> None:
    """``board`` publishes a state, and the display (connected to the broker) knows it."""
    wait_until(lambda: display.call(lambda: display.display.broker.up), "the display to reach the broker", timeout=15.0)
    client = Listener(port, [])
    try:
        state = public_states("contigo", board, 1, seed=1)[0]
        client.client.publish(f"arbitro/{board}/state", json.dumps(state), qos=1, retain=True).wait_for_publish(10)
    finally:
        client.close()
    known: Callable[[], bool] = lambda: display.call(  # noqa: E731
        lambda: getattr(display.display.boards.get(board), "state", None) is not None)
    wait_until(known, f"the display to know board {board}", timeout=15.0)


def test_names_with_a_control_character_or_for_a_board_that_is_not_there_are_refused(broker: Broker) -> None:
    """Issue 35.8: a name holding a NUL, a newline or an escape is refused in one line; names for a
    board the display does not know (it publishes no state) are refused, and nothing is published
    or kept for it."""
    display = start_display(broker.port)
    names = Listener(broker.port, ["arbitro/+/names"])
    key = display.display.config.pair_key

    async def post(board: str, listed: list[str]) -> tuple[int, str]:
        async with aiohttp.ClientSession() as http, \
                http.post(f"{display.url}api/board/{board}/names?key={key}", data=json.dumps(listed)) as answer:
            return answer.status, await answer.text()

    async def post_all() -> list[tuple[int, str]]:
        return [await post(board, listed) for board, listed in (
            ("n9", ["Ana", "B\x00o"]), ("n9", ["Ana\nroot: ok"]), ("n9", ["\x1b[31mAna"]), ("n9", ["Ana\x85"]),
            ("ghost", ["Ana", "Bo"]), ("n9", ["Ana", "Bo"]))]

    try:
        board_is_there(display, broker.port, "n9")
        answers = in_a_thread(post_all)
        assert answers[:5] == [(400, "names: name 2 holds the control character U+0000"),
                               (400, "names: name 1 holds the control character U+000A"),
                               (400, "names: name 1 holds the control character U+001B"),
                               (400, "names: name 1 holds the control character U+0085"),
                               (404, "names: no board 'ghost' (the display knows the boards that publish a state)")]
        assert answers[5][0] == 200, answers[5]
        # The display publishes in order on its one connection: the refused ones would have come first.
        first = names.wait_for(lambda m: m[0].endswith("/names"))
        assert first[0] == "arbitro/n9/names" and json.loads(first[1]) == ["Ana", "Bo"], first
        assert display.call(lambda: "ghost" not in display.display.boards)  # nothing kept for it
    finally:
        names.close()
        display.stop()


def test_pages_that_never_read_are_dropped_and_the_rest_carry_on(broker: Broker) -> None:
    display = start_display(broker.port, stuck_after=1.0)
    board = "slow1"
    path = f"/api/board/{board}/events"
    watchers: Callable[[], int] = lambda: display.call(lambda: len(display.display.streams.watchers.get(board, ())))  # noqa: E731
    stuck = [stuck_page(display.display.port, path) for _ in range(20)]
    got: list[int] = []
    reading = threading.Event()

    async def read_along() -> None:  # a healthy page, reading everything it is sent
        async with aiohttp.ClientSession() as http, http.get(f"{display.url}{path[1:]}") as stream:
            reading.set()
            async for raw in stream.content:
                line = raw.decode()
                if line.startswith("data: ") and '"state": {' in line:
                    got.append(json.loads(line[6:])["state"]["seq"])
                    if got[-1] == 40:
                        return

    try:
        wait_until(lambda: watchers() == 20, "the stuck pages to be served", timeout=15.0)
        with ThreadPoolExecutor(1) as pool:
            healthy = pool.submit(asyncio.run, read_along())
            assert reading.wait(10)
            wait_until(lambda: watchers() == 21, "the healthy page to be served", timeout=15.0)
            client = Listener(broker.port, [])
            try:
                for state in public_states("serpientes", board, 40, seed=4):
                    client.client.publish(f"arbitro/{board}/state", json.dumps(state), qos=1, retain=True)
                    time.sleep(0.05)  # a move every 50 ms: input timing, not a wait for a result
            finally:
                client.close()
            healthy.result(30)  # it saw the last state
        wait_until(lambda: watchers() == 0, "every stuck page to be dropped", timeout=15.0)
        for s in stuck:  # each connection is closed by the server: after what it buffered, nothing more
            s.settimeout(10)
            try:
                while s.recv(65536):
                    pass
            except ConnectionResetError:
                pass
    finally:
        for s in stuck:
            s.close()
        display.stop()


def test_open_pages_are_capped(broker: Broker) -> None:
    display = start_display(broker.port, max_pages=3)
    url = f"{display.url}api/hall/events"

    async def open_pages() -> tuple[list[int], tuple[int, str], int]:
        async with aiohttp.ClientSession() as http:
            pages = [await http.get(url) for _ in range(3)]
            async with http.get(url) as refused:
                over = (refused.status, await refused.text())
            pages.pop().close()  # one page closes: there is room again
            deadline = time.monotonic() + 10
            while True:
                async with http.get(url) as again:
                    if again.status == 200 or time.monotonic() > deadline:
                        status = again.status
                        break
                await asyncio.sleep(0.02)  # poll interval: until the server has seen the page go
            statuses = [p.status for p in pages]
            for p in pages:
                p.close()
            return statuses, over, status

    try:
        statuses, over, again = in_a_thread(open_pages)
        assert statuses == [200, 200]
        assert over == (503, "too many pages open (3); try again later")
        assert again == 200
    finally:
        display.stop()


def test_a_page_that_goes_away_is_one_debug_line_in_the_log(broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    display = start_display(broker.port)
    board = "gone1"
    path = f"/api/board/{board}/events"
    watchers: Callable[[], int] = lambda: display.call(lambda: len(display.display.streams.watchers.get(board, ())))  # noqa: E731
    stuck = [stuck_page(display.display.port, path) for _ in range(3)]
    client = Listener(broker.port, [])
    states = iter(public_states("serpientes", board, 60, seed=5))
    try:
        with caplog.at_level(logging.DEBUG):
            wait_until(lambda: watchers() == 3, "the pages to be served", timeout=15.0)
            for state in [next(states) for _ in range(20)]:  # enough to fill what they do not read
                client.client.publish(f"arbitro/{board}/state", json.dumps(state), qos=1, retain=True)
            time.sleep(0.5)  # input timing: the server writes until their buffers are full
            for s in stuck:  # then they go, resetting the connection
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.close()
            for state in states:
                client.client.publish(f"arbitro/{board}/state", json.dumps(state), qos=1, retain=True)
                if watchers() == 0:
                    break
                time.sleep(0.05)
            wait_until(lambda: watchers() == 0, "the pages to be dropped", timeout=15.0)
    finally:
        client.close()
        display.stop()
    dropped = [r for r in caplog.records if r.name == "arbitro.display" and r.getMessage().startswith("page ")]
    assert len(dropped) == 3, [r.getMessage() for r in caplog.records]
    assert all(r.levelno == logging.DEBUG and r.exc_info is None and "\n" not in r.getMessage() for r in dropped)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(("aiohttp", "arbitro"))]


def test_the_limits_are_options_of_arbitro_display() -> None:
    from controller.display.cli import add_arguments, config_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    config = config_from(parser.parse_args(["--max-pages", "40", "--stuck-after", "2.5"]))
    assert (config.max_pages, config.stuck_after) == (40, 2.5)
    assert (config_from(parser.parse_args([])).max_pages, config_from(parser.parse_args([])).stuck_after) == (200, 10.0)
    for bad in (["--max-pages", "0"], ["--stuck-after", "0"]):
        with pytest.raises(argparse.ArgumentTypeError, match="--max-pages must be at least 1"):
            config_from(parser.parse_args(bad))
