"""A computer player never returns an illegal action: whole games of every game and variant."""

from __future__ import annotations

import pytest

from controller.games.registry import all_games
from controller.players import Budget
from tests.players.table import RANDOM, play

SHORT = {"jeocinco": {"max_rounds": 12}, "serpientes": {"max_rounds": 12}, "scriptorium": {"round_limit": 40},
         "contigo": {"turn_limit": 60}}
"""Round and turn limits that keep every whole game short (the games end by them or sooner)."""

TINY = Budget(iterations=4, rollout=2)
"""A search small enough to play whole games of every variant quickly; the levels search the same way."""

CONFIGURATIONS = [(game.name, {**options, **SHORT[game.name]}, n)
                  for game in all_games() for options, n in game.configurations()]


@pytest.mark.parametrize(("game", "options", "n"), CONFIGURATIONS,
                         ids=[f"{g}-{n}p-{i}" for i, (g, _, n) in enumerate(CONFIGURATIONS)])
def test_bots_play_whole_games_legally(game: str, options: dict[str, object], n: int) -> None:
    # bots in the first and last seats (every seat index of a game somewhere), random play between;
    # table.bot_move checks each decision against the engine's legal actions and the seat
    seats = [TINY if p in (0, n - 1) else RANDOM for p in range(n)]
    final, actions = play(game, options, n, seats, seed=n)
    assert final.is_terminal() and actions
