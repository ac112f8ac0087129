"""A record shown at the table (docs/records.md, "On the board"): its position at a move set up,
then its moves stepped through, one at a time.

The board takes the record's game cut at that move as a game of its own (every action checked
again by the rules, a fresh secret, every seat at the table), so the LEDs light white each place
that differs from the position, as at a new game's start, and each goes out once it is right.
Then each of the record's moves is lit as a hint is (what to lift blinking, where to put it
steady, in the player's colour) until the table carries it out; a chance outcome of the record
is entered as it was. Another move played ends the showing there (the game goes on from it).

A position text (:func:`position_record`) is set up the same way, and play goes on from it: a
game begun from a position, its record holding the text (``Record.position``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from controller.games import CHANCE, State, game_names, get_game
from controller.games.base import BadPosition
from controller.games.record import Match, Record
from controller.session.outcome import Expected


class Table(Protocol):
    """What a showing asks of the session (``controller.session.game.TableGame``)."""

    match: Match

    @property
    def state(self) -> State: ...

    def expect(self, expected: Expected | None, *, kept: bool = False) -> None: ...

    def enter_shown(self, text: str) -> None: ...


@dataclass
class Showing:
    """The record's actions the table is being shown (those up to the game's length are played)."""

    actions: list[str]

    def next(self, session: Table) -> bool:
        """Light the record's next move, or enter its next chance outcome; False once the game has
        left the record (another move played, or its end reached): the showing is over."""
        played = session.match.record.actions
        if played != self.actions[:len(played)] or len(played) == len(self.actions):
            return False
        text = self.actions[len(played)]
        state = session.state
        if state.current_player == CHANCE:
            session.enter_shown(text)
            return True
        session.expect(Expected(len(played), state.current_player, text, hint=True), kept=True)
        return True


def shown_game(record: Record, move: int) -> Match:
    """``record``'s game at ``move`` (0: its start; more than it has: its end), as a game of the
    table's own: every seat at the table, the chance secret a fresh one (``Session.take``)."""
    cut = max(0, min(move, len(record.actions)))
    return Match(Record(record.game, dict(record.options), record.num_players, [], record.actions[:cut],
                        position=record.position))


def position_record(text: str) -> Record:
    """The record of a game to begin from the position ``text`` (``State.to_text``: it starts with
    its game's name and holds its options and players); ``BadPosition`` (a ``ValueError``) says in
    one line why it is no position of a game arbitro plays (the game's own check of it)."""
    name = text.split(" ", 1)[0]
    if name not in game_names():
        raise BadPosition(f"a position text starts with its game's name ({', '.join(game_names())}), not {name[:40]!r}")
    state = get_game(name).state_from_text(text)
    return Record(name, dict(state.options), state.num_players, [], position=text)
