"""Contigo's bead counts in real play: ``python -m bench.beads`` (issue 34.4).

How many beads a pit holds decides how far its hall sensor must count. Seeded games between
computer players of each level and random games (``bench.bots.play``: the engine and
``controller.players`` directly), every variant that moves beads differently; for each, over every
position of every game and all 28 pits:

- the distribution of a pit's count, its p99 and its maximum;
- the share of pit readings above ``N`` beads, and of bead moves that take from or put into a pit
  holding more than ``N`` before or after (the moves a sensor counting to ``N`` cannot see whole),
  for each ``N`` of ``BEYOND``;
- for the first ``--judged`` games of each row, every move judged by the referee from the board a
  sensor counting up to ``N`` would read (each ``N`` of ``--tops``): the share of moves taken at
  once, and of those the table has to confirm (the board fits several moves, or shows none);
  a move misjudged would be counted ``wrong``.

The figures and the sensing chosen from them are in ``docs/build/contigo.md`` ("Sensing").
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.bots import RANDOM, Variant, label, play
from controller.games import get_game
from controller.games.base import Action, State
from controller.games.record import Match
from controller.referee import Referee

VARIANTS: tuple[Variant, ...] = (
    ("contigo", {}, 2),
    ("contigo", {"form": "L"}, 2),
    ("contigo", {"win": "five"}, 2),
    ("contigo", {}, 4),
    ("contigo", {"game": "capture"}, 2),
)
"""The alignment game's bead moves (any count, any distance) at 2 and 4 players, the forms and the
longer line that make games longer, and the capture game's spreads."""

GAMES = {RANDOM: 100, "easy": 12, "medium": 4, "hard": 2}
"""Seeded games per variant and level (hard 4-player games run to the turn limit, minutes each:
one of them); a run of about 20 minutes on two busy cores."""

BEYOND = (8, 12, 16)
TOPS = (6, 8, 10, 12, 56)
"""Counts a pit's sensor may be calibrated up to (``arbitro calibrate --max-count``); 56, every
bead in one pit, is a sensor that never saturates: what the table confirms anyway (a board that is
one move and part of another, as two beads of three dropped in one pit)."""


@dataclass
class Tally:
    """Pit readings and bead moves of some games."""

    games: int = 0
    counts: Counter[int] = field(default_factory=Counter)  # count -> pit readings holding it
    moves: int = 0  # actions that changed a pit
    moves_beyond: Counter[int] = field(default_factory=Counter)  # N -> bead moves touching a pit above N
    game_max: list[int] = field(default_factory=list)
    judged: Counter[tuple[int, str]] = field(default_factory=Counter)  # (top, at once|confirm|wrong) -> moves

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.counts.update(other.counts)
        self.moves += other.moves
        self.moves_beyond.update(other.moves_beyond)
        self.game_max += other.game_max
        self.judged.update(other.judged)

    def percentile(self, q: float) -> int:
        """The smallest count that at least ``q`` of the pit readings do not exceed."""
        total, seen = sum(self.counts.values()), 0
        for count in sorted(self.counts):
            seen += self.counts[count]
            if seen >= math.ceil(q * total):
                return count
        return 0

    def share_above(self, n: int) -> float:
        total = sum(self.counts.values())
        return sum(k for c, k in self.counts.items() if c > n) / total if total else 0.0


def pits(state: State) -> dict[str, int]:
    return {c: v for c, v in state.physical_view().items() if c.startswith("pit:")}


def judge_through(variant: Variant, moves: list[tuple[Action, State]], top: int) -> Counter[str]:
    """The referee judging a game's moves from boards whose pits read no higher than ``top``:
    each taken ``at once``, or chosen by the table (``confirm``), or ``wrong``."""
    game, options, n = variant
    match = Match.new(game, options, n, seed=1)
    referee = Referee(match, get_game(game).channels(match.record.options, n))
    referee.sensing({c: top for c in pits(match.state)})
    out: Counter[str] = Counter()
    for action, after in moves:
        if match.state.current_player < 0:  # chance: drawn, not judged
            match.apply(action)
            continue
        text = match.state.action_to_text(action)
        seen = {c: min(v, top) if c.startswith("pit:") else v for c, v in after.physical_view().items()}
        verdict = referee.judge(seen)
        if verdict.kind == "applied":
            out["at once" if verdict.actions == (text,) else "wrong"] += 1
        elif (verdict.kind in ("ambiguous", "progress") and text in verdict.actions) or (
                verdict.kind == "in_sync" and text in referee.silent_actions()):
            out["confirm"] += 1
            match.apply(action)
        else:
            out["wrong"] += 1
        if match.state.to_text() != after.to_text():
            break  # misjudged: the rest of the game is off
    return out


