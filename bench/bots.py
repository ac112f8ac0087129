"""The computer players' table: ``python -m bench.bots``.

Every game, variant and player count the engines allow (``VARIANTS``), measured against issue 21's
targets; each figure with its 95 % interval:

- **strength**: seeded games of a level against random play, the level's seat going round the
  table. In Contigo and Jeocinco 2p the share won (Wilson interval) against 90 % (``hard``) and
  70 % (``easy``); elsewhere the share won against the fair share 1/n, and in Serpientes the mean
  rank by score (1 = best, t interval) against the fair (n + 1) / 2: the interval must exclude it;
- **levels**: ``--versus stronger,weaker`` (repeatable) plays one ``stronger`` seat against
  ``weaker`` ones: medium must beat easy and lose to hard;
- **time**: the CPU time (``time.thread_time``) of each ``hard`` decision, p99 ≤ 0.25 s; and
  **memory**: the tracemalloc peak of a decision and the process's RSS growth, ≤ 25 MB;
- **endings**: games between ``hard`` players ended by the game's own ending, not its turn or
  round limit, in ≥ 95 % of games.

Games run in ``--jobs`` worker processes (under ``nice``; the seeds fix every game, so the figures
do not depend on the number of jobs). ``--quick`` checks the command in seconds. Figures go into
``docs/performance.md`` ("Computer players").
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from controller.games.base import CHANCE, Action, State
from controller.games.registry import game_names, get_game
from controller.players import decide
from controller.players.search import Model, decisions, tactics

RANDOM = "random"
GREEDY = "greedy"
"""The one-ply reference player (issue 37): it takes a win at once, else plays at random among the
actions that hand no opponent a winning reply another action prevents (``search.tactics``: in
Contigo the pawn and bead move of one turn planned together)."""

Variant = tuple[str, dict[str, Any], int]

PER_GAME: dict[str, tuple[tuple[dict[str, Any], int], ...]] = {
    "contigo": (({}, 2), ({"form": "L"}, 2), ({"win": "five"}, 2), ({}, 4), ({"form": "L"}, 4), ({"rounds": 30}, 4),
                ({"game": "capture"}, 2), ({"game": "capture", "form": "L"}, 2),
                ({"game": "capture", "spread": "one_way"}, 2)),
    "jeocinco": (({}, 2), ({"fast": True}, 2), ({"diagonal_bridges": False}, 2), ({}, 3),
                 ({"own_turn_bridges": True}, 3), ({}, 4), ({"roll_order": True}, 4)),
    "scriptorium": (({}, 2), ({}, 3), ({"outer_line": "either"}, 3), ({}, 4), ({}, 5), ({}, 6)),
    "serpientes": (({"two_players": True}, 2), ({}, 3), ({}, 4), ({}, 5), ({}, 6), ({"cards": "absolute"}, 4),
                   ({"dealing": "physical"}, 4)),
}
VARIANTS: tuple[Variant, ...] = tuple((game, options, n) for game in game_names() for options, n in PER_GAME[game])
"""Every game at every player count its engine allows, and each variant option at one count."""

SHARE_TARGETS = {("contigo", "hard"): 0.9, ("contigo", "easy"): 0.7}
"""Strength targets as a share won; Jeocinco's hold at two players only (elsewhere: the fair share)."""

GAMES = {"contigo": 20, "jeocinco": 10, "scriptorium": 30, "serpientes": 10}
"""Seeded games per cell of the strength rows: enough that the intervals decide the targets that are
not met by a wide margin, in a run of about a quarter of an hour at two free cores."""

QUICK_LIMITS = {"contigo": {"turn_limit": 12}, "jeocinco": {"max_rounds": 2}, "scriptorium": {"round_limit": 6},
                "serpientes": {"max_rounds": 2}}
"""``--quick``'s turn and round limits: whole games in a second or two (most end by the limit)."""

P99_TARGET = 0.25
PERCENTILE_SAMPLES = 200
"""Decisions a printed 99th percentile needs (fewer: only the median)."""
MEMORY_TARGET_MB = 25.0
ENDINGS_TARGET = 0.95


def label(variant: Variant) -> str:
    game, options, n = variant
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game} {n}p{' ' + extra if extra else ''}"


@dataclass(frozen=True)
class Played:
    """One game's outcome: each seat's return and rank, whether the turn or round limit ended it,
    and the CPU time of each computer player's decision, with its level."""

    returns: tuple[float, ...]
    ranks: tuple[float, ...]
    limited: bool
    times: tuple[tuple[str, float], ...]


