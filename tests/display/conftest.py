"""Fixtures for the display's tests: Debian's headless Chromium through Playwright, and a display
server (in a thread of the test process) on a free port."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from controller.display.server import DisplayConfig, RunningDisplay
from controller.localbroker import Broker
from tests.support.waiting import wait_until

CHROMIUM = "/usr/bin/chromium"  # Debian's package (scripts/dev test installs it); never `playwright install`
DOC_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the live test saves its pictures: the README's (``docs/screenshots``) when
    ``ARBITRO_SCREENSHOTS=1`` (to renew them), else a temporary folder (a test run leaves the tree
    as it was)."""
    return DOC_SCREENSHOTS if os.environ.get("ARBITRO_SCREENSHOTS") == "1" else tmp_path


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `bash scripts/dev test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    p = context.new_page()
    p.set_default_timeout(10_000)
    yield p
    context.close()


def start_display(broker_port: int, **config: Any) -> RunningDisplay:
    return RunningDisplay(DisplayConfig(broker_port=broker_port, host="127.0.0.1", port=0, **config))


@pytest.fixture
def display(broker: Broker) -> Iterator[RunningDisplay]:
    d = start_display(broker.port)
    yield d
    d.stop()


def pair(display: RunningDisplay, board: str, seat: int) -> str:
    """The seat page's address, ``.../seat/<n>?token=...``, as the operator's QR code gives it, once
    the display has the board's state with that seat (it comes over MQTT, after the board's)."""
    def has_seat() -> bool:
        model = display.display.boards.get(board)
        return model is not None and seat < model.seats()

    wait_until(lambda: display.call(has_seat), f"the display to have board {board}'s seat {seat}")
    key = display.display.config.pair_key
    with urllib.request.urlopen(f"{display.url}api/board/{board}/pair/{seat}?key={key}", timeout=5) as answer:
        url: str = json.loads(answer.read())["url"]
    return url
