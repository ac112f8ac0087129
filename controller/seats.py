"""Who plays each seat: a person at the table (``table``, the default), a computer player
(``bot:<level>``, ``controller.players``), a person away from the table who plays on a phone
(``phone``: the seat page sends the move, the table carries it out) or a player at another board
(``remote``, ``controller.remote``), named in the configuration and the ``new_game`` request, kept
with the game's record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from controller.players import LEVELS

TABLE: Final = "table"
BOT: Final = "bot:"
PHONE: Final = "phone"
REMOTE: Final = "remote"
SEATS: Final[tuple[str, ...]] = (TABLE, *(BOT + level for level in LEVELS), PHONE, REMOTE)


def seats_for(seats: Sequence[str], num_players: int) -> tuple[str, ...]:
    """Every seat of a game of ``num_players``: those ``seats`` name, in order, then the rest at the
    table; ``ValueError`` for an unknown seat or more seats than players."""
    for seat in seats:
        if seat not in SEATS:
            raise ValueError(f"seats: {seat!r} is not a seat; seats are {', '.join(SEATS)}")
    if len(seats) > num_players:
        raise ValueError(f"seats: {len(seats)} seats named for {num_players} players")
    return (*seats, *(TABLE,) * (num_players - len(seats)))


def bot_level(seat: str) -> str | None:
    """The level of a computer player's seat; None for a seat at the table."""
    return seat.removeprefix(BOT) if seat.startswith(BOT) else None


def away(seat: str) -> bool:
    """The seat's moves are decided away from the table (a computer player, a phone, another
    board), for the table to carry out."""
    return seat != TABLE
