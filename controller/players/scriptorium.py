"""Scriptorium's computer player: an open game, so the public view's position is the state searched.

The dice decide most of a Scriptorium game; the player's choice is where his pawn goes when the die
offers more than one space. A leaf is scored after a rollout of about two turns by how many moves
each player still needs: to the Outer spaces of his colour not yet visited, then to the hub,
counted against where the sync clock will have turned the rings by then (with it ``hard`` won 171
of 300 points against ``hard`` with the count of the rings as they stand: docs/players.md). Every
player's count is in the same unit (moves), so the values compare across players.

The levels differ in how often they miss the better space. Where the die's spaces differ in moves
left, ``hard`` (250 iterations) moves to a nearest one about nine times in ten; ``easy`` samples
so few rollouts (3) that it errs one time in three, ``medium`` (8) nearly one in four. With
the earlier budgets (30, 100, 250) even ``easy`` picked a nearest space nearly nine times in ten
and the levels played alike; now medium beats easy and hard beats medium (docs/players.md).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from controller.games.base import Options, State
from controller.games.scriptorium.board import (
    COLOUR,
    HUB,
    HUB_EXITS,
    INNER,
    NEIGHBOURS,
    OUTER,
    N,
    condition_holds,
    is_aligned,
)
from controller.games.scriptorium.position import NOBODY, Position
from controller.games.scriptorium.rules import CLOCK_ORDER
from controller.games.scriptorium.state import ScriptoriumState
from controller.players.search import Budget, Model, contest
from controller.players.seen import model_of

BUDGETS: Final = {
    "easy": Budget(iterations=3, rollout=8),
    "medium": Budget(iterations=8, rollout=8),
    "hard": Budget(iterations=250, rollout=8),
}

SCALE: Final = 3.0
"""Moves of lead that count as a clear lead (tanh 3/3 is about 0.76)."""


def _lines() -> dict[int, set[int]]:
    """Every location's neighbours along the black lines (the hub joins every Inner space), whatever
    the colours."""
    lines = {loc: set(near) for loc, near in NEIGHBOURS.items()}
    lines[HUB] = {INNER * N + p for p in HUB_EXITS}
    for p in HUB_EXITS:
        lines[INNER * N + p].add(HUB)
    return lines


LINES: Final = _lines()


# The look-ahead below keeps sets of locations as bits of an int: the hub bit 0, a ring's location
# ``loc`` bit ``loc + 1`` (a ring's twelve positions side by side, so the clock turns them by a shift).
HUB_BIT: Final = 1
RING: Final = (1 << N) - 1
NEAR_BITS: Final = {loc + 1: sum(1 << (near + 1) for near in LINES[loc]) for loc in LINES}
HORIZON: Final = 30
"""Clock steps looked ahead: more than the moves the furthest goals take."""


@functools.lru_cache(maxsize=8192)
def clock_turns(offsets: tuple[int, ...], active: int, outer_line: str) -> tuple[int, ...]:
    """The part the sync clock turns at each of its next steps, one a round (``NOBODY`` once the
    board is aligned, frozen): the active part turns one space, then hands over when its condition
    holds (the rules' order; a die's turns, which cannot be foreseen, left out)."""
    out = []
    turned = offsets
    for _ in range(HORIZON):
        if is_aligned(turned):
            out.append(NOBODY)
            continue
        turned = tuple((o + 1) % N if part == active else o for part, o in enumerate(turned))
        out.append(active)
        if not is_aligned(turned) and condition_holds(turned, active, outer_line):
            active = CLOCK_ORDER[active]
    return tuple(out)


def _ride(bits: int, part: int) -> int:
    """``bits`` after ``part`` turns left one space: what stands on a ring turns with it."""
    if part != INNER and part != OUTER:
        return bits
    shift = part * N + 1
    ring = bits >> shift & RING
    ring = (ring << 1 | ring >> (N - 1)) & RING
    return bits & ~(RING << shift) | ring << shift


def _spread(bits: int) -> int:
    """Where a pawn on any of ``bits`` can be after one more move (or none: a roll may offer none)."""
    out = bits
    rest = bits
    while rest:
        low = rest & -rest
        out |= NEAR_BITS[low.bit_length() - 1]
        rest ^= low
    return out


def _steps_before(position: Position, player: int) -> int:
    """The clock's steps before the player's next move: none while his move of this round is still
    to come, one when the round closes first."""
    if position.phase == "clock":
        return 1
    if position.turn == player and position.phase in ("roll", "move"):
        return 0
    first, n = position.first, position.players
    return 0 if (player - first) % n > (position.turn - first) % n else 1


def moves_left(position: Position, player: int) -> int:
    """The fewest moves that take the player's pawn to every Outer space of his colour not yet
    visited, in the better order, then to the hub; counted against where the **sync clock** will
    have turned the rings when the pawn gets there (one step a round, the player's one move a round:
    a goal space on a turning Outer ring moves on while the pawn walks, and a pawn on a turning ring
    rides it). A pawn already on the hub before the board is aligned must leave it and come back."""
    loc = position.pawns[player]
    table = COLOUR[OUTER][position.offsets[OUTER]]
    goals = [1 << (OUTER * N + p + 1) for p in range(N)
             if table[p] == player and OUTER * N + p not in position.pins and OUTER * N + p != loc]
    turns = clock_turns(position.offsets, position.active, position.options["outer_line"])
    early = _steps_before(position, player)
    best = None
    for order in permutations(goals):
        total = _walk(1 << (loc + 1), order, turns, early)
        best = total if best is None else min(best, total)
    assert best is not None  # permutations of no goals is one empty order
    return best


def _walk(pawn: int, goals: Sequence[int], turns: tuple[int, ...], early: int) -> int:
    """The moves that take a pawn standing on ``pawn`` (one bit) to each of ``goals`` in turn, then
    to the hub, with the clock turning ``turns`` (``early`` of them before the first move, then one
    between moves). Each leg is breadth first over moves, from the earliest arrival at the last goal
    (the soonest arrival is never worse: a pawn may wait, as a roll with no move makes it)."""
    goals = list(goals)
    here = pawn
    moves = 0
    for leg in range(len(goals) + 1):
        goal = goals[leg] if leg < len(goals) else HUB_BIT
        if here == goal:  # only a pawn on the hub with no goal left: it came before the board
            return 2  # aligned (else it would have won), and must go out and come back in
        while not here & goal:
            for step in (range(early) if moves == 0 else (early + moves - 1,)):
                part = turns[step] if step < HORIZON else NOBODY
                here, goals = _ride(here, part), [_ride(g, part) for g in goals]
                goal = goals[leg] if leg < len(goals) else HUB_BIT
            here = _spread(here)
            moves += 1
        here = goal
    return moves


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return model_of(ScriptoriumModel, "scriptorium", options, public_view, private_view, seat)


class ScriptoriumModel(Model):
    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, ScriptoriumState):
            return super().evaluate(state)
        position = state.position
        return contest([-moves_left(position, p) for p in range(position.players)], SCALE)
