"""A player at another arbitro board (``controller.remote``): its moves come over the wire, agreed
by both boards, and the table carries them out."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from controller.games.base import Phrase
from controller.seats.base import Seat

OTHER_BOARD = Phrase("seat.other_board", "the other board")


class RemoteSeat(Seat):
    kind: ClassVar[str] = "remote"
    who: ClassVar[Phrase | None] = OTHER_BOARD
    told_privately: ClassVar[bool] = False
    at_other_board: ClassVar[bool] = True
    by: ClassVar[str] = "remote"


def mirrored(seats: Sequence[str], local: Sequence[str] = ()) -> tuple[str, ...]:
    """The seats of a remote game as the other board sees them: each seat played there is this
    board's (seated by ``local`` in order, the rest at the table), each seat played here is remote."""
    kinds: Iterator[str] = iter(local)
    return tuple(next(kinds, "table") if seat == RemoteSeat.kind else RemoteSeat.kind for seat in seats)


def played_there(seats: Sequence[str]) -> frozenset[int]:
    """The seats another board plays."""
    return frozenset(p for p, seat in enumerate(seats) if seat == RemoteSeat.kind)
