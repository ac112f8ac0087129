"""Any board through the loop: the CPU one step of the service's loop spends on a board, the next
move table included, per configuration of every game.

    python -m bench.loop [GAME ...] [--positions N] [--seed S]

At decision positions of seeded random games (``bench.judge``'s), a lazy referee (as the service
has it) judges each board ``bench.judge`` makes (legal moves, near misses, crowds of first moves,
random, all on, all off), then draws what the loop draws for the game the board leaves it in: the
LED targets, the seat's choices, the clean-move check (the first step of the next move table).
Then, as the loop does while idle, the rest of the table one step at a time. Reported per
configuration: the worst board step (judgement and what follows it), the same with the table not
yet built (a board right after a move), and the worst idle step, in CPU ms
(``time.process_time``, the fastest of three fresh referees per board). The referee's part only:
``python -m bench`` adds the whole loop step (states, JSON, publish) from ``bench.referee``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench.judge import boards, positions
from controller.games import game_names, get_game
from controller.games.record import Match
from controller.referee import Referee

_clock = time.process_time


def _timed(fn: Callable[[], object]) -> float:
    t0 = _clock()
    fn()
    return _clock() - t0


def board_step(match: Match, channels, board: dict[str, int], repeat: int = 3,
               ready: bool = True) -> tuple[float, float]:
    """(the board's step, the worst idle step after it), each the fastest of ``repeat`` fresh referees.
    ``ready=False``: the board comes right after the move that made the position, before any idle
    step has built its move table (the unready table)."""
    best_board = best_idle = float("inf")
    for _ in range(repeat):
        ref = Referee(match.copy(), channels)
        ref.lazy = True
        ref.targets()
        while ready and ref.prepare():  # the position's table, built while the loop was idle
            pass

        def step(ref: Referee = ref) -> None:
            ref.judge(board)
            ref.targets(board)  # the LEDs and the state
            ref.silent_actions()  # the seat's choices
            ref.clean_move(board)

        on_board = _timed(step)
        idle = 0.0
        while ref.unready:
            idle = max(idle, _timed(ref.prepare))
        best_board, best_idle = min(best_board, on_board), min(best_idle, idle)
    return best_board, best_idle


def bench_configuration(game: str, options: dict, players: int, count: int,
                        seed: int) -> tuple[float, float, int, float]:
    """(worst board step s, worst idle step s, boards, worst board step s at an unready table) over
    ``count`` positions of one configuration."""
    channels = get_game(game).channels(options, players)
    rng = random.Random(seed)
    worst_board = worst_idle = worst_unready = 0.0
    n = 0
    for match in positions(game, options, players, seed, count):
        for board in boards(match, channels, rng).values():
            on_board, idle = board_step(match, channels, board)
            unready, _ = board_step(match, channels, board, ready=False)
            worst_board, worst_idle = max(worst_board, on_board), max(worst_idle, idle)
            worst_unready = max(worst_unready, unready)
            n += 1
    return worst_board, worst_idle, n, worst_unready


def configurations(games: list[str]) -> list[tuple[str, str, dict, int]]:
    """(game, label, options, players) for every configuration a game declares."""
    out = []
    for name in games:
        game = get_game(name)
        for options, players in game.configurations():
            changed = ",".join(f"{k}={v}" for k, v in options.items() if v != game.default_options()[k])
            out.append((name, f"{name} {players}p {changed or 'default'}", options, players))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--positions", type=int, default=4, help="positions per configuration")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'configuration':48} {'boards':>6} {'worst board step ms':>20} {'unready table':>14} "
          f"{'worst idle step ms':>19}")
    for name, label, options, players in configurations(args.games or game_names()):
        on_board, idle, n, unready = bench_configuration(name, options, players, args.positions, args.seed)
        print(f"{label:48} {n:6d} {on_board * 1e3:20.2f} {unready * 1e3:14.2f} {idle * 1e3:19.2f}")


if __name__ == "__main__":
    main()
