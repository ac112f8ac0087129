"""What one input made of the table (:class:`Outcome`), and the effects and values it carries."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.commands import Refused
from controller.games.base import Message
from controller.i18n import as_json
from controller.ledview import LedScene
from controller.referee import Verdict
from controller.seats import Seat, seat_of
from controller.seats.base import Ask


def told(said: Message | None) -> dict[str, Any]:
    """What is said, for an event or the state: its English ``message`` with its ``code`` and
    ``params`` (``controller.i18n`` says it in the board's language at the edge)."""
    return {} if said is None else {"message": said.text, **as_json(said)}


class OperatorOnly(Refused):
    """A refusal whose full words (``operator``) tell hidden information: told only in an answer
    the operator alone reads; everywhere else (the answers kept for repeats) it is ``said``."""

    def __init__(self, said: Message, operator: Message) -> None:
        super().__init__(said)
        self.operator = operator


@dataclass(frozen=True)
class TakeBoard:
    """The session took a game: the loop wires up its board (another game's layout, the strip sized for it)."""

    game: str


@dataclass(frozen=True)
class CalibrateRings:
    """The ring encoders start at these offsets (where the game wants each ring); the loop senses them back."""

    offsets: dict[str, int]


@dataclass(frozen=True)
class RequestSnapshot:
    """Another board: the sensor board is asked for every channel at once."""


@dataclass(frozen=True)
class Decide:
    """A computer player is to decide (``controller.players.decide``) off the loop, with only what
    its seat may know: the public and its private view, and a seed keyed by the game's chance secret
    and the move number (``decision_seed``: unknown to anyone watching, the same game replays the same
    decisions). The loop hands the
    answer back with :meth:`Session.decided`."""

    moves: int
    game: str
    options: dict[str, Any]
    public_view: dict[str, Any]
    private_view: dict[str, Any]
    seat: int
    level: str
    seed: str
    hint: bool = False  # a hint the seat's player asked for, not a computer player's move
    decider: str = ""  # the seat text of who decides (``controller.seats``): the seat's own, or a hint's computer

    def decision(self) -> tuple[Seat, Ask]:
        """Who decides, and what it is given to decide from (``Seat.decide``, off the loop)."""
        return seat_of(self.decider), Ask(self.game, self.options, self.public_view, self.private_view, self.seat,
                                          self.seed)


Effect = TakeBoard | CalibrateRings | RequestSnapshot | Decide


Told = tuple[dict[str, Any], tuple[dict[str, Any] | None, ...]]


@dataclass(frozen=True)
class Expected:
    """A move a computer player decided (or a hint suggested), for the table to carry out: at
    ``moves`` actions into the game, ``player``'s action ``text``."""

    moves: int
    player: int
    text: str
    hint: bool = False


@dataclass(frozen=True)
class AskedBack:
    """A takeback across a revealed chance outcome (``docs/rules/takebacks.md``), asked when the game
    had ``moves`` actions: the seats whose consent it ``waits`` for, and those that ``gave`` it."""

    moves: int
    waits: frozenset[int]
    gave: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Outcome:
    """What one input made of the table, for the loop to carry out in this order: the ``effects``,
    the LEDs (``scene``; None: unchanged), then — when there is something to tell (``public`` is
    not None) — the journal, the ``events``, the public state, each seat's ``private`` state and
    the ``answer`` to a request. ``sensed``: a reading changed the board (``clean``: into exactly
    one legal move, which may be judged at once); ``verdict``: what a judgement found; ``held``: a
    verdict the hands may still change waits (judged again once the commit window is over)."""

    effects: tuple[Effect, ...] = ()
    scene: LedScene | None = None
    events: tuple[dict[str, Any], ...] = ()
    states: Callable[[], Told] | None = field(default=None, repr=False, compare=False)
    """Works out the public and private states, once, when first asked for: the loop shows the LEDs first."""
    answer: tuple[bool, Any] | None = None
    refusal: Message | None = None  # why a rule refused the request (the loop says it in the board's language)
    sensed: bool = False
    clean: bool = False
    verdict: Verdict | None = None
    held: bool = False

    @functools.cached_property
    def _told(self) -> Told | tuple[None, tuple[()]]:
        return (None, ()) if self.states is None else self.states()

    @property
    def public(self) -> dict[str, Any] | None:
        return self._told[0]

    @property
    def private(self) -> tuple[dict[str, Any] | None, ...]:
        return self._told[1]

