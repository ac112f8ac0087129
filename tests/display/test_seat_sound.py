"""The seat page sounds its player's turn: a WebAudio beep when the seat's turn starts (real
Chromium, the oscillators the page starts counted by a spy on ``OscillatorNode.start``), and none
while another player is to play."""

from __future__ import annotations

import json
import time
import urllib.request

from playwright.sync_api import Page

from controller.display.server import RunningDisplay
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service

# Counts every oscillator the page starts, before the page's own script runs.
SPY = """
window.arbitroTones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.arbitroTones += 1; return start.apply(this, args); };
"""


YOURS = "Your turn!"


def tones(phone: Page) -> int:
    count = phone.evaluate("window.arbitroTones")
    assert isinstance(count, int)
    return count


def test_the_seat_page_beeps_when_its_turn_starts(broker: Broker, display: RunningDisplay, page: Page) -> None:
    base = "arbitro/b1"
    answers = Listener(broker.port, [f"{base}/response/#"])
    service = mqtt_service("contigo", "b1", broker.port, seed=1, board={"chance": "auto"})
    try:
        key = display.display.config.pair_key
        deadline = time.monotonic() + 10
        while not display.call(lambda: (m := display.display.boards.get("b1")) is not None and m.seats() >= 2):
            assert time.monotonic() < deadline, "the display never heard of board b1's seats"
            time.sleep(0.02)  # poll interval: until the display has the board (its seats can be paired)
        phones = []
        for seat in (0, 1):
            with urllib.request.urlopen(f"{display.url}api/board/b1/pair/{seat}?key={key}", timeout=5) as answer:
                url = json.loads(answer.read())["url"]
            phone = page.context.new_page()
            phone.add_init_script(SPY)
            phone.goto(url)
            phones.append(phone)
        first = service.read(lambda s: s.state.current_player)
        other = 1 - first
        phones[first].wait_for_function(f"document.getElementById('whose').textContent === '{YOURS}'")
        phones[other].wait_for_function("document.getElementById('whose').textContent.endsWith('to play.')")
        assert (tones(phones[first]), tones(phones[other])) == (1, 0)
        # The first player moves (a pawn, then beads) until the turn passes.
        while (state := service.read(lambda s: s.state)).current_player == first:
            move = state.action_to_text(state.legal_actions()[0])
            assert answers.request(base, "choose", {"action": move})["ok"]
        phones[other].wait_for_function(f"document.getElementById('whose').textContent === '{YOURS}'")
        phones[first].wait_for_function("document.getElementById('whose').textContent.endsWith('to play.')")
        assert (tones(phones[first]), tones(phones[other])) == (1, 1), "one beep each, as each turn started"
    finally:
        service.stop()
        answers.close()
