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
* Hidden information is hooks with an open game's defaults (OpenSpiel's ``InformationStateString``
  and ``ResampleFromInfostate``): ``Game.hides_information``, ``State.information_state`` (what a
  seat sees), ``State.resample`` (a state agreeing with it, the rest dealt anew), ``State.seen_by``,
  ``State.rearranged`` and ``Game.state_seen_by`` (a state from a seat's own views).

Engines are pure: no I/O, no clock, no global random. All randomness is a chance node, resolved by
whoever drives the game (the game's secret through :mod:`controller.games.chance`, or the value a
player enters for a physical die), so every game replays exactly from its secret and actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, TypeAlias, TypedDict, TypeVar

if TYPE_CHECKING:
    import random  # a caller's seeded generator (State.resample): engines never use the global one

# What games say and how pictures mark channels live in their own modules; the game API names them
# here too (``from controller.games.base import Phrase``), re-exported explicitly.
from controller.games.marks import MARK_RADIUS as MARK_RADIUS
from controller.games.marks import MARK_STROKES as MARK_STROKES
from controller.games.marks import MARK_TITLES as MARK_TITLES
from controller.games.marks import MarkKind as MarkKind
from controller.games.marks import Point as Point
from controller.games.marks import halo as halo
from controller.games.marks import highlight_ring as highlight_ring
from controller.games.marks import ring_marks as ring_marks
from controller.games.messages import ANNOUNCEMENTS as ANNOUNCEMENTS
from controller.games.messages import VOCABULARY as VOCABULARY
from controller.games.messages import Announcement as Announcement
from controller.games.messages import AnnouncementType as AnnouncementType
from controller.games.messages import Message as Message
from controller.games.messages import Param as Param
from controller.games.messages import Phrase as Phrase
from controller.games.messages import Plural as Plural
from controller.games.messages import Say as Say
from controller.games.messages import announcement as announcement
from controller.games.messages import in_english as in_english
from controller.games.messages import said as said
from controller.games.messages import svg_said as svg_said
from controller.games.palette import COLOUR_HEX as COLOUR_HEX
from controller.games.palette import COLOUR_LETTERS as COLOUR_LETTERS
from controller.games.palette import HIGHLIGHT_HEX as HIGHLIGHT_HEX
from controller.games.palette import NO_COLOUR_HEX as NO_COLOUR_HEX
from controller.games.palette import PALETTE as PALETTE
from controller.games.palette import ColourName as ColourName
from controller.games.palette import ink as ink
from controller.games.palette import is_colour as is_colour
from controller.games.palette import letters as letters
from controller.games.palette import tint as tint
from controller.games.words import notation

CHANCE: Final = -1
"""``current_player`` at a chance node (dice, shuffles, draws, who starts)."""

TERMINAL: Final = -2
"""``current_player`` once the game is over."""

Action = Hashable
"""An engine's action: any hashable, immutable value. Every engine uses tagged tuples
(``("place", 12)``) and names their exact shapes in a type alias of its own."""

OptionValue = bool | int | str
Options = Mapping[str, Any]
"""Variant options as given (a caller's mapping). Resolved options (:meth:`Game.options`) hold only
values their :class:`Option` accepts."""


GAME_OVER: Final = Phrase("game.over", "the game is over")
NOT_AN_ACTION: Final = Phrase("game.not_an_action", "{action} is not an action of {game}")
NOT_LEGAL_NOW: Final = Phrase("game.not_legal_now", "{action} is not a legal move now")
REFUSED: Final = Phrase("game.refused", "{reason}")
"""A refusal given as a plain text (an engine's own words, untranslated)."""
NO_LEGAL_TEXT: Final = Phrase("game.no_legal_text", "no legal move now reads {text}")


class IllegalAction(ValueError):
    """An action the rules do not allow in this state.

    ``action`` is the action's text (or repr when it has none); ``refusal`` says which rule it
    breaks, as a :class:`Message` (a plain ``reason`` text is taken as a message without a code of
    its own); ``reason`` is its English text.
    """

    def __init__(self, action: object, reason: str | Message) -> None:
        self.action = action if isinstance(action, str) else repr(action)
        self.refusal = reason if isinstance(reason, Message) else REFUSED(reason=reason)
        self.reason = self.refusal.text
        super().__init__(f"illegal action {self.action}: {self.reason}")


class BadPosition(ValueError):
    """A position text that does not describe a state of this game."""


class ChannelKind(StrEnum):
    """What a sensor channel reports. A ``StrEnum``: each kind equals its name as text, the word
    layout files and the MCU protocol use."""

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
    kind: ChannelKind
    maximum: int = 1
    """Largest value the channel can report (1 for presence)."""


# --------------------------------------------------------------------------- players and colours

class PlayerInfo(TypedDict):
    """A player as displays and MQTT show him: ``colour`` is ``#rrggbb``."""

    index: int
    name: str
    colour: str


# --------------------------------------------------------------------------- position texts

def parse_int(text: str, lo: int = 0, hi: int = 10**6) -> int:
    """A whole number written plainly (ASCII digits, no sign, no leading zero) from ``lo`` to ``hi``;
    ``ValueError`` otherwise."""
    if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0") or len(text) > 7:
        raise ValueError(f"{text[:20]!r} is not a whole number")
    value = int(text)
    if not lo <= value <= hi:
        raise ValueError(f"{value} is not from {lo} to {hi}")
    return value


def read_fields(text: object, game: str, keys: Sequence[str]) -> dict[str, str]:
    """The fields of a one-line position text ``<game> key=value key=value ...`` holding exactly
    ``keys``, in that order; :class:`BadPosition` for anything else."""
    if not isinstance(text, str) or "\n" in text:
        raise BadPosition(f"a {game} position is one line of text")
    words = text.split(" ")
    if words[0] != game:
        raise BadPosition(f"a {game} position starts with '{game}'")
    if len(words) != len(keys) + 1:
        raise BadPosition(f"a {game} position has {len(keys)} fields after '{game}' ({'=... '.join(keys)}=...),"
                          f" not {len(words) - 1}")
    fields: dict[str, str] = {}
    for key, word in zip(keys, words[1:], strict=True):
        k, sep, value = word.partition("=")
        if k != key or not sep:
            raise BadPosition(f"expected the field {key}=... but found {word[:40]!r}")
        fields[key] = value
    return fields


def write_fields(game: str, fields: Iterable[tuple[str, object]]) -> str:
    """The one-line position text ``<game> key=value ...`` that :func:`read_fields` reads back."""
    return " ".join([game, *(f"{key}={value}" for key, value in fields)])


S = TypeVar("S", bound="State")
A = TypeVar("A", bound=Hashable)
P = TypeVar("P")


T = TypeVar("T", bound=tuple[Any, ...])
_KEEP: Final = object()


def quick_replace(cls: type[T]) -> type[T]:
    """A ``NamedTuple`` position class, its ``_replace`` written out for its own fields.

    ``position._replace(field=value, ...)`` is the one way every engine copies a position (a frozen
    value). collections' generic ``_replace`` takes twice as long as the constructor given every
    field, and random games spend 8-28% of their time copying (docs/performance.md); this one takes
    what the constructor does, and means the same (an unknown field is a ``TypeError``)."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    keywords = ", ".join(f"{f}=_KEEP" for f in fields)
    values = "".join(f"self[{i}] if {f} is _KEEP else {f}, " for i, f in enumerate(fields))
    namespace: dict[str, Any] = {"_KEEP": _KEEP, "_new": tuple.__new__, "_cls": cls}
    exec(f"def _replace(self, /, *, {keywords}):\n    return _new(_cls, ({values}))", namespace)
    cls._replace = namespace["_replace"]  # type: ignore[attr-defined]
    return cls


def read_checked(text: str, title: str, parse: Callable[[str], P], problems: Callable[[P], Sequence[Message]]) -> P:
    """The position ``parse`` reads from ``text``, if the game's validity check ``problems`` finds
    nothing wrong with it; else a :class:`BadPosition` saying the first problem, or what stopped the
    parser (``not a <title> position: ...``)."""
    try:
        position = parse(text)
    except BadPosition:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise BadPosition(f"not a {title} position: {exc}") from None
    found = problems(position)
    if found:
        raise BadPosition(found[0].text)
    return position


def find_action(action: object, legal: Sequence[A]) -> A | None:
    """The action of ``legal`` equal to ``action`` (so typed as the engine's own), or None: how an
    engine that checks every action against its legal list takes a caller's value in."""
    try:
        return legal[legal.index(action)]
    except (ValueError, TypeError):
        return None


def canonical(state: S, text: str) -> S:
    """``state``, read from ``text``, if ``text`` is exactly how it is written: a position has one text."""
    written = state.to_text()
    if written != text:
        diff = next((f"{a[:40]!r} should read {b[:40]!r}" for a, b in zip(text.split(" "), written.split(" "),
                                                                           strict=False) if a != b),
                    "the text has extra or missing parts")
        raise BadPosition(f"not a position in its canonical form: {diff}")
    return state


# --------------------------------------------------------------------------- options

@dataclass(frozen=True)
class Option:
    """One variant option, declared once: the default says its type (true/false, a whole number
    from ``minimum`` to ``maximum``, or a text from ``choices``)."""

    name: str
    default: OptionValue
    choices: tuple[str, ...] = ()
    """For a text option, the values it may take (empty: the game checks the text itself)."""
    minimum: int = 0
    maximum: int = 0
    doc: str = ""

    def check(self, game: str, value: object) -> None:
        """``ValueError`` naming the option when ``value`` is not one it accepts."""
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{game}: option {self.name} must be true or false, not {value!r}")
        elif isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int) or not self.minimum <= value <= self.maximum:
                raise ValueError(f"{game}: option {self.name} must be a whole number from {self.minimum} to"
                                 f" {self.maximum}, not {value!r}")
        elif not isinstance(value, str) or (self.choices and value not in self.choices):
            allowed = " or ".join(repr(c) for c in self.choices) if self.choices else "a text"
            raise ValueError(f"{game}: option {self.name} must be {allowed}, not {value!r}")


Seats: TypeAlias = "int | Collection[int]"
"""Who sees: one player, or the players of one board (a remote game's joining board)."""


def seat_set(seats: Seats) -> frozenset[int]:
    """``seats`` as a set of players."""
    return frozenset((seats,)) if isinstance(seats, int) else frozenset(seats)


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

    def player_of(self, action: Action) -> int:
        """The player who takes the legal ``action``: ``current_player``, except where a game lets
        another player act at the same decision (a Jeocinco bridge laid in another's turn)."""
        return self.current_player

    def own_actions(self) -> list[Action]:
        """The legal actions the player to act takes himself: what a seat is offered (another
        player's action legal at the same decision, a Jeocinco bridge out of turn, is his to offer)."""
        me = self.current_player
        return [a for a in self.legal_actions() if self.player_of(a) == me]

    def apply(self, action: Action) -> Self:
        """The state after ``action``; raises :class:`IllegalAction`, saying why
        (:meth:`why_illegal`), if it is not one of :meth:`legal_actions`."""
        legal = find_action(action, self.legal_actions())
        if legal is None:
            raise IllegalAction(self.safe_action_text(action), self.why_illegal(action))
        return self.apply_legal(legal)

    @abstractmethod
    def apply_legal(self, action: Action) -> Self:
        """The state after ``action``, which must be one of :meth:`legal_actions` (unchecked: the
        fast path of a search or a referee that took it from that list). Engines write this and
        :meth:`why_illegal`; :meth:`apply` checks, then calls it."""

    def winning_actions(self) -> list[Action]:
        """The legal actions that end the game at once won by whoever takes them (a computer
        player's tactics: take one, leave an opponent none). Every action is tried; engines with a
        cheaper way (or none to try) say so."""
        if self.current_player < 0:
            return []
        return [a for a in self.legal_actions()
                if (after := self.apply_legal(a)).is_terminal() and self.player_of(a) in after.winners()]

    def why_illegal(self, action: object) -> Message:
        """Why ``action`` is not legal here, in the rules' words (called only for an action that is
        not one of :meth:`legal_actions`). Engines say more than this default."""
        if self.is_terminal():
            return GAME_OVER()
        return NOT_LEGAL_NOW(action=self.safe_action_text(action))

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

    def action_from_text(self, text: str) -> Action:
        """The action a text names; raises :class:`IllegalAction` when it names none. By default
        the legal action whose :meth:`action_to_text` is ``text``; an engine whose players may name
        an action that is not legal now (to be told why by ``apply``) reads its texts itself."""
        for action in self.legal_actions():
            if self.action_to_text(action) == text:
                return action
        raise IllegalAction(text, GAME_OVER() if self.is_terminal() else NO_LEGAL_TEXT(text=text))

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

    def actions_for_changes(self, changes: Mapping[str, int]) -> list[Action] | None:
        """Optional: the actions, in order and all by the player to act, that together change the
        board by exactly ``changes`` (channel -> value after), for a move the table makes in more
        steps than the referee looks for one by one, whose readings may arrive at once (Contigo's
        pick-up and its drops: a count per pit says the whole spread). None, the default: no such
        reading (the referee looks for one action, or two in a row). The referee takes each action
        only if it is among ``legal_actions()`` of the state it is taken in, and the sequence only if
        its view is the board's, so a wrong answer is never applied."""
        return None

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        """What the legal ``action`` made happen, beyond itself, that players and displays want
        announced, each as ``{"type": one of ANNOUNCEMENTS, "player": index or None, "text": words}``:
        a capture, a tower, a crash, the rings aligning. ``after`` is ``self.apply(action)``.
        Public information only; none by default."""
        return []

    def safe_action_text(self, action: object) -> str:
        """The action's text if it has one here, else its repr (for error messages about junk)."""
        try:
            return self.action_to_text(action)
        except Exception:
            return repr(action)

    def illegal(self, action: object, reason: str) -> IllegalAction:
        """The :class:`IllegalAction` to raise for ``action``, named by its text when it has one."""
        return IllegalAction(self.safe_action_text(action), reason)

    # ------------------------------------------------------------------ players
    def player_name(self, player: int) -> str:
        """How texts and displays name ``player`` (``"player 0"`` unless the game names its seats)."""
        return f"player {player}"

    def player_colour(self, player: int) -> ColourName | None:
        """The colour of ``player``'s pieces on the board (None while the game has given none); the
        LEDs and displays show him in it."""
        return PALETTE[player % len(PALETTE)]

    def player_info(self) -> list[PlayerInfo]:
        """Every player's index, name and colour (``#rrggbb``) for MQTT's state and displays."""
        out: list[PlayerInfo] = []
        for p in range(self.num_players):
            colour = self.player_colour(p)
            out.append({"index": p, "name": self.player_name(p),
                        "colour": NO_COLOUR_HEX if colour is None else COLOUR_HEX[colour]})
        return out

    def public_view(self) -> dict[str, Any]:
        """A JSON-able picture of what every player may see (for MQTT and displays)."""
        return {"position": self.to_text()}

    def private_view(self, player: int) -> dict[str, Any]:
        """What only ``player`` may see (hands, programmed sequences). Empty for open games."""
        return {}

    # ------------------------------------------------------------------ what a seat may see
    def information_state(self, seats: Seats) -> str:
        """What ``seats`` (a player, or the players of one board) may see of this position, as a
        text: two states that read the same here are alike to those seats (OpenSpiel's
        ``InformationStateString``, of the position: the history is in the record). Its public part
        is :meth:`public_view`. An open game: the position itself."""
        return self.to_text()

    def resample(self, seats: Seats, rng: random.Random) -> Self:
        """A state that agrees with everything ``seats`` may see (:meth:`information_state` and
        :meth:`public_view` read the same), what they cannot see dealt anew with ``rng`` (OpenSpiel's
        ``ResampleFromInfostate``): a computer player's determinization. An open game: itself."""
        return self

    def seen_by(self, seats: Seats, action: Action) -> bool:
        """Whether one of ``seats`` may see what :meth:`public_action_text` hides of the legal
        ``action`` (its own card added, a card drawn into its hand). False where nothing is hidden."""
        return False

    def rearranged(self, seats: Seats, action: Action) -> Self | None:
        """This state with what ``seats`` cannot see arranged anew so that ``action`` (a card they
        do not know where it lay) is legal here: how a board that sees only its own seats follows
        another board's hidden card. None when nothing unseen makes it legal (an open game: nothing
        is unseen)."""
        return None

    def status_light(self) -> bool:
        """Whether the game's own status light is on (the table's fourth status LED, green): a
        standing condition of the position players should see at a glance. Off unless a game says
        otherwise (Scriptorium: while its rings are aligned)."""
        return False

    def render_text(self, say: Say = in_english) -> str:
        """A multi-line picture of the board for a terminal (the demo draws it as play goes on), its
        words said by ``say`` (the board's language)."""
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
    option_schema: ClassVar[tuple[Option, ...]] = ()
    """Every variant option: name, default and the values it accepts."""
    picture_mm: ClassVar[float] = 1.0
    """Millimetres of the reference board build per unit of the picture's geometry (``channel_xy``):
    what the printed drilling templates scale by (``controller.tools.schematic.template``)."""

    def players(self, num_players: int | None = None) -> int:
        """``num_players``, or the game's default when it is None or 0."""
        return num_players or self.default_players or self.min_players

    def default_options(self) -> dict[str, Any]:
        """Every variant option with its default value."""
        return {o.name: o.default for o in self.option_schema}

    def options(self, given: Options | None = None) -> dict[str, Any]:
        """``given`` merged over the defaults, every value checked against its :class:`Option`;
        unknown keys and bad values are a :class:`ValueError`."""
        schema = {o.name: o for o in self.option_schema}
        merged = self.default_options()
        for key, value in (given or {}).items():
            if key not in merged:
                raise ValueError(f"{self.name}: unknown option {key!r} (known: {sorted(merged)})")
            if key in schema:
                schema[key].check(self.name, value)
            merged[key] = value
        return merged

    def check_players(self, num_players: int | None) -> int:
        """The number of players (the default for None), or a :class:`ValueError` outside the game's range."""
        n = self.players(None) if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int) or not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name}: {self.min_players} to {self.max_players} players, not {num_players!r}")
        return n

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        """A :class:`ValueError` for a combination of options and players the rules do not allow
        (each value on its own is already checked). None by default."""
        return None

    def resolve(self, options: Options | None, num_players: int | None) -> tuple[dict[str, Any], int]:
        """The options (defaults filled in) and number of players of a variant, all checked."""
        opts = self.options(options)
        n = self.check_players(num_players)
        self.check_variant(opts, n)
        return opts, n

    def hides_information(self, options: Options | None = None) -> bool:
        """Whether the variant ``options`` keeps something from some seat (cards arbitro deals):
        then a seat's :meth:`State.information_state` is less than the position, and a remote game
        of it holds the whole game on the host alone. False by default (an open game)."""
        return False

    def state_seen_by(self, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> State:
        """A state that agrees with everything ``seat`` sees, its public and its own private view,
        what it cannot see arranged in a fixed way (:meth:`State.resample` deals it anew): where a
        computer player's search starts. An open game: the public view's position. ``ValueError``
        for views that are not a position of this game, or a private view not the seat's own."""
        return self.state_from_text(public_view["position"])

    @abstractmethod
    def new_state(self, options: Options | None = None, num_players: int | None = None) -> State:
        """The initial state (before any chance node is resolved)."""

    @abstractmethod
    def state_from_text(self, text: str) -> State:
        """The state ``text`` describes; raises :class:`BadPosition` for anything else."""

    @abstractmethod
    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        """The logical sensor channels of the board for this variant."""

    mark_radius: ClassVar[float] = MARK_RADIUS
    """How big a ring around a marked channel is in :meth:`picture` (:func:`ring_marks`): big
    enough to ring the piece or pit, leaving what it shows readable."""

    @abstractmethod
    def picture(self, public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
        """The board as a standalone SVG document drawn from ``public_view`` alone (all a display
        has), the channels in ``marks`` (what the LEDs light for the player to act) shown as
        targets: ringed (:func:`ring_marks`), or the picture's own way where it has one. A name
        that is no channel is passed over. Its words (legends, titles, captions) are messages said
        by ``say``, each marked with its code and params (:func:`svg_said`)."""

    @abstractmethod
    def channel_xy(self, name: str) -> Point | None:
        """Where the channel ``name`` sits in :meth:`picture`, in its coordinates (x to the right,
        y down); None for a name that is no channel. Displays ring channels there, and the demo
        draws the LEDs there."""

    def notes(self, public_view: dict[str, Any]) -> list[Message]:
        """What a display says beside :meth:`picture`, from ``public_view`` alone: the dice, the
        cards shown, a dispute, a clock (MQTT's ``state.notes``). None unless the game says."""
        return []

    def action_words(self, text: str, player: int | None) -> Message:
        """The public action ``text`` said in words (events, pages, the voice; the notation stays the
        record): ``player``'s move, or a chance outcome (None). The notation unless the game says."""
        return notation(text, player)

    def action_face(self, text: str) -> str | None:
        """What the move ``text`` is, drawn, where the picture has no place for it (a pentagon's
        colour, a card's face): a small standalone SVG the seat page shows on the move's button
        beside its words. None (words alone) unless the game draws it."""
        return None

    def channel_label(self, channel: str) -> str | Message:
        """How people name the place of a sensor channel (what a violation says is missing there): the
        channel's name after its kind (``sq:a1`` is ``a1``), or in words (a message: Jeocinco's bridges)."""
        return channel.split(":", 1)[-1]

    @abstractmethod
    def configurations(self) -> Sequence[tuple[dict[str, Any], int]]:
        """(options, number of players) pairs that cover every variant: the conformance suite
        plays each."""

    @abstractmethod
    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        """An upper bound on the number of actions (chance included) of any game; where the rules
        allow endless play, the engine ends the game by a documented rule within it."""
