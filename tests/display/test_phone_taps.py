"""The phone in two taps (real Chromium as a phone, 390 x 844): the picture as wide as the phone with
words of 11 px and more; a Contigo bead move in its minimum taps (the source pit, one tap per bead)
and its send button; a Jeocinco placement in at most two (a crowded slot's target, then the slot
in the enlarged inset), no slot code shown; the colour choice drawn as four pentagons, shown once.
Moves are sent by the display to the service with the seat's secret and carried out at the
simulated table, as ``test_phone_play`` does."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from controller.display.server import RunningDisplay
from controller.games import CHANCE, State
from controller.localbroker import Broker
from controller.session import Session
from tests.display.conftest import pair
from tests.display.test_phone_play import phone_move
from tests.support.mqttc import Listener
from tests.support.table import Table

PHONE = {"width": 390, "height": 844}
SMALLEST_WORDS_PX = 11
SLOT_CODE = re.compile(r"\b[A-E][1-5][NESW]-(?:[A-E][1-5][NESW]|[nesw])\b")
"""A Jeocinco slot's code (``A1N-A1E``, ``A1E-s``): the page never shows one."""


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """Two phones 390 x 844 (touch, a phone's overlay scrollbars), one in Spanish, one in English."""
    contexts = [browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=locale)  # type: ignore[arg-type]
                for locale in ("es-ES", "en-GB")]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    yield pages
    for context in contexts:
        context.close()


def phone_turns(table: Table, broker: Broker, display: RunningDisplay, phones: list[Page], options: dict[str, Any],
                seed: int, enough: Callable[[], bool]) -> Iterator[State]:
    """A new game with both seats on the phones, paired: each position a seat is to act in, until
    ``enough`` or the end (chance is the roll button's: the hands set up what it drew)."""
    new_phone_game(table, broker, options, seed)
    for seat, page in enumerate(phones):
        page.goto(pair(display, table.config.board.id, seat))
    while not enough() and not (state := table.state).is_terminal():
        if state.current_player == CHANCE:
            table.play(state.legal_actions()[0])
        else:
            yield state


def new_phone_game(table: Table, broker: Broker, options: dict[str, Any], seed: int) -> None:
    base = f"arbitro/{table.config.board.id}"
    desk = Listener(broker.port, [f"{base}/response/#"])
    try:
        answer = desk.request(base, "new_game", {"id": "phones", "seats": ["phone", "phone"], "options": options,
                                                 "num_players": 2, "seed": seed})
    finally:
        desk.close()
    assert answer["ok"], answer
    table.wait(lambda s: s.seats == ("phone", "phone") and s.verdict.kind == "in_sync", "the phone game")


def smallest_words(page: Page) -> float:
    """The smallest word of the seat's picture as drawn, in CSS pixels."""
    size: float = page.evaluate("""() => {
        const svg = document.querySelector('#seat-picture svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
          .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
    }""")
    return size


def assert_fits_the_phone(page: Page) -> None:
    """The picture is as wide as the phone, nothing wider, every word of it 11 px and more."""
    page.locator("#seat-picture svg").wait_for()
    width = page.evaluate("document.querySelector('#seat-picture svg').getBoundingClientRect().width")
    assert width == PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert smallest_words(page) >= SMALLEST_WORDS_PX


def seat_moves(seat: int, session: Session) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = session.private_state(seat)["moves"]
    return moves


def shown(page: Page) -> str:
    text: str = page.evaluate("document.body.innerText")
    return text


def bead_move(rng: random.Random, beads: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A bead move of that many ``beads`` (`` 2``) where there is one, else any move."""
    return rng.choice([m for m in moves if m["action"].startswith("beads") and m["action"].endswith(beads)] or moves)


def test_a_contigo_bead_move_takes_the_source_pit_one_tap_per_bead_and_send(
        broker: Broker, display: RunningDisplay, phones: list[Page]) -> None:
    options, seed = {"turn_limit": 6}, 3
    with Table("contigo", options=options, players=2, seed=seed, mqtt_port=broker.port) as table:
        rng = random.Random(seed)
        beads: list[dict[str, Any]] = []
        for state in phone_turns(table, broker, display, phones, options, seed,
                                 lambda: {m["action"].split()[-1] for m in beads} == {"1", "2"}):
            page = phones[state.current_player]
            assert_fits_the_phone(page)
            wanted = " 1" if any(m["action"].endswith(" 2") for m in beads) else " 2"
            move = phone_move(table, page, state, rng, partial(bead_move, rng, wanted))
            if move["action"].startswith("beads"):
                beads.append(move)
            else:  # a pawn: where it stands, where it goes, sent at once
                assert move["tapped"] == 2, move
        assert {m["action"].split()[-1] for m in beads} == {"1", "2"}, beads
        for move in beads:  # the source pit, a tap per bead, then send
            minimum = sum(n for _, n in move["taps"])
            assert minimum == 1 + int(move["action"].split()[-1])
            assert move["tapped"] == minimum + 1, move
        record = table.service.read(lambda s: [str(a) for a in s.match.record.actions])
        assert all(m["action"] in record for m in beads), record  # taken by the referee, carried out


def test_a_jeocinco_placement_takes_two_taps_at_most_and_no_slot_code_is_shown(
        broker: Broker, display: RunningDisplay, phones: list[Page]) -> None:
    options, seed = {"max_rounds": 2}, 1
    with Table("jeocinco", options=options, players=2, seed=seed, mqtt_port=broker.port) as table:
        rng = random.Random(seed)
        placed: list[dict[str, Any]] = []
        colours = 0
        for state in phone_turns(table, broker, display, phones, options, seed, lambda: len(placed) == 4):
            page = phones[state.current_player]
            moves: list[dict[str, Any]] = table.service.read(partial(seat_moves, state.current_player))
            if all(m["action"].startswith("colour ") for m in moves):  # the colour choice: pentagons, once
                buttons = page.locator("#tap-moves button")
                buttons.first.wait_for()
                assert buttons.count() == len(moves)
                assert page.locator("#tap-moves button .face svg polygon").count() == len(moves)
                assert page.locator("#choices-box").is_hidden()
                said = page.locator("#tap-moves").inner_text()
                assert not re.search(r"colour [NESW]", said), said  # in words, not notation
                colours += 1
            else:
                assert_fits_the_phone(page)
            move = phone_move(table, page, state, rng)
            if move["action"].startswith("place "):
                assert move["tapped"] <= 2, move
                placed.append(move)
            for phone in phones:
                assert not SLOT_CODE.search(shown(phone)), shown(phone)
        assert colours and len(placed) == 4, (colours, placed)
        record = table.service.read(lambda s: [str(a) for a in s.match.record.actions])
        assert all(m["action"] in record for m in placed), record
