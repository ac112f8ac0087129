"""Scriptorium's computer player: an open game, so the public view's position is the state searched.

The dice decide most of a Scriptorium game; the player's choice is where his pawn goes when the die
offers more than one space. A leaf is scored after a rollout of about two turns by how many moves
each player still needs: to the Outer spaces of his colour not yet visited, then to the hub. Every
player's count is in the same unit (moves), so the values compare across players.

The levels differ in how often they miss the better space. Where the die's spaces differ in moves
left, ``hard`` (250 iterations) moves to a nearest one about nine times in ten; ``easy`` samples
so few rollouts (3) that it errs one time in three, ``medium`` (8) nearly one in four. With
the earlier budgets (30, 100, 250) even ``easy`` picked a nearest space nearly nine times in ten
and the levels played alike; now medium beats easy and hard beats medium (docs/players.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from controller.games.base import Options, State
from controller.games.scriptorium.board import COLOUR, HUB, HUB_EXITS, INNER, NEIGHBOURS, OUTER, N
from controller.games.scriptorium.position import Position
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


def _distances() -> dict[int, dict[int, int]]:
    """Moves between every two locations along the black lines (the hub joins every Inner space),
    whatever the colours: breadth first from each location."""
    lines = {loc: set(near) for loc, near in NEIGHBOURS.items()}
    lines[HUB] = {INNER * N + p for p in HUB_EXITS}
    for p in HUB_EXITS:
        lines[INNER * N + p].add(HUB)
    table = {}
    for start in lines:
        far = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for loc in frontier:
                for near in lines[loc]:
                    if near not in far:
                        far[near] = far[loc] + 1
                        following.append(near)
            frontier = following
        table[start] = far
    return table


DISTANCE: Final = _distances()


def moves_left(position: Position, player: int) -> int:
    """The fewest moves that take the player's pawn to every Outer space of his colour not yet
    visited, then to the hub (the space it stands on counts as visited)."""
    loc = position.pawns[player]
    table = COLOUR[OUTER][position.offsets[OUTER]]
    targets = [OUTER * N + p for p in range(N)
               if table[p] == player and OUTER * N + p not in position.pins and OUTER * N + p != loc]
    best = None
    for order in permutations(targets):
        here, total = loc, 0
        for target in (*order, HUB):
            total += DISTANCE[here][target]
            here = target
        best = total if best is None else min(best, total)
    return best if best is not None else DISTANCE[loc][HUB]


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return model_of(ScriptoriumModel, "scriptorium", options, public_view, private_view, seat)


class ScriptoriumModel(Model):
    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, ScriptoriumState):
            return super().evaluate(state)
        position = state.position
        return contest([-moves_left(position, p) for p in range(position.players)], SCALE)
