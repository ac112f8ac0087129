"""A small seeded strength check per game: a computer player against random play, in games that
random play in its seat would win far less often (the full table is ``python -m bench.bots``)."""

from __future__ import annotations

from statistics import fmean

from controller.games.base import State
from tests.players.table import RANDOM, play


def _games(game: str, options: dict[str, object], n: int, level: str, count: int) -> list[tuple[State, int]]:
    """``count`` seeded games with ``level`` in a seat that goes round the table: (final state, seat)."""
    out = []
    for g in range(count):
        seat = g % n
        final, _ = play(game, options, n, [level if p == seat else RANDOM for p in range(n)], seed=100 + g)
        out.append((final, seat))
    return out


def _wins(games: list[tuple[State, int]]) -> int:
    return sum(1 for final, seat in games if final.returns()[seat] > 0)


def _rank(final: State, seat: int) -> int:
    points = final.scores()
    return 1 + sum(1 for x in points if x > points[seat])


def test_contigo_easy_beats_random_play() -> None:
    # random play in the seat: 5 or more of 6 in about one try in nine
    assert _wins(_games("contigo", {}, 2, "easy", 6)) >= 5


def test_jeocinco_easy_beats_random_play() -> None:
    assert _wins(_games("jeocinco", {"max_rounds": 40}, 2, "easy", 4)) == 4


def test_scriptorium_easy_beats_random_play() -> None:
    # dice weigh more here, and easy errs on purpose: random play (a third won, a third drawn at the
    # round limit) wins 26 or more of 48 in about one try in three hundred; easy (about 70 % won
    # against random play in bench.bots' seeds) fails it in about one in thirty
    assert _wins(_games("scriptorium", {}, 2, "easy", 48)) >= 26


def test_serpientes_medium_ranks_above_random_play() -> None:
    # two snakes: random play's mean rank is 1.5, and 1.25 or better in about one try in six
    games = _games("serpientes", {"max_rounds": 15, "two_players": True}, 2, "medium", 6)
    assert fmean(_rank(final, seat) for final, seat in games) <= 1.25
