"""Rounds to alignment in seeded Scriptorium games (die turns included).

    python -m tests.games.scriptorium.sync_study [--games N]

Plays seeded games with random players (chance by the seed through ``controller.games.record``) and
records the round in which the board first aligns: 0 when it starts aligned, k when the clock step
that closes round k aligns it, or when a die turn during round k does. Games stop at alignment (or
at the round limit: "never"). The figures in docs/rules/scriptorium.md come from this script.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from controller.games import CHANCE
from controller.games.record import sample_chance
from controller.games.scriptorium import GAME


def rounds_to_alignment(seed: int, players: int, options: dict[str, Any] | None = None) -> int | None:
    """The round in which a seeded random game first aligns, or None if it never does."""
    rng = random.Random(seed)
    state = GAME.new_state(options, players)
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.current_player == CHANCE else rng.choice(state.legal_actions())
        clock = state.phase == "clock"
        before_setup = state.phase in ("setup", "first")
        state = state.apply(action)
        if state.phase not in ("setup", "first") and state.aligned:
            if before_setup:
                return 0
            return state.rounds_played if clock else state.rounds_played + 1
    return None


def summary(values: list[int | None]) -> dict[str, Any]:
    done = sorted(v for v in values if v is not None)

    def pct(q: float) -> int:
        return done[min(len(done) - 1, int(q * len(done)))]

    return {
        "games": len(values), "never": len(values) - len(done), "min": done[0], "p10": pct(0.10),
        "median": pct(0.50), "mean": round(statistics.mean(done), 1), "p90": pct(0.90), "p99": pct(0.99),
        "max": done[-1], "start_aligned": done.count(0),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args(argv)
    print("| variant | players | games | never | min | p10 | median | mean | p90 | p99 | max | aligned at start |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for line in ("same", "either"):
        for players in range(2, 7):
            s = summary([rounds_to_alignment(seed, players, {"outer_line": line}) for seed in range(args.games)])
            print(f"| {line} | {players} | {s['games']} | {s['never']} | {s['min']} | {s['p10']} | {s['median']} |"
                  f" {s['mean']} | {s['p90']} | {s['p99']} | {s['max']} | {s['start_aligned']} |")


if __name__ == "__main__":
    main()
