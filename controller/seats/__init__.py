"""Who plays each seat, as parts: one module per kind of seat behind one contract, :class:`Seat`.

A seat is named by a text, ``kind`` or ``kind:argument``: ``table`` (a person at the board, the
default), ``bot:<level>`` (a computer player, ``controller.players``), ``phone`` (a person away
from the table who plays on a paired seat page) or ``remote`` (a player at another arbitro board,
``controller.remote``). The configuration and the ``new_game`` request name seats so, and the game's
record keeps the texts. :func:`seat_of` makes the part; the session asks the part, never the text.

**Authority belongs to the action's owner** (``docs/ARCHITECTURE.md``, "Seats"): an action whose
player sits at a seat that is not :attr:`Seat.at_table` is taken only as that seat's move, lit for
the table to carry out, in turn or out of turn; a table player's own action comes from the board
whoever is to act.

A new kind of seat is one module with a :class:`Seat` subclass and one line in :data:`KINDS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from controller.seats.base import Seat
from controller.seats.computer import ComputerSeat
from controller.seats.phone import PhoneSeat
from controller.seats.remote import RemoteSeat
from controller.seats.table import TableSeat

__all__ = ["KINDS", "SEATS", "TABLE", "Seat", "named", "other_board", "seat_of", "seats_for"]

KINDS: Final[dict[str, type[Seat]]] = {
    TableSeat.kind: TableSeat,
    ComputerSeat.kind: ComputerSeat,
    PhoneSeat.kind: PhoneSeat,
    RemoteSeat.kind: RemoteSeat,
}
"""Every kind of seat, by the word its texts begin with."""

TABLE: Final = TableSeat.kind


def every_text() -> list[str]:
    """Every text a kind of seat in :data:`KINDS` takes, as the table stands now (a kind may be added)."""
    return [text for cls in KINDS.values() for text in cls.texts()]


SEATS: Final[tuple[str, ...]] = tuple(every_text())
"""Every seat text the configuration and the requests may name (the request schema's list)."""


def seat_of(text: str) -> Seat:
    """The seat ``text`` names; ``ValueError`` for a text no kind of seat takes."""
    kind, _, argument = text.partition(":")
    cls = KINDS.get(kind)
    if cls is None or text not in cls.texts():
        raise ValueError(f"seats: {text!r} is not a seat; seats are {', '.join(every_text())}")
    return cls(argument)




def seats_for(seats: Sequence[str], num_players: int) -> tuple[str, ...]:
    """Every seat of a game of ``num_players``: those ``seats`` name, in order, then the rest at the
    table; ``ValueError`` for an unknown seat or more seats than players."""
    for text in seats:
        seat_of(text)
    if len(seats) > num_players:
        raise ValueError(f"seats: {len(seats)} seats named for {num_players} players")
    return (*seats, *(TABLE,) * (num_players - len(seats)))


def named(seats: Sequence[str]) -> list[str]:
    """The seats a game's record keeps: none for a game played at the board alone."""
    return [] if all(seat_of(text).at_table for text in seats) else list(seats)


def other_board(seats: Iterable[str]) -> bool:
    """Some seat is played at another board: the game is a remote game."""
    return any(seat_of(text).at_other_board for text in seats)
