"""The README's picture of a board page in Spanish (``docs/screenshots/board-es.png``), taken again:

    .venv/bin/python scripts/screenshot.py

A private Mosquitto, the web display, and a simulated Contigo board whose bots play a seeded game
in Spanish (``board.language = "es"``); at red's pawn move of turn 11, Debian's headless Chromium
(``/usr/bin/chromium``, through Playwright) opens the board's page in a Spanish browser and
photographs it, mid-game. The same seed shows the same position (the clocks aside).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import expect, sync_playwright

from controller.demo import play_game  # after the checkout is on the path
from controller.display.server import DisplayConfig, RunningDisplay
from controller.games import State
from controller.localbroker import Broker

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"  # Debian's package, as the display's tests use it
OUT = ROOT / "docs" / "screenshots" / "board-es.png"
GAME, SEED, TURN, BOARD = "contigo", 7, 11, "mesa-1"
SHOT_SEAT = 0  # red, played by this script (a random legal move); blue is the demo's bot


def photograph(display: RunningDisplay, turn: int) -> None:
    """The board's page in a Spanish browser, once it shows red to move a pawn at ``turn``."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 860}).new_page()
            page.set_default_timeout(15_000)
            page.goto(f"{display.url}board/{BOARD}")
            caption = page.locator("#picture svg > text").last
            expect(caption).to_contain_text(f"turno {turn}/")
            expect(caption).to_contain_text("rojo mueve una ficha")
            expect(page.locator("html")).to_have_attribute("lang", "es")
            OUT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(OUT), full_page=True)
        finally:
            browser.close()


def main() -> int:
    rng = random.Random(SEED)
    taken: list[int] = []
    with tempfile.TemporaryDirectory() as work:
        broker = Broker(Path(work)).start()
        display = RunningDisplay(DisplayConfig(broker_port=broker.port, host="127.0.0.1", port=0))

        def red_moves(state: State) -> Any:
            view = state.public_view()
            if not taken and view["turn"] >= TURN and view["phase"] == "move":
                photograph(display, view["turn"])
                taken.append(view["turn"])
            return rng.choice(state.own_actions())

        try:
            play_game(GAME, broker=("127.0.0.1", broker.port), seed=SEED, players=None, seat=SHOT_SEAT, pace=0,
                      headless=True, max_actions=10 * TURN, board_id=BOARD, language="es", ask=red_moves)
        finally:
            display.stop()
            broker.stop()
    if not taken:
        print(f"the game ended before turn {TURN}: no picture", file=sys.stderr)
        return 1
    print(f"wrote {OUT.relative_to(ROOT)} (turn {taken[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
