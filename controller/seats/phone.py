"""A person away from the table who plays on a phone: the seat page sends the move (request
``play``, with the seat's secret), the table carries it out."""

from __future__ import annotations

from typing import ClassVar

from controller.games.base import Phrase
from controller.seats.base import Seat

PHONE = Phrase("seat.phone", "the phone")


class PhoneSeat(Seat):
    kind: ClassVar[str] = "phone"
    who: ClassVar[Phrase | None] = PHONE
    paired: ClassVar[bool] = True
    by: ClassVar[str] = "phone"
