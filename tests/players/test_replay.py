"""A computer player's decisions replay exactly from the seed it is handed."""

from __future__ import annotations

import random

import pytest

from controller.games import all_games
from controller.players import Budget, decide
from tests.players.table import RANDOM, play, position_where

OPEN_AND_HIDDEN: list[tuple[str, dict[str, object], int]] = [(game.name, {}, game.players()) for game in all_games()]
"""Every game at its usual table: open games and Serpientes' hidden cards alike."""


@pytest.mark.parametrize(("game", "options", "n"), OPEN_AND_HIDDEN)
def test_the_same_seed_decides_the_same_at_every_level(game: str, options: dict[str, object], n: int) -> None:
    state = position_where(game, options, n, seat=0, seed=11, choices=3)
    for level in ("easy", "hard"):
        made = [decide(game, options, state.public_view(), state.private_view(0), 0, level, random.Random(5))
                for _ in range(2)]
        assert made[0] == made[1]
        assert made[0].iterations > 0


@pytest.mark.parametrize(("game", "options", "n"), [("contigo", {}, 2), ("serpientes", {"max_rounds": 6}, 3)])
def test_a_whole_game_with_bots_replays_from_its_seeds(game: str, options: dict[str, object], n: int) -> None:
    seats: list[str | Budget] = [RANDOM if p == 1 else Budget(12, 3) for p in range(n)]
    first = play(game, options, n, seats, seed=3)
    again = play(game, options, n, seats, seed=3)
    assert first[1] == again[1] and first[0].to_text() == again[0].to_text()


def test_another_seed_searches_differently() -> None:
    # The rng is the search's only source of chance (no hidden global random): other seeds try other
    # determinizations and rollouts, and a small search then does not always settle on one move.
    state = position_where("serpientes", {}, 4, seat=0, seed=2, choices=5)
    picks = {decide("serpientes", {}, state.public_view(), state.private_view(0), 0, Budget(8, 6),
                    random.Random(seed)).action for seed in range(12)}
    assert len(picks) > 1
