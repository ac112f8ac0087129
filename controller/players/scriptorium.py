"""Scriptorium's computer player: an open game, so the public view's position is the state searched.

The dice decide most of a Scriptorium game; the player's choice is where his pawn goes when the die
offers more than one space. A leaf is scored after a rollout of about two turns by how far each
player is towards his goal: Outer spaces of his colour visited, and once both are, how near the hub
his pawn stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from controller.games.base import Options, State
from controller.games.scriptorium.board import HUB, INNER, MIDDLE, OUTER, N
from controller.games.scriptorium.state import ScriptoriumState
from controller.players.open_game import reconstruct
from controller.players.search import Budget, Model, contest

BUDGETS: Final = {
    "easy": Budget(iterations=30, rollout=8),
    "medium": Budget(iterations=100, rollout=8),
    "hard": Budget(iterations=250, rollout=8),
}

TOWARDS_OUTER: Final = {HUB: 0.0, INNER: 0.1, MIDDLE: 0.2, OUTER: 0.3}
"""Before both Outer spaces are visited: the nearer the Outer ring, the better."""
TOWARDS_HUB: Final = {HUB: 0.6, INNER: 0.4, MIDDLE: 0.2, OUTER: 0.0}
"""After: the nearer the hub, the better."""


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return ScriptoriumModel(reconstruct("scriptorium", options, public_view), seat)


class ScriptoriumModel(Model):
    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, ScriptoriumState):
            return super().evaluate(state)
        position = state.position
        points = []
        for p, loc in enumerate(position.pawns):
            visited = position.visited(p)
            ring = HUB if loc == HUB else loc // N
            points.append(visited + (TOWARDS_HUB if visited == 2 else TOWARDS_OUTER)[ring])
        return contest(points, 1.0)
