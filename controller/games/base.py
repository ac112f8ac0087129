"""The game API every rules engine implements.

A game is a factory of immutable states (OpenSpiel's shape, python-chess's manners):

* ``Game.new_state(options, num_players)`` gives the initial state of a variant.
* ``State.current_player`` is a player index ``0..n-1``, or :data:`CHANCE` when the next action is
  a die, a shuffle, a draw or who-starts, or :data:`TERMINAL` when the game is over.
* ``State.legal_actions()`` lists what the current player may do; at a chance node it lists the
  outcomes, and ``State.chance_outcomes()`` gives them with their probabilities.
* ``State.apply(action)`` returns a **new** state and leaves ``self`` untouched (so the referee can
  try every legal action against the sensed board). An illegal action raises
  :class:`IllegalAction`, which names the action and the rule it breaks.
* ``State.to_text()`` is a one-line position format (like FEN) that round-trips exactly through
  ``Game.state_from_text``; it holds the variant and the number of players, so a text alone
  rebuilds the state. Actions round-trip through ``State.action_to_text`` and
  ``State.action_from_text``; action texts are readable enough for a person to type.
* ``State.physical_view()`` says what the physical board should look like: a value per logical
  sensor channel (``Game.channels``). The referee matches the sensed board against the views of the
  states that legal actions lead to.

Engines are pure: no I/O, no clock, no global random. All randomness is a chance node, resolved by
whoever drives the game (a seeded ``random.Random`` in :mod:`controller.games.record`, or the value
a player enters for a physical die), so every game replays exactly from its seed and actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

CHANCE = -1
"""``current_player`` at a chance node (dice, shuffles, draws, who starts)."""

TERMINAL = -2
"""``current_player`` once the game is over."""

Action = Hashable
"""An engine's action: any hashable, immutable value (usually a small frozen dataclass or tuple)."""

Options = Mapping[str, Any]

ANNOUNCEMENTS = ("capture", "tower", "dispute", "bridge_lost", "crash", "ate", "sync", "aligned", "pin")
"""The kinds of things ``State.announcements`` may report (each becomes an MQTT event type)."""


class IllegalAction(ValueError):
    """An action the rules do not allow in this state.

    ``action`` is the action's text (or repr when it has none), ``reason`` says in a player's words
    which rule it breaks.
    """

    def __init__(self, action: object, reason: str) -> None:
        self.action = action if isinstance(action, str) else repr(action)
        self.reason = reason
        super().__init__(f"illegal action {self.action}: {reason}")


class BadPosition(ValueError):
    """A position text that does not describe a state of this game."""


class ChannelKind:
    """What a sensor channel reports."""

    PRESENCE = "presence"
    """0 or 1: a piece, stick, pawn or pin is there."""
    COUNT = "count"
    """A small non-negative integer: beads in a pit."""
    PIECE = "piece"
    """0 for empty, else a code naming whose piece it is (and, where it matters, single or double)."""
    OFFSET = "offset"
    """A rotation offset read from an encoder (0..n-1)."""


@dataclass(frozen=True)
class Channel:
    """One logical sensor channel: a slot, square, pit, ring position, grid edge or encoder."""

    name: str
    kind: str
    maximum: int = 1
    """Largest value the channel can report (1 for presence)."""


