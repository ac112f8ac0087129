"""Each game's board page as a person with deuteranopia sees it (issue 36, "Colour for everyone"),
taken again:

    .venv/bin/python scripts/screenshot_colour.py [GAME ...]

For each game (all four by default): a private Mosquitto, the web display, and a simulated board
whose bots play a seeded game in Spanish with the most players the game seats; at the script's
seat's move number ``AT[game]``, Debian's headless Chromium (``/usr/bin/chromium``, through
Playwright) opens the board's page and photographs it twice: as it is
(``docs/screenshots/colour-<game>.png``) and through Machado, Oliveira and Fernandes's 2009
deuteranopia matrix at severity 1.0 (``docs/screenshots/deuteranopia-<game>.png``), applied to the
whole page as an SVG ``feColorMatrix`` filter, which works on linear sRGB as the matrix is meant to.
The matrix is colour-science's (the test extra: ``pip install -e '.[test]'``), the same the colour
test uses (``tests/test_colour.py``). The same seed shows the same position (the clocks aside).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import threading
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import paho.mqtt.client as mqtt
from playwright.sync_api import Page, expect, sync_playwright

from controller.demo import play_game  # after the checkout is on the path
from controller.display.server import DisplayConfig, RunningDisplay
from controller.games import State, game_names, get_game
from controller.localbroker import Broker

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"  # Debian's package, as the display's tests use it
OUT = ROOT / "docs" / "screenshots"
SEED, SEAT, BOARD = 7, 0, "mesa-1"
AT = {"contigo": 12, "jeocinco": 10, "scriptorium": 8, "serpientes": 10}
"""How many of the script's own moves to play before the photograph: enough pieces of every player."""
TIMEOUT = 20.0


def deuteranopia() -> str:
    """The values of an ``feColorMatrix`` (4 x 5, row by row) simulating deuteranopia."""
    with warnings.catch_warnings():  # colour-science says on import that SciPy's parts are missing: none is used
        warnings.simplefilter("ignore")
        import colour
    rows = colour.matrix_cvd_Machado2009("Deuteranomaly", 1.0).tolist()
    rows = [[*row, 0.0, 0.0] for row in rows] + [[0.0, 0.0, 0.0, 1.0, 0.0]]  # alpha as it is, no offsets
    return " ".join(f"{v:.6f}" for row in rows for v in row)


class States:
    """The board's public states as the display receives them (``arbitro/<board>/state``)."""

    def __init__(self, port: int) -> None:
        self.latest: dict[str, Any] = {}
        self.changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="arbitro-screenshot")
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"arbitro/{BOARD}/state", qos=1)
        self.client.loop_start()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        with self.changed:
            self.latest = json.loads(message.payload)
            self.changed.notify_all()

    def showing(self, view: dict[str, Any]) -> int:
        """The seq of the state that shows ``view`` (as the engine gives it), once it has come."""
        want = json.loads(json.dumps(view))
        with self.changed:
            if not self.changed.wait_for(lambda: self.latest.get("board_view") == want, TIMEOUT):
                raise TimeoutError("the board's state never showed the position to photograph")
            return int(self.latest["seq"])

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def photograph(page: Page, display: RunningDisplay, game: str, seq: int, matrix: str) -> None:
    page.goto(f"{display.url}board/{BOARD}")
    page.wait_for_function("seq => Number(document.body.dataset.seq) >= seq", arg=seq)  # or a later one, same view
    expect(page.locator("#picture svg")).to_be_visible()
    page.screenshot(path=str(OUT / f"colour-{game}.png"), full_page=True)
    page.evaluate("""matrix => {
        const ns = "http://www.w3.org/2000/svg";
        const svg = document.createElementNS(ns, "svg");
        svg.setAttribute("width", "0"); svg.setAttribute("height", "0");
        svg.style.position = "absolute";
        const filter = document.createElementNS(ns, "filter");
        filter.id = "deuteranopia";
        filter.setAttribute("color-interpolation-filters", "linearRGB");
        const m = document.createElementNS(ns, "feColorMatrix");
        m.setAttribute("type", "matrix"); m.setAttribute("values", matrix);
        filter.append(m); svg.append(filter); document.body.append(svg);
        document.documentElement.style.filter = "url(#deuteranopia)";
    }""", matrix)
    page.screenshot(path=str(OUT / f"deuteranopia-{game}.png"), full_page=True)


def take(game: str, matrix: str) -> None:
    rng = random.Random(SEED)
    asked = [0]
    with tempfile.TemporaryDirectory() as work, sync_playwright() as p:
        broker = Broker(Path(work)).start()
        display = RunningDisplay(DisplayConfig(broker_port=broker.port, host="127.0.0.1", port=0))
        states = States(broker.port)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context(locale="es-ES", viewport={"width": 1100, "height": 860}).new_page()
        page.set_default_timeout(TIMEOUT * 1000)

        def seat_moves(state: State) -> Any:
            asked[0] += 1
            if asked[0] == AT[game]:
                photograph(page, display, game, states.showing(state.public_view()), matrix)
            return rng.choice(state.own_actions())

        try:
            play_game(game, broker=("127.0.0.1", broker.port), seed=SEED, players=get_game(game).max_players,
                      seat=SEAT, pace=0, headless=True, max_actions=AT[game] * 40, board_id=BOARD, language="es",
                      ask=seat_moves)
        finally:
            browser.close()
            states.stop()
            display.stop()
            broker.stop()
    if asked[0] < AT[game]:
        raise RuntimeError(f"{game} ended before the script's move {AT[game]}: no picture")
    print(f"wrote docs/screenshots/colour-{game}.png and deuteranopia-{game}.png")


def main(argv: list[str]) -> int:
    games = argv or game_names()
    unknown = set(games) - set(game_names())
    if unknown:
        print(f"no such game: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    matrix = deuteranopia()
    for game in games:
        take(game, matrix)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
