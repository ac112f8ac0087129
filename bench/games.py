"""Rules-engine speed: start-up, legal actions per position (p50, p99, max), random games per second.

    python -m bench.games [GAME ...] [--games N] [--seconds S]

First the start-up of each game: a fresh interpreter imports the engine and builds a first state
with its legal actions (median of a few runs; the interpreter's own start is not counted).

Then, for every configuration a game declares, plays seeded random games (chance by the seed),
timing ``legal_actions()`` at every decision position on the way, twice:

* ``legal``: on the state the playout reached, as the referee calls it (an engine may already have
  computed the list while applying the previous action, and caches it per state);
* ``uncached``: from scratch, on a fresh copy of the same position rebuilt from its text (not
  timed), so no per-state cache flatters it. Tables an engine builds once per variant (Contigo's
  bead tables) stay warm: they are part of the engine, not of a state.

Finally it reports complete random games per second.

    python -m bench.games --copies [GAME ...]

measures instead the ways a position could be copied with two fields changed (the copy idiom every
engine shares, chosen by these figures: docs/performance.md), on a real mid-game position of each
game: collections' ``_replace``, the engines' own (``base.quick_replace``), the constructor given
every field, a frozen dataclass's ``dataclasses.replace`` and a ``__slots__`` object copied slot by
slot; the cost of reading a field of each kind of object; how many copies a random game makes, and
the share of its time they take.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import dataclasses
import pstats
import random
import statistics
import subprocess
import sys
import time
import timeit
from typing import Any

from controller.games import CHANCE, game_names, get_game
from controller.games.record import sample_chance


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(game, options, players, seed, timings: list[float] | None = None,
         uncached: list[float] | None = None) -> int:
    rng = random.Random(seed)
    state = game.new_state(options, players)
    n = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            action = sample_chance(state, rng)
        else:
            if uncached is not None:
                fresh = game.state_from_text(state.to_text())
                t0 = time.perf_counter()
                fresh.legal_actions()
                uncached.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            legal = state.legal_actions()
            if timings is not None:
                timings.append(time.perf_counter() - t0)
            action = rng.choice(legal)
        state = state.apply(action)
        n += 1
    return n


_STARTUP = """
import time
t0 = time.perf_counter()
from controller.games import get_game
game = get_game({name!r})
t1 = time.perf_counter()
state = game.new_state()
state.legal_actions()
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""


def startup(name: str, runs: int = 5) -> tuple[float, float]:
    """Median milliseconds, in a fresh interpreter, to import the game's engine (and the game API
    with it) and then to build a first state and list its legal actions."""
    imports, firsts = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _STARTUP.format(name=name)], check=True,
                             capture_output=True, text=True).stdout.split()
        imports.append(float(out[0]))
        firsts.append(float(out[1]))
    return statistics.median(imports), statistics.median(firsts)


def bench_configuration(game, options, players, games: int, seconds: float) -> dict:
    timings: list[float] = []
    uncached: list[float] = []
    lengths = []
    for seed in range(games):
        lengths.append(play(game, options, players, seed, timings, uncached))
    count, start = 0, time.perf_counter()
    while count == 0 or (time.perf_counter() - start < seconds and count < 10_000):
        play(game, options, players, 10_000 + count)
        count += 1
    elapsed = time.perf_counter() - start
    return {
        "legal_p50_us": _percentile(timings, 0.50) * 1e6,
        "legal_p99_us": _percentile(timings, 0.99) * 1e6,
        "legal_max_us": max(timings) * 1e6,
        "uncached_p50_us": _percentile(uncached, 0.50) * 1e6,
        "uncached_p99_us": _percentile(uncached, 0.99) * 1e6,
        "uncached_max_us": max(uncached) * 1e6,
        "positions": len(timings),
        "games_per_s": count / elapsed,
        "mean_actions": statistics.mean(lengths),
    }