class State(ABC):
    """A position of a game. Immutable: ``apply`` returns a new state."""

    __slots__ = ()

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The variant options this game is played with (every key, defaults filled in)."""

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action for the current player, in a stable order (chance: the outcomes)."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, each outcome with its probability (they sum to 1)."""
        return []

    @abstractmethod
    def apply(self, action: Action) -> State:
        """The state after ``action``; raises :class:`IllegalAction` if it is not legal."""

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Per player: 1 for a win, 0 for a draw or a game not over, -1 for a loss (shared wins
        split as the game documents)."""

    def scores(self) -> list[float]:
        """Per player score as the rules count it (defaults to ``returns``)."""
        return self.returns()

    def winners(self) -> list[int]:
        """The players who won (empty while playing or on a draw)."""
        if not self.is_terminal():
            return []
        best = max(self.returns())
        return [p for p, r in enumerate(self.returns()) if r == best and best > 0]

    @property
    def phase(self) -> str:
        """A short name of the decision at hand, for displays (``"move"``, ``"roll"``, ...)."""
        return "over" if self.is_terminal() else "play"

    @abstractmethod
    def to_text(self) -> str:
        """The position as one line of text; ``game.state_from_text`` reverses it exactly."""

    @abstractmethod
    def action_to_text(self, action: Action) -> str:
        """A readable, typeable text for an action legal in this state."""

    def public_action_text(self, action: Action) -> str:
        """The action's text as everyone may see it (a drawn or programmed card hidden); events and
        displays use this, records keep ``action_to_text``."""
        return self.action_to_text(action)

    @abstractmethod
    def action_from_text(self, text: str) -> Action:
        """The action a text names; raises :class:`IllegalAction` when it names none."""

    @abstractmethod
    def physical_view(self) -> dict[str, int]:
        """The value every channel of ``game.channels(...)`` should read in this state."""

    def physical_changes(self, action: Action) -> dict[str, int]:
        """The channels the legal ``action`` changes on the board, with their values after it (what
        the referee matches against the sensed board; it only asks about ``legal_actions()``).
        Engines may override this with a cheaper computation; the conformance suite checks that it
        equals the difference of the two views."""
        before, after = self.physical_view(), self.apply(action).physical_view()
        return {c: v for c, v in after.items() if before[c] != v}

    def announcements(self, action: Action, after: State) -> list[dict[str, Any]]:
        """What the legal ``action`` made happen, beyond itself, that players and displays want
        announced, each as ``{"type": one of ANNOUNCEMENTS, "player": index or None, "text": words}``:
        a capture, a tower, a crash, the rings aligning. ``after`` is ``self.apply(action)``.
        Public information only; none by default."""
        return []

    def public_view(self) -> dict[str, Any]:
        """A JSON-able picture of what every player may see (for MQTT and displays)."""
        return {"position": self.to_text()}

    def private_view(self, player: int) -> dict[str, Any]:
        """What only ``player`` may see (hands, programmed sequences). Empty for open games."""
        return {}

    def render_text(self) -> str:
        """A multi-line picture of the board for a terminal (the demo draws it as play goes on)."""
        return self.to_text()

    def __str__(self) -> str:
        return self.to_text()


class Game(ABC):
    """A game's rules: makes states, parses positions, names channels and configurations."""

    name: ClassVar[str]
    """Registry name: ``"contigo"``, ``"jeocinco"``, ``"scriptorium"``, ``"serpientes"``."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 0
    """Players in a game when none are given (0: ``min_players``)."""

    def players(self, num_players: int | None = None) -> int:
        """``num_players``, or the game's default when it is None or 0."""
        return num_players or self.default_players or self.min_players

    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """Every variant option with its default value."""

    def options(self, given: Options | None = None) -> dict[str, Any]:
        """``given`` merged over the defaults; unknown keys are a :class:`ValueError`."""
        merged = self.default_options()
        for key, value in (given or {}).items():
            if key not in merged:
                raise ValueError(f"{self.name}: unknown option {key!r} (known: {sorted(merged)})")
            merged[key] = value
        return merged

    @abstractmethod
    def new_state(self, options: Options | None = None, num_players: int | None = None) -> State:
        """The initial state (before any chance node is resolved)."""

    @abstractmethod
    def state_from_text(self, text: str) -> State:
        """The state ``text`` describes; raises :class:`BadPosition` for anything else."""

    @abstractmethod
    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        """The logical sensor channels of the board for this variant."""

    def channel_positions(self, options: Options | None = None,
                          num_players: int | None = None) -> dict[str, tuple[float, float]]:
        """Where each channel sits on the board (x to the right, y up, any unit), for drawing the
        LEDs as a picture of the board. Empty when the game gives none."""
        return {}

    @abstractmethod
    def configurations(self) -> Sequence[tuple[dict[str, Any], int]]:
        """(options, number of players) pairs that cover every variant: the conformance suite
        plays each."""

    @abstractmethod
    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        """An upper bound on the number of actions (chance included) of any game; where the rules
        allow endless play, the engine ends the game by a documented rule within it."""

