"""A computer player (``bot:<level>``, ``controller.players``): it decides from its seat's views
alone, off the loop; the table carries out its move."""

from __future__ import annotations

import random
from typing import ClassVar

from controller.games.base import Phrase
from controller.players import LEVELS
from controller.seats.base import Ask, Seat

COMPUTER = Phrase("seat.computer", "the computer")


class ComputerSeat(Seat):
    kind: ClassVar[str] = "bot"
    who: ClassVar[Phrase | None] = COMPUTER
    told_privately: ClassVar[bool] = False
    decides: ClassVar[bool] = True
    by: ClassVar[str] = "bot"

    @classmethod
    def texts(cls) -> tuple[str, ...]:
        return tuple(f"{cls.kind}:{level}" for level in LEVELS)

    def decide(self, ask: Ask, rng: random.Random) -> str:
        from controller import players

        return players.decide(ask.game, ask.options, ask.public_view, ask.private_view, ask.seat, self.level,
                              rng).text
