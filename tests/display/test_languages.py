"""The display in the players' language (issue 22): every page (hall, board, seat) follows the
browser's language, Spanish or English, with a switch on every page that the browser keeps; players
are named by colour, never by index."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from controller.display.server import RunningDisplay
from controller.localbroker import Broker
from tests.support.services import mqtt_service

# What each page says, in each language: a heading of the page and the turn line.
PAGES = {
    "hall": {"es": ("arbitro · la sala", re.compile(r"juega (rojo|azul)")),
             "en": ("arbitro · the hall", re.compile(r"(red|blue) to play"))},
    "board": {"es": ("Qué ha pasado", re.compile(r"^juega (rojo|azul)$")),
              "en": ("What happened", re.compile(r"^(red|blue) to play$"))},
    "seat": {"es": ("Tu mano", re.compile(r"^(¡Te toca!|Juega (rojo|azul)\.)$")),
             "en": ("Your hand", re.compile(r"^(Your turn!|(red|blue) to play\.)$"))},
}


@pytest.fixture
def contigo(broker: Broker, display: RunningDisplay) -> Iterator[RunningDisplay]:
    service = mqtt_service("contigo", "l1", broker.port, seed=3, board={"chance": "auto", "language": "es"})
    yield display
    service.stop()


def open_page(browser: Browser, contigo: RunningDisplay, page: str, locale: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 860})
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    url = {"hall": contigo.url, "board": f"{contigo.url}board/l1",
           "seat": contigo.display.seat_url("l1", 0)}[page]
    tab.goto(url)
    return context, tab


def shows(tab: Page, page: str, language: str) -> None:
    heading, turn = PAGES[page][language]
    expect(tab.locator("html")).to_have_attribute("lang", language)
    if page == "hall":
        expect(tab).to_have_title(heading)
        expect(tab.locator('.card[data-board="l1"]')).to_contain_text(turn)
    else:
        expect(tab.get_by_role("heading", name=heading)).to_be_visible()
        expect(tab.locator("#turn" if page == "board" else "#whose")).to_have_text(turn)
    if page == "board":  # the move list says the moves in words, the notation their title (issue 36)
        first = tab.locator("#moves li").first
        expect(first).to_have_text(re.compile(r"^empieza (rojo|azul)$" if language == "es" else r"^(red|blue) starts$"))
        expect(first).to_have_attribute("title", re.compile(r"^start (red|blue)$"))
    assert not re.search(r"\bplayer \d\b|jugador 0\b", tab.locator("body").inner_text())  # people, not indices


@pytest.mark.parametrize("page", ["hall", "board", "seat"])
def test_every_page_in_both_languages_and_the_switch(browser: Browser, contigo: RunningDisplay, page: str) -> None:
    for locale, language in (("es-ES", "es"), ("en-GB", "en")):
        context, tab = open_page(browser, contigo, page, locale)
        try:
            shows(tab, page, language)
            other = "en" if language == "es" else "es"
            tab.locator("#lang").select_option(other)  # the switch: the page again, in the other language
            shows(tab, page, other)
            tab.reload()  # the browser keeps the choice
            shows(tab, page, other)
        finally:
            context.close()


def test_a_browser_in_another_language_gets_spanish_the_players_language(browser: Browser,
                                                                            contigo: RunningDisplay) -> None:
    context, tab = open_page(browser, contigo, "board", "fr-FR")
    try:
        shows(tab, "board", "es")
        expect(tab.locator("#players thead")).to_contain_text("jugador")
    finally:
        context.close()


# The board picture's words (its caption, its titles), drawn by the service's game in the board's
# language (Spanish here) and said again by the page in its own.
PICTURE = {"es": ("juego de alineación, movimientos rectos", re.compile(r"^hoyo n-a: \d+ cuentas?$")),
           "en": ("alignment game, straight moves", re.compile(r"^pit n-a: \d+ beads?$"))}


def test_the_board_picture_speaks_the_pages_language(browser: Browser, contigo: RunningDisplay) -> None:
    for locale, language in (("en-GB", "en"), ("es-ES", "es")):
        context, tab = open_page(browser, contigo, "board", locale)
        try:
            caption, pit = PICTURE[language]
            expect(tab.locator("#picture svg")).to_contain_text(caption)
            titles = tab.locator("#picture title").all_text_contents()
            assert any(pit.match(title) for title in titles), titles
            other = PICTURE["es" if language == "en" else "en"]
            assert other[0] not in tab.locator("#picture").inner_text()
            assert not any(other[1].match(title) for title in titles), titles
        finally:
            context.close()
