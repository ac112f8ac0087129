"""Jeocinco's computer player: an open game, so the public view's position is the state searched.

A Jeocinco game is hundreds of actions long and its steps are dear, so a leaf is scored by the
evaluation after a very short rollout: towers built, how far each pentagon of the player's colour
is towards its five sides (none held by another, or a dispute away), and how many of his towers
one network of pieces and bridges already joins (the win is five joined towers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from controller.games.base import Action, Options, State
from controller.games.jeocinco import board as B
from controller.games.jeocinco.rules import bridge_owner
from controller.games.jeocinco.state import JeocincoState
from controller.players.search import Budget, Model, contest
from controller.players.seen import model_of

BUDGETS: Final = {
    "easy": Budget(iterations=8, rollout=2),
    "medium": Budget(iterations=25, rollout=2),
    "hard": Budget(iterations=90, rollout=2),
}


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return model_of(JeocincoModel, "jeocinco", options, public_view, private_view, seat)


class JeocincoModel(Model):
    def decisions(self, state: State) -> list[Action]:
        # own_actions asks player_of of every action; only a bridge can be another's
        if not isinstance(state, JeocincoState):
            return super().decisions(state)
        me = state.current_player
        own: list[Action] = [a for a in state.facts.legal_actions()
                             if a[0] != "bridge" or bridge_owner(state.position, a) == me]
        return own or state.legal_actions()

    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, JeocincoState):
            return super().evaluate(state)
        return contest([strength(state, p) for p in range(state.num_players)], 1.5)


def strength(state: JeocincoState, p: int) -> float:
    """Towers, plus the best pentagons' progress towards one, plus the towers already joined."""
    pos = state.position
    c = pos.colours[p]
    if c < 0:
        return 0.0
    mine = pos.pieces[p]
    others = pos.occupied() & ~mine
    towers = []
    progress = []
    for q in range(c, B.NUM_PENTS, 4):
        if pos.towers[q] >= 0:
            towers.append(q)
            continue
        sides = B.PENT_MASK[q]
        held = (sides & mine).bit_count()
        foreign = (sides & others).bit_count()
        progress.append((held / 5) ** 2 * (0.5 if foreign else 1.0))
    progress.sort(reverse=True)
    joined = 0
    if len(towers) > 1:
        for q in towers:
            network = state.facts.network(p, B.PENT_MASK[q])
            joined = max(joined, sum(1 for r in towers if B.PENT_MASK[r] & network))
    return len(towers) + 0.8 * sum(progress[:3]) + 0.3 * joined
