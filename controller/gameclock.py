"""The game clock in the public state: game time and each player's time on the turn.

The engines and the session keep no time. The service's loop hands this clock the wall-clock time
(``time.time()``) of every public state it publishes, so a display that connects late (or
restarts) shows the same clock as one that watched from the start. It is kept in memory: after a
restart of the service the clock of a resumed game counts from the restart (``counted_from``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass
class GameClock:
    """``used[p]``: the seconds player p had the turn, not counting a turn running now, which began
    at ``turn_started_at``."""

    started_at: float
    counted_from: Literal["start", "resume"] = "start"
    used: list[float] = field(default_factory=list)
    turn: int | None = None
    turn_started_at: float | None = None
    ended_at: float | None = None

    @classmethod
    def start(cls, now: float, players: int, counted_from: Literal["start", "resume"] = "start") -> GameClock:
        return cls(started_at=now, counted_from=counted_from, used=[0.0] * players)

    def observe(self, turn: int | None, over: bool, now: float) -> None:
        """The state at ``now``: ``turn`` the player to act (None while chance decides or it is over)."""
        if self.turn is not None and self.turn_started_at is not None and 0 <= self.turn < len(self.used):
            self.used[self.turn] += max(0.0, now - self.turn_started_at)  # a wall clock set back counts nothing
        self.turn = None if over else turn
        self.turn_started_at = now if self.turn is not None else None
        self.ended_at = (now if self.ended_at is None else self.ended_at) if over else None

    def to_json(self, now: float) -> dict[str, Any]:
        """The clock as of ``now`` (the state's ``time``)."""
        return {"started_at": round(self.started_at, 3), "counted_from": self.counted_from,
                "elapsed": round(max(0.0, (now if self.ended_at is None else self.ended_at) - self.started_at), 3),
                "used": [round(u, 3) for u in self.used],
                "turn_started_at": None if self.turn_started_at is None else round(self.turn_started_at, 3),
                "ended_at": None if self.ended_at is None else round(self.ended_at, 3)}
