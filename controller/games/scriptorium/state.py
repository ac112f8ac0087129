"""``ScriptoriumState``: the game API over a :class:`Position`, delegating to the rules and views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.base import Action, Announcement, ColourName, Message, Say, State, in_english, is_colour
from controller.games.scriptorium import rules, views
from controller.games.scriptorium.actions import ScriptoriumAction, action_text
from controller.games.scriptorium.board import COLOURS, player_name
from controller.games.scriptorium.position import CHANCE_PHASES, Position, position_to_text


class ScriptoriumState(State):
    __slots__ = ("_legal", "position")

    def __init__(self, position: Position) -> None:
        self.position = position
        self._legal: Sequence[ScriptoriumAction] | None = None

    # --- players ----------------------------------------------------------------------------
    def player_name(self, player: int) -> str:
        return player_name(player)

    def player_colour(self, player: int) -> ColourName | None:
        colour = COLOURS[player]
        return colour if is_colour(colour) else None  # a layout may name a colour displays lack

    # --- what the position says ---------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        return dict(self.position.options)

    @property
    def num_players(self) -> int:
        return self.position.players

    @property
    def current_player(self) -> int:
        return rules.current_player(self.position)

    @property
    def phase(self) -> str:
        return views.SHORT_PHASE[self.position.phase]

    @property
    def aligned(self) -> bool:
        return self.position.aligned

    def status_light(self) -> bool:
        return self.position.aligned  # the rings aligned: the board is frozen

    @property
    def rounds_played(self) -> int:
        return self.position.rounds_played

    def colour_of(self, loc: int) -> int | None:
        """The colour of the space at a location (None for the hub)."""
        return self.position.colour_of(loc)

    def visited(self, player: int) -> int:
        """How many of the player's two Outer spaces the pawn has visited."""
        return self.position.visited(player)

    # --- the rules ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = rules.legal_actions(self.position)
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.position.phase not in CHANCE_PHASES:
            return []
        outcomes = self.legal_actions()
        p = 1.0 / len(outcomes)
        return [(a, p) for a in outcomes]

    def apply_legal(self, action: Action) -> ScriptoriumState:
        return ScriptoriumState(rules.apply_legal(self.position, action))  # type: ignore[arg-type]

    def why_illegal(self, action: object) -> Message:
        return rules.why_illegal(self.position, action)

    def returns(self) -> list[float]:
        return rules.returns(self.position)

    def scores(self) -> list[float]:
        return rules.scores(self.position)

    # --- texts --------------------------------------------------------------------------------
    def to_text(self) -> str:
        return position_to_text(self.position)

    def action_to_text(self, action: Action) -> str:
        return action_text(action)

    def action_from_text(self, text: str) -> Action:
        return rules.action_from_text(self.position, text)

    # --- views --------------------------------------------------------------------------------
    def physical_view(self) -> dict[str, int]:
        return views.physical_view(self.position)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self.position)

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not isinstance(after, ScriptoriumState):
            return []
        return views.announcements(self.position, after.position)

    def render_text(self, say: Say = in_english) -> str:
        return views.render_text(self.position, say)