def measure(variant: Variant, level: str, seed: int, judged: bool = False) -> Tally:
    """One seeded game of ``variant``, every seat at ``level`` (``judged``: and its moves judged
    through sensors counting up to each of ``TOPS``)."""
    tally = Tally(games=1)
    last: list[dict[str, int]] = []
    moves: list[tuple[Action, State]] = []

    def watch(action: Action | None, state: State) -> None:
        if action is not None:
            moves.append((action, state))
        now = pits(state)
        tally.counts.update(now.values())
        if last:
            changed = [c for c, v in now.items() if v != last[-1][c]]
            if changed:
                tally.moves += 1
                for n in BEYOND:
                    if any(max(now[c], last[-1][c]) > n for c in changed):
                        tally.moves_beyond[n] += 1
            last[-1] = now
        else:
            last.append(now)

    play(variant, [level] * variant[2], seed, watch)
    tally.game_max.append(max(tally.counts))
    if judged:
        for top in TOPS:
            tally.judged.update({(top, kind): k for kind, k in judge_through(variant, moves, top).items()})
    return tally


def _job(job: tuple[Variant, str, int, bool]) -> tuple[str, str, Tally]:
    variant, level, seed, judged = job
    return label(variant), level, measure(variant, level, seed, judged)


def table(rows: dict[tuple[str, str], Tally]) -> str:
    head = ["variant", "seats", "games", "pit readings", "p50", "p99", "p99.9", "max",
            *(f"readings > {n}" for n in BEYOND), *(f"bead moves > {n}" for n in BEYOND), "games reaching > 8"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (variant, level), t in rows.items():
        readings = sum(t.counts.values())
        cells = [variant, level, str(t.games), str(readings), str(t.percentile(0.5)), str(t.percentile(0.99)),
                 str(t.percentile(0.999)), str(max(t.counts))]
        cells += [f"{100 * t.share_above(n):.2f} %" for n in BEYOND]
        cells += [f"{100 * t.moves_beyond[n] / t.moves:.1f} %" if t.moves else "-" for n in BEYOND]
        cells.append(f"{sum(m > 8 for m in t.game_max)}/{t.games}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def judged_table(rows: dict[tuple[str, str], Tally]) -> str:
    """Per row and sensor top: the moves judged, the share the table must confirm, and any wrong."""
    head = ["variant", "seats", "moves judged", *(f"confirm, top {top}" for top in TOPS), "wrong"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (variant, level), t in rows.items():
        judged = sum(t.judged[(TOPS[0], kind)] for kind in ("at once", "confirm", "wrong"))
        if not judged:
            continue
        cells = [variant, level, str(judged)]
        for top in TOPS:
            done = sum(t.judged[(top, kind)] for kind in ("at once", "confirm", "wrong"))
            cells.append(f"{100 * t.judged[(top, 'confirm')] / done:.2f} %" if done else "-")
        cells.append(str(sum(t.judged[(top, "wrong")] for top in TOPS)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.beads", description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default=",".join(GAMES), help="seats' levels (random: random play)")
    parser.add_argument("--games", type=int, help="games per variant and level (default: " +
                        ", ".join(f"{k} {n}" for k, n in GAMES.items()) + ")")
    parser.add_argument("--judged", type=int, default=10, help="games per row whose moves the referee judges")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--quick", action="store_true", help="one random game per variant: checks the command")
    args = parser.parse_args(argv)
    levels = [RANDOM] if args.quick else args.levels.split(",")
    jobs = []
    for variant in VARIANTS:
        for level in levels:
            games = 1 if args.quick else args.games or GAMES[level]
            if level == "hard" and variant[2] == 4 and not args.games:
                games = 1  # to the turn limit: minutes each
            jobs += [(variant, level, seed, seed <= args.judged) for seed in range(1, games + 1)]
    rows: dict[tuple[str, str], Tally] = {}
    by_level: dict[tuple[str, str], Tally] = {}
    total = Tally()
    with ProcessPoolExecutor(args.jobs) as pool:
        for variant_label, level, tally in pool.map(_job, jobs):
            rows.setdefault((variant_label, level), Tally()).add(tally)
            by_level.setdefault(("all", level), Tally()).add(tally)
            total.add(tally)
    rows.update(by_level)
    rows[("all", "all")] = total
    print(table(rows))
    print()
    print(judged_table(rows))
    print("\ncount: pit readings (every pit of every position)")
    print(", ".join(f"{c}: {k}" for c, k in sorted(total.counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
