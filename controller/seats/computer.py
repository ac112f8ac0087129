"""A computer player (``bot:<level>``, ``controller.players``): it decides from its seat's views
alone, off the loop; the table carries out its move."""

from __future__ import annotations

import hmac
import random
from typing import ClassVar

from controller.games.base import Phrase
from controller.players import LEVELS
from controller.seats.base import Ask, Seat

COMPUTER = Phrase("seat.computer", "the computer")
DECISIONS = "arbitro-decision-v1"  # what a decision's seed is keyed with: said in docs/players.md


def decision_seed(key: bytes, moves: int, hint: bool = False) -> str:
    """The seed of the decision a computer player takes ``moves`` actions into a game (or of a hint
    there): keyed by the game's chance secret, so nobody watching can work it out while the game
    runs, and anyone can check every computer move once the secret is revealed (``arbitro replay``)."""
    return hmac.new(key, f"{DECISIONS}:{moves}{':hint' if hint else ''}".encode(), "sha256").hexdigest()


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
