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
from controller.games.jeocinco.actions import Dispute, Place, Tower
from controller.games.jeocinco.rules import bridge_owner
from controller.games.jeocinco.state import JeocincoState
from controller.players.search import Budget, Model, contest
from controller.players.seen import model_of

BUDGETS: Final = {
    "easy": Budget(iterations=8, rollout=2, prior=False),
    "medium": Budget(iterations=25, rollout=2, prior=False),
    "hard": Budget(iterations=90, rollout=2),
}
"""Only ``hard`` tries children in the prior's order: with it every level played alike (hard beat
medium 47 of 100 games, medium beat easy 51 of 100; docs/players.md)."""


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

    def prior(self, state: State, actions: Sequence[Action]) -> Sequence[float] | None:
        """A tower first, then a piece (or a dispute, at half) by how far it takes the pentagons of
        the player's colour on that side that he can still complete (:func:`slot_prior`)."""
        if not isinstance(state, JeocincoState):
            return None
        p = state.current_player
        out = []
        for a in actions:
            if isinstance(a, Tower):
                out.append(TOWER_PRIOR)
            elif isinstance(a, (Place, Dispute)):
                out.append(slot_prior(state, p, a.slot) * (1.0 if isinstance(a, Place) else 0.5))
            else:
                out.append(0.0)
        return out

    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, JeocincoState):
            return super().evaluate(state)
        return contest([strength(state, p) for p in range(state.num_players)], 1.5)


TOWER_PRIOR: Final = 10.0
"""A tower's prior: above any piece's (a completed pentagon's tower is the game's point)."""


def slot_prior(state: JeocincoState, p: int, slot: int) -> float:
    """What a piece of p's in ``slot`` adds to the pentagons of his colour on that side that he can
    still complete: each one's progress after it, as :func:`strength` counts progress."""
    pos = state.position
    c = pos.colours[p]
    if c < 0:
        return 0.0
    mine = pos.pieces[p] | 1 << slot
    others = pos.occupied() & ~pos.pieces[p] & ~(1 << slot)
    locked = others & state.facts.completed()
    return sum(_progress(B.PENT_MASK[q], mine, others, locked) for q in B.SLOT_PENTS[slot]
               if B.PENT_COLOUR[q] == c and pos.towers[q] < 0)


def _progress(sides: int, mine: int, others: int, locked: int) -> float:
    """A pentagon's progress towards a tower: the square of the share of its sides held, halved when
    another's piece holds a side (a dispute away), none when another's piece holds a side of a
    completed pentagon (it can never be disputed, so the pentagon can never be completed)."""
    if sides & locked:
        return 0.0
    held = (sides & mine).bit_count()
    return (held / 5) ** 2 * (0.5 if sides & others else 1.0)


def strength(state: JeocincoState, p: int) -> float:
    """Towers, plus the best pentagons' progress towards one, plus the towers already joined."""
    pos = state.position
    c = pos.colours[p]
    if c < 0:
        return 0.0
    mine = pos.pieces[p]
    others = pos.occupied() & ~mine
    locked = others & state.facts.completed()
    towers = []
    progress = []
    for q in range(c, B.NUM_PENTS, 4):
        if pos.towers[q] >= 0:
            towers.append(q)
            continue
        progress.append(_progress(B.PENT_MASK[q], mine, others, locked))
    progress.sort(reverse=True)
    joined = 0
    if len(towers) > 1:
        for q in towers:
            network = state.facts.network(p, B.PENT_MASK[q])
            joined = max(joined, sum(1 for r in towers if B.PENT_MASK[r] & network))
    return len(towers) + 0.8 * sum(progress[:3]) + 0.3 * joined
