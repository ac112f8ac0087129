"""Phone seats play whole games on their seat pages (real Chromium, 360 px wide): each move tapped
on the board's picture, sent by the display server to the service as ``request/play`` with the
seat's secret, lit for carry-out, carried out by the simulated hands at the simulated table
(the real firmware on a pty) and refereed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.display.server import RunningDisplay
from controller.games import CHANCE, State
from controller.i18n import People, template
from controller.localbroker import Broker
from controller.session import Session
from tests.display.conftest import pair
from tests.support.mqttc import Listener
from tests.support.table import Table

PHONE_WIDTH = 360
# Counts the vibrations the page asks for, before its own script runs.
VIBRATIONS = """
window.arbitroBuzz = 0;
if (navigator.vibrate) {
  const vibrate = navigator.vibrate.bind(navigator);
  navigator.vibrate = (pattern) => { window.arbitroBuzz += 1; return vibrate(pattern); };
}
"""


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Page]]:
    """Two phones, each in its own browser context (its own storage), 360 px wide, with touch: the
    first in English, the second in Spanish (``LANGUAGES``)."""
    contexts = [browser.new_context(viewport={"width": PHONE_WIDTH, "height": 740}, has_touch=True, locale=locale)
                for locale in ("en-GB", "es-ES")]
    pages = []
    for context in contexts:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.add_init_script(VIBRATIONS)
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()


def tap_move(page: Page, move: dict[str, Any]) -> int:
    """Tap ``move`` on the page's picture as a player would: each channel as often as it takes, then
    its button if the page shows one (other moves could still grow from those taps, it puts beads
    that wait for their send button, or it has no trace). The taps it took."""
    taps = sum(tap_channel(page, channel) for channel, count in move["taps"] for _ in range(count))
    button = page.locator(f'#tap-moves button[data-action="{move["action"]}"]')
    if not move["taps"]:  # a choice: in words ("red keeps the hand"), a card or a colour drawn
        button.wait_for(state="visible")
        assert button.inner_text().strip() not in (move["action"], move["action"].split()[0]), move
        assert button.locator(".face svg").count() == move["action"].startswith(("add ", "colour ")), move
    if button.count():
        assert_big_enough(page)
        button.tap()
        taps += 1
    return taps


def tap_channel(page: Page, channel: str) -> int:
    """Tap ``channel`` on the picture: its own target, or the one it shares with places too close to
    tell apart, then its own target in the enlarged inset that opens. The taps it took."""
    own = page.locator(f'#seat-picture button.tap[data-channel="{channel}"]')
    crowd = page.locator(f'#seat-picture button.crowd[data-channels~="{channel}"]')
    inset = page.locator(f'#tap-inset button.tap[data-channel="{channel}"]')
    own.or_(crowd).or_(inset).first.wait_for(state="visible")  # the page has the move to make
    assert_big_enough(page)
    if own.count():
        own.tap()
        return 1
    if inset.count():  # the inset is open already (a pit tapped again)
        inset.tap()
        return 1
    crowd.tap()
    inset.wait_for(state="visible")
    assert_big_enough(page)
    inset.tap()
    return 2


def assert_big_enough(page: Page) -> None:
    """Every target on the picture and in its inset and every move button is at least 44 px each way
    (read at once: the page redraws them with each update)."""
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '#seat-picture .tap, #tap-inset .tap, #tap-moves button')]
        .map((b) => [b.dataset.channel || b.dataset.action, b.offsetWidth, b.offsetHeight])""")
    assert sizes and all(w >= 44 and h >= 44 for _, w, h in sizes), sizes


def play_on_phones(table: Table, display: RunningDisplay, phones: list[Page], seed: int) -> list[dict[str, Any]]:
    """Play the table's game to its end with every seat on a phone; the moves played, as tapped."""
    board = table.config.board.id
    for seat, page in enumerate(phones):
        page.goto(pair(display, board, seat))
    rng = random.Random(seed)
    played = []
    while not (state := table.state).is_terminal():
        if state.current_player == CHANCE:
            table.play(state.legal_actions()[0])  # the roll button; the hands set up what it drew
        else:
            played.append(phone_move(table, phones[state.current_player], state, rng))
    return played


