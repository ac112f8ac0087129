"""The computer players' strength and time table: ``python -m bench.bots``.

For every game and variant, seeded games of each level against random play (the level's seat goes
round the table), each figure with its 95 % Wilson interval: in two-player games the share won
(draws apart), in games of more the share won against the fair share 1/n, and in Serpientes the
mean rank (1 = best) against the fair (n + 1) / 2, with a t interval. Then the time of each
``hard`` decision (p50, p99), the memory one decision allocates at its peak (tracemalloc), and how
games between ``hard`` players end: by the game's own ending, or by its turn or round limit.

``--quick`` plays a few games of a few variants (a smoke run); ``--games N`` sets how many per
cell. Figures go into ``docs/performance.md`` ("Computer players").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import CHANCE, State
from controller.games.registry import get_game
from controller.players import LEVELS, decide
from controller.players.search import decisions

RANDOM = "random"

VARIANTS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("contigo", {}, 2),
    ("contigo", {"form": "L"}, 2),
    ("contigo", {"win": "five"}, 2),
    ("contigo", {}, 4),
    ("contigo", {"form": "L"}, 4),
    ("contigo", {"game": "capture"}, 2),
    ("contigo", {"game": "capture", "form": "L"}, 2),
    ("contigo", {"game": "capture", "spread": "one_way"}, 2),
    ("jeocinco", {}, 2),
    ("jeocinco", {}, 3),
    ("jeocinco", {}, 4),
    ("jeocinco", {"fast": True}, 2),
    ("scriptorium", {}, 2),
    ("scriptorium", {}, 3),
    ("scriptorium", {}, 4),
    ("scriptorium", {}, 5),
    ("scriptorium", {}, 6),
    ("serpientes", {}, 3),
    ("serpientes", {}, 4),
    ("serpientes", {}, 5),
    ("serpientes", {}, 6),
    ("serpientes", {"cards": "absolute"}, 4),
    ("serpientes", {"dealing": "physical"}, 4),
)


@dataclass
class Game:
    """One game played: the final state, and the time of each decision of every bot seat."""

    final: State
    times: list[float] = field(default_factory=list)


def play(game: str, options: dict[str, Any], n: int, seats: Sequence[str], seed: int) -> Game:
    """A whole game, ``seats[p]`` a level or ``random``; chance drawn from ``seed``'s generator."""
    engine = get_game(game)
    state = engine.new_state(options, n)
    table = random.Random(seed)  # chance and the random seats
    minds = [random.Random(seed * 100 + p) for p in range(n)]
    played = Game(state)
    while not state.is_terminal():
        p = state.current_player
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            action = table.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        elif seats[p] == RANDOM:
            action = table.choice(decisions(state))
        else:
            start = time.thread_time()
            action = decide(game, options, state.public_view(), state.private_view(p), p, seats[p], minds[p]).action
            played.times.append(time.thread_time() - start)
        state = state.apply_legal(action)
    played.final = state
    return played


def rank(final: State, p: int) -> float:
    """p's rank by score (1 = best; ties share the mean of their places)."""
    points = final.scores()
    above = sum(1 for x in points if x > points[p])
    level = sum(1 for x in points if x == points[p])
    return above + (level + 1) / 2


def by_limit(game: str, final: State) -> bool:
    """Whether the game ended by its turn or round limit rather than by its own ending."""
    view = final.public_view()
    if game == "contigo":
        return bool(view["turn"] >= view["turn_limit"] and view["result"] in (None, "draw"))
    if game == "jeocinco":
        return bool(view["end"] == "limit")
    if game == "scriptorium":
        return view["winner"] is None
    return bool(view["round"] >= view["max_rounds"] and view["tokens"] and
                any(s["in_game"] for s in view["snakes"]))


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def label(game: str, options: dict[str, Any], n: int) -> str:
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game} {n}p{' ' + extra if extra else ''}"


def strength(game: str, options: dict[str, Any], n: int, level: str, games: int, times: list[float]) -> str:
    """One row: the level's seat against random play, ``games`` seeded games."""
    wins = draws = 0.0
    ranks = []
    for g in range(games):
        seat = g % n
        seats = [level if p == seat else RANDOM for p in range(n)]
        played = play(game, options, n, seats, seed=1000 + g)
        times.extend(played.times)
        r = played.final.returns()
        wins += r[seat] > 0
        draws += r[seat] == 0
        ranks.append(rank(played.final, seat))
    lo, hi = wilson(wins, games)
    fair = 1 / n
    cells = [f"{wins / games:5.0%} [{lo:.0%}, {hi:.0%}]", f"{draws / games:4.0%}"]
    if game == "serpientes":
        mean, rlo, rhi = mean_interval(ranks)
        cells.append(f"rank {mean:.2f} [{rlo:.2f}, {rhi:.2f}] (fair {(n + 1) / 2:.1f})")
    else:
        cells.append(f"fair {fair:.0%}")
    return " | ".join(cells)


