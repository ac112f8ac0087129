"""``arbitro demo`` starts the display and prints its address; a person plays a seat by clicking
on the seat page, and the demo carries the move out on the simulated board (sensors, not MQTT)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from playwright.sync_api import Page, expect

from controller.localbroker import Broker
from tests.support.mqttc import Listener


def test_the_demo_prints_the_display_and_a_click_on_the_seat_page_plays_the_move(broker: Broker, page: Page) -> None:
    events = Listener(broker.port, ["arbitro/demo/events"])
    demo = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--game", "contigo", "--headless", "--pace", "0",
         "--seed", "3", "--seat", "0", "--click", "--board-id", "demo", "--display", "127.0.0.1:0", "--language", "en",
         "--broker", f"127.0.0.1:{broker.port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines: list[str] = []
        assert demo.stdout is not None
        deadline = time.monotonic() + 30
        while not any("play seat 0 by clicking: " in line for line in lines) and time.monotonic() < deadline:
            lines.append(demo.stdout.readline())
        board_url = next(line.split()[-1] for line in lines if line.startswith("live display: "))
        seat_url = next(line.split(": ", 1)[1].strip() for line in lines if "play seat 0 by clicking" in line)

        page.goto(seat_url)
        offer = page.locator("#offer button")
        expect(offer.first).to_be_visible(timeout=20_000)  # once the bots have played up to seat 0's turn
        move = offer.first.get_attribute("data-action")  # the notation; the button says it in words
        assert move and offer.first.inner_text() != move
        offer.first.click()
        played = events.wait_for(lambda m: json.loads(m[1]).get("action") == move)
        assert json.loads(played[1])["by"] == "board"  # the click moved pieces on the simulated board

        page.goto(board_url)
        expect(page.locator(f'#moves li[title="{move}"]').first).to_be_attached()  # said in words; the notation
    finally:
        demo.send_signal(signal.SIGINT)
        _out, err = demo.communicate(timeout=90)  # slow to stop under load, never hanging
        events.close()
    assert demo.returncode == 0, err[-2000:]
