"""What the display makes of a board's messages: clock, move list, names, words, pictures, delay."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from controller.display.model import BoardModel, describe, parse_names, read_names
from controller.display.render import board_svg
from controller.gameclock import GameClock
from controller.games import game_names, get_game
from controller.games.record import Match, Record
from controller.localbroker import Broker
from tests.display.conftest import start_display
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service


def state(turn: int | None, moves: int, over: bool = False) -> dict[str, Any]:
    return {"game": "contigo", "options": {}, "num_players": 2, "turn": turn, "moves": moves, "over": over,
            "last_action": f"a{moves}" if moves else None, "board_view": {}}


def test_the_game_clock_counts_each_players_turns() -> None:
    clock = GameClock.start(100.0, 2)
    clock.observe(0, False, now=100.0)
    clock.observe(1, False, now=130.0)  # player 0 thought for 30 s
    clock.observe(None, False, now=135.0)  # a roll pending: nobody's clock runs
    clock.observe(0, False, now=140.0)
    assert clock.to_json(142.0) == {"started_at": 100.0, "counted_from": "start", "elapsed": 42.0,
                                    "used": [30.0, 5.0], "turn_started_at": 140.0, "ended_at": None}
    clock.observe(None, True, now=150.0)
    clock.observe(None, True, now=160.0)  # still over: the end stays when it was
    assert clock.to_json(160.0) == {"started_at": 100.0, "counted_from": "start", "elapsed": 50.0,
                                    "used": [40.0, 5.0], "turn_started_at": None, "ended_at": 150.0}
    clock.observe(1, False, now=170.0)  # an undo after the end: the game runs again
    assert clock.to_json(171.0)["ended_at"] is None and clock.to_json(171.0)["elapsed"] == 71.0


def test_the_move_list_follows_actions_undo_and_a_new_game() -> None:
    m = BoardModel("b")
    for n in (1, 2, 3):
        m.on_state(state(n % 2, n))
    assert m.moves == {1: "a1", 2: "a2", 3: "a3"}
    m.on_event({"type": "undo", "action": "a3", "move": 2})
    assert m.moves == {1: "a1", 2: "a2"} and m.log == ["undone: a3"]
    m.on_state(state(0, 2))
    assert m.moves == {1: "a1", 2: "a2"}
    m.on_state(state(0, 0))
    assert m.moves == {}


def test_the_move_list_keeps_each_move_in_words_beside_its_notation() -> None:
    m = BoardModel("b")
    said = {"code": "contigo.say.move", "params": {"player": "player 0", "src": "c3", "dst": "c5"}, "text": "rojo …"}
    m.on_state({**state(1, 1), "last_action": "c3-c5", "last_action_words": said})
    m.on_event({"type": "chance", "move": 2, "outcome": "start red", "seq": 1,
                "action_words": {"code": "game.say.starts", "params": {"player": "player 0"}, "text": "empieza rojo"}})
    assert m.snapshot()["moves"] == [[1, "c3-c5", {"code": "contigo.say.move", "params": said["params"]}],
                                     [2, "start red", {"code": "game.say.starts", "params": {"player": "player 0"}}]]
    m.on_event({"type": "undo", "action": "start red", "move": 1, "seq": 2})
    assert list(m.said) == [1]  # an undone move is forgotten with its words
    # a phone seat's moves, said in words for its buttons (the notation is what it sends)
    m.private[0] = {"moves": [{"action": "beads s-c>s-e 2", "taps": []}]}
    assert m.seat(0)["said"] == {"beads s-c>s-e 2": {"code": "contigo.say.beads", "params": {
        "player": "player 0", "count": "2", "src": "s-c", "dst": "s-e"}}}


def event(seq: int, kind: str, move: int, **data: object) -> dict[str, Any]:
    return {"seq": seq, "type": kind, "game": "contigo", "move": move, "time": 1.0, **data}


def test_missed_events_come_back_from_the_recent_window_once_each() -> None:
    m = BoardModel("b")
    m.on_recent({"run": "r1", "events": [event(1, "new_game", 0, game="contigo", num_players=2),
                                         event(2, "action", 1, action="a1", by="board")]})
    m.on_event(event(2, "action", 1, action="a1", by="board"))  # a resend: dropped
    m.on_event(event(3, "action", 2, action="a2", by="board"))
    assert m.moves == {1: "a1", 2: "a2"} and m.log == ["new game: contigo, 2 players"]
    # The broker was away: the window brings back what went out meanwhile, and only that.
    m.on_recent({"run": "r1", "events": [event(n, "action", n - 1, action=f"a{n - 1}", by="board")
                                         for n in range(2, 7)] + [event(7, "resign", 5, player=1)]})
    assert m.moves == {1: "a1", 2: "a2", 3: "a3", 4: "a4", 5: "a5"} and m.log[-1] == "player 2 resigned"  # from 1
    assert len(m.log) == 2
    # The service restarted (another run): its events count from 1 again, and are taken.
    m.on_recent({"run": "r2", "events": [event(1, "new_game", 0, game="contigo", num_players=2),
                                         event(2, "action", 1, action="b1", by="board")]})
    assert m.moves == {1: "b1"} and m.log[-1] == "new game: contigo, 2 players"


def test_names_are_a_short_list_of_short_strings() -> None:
    assert parse_names(b'["Ana", " Bo "]') == ["Ana", "Bo"]
    for bad in (b"{}", b'"Ana"', b"[1]", b"not json", b'["' + b"x" * 41 + b'"]', b"[" + b'"a",' * 8 + b'"a"]',
                b'["A\\u0000na"]', b'["Ana", "B\\no"]', b'["\\u001b[2J"]', b'["Ana\\u007f"]', b'["Ana\\u0085"]'):
        assert parse_names(bad) is None, bad
    with pytest.raises(ValueError, match=r"^names: name 2 holds the control character U\+000A$"):
        read_names(b'["Ana", "B\\no"]')


def test_events_in_words_use_the_names_and_keep_choices_private() -> None:
    names = ["Ana", "Bo"]
    assert describe({"type": "game_over", "winners": [1]}, names) == "game over: Bo won"
    assert describe({"type": "violation", "message": "the piece at c4 is wrong"}, names) == \
        "violation: the piece at c4 is wrong"
    assert describe({"type": "crash", "player": 0, "text": "snake 0 crashed"}, names) == "crash: snake 0 crashed"
    assert describe({"type": "choice", "action": "program left", "index": 0, "of": 2}, names) is None


@pytest.mark.parametrize("game", game_names())
def test_every_game_is_drawn_with_its_targets_and_violations_marked(game: str) -> None:
    g = get_game(game)
    match = Match(Record.seeded(game, g.options({}), g.players(None), 3))
    while match.state.current_player < 0:
        match.resolve_chance()
    channels = [c.name for c in g.channels(match.record.options, match.record.num_players)]
    wrong = [c for c in channels if not c.startswith("enc:")][-2:]
    picture = board_svg({"game": game, "board_view": match.state.public_view(), "targets": [],
                         "violation": {"message": "x", "channels": wrong}, "setup": None})
    assert picture.startswith("<svg") and picture.count('class="mark violation"') == 2
    assert "cannot draw" not in picture


def test_a_spectator_delay_holds_the_board_page_back(broker: Broker, page: Page) -> None:
    display = start_display(broker.port, board_delays={"d1": 0.8})
    service = mqtt_service("contigo", "d1", broker.port, seed=2)
    operator = Listener(broker.port, [])
    try:
        page.goto(f"{display.url}board/d1")
        expect(page.locator("#delay")).to_have_text("shown 0.8 s late")
        expect(page.locator("#turn")).to_contain_text("Waiting for chance")
        start = time.monotonic()
        assert operator.request("arbitro/d1", "roll", {})["ok"]
        expect(page.locator("#move-count")).to_have_text("1")
        assert time.monotonic() - start >= 0.8
    finally:
        operator.close()
        service.stop()
        display.stop()
