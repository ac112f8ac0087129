"""``SerpientesState``: the game API over a :class:`Position` (the rules and views do the work)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from controller.games.base import Action, Announcement, ColourName, Message, Say, Seats, State, in_english, seat_set
from controller.games.serpientes import actions, rules, views
from controller.games.serpientes import board as B
from controller.games.serpientes.actions import SerpientesAction
from controller.games.serpientes.position import Position, position_to_text

if TYPE_CHECKING:
    import random  # the type of the generator a caller passes in: an engine draws nothing itself


class SerpientesState(State):
    """A Serpientes position, with its legal actions worked out once."""

    __slots__ = ("_legal", "position")

    def __init__(self, position: Position) -> None:
        self.position = position
        self._legal: Sequence[SerpientesAction] | None = None

    # ------------------------------------------------------------------ who, what
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
        return self.position.phase

    @property
    def turn_player(self) -> int:
        """The player on turn, also while chance draws his card (-1 before the first turn)."""
        return self.position.player

    @property
    def kinds(self) -> tuple[str, ...]:
        """The card kinds of this variant, in their fixed order."""
        return rules.kinds(self.position)

    @property
    def round(self) -> int:
        """The round being played (1-based; 0 before the first turn)."""
        return rules.game_round(self.position)

    @property
    def tokens(self) -> frozenset[int]:
        return self.position.tokens

    def snake(self, p: int) -> tuple[int, ...]:
        """The intersections of ``p``'s snake from tail to head (empty once it has no sticks)."""
        return self.position.snakes[p]

    def sticks(self, p: int) -> int:
        """Sticks of ``p`` on the board."""
        return rules.sticks(self.position, p)

    def hand_size(self, p: int) -> int:
        return rules.hand_size(self.position, p)

    def sequence_length(self, p: int) -> int:
        return rules.sequence_length(self.position, p)

    def player_colour(self, player: int) -> ColourName:
        return B.SNAKE_COLOURS[player]

    def player_name(self, player: int) -> str:
        """His snake's colour (people are named by colour, issue 36)."""
        return B.SNAKE_COLOURS[player]

    def scores(self) -> list[float]:
        return rules.scores(self.position)

    def returns(self) -> list[float]:
        return rules.returns(self.position)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_actions(self.position)
        return list(legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return list(rules.chance_outcomes(self.position))

    def apply_legal(self, action: Action) -> SerpientesState:
        return SerpientesState(rules.apply_legal(self.position, cast("SerpientesAction", action)))

    def why_illegal(self, action: object) -> Message:
        return rules.why_illegal(self.position, action)

    def step_preview(self) -> list[dict[str, Any]]:
        """While a sequence runs, where each legal step would put the stick and what would happen."""
        return rules.step_preview(self.position)

    def action_to_text(self, action: Action) -> str:
        return actions.action_to_text(action, self.kinds)

    def public_action_text(self, action: Action) -> str:
        return actions.public_action_text(action, self.kinds)

    def action_from_text(self, text: str) -> Action:
        return actions.action_from_text(text, self.kinds, self.position.physical, self.position.players)

    # ------------------------------------------------------------------ texts and views
    def to_text(self) -> str:
        return position_to_text(self.position)

    def public_text(self) -> str:
        """The position as every player sees it: hands, sequences and the deck as counts only."""
        return views.public_text(self.position)

    def private_text(self, player: int) -> str:
        """The position as ``player`` sees it: the public text with his own hand and sequence."""
        return views.private_text(self.position, player)

    def physical_view(self) -> dict[str, int]:
        return views.physical_view(self.position)

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not actions.is_action(action) or not isinstance(after, SerpientesState):
            return []
        return views.announcements(self.position, action, after.position)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self.position)

    def private_view(self, player: int) -> dict[str, Any]:
        return views.private_view(self.position, player)

    def render_text(self, say: Say = in_english) -> str:
        return views.render_text(self.position, say)

    # ------------------------------------------------------------------ what some seats cannot see
    def information_state(self, seats: Seats) -> str:
        """What ``seats`` may see: the public text, then each one's private text (``views.view_text``)."""
        return views.view_text(self.position, seat_set(seats))

    def resample(self, seats: Seats, rng: random.Random) -> SerpientesState:
        """Every card ``seats`` cannot see dealt anew (``views.resampled``); physical cards: itself."""
        if self.position.physical:
            return self
        return SerpientesState(views.resampled(self.position, seat_set(seats), rng))

    def seen_by(self, seats: Seats, action: Action) -> bool:
        """Whether one of ``seats`` may see the card of ``action`` (its own add, a draw into its hand)."""
        return views.seen_by(self.position, (seats,) if isinstance(seats, int) else seats, action)

    def rearranged(self, seats: Seats, action: Action) -> SerpientesState | None:
        """This position with the cards ``seats`` cannot see arranged anew so that ``action`` finds
        its card (``views.rearranged``); None when no such card is unseen."""
        moved = views.rearranged(self.position, seat_set(seats), action)
        return None if moved is None else SerpientesState(moved)
