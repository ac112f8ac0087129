"""In real headless Chromium: every game drawn live from a simulated table, the hall listing every
board, a move on the board showing on the page within a second, a wrong board told in words.
The screenshots in the README come from this test, run with ARBITRO_SCREENSHOTS=1."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from controller.display.server import RunningDisplay
from controller.games import CHANCE, game_names
from controller.localbroker import Broker
from tests.support.table import Table

WARM_UP = {"contigo": 9, "jeocinco": 10, "scriptorium": 8, "serpientes": 14}  # moves before the pictures


def board_move(table: Table, rng: random.Random) -> str:
    """Play on until a player's move that changes the board has been taken; return its text."""
    while True:
        state = table.state
        if state.current_player == CHANCE:
            table.play(state.legal_actions()[0])  # the roll button; the referee's seeded dice decide
            continue
        actions = state.legal_actions()
        traced = [a for a in actions if state.physical_changes(a)]
        action = rng.choice(traced or actions)
        table.play(action)
        if traced:
            return state.action_to_text(action)


def seq_of(table: Table) -> int:
    seq: int = table.service.call(lambda: table.service.teller.seq)
    return seq


def test_every_game_is_drawn_live_and_the_hall_lists_every_board(broker: Broker, display: RunningDisplay, page: Page,
                                                                 screenshots: Path) -> None:
    rng = random.Random(7)
    tables = {game: Table(game, seed=7, mqtt_port=broker.port) for game in game_names()}
    try:
        for game, table in tables.items():
            for _ in range(WARM_UP[game]):
                board_move(table, rng)

        page.goto(display.url)
        cards = page.locator(".card")
        expect(cards).to_have_count(len(tables))
        for game in tables:
            card = page.locator(f'.card[data-board="t-{game}"]')
            thumb = card.locator(".thumb img")  # by reference: /thumb/<board>/<version>.svg
            expect(thumb).to_be_visible()
            expect(thumb).to_have_attribute("src", re.compile(rf"^/thumb/t-{game}/[0-9a-f]{{16}}\.svg$"))
            assert thumb.evaluate("img => img.complete && img.naturalWidth > 0"), f"{game}'s thumbnail is not drawn"
            expect(card).to_contain_text(f"{tables[game].moves} moves")
        screenshots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshots / "hall.png"))

        moves = {}
        for game, table in list(tables.items()):
            page.goto(f"{display.url}board/t-{game}")
            expect(page.locator("body")).to_have_attribute("data-seq", str(seq_of(table)))
            expect(page.locator("#picture svg")).to_be_visible()
            expect(page.locator("#turn")).not_to_be_empty()
            assert page.locator("#moves li").count() > 0
            notes = table.service.call(table.service.public_state)["notes"]
            for note in notes:  # what the game says beside its picture, drawn from its code
                expect(page.locator("#dice")).to_contain_text(note["message"])
            page.screenshot(path=str(screenshots / f"{game}.png"), full_page=True)

            before = page.locator("#picture").inner_html()
            text = board_move(table, rng)  # returns once the referee has taken the move
            taken = time.monotonic()
            page.wait_for_function("before => document.querySelector('#picture').innerHTML !== before",
                                   arg=before, timeout=5000)
            late = time.monotonic() - taken
            assert late < 1.0, f"{game}: the page showed {text} {late:.2f} s after the referee took it"
            expect(page.locator("#moves li").last).to_have_attribute("title", text, timeout=1000)  # said in words
            print(f"{game}: {text} on the page {1000 * late:.0f} ms after the referee took it")
            if game == "contigo":
                a_wrong_board_is_told_in_words(table, page)
            moves[game] = table.moves
            tables.pop(game).close()  # one simulated table fewer scanning: the next game's timing is its own

        # The hall followed too: every board moved on since the hall was first drawn.
        page.goto(display.url)
        for game, count in moves.items():
            expect(page.locator(f'.card[data-board="t-{game}"]')).to_contain_text(f"{count} moves")
    finally:
        for table in tables.values():
            table.close()


