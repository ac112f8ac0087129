"""Jeocinco's state: the game API over a position (see ``rules``, ``views``, ``position``)."""

from __future__ import annotations

from typing import Any, cast

from controller.games.base import Action, Announcement, ColourName, Message, Say, State, in_english
from controller.games.jeocinco import board as B
from controller.games.jeocinco import rules, views
from controller.games.jeocinco.actions import (
    DICE_OUTCOMES,
    DIE_OUTCOMES,
    JeocincoAction,
    action_from_text,
    action_text,
    is_action,
)
from controller.games.jeocinco.position import JeocincoPosition, Networks, networks, to_text
from controller.games.jeocinco.position import _joined as joined_by
from controller.games.jeocinco.rules import Facts

_DICE_P: list[tuple[Action, float]] = [(a, 1 / 36) for a in DICE_OUTCOMES]
_DIE_P: list[tuple[Action, float]] = [(a, 1 / 6) for a in DIE_OUTCOMES]


class JeocincoState(State):
    __slots__ = ("_sensed", "current_player", "facts", "position")
    position: JeocincoPosition
    facts: Facts
    """The position's board facts and legal actions, each worked out once."""
    current_player: int  # a plain slot here, computed once per state

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.position = facts.position
        self.current_player = rules.current_player(facts.position)
        self._sensed: tuple[int, int, int] | None = None  # views.sensed_bits, once asked

    @property
    def options(self) -> dict[str, Any]:
        return self.position.options

    @property
    def num_players(self) -> int:
        return self.position.players

    @property
    def phase(self) -> str:
        return self.position.phase

    def winning_actions(self) -> list[Action]:
        pos = self.position
        # five joined towers need four before the action; the round limit ends only the last turn
        last_turn = pos.round + 1 >= pos.max_rounds and pos.turn + 1 >= pos.players
        if not last_turn and all(pos.tower_count(p) < 4 for p in range(pos.players)):
            return []
        if last_turn or self.current_player < 0:
            return super().winning_actions()
        # a piece placed wins only if it joins five of its player's towers (networks() extends the
        # last networks by the one piece: cheap); the rest (towers, bridges) are few and tried whole
        out: list[Action] = []
        base: dict[int, Networks] = {}
        for a in self.legal_actions():
            if a[0] in ("done", "dispute"):  # type: ignore[index]
                continue  # the turn goes on, or a die decides: not a win at once
            if a[0] == "place" and not self._joins_five(self.player_of(a), a[1], base):  # type: ignore[index]
                continue
            after = self.apply_legal(a)
            if after.is_terminal() and self.player_of(a) in after.winners():
                out.append(a)
        return out

    def _joins_five(self, p: int, slot: int, base: dict[int, Networks]) -> bool:
        """Whether a piece of p's in ``slot`` joins five of his towers (``base``: p's networks now,
        worked out once per call of winning_actions)."""
        pos = self.position
        c = pos.colours[p]
        towers = [B.PENT_MASK[q] for q in range(c, B.NUM_PENTS, 4) if pos.towers[q] >= 0]
        if len(towers) < 5:
            return False
        if p not in base:
            base[p] = networks(pos.pieces[p], pos.bridges)
        return rules.five_joined(towers, joined_by(base[p], 1 << slot, pos.pieces[p] | 1 << slot, pos.bridges))

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.position.phase
        if phase == "roll":
            return list(_DICE_P)
        if phase in ("opening", "challenge", "defence"):
            return list(_DIE_P)
        return []

    def player_colour(self, player: int) -> ColourName | None:
        c = self.position.colours[player]
        return B.COLOUR_NAMES[c] if c >= 0 else None

    def player_name(self, player: int) -> str:
        """His colour once he has chosen his pentagons (people are named by colour, issue 36)."""
        return self.player_colour(player) or super().player_name(player)

    def returns(self) -> list[float]:
        return rules.returns(self.position)

    def scores(self) -> list[float]:
        return [float(self.position.tower_count(p)) for p in range(self.position.players)]

    def tower_count(self, player: int) -> int:
        return self.position.tower_count(player)

    def holder(self, slot: int) -> int:
        return self.position.holder(slot)

    # ---- actions --------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self.facts.legal_actions())

    def player_of(self, action: Action) -> int:
        """A bridge is its supports' owner's (laid in anyone's turn); anything else the actor's."""
        owner = rules.bridge_owner(self.position, action)
        return owner if owner >= 0 else self.current_player

    def apply_legal(self, action: Action) -> JeocincoState:
        return JeocincoState(rules.apply_legal(self.facts, cast(JeocincoAction, action)))

    def why_illegal(self, action: object) -> Message:
        return rules.why_illegal(self.facts, action)

    def action_to_text(self, action: Action) -> str:
        if not is_action(action):
            raise ValueError(f"not a Jeocinco action: {action!r}")
        return action_text(action)

    def action_from_text(self, text: str) -> Action:
        return action_from_text(text)

    def to_text(self) -> str:
        return to_text(self.position)

    # ---- views ----------------------------------------------------------------------------------
    def physical_view(self) -> dict[str, int]:
        return views.physical_view(self.position)

    def physical_changes(self, action: Action) -> dict[str, int]:
        # The referee asks this for every legal action: compare bit masks, not 645-channel views.
        quick = views.put_down(action) if is_action(action) else None
        if quick is not None:
            return quick
        after = self.apply(action)
        assert isinstance(after, JeocincoState)
        if self._sensed is None:  # the same for every action asked of this state (a move table's hundreds)
            self._sensed = views.sensed_bits(self.position)
        return views.changed_channels(self._sensed, after.position)

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not is_action(action) or not isinstance(after, JeocincoState):
            return []
        return views.announcements(self.position, action, after.position)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self.position, self.scores(), self.winners())

    def render_text(self, say: Say = in_english) -> str:
        return views.render_text(self.position, say)
