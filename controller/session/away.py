"""Seats played away from the board (:class:`AwaySeats`): a computer player asked to decide, a phone's
move, a hint, and the lit move the table carries out (``controller.carry_out``), judged before
anything else the board shows."""

from __future__ import annotations

import hmac
from dataclasses import replace
from typing import Any

from controller.carry_out import CarryOut, waiting
from controller.commands import Refused
from controller.games import ChannelKind, IllegalAction
from controller.games.base import Phrase
from controller.games.words import seat as person  # a seat as a param, said as the person
from controller.ledview import LedScene
from controller.referee import Verdict
from controller.seats import seat_of
from controller.seats.computer import COMPUTER, decision_seed
from controller.session.game import TableGame
from controller.session.outcome import Decide, Expected, Outcome, told

NO_HINT = Phrase("table.no_hint", "no hint: no player at the table is to act")
NOT_A_PHONE = Phrase("seat.not_a_phone", "{seat} does not play from a phone on this board")
NO_SECRET = Phrase("seat.no_secret", "{seat}: the request carries no seat secret: only the phone paired "
                   "with the seat plays it")
WRONG_SECRET = Phrase("seat.wrong_secret", "{seat}: that is not this seat's secret (another seat's, another "
                      "board's or an old one): only the phone paired with the seat plays it")
NOT_YOUR_TURN = Phrase("seat.not_your_turn", "{seat}: it is not your turn")
ALREADY_PLAYED = Phrase("seat.already_played", "{seat} has already decided: {move}; carry it out on the board")
HINT_ASKED = Phrase("table.hint_asked", "{player} asked for a hint: it is on their own seat")
COMPUTER_FAILED = Phrase("table.computer_failed",
                         "the computer player of {player} could not decide ({error}): press next to ask it again")
NO_TAKEBACK_ASKED = Phrase("seat.no_takeback_asked", "no takeback is waiting for consent")
NOT_ASKED = Phrase("seat.not_asked", "{seat}: the takeback does not wait for your consent")
OPERATOR_ANSWERS = Phrase("seat.operator_answers", "{seat} is played by {who}: the operator answers for it")
TAKEBACK_REFUSED = Phrase("table.takeback_refused", "{seat} refused the takeback: the game goes on as it is")


HINTS = seat_of("bot:medium")  # who a player at the table asks for a hint
HINT_FAILED = Phrase("table.hint_failed", "no hint: the computer player could not decide ({error})")


def carry_hint(expected: Expected | None) -> bool:
    """Nothing lit to carry out but, at most, a hint (which the table's own move may pass by)."""
    return expected is None or expected.hint


