"""Carrying out a move decided away from the board, judged beside the referee (``controller.referee``).

A seat played away (a computer player, a phone, another board) decides its move elsewhere; the
table carries it out, lit in a pattern of its own (what to lift blinking, where to put it steady,
the rings to turn), and the move is taken once the board shows it. A hint is the same for a seat at
the table. :class:`CarryOut` is one such move: what the board shows before and after it, its
verdict on a sensed board, what the table is told and what the LEDs show. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from controller.games import Channel, ChannelKind, State
from controller.games.base import Message, Phrase
from controller.ledview import LedScene, game_colours
from controller.move_table import board_diff
from controller.referee import Verdict, shortest_turn
from controller.saturation import NO_CEILING, Ceiling

# {move}: the move in words (``Game.action_words``: "red moves 2 beads from s-c to s-e"), never its notation
CARRY_OUT = Phrase("table.carry_out", "{who} decided: {move}; carry it out on the board")
CARRY_OUT_COUNTS = Phrase("table.carry_out_counts", "{who} decided: {move}; {steps}")
PLAYED = Phrase("table.played", "{who} decided: {move}; {what}")
WAIT_FOR = Phrase("table.wait_for", "{who} is to play: put the board back as it was: {what}")
TAKE_BEADS = Phrase("table.take_beads", "take {count} from {place}, leaving {left}")
PUT_BEADS = Phrase("table.put_beads", "put {count} into {place}, to hold {total}")

Describe = Callable[[Mapping[str, int], Mapping[str, int]], tuple[Message, ...]]
"""What differs between an expected board and a sensed one, clause by clause (``Referee.describe``)."""


@dataclass(frozen=True)
class CarryOut:
    """``player``'s move ``text`` (its record text; ``move``, what everyone may see of it, said in
    ``words``), decided by ``who`` for the table to carry out: the board shows ``before`` now and ``after`` once done,
    as sensors reading no higher than ``ceiling`` show them (``controller.saturation``)."""

    player: int
    text: str
    move: str
    who: Message
    words: Message
    before: Mapping[str, int]
    after: Mapping[str, int]
    ceiling: Ceiling = field(default_factory=lambda: NO_CEILING)

    @classmethod
    def of(cls, state: State, player: int, text: str, who: Message, said: Callable[[str, int | None], Message],
           ceiling: Ceiling = NO_CEILING) -> CarryOut:
        """``said``: how the game says a move in words (``Game.action_words``)."""
        action = state.action_from_text(text)
        move = state.public_action_text(action)
        return cls(player, text, move, who, said(move, player), state.physical_view(),
                   state.apply(action).physical_view(), ceiling)

    def judge(self, sensed: Mapping[str, int]) -> Verdict | None:
        """The board as it was (``in_sync``), the move done (``applied``, for the session to take),
        a step on the way to it, each changed channel between the two (``progress``), or None:
        something else, for the referee to judge (a table player's own move) or to refuse. A move
        no sensor can show (beads between full pits) is ``progress`` naming it: ``confirm`` takes it."""
        differing = sorted(c for c, _ in board_diff(self.before, sensed, self.ceiling))
        if not differing:
            unseen = self.after != self.before and not board_diff(self.before, self.after, self.ceiling)
            return Verdict("progress", (self.move,)) if unseen else Verdict("in_sync")
        if not board_diff(self.after, sensed, self.ceiling):
            return Verdict("applied", (self.move,))
        board = {c: sensed.get(c, 0) for c in self.before}
        if all(min(self.before[c], self.after[c]) <= board[c] <= max(self.before[c], self.after[c])
               for c in differing):
            return Verdict("progress", channels=tuple(sorted(differing)))
        return None

    def refused(self, sensed: Mapping[str, int], describe: Describe) -> Verdict:
        """A board that is neither the move nor on the way to it: what the seat played, and what differs."""
        return Verdict("violation", channels=tuple(sorted(c for c, _ in board_diff(self.after, sensed, self.ceiling))),
                       said=PLAYED(who=self.who, move=self.words, what=describe(self.after, sensed)))

    def said(self, channels: list[Channel], label: Callable[[str], str | Message]) -> Message:
        """The move in words: for a move of counted pieces (beads), what to take from and put into
        each place (takes first, then places in the board's order)."""
        steps = [(self.after[c.name] - self.before[c.name], c.name) for c in channels
                 if c.kind == ChannelKind.COUNT and self.after[c.name] != self.before[c.name]]
        if not steps:
            return CARRY_OUT(who=self.who, move=self.words)
        return CARRY_OUT_COUNTS(who=self.who, move=self.words, steps=tuple(
            PUT_BEADS(count=d, place=label(c), total=self.after[c]) if d > 0
            else TAKE_BEADS(count=-d, place=label(c), left=self.after[c])
            for d, c in sorted(steps, key=lambda step: step[0] > 0)))

    def scene(self, state: State, sensed: Mapping[str, int], channels: Mapping[str, Channel],
              violation: tuple[str, ...] = ()) -> LedScene:
        """The LEDs: what to lift blinking, where to put it steady (a pit lit as long as it lacks
        beads, as far as its sensor tells), the rings to turn, in the player's colour."""
        lift: list[str] = []
        place: list[str] = []
        turns = []
        board = {c: sensed.get(c, 0) for c in self.after}
        for channel, value in board_diff(board, self.after, self.ceiling):  # a full pit staying full is not lit
            now = board[channel]
            if channels[channel].kind == ChannelKind.OFFSET:
                turns.append((channel, shortest_turn(now, value, channels[channel].maximum + 1)))
            else:
                (lift if value < now else place).append(channel)  # fewer on it (or none): take from it
        return LedScene(player=self.player, targets={}, violation=violation, status_light=state.status_light(),
                        offsets_to_turn=tuple(turns), colours=game_colours(state), lift=tuple(sorted(lift)),
                        place=tuple(sorted(place)))


def waiting(who: Message, before: Mapping[str, int], sensed: Mapping[str, int], describe: Describe,
            ceiling: Ceiling = NO_CEILING) -> Verdict:
    """A seat played away is to act and its move has not come yet: the board is to stay as it is."""
    return Verdict("violation", channels=tuple(sorted(c for c, _ in board_diff(before, sensed, ceiling))),
                   said=WAIT_FOR(who=who, what=describe(before, sensed)))
