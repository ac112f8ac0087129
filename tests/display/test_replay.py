"""Records on the display, in real headless Chromium (issue 38.2 and 38.3, docs/records.md): a
finished game's record downloaded from the board page replays in the viewer, step by step, to the
same final position and result as the live game, and with ``arbitro replay``; a running game's
download holds no secret and no hidden card unless the operator's key is given."""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from controller import records
from controller.cli import main
from controller.display.server import RunningDisplay
from controller.localbroker import Broker
from tests.support.table import Table
from tests.support.waiting import wait_until
from tests.test_game_records import serpientes_with_cards

CARD = r"(straight|left|right)"


def _over_on_display(display: RunningDisplay, board: str) -> bool:
    model = display.display.boards.get(board)
    return model is not None and bool((model.state or {}).get("over"))


def test_a_downloaded_record_replays_in_the_viewer_to_the_live_games_end(
        broker: Broker, display: RunningDisplay, page: Page, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(3)
    with Table("contigo", seed=5, mqtt_port=broker.port, journal=str(tmp_path / "j.sqlite")) as table:
        while not table.state.is_terminal():
            table.play(rng.choice(table.state.legal_actions()))
        table.idle()
        played = table.moves
        wait_until(lambda: display.call(lambda: _over_on_display(display, "t-contigo")), "the display to see the end")
        page.goto(f"{display.url}board/t-contigo")
        expect(page.locator("#picture svg")).to_be_visible()
        expect(page.locator("#turn")).to_contain_text("won")
        live_picture = page.locator("#picture").inner_html()
        live_result = page.locator("#turn").inner_text()
        with page.expect_download() as downloaded:
            page.click("#record-download")
        saved = tmp_path / "game.json"
        downloaded.value.save_as(saved)

    page.goto(display.url)  # the hall's card links the board's record; the board is away now: the one kept
    link = page.locator('.card[data-board="t-contigo"] a.record-link')
    expect(link).to_have_attribute("href", "/api/board/t-contigo/record")
    with page.expect_download() as from_hall:
        link.click()
    assert json.loads(Path(from_hall.value.path()).read_text()) == json.loads(saved.read_text())
    record = json.loads(saved.read_text())
    assert record["format"] == "arbitro-record" and record["board"] == "t-contigo" and len(record["actions"]) == played
    assert record["fair"]["keys"][0]["secret"] and all(t is not None for t in record["times"])

    page.goto(f"{display.url}replay")
    page.set_input_files("#file", str(saved))
    expect(page.locator("#position")).to_have_text(f"{played} / {played}")  # opened at its end
    expect(page.locator("#moves li")).to_have_count(played)
    page.click("#first")
    expect(page.locator("#position")).to_have_text(f"0 / {played}")
    first = page.locator("#replay-picture").inner_html()
    page.click("#forward")
    expect(page.locator("#position")).to_have_text(f"1 / {played}")
    page.click("#back")
    expect(page.locator("#position")).to_have_text(f"0 / {played}")
    assert page.locator("#replay-picture").inner_html() == first
    page.locator("#moves li").nth(4).click()  # jump to any move
    expect(page.locator("#position")).to_have_text(f"5 / {played}")
    expect(page.locator("#moves li.now")).to_have_attribute("data-move", "5")
    page.locator("#moves li").nth(played - 4).click()
    expect(page.locator("#position")).to_have_text(f"{played - 3} / {played}")
    page.click("#play")  # plays on to the end by itself, a move every 0.8 s
    expect(page.locator("#play")).to_have_text("Pause")
    expect(page.locator("#position")).to_have_text(f"{played} / {played}")
    expect(page.locator("#play")).to_have_text("Play")  # and stops there
    assert page.locator("#replay-picture").inner_html() == live_picture  # the live game's final position
    result = page.locator("#result").inner_text()
    assert live_result in result, (live_result, result)

    # A link to a position of the board's record, opened afresh.
    page.goto(f"{display.url}replay?board=t-contigo&move=7")
    expect(page.locator("#position")).to_have_text(f"7 / {played}")
    expect(page.locator("#link")).to_have_attribute("href", re.compile(r"board=t-contigo.*move=7$"))
    page.click("#last")
    expect(page.locator("#position")).to_have_text(f"{played} / {played}")
    assert page.locator("#replay-picture").inner_html() == live_picture

    assert main(["replay", str(saved)]) == 0  # the same record, re-refereed from the command line
    out = capsys.readouterr().out
    assert f"{played} actions replayed, game over" in out and "board t-contigo" in out


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_a_running_games_download_holds_no_secret_and_no_hidden_card_without_the_key(
        broker: Broker, display: RunningDisplay, tmp_path: Path) -> None:
    rng = random.Random(5)
    with Table("serpientes", seed=-1, players=3, mqtt_port=broker.port,
               journal=str(tmp_path / "j.sqlite")) as table:
        serpientes_with_cards(table, rng)
        table.idle()
        secret = table.service.read(lambda s: bytes(s.match.record.keys[-1].secret or b"").hex())
        wait_until(lambda: display.call(lambda: "t-serpientes" in display.display.boards), "the display to see it")
        status, public = _get(f"{display.url}api/board/t-serpientes/record")
        assert status == 200, public
        assert secret and secret not in public and not re.search(rf"\b(draw|add) {CARD}\b", public)
        assert records.read(json.loads(public)).withheld > 0
        status, wrong = _get(f"{display.url}api/board/t-serpientes/record?key=not-the-key")
        assert status == 200 and secret not in wrong and not re.search(rf"\b(draw|add) {CARD}\b", wrong)
        key = display.display.config.pair_key
        status, private = _get(f"{display.url}api/board/t-serpientes/record?key={key}")
        assert status == 200 and re.search(rf"\b(draw|add) {CARD}\b", private) and secret not in private
        assert _get(f"{display.url}api/board/nowhere/record")[0] == 504  # no referee answers for it