def play(variant: Variant, seats: Sequence[str], seed: int,
         watch: Callable[[Action | None, State], None] | None = None) -> Played:
    """A whole game, ``seats[p]`` a level or ``random``; chance and random play from ``seed``.
    ``watch`` sees every position, the first (action None) and each after its action (``bench.beads``)."""
    game, options, n = variant
    state = get_game(game).new_state(options, n)
    table = random.Random(seed)
    minds = [random.Random(seed * 100 + p) for p in range(n)]
    times: list[tuple[str, float]] = []
    if watch is not None:
        watch(None, state)
    while not state.is_terminal():
        p = state.current_player
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            action = table.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        elif seats[p] == RANDOM:
            action = table.choice(decisions(state))
        elif seats[p] == GREEDY:
            action = greedy(game, state, p, table)
        else:
            start = time.thread_time()
            action = decide(game, options, state.public_view(), state.private_view(p), p, seats[p], minds[p]).action
            times.append((seats[p], time.thread_time() - start))
        state = state.apply_legal(action)
        if watch is not None:
            watch(action, state)
    return Played(tuple(state.returns()), tuple(rank(state, p) for p in range(n)), by_limit(game, state),
                  tuple(times))


def greedy(game: str, state: State, p: int, rng: random.Random) -> Any:
    """The greedy reference's action, from what seat ``p`` sees (``Game.state_seen_by``)."""
    engine = get_game(game)
    seen = engine.state_seen_by(state.public_view(), state.private_view(p), p)
    model = Model(seen, p, hidden=engine.hides_information(seen.options))
    return rng.choice(tactics(model, seen, decisions(seen)))


def elo(share: float) -> float:
    """The Elo difference a share of points scored against one opponent means (clamped at 1 %)."""
    s = min(0.99, max(0.01, share))
    return 400 * math.log10(s / (1 - s))


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
    """The mean and its 95 % interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def verdict(low: float, point: float, high: float, target: float, above: bool = True) -> str:
    """pass or FAIL by the point figure, and whether the 95 % interval decides it."""
    met = point >= target if above else point <= target
    decided = (low >= target or high < target) if above else (high <= target or low > target)
    return ("pass" if met else "FAIL") + ("" if decided else " (interval holds the target)")


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Cell:
    """A row's games: ``seats(g)`` for game g, the focus seat going round the table."""

    kind: str  # "strength", "versus" or "endings"
    variant: Variant
    focus: str  # the level measured
    others: str  # the level or random play at the other seats
    games: int
    base_seed: int
    first: int = 0
    """The cell's first game (``--first-game``): a run split in parts plays the games of one run."""

    def tasks(self) -> Iterator[tuple[Variant, list[str], int]]:
        for g, seat in zip(range(self.first, self.first + self.games), self.seats(self.games), strict=True):
            yield self.variant, [self.focus if p == seat else self.others for p in range(self.variant[2])], \
                self.base_seed + g

    def seats(self, played: int) -> list[int]:
        """The focus seat of each of the first ``played`` games."""
        return [g % self.variant[2] for g in range(self.first, self.first + played)]


def _run(task: tuple[Variant, list[str], int]) -> Played:
    return play(*task)


def _nice() -> None:
    """Each worker yields the shared machine to interactive work (as ``nice -n 10`` would)."""
    os.nice(max(0, 10 - os.nice(0)))


