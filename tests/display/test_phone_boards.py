"""Phone seats play Scriptorium and Jeocinco on their seat pages (real Chromium, 360 px wide): a
few moves of each, tapped on the picture (Scriptorium's space and ring turn, Jeocinco's slot), sent
to the service with the seat's secret, lit, carried out by the simulated hands at the simulated
table and refereed. ``test_phone_play`` plays whole Contigo and Serpientes games the same way."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page

from controller.display.server import RunningDisplay
from controller.games import CHANCE
from controller.localbroker import Broker
from tests.display.conftest import pair
from tests.display.test_phone_play import PHONE_WIDTH, phone_move, phones  # noqa: F401  # phones: a fixture
from tests.support.mqttc import Listener
from tests.support.table import Table


@pytest.mark.parametrize("game,options,seed,moves,kinds", [
    ("scriptorium", {"round_limit": 4}, 2, 6, ("-", "turn ")),  # a space (from-to), a ring turn
    ("jeocinco", {"max_rounds": 2}, 1, 6, ("place ",)),  # a slot for a piece
])
def test_moves_are_tapped_on_the_picture_and_carried_out_at_the_table(
        game: str, options: dict[str, Any], seed: int, moves: int, kinds: tuple[str, ...], broker: Broker,
        display: RunningDisplay, phones: list[Page]) -> None:  # noqa: F811  # the fixture
    with Table(game, options=options, players=2, seed=seed, mqtt_port=broker.port) as table:
        base = f"arbitro/{table.config.board.id}"
        desk = Listener(broker.port, [f"{base}/events", f"{base}/response/#"])
        try:
            answer = desk.request(base, "new_game", {"id": "phones", "seats": ["phone", "phone"], "options": options,
                                                     "num_players": 2, "seed": seed})
            assert answer["ok"], answer
            table.wait(lambda s: s.seats == ("phone", "phone") and s.verdict.kind == "in_sync", "the phone game")
            for seat, page in enumerate(phones):
                page.goto(pair(display, table.config.board.id, seat))
            rng = random.Random(seed)
            played: list[dict[str, Any]] = []
            while len([m for m in played if m["taps"]]) < moves and not (state := table.state).is_terminal():
                if state.current_player == CHANCE:
                    table.play(state.legal_actions()[0])  # the roll button; the hands set up what it drew
                else:
                    played.append(phone_move(table, phones[state.current_player], state, rng))
            desk.fence(base)  # every event of those moves has come
            events = desk.json_on(f"{base}/events")
        finally:
            desk.close()
    on_the_board = [m["action"] for m in played if m["taps"]]
    assert all(any(kind in text for text in on_the_board) for kind in kinds), on_the_board
    by_phone = [e for e in events if e["type"] == "action" and e.get("by") == "phone"]
    assert [e["action"] for e in by_phone] == [m["action"] for m in played]
    assert {e["player"] for e in by_phone} == {0, 1}
    assert len([e for e in events if e["type"] == "expected"]) == len(on_the_board)
    assert not [e for e in events if e["type"] == "violation"], "the table carried out something else"
    for page in phones:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH  # nothing wider than the phone
