"""The demo with computer players at every seat, seeds 1..N of every game, as fast as it goes:
``python -m bench.demo_seeds [--seeds 20] [--games NAME ...]``.

Each run is ``arbitro demo --game G --bots hard --headless --pace 0 --no-display --seed N --max-actions
5000``. A run
ends by the rules when it exits 0 with a game over said in the players' words ("fin de la partida"),
not by the demo's resignation at its action limit; anything else is printed with the last lines it
wrote. Issue 33 asks for every game and N = 1..20.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from controller.games import game_names


def run(game: str, seed: int, timeout: float) -> tuple[bool, float, str]:
    """One demo: (ended by the rules, seconds, the last line it said)."""
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--game", game, "--bots", "hard",
                               "--headless", "--pace", "0", "--no-display", "--seed", str(seed),
                               "--max-actions", "5000"],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return False, timeout, f"no end within {timeout:.0f} s"
    took = time.monotonic() - started
    said = [line for line in done.stdout.splitlines() if line.strip()]
    last = said[-1] if said else (done.stderr.strip().splitlines() or ["(nothing said)"])[-1]
    resigned = any("action limit" in line for line in done.stderr.splitlines())  # the demo's, not the rules' end
    ended = done.returncode == 0 and any("fin de la partida" in line for line in said) and not resigned
    return ended, took, last if ended else f"rc {done.returncode}: {done.stderr.strip()[-400:] or last}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.demo_seeds", description=__doc__)
    parser.add_argument("--seeds", type=int, default=20, help="seeds 1..N (default 20)")
    parser.add_argument("--games", nargs="*", default=game_names(), choices=game_names())
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one demo may take")
    args = parser.parse_args(argv)
    failed = 0
    for game in args.games:
        ended, times = 0, []
        for seed in range(1, args.seeds + 1):
            ok, took, last = run(game, seed, args.timeout)
            times.append(took)
            ended += ok
            print(f"{game} seed {seed}: {'ended by the rules' if ok else 'FAILED'} in {took:.1f} s: {last}",
                  flush=True)
        failed += args.seeds - ended
        print(f"{game}: {ended}/{args.seeds} ended by the rules; {max(times):.1f} s at the longest", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