def a_wrong_board_is_told_in_words(table: Table, page: Page) -> None:
    """A man put on a square no legal move reaches: the page says what is wrong, and marks it."""
    state = table.service.call(table.service.public_state)
    view = table.state.physical_view()
    square = next(c for c, v in sorted(view.items()) if c.startswith("sq:") and not v and c not in state["targets"])
    table.hands.set_channels({square: next(v for c, v in view.items() if c.startswith("sq:") and v)})
    expect(page.locator("#verdict")).to_contain_text("Not right:")
    expect(page.locator("#verdict")).to_be_visible()
    expect(page.locator(f'#picture circle.mark.violation >> title:text("violation: {square}")')).to_have_count(1)
    table.hands.set_channels({square: 0})
    expect(page.locator("#verdict")).to_be_hidden()


def test_the_page_keeps_the_clock_and_shows_moves_in_order(broker: Broker, display: RunningDisplay, page: Page) -> None:
    with Table("contigo", seed=3, mqtt_port=broker.port) as table:
        page.goto(f"{display.url}board/t-contigo")
        expect(page.locator("#picture svg")).to_be_visible()
        rng = random.Random(3)
        texts = [board_move(table, rng) for _ in range(3)]
        expect(page.locator("#moves li").last).to_have_attribute("title", texts[-1])
        shown = page.locator("#moves li").evaluate_all("items => items.map((item) => item.title)")  # the notation
        assert [t for t in shown if t in texts] == texts  # in the order they were played
        said = page.locator("#moves li").all_inner_texts()  # in words: "red moves 2 beads from w-6 to n-a"
        assert said[0] == "red starts" and not set(said) & set(texts)
        start = time.monotonic()
        first = page.locator("#game-clock").inner_text()
        page.wait_for_function(f"document.querySelector('#game-clock').textContent !== '{first}'", timeout=3000)
        assert time.monotonic() - start < 3
        # The player to move has a running clock in his row.
        expect(page.locator("#players tr.to-play .clock")).not_to_have_text("")


def test_player_names_are_set_from_the_page_or_by_any_mqtt_client(broker: Broker, display: RunningDisplay,
                                                                  page: Page) -> None:
    from tests.support.mqttc import Listener
    from tests.support.services import mqtt_service

    service = mqtt_service("contigo", "n1", broker.port, seed=1, board={"chance": "auto"})
    other = Listener(broker.port, ["arbitro/n1/names"])
    try:
        page.goto(f"{display.url}board/n1")  # a spectator's page: the names are not his to set
        inputs = page.locator("#players input")
        expect(inputs).to_have_count(2)
        inputs.nth(0).fill("Mallory")
        page.get_by_role("button", name="Save names").click()
        expect(page.locator("#names-note")).to_have_text("Only the operator's link (with its key) sets names.")
        page.goto(f"{display.url}board/n1?key={display.display.config.pair_key}")  # the operator's link
        inputs = page.locator("#players input")
        expect(inputs).to_have_count(2)
        inputs.nth(0).fill("Ana")
        inputs.nth(1).fill("Bo")
        page.get_by_role("button", name="Save names").click()
        saved = other.wait_for(lambda m: m[0] == "arbitro/n1/names")
        assert json.loads(saved[1]) == ["Ana", "Bo"]
        expect(page.locator("#turn")).to_contain_text(re.compile(r"^(Ana|Bo) to play$"))

        other.client.publish("arbitro/n1/names", json.dumps(["Carmen", "Dani"]), qos=1, retain=True)
        expect(inputs.nth(0)).to_have_value("Carmen")
        expect(page.locator("#turn")).to_contain_text(re.compile(r"^(Carmen|Dani) to play$"))
        page.goto(display.url)
        expect(page.locator('.card[data-board="n1"]')).to_contain_text(re.compile(r"(Carmen|Dani) to play"))
    finally:
        other.close()
        service.stop()
