"""Two trees side by side: bench.games' and bench.judge's figures for a base commit and for this
checkout, measured in one run, alternating, with old/new ratios.

    python -m bench.compare [GAME ...] [--base REV] [--runs N] [--games N] [--positions N]

The base commit is checked out in a temporary git worktree (removed at the end). Every run measures
each game in both trees, one after the other in fresh interpreters, the order swapped from run to
run, so that a machine busy with other work slows both alike. The measuring code is this checkout's
(``bench.games.play``, ``bench.judge.bench_configuration``), run over each tree's own engines and
referee. Per configuration, the medians over the runs of:

* ``legal``: microseconds of ``legal_actions()`` per decision, as the referee calls it (the mean
  over the decisions of ``--games`` seeded random games), and ``uncached``: the same from scratch,
  on a fresh state read from the position's text (see bench.games); each decision's the fastest of
  three plays of its game (a seeded game takes the same positions every time);
* ``games/s``: complete random games per CPU second, over the same ``--games`` seeded games in
  both trees (the behaviour is the same, so the games are), the fastest of three;
* ``judge``: the worst judgement of bench.judge's boards at ``--positions`` positions (CPU ms,
  each board's the fastest of three fresh referees).

Each ratio is old/new for times and new/old for games per second: 1.00 or more means the new tree
is at least as fast. The last line gives each column's geometric mean over the configurations.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

BEFORE_SHAPE = "a4dd89f"
"""The last commit before issue 20 cut the engines into packages; its golden playthroughs are today's."""

REPEATS = 3
"""Times each measurement is made within a run; the fastest counts (noise only ever adds)."""

METRICS = (("legal_us", "legal us", False), ("uncached_us", "uncached us", False),
           ("games_per_s", "games/s", True), ("judge_ms", "judge ms", False))
"""(key, column title, whether more is better)."""

_WORKER = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("bench_compare_worker", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(module.measure(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
"""
"""Run with the tree under test as the working directory, which ``-c`` puts first on the path: its
``controller`` is the one imported; this file, and the bench modules beside it, are loaded by path."""


def _sibling(name: str) -> ModuleType:
    """This checkout's ``bench/<name>.py``, whatever tree ``controller`` is imported from."""
    spec = importlib.util.spec_from_file_location(f"bench_compare_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(name: str, games: int, positions: int) -> dict[str, dict[str, float]]:
    """Every configuration of game ``name`` in the tree ``controller`` is imported from."""
    from controller.games import get_game

    playouts, judging = _sibling("games"), _sibling("judge")
    game = get_game(name)
    out: dict[str, dict[str, float]] = {}
    for options, players in game.configurations():
        changed = ",".join(f"{k}={v}" for k, v in options.items() if v != game.default_options()[k])
        out[f"{name} {players}p {changed or 'default'}"] = _configuration(playouts, judging, game, options, players,
                                                                          games, positions)
    return out


def _configuration(playouts: ModuleType, judging: ModuleType, game: Any, options: dict[str, Any], players: int,
                   games: int, positions: int) -> dict[str, float]:
    """One configuration's figures. Every measurement is made :data:`REPEATS` times and the fastest
    counts, per decision for the legal lists (a seeded game goes through the same positions every
    time): what other processes' turns on the CPU added is gone."""
    playouts.play(game, options, players, 99_999)  # tables an engine builds once per variant
    legal: list[float] = []
    uncached: list[float] = []
    for seed in range(games):
        runs: list[tuple[list[float], list[float]]] = [([], []) for _ in range(REPEATS)]
        for times, fresh in runs:
            playouts.play(game, options, players, seed, times, fresh)
        legal += map(min, zip(*(times for times, _ in runs), strict=True))
        uncached += map(min, zip(*(fresh for _, fresh in runs), strict=True))
    elapsed = math.inf
    for _ in range(REPEATS):
        start = time.process_time()
        for seed in range(games):
            playouts.play(game, options, players, seed)
        elapsed = min(elapsed, time.process_time() - start)
    judged = judging.bench_configuration(game.name, options, players, positions, 1)
    return {
        "legal_us": statistics.mean(legal) * 1e6,
        "uncached_us": statistics.mean(uncached) * 1e6,
        "games_per_s": games / elapsed,
        "judge_ms": max(max(r["times"]) for r in judged.values()) * 1e3,
    }


def _run(tree: Path, name: str, games: int, positions: int) -> dict[str, dict[str, float]]:
    done = subprocess.run([sys.executable, "-c", _WORKER, __file__, name, str(games), str(positions)],
                          cwd=tree, check=True, capture_output=True, text=True)
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def _ratio(key: str, old: float, new: float, more_is_better: bool) -> float:
    return new / old if more_is_better else old / new


def report(old: dict[str, list[dict[str, float]]], new: dict[str, list[dict[str, float]]]) -> None:
    """The table of medians and ratios, configuration by configuration."""
    header = f"{'configuration':46}" + "".join(f" {title + ' old':>13} {'new':>8} {'ratio':>6}"
                                               for _, title, _ in METRICS)
    print(header)
    logs: dict[str, list[float]] = {key: [] for key, _, _ in METRICS}
    for label in old:
        row = f"{label[:46]:46}"
        for key, _, more in METRICS:
            a = statistics.median(r[key] for r in old[label])
            b = statistics.median(r[key] for r in new[label])
            ratio = _ratio(key, a, b, more)
            logs[key].append(math.log(ratio))
            row += f" {a:13.2f} {b:8.2f} {ratio:6.2f}"
        print(row)
    print(f"{'geometric mean of the ratios':46}" + "".join(
        f" {'':13} {'':8} {math.exp(statistics.mean(logs[key])):6.2f}" for key, _, _ in METRICS))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--base", default=BEFORE_SHAPE, help="the old tree's commit (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each tree (medians are reported)")
    parser.add_argument("--games", dest="n", type=int, default=8, help="seeded random games per configuration")
    parser.add_argument("--positions", type=int, default=6, help="positions judged per configuration")
    args = parser.parse_args(argv)
    here = Path(__file__).resolve().parents[1]
    from controller.games import game_names

    names = args.games or game_names()
    with tempfile.TemporaryDirectory(prefix="arbitro-base-") as tmp:
        base = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "--quiet", str(base), args.base],
                       check=True)
        try:
            old: dict[str, list[dict[str, float]]] = {}
            new: dict[str, list[dict[str, float]]] = {}
            for run in range(args.runs):
                for name in names:
                    trees = [(base, old), (here, new)]
                    for tree, into in trees if run % 2 == 0 else trees[::-1]:
                        for label, figures in _run(tree, name, args.n, args.positions).items():
                            into.setdefault(label, []).append(figures)
                print(f"run {run + 1} of {args.runs} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(base)], check=True)
    print(f"old: {args.base}, new: this checkout; medians of {args.runs} runs; ratio >= 1: the new is as fast")
    report(old, new)


if __name__ == "__main__":
    main()
