"""One game on two boards: the sync core, pure (no socket, no clock, no thread).

Two arbitro boards in different places play one game (``docs/remote.md``). The **host** creates it
with ``remote`` seats (``controller.seats``) and gives a :class:`JoinCode`; the **joining** board
starts the same game from it. Each board referees its own seats' moves; every action it accepts
becomes a :class:`Wire` — its sequence number (its place in the game, from 1), its text and a
:func:`digest` of the position it leads to — for the other board. :class:`Sync` is one board's side:
it follows the agreed line of play with its own rules engine, checks every wire that comes in
(next in line, played by the board that owns the seat, legal, leading to the same position), keeps
wires that came ahead of a gap until the gap is filled, ignores a wire it already has, and stops
the game on both sides, saying which action and why, at the first disagreement.

The host alone resolves chance: its outcomes are wires like any action, marked ``drawn``. Its secret
stays on the host until the game is over; then the host's :meth:`Sync.status` carries it and the
joining board checks every drawn outcome against the commitment the join code named
(``controller.games.record.verify``).

With dealt hidden cards (``Game.hides_information``) only the host holds the whole game: wires say
what everyone may see, the joining board's cards go sealed for it, and it checks the host's whole
record at the end (``controller.remote_hidden``).

Each board publishes its :meth:`Sync.status` (retained): how many wires it has, whether it stopped
and why, and (the host, at the end) the secret. A status from the other board tells which of this
board's wires it lacks (:meth:`Sync.peer_status` returns them to send again): after an outage the
boards resynchronise by sequence number, and nothing is applied twice or lost.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from controller.games import CHANCE, IllegalAction, State, get_game
from controller.games.record import ChanceKey, Record, verify
from controller.remote_hidden import Box, apply_seen, check_reveal, hides_information, public_key, seen_by, view_digest
from controller.seats import SEATS, other_board
from controller.seats.remote import mirrored, played_there

__all__ = ["JoinCode", "Stopped", "Sync", "Wire", "digest", "hides_information"]

CODE_PREFIX: Final = "arbitro-join:"
MAX_WIRE_TEXT: Final = 200


def digest(state: State) -> str:
    """A stable digest of a position: SHA-256 of its text (``State.to_text``), 32 hex digits."""
    return hashlib.sha256(state.to_text().encode()).hexdigest()[:32]


@dataclass(frozen=True)
class JoinCode:
    """What the joining board needs to start the host's game: the two boards, the game, the seats
    as the host has them (``remote``: the joining board's), and the host's chance commitment."""

    host: str
    joiner: str
    game: str
    options: dict[str, Any]
    num_players: int
    seats: tuple[str, ...]
    commitment: str
    key: str = ""
    """Hidden cards: the host's public key, to seal the texts only the other board may read."""

    def encode(self) -> str:
        fields = {"host": self.host, "joiner": self.joiner, "game": self.game, "options": self.options,
                  "num_players": self.num_players, "seats": list(self.seats), "commitment": self.commitment}
        body = json.dumps({**fields, **({"key": self.key} if self.key else {})}, sort_keys=True, separators=(",", ":"))
        return CODE_PREFIX + base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> JoinCode:
        """A code from :meth:`encode`; ``ValueError`` saying what is wrong with any other text."""
        if not text.startswith(CODE_PREFIX):
            raise ValueError(f"join: a join code begins with {CODE_PREFIX!r}")
        raw = text[len(CODE_PREFIX):]
        try:
            data = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
            code = cls(str(data["host"]), str(data["joiner"]), str(data["game"]), dict(data["options"]),
                       int(data["num_players"]), tuple(str(s) for s in data["seats"]), str(data["commitment"]),
                       str(data.get("key", "")))
        except (binascii.Error, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"join: not a join code ({exc})") from None
        if not other_board(code.seats) or len(code.seats) != code.num_players:
            raise ValueError("join: the code names no remote seat, or not one seat per player")
        return code

    def joiner_seats(self, local: Sequence[str] = ()) -> tuple[str, ...]:
        """The seats as the joining board has them: the host's are ``remote``; its own are at the
        table, or as ``local`` names them, in order (``bot:<level>``, ``table``)."""
        return mirrored(self.seats, local)


@dataclass(frozen=True)
class Wire:
    """One accepted action on its way to the other board."""

    seq: int
    """Its place in the game's actions, from 1."""
    text: str
    digest: str
    """:func:`digest` of the position it leads to, as the board that accepted it has it."""
    board: str
    """The board that accepted it."""
    drawn: bool = False
    """A chance outcome the host drew with its secret (checked at the end against the commitment)."""
    sealed: str = ""
    """Hidden cards: the whole text, sealed for the receiving board, when ``text`` is only what
    everyone may see of it (``controller.remote_hidden``)."""

    def to_json(self) -> dict[str, Any]:
        body = {"seq": self.seq, "text": self.text, "digest": self.digest, "board": self.board, "drawn": self.drawn}
        return {**body, "sealed": self.sealed} if self.sealed else body

    @classmethod
    def from_json(cls, data: object) -> Wire:
        """A wire from :meth:`to_json`; ``ValueError`` for anything else."""
        if not isinstance(data, dict):
            raise ValueError("a wire is a JSON object")
        seq, text, dig, board, drawn, sealed = (data.get(k) for k in ("seq", "text", "digest", "board", "drawn",
                                                                       "sealed"))
        if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1):
            raise ValueError("a wire's seq is a whole number from 1")
        if not (isinstance(text, str) and 0 < len(text) <= MAX_WIRE_TEXT and isinstance(dig, str)
                and isinstance(board, str) and isinstance(drawn, bool)):
            raise ValueError("a wire has a text, a digest, a board and drawn")
        if not isinstance(sealed, str | None) or len(sealed or "") > 4 * MAX_WIRE_TEXT:
            raise ValueError("a wire's sealed text is a short string")
        return cls(seq, text, dig, board, drawn, sealed or "")


