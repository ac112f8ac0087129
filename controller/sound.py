"""Sound at the table: which cue the buzzer plays for what the session told, and who hears it.

:func:`cues` is a pure function of what one publish told (its events and whose turn it is), so
every cue is tested without hardware (``tests/test_sound.py``). :class:`TableSound` is what the
service's loop feeds each publish to: it remembers whose turn it was, hands the cues to the
buzzer (``hardware.buzzer``) and the announcements to the voice (``controller.voice``); both
play on their own threads, so the loop never waits for a sound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from controller.voice import Voice, announcement
from hardware.buzzer import Buzzer, Tune


class Cue(StrEnum):
    TURN = "turn"  # the turn passed to another player (or a new game's first player)
    VIOLATION = "violation"  # the board differs from the game
    DISPUTE = "dispute"  # Jeocinco: a piece is challenged, both players roll
    SYNC = "sync"  # Scriptorium: a part came into sync (or the rings aligned)
    EXPECTED = "expected"  # a computer's or a remote player's move waits to be carried out at the board
    GAME_OVER = "game_over"  # the game ended (won, drawn or resigned)


# Short and unlike each other: rising for a turn, low and doubled for a fault, a rattle for the
# dice, a bright ping for a sync, three knocks for a move to carry out, a fanfare for the end.
TUNES: dict[Cue, Tune] = {
    Cue.TURN: (("E5", 0.08), ("A5", 0.14)),
    Cue.VIOLATION: (("A3", 0.2), (None, 0.06), ("A3", 0.2)),
    Cue.DISPUTE: (("C6", 0.05), ("E6", 0.05), ("C6", 0.05), ("E6", 0.05), ("G6", 0.1)),
    Cue.SYNC: (("G6", 0.06), ("D7", 0.12)),
    Cue.EXPECTED: (("D5", 0.06), (None, 0.06), ("D5", 0.06), (None, 0.06), ("D5", 0.06)),
    Cue.GAME_OVER: (("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.3)),
}

ON_EVENT = {
    "violation": Cue.VIOLATION,
    "dispute": Cue.DISPUTE,
    "sync": Cue.SYNC,
    "aligned": Cue.SYNC,
    "expected": Cue.EXPECTED,
    "game_over": Cue.GAME_OVER,
    "resign": Cue.GAME_OVER,  # a resignation ends the game
}


def cues(events: Sequence[Mapping[str, Any]], last_player: int | None, turn: int | None) -> list[Cue]:
    """The cues for one publish: each event's (in order, each cue once), then ``TURN`` when the turn
    is now a player's other than ``last_player`` (who last had it; a die rolled between does not
    count), or a new game has begun, unless the game just ended or the move is one to carry out
    (``EXPECTED``: not the table's own turn)."""
    out: list[Cue] = []
    for event in events:
        cue = ON_EVENT.get(event["type"])
        if cue is not None and cue not in out:
            out.append(cue)
    new_game = any(event["type"] == "new_game" for event in events)
    if turn is not None and (turn != last_player or new_game) and not {Cue.GAME_OVER, Cue.EXPECTED} & set(out):
        out.append(Cue.TURN)
    return out


class TableSound:
    """The buzzer and the voice, fed every publish by the service's loop (``hear``)."""

    def __init__(self, buzzer: Buzzer | None = None, voice: Voice | None = None) -> None:
        self.buzzer = buzzer
        self.voice = voice
        self.last_player: int | None = None

    def hear(self, events: Sequence[Mapping[str, Any]], state: Mapping[str, Any]) -> None:
        """What one publish told: ``events`` and the public ``state`` that follows them."""
        turn = state["turn"]
        if self.buzzer is not None:
            for cue in cues(events, self.last_player, turn):
                self.buzzer.play(cue, TUNES[cue])
        if self.voice is not None:
            for event in events:
                text = announcement(event, state, self.voice.language)
                if text is not None:
                    self.voice.say(text)
        if turn is not None:
            self.last_player = turn
        elif any(event["type"] == "new_game" for event in events):
            self.last_player = None

    def close(self) -> None:
        for part in (self.buzzer, self.voice):
            if part is not None:
                part.close()