Choose = Callable[[list[dict[str, Any]]], dict[str, Any]]
"""Which of a seat's moves (``player/<n>``'s, each with its taps) its phone plays."""


def phone_move(table: Table, page: Page, state: State, rng: random.Random,
               choose: Choose | None = None) -> dict[str, Any]:
    """The seat to act picks a move (``choose``'s, else at random) and taps it on its page; the table
    carries it out once it is lit. The move, with the taps it took (``tapped``)."""
    seat, before = state.current_player, table.moves
    moves: list[dict[str, Any]] = table.service.read(lambda s: s.private_state(seat)["moves"])
    traced = [m for m in moves if m["taps"]]
    # Short games that still show every kind of tap: a move on the board where there is one, a card otherwise.
    move = choose(moves) if choose else rng.choice(traced or [m for m in moves if m["action"] != "done"] or moves)
    move = {**move, "tapped": tap_move(page, move)}
    text = move["action"]

    def taken(s: Session) -> bool:
        return len(s.match.record.actions) > before

    def lit_or_taken(s: Session) -> bool:
        return (s.expected is not None and s.expected.text == text) or taken(s)

    table.wait(lit_or_taken, f"the service to take {text} from the phone")
    if table.moves == before:  # lit for the table: the hands carry it out
        assert table.hands.enact(state, state.action_from_text(text))
        table.wait(taken, f"the referee to take {text}")
    return move


@pytest.mark.parametrize("game,options,players,seed", [
    ("contigo", {"turn_limit": 4}, 2, 3),
    ("serpientes", {"two_players": True, "tokens": 1, "max_rounds": 2}, 2, 3),  # red wins: the end names him
])
def test_a_whole_game_is_played_on_phones_tapped_on_the_picture_and_carried_out_at_the_table(
        game: str, options: dict[str, Any], players: int, seed: int, broker: Broker, display: RunningDisplay,
        phones: list[Page]) -> None:
    with Table(game, options=options, players=players, seed=seed, mqtt_port=broker.port) as table:
        base = f"arbitro/{table.config.board.id}"
        desk = Listener(broker.port, [f"{base}/events", f"{base}/response/#"])
        try:
            answer = desk.request(base, "new_game", {"id": "phones", "seats": ["phone"] * players,
                                                     "options": options, "num_players": players, "seed": seed})
            assert answer["ok"], answer
            table.wait(lambda s: s.seats == ("phone",) * players and s.verdict.kind == "in_sync", "the phone game")
            played = play_on_phones(table, display, phones, seed)
            desk.wait_for(lambda m: m[0] == f"{base}/events" and json.loads(m[1])["type"] == "game_over")
            events = desk.json_on(f"{base}/events")
        finally:
            desk.close()
        final = table.state
        assert final.is_terminal()
        by_phone = [e for e in events if e["type"] == "action" and e.get("by") == "phone"]
        assert len(by_phone) == len(played) and {e["player"] for e in by_phone} == set(range(players))
        on_the_board = [m for m in played if m["taps"]]
        assert on_the_board, "no move was tapped on the picture"
        assert len([e for e in events if e["type"] == "expected"]) == len(on_the_board)
        assert not [e for e in events if e["type"] == "violation"], "the table carried out something else"
        for page in phones:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH  # nothing wider than the phone
            assert page.evaluate("window.arbitroBuzz") >= 1  # each seat's turn buzzed its phone
        for page, language in zip(phones, LANGUAGES, strict=True):
            assert_the_end_is_told(page, final, language)


LANGUAGES = ("en", "es")
"""The phones' languages, in order."""


def assert_the_end_is_told(page: Page, final: State, language: str) -> None:
    """The seat page says who won by name and each player's points, in its language."""
    people = People.of(final.player_info(), language)
    winners = ", ".join(people[p] for p in final.winners())
    told = (fill(template("display.seat.won", "Game over: {winners} won.", language), winners=winners) if winners
            else template("display.seat.nobody_won", "Game over: nobody won.", language))
    expect(page.locator("#whose")).to_have_text(told)
    points = page.locator("#points").inner_text()
    for p, score in enumerate(final.scores()):
        assert f"{people[p]}: {score:g} ".replace(".", "," if language == "es" else ".") in points, points


def fill(text: str, **params: str) -> str:
    return text.format(**params)