def _mid_game(game, options, players):
    """A decision position half way through a seeded random game."""
    rng, state, seen = random.Random(1), game.new_state(options, players), []
    while not state.is_terminal():
        seen.append(state)
        state = state.apply(sample_chance(state, rng) if state.current_player == CHANCE
                            else rng.choice(state.legal_actions()))
    return seen[len(seen) // 2].position


def copy_idioms(name: str) -> dict[str, float]:
    """Microseconds per copy (two fields changed) and per field read, by idiom, on a real position
    of ``name``; with the share of a random game's time its ``_replace`` copies take."""
    game = get_game(name)
    options, players = game.configurations()[0]
    position = _mid_game(game, options, players)
    cls, fields = type(position), type(position)._fields
    a, b = fields[-2], fields[-1]
    changes = {a: getattr(position, a), b: getattr(position, b)}
    frozen = dataclasses.make_dataclass("Frozen", fields, frozen=True, slots=True)(*position)
    slots = type("Slots", (), {"__slots__": fields})
    plain: Any = object.__new__(slots)
    stock: Any = collections.namedtuple("Stock", fields)(*position)  # collections' own _replace
    for f, v in zip(fields, position, strict=True):
        setattr(plain, f, v)
    every = ", ".join(f"p.{f}" if f not in changes else f for f in fields)
    clone = "\n    ".join(f"n.{f} = p.{f}" for f in fields if f not in changes)
    code = (f"def construct(p, {a}, {b}):\n    return cls({every})\n"
            f"def copy_slots(p, {a}, {b}):\n    n = new(slots)\n    {clone}\n    n.{a} = {a}\n    n.{b} = {b}\n"
            f"    return n\n"
            f"def read(p):\n    return p.{a}, p.{b}, p.{a}, p.{b}, p.{a}, p.{b}, p.{a}, p.{b}, p.{a}, p.{b}\n"
            f"def unchanged(p):\n    return p, p, p, p, p, p, p, p, p, p\n")
    namespace: dict = {"cls": cls, "new": object.__new__, "slots": slots}
    exec(code, namespace)
    va, vb = changes[a], changes[b]
    construct, copy_slots, read, unchanged = (namespace[k] for k in ("construct", "copy_slots", "read", "unchanged"))

    def per_call(work, idle=lambda: None, number=20_000) -> float:  # CPU time: the machine may be shared
        best = min(timeit.repeat(work, number=number, repeat=7, timer=time.process_time))
        idle_best = min(timeit.repeat(idle, number=number, repeat=7, timer=time.process_time))
        return max(0.0, best - idle_best) / number * 1e6

    out = {
        "collections _replace": per_call(lambda: stock._replace(**changes)),
        "quick_replace": per_call(lambda: position._replace(**changes)),
        "constructor": per_call(lambda: construct(position, va, vb)),
        "dataclasses.replace": per_call(lambda: dataclasses.replace(frozen, **changes)),
        "__slots__ copy": per_call(lambda: copy_slots(plain, va, vb)),
    }
    for label, value in (("NamedTuple", position), ("dataclass", frozen), ("__slots__", plain)):
        out[f"read {label}"] = per_call(lambda v=value: read(v), lambda v=value: unchanged(v)) / 10
    start = time.process_time()
    for seed in range(3):
        play(game, options, players, seed)
    per_game = (time.process_time() - start) / 3
    profile = cProfile.Profile()
    profile.runcall(lambda: [play(game, options, players, seed) for seed in range(3)])
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    copies = sum(v[1] for k, v in stats.items() if k[2] == "_replace") / 3
    out["copies per game"] = copies
    out["copy share %"] = 100 * copies * out["quick_replace"] / 1e6 / per_game
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=None, help="games to measure (default: all)")
    parser.add_argument("--games", dest="n", type=int, default=20, help="games sampled for legal_actions timing")
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent counting games per second")
    parser.add_argument("--copies", action="store_true", help="measure the copy idioms instead")
    args = parser.parse_args(argv)
    names = args.games or game_names()
    if args.copies:
        for name in names:
            print(name + ": " + ", ".join(f"{k} {v:.2f}" for k, v in copy_idioms(name).items()))
        return
    print(f"{'start-up':52} {'import ms':>12} {'first state ms':>15}")
    for name in names:
        imp, first = startup(name)
        print(f"{name:52} {imp:12.1f} {first:15.2f}")
    print()
    print(f"{'configuration':52} {'legal p50 us':>12} {'p99 us':>9} {'max us':>9} {'uncached p50':>12}"
          f" {'p99 us':>9} {'max us':>9} {'positions':>9} {'games/s':>9} {'actions/game':>12}")
    for name in names:
        game = get_game(name)
        for options, players in game.configurations():
            changed = ",".join(f"{k}={v}" for k, v in options.items() if v != game.default_options()[k])
            label = f"{name} {players}p {changed or 'default'}"
            r = bench_configuration(game, options, players, args.n, args.seconds)
            print(f"{label:52} {r['legal_p50_us']:12.1f} {r['legal_p99_us']:9.1f} {r['legal_max_us']:9.1f}"
                  f" {r['uncached_p50_us']:12.1f} {r['uncached_p99_us']:9.1f} {r['uncached_max_us']:9.1f}"
                  f" {r['positions']:9d} {r['games_per_s']:9.1f} {r['mean_actions']:12.1f}")


if __name__ == "__main__":
    main()