class AwaySeats(TableGame):
    """What the table does for the seats played away from it."""

    def _ask_the_computer(self) -> None:
        """A computer player to act and not yet asked at this move: the loop asks it (:class:`Decide`)."""
        moves = len(self.match.record.actions)
        if not self._away_to_play() or self.asked == moves or (self.expected and self.expected.moves == moves):
            return
        seat = self.state.current_player
        part = self.parts[seat]
        if not part.decides:  # a phone or a remote seat: its move comes as a request or from the other board
            return
        self.asked = moves
        self._effects.append(Decide(moves, self.game.name, dict(self.match.record.options), self.state.public_view(),
                                    dict(self.state.private_view(seat)), seat, part.level,
                                    decision_seed(self.decision_key(), moves), decider=part.text))

    def _computer_failed(self) -> bool:
        """The computer player to act could not decide at this move (:meth:`decision_failed`)."""
        return self._away_to_play() and self.failed == len(self.match.record.actions)

    def _ask_again(self) -> None:
        """The computer player that could not decide is asked again (``next``, a ``hint`` request)."""
        self.failed = self.asked = None  # the outcome asks it (_ask_the_computer)

    def _ask_hint(self) -> int:
        """The player to act asks the medium computer player for a suggestion (lit, kept as a hint);
        while a computer player to act could not decide, it is asked again instead."""
        seat = self.state.current_player
        if self._computer_failed():
            self._ask_again()
            return seat
        if seat < 0 or self._away_to_play():
            raise IllegalAction("hint", NO_HINT())
        moves = len(self.match.record.actions)
        self._effects.append(Decide(moves, self.game.name, dict(self.match.record.options), self.state.public_view(),
                                    dict(self.state.private_view(seat)), seat, HINTS.level,
                                    decision_seed(self.decision_key(), moves, hint=True), hint=True,
                                    decider=HINTS.text))
        return seat

    def _play_from_phone(self, seat: int, secret: str | None, text: str) -> str:
        """A phone seat's move (request ``play``), checked against the seat's secret, then for the
        table to carry out as a computer player's is (kept in the journal first, told as
        ``expected``, lit); its public text."""
        self._paired_phone(seat, secret)
        if seat != self.state.current_player:
            raise Refused(NOT_YOUR_TURN(seat=person(seat)))
        state = self.state
        if self.expected is not None and not self.expected.hint:
            public = state.public_action_text(state.action_from_text(self.expected.text))
            raise Refused(ALREADY_PLAYED(seat=person(seat), move=self.game.action_words(public, seat)))
        action = state.action_from_text(text)
        state.apply(action)  # an illegal move is refused here, saying why
        self.expect(Expected(len(self.match.record.actions), seat, text))
        return state.public_action_text(action)

    def _paired_phone(self, seat: int, secret: str | None) -> None:
        """Refuses a request for a phone seat that does not carry the secret only its paired page has."""
        mine = self.seat_secrets.get(seat)
        if mine is None:
            raise Refused(NOT_A_PHONE(seat=person(seat)))
        if not secret:
            raise Refused(NO_SECRET(seat=person(seat)))
        if not hmac.compare_digest(secret.encode(), mine.encode()):
            raise Refused(WRONG_SECRET(seat=person(seat)))

    def _consent(self, seat: int, secret: str | None, agree: bool, to_operator: bool) -> dict[str, Any]:
        """A seat agrees to (or refuses) the takeback asked of it (request ``consent``): a phone seat
        with its secret; a computer's seat by the operator (an answer only the operator reads). The
        last consent takes the move back."""
        asked = self.asked_back
        if asked is None or asked.moves != len(self.match.record.actions):
            raise Refused(NO_TAKEBACK_ASKED())
        if seat not in asked.waits - asked.gave:
            raise Refused(NOT_ASKED(seat=person(seat)))
        part = self.parts[seat]
        if part.paired:
            self._paired_phone(seat, secret)
        elif not to_operator:
            raise Refused(OPERATOR_ANSWERS(seat=person(seat), who=part.said()))
        if not agree:
            self.asked_back = None
            self.event("takeback_refused", seat=seat, **told(TAKEBACK_REFUSED(seat=person(seat))))
            return {"takeback": "refused"}
        gave = asked.gave | {seat}
        if gave < asked.waits:
            self.asked_back = replace(asked, gave=gave)
            return {"waiting": sorted(asked.waits - gave)}
        return {"undone": self._undo(consent=gave), "consent": sorted(gave)}

    def phone_moves(self, player: int) -> list[dict[str, Any]]:
        """What the phone of ``player``, to act, may play: each action's text and the taps that make
        it on the seat page's picture — the channels it changes, what is lifted first, each with the
        taps it takes (a bead put in a pit: one each; any other change: one). Kept for the position."""
        state, counted = self.state, {c.name for c in self.channels if c.kind == ChannelKind.COUNT}
        if self._phone_moves is not None and self._phone_moves[0] is state:
            return self._phone_moves[1]
        before = state.physical_view()
        moves = []
        for action in state.own_actions():
            changes = state.physical_changes(action)
            lifted = sorted(c for c, v in changes.items() if v < before[c])
            put = sorted(c for c in changes if c not in lifted)
            taps = [[c, changes[c] - before[c] if c in counted and c in put else 1] for c in (*lifted, *put)]
            moves.append({"action": state.action_to_text(action), "taps": taps})
        self._phone_moves = (state, moves)
        return moves

    def decided(self, moves: int, text: str, hint: bool = False) -> Outcome:
        """The computer player asked at ``moves`` chose ``text``: a move with no physical trace is
        taken at once; any other is for the table to carry out (kept in the journal first, told as
        ``expected``, lit). A decision for a position the game has left is dropped."""
        if moves != len(self.match.record.actions) or self._away_to_play() == hint or self.over:
            return Outcome()
        if self.expected is not None and not self.expected.hint:
            return Outcome()
        self.failed = None
        self.expect(Expected(moves, self.state.current_player, text, hint))
        return self._outcome(tell=True)

    def decision_failed(self, ask: Decide, error: str) -> Outcome:
        """The computer player asked by ``ask`` raised ``error`` (its kind: an exception's text could
        tell what the seat holds). The table is warned (an event, the status light) and the game
        stays where it was: ``next`` or a ``hint`` request asks again, and so does a restart."""
        if ask.moves != len(self.match.record.actions) or self.over:
            return Outcome()
        if ask.hint:
            self.event("warning", **told(HINT_FAILED(error=error)))
        else:
            self.failed = ask.moves
            self.event("warning", **told(COMPUTER_FAILED(player=person(ask.seat), error=error)))
        return self._outcome(tell=True)

    def expect(self, expected: Expected | None, *, kept: bool = False) -> None:
        """The table is to carry out ``expected`` (``kept``: it is in the journal already, a resume)."""
        if expected is None or expected.moves != len(self.match.record.actions):
            return
        state = self.state
        action = state.action_from_text(expected.text)
        if not kept:
            self.decisions.append(expected)
        if not expected.hint and state.apply(action).physical_view() == self.referee.expected():
            # nothing to carry out (a card programmed, a hand played)
            self._apply_text(expected.text, by=self.parts[expected.player].by)
            return
        self.expected = expected
        carry = self.carry()
        assert carry is not None
        if expected.hint and carry.move != expected.text:  # a hidden move (a card): on the seat's own topic only
            choices = self.choices()
            if expected.text in choices:
                self.choice = choices.index(expected.text)  # `confirm` takes it
            self.event("hint", player=expected.player, **told(HINT_ASKED(player=person(expected.player))))
            return
        said = told(carry.said(self.channels, self.referee.label))
        if expected.hint:
            self.event("hint", player=expected.player, action=carry.move, **said)
        else:
            self.event("expected", player=expected.player, action=carry.move, **said)

    def carry(self) -> CarryOut | None:
        """The move the table is to carry out (``expected``), as :mod:`controller.carry_out` judges and lights it."""
        expected, state = self.expected, self.state
        if expected is None:
            return None
        if self._carry is None or self._carry[0] is not state or self._carry[1] != expected:
            who = COMPUTER() if expected.hint else self.parts[expected.player].said()
            self._carry = (state, expected, CarryOut.of(state, expected.player, expected.text, who,
                                                        self.game.action_words, self.referee.ceiling))
        return self._carry[2]

    def expected_view(self) -> dict[str, int]:
        """What the board shows once the expected move is carried out."""
        carry = self.carry()
        assert carry is not None
        return dict(carry.after)

    def _judge_away(self, settled: bool) -> Verdict:
        """The board while a move decided away from it is due: the lit move carried out (or on its
        way), else a table player's own move that the board may make whoever is to act (a bridge
        laid out of turn), else what the rules ask the table to set up, else wrong: what the seat
        played, or that its move has not come yet."""
        carry = self.carry()
        verdict = carry.judge(self.sensed) if carry is not None else None
        if verdict is not None and verdict.kind == "applied" and carry is not None:
            self.match.apply_text(carry.text)
            return Verdict("applied", (self.match.public_log[-1],))
        if verdict is not None:
            return verdict
        own = self.referee.judge(self.sensed, takeback=False, hold=not settled)
        if own.kind != "violation" or set(own.channels) <= self.setup_channels:
            return own
        if carry is not None:
            return carry.refused(self.sensed, self.referee.describe)
        return waiting(self.parts[self.state.current_player].said(), self.referee.expected(), self.sensed,
                       self.referee.describe, self.referee.ceiling)

    def _still_to_carry_out(self, expected: Expected) -> None:
        """A table player's own move was taken while another seat's move was lit (a bridge laid out of
        turn): a phone's or the other board's lit move stays to carry out when it is still that seat's
        to play; a computer is asked again, at the new position (each decision replays from the
        position and the seed it was taken at: ``arbitro replay`` checks them)."""
        if self.over or self.expected is not None or self.state.current_player != expected.player or \
                self.parts[expected.player].decides:
            return
        try:
            self.state.apply(self.state.action_from_text(expected.text))
        except ValueError:
            return
        self.expect(replace(expected, moves=len(self.match.record.actions)))

    def _carry_out_scene(self, v: Verdict) -> LedScene:
        carry = self.carry()
        assert carry is not None
        return carry.scene(self.state, self.sensed, self.referee.channels,
                           violation=v.channels if v.kind == "violation" else ())