def row(cell: Cell, results: Sequence[Played]) -> tuple[str, str, str, str, str]:
    """(figure, target, here, 95 % interval, result) of one cell."""
    game, _, n = cell.variant
    name = label(cell.variant)
    if cell.kind == "endings":
        own = sum(not r.limited for r in results)
        drawn = sum(not r.limited and not any(r.returns) for r in results)  # e.g. a sitting's equal lines
        lo, hi = wilson(own, len(results))
        return (f"{name}: hard against hard, ended by the game's own ending", f">= {ENDINGS_TARGET:.0%}",
                f"{own}/{len(results)}{f' ({drawn} of them drawn)' if drawn else ''}",
                f"[{lo:.0%}, {hi:.0%}]", verdict(lo, own / len(results), hi, ENDINGS_TARGET))
    seats = cell.seats(len(results))
    wins = sum(r.returns[s] > 0 for r, s in zip(results, seats, strict=True))
    at_limit = sum(r.returns[s] > 0 and r.limited for r, s in zip(results, seats, strict=True))
    draws = sum(r.returns[s] == 0 for r, s in zip(results, seats, strict=True))
    lo, hi = wilson(wins, len(results))
    share = wins / len(results)
    here = (f"{wins}/{len(results)} won ({share:.0%}; {wins - at_limit} by the game's own end, {at_limit} at its "
            f"limit){f', {draws} drawn' if draws else ''}")
    if n == 2:
        here += f", Elo {elo(share):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]"
    against = {RANDOM: "random play", GREEDY: "the greedy reference"}.get(cell.others, cell.others)
    figure = f"{name}: {cell.focus} against {against}"
    if cell.kind == "versus":
        fair = 1 / n
        return (figure, f"> {fair:.0%} (fair share)", here, f"[{lo:.0%}, {hi:.0%}]",
                verdict(lo, share, hi, fair + 1e-9))
    target = SHARE_TARGETS.get((game, cell.focus))
    if game == "jeocinco" and n == 2:
        target = {"hard": 0.9, "easy": 0.7}.get(cell.focus)
    if cell.others == GREEDY:  # issue 37: hard wins 80 % of the skill games' 2-player games, else the fair share
        target = 0.8 if cell.focus == "hard" and n == 2 and game in ("contigo", "jeocinco") else None
    if game == "serpientes":
        mean, rlo, rhi = mean_interval([r.ranks[s] for r, s in zip(results, seats, strict=True)])
        fair_rank = (n + 1) / 2
        return (f"{figure}, mean rank ({here})", f"< {fair_rank:.1f} (fair)", f"{mean:.2f}", f"[{rlo:.2f}, {rhi:.2f}]",
                verdict(rlo, mean, rhi, fair_rank - 1e-9, above=False) if cell.focus == "hard" else "for the record")
    if target is not None:
        return figure, f">= {target:.0%}", here, f"[{lo:.0%}, {hi:.0%}]", verdict(lo, share, hi, target)
    fair = 1 / n
    return (figure, f"> {fair:.0%} (fair share)", here, f"[{lo:.0%}, {hi:.0%}]",
            verdict(lo, share, hi, fair + 1e-9) if cell.focus == "hard" else "for the record")


def timing_row(game: str, level: str, times: Sequence[float]) -> str:
    """The CPU time of a level's decisions: p50, and p99 where there are the 200 samples a 99th
    percentile needs to mean something; the 0.25 s target is ``hard``'s."""
    p50 = percentile(times, 0.5)
    if len(times) < PERCENTILE_SAMPLES:
        return (f"{game}: {level} decision CPU time (p50 {p50 * 1000:.0f} ms, {len(times)} decisions) | "
                f"p99 from {PERCENTILE_SAMPLES} decisions | - | - | too few decisions")
    p99 = percentile(times, 0.99)
    target = level == "hard"
    return (f"{game}: {level} decision CPU time, p99 (p50 {p50 * 1000:.0f} ms, {len(times)} decisions) | "
            f"{f'<= {P99_TARGET * 1000:.0f} ms' if target else '-'} | {p99 * 1000:.0f} ms | - | "
            f"{('pass' if p99 <= P99_TARGET else 'FAIL') if target else 'for the record'}")


def ladder(outcomes: Sequence[tuple[Cell, Sequence[Played]]]) -> list[str]:
    """The ladder: per game and level, the share of points won against each reference and each other
    level, with its Elo difference and the 95 % interval of both (Wilson; a draw counts half). With
    more than two players, the share of games won, to set against the fair share 1/n."""
    out = ["ladder | opponent | games | points | Elo [95 % interval]"]
    for cell, results in outcomes:
        if cell.kind not in ("strength", "versus"):
            continue
        n = cell.variant[2]
        seats = cell.seats(len(results))
        points = sum(1.0 if r.returns[s] > 0 else 0.5 if r.returns[s] == 0 else 0.0
                     for r, s in zip(results, seats, strict=True))
        lo, hi = wilson(points, len(results))
        share = points / len(results)
        rating = (f"{elo(share):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]" if n == 2
                  else f"share {share:.0%} [{lo:.0%}, {hi:.0%}] against the fair {1 / n:.0%}")
        against = cell.others if n == 2 else f"{n - 1} x {cell.others}"
        out.append(f"{label(cell.variant)} {cell.focus} | {against} | {len(results)} | {points:g} | {rating}")
    return out


def memory(variant: Variant, seed: int) -> tuple[float, float]:
    """(the largest tracemalloc peak of a hard decision, the RSS growth of this process), in MiB, over
    a seeded game's first ten decisions of seat 0 (the others random)."""
    game, options, n = variant
    state = get_game(game).new_state(options, n)
    table = random.Random(seed)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
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
    rss_growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024  # KiB on Linux
    return peak / 2**20, rss_growth


