"""A board page in a remote game (docs/remote.md) shows the other board's players as such, and
where the next move is made: at the other board, or here."""

from __future__ import annotations

import queue

from playwright.sync_api import Page, expect

from controller.config import Config
from controller.display.server import RunningDisplay
from controller.games import get_game
from controller.layouts import reference_layout
from controller.localbroker import Broker
from controller.mqtt import Command, MqttBridge
from controller.service import Service
from hardware.leds import LedStrip, RecordingPixels


def test_the_board_page_shows_the_other_boards_seat_and_who_is_to_play(broker: Broker, display: RunningDisplay,
                                                                        page: Page) -> None:
    config = Config.from_dict({"board": {"id": "a", "game": "contigo", "seed": 3, "language": "en", "chance": "auto",
                                         "seats": ["table", "remote"]},
                               "inputs": {"enabled": False}, "mqtt": {"port": broker.port}, "remote": {"peer": "b"}})
    layout = reference_layout(get_game("contigo"))
    bridge = MqttBridge(config.mqtt, "a")
    service = Service(config, LedStrip(RecordingPixels(layout.led_count)), layout=layout, mqtt=bridge).start()
    try:
        assert bridge.connected.wait(10)
        page.goto(f"{display.url}board/a")
        expect(page.locator("#players .seat").nth(1)).to_have_text("at the other board")
        expect(page.locator("#players .seat").nth(0)).to_have_text("at the table")
        expect(page.locator("#dice")).to_contain_text("Played with board b")
        answers: queue.Queue[tuple[bool, object]] = queue.Queue()
        while (state := service.read(lambda s: s.state)).current_player == 0:  # seat 0's turn, at this table
            text = state.action_to_text(state.own_actions()[0])
            service.post(Command("choose", {"action": text}, lambda ok, result: answers.put((ok, result))))
            assert answers.get(timeout=10)[0]
        expect(page.locator("#dice")).to_contain_text("Board b is to play")
    finally:
        service.stop()
