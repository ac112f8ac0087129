"""Contigo's computer player: an open game, so the public view's position is the state searched.

The evaluation counts lines: in the alignment game, each player's longest run of pawns on a line of
six that no opposing pawn breaks (the win is four, or five, of them); in the capture game, men
captured. A rollout of a few random actions, then this count, scores a leaf.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from controller.games.base import Options, State
from controller.games.contigo.board import CAPTURE_WIN, LINES, ORTHO_LINES, owner
from controller.games.contigo.state import ContigoState
from controller.players.open_game import reconstruct
from controller.players.search import Budget, Model, contest

BUDGETS: Final = {
    "easy": Budget(iterations=40, rollout=4),
    "medium": Budget(iterations=150, rollout=4),
    "hard": Budget(iterations=400, rollout=4),
}


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return ContigoModel(reconstruct("contigo", options, public_view), seat)


class ContigoModel(Model):
    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, ContigoState):
            return super().evaluate(state)
        position = state.position
        n = position.variant.n
        if position.variant.capture:
            return contest([float(c) for c in position.captured], CAPTURE_WIN / 3)
        lines = ORTHO_LINES if position.variant.need == 5 else LINES
        return contest([line_strength(position.board, p, lines) for p in range(n)], 1.0)


def line_strength(board: Sequence[int], p: int, lines: Sequence[tuple[int, ...]]) -> float:
    """p's best run of pawns on a line no opposing pawn breaks, plus a little for the next best."""
    runs = []
    for line in lines:
        best = count = 0
        for s in line:
            code = board[s]
            if not code:
                continue
            if owner(code) == p:
                count += 1
                best = max(best, count)
            else:
                count = 0
        runs.append(best)
    runs.sort(reverse=True)
    return runs[0] + 0.25 * runs[1]
