"""A display that scales by sharing (issue 23.3): one encoded copy of each board's hall line for
every page, thumbnails by reference (one fetch per version, cached for good, gzipped)."""

from __future__ import annotations

import gzip
import json
import re

import aiohttp

from bench.display import public_states
from controller.display.server import Display, DisplayConfig
from controller.display.streams import Subscriber
from controller.localbroker import Broker
from tests.display.conftest import start_display
from tests.display.test_server_limits import in_a_thread
from tests.support.mqttc import Listener
from tests.support.waiting import wait_until


def test_the_display_keeps_one_copy_of_a_boards_line_however_many_viewers() -> None:
    display = Display(DisplayConfig())  # not started: its messages handed over as paho's thread would
    viewers = [Subscriber() for _ in range(200)]
    display.streams.hall.update(viewers)
    for state in public_states("jeocinco", "b1", 3, seed=1):
        display._on_message("arbitro/b1/state", json.dumps(state).encode())
        display.hall.flush()
        line = display.hall.lines["b1"]
        held = {id(v.pending["board:b1"]) for v in viewers}
        assert held == {id(line)}, f"{len(held)} copies of the line for {len(viewers)} viewers"
    thumb = display.hall.thumbs["b1"]
    assert b"<svg" not in line and f'"thumb": "/thumb/b1/{thumb.version}.svg"'.encode() in line
    assert len(line) < 2000 < len(thumb.svg)  # the picture is fetched apart, the line stays small


def test_a_thumbnail_is_served_once_per_version_cached_for_good_and_gzipped(broker: Broker) -> None:
    display = start_display(broker.port)
    client = Listener(broker.port, [])
    try:
        states = public_states("contigo", "c1", 2, seed=2)
        client.client.publish("arbitro/c1/state", json.dumps(states[0]), qos=1, retain=True)
        wait_until(lambda: display.call(lambda: "c1" in display.display.hall.thumbs), "the board's thumbnail")
        old = display.call(lambda: display.display.hall.thumbs["c1"])
        client.client.publish("arbitro/c1/state", json.dumps(states[1]), qos=1, retain=True)
        wait_until(lambda: display.call(lambda: display.display.hall.thumbs["c1"].version != old.version), "a new one")
        new = display.call(lambda: display.display.hall.thumbs["c1"])
        base = display.url.rstrip("/")

        async def fetch() -> list[tuple[int, dict[str, str], bytes]]:
            out = []
            async with aiohttp.ClientSession(auto_decompress=False) as http:
                for version in (new.version, old.version, "0" * 16):
                    async with http.get(f"{base}/thumb/c1/{version}.svg", allow_redirects=False,
                                        headers={"Accept-Encoding": "gzip"}) as r:
                        out.append((r.status, dict(r.headers), await r.read()))
                async with http.get(f"{base}/thumb/nope/{new.version}.svg") as r:
                    out.append((r.status, dict(r.headers), b""))
            return out

        (ok, headers, body), (moved, moved_headers, _), (other, _, _), (missing, _, _) = in_a_thread(fetch)
        assert ok == 200 and headers["Content-Type"] == "image/svg+xml"
        assert headers["Content-Encoding"] == "gzip" and "immutable" in headers["Cache-Control"]
        assert gzip.decompress(body) == new.svg and new.svg.startswith(b"<svg") and len(body) < len(new.svg) / 2
        assert moved == other == 303 and moved_headers["Location"] == f"/thumb/c1/{new.version}.svg"
        assert missing == 404
        assert re.fullmatch(r"[0-9a-f]{16}", new.version)
    finally:
        client.close()
        display.stop()
