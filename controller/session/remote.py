"""A game on two boards (:class:`RemoteGame`): the join code, the wires that keep both boards on one
line of play (``controller.remote``), and the other board's moves lit for the table to carry out."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from controller.games import CHANCE, get_game
from controller.games.base import Phrase
from controller.games.record import ChanceKey, Match, Record
from controller.remote import JoinCode, Sync, Wire, hides_information
from controller.remote_hidden import private_key
from controller.seats import named, other_board, seats_for
from controller.session.away import AwaySeats
from controller.session.outcome import Expected, Outcome, told

log = logging.getLogger("arbitro")

REMOTE_STOPPED = Phrase("remote.stopped", "the remote game stopped at action {seq}: {reason}")


class RemoteGame(AwaySeats):
    """A game whose seats are played at two boards."""

    def _check_remote(self) -> None:
        if not self.peer:
            raise ValueError("seats: a remote seat needs the other board: set [remote] peer")

    def join(self, text: str, seats: Sequence[str] = ()) -> None:
        """Start the host's remote game from its join code (``seats``: who plays this board's seats)."""
        code = JoinCode.decode(text)
        if other_board(seats):
            raise ValueError("join: this board's own seats are at the table or computer players, not remote")
        if code.joiner != self.board.id or code.host != self.peer:
            raise ValueError(f"join: the code is for board {code.joiner!r} to join {code.host!r}; this is "
                             f"{self.board.id!r}, and its [remote] peer is {self.peer!r}")
        g = get_game(code.game)
        opts, players = g.resolve(code.options, code.num_players)
        every_seat = code.joiner_seats(seats)
        seats_for(every_seat, players)
        self.check_board(g, opts, players)
        self._check_remote()
        record = Record(code.game, opts, players, [ChanceKey(code.commitment, None)], seats=named(every_seat))
        self._start(Match(record))
        key = private_key(self.fresh_secret()) if hides_information(code.game, opts) else None
        self._go_remote(Sync(self.board.id, code, every_seat, key=key), None)

    def _go_remote(self, sync: Sync, secret: bytes | None) -> None:
        sync.secret = secret
        self.remote = sync
        self.referee.allow_takeback = False  # the other board has the move already
        self.wires.clear()
        self.status_due = True

    @staticmethod
    def _followed(sync: Sync, record: Record) -> Match:
        """A remote game with hidden cards as this board played it: on the joining board the host's
        unseen cards arranged anew where play arranged them (its record alone does not replay)."""
        match = Match(replace(record, actions=[], drawn={}))
        for wire in sync.log:
            if wire.seq in sync.arranged:
                match.history[-1] = sync.arranged[wire.seq]
            match.apply_text(sync.text(wire.seq))
        match.record.drawn.update(record.drawn)
        return match

    def remote_in(self, kind: str, data: dict[str, Any]) -> Outcome:
        """A message from the other board of a remote game: a ``wire`` (an action it accepted) or its
        ``status`` (what it has; its wires this board lacks are sent again)."""
        sync = self.remote
        if sync is None:
            return Outcome()
        if kind == "wire":
            try:
                wire = Wire.from_json(data)
            except ValueError as exc:
                log.warning("remote: a wire from %s refused: %s", sync.peer, exc)
                return Outcome()
            known = len(sync.log), sync.stopped, bool(sync.ahead)
            sync.receive(wire)
            if (len(sync.log), sync.stopped, bool(sync.ahead)) == known:
                # A repeat, or one more wire past a gap already asked about: no status goes back. Each
                # status asks for the wires it lacks; one status per repeat flooded both loops.
                return Outcome()
            self.status_due = True
        elif kind == "status":
            self.wires += sync.peer_status(data)
        return self._outcome(tell=True)

    def _follow_remote(self) -> None:
        """Keep the game and the remote line of play together: this board's new actions become
        wires for the other board, and the other board's agreed actions come to the table (its
        chance outcomes at once, its moves lit for carry-out as a computer's are)."""
        sync = self.remote
        if sync is None:
            return
        stopped = sync.stopped
        actions = self.match.record.actions
        for i in range(len(sync.log), len(actions)):
            wire = sync.local(actions[i], drawn=i in self.match.record.drawn)
            if wire is not None:
                self.wires.append(wire)
                self.status_due = True
        while (wire := sync.next_for_table(len(actions))) is not None and not self.over:
            arranged = sync.arranged.get(wire.seq)
            if arranged is not None:  # hidden cards: the host's unseen cards arranged anew, as the agreed line has them
                self.match.history[-1] = arranged
            if self.state.current_player == CHANCE:
                self._resolve_chance(wire.text)
                self.match.record.drawn[len(actions) - 1] = 0
            elif self.expected is None or self.expected.moves != len(actions):
                owner = self.state.player_of(self.state.action_from_text(wire.text))  # a bridge may be out of turn
                self.expect(Expected(len(actions), owner, wire.text))
                if self.expected is not None:
                    break  # the table carries it out
            else:
                break
        if stopped is None and sync.stopped is not None:
            self.status_due = True
            self.expected = None
            self.event("warning", **told(REMOTE_STOPPED(seq=sync.stopped.seq, reason=sync.stopped.reason)))
        key = self.match.key
        if sync.verified and key is not None and key.secret is None and sync.secret is not None:
            self.match.record.keys[-1] = ChanceKey(key.commitment, sync.secret)  # revealed and checked: journalled
            if sync.hidden:  # the host's cards, checked: its record replaces this board's arrangement of them
                self._reveal(sync)
        if sync.host and self.over and sync.status()["secret"] is not None:
            self.status_due = True  # the end: the secret goes to the other board

    def _reveal(self, sync: Sync) -> None:
        """The host's whole record, checked at the end of a game with hidden cards, becomes this
        board's game (the journal rewrites what differs)."""
        record = self.match.record
        match = Match(replace(record, actions=[sync.text(w.seq) for w in sync.log], drawn=dict(record.drawn)))
        self.match = self.referee.match = match

    def remote_view(self) -> dict[str, Any] | None:
        """The remote game in the public state: both boards, which board plays each seat, how far
        each has the game, a stop and why, and where a move waits to be carried out."""
        sync = self.remote
        if sync is None:
            return None
        waiting = self.expected is not None and not self.expected.hint and \
            self.parts[self.expected.player].at_other_board
        return {"host": sync.code.host, "joiner": sync.code.joiner, "here": self.board.id,
                "code": sync.code.encode() if sync.host else None, "agreed": len(sync.log),
                "peer_has": sync.peer_have, "stopped": None if sync.stopped is None else sync.stopped.to_json(),
                "carry_out_here": waiting, "verified": sync.verified}

    def outgoing(self) -> tuple[list[Wire], bool]:
        """What this board sends the other board now, taken once: its new wires, and whether its
        status changed (then the status goes too)."""
        wires, due = self.wires, self.status_due
        self.wires, self.status_due = [], False
        return wires, due
