"""Where a hall line's time goes inside ``arbitro display``, for ``bench.display``: the display
run as ``arbitro display`` runs it, with stamps taken by wrapping its parts from here (nothing on
the production path: the display runs unchanged when no bench asks).

    python -m bench.display_stages STAMPS --broker HOST:PORT --listen HOST:PORT --max-pages N

Each state message is stamped (``time.time()``, the clock the bench's publisher and readers use)
at each stage, keyed by its board and ``seq``:

``recv``
    paho's thread has the message (the display's on-message callback)
``taken``
    the event loop takes it from paho's hand-over
``flush``
    the tick that makes its hall line begins (a busy hall's lines wait for the tick)
``written``
    the tick's line was written to every hall stream that had read all it was sent, and left
    for the others' streams (the display's work for the line is done)

and, besides, the event loop's lag (how late a 10 ms timer fires: how long the loop was blocked
or waited for a core), the loop thread's CPU per tick, and how many streams each tick found still
busy with what they were sent. The stamps go to the file ``STAMPS`` (JSON) on SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import time
from typing import Any

from controller.display.cli import host_port
from controller.display.hall import Release, Thumb
from controller.display.server import Display, DisplayConfig
from controller.display.streams import Subscriber

SEQ = re.compile(rb'"seq": (\d+)')
WRAPPED = (("broker", "_hand_over"), ("broker", "on_message"), ("hall", "flush"), ("hall", "release"))
"""The display's parts' methods stamped: paho's hand-over, the loop taking a message, a tick, its lines written."""
LAG_PERIOD = 0.01  # seconds between two looks at the event loop's lag


class DisplayStages:
    """The stamps of one display's run: ``at[stage][board/seq]``, the loop's lags and ticks."""

    def __init__(self) -> None:
        self.at: dict[str, dict[str, float]] = {stage: {} for stage in ("recv", "taken", "flush", "written")}
        self.lags: list[float] = []  # seconds late, each LAG_PERIOD
        self.ticks: list[tuple[int, int, float]] = []  # (lines, streams still busy, the loop's CPU s writing) per tick
        self.flushes: list[float] = []  # the loop's CPU s per tick: the lines made, and written
        self.thumbs: list[float] = []  # the loop's CPU s drawing a thumbnail a browser fetched

    def attach(self, display: Display) -> None:
        seqs: dict[str, str] = {}  # board -> the key of its latest state taken, not yet in a line

        def key(topic: str, payload: bytes) -> str | None:
            if not topic.endswith("/state") or (found := SEQ.search(payload)) is None:
                return None
            return f"{topic.split('/')[-2]}/{int(found.group(1))}"

        parts = {"broker": display.broker, "hall": display.hall}
        hand_over, on_message, flush, release = (getattr(parts[part], name) for part, name in WRAPPED)

        def dirty() -> set[str]:  # read at each tick: a flush replaces the set
            boards: set[str] = getattr(display.hall, "_dirty")  # noqa: B009  # a private part, read by the bench alone
            return boards

        def stamped_hand_over(topic: str, payload: bytes) -> None:
            if (k := key(topic, payload)) is not None:
                self.at["recv"][k] = time.time()
            hand_over(topic, payload)

        def stamped_on_message(topic: str, payload: bytes) -> None:
            if (k := key(topic, payload)) is not None:
                self.at["taken"][k] = time.time()
                seqs[k.split("/")[0]] = k
            on_message(topic, payload)

        def stamped_flush() -> None:
            now, cpu = time.time(), time.thread_time()
            for board in dirty():
                if board in seqs:
                    self.at["flush"][seqs[board]] = now
            flush()
            self.flushes.append(time.thread_time() - cpu)

        def stamped_release(releases: list[Release]) -> None:
            cpu = time.thread_time()
            busy = sum(1 for sub in display.streams.hall if not _idle(sub))
            release(releases)
            now = time.time()
            for board, _snapshot, line, _thumb in releases:
                if line is not None and board in seqs:
                    self.at["written"][seqs.pop(board)] = now
            self.ticks.append((len(releases), busy, time.thread_time() - cpu))

        for (part, name), stamped in zip(WRAPPED, (stamped_hand_over, stamped_on_message, stamped_flush,
                                                   stamped_release), strict=True):
            setattr(parts[part], name, stamped)  # each part calls them through its instance
        drawn: Any = vars(Thumb)["svg"]  # the cached property
        svg = drawn.func

        def timed_svg(thumb: Thumb) -> bytes:
            cpu = time.thread_time()
            out = svg(thumb)
            self.thumbs.append(time.thread_time() - cpu)
            return out

        drawn.func = timed_svg

    async def watch_lag(self) -> None:
        while True:
            due = time.monotonic() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.lags.append(time.monotonic() - due)

    def dump(self) -> dict[str, Any]:
        return {"at": self.at, "lags": self.lags, "ticks": self.ticks, "flushes": self.flushes, "thumbs": self.thumbs}


def _idle(sub: Subscriber) -> bool:
    """The stream has read all it was sent (a tick is written to it at once)."""
    t = sub.transport
    return t is not None and not sub.pending and not t.is_closing() and t.get_write_buffer_size() == 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.display_stages", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stamps")
    parser.add_argument("--broker", required=True)
    parser.add_argument("--listen", required=True)
    parser.add_argument("--max-pages", type=int, default=200)
    args = parser.parse_args(argv)
    broker_host, broker_port = host_port("--broker", args.broker, 1883)
    host, port = host_port("--listen", args.listen, 8080)
    stages = DisplayStages()

    async def serve() -> None:
        display = Display(DisplayConfig(broker_host=broker_host, broker_port=broker_port, host=host, port=port,
                                        max_pages=args.max_pages))
        stages.attach(display)
        await display.start()
        print(f"arbitro display: {display.url} (stamped)", flush=True)
        lag = asyncio.ensure_future(stages.watch_lag())
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await stop.wait()
        finally:
            lag.cancel()
            await display.stop()

    asyncio.run(serve())
    with open(args.stamps, "w") as out:
        json.dump(stages.dump(), out)


if __name__ == "__main__":
    main()
