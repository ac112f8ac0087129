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
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=None, help="games to measure (default: all)")
    parser.add_argument("--games", dest="n", type=int, default=20, help="games sampled for legal_actions timing")
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent counting games per second")
    args = parser.parse_args(argv)
    names = args.games or game_names()
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
