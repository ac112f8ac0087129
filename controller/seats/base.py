"""The contract every kind of seat keeps, written as gpiozero writes its pin contract.

A subclass **must** set :attr:`Seat.kind` and, unless the seat is the table's, :attr:`Seat.who`
(how the table's words name it: "the computer"). It **may** override the rest; the defaults are
those of a seat played away from the board whose moves arrive from elsewhere (a request, another
board) and are lit for the table to carry out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from controller.games.base import Message, Phrase


@dataclass(frozen=True)
class Ask:
    """What a seat that decides by itself (:attr:`Seat.decides`) is given to decide a move: only
    what its seat may know — the public view and its own private view — and a seed."""

    game: str
    options: Mapping[str, Any]
    public_view: Mapping[str, Any]
    private_view: Mapping[str, Any]
    seat: int
    seed: str


class Seat:
    """Who plays one seat of a game."""

    kind: ClassVar[str]
    """Must override: the word a seat text begins with (``"bot"`` in ``"bot:hard"``)."""
    who: ClassVar[Phrase | None] = None
    """Must override for a seat away from the board: how the table's words name it."""
    at_table: ClassVar[bool] = False
    """May override: its player's actions come straight from the board (the legal moves are lit
    for it, and the referee takes what the board shows); otherwise each of them is taken only as
    the seat's own move, lit for the table to carry out."""
    told_privately: ClassVar[bool] = True
    """May override: its player's private state goes to the player's own topic (``player/<n>``);
    False where nobody on this board may read it (a computer's views go to its decision alone, the
    other board's seats are that board's)."""
    decides: ClassVar[bool] = False
    """May override: the session asks the seat itself for its move (:meth:`decide`)."""
    paired: ClassVar[bool] = False
    """May override: its moves come as requests carrying a secret made for the seat each game, told
    on the seat's own topic alone (a phone's seat page)."""
    at_other_board: ClassVar[bool] = False
    """May override: another arbitro board seats it; its moves come over the wire (``controller.remote``)."""
    by: ClassVar[str] = ""
    """May override: who an action event names as having made a move carried out for it (``by``)."""

    def __init__(self, argument: str = "") -> None:
        self.argument = argument

    @classmethod
    def texts(cls) -> tuple[str, ...]:
        """May override: every text that names a seat of this kind (a kind with an argument lists
        each one it takes)."""
        return (cls.kind,)

    @property
    def text(self) -> str:
        return f"{self.kind}:{self.argument}" if self.argument else self.kind

    def said(self) -> Message:
        """The seat in the table's words ("the computer", "the phone")."""
        assert self.who is not None, f"the {self.kind} seat says no name: it plays at the table"
        return self.who()

    def decide(self, ask: Ask, rng: random.Random) -> str:
        """May override, with :attr:`decides`: the move (its text) the seat plays from ``ask``. Runs
        off the loop (``controller.computer``)."""
        raise TypeError(f"a {self.kind} seat does not decide by itself")

    @property
    def level(self) -> str:
        """The level the seat decides at, as the ``Decide`` effect and the record name it."""
        return self.argument

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seat) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"<seat {self.text}>"
