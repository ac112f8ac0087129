"""Whole games refereed through the real path: simulated sensor board (firmware on a pty), host
link, service, LEDs, gpiozero buttons and ring encoders on the mock pin factory."""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.games import CHANCE, game_names, get_game
from controller.games.record import Record
from controller.ledview import game_colours, player_colour
from tests.support.table import Table, expected_targets

# Options that keep a whole game short enough for the suite (documented bounds of each engine).
SHORT = {"scriptorium": {"round_limit": 40}, "serpientes": {"max_rounds": 12}, "jeocinco": {}}


@pytest.mark.parametrize("game", game_names())
def test_a_whole_game_is_refereed_through_sensors_buttons_and_encoders(game: str) -> None:
    rng = random.Random(5)
    g = get_game(game)
    options = {k: v for k, v in SHORT.get(game, {}).items() if k in g.default_options()}
    by_board = checked = 0
    with Table(game, options=options, seed=5) as table:
        events: list[dict[str, Any]] = []
        table.service.watchers.append(events.append)
        decisions = 0
        while True:
            state = table.state
            if state.is_terminal():
                break
            if state.current_player != CHANCE:
                decisions += 1
                if decisions <= 12 or decisions % 15 == 0:
                    table.idle()
                    assert table.verdict.kind in ("in_sync", "applied")
                    lit = table.lit_in(player_colour(state.current_player, game_colours(state)))
                    lit -= set(table.layout.status_leds)
                    want = {i for c in expected_targets(g, state) for i in table.layout.leds_of[c]}
                    assert lit == want, f"LEDs at decision {decisions} ({state.to_text()})"
                    checked += 1
            table.play(rng.choice(state.legal_actions()))
        table.idle()
        final = table.service.call(table.service.public_state)
        record = Record.from_dict(table.service.session.match.record.to_dict())
        by_board = sum(1 for e in events if e["type"] == "action" and e["by"] == "board")
        # The celebration: every board LED in a winner's colour (or white for a draw).
        winners = final["winners"]
        colours = {player_colour(w, game_colours(table.state)) for w in winners} or {(120, 120, 120)}
        board_leds = [i for leds in table.layout.leds_of.values() for i in leds]
        assert {table.frame()[i] for i in board_leds} <= colours
    replayed = record.replay()
    assert replayed.is_terminal() and final["over"]
    assert winners == replayed.winners()
    assert final["scores"] == list(replayed.scores())
    assert by_board > 0 and checked >= 10