@dataclass(frozen=True)
class Stopped:
    """Why a remote game stopped: at action ``seq``, found by ``board``."""

    seq: int
    reason: str
    board: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "reason": self.reason, "board": self.board}


@dataclass
class Sync:
    """One board's side of a remote game (``me``; the other board is ``peer``). Its :attr:`state`
    follows the agreed line of play, which may run ahead of the board's own game while a move of
    the other board waits to be carried out at this table (:meth:`next_for_table`)."""

    me: str
    code: JoinCode
    seats: tuple[str, ...]  # as this board has them: ``remote`` is the other board's
    state: State = field(init=False)
    log: list[Wire] = field(default_factory=list)
    ahead: dict[int, Wire] = field(default_factory=dict)  # came before a gap: checked once it is filled
    stopped: Stopped | None = None
    peer_have: int = 0
    peer_link: str = ""  # the other board's connection its last status came on (``controller.remote_link``)
    secret: bytes | None = None  # the host's; the joining board's once revealed
    verified: bool = False  # the joining board checked every drawn outcome against the commitment
    key: bytes | None = None  # hidden cards: this board's private key (``controller.remote_hidden.Box``)
    peer_key: str = ""  # hidden cards, the host: the joining board's public key, from its status
    whole: dict[int, str] = field(default_factory=dict)  # hidden cards: seq -> the whole text, where the wire's is not
    arranged: dict[int, State] = field(default_factory=dict)
    """Hidden cards, the joining board: seq -> the position before it, its unseen cards arranged anew."""
    unsealed: dict[int, str] = field(default_factory=dict)  # this board's texts to seal once the key is known
    revealed: dict[str, Any] | None = None  # the host's status with its record, come before its last wires

    def __post_init__(self) -> None:
        self.state = get_game(self.code.game).new_state(self.code.options, self.code.num_players)
        self.hidden = hides_information(self.code.game, self.code.options)
        self.view = played_there(self.code.seats)  # the joiner's seats
        self._box: Box | None = None

    @classmethod
    def resumed(cls, me: str, peer: str, record: Record, seal: bytes | None = None) -> Sync:
        """A remote game the journal kept (after a restart or a power cut): its agreed line rebuilt
        from the record, each action by the board of its seat; the other board's status then says
        what either side lacks. The host is the board that knows the secret (the joining board
        learns it only at the end); the host's seats are ``table`` on the joining board until the
        host's status names them (:meth:`peer_status`). With hidden cards ``seal`` is this board's
        key, as the journal kept it (:meth:`_follow_kept`)."""
        key = record.keys[-1]
        seats = tuple(record.seats)
        host = key.secret is not None
        host_seats = seats if host else mirrored(seats)
        code = JoinCode(me if host else peer, peer if host else me, record.game, dict(record.options),
                        record.num_players, host_seats, key.commitment,
                        public_key(seal) if host and seal is not None else "")
        sync = cls(me, code, seats, key=seal)
        sync.secret = key.secret
        if sync.hidden:
            sync._follow_kept(record)
            return sync
        for i, text in enumerate(record.actions):
            board = sync._owner(sync.state, text)
            sync.state = sync.state.apply(sync.state.action_from_text(text))
            sync.log.append(Wire(i + 1, text, digest(sync.state), board, i in record.drawn))
        return sync

    def _follow_kept(self, record: Record) -> None:
        """Hidden cards: the line of play the journal kept, followed again as it was played. The
        joining board arranges the host's unseen cards anew where they were arranged in play (the
        same positions give the same arrangements); each board's texts the other may read wait to
        be sealed again until its key comes (its status; the joining board's from the host's)."""
        for i, text in enumerate(record.actions):
            seq, before, owner = i + 1, self.state, self._owner(self.state)
            if self.host or owner == self.me:
                self.state = before.apply(before.action_from_text(text))
            else:
                self.state, applied, arranged = apply_seen(before, self.view, text)
                if applied != text:
                    raise IllegalAction(text, f"action {seq} is {applied} when this board follows it again")
                if arranged is not None:
                    self.arranged[seq] = before = arranged
            public = before.public_action_text(before.action_from_text(text))
            self.log.append(Wire(seq, public, self._digest(self.state), owner, i in record.drawn))
            if public != text:
                self.whole[seq] = text
                if owner == self.me and not (self.host and not seen_by(before, self.view, text)):
                    self.unsealed[seq] = text

    @property
    def host(self) -> bool:
        return self.me == self.code.host

    @property
    def peer(self) -> str:
        return self.code.joiner if self.host else self.code.host

    def _owner(self, state: State, text: str = "") -> str:
        """The board whose action ``text`` is at ``state``: the host for chance, else the board that
        seats the action's player, who may not be the player to act (``State.player_of``: a bridge
        a game lets its owner lay out of turn). A text this board cannot read (another board's hidden
        card) is the player to act's."""
        player = state.current_player
        if player == CHANCE:
            return self.code.host
        if text:
            with contextlib.suppress(ValueError):
                player = state.player_of(state.action_from_text(text))
        return self.peer if player in played_there(self.seats) else self.me

    def _digest(self, state: State) -> str:
        """A wire's digest: of the position, or with hidden cards of what the joining board may see."""
        return view_digest(state, self.view) if self.hidden else digest(state)

    def text(self, seq: int) -> str:
        """The whole text of agreed action ``seq`` as this board knows it (its wire's, unless hidden)."""
        return self.whole.get(seq, self.log[seq - 1].text)

    def box(self) -> Box | None:
        """Hidden cards: the seal the two boards share, once this board knows the other's key."""
        theirs = self.peer_key if self.host else self.code.key
        if self._box is None and self.hidden and self.key is not None and theirs:
            try:
                self._box = Box(self.key, theirs, self.code.game)
            except ValueError as exc:
                self.stop(len(self.log), str(exc))
        return self._box

    def _seal(self) -> None:
        """Seal this board's texts for the other board, once its key is known."""
        box = self.box()
        if box is None:
            return
        for seq, text in self.unsealed.items():
            self.log[seq - 1] = replace(self.log[seq - 1], sealed=box.seal(self.me, seq, text))
        self.unsealed.clear()

    def stop(self, seq: int, reason: str, board: str | None = None) -> Stopped:
        if self.stopped is None:
            self.stopped = Stopped(seq, reason, board or self.me)
        return self.stopped

    # -- this board's actions --------------------------------------------------------------------

    def local(self, text: str, drawn: bool = False) -> Wire | None:
        """This board accepted ``text`` as the next action: the wire for the other board (None once
        the game has stopped, or for the other board's move). The board's game only takes a move of
        the other board's seat as the carry-out it lit; when that move is not in the line yet, the
        board agreed it before a restart and its journal lit it again, and the table carried it out
        before the other board resent it: it goes in as the other board's, and the wire that comes
        again must match it. A chance outcome that is not this board's to draw stops the game."""
        if self.stopped is not None:
            return None
        seq = len(self.log) + 1
        owner = self._owner(self.state, text)
        if owner != self.me and (drawn or self.state.current_player == CHANCE):
            self.stop(seq, f"{text} was played here, but action {seq} is {owner}'s to play")
            return None
        before = self.state
        action = before.action_from_text(text)
        self.state = before.apply(action)
        public = before.public_action_text(action) if self.hidden else text
        self.log.append(Wire(seq, public, self._digest(self.state), owner, drawn))
        if owner != self.me:
            return None  # the other board's move, lit again after a restart: its own wire comes again
        if public == text:
            return self.log[-1]
        self.whole[seq] = text
        if self.host and not seen_by(before, self.view, text):
            return self.log[-1]  # the host's own card: the other board never learns it in play
        self.unsealed[seq] = text
        self._seal()
        return self.log[-1] if seq not in self.unsealed else None  # sent once the other board's key is known

    # -- the other board's -----------------------------------------------------------------------

    def receive(self, wire: Wire) -> list[Wire]:
        """A wire from the other board: the wires now agreed, in order (this one and any that waited
        for it), for this board to carry out. A repeat is ignored; one ahead of a gap waits; a wrong
        one stops the game (:attr:`stopped` says which action and why)."""
        if self.stopped is not None:
            return []
        if wire.seq <= len(self.log):
            known = self.log[wire.seq - 1]
            if (known.text, known.digest, known.board) != (wire.text, wire.digest, wire.board):
                self.stop(wire.seq, f"action {wire.seq} is {known.text} here and {wire.text} on {wire.board}")
            return []
        self.ahead[wire.seq] = wire
        agreed: list[Wire] = []
        while len(self.log) + 1 in self.ahead:
            nxt = self.ahead.pop(len(self.log) + 1)
            why = self._wrong(nxt)
            if why is not None:
                self.stop(nxt.seq, f"action {nxt.seq} ({nxt.text}) from {nxt.board}: {why}")
                self.ahead.clear()
                return agreed
            agreed.append(nxt)
        if self.revealed is not None and len(self.log) >= self.revealed["have"]:
            self.peer_status(self.revealed)  # the host's record came before its last wires
        return agreed

    def _wrong(self, wire: Wire) -> str | None:
        """Why ``wire``, next in line, is refused (its board does not play there, the rules refuse
        it, it leads elsewhere), or None: then it is agreed and :attr:`state` follows it."""
        owner = self._owner(self.state, wire.text)
        if wire.board != self.peer or owner != self.peer:
            return f"it is {owner}'s to play"
        if wire.drawn != (self.state.current_player == CHANCE):
            return "a chance outcome must be drawn by the host, and only chance outcomes are"
        before, text, arranged = self.state, wire.text, None
        try:
            box = self.box()
            if wire.sealed:
                if box is None:
                    return "it is sealed, and this board does not yet know the other board's key"
                text = box.open(wire.board, wire.seq, wire.sealed)
            if self.hidden and not self.host:  # the joining board: the host's cards it may not see stay unseen
                after, text, arranged = apply_seen(before, self.view, text)
                before = arranged or before
            else:
                after = before.apply(before.action_from_text(text))
        except IllegalAction as exc:
            return f"the rules refuse it: {exc}"
        except ValueError as exc:
            return f"it cannot be read: {exc}"
        if self.hidden:
            public = before.public_action_text(before.action_from_text(text))
            if public != wire.text:
                return f"its text is {wire.text}, but the action it stands for is {public}"
            if bool(wire.sealed) != (public != text and (self.host or seen_by(before, self.view, text))):
                return "its card is sealed for a board that may not see it, or not sealed for one that may"
        ours = self._digest(after)
        if ours != wire.digest:
            return f"it leads to another position (digest {wire.digest} there, {ours} here)"
        self.state = after
        self.log.append(wire)
        if text != wire.text:
            self.whole[wire.seq] = text
        if arranged is not None:
            self.arranged[wire.seq] = arranged
        return None

    def next_for_table(self, moves: int) -> Wire | None:
        """The agreed action the board's game (at ``moves`` actions) is to take next, when the other
        board played it; None when the board is up to date or the next action is its own."""
        if moves < len(self.log) and self.log[moves].board != self.me:
            return replace(self.log[moves], text=self.text(moves + 1))
        return None

    # -- status, resend and the end --------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """This board's side, for the other board (retained): how many wires it has, whether it
        stopped, the host's seats (its own, so that a joining board that restarted names them as the
        host does), and — the host's, once the game is over — the secret chance was drawn with."""
        revealed = self.host and self.secret is not None and self.state.is_terminal()
        status = {"board": self.me, "peer": self.peer, "have": len(self.log),
                  "stopped": None if self.stopped is None else self.stopped.to_json(),
                  "seats": list(self.code.seats) if self.host else None,
                  "secret": self.secret.hex() if revealed and self.secret is not None else None}
        if self.hidden:  # this board's public key; the host's whole record once it reveals its secret
            status["key"] = public_key(self.key) if self.key is not None else None
            status["texts"] = [self.text(seq) for seq in range(1, len(self.log) + 1)] if revealed else None
        return status

    def peer_status(self, status: dict[str, Any]) -> list[Wire]:
        """The other board's :meth:`status`: this board's wires it lacks, to send again. A stop
        there stops the game here; the host's secret is checked against the commitment."""
        have = status.get("have")
        if status.get("board") != self.peer or not isinstance(have, int):
            return []
        link = status.get("link")
        # A status made before wires the other board has since taken asks for them again: it is
        # stale, and sends nothing. A new connection there (a restart) says afresh what it has.
        stale = have < self.peer_have and (not isinstance(link, str) or link == self.peer_link)
        if isinstance(link, str) and link != self.peer_link:
            self.peer_link, self.peer_have = link, have
        self.peer_have = max(self.peer_have, have)
        stopped = status.get("stopped")
        if isinstance(stopped, dict) and self.stopped is None:
            self.stop(int(stopped.get("seq", 0)), str(stopped.get("reason", "")), str(stopped.get("board", self.peer)))
        seats = status.get("seats")
        if not self.host and isinstance(seats, list) and all(s in SEATS for s in seats) and \
                played_there(seats) == played_there(mirrored(self.seats)):  # the mirror of this board's
            self.code = replace(self.code, seats=tuple(seats))  # the host's seats, as its record names them
        key = status.get("key")
        if self.hidden and self.host and isinstance(key, str) and not self.peer_key:
            self.peer_key = key
            self._seal()
        elif self.hidden and not self.host and isinstance(key, str) and not self.code.key:
            self.code = replace(self.code, key=key)  # resumed: the host's key, which the join code carried
            self._seal()
        secret = status.get("secret")
        if isinstance(secret, str) and not self.host and self.secret is None:
            if self.hidden and len(self.log) < have:
                self.revealed = status  # checked once the wires before it are in
            else:
                self.revealed = None
                self._check_secret(secret, status.get("texts"))
        return [] if stale else [w for w in self.log[have:] if w.board == self.me]

    def _check_secret(self, secret_hex: str, texts: object = None) -> None:
        """The joining board checks every drawn outcome against the host's commitment; with hidden
        cards first the host's whole record (``texts``) against every wire of the game."""
        seq = len(self.log)
        try:
            secret = bytes.fromhex(secret_hex)
        except ValueError:
            self.stop(seq, "the host's secret is not hexadecimal")
            return
        whole: list[str] | None = None
        if self.hidden:
            if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
                self.stop(seq, "the host revealed its secret without its record")
                return
            whole = texts
            known = [self.text(w.seq) if w.board == self.me or w.sealed else None for w in self.log]
            start = get_game(self.code.game).new_state(self.code.options, self.code.num_players)
            end, why = check_reveal(start, self.view, whole, [(w.text, w.digest) for w in self.log], known)
            if why is not None:
                self.stop(seq, f"the host's record does not agree with the game: {why}")
                return
        record = self.record(secret, whole)
        try:
            verify(record)
        except ValueError as exc:  # UnfairRecord, or an action the rules refuse
            self.stop(seq, f"the host's chance does not verify: {exc}")
            return
        if whole is not None:  # the host's cards, all checked: this board's record is the host's
            self.whole = {i + 1: text for i, text in enumerate(whole) if text != self.log[i].text}
            self.state = end
        self.secret = secret
        self.verified = True

    def record(self, secret: bytes | None = None, texts: Sequence[str] | None = None) -> Record:
        """The agreed game as a record (the same on both boards): ``secret`` revealed, if given, and
        the actions ``texts`` (by default as this board knows them: with hidden cards, the joining
        board's own arrangement until the host's record is checked)."""
        actions = list(texts) if texts is not None else [self.text(w.seq) for w in self.log]
        record = Record(self.code.game, dict(self.code.options), self.code.num_players,
                        [ChanceKey(self.code.commitment, secret if secret is not None else self.secret)],
                        actions, {w.seq - 1: 0 for w in self.log if w.drawn}, list(self.code.seats))
        return record

    def record_json(self) -> dict[str, Any]:
        """The record of the remote game, the same on both boards: the agreed actions, the host's
        seats (``remote``: the joining board's), and which board plays each seat."""
        joiners = played_there(self.code.seats)
        boards = [self.code.joiner if p in joiners else self.code.host for p in range(len(self.code.seats))]
        revealed = self.secret is not None and self.state.is_terminal()
        return {**self.record().to_dict(reveal=revealed),
                "boards": {"host": self.code.host, "joiner": self.code.joiner}, "seat_boards": boards}