def cells(variants: Sequence[Variant], levels: Sequence[str], games: int | None, pairs: Sequence[tuple[str, str]],
          versus_games: int, endings_games: int, opponents: Sequence[str] = (RANDOM,), first: int = 0) -> list[Cell]:
    out: list[Cell] = []
    for v in variants:
        count = games if games is not None else GAMES[v[0]]
        out += [Cell("strength", v, level, against, count, 1000, first) for level in levels for against in opponents
                if count]
    firsts: dict[str, Variant] = {}
    for v in variants:
        firsts.setdefault(v[0], v)
    for v in firsts.values():  # the head-to-heads: each game's first variant
        out += [Cell("versus", v, stronger, weaker, versus_games, 3000, first) for stronger, weaker in pairs
                if versus_games]
    out += [Cell("endings", v, "hard", "hard", endings_games, 5000, first) for v in variants if endings_games]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="seeded games per strength cell (default: per game, "
                                                  + ", ".join(f"{g} {k}" for g, k in GAMES.items()) + "; 0: none)")
    parser.add_argument("--levels", default="easy,hard", help="levels to play against random play, comma-separated")
    parser.add_argument("--against", default=RANDOM, help="the references the levels play, comma-separated: "
                                                           "random, greedy (default random)")
    parser.add_argument("--versus", action="append", metavar="STRONGER,WEAKER",
                        help="a head-to-head of two levels on each game's first variant (repeatable; default "
                             "medium,easy and hard,medium)")
    parser.add_argument("--versus-games", type=int, default=16, help="games per head-to-head (0: none)")
    parser.add_argument("--endings", type=int, default=6, help="hard-against-hard games per variant (0: none)")
    parser.add_argument("--game", choices=sorted({g for g, _, _ in VARIANTS}), help="one game only")
    parser.add_argument("--variant", action="append", metavar="LABEL",
                        help="only this variant, as the table names it ('contigo 2p game=capture'); repeatable")
    parser.add_argument("--first-game", type=int, default=0, metavar="G",
                        help="start each cell at its game G (seeds and seats as in one longer run; default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help="check the command in seconds: one game a cell, the first variant of each game")
    args = parser.parse_args(argv)
    variants = [v for v in VARIANTS if args.game in (None, v[0]) and (not args.variant or label(v) in args.variant)]
    pairs = [("medium", "easy"), ("hard", "medium")]
    if args.versus:
        if any(p.count(",") != 1 for p in args.versus):
            parser.error("--versus takes two levels: STRONGER,WEAKER")
        pairs = [(p.split(",")[0], p.split(",")[1]) for p in args.versus]
    games, versus_games, endings = args.games, args.versus_games, args.endings
    if args.quick:
        seen: set[str] = set()
        firsts = [v for v in variants if not (v[0] in seen or seen.add(v[0]))]  # type: ignore[func-returns-value]
        variants = [(game, {**options, **QUICK_LIMITS[game]}, n) for game, options, n in firsts]
        games, versus_games, endings = 1, 1, 1
    opponents = args.against.split(",")
    if not set(opponents) <= {RANDOM, GREEDY}:
        parser.error("--against takes random and greedy")
    plan = cells(variants, args.levels.split(","), games, pairs, versus_games, endings, opponents, args.first_game)
    started, cpu_started = time.time(), time.process_time()
    load = os.getloadavg()
    print(f"bench.bots: {len(plan)} cells, {sum(c.games for c in plan)} games, {args.jobs} jobs, "
          f"load {load[0]:.1f} at the start", flush=True)
    print("figure | target | here | 95 % interval | result")
    level_times: dict[tuple[str, str], list[float]] = {}
    outcomes: list[tuple[Cell, list[Played]]] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), initializer=_nice) as pool:
        pending = [(cell, pool.map(_run, list(cell.tasks()))) for cell in plan]
        for cell, results in pending:
            played = list(results)
            outcomes.append((cell, played))
            for r in played:
                for level, seconds in r.times:
                    level_times.setdefault((cell.variant[0], level), []).append(seconds)
            print(" | ".join(row(cell, played)), flush=True)
    for (game, level), times in sorted(level_times.items()):
        print(timing_row(game, level, times), flush=True)
    print("\n" + "\n".join(ladder(outcomes)), flush=True)
    for game in dict.fromkeys(v[0] for v in variants):
        variant = next(v for v in variants if v[0] == game)
        peak, rss = memory(variant, 7)
        worst = max(peak, rss)
        print(f"{game}: memory of a hard decision (tracemalloc peak {peak:.1f} MiB, RSS growth {rss:.1f} MiB) | "
              f"<= {MEMORY_TARGET_MB:.0f} MB | {worst:.1f} MiB | - | {'pass' if worst <= MEMORY_TARGET_MB else 'FAIL'}",
              flush=True)
    print(f"\n{time.time() - started:.0f} s wall, {time.process_time() - cpu_started:.0f} s CPU in this process, "
          f"load {os.getloadavg()[0]:.1f} at the end", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
