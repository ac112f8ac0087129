"""Contigo's states: a position (:mod:`.position`) behind the game API, its rules and views
delegated to :mod:`.rules` and :mod:`.views`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.base import (
    CHANCE,
    Action,
    Announcement,
    BadPosition,
    ColourName,
    Game,
    Message,
    Say,
    State,
    canonical,
    in_english,
)
from controller.games.contigo import rules, views
from controller.games.contigo.actions import action_text, parse_action
from controller.games.contigo.board import BEADS_PER_PIT, COLORS, NPITS, initial_board
from controller.games.contigo.position import Hand, Position, get_variant, position_text, read_position


class ContigoState(State):
    __slots__ = ("_legal", "position")

    def __init__(self, position: Position) -> None:
        self.position = position
        self._legal: list[Action] | None = None
        """The legal actions, listed once (``apply`` looks its action up in them)."""

    # ----------------------------------------------------------------- the position, as callers read it
    @property
    def board(self) -> tuple[int, ...]:
        return self.position.board

    @property
    def pits(self) -> tuple[int, ...]:
        return self.position.pits

    @property
    def phase_(self) -> str:
        return self.position.phase

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def captured(self) -> tuple[int, ...]:
        return self.position.captured

    @property
    def hand(self) -> Hand | None:
        return self.position.hand

    # ----------------------------------------------------------------- basic properties
    @property
    def options(self) -> dict[str, Any]:
        return dict(self.position.variant.options)

    @property
    def num_players(self) -> int:
        return self.position.variant.n

    @property
    def current_player(self) -> int:
        return self.position.player

    @property
    def phase(self) -> str:
        return self.position.phase

    def returns(self) -> list[float]:
        n, result = self.position.variant.n, self.position.result
        if result is None or result < 0:
            return [0.0] * n
        return [1.0 if p == result else -1.0 for p in range(n)]

    def scores(self) -> list[float]:
        """Points: the capture game's men captured; the alignment game's point for the winner (shared
        out on a draw), nothing while it is played."""
        if self.position.variant.capture:
            return [float(c) for c in self.position.captured]
        n, result = self.position.variant.n, self.position.result
        if result is None:
            return [0.0] * n
        return [1.0 / n] * n if result < 0 else [1.0 if p == result else 0.0 for p in range(n)]

    def player_name(self, player: int) -> str:
        return COLORS[player]

    def player_colour(self, player: int) -> ColourName:
        return COLORS[player]

    # ----------------------------------------------------------------- rules
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = rules.legal_actions(self.position)
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return rules.chance_outcomes(self.position)

    def winning_actions(self) -> list[Action]:
        return rules.winning_actions(self.position)

    def apply_legal(self, action: Action) -> ContigoState:
        return ContigoState(rules.apply_legal(self.position, action))

    def why_illegal(self, action: object) -> Message:
        return rules.why_illegal(self.position, action, self.safe_action_text(action))

    # ----------------------------------------------------------------- texts
    def action_to_text(self, action: Action) -> str:
        position = self.position
        capturing = (position.variant.capture and isinstance(action, tuple) and len(action) == 3
                     and action[0] == "m" and bool(position.board[action[2]]))
        return action_text(action, capturing)

    def action_from_text(self, text: str) -> Action:
        return parse_action(text, self.position.variant.n)

    def to_text(self) -> str:
        return position_text(self.position)

    # ----------------------------------------------------------------- views
    def physical_view(self) -> dict[str, int]:
        return views.physical_view(self.position)

    def physical_changes(self, action: Action) -> dict[str, int]:
        changes = views.bead_changes(self.position, action)
        return super().physical_changes(action) if changes is None else changes

    def actions_for_changes(self, changes: Mapping[str, int]) -> list[Action] | None:
        return views.actions_for_changes(self.position, changes)

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not isinstance(after, ContigoState):
            return []
        return views.announcements(self.position, action, after.position)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self.position)

    def render_text(self, say: Say = in_english) -> str:
        return views.render_text(self.position, say)


def new_state(options: dict[str, Any], n: int) -> ContigoState:
    variant = get_variant(options, n)
    return ContigoState(Position(variant, initial_board(variant.game, n), (BEADS_PER_PIT,) * NPITS, CHANCE, "start",
                                 0, (0,) * n, None))


def state_from_text(game: Game, text: str) -> ContigoState:
    position = read_position(text, lambda options, n: get_variant(game.options(options), n))
    if position.phase == "move" and not rules.has_pawn_move(position, position.player):
        raise BadPosition(f"{COLORS[position.player]} has no pawn move: the position is in phase=beads")
    return canonical(ContigoState(position), text)