def versus(game: str, options: dict[str, Any], n: int, stronger: str, weaker: str, games: int) -> str:
    """The round robin's step between two levels: ``stronger`` in one seat, ``weaker`` in the others."""
    wins = 0.0
    for g in range(games):
        seat = g % n
        played = play(game, options, n, [stronger if p == seat else weaker for p in range(n)], seed=3000 + g)
        wins += played.final.returns()[seat] > 0
    lo, hi = wilson(wins, games)
    return f"{wins / games:5.0%} [{lo:.0%}, {hi:.0%}] (fair {1 / n:.0%})"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def peak_memory(game: str, options: dict[str, Any], n: int, seed: int) -> float:
    """The largest peak (MiB) tracemalloc sees during a hard decision of one seeded game's first
    ten decisions of seat 0."""
    engine = get_game(game)
    state = engine.new_state(options, n)
    table = random.Random(seed)
    peak = 0
    decided = 0
    while not state.is_terminal() and decided < 10:
        p = state.current_player
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            action = table.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        elif p == 0:
            tracemalloc.start()
            action = decide(game, options, state.public_view(), state.private_view(p), p, "hard",
                            random.Random(seed)).action
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            decided += 1
        else:
            action = table.choice(decisions(state))
        state = state.apply_legal(action)
    return peak / 2**20


def endings(game: str, options: dict[str, Any], n: int, games: int) -> str:
    limited = 0
    for g in range(games):
        played = play(game, options, n, ["hard"] * n, seed=5000 + g)
        limited += by_limit(game, played.final)
    return f"{games - limited}/{games} by the game's own ending"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per level and variant against random"
                                                             " play (0: none)")
    parser.add_argument("--endings", type=int, default=4, help="hard-vs-hard games per variant (0: none)")
    parser.add_argument("--game", choices=sorted({g for g, _, _ in VARIANTS}), help="one game only")
    parser.add_argument("--variant", action="append", metavar="LABEL",
                        help="only this variant, as the table names it ('contigo 2p game=capture'); repeatable")
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels to play, comma-separated")
    parser.add_argument("--versus", type=int, default=0,
                        help="games of medium against easy and hard against medium per variant (0: none)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 games, the first variant of each game")
    args = parser.parse_args(argv)
    variants = [v for v in VARIANTS if args.game in (None, v[0]) and (not args.variant or label(*v) in args.variant)]
    games = args.games
    if args.quick:
        seen: set[str] = set()
        variants = [v for v in variants if not (v[0] in seen or seen.add(v[0]))]  # type: ignore[func-returns-value]
        games = 2
    levels = args.levels.split(",") if games else []  # --games 0: no rows against random play
    print("variant | level | won [95 %] | drawn | fair share or mean rank")
    hard_times: dict[str, list[float]] = {}
    for game, options, n in variants:
        for level in levels:
            times: list[float] = []
            row = strength(game, options, n, level, games, times)
            if level == "hard":
                hard_times.setdefault(game, []).extend(times)
            print(f"{label(game, options, n)} | {level} | {row}", flush=True)
    if args.versus:
        print("\nvariant | stronger against weaker | won [95 %]")
        for game, options, n in variants:
            for stronger, weaker in (("medium", "easy"), ("hard", "medium")):
                print(f"{label(game, options, n)} | {stronger} against {weaker} | "
                      f"{versus(game, options, n, stronger, weaker, args.versus)}", flush=True)
    print("\ngame | hard decisions | p50 | p99 | peak memory of a decision")
    for game, times in hard_times.items():
        options, n = next((o, k) for g, o, k in variants if g == game)
        p50, p99 = (percentile(times, q) * 1000 for q in (0.5, 0.99))
        print(f"{game} | {len(times)} | {p50:.0f} ms | {p99:.0f} ms | {peak_memory(game, options, n, 7):.1f} MiB",
              flush=True)
    if args.endings and not args.quick:
        print("\nhard against hard: how games end")
        for game, options, n in variants:
            print(f"{label(game, options, n)} | {endings(game, options, n, args.endings)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
