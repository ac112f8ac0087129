"""The table session: one board's game, pure.

A :class:`Session` owns the match, the referee, the sensed board and what the referee made of it
(the verdict), takebacks and undo, the buttons' choice, resignations, and the events that tell
what happened. It has no thread, no clock and no I/O: the service's loop (``controller.service``)
feeds it typed values — sensor readings, link changes, button presses, requests — decides *when*
to judge (the debounce and commit windows), and carries what it says out to the LEDs, the journal
and MQTT.
So every rule of the table is tested without threads or sleeps (``tests/test_session.py``).

Every input returns one :class:`Outcome`: the events, the LED scene, the public and private
states, the answer to a request, and the effects the loop carries out (wire up another game's
board, calibrate the rings, ask the sensor board for a snapshot). The loop reads nothing back.

What it is handed from outside: whether the board wired up can play a game (``check_board``, the
loop's :class:`controller.wiring.Wiring`: the session never sees a sensor index, a HELLO or a
layout), where fresh chance secrets come from (``fresh_secret``), the answers already given to
requests (``answers``, from the journal), and the service's own health (:attr:`Session.health`,
shown in the public state).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from controller import commands
from controller.carry_out import CarryOut, waiting
from controller.commands import RecentAnswers, Refused, request_key
from controller.games import CHANCE, TERMINAL, ChannelKind, Game, IllegalAction, State, get_game
from controller.games.base import Message, Phrase
from controller.games.chance import SCHEME, commitment, seed_secret
from controller.games.record import ChanceKey, Match, Record
from controller.i18n import as_json
from controller.ledview import LedScene, game_colours
from controller.referee import Redo, Referee, Verdict, shortest_turn
from controller.remote import JoinCode, Sync, Wire, hides_information
from controller.remote_hidden import private_key, public_key
from controller.seats import Seat, named, other_board, seat_of, seats_for
from controller.seats.computer import COMPUTER
from controller.words import event_line, in_words

if TYPE_CHECKING:
    from controller.config import BoardConfig

log = logging.getLogger("arbitro")

STATE_SCHEMA = 1
HEALTHY = {"status": "ok"}
PUT_BACK = Phrase("table.put_back", "put the board back as it was: {what}")
SET_UP = Phrase("table.set_up", "set up the board: {what}")
NOTHING_TO_ROLL = Phrase("table.nothing_to_roll", "nothing to roll: no die, card or draw is pending")
NOTHING_TO_UNDO = Phrase("table.nothing_to_undo", "there is nothing to undo")
NO_CHOICE = Phrase("table.no_choice", "there is no choice to confirm")
NO_HINT = Phrase("table.no_hint", "no hint: no player at the table is to act")
REFUSED = Phrase("table.refused", "illegal action {action}: {reason}")
REMOTE_STOPPED = Phrase("remote.stopped", "the remote game stopped at action {seq}: {reason}")
HOST_ROLLS = Phrase("remote.host_rolls", "the host board draws chance in a remote game")
NO_UNDO_REMOTE = Phrase("remote.no_undo", "a remote game cannot be taken back")
# Who may play a phone seat: only a request with the secret the seat's private topic carries.
NOT_A_PHONE = Phrase("seat.not_a_phone", "seat {seat} is not played from a phone on this board")
NO_SECRET = Phrase("seat.no_secret", "seat {seat}: the request carries no seat secret: only the phone paired "
                   "with the seat plays it")
WRONG_SECRET = Phrase("seat.wrong_secret", "seat {seat}: that is not this seat's secret (another seat's, another "
                      "board's or an old one): only the phone paired with the seat plays it")
NOT_YOUR_TURN = Phrase("seat.not_your_turn", "seat {seat}: it is not this seat's turn")
ALREADY_PLAYED = Phrase("seat.already_played", "seat {seat} has played {move}: carry it out on the board")
PLAYED_AWAY = Phrase("seat.played_away", "seat {seat} is played by {who}: the table only carries out its move")
HINT_ASKED = Phrase("table.hint_asked", "{player} asked for a hint: it is on their own seat")
COMPUTER_FAILED = Phrase("table.computer_failed",
                         "the computer player of {player} could not decide ({error}): press next to ask it again")
HINTS = seat_of("bot:medium")  # who a player at the table asks for a hint
GAME_OVER = Phrase("request.game_over", "{command}: the game is over")
NO_PLAYER_TO_ACT = Phrase("request.no_player_to_act", "{command}: no player is to act (a roll is pending)")
NO_SUCH_PLAYER = Phrase("request.no_such_player", "{command}: player must be 0..{last}")
NOTHING_PENDING = Phrase("request.nothing_pending", "{command}: no die, card or draw is pending")
OPERATOR_ENTERS = Phrase("request.operator_enters", "{command}: a hidden draw is entered by the operator only: "
                         "send the request with its answer under the board's response/ topics (the default)")
NOT_AN_OUTCOME = Phrase("request.not_an_outcome", "{command}: {value} is not a possible outcome")
NOT_AN_OUTCOME_OF = Phrase("request.not_an_outcome_of", "{command}: {value} is not a possible outcome; possible: "
                           "{possible}")
NOT_ACCEPTED = Phrase("request.not_accepted", "{reason}")  # in the words of the game, seat or board that refused it
INTERNAL_ERROR = Phrase("request.internal_error", "{command}: an internal error stopped it (the service's log has "
                        "the details)")
HINT_FAILED = Phrase("table.hint_failed", "no hint: the computer player could not decide ({error})")


def carry_hint(expected: Expected | None) -> bool:
    """Nothing lit to carry out but, at most, a hint (which the table's own move may pass by)."""
    return expected is None or expected.hint


def told(said: Message | None) -> dict[str, Any]:
    """What is said, for an event or the state: its English ``message`` with its ``code`` and
    ``params`` (``controller.i18n`` says it in the board's language at the edge)."""
    return {} if said is None else {"message": said.text, **as_json(said)}


class OperatorOnly(Refused):
    """A refusal whose full words (``operator``) tell hidden information: told only in an answer
    the operator alone reads; everywhere else (the answers kept for repeats) it is ``said``."""

    def __init__(self, said: Message, operator: Message) -> None:
        super().__init__(said)
        self.operator = operator


@dataclass(frozen=True)
class TakeBoard:
    """The session took a game: the loop wires up its board (another game's layout, the strip sized for it)."""

    game: str


@dataclass(frozen=True)
class CalibrateRings:
    """The ring encoders start at these offsets (where the game wants each ring); the loop senses them back."""

    offsets: dict[str, int]


@dataclass(frozen=True)
class RequestSnapshot:
    """Another board: the sensor board is asked for every channel at once."""


@dataclass(frozen=True)
class Decide:
    """A computer player is to decide (``controller.players.decide``) off the loop, with only what
    its seat may know: the public and its private view, and a seed made from the game's public
    commitment and the move number (the same game replays the same decisions). The loop hands the
    answer back with :meth:`Session.decided`."""

    moves: int
    game: str
    options: dict[str, Any]
    public_view: dict[str, Any]
    private_view: dict[str, Any]
    seat: int
    level: str
    seed: str
    hint: bool = False  # a hint the seat's player asked for, not a computer player's move
    decider: str = ""  # the seat text of who decides (``controller.seats``): the seat's own, or a hint's computer


Effect = TakeBoard | CalibrateRings | RequestSnapshot | Decide


# The public state and each seat's private one (None: told nowhere).
Told = tuple[dict[str, Any], tuple[dict[str, Any] | None, ...]]


@dataclass(frozen=True)
class Expected:
    """A move a computer player decided (or a hint suggested), for the table to carry out: at
    ``moves`` actions into the game, ``player``'s action ``text``."""

    moves: int
    player: int
    text: str
    hint: bool = False


@dataclass(frozen=True)
class Outcome:
    """What one input made of the table, for the loop to carry out in this order: the ``effects``,
    the LEDs (``scene``; None: unchanged), then — when there is something to tell (``public`` is
    not None) — the journal, the ``events``, the public state, each seat's ``private`` state and
    the ``answer`` to a request. ``sensed``: a reading changed the board (``clean``: into exactly
    one legal move, which may be judged at once); ``verdict``: what a judgement found; ``held``: a
    verdict the hands may still change waits (judged again once the commit window is over)."""

    effects: tuple[Effect, ...] = ()
    scene: LedScene | None = None
    events: tuple[dict[str, Any], ...] = ()
    states: Callable[[], Told] | None = field(default=None, repr=False, compare=False)
    """Works out the public and private states, once, when first asked for: the loop shows the LEDs first."""
    answer: tuple[bool, Any] | None = None
    refusal: Message | None = None  # why a rule refused the request (the loop says it in the board's language)
    sensed: bool = False
    clean: bool = False
    verdict: Verdict | None = None
    held: bool = False

    @functools.cached_property
    def _told(self) -> Told | tuple[None, tuple[()]]:
        return (None, ()) if self.states is None else self.states()

    @property
    def public(self) -> dict[str, Any] | None:
        return self._told[0]

    @property
    def private(self) -> tuple[dict[str, Any] | None, ...]:
        return self._told[1]


class Session:
    """One board's game. Feed it with :meth:`opened`, :meth:`sense`, :meth:`snapshot`,
    :meth:`link_up`, :meth:`link_down`, :meth:`button`, :meth:`request`; :meth:`judge` when the
    board has settled. Each returns the :class:`Outcome` the loop carries out."""

    def __init__(self, board: BoardConfig, *, check_board: Callable[[Game, dict[str, Any], int], None],
                 fresh_secret: Callable[[], bytes], answers: RecentAnswers | None = None, peer: str = "") -> None:
        self.board = board
        self.peer = peer  # the other board of a remote game ([remote] peer); "": none
        self.check_board = check_board  # refuses (ValueError) a game the board wired up cannot play
        self.fresh_secret = fresh_secret
        self.answers = answers or RecentAnswers()
        self.game: Game = get_game(board.game)
        self.link_is_up = False
        self.board_known = False  # a snapshot has come since the link (re)connected
        self.sensed: dict[str, int] = {}
        self.verdict = Verdict("in_sync")
        self.held: Verdict | None = None
        """What the board shows while the hands may still be moving, neither carried out nor told
        (:meth:`judge` with ``settled=False``); the LEDs show a held move at once (:attr:`preview`)."""
        self.preview: State | None = None
        self.ghost: tuple[int, int, Redo] | None = None
        """The last change taken from the board, while nobody has acted since — (actions before it,
        actions after it, what a takeback undid): the hands may yet show that they only rested on the
        way (:meth:`Referee.correct`)."""
        self.restoring = False  # an undo asks for the board to be put back
        self.choice = 0
        self.resigned: int | None = None
        self.serial = 0  # counts the games taken: the journal starts an entry when it changes
        self.health: dict[str, str] = HEALTHY  # what the loop says of the service itself (its journal)
        self.refusal: Message | None = None
        """Why the last :meth:`request` was refused, when a rule refused it (its answer is its English text)."""
        self.expected: Expected | None = None  # the move the table is to carry out (a bot's, a hint)
        self.asked: int | None = None  # the move number a computer player was asked to decide at
        self.failed: int | None = None  # ... and could not decide at (the status light warns; `next` asks again)
        self.decisions: list[Expected] = []  # decided, not yet in the journal
        self.seat_secrets: dict[int, str] = {}  # phone seat -> the secret its requests carry (its private topic only)
        self._phone_moves: tuple[State, list[dict[str, Any]]] | None = None  # a position, what its phone may play
        self.remote: Sync | None = None  # a game on two boards (controller.remote)
        self.wires: list[Wire] = []  # this board's actions for the other board, sent once in the journal
        self.status_due = False  # the remote status changed: the loop publishes it
        self._outbox: list[dict[str, Any]] = []
        self._effects: list[Effect] = []
        self._parts: tuple[tuple[str, ...], tuple[Seat, ...]] = ((), ())
        self._carry: tuple[State, Expected, CarryOut] | None = None

    def _outcome(self, tell: bool, show: bool = True, **found: Any) -> Outcome:
        """The outcome of an input: what it queued, the LED scene (``show``) and, when there is
        anything to tell (``tell``, or an event), the public and private states."""
        self._follow_remote()  # the other board's actions first: a computer player may be to play after them
        self._ask_the_computer()
        events, self._outbox = tuple(self._outbox), []
        effects, self._effects = tuple(self._effects), []
        held = self.held is not None
        if not (tell or events):
            return Outcome(effects, self.scene() if show else None, held=held, **found)
        outcome = Outcome(effects, self.scene(), events, self._states, held=held, **found)
        if effects:  # the loop carries them out first, and they may change the session: the states are as it was
            outcome.public  # noqa: B018  # worked out now
        return outcome

    def _states(self) -> Told:
        """The public state and each seat's private state, as an :class:`Outcome` tells them. A
        computer's seat and the other board's seats have nothing told here (None): a computer's
        view goes to its Decide alone, the other board's are theirs."""
        return self.public_state(), tuple(self.private_state(p) if seat.told_privately else None
                                          for p, seat in enumerate(self.parts))

    # -- the game ------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def seats(self) -> tuple[str, ...]:
        """Who plays each seat (``controller.seats``): a game recorded without seats is played at the table."""
        return seats_for(self.match.record.seats, self.state.num_players)

    @property
    def parts(self) -> tuple[Seat, ...]:
        """The seats as parts (``controller.seats``): what each seat may do, asked of the seat."""
        seats = self.seats
        if self._parts[0] != seats:
            self._parts = (seats, tuple(seat_of(text) for text in seats))
        return self._parts[1]

    @property
    def over(self) -> bool:
        stopped = self.remote is not None and self.remote.stopped is not None
        return self.state.is_terminal() or self.resigned is not None or stopped

    def new_game(self, game: str, options: dict[str, Any] | None, num_players: int, seed: int,
                 seats: Sequence[str] = ()) -> None:
        """Start a game (``seats``: who plays each seat, ``controller.seats``); refuses
        (``ValueError``) before it changes anything."""
        g = get_game(game)
        opts, players = g.resolve(options, g.players(num_players))  # checked before a seat is counted
        every_seat = list(seats_for(seats, players))
        self.check_board(g, opts, players)  # another game needs its own board: the one wired up
        if other_board(every_seat):
            self._check_remote()
        secret = seed_secret(seed) if seed >= 0 else self.fresh_secret()  # an explicit seed: predictable, for tests
        match = Match(Record(game, opts, players, [ChanceKey.of(secret)], seats=named(every_seat)))
        self._start(match)
        if other_board(every_seat):  # the host of a remote game: its join code for the other board
            key = private_key(self.fresh_secret()) if hides_information(game, opts) else None
            code = JoinCode(self.board.id, self.peer, game, opts, players, tuple(every_seat), commitment(secret),
                            public_key(key) if key is not None else "")
            self._go_remote(Sync(self.board.id, code, code.seats, key=key), secret)
            log.info("remote game: join code for %s: %s", self.peer, code.encode())
        log.info("new game: %s, %d players (%s)", g.title, players, in_words(opts))
        self._auto_chance()

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

    def _start(self, match: Match) -> None:
        other_board = match.record.game != self.game.name
        self.take(match)
        if other_board:  # read the new board afresh
            self.sensed = {}
            self.board_known = False
            self._effects.append(RequestSnapshot())

    def resume(self, record: Record, resigned: int | None = None, seal: bytes | None = None) -> None:
        """Carry on with ``record`` (the journal's last game; ``resigned``: the player who resigned
        it; ``seal``: a remote game's sealing key, with hidden cards); ``ValueError`` when it cannot
        go on on this board (an illegal action, another game's board)."""
        remote = other_board(record.seats) and self.peer
        if remote and hides_information(record.game, record.options) and seal is None:
            raise ValueError("a remote game with hidden cards cannot go on without its sealing key (docs/remote.md)")
        self.check_board(get_game(record.game), record.options, record.num_players)
        seats_for(record.seats, record.num_players)
        if resigned is not None and not 0 <= resigned < record.num_players:
            raise ValueError(f"player {resigned} resigned, but the game has {record.num_players} players")
        sync = Sync.resumed(self.board.id, self.peer, record, seal) if remote else None
        # Every action re-checked by the rules engine (the joining board's of a dealt game: as it followed them).
        match = Match(record) if sync is None or not sync.hidden else self._followed(sync, record)
        self.take(match)
        self.resigned = resigned
        if sync is not None:  # a remote game goes on: the other board resends what is missing
            self._go_remote(sync, record.keys[-1].secret)

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

    def opened(self, notices: list[Message]) -> Outcome:
        """The table is switched on, with the game the journal resumed (if any; else the configured
        game starts) and ``notices`` for the operator (a journal set aside)."""
        if self.serial == 0:
            self.new_game(self.board.game, self.board.options, self.board.num_players, self.board.seed,
                          self.board.seats)
        for message in notices:  # told once the board has its game
            self.event("warning", **told(message))
        return self._outcome(tell=True)

    def take(self, match: Match) -> None:
        """Make ``match`` the game on this board."""
        g = get_game(match.record.game)
        if match.key is None:  # a game begun before fair dice (an older journal): fair from now on
            match.rekey(self.fresh_secret())
        self.game = g
        self.match = match
        self.channels = g.channels(match.record.options, match.record.num_players)
        self.kinds = {c.name: c.kind for c in self.channels}
        self.referee = Referee(match, self.channels, allow_takeback=self.board.allow_takeback,
                               from_board=frozenset(p for p, seat in enumerate(self.parts) if seat.at_table))
        self.verdict = Verdict("in_sync")
        self.held = self.preview = self.ghost = None
        self.resigned = None
        self.answers.clear()  # a request id names a request within one game
        self.restoring = False
        self.choice = 0
        self.expected = self.asked = self.failed = None
        # Each phone seat's secret, made afresh for every game (and every start): an old one plays nothing.
        phones = [p for p, seat in enumerate(self.parts) if seat.paired]
        key = self.fresh_secret() if phones else b""
        self.seat_secrets = {p: hashlib.blake2b(f"{self.board.id}/{p}".encode(), key=key, digest_size=32).hexdigest()
                             for p in phones}
        self.remote = None
        # A new game starts with the board to set up: what differs is shown, not flagged.
        self.setup_channels: set[str] = {c.name for c in self.channels}
        if self.board_known:
            self._seen_set_up(list(self.sensed))
        self.serial += 1
        # The loop wires up the game's board (the strip sized for it) and starts its rings where the game wants them.
        self._effects += [TakeBoard(g.name), CalibrateRings(self.ring_offsets())]

    def ring_offsets(self) -> dict[str, int]:
        """Where the game wants each ring (the encoders are calibrated to it as a game starts)."""
        return {c: v for c, v in self.referee.expected().items() if self.kinds[c] == ChannelKind.OFFSET}

    # -- what the table senses -------------------------------------------------------------------

    def sense(self, channel: str, value: int) -> Outcome:
        """A logical channel reads ``value`` (the loop translated the sensor board's index); it counts
        once the board is known (a ring's offset always does)."""
        if not self.board_known and self.kinds.get(channel) != ChannelKind.OFFSET:
            return Outcome()
        self.sensed[channel] = value
        self._seen_set_up((channel,))
        return Outcome(sensed=True, clean=self.clean_move())

    def snapshot(self, readings: Mapping[str, int]) -> Outcome:
        """Every sensor at once, by channel (after a (re)connect): the board is known."""
        self.sensed.update(readings)
        self.board_known = True
        self._seen_set_up(readings)
        return Outcome(sensed=True, clean=self.clean_move())

    def _seen_set_up(self, channels: Iterable[str]) -> None:
        """A place the rules asked the table to set up, seen as the game wants it, is set up: a change
        there from now on is a move (or a mistake) again."""
        if self.setup_channels:
            expected = self.referee.expected()
            self.setup_channels -= {c for c in channels if self.sensed.get(c, 0) == expected.get(c, 0)}

    def link_up(self, warning: Message | None = None) -> Outcome:
        """The sensor board said HELLO, and it is the board wired up (``warning``: its configuration
        was flashed from another layout or calibration, which the loop found)."""
        self.link_is_up = True
        self.event("link", up=True)
        if warning is not None:
            self.event("warning", **told(warning))
        return self._outcome(tell=True)

    def link_down(self, reason: str) -> Outcome:
        self.link_is_up = False
        self.board_known = False  # judge nothing on stale readings; a snapshot follows the reconnect
        self.event("link", up=False, reason=reason)
        return self._outcome(tell=True)

    def error(self, message: Message) -> Outcome:
        """The board cannot be refereed (the sensor board is not the one of the layout): told, then the loop stops."""
        self.event("error", **told(message))
        return self._outcome(tell=True)

    def clean_move(self) -> bool:
        """True when the sensed board is exactly one legal action's view and no part of another, with
        no ring turned: it may be judged at once, without waiting for the debounce window (and is
        taken at once only if nothing else could follow from it: see :meth:`judge`)."""
        if not self.board_known or self.over or self.restoring or self.setup_channels:
            return False
        carry = self.carry()
        if carry is not None and not carry_hint(self.expected) and carry.judge(self.sensed) == Verdict(
                "applied", (carry.move,)):
            return True  # the lit move, carried out
        return self.referee.clean_move(self.sensed)  # a table player's own move (away: laid out of turn)

    # -- judging ---------------------------------------------------------------------------------

    def judge(self, settled: bool = True) -> Outcome:
        """Judge the board (see :meth:`_judged`); a verdict held is shown on the LEDs, not told."""
        verdict = self._judged(settled)
        return self._outcome(tell=self.held is None, verdict=verdict)

    def _commit(self) -> None:
        """A button pressed or a request made: the hands are done, so a held verdict is judged as the
        board stands, before the game changes otherwise."""
        if self.held is not None:
            self._judged(settled=True)
        self.referee.finish()  # the choices a button or a request picks among are all known

    def prepare(self) -> Outcome | None:
        """A step of building the next move table (the loop takes one while it is idle); once the
        table is complete, the outcome that shows it (the LEDs, the state and the seats)."""
        return None if self.referee.prepare() else self._outcome(tell=True)

    def _judged(self, settled: bool) -> Verdict:
        """What the board shows: apply it, take back, or say what is wrong.

        ``settled=False`` while the hands may still be moving (the board has not been still for the
        commit window): a move that could still become another, a takeback and anything wrong are
        neither carried out nor told but :attr:`held` (a held move shows on the LEDs at once), and
        the loop judges again, settled, once the board has been still. A move nothing else could
        follow from (``Referee.final``), progress and a board put right are taken at once."""
        if not self.board_known:  # stale readings: nothing is judged, nothing held
            self.held = self.preview = None
            return self.verdict
        if self.over:
            verdict = Verdict("in_sync") if self.sensed_matches() else Verdict("progress")
        elif self.restoring:
            if self.sensed_matches():
                self.restoring = False
                verdict = Verdict("in_sync")
            else:
                verdict = Verdict("violation", channels=self.differing(),
                                  said=PUT_BACK(what=self.referee.describe(self.referee.expected(), self.sensed)))
        elif self._away_to_play() or not carry_hint(self.expected):
            verdict = self._judge_away(settled)
        else:
            ghost = self.ghost if self.ghost is not None and self.ghost[1] == len(self.match.record.actions) else None
            verdict = self.referee.judge(self.sensed, takeback=not self.setup_channels, hold=not settled,
                                         ghost=None if ghost is None else (ghost[0], ghost[2]))
            if self.referee.corrected is not None:  # the last change from the board was only on the way
                self.setup_channels.clear()  # what chance asked after it, it asks again if it still does
                self.event("corrected", undone=self.referee.corrected, actions=list(verdict.actions),
                           **told(verdict.said))
        if verdict.kind == "in_sync" or (verdict.kind == "applied" and not verdict.held):
            self.setup_channels.clear()  # the board is set up: mistakes are mistakes again
        elif verdict.kind == "violation" and set(verdict.channels) <= self.setup_channels:
            # What a new game, a die, a draw or a fallen piece asks the table to do: not a mistake,
            # whoever is to act next.
            verdict = Verdict("setup", channels=verdict.channels,
                              said=SET_UP(what=self.referee.describe(self.referee.expected(), self.sensed)))
        if not settled and (verdict.held or verdict.kind in ("violation", "ambiguous", "setup")):
            self.held, self.preview = verdict, self.referee.preview
            return verdict
        self.held = self.preview = None
        before = self.verdict
        self.verdict = verdict
        if verdict.kind == "applied":
            start = len(self.match.record.actions) - len(verdict.actions)
            expected = self.expected
            carried = expected is not None and not expected.hint and self.match.record.actions[start:] == [
                expected.text]
            self._announce(len(verdict.actions), by=self.parts[expected.player].by if carried and expected else "board")
            self.expected = None
            self.choice = 0
            self._after_action()
            self.ghost = (start, len(self.match.record.actions), ())
            if expected is not None and not carried and not expected.hint:
                self._still_to_carry_out(expected)
        elif verdict.kind == "takeback":
            self.event("takeback", actions=list(verdict.actions))
            self.choice = 0
            now = len(self.match.record.actions)
            self.ghost = (now, now, self.referee.taken_back)
        elif verdict.kind in ("violation", "ambiguous", "setup") and verdict != before:
            self.event(verdict.kind, **told(verdict.said), channels=list(verdict.channels),
                       choices=len(verdict.actions))
        elif verdict.kind == "in_sync" and before.kind == "violation":
            self.event("resolved")
        return verdict

    # -- a remote game ---------------------------------------------------------------------------

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

    # -- computer players ------------------------------------------------------------------------

    def _away_to_play(self) -> bool:
        """The seat to act plays away from the table (a computer player, a phone, the other board):
        the table carries out its move."""
        player = self.state.current_player
        return not self.over and player >= 0 and not self.parts[player].at_table

    def _paired_to_play(self) -> bool:
        """The seat to act plays from a paired page (a phone): its move comes as a request."""
        return self._away_to_play() and self.parts[self.state.current_player].paired

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
        commitment = self.fairness()["commitment"]
        self._effects.append(Decide(moves, self.game.name, dict(self.match.record.options), self.state.public_view(),
                                    dict(self.state.private_view(seat)), seat, part.level, f"{commitment}:{moves}",
                                    decider=part.text))

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
                                    f"{self.fairness()['commitment']}:{moves}:hint", hint=True, decider=HINTS.text))
        return seat

    def _play_from_phone(self, seat: int, secret: str | None, text: str) -> str:
        """A phone seat's move (request ``play``), checked against the seat's secret, then for the
        table to carry out as a computer player's is (kept in the journal first, told as
        ``expected``, lit); its public text."""
        mine = self.seat_secrets.get(seat)
        if mine is None:
            raise Refused(NOT_A_PHONE(seat=seat))
        if not secret:
            raise Refused(NO_SECRET(seat=seat))
        if not hmac.compare_digest(secret.encode(), mine.encode()):
            raise Refused(WRONG_SECRET(seat=seat))
        if seat != self.state.current_player:
            raise Refused(NOT_YOUR_TURN(seat=seat))
        state = self.state
        if self.expected is not None and not self.expected.hint:
            raise Refused(ALREADY_PLAYED(seat=seat, move=state.public_action_text(
                state.action_from_text(self.expected.text))))
        action = state.action_from_text(text)
        state.apply(action)  # an illegal move is refused here, saying why
        self.expect(Expected(len(self.match.record.actions), seat, text))
        return state.public_action_text(action)

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
            self.event("warning", **told(COMPUTER_FAILED(player=f"player {ask.seat}", error=error)))
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
            self.event("hint", player=expected.player, **told(HINT_ASKED(player=f"player {expected.player}")))
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
            self._carry = (state, expected, CarryOut.of(state, expected.player, expected.text, who))
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
                       self.referee.describe)

    def _still_to_carry_out(self, expected: Expected) -> None:
        """A table player's own move was taken while another seat's move was lit (a bridge laid out of
        turn): the lit move stays to carry out when it is still that seat's to play, else it goes
        (a computer is asked again; a phone plays again)."""
        if self.over or self.expected is not None or self.state.current_player != expected.player:
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

    def _to_pick(self, state: State) -> bool:
        """A person at the table is to pick a move in ``state``: the LEDs light the legal ones. A
        seat played away (a computer, a phone) never has them lit (they may tell what it holds):
        only the move it decided."""
        return state.current_player >= 0 and self.parts[state.current_player].at_table

    def sensed_matches(self) -> bool:
        return all(self.sensed.get(c, 0) == v for c, v in self.referee.expected().items())

    def differing(self) -> tuple[str, ...]:
        return tuple(sorted(c for c, v in self.referee.expected().items() if self.sensed.get(c, 0) != v))

    def _after_action(self) -> None:
        self.expected = None  # carried out, or passed by (a hint not taken)
        if self.state.is_terminal():
            self.event("game_over", winners=self.state.winners(), scores=list(self.state.scores()),
                       fair=self.fairness())
        self._auto_chance()

    def _auto_chance(self) -> None:
        if self.board.chance == "auto" and (self.remote is None or self.remote.host):
            while self.state.current_player == CHANCE:
                self._resolve_chance()

    def _resolve_chance(self, text: str | None = None) -> str:
        if self.state.current_player != CHANCE:
            raise IllegalAction(text or "roll", NOTHING_TO_ROLL())
        view = self.referee.expected()
        if text is None and self.remote is not None and not self.remote.host:
            raise IllegalAction("roll", HOST_ROLLS())
        if text is None:
            self.match.resolve_chance()
        else:
            self.match.apply_text(text)
        self.setup_channels |= {c for c, v in self.referee.expected().items() if view[c] != v}
        applied = self.match.public_log[-1]
        self._announce(1, by="chance")
        self._after_action()
        return applied

    def _apply_text(self, text: str, by: str) -> str:
        self.match.apply_text(text)
        applied = self.match.public_log[-1]
        self._announce(1, by=by)
        self.choice = 0
        self._after_action()
        return applied

    def _announce(self, count: int, by: str) -> None:
        """Events for the last ``count`` actions: each action (or chance outcome), then whatever it
        made happen (a capture, a tower, a crash, the rings aligning). A chance outcome among them (done
        again by a correction) is told as one."""
        before = self.match.history[-count - 1:-1]
        for state, record_text, text, happened in zip(before, self.match.record.actions[-count:],
                                                      self.match.public_log[-count:], self.match.announced[-count:],
                                                      strict=True):
            if by == "chance" or state.current_player == CHANCE:
                self.event("chance", outcome=text)
            else:  # the action's owner, who may not be the player to act (a bridge laid out of turn)
                self.event("action", action=text, by=by, player=state.player_of(state.action_from_text(record_text)))
            for item in happened:
                self.event(item["type"], **{k: v for k, v in item.items() if k != "type"})

    def _undo(self) -> str:
        if self.remote is not None:
            raise IllegalAction("undo", NO_UNDO_REMOTE())
        if self.over:  # the end revealed the secret: the game goes on with a fresh one
            self.match.rekey(self.fresh_secret())
        if self.resigned is not None:  # the resignation is what is taken back
            self.event("undo", action=f"resign {self.resigned}")
            self.resigned = None
            return "resign"
        if len(self.match.record.actions) == 0:
            raise IllegalAction("undo", NOTHING_TO_UNDO())
        undone = self.match.public_log[-1]
        self.match.undo()
        # Chance steps are taken back with the move they followed.
        while self.state.current_player == CHANCE and self.match.record.actions:
            undone = self.match.public_log[-1]
            self.match.undo()
        self.restoring = not self.sensed_matches()
        self.expected = None  # for a position the game has left
        self.event("undo", action=undone)
        return undone

    # -- buttons ---------------------------------------------------------------------------------

    def button(self, name: str, held: bool = False) -> Outcome:
        """A table button pressed (``held``: kept down for its second meaning)."""
        self._commit()
        self._press(name, held)
        return self._outcome(tell=True)

    def _press(self, name: str, held: bool) -> None:
        log.info("button %s%s", name, " (held)" if held else "")
        self.ghost = None  # someone acted: the last move from the board stands
        try:
            if name == "roll" and not held:
                self._resolve_chance()
            elif name == "undo" and held:  # hold undo: a new game with the same settings
                record = self.match.record
                self.new_game(self.game.name, record.options, record.num_players, -1, record.seats)
                self.event("new_game", game=self.game.name, num_players=self.match.record.num_players)
            elif name == "undo":
                self._undo()
            elif name == "next" and self._computer_failed():
                self._ask_again()
            elif name == "next" and held and not self.choices():  # nothing to go back among: a hint
                self._ask_hint()
            elif name == "next":
                options = self.choices()
                if options:
                    self.choice = (self.choice + (-1 if held else 1)) % len(options)
                    # Moves the board shows are public. A choice among silent actions (a card to
                    # program) is the player's secret, and so is how often `next` was pressed (it
                    # tells which card): it goes to player/<n> only, with no public trace at all.
                    if self.board_choices():
                        self.event("choice", player=self.state.current_player, action=options[self.choice],
                                   index=self.choice, of=len(options))
            elif name == "confirm" and self._away_to_play():
                raise IllegalAction("confirm", NO_CHOICE())
            elif name == "confirm":
                options = self.choices()
                if not options:
                    raise IllegalAction("confirm", NO_CHOICE())
                self._apply_text(options[self.choice % len(options)], by="button")
        except IllegalAction as exc:
            self.event("refused", **told(REFUSED(action=exc.action, reason=exc.refusal)))

    def choices(self) -> list[str]:
        """What ``next``/``confirm`` pick from: the moves an ambiguous board fits, or the move a
        board on the way to another already shows (a crash), else the actions with no physical trace."""
        return self.board_choices() or (self.referee.silent_actions() if self.state.current_player >= 0 else [])

    def board_choices(self) -> list[str]:
        """The moves the board itself shows, to choose among (public: everyone sees the board)."""
        return list(self.verdict.actions) if self.verdict.kind in ("ambiguous", "progress") else []

    # -- requests --------------------------------------------------------------------------------

    def request(self, name: str, args: dict[str, Any], request_id: str | int | None = None, *,
                to_operator: bool = False) -> Outcome:
        """Run a request once; the outcome's ``answer`` is ``(ok, result or error)``. A refusal changes
        nothing, so it tells nothing (its answer is still journalled before it goes out) but the held
        verdict it commits (any request but ``state`` does)."""
        committed = name != "state" and self.held is not None
        if name != "state":
            self._commit()
        ok, result = self._answer(name, args, request_id, to_operator)
        return self._outcome(tell=ok, show=ok or committed, answer=(ok, result), refusal=self.refusal)

    def _answer(self, name: str, args: dict[str, Any], request_id: str | int | None,
                to_operator: bool) -> tuple[bool, Any]:
        """Run a request once: ``(ok, result or error)``. The same request repeated with its id in
        the same game gets the first answer again and runs no more (the loop saves :attr:`answers`;
        a new game starts with none, so an id used in an earlier game runs afresh).

        ``to_operator``: the answer goes where only the operator reads it (the board's ``response/``
        tree, under the broker's ACL). Only such an answer may tell what a hidden draw can still
        give; the answers kept for repeats never do."""
        self.refusal = None
        key = None if request_id is None or name == "state" else request_key(name, request_id, args)
        answered = self.answers.get(key) if key is not None else None
        if answered is not None:
            return answered
        told = None
        try:
            ok, result = True, self._run(name, commands.check(name, args), to_operator)
        except OperatorOnly as exc:
            self.refusal = exc.operator if to_operator else exc.said
            ok, result, told = False, str(exc), exc.operator.text if to_operator else None
        except Refused as exc:
            ok, result, self.refusal = False, str(exc), exc.said
        except IllegalAction as exc:  # a rule refused it: said in the board's language at the edge
            ok, result, self.refusal = False, str(exc), REFUSED(action=exc.action, reason=exc.refusal)
        except ValueError as exc:  # a setting the game, the seats or the board cannot take, in its own words
            self.refusal = NOT_ACCEPTED(reason=str(exc))
            ok, result = False, self.refusal.text
        except Exception:  # a fault of arbitro's, not of the request: never passed off as a refusal
            log.exception("request %s (id %r) failed", name, request_id)
            self.refusal = INTERNAL_ERROR(command=name)
            ok, result = False, self.refusal.text
        if key is not None:
            self.answers.add(key, ok, result)
        return ok, told or result

    def _run(self, name: str, args: dict[str, Any], to_operator: bool) -> Any:
        if self.over and not commands.COMMANDS[name].after_the_end:
            raise Refused(GAME_OVER(command=name))
        if name == "state":
            return self.public_state()
        self.ghost = None  # someone acted: the last move from the board stands
        if name == "new_game":
            game = args.get("game", self.game.name)
            seed = args.get("seed", -1)
            self.new_game(game, args.get("options", {}), args.get("num_players", 0), seed, args.get("seats", ()))
            self.event("new_game", game=game, num_players=self.match.record.num_players)
            # A seed named by the request is told back; a fresh secret is never (its commitment is).
            return {"game": game, "seed": seed} if seed >= 0 else {"game": game}
        if name == "join":  # the other board's remote game, from its join code
            self.join(args["code"], args.get("seats", ()))
            self.event("new_game", game=self.game.name, num_players=self.match.record.num_players)
            return {"game": self.game.name, "host": self.peer}
        if name == "undo":
            return {"undone": self._undo()}
        if name == "roll":
            return {"outcome": self._resolve_chance()}
        if name == "enter":
            return {"outcome": self._resolve_chance(self._outcome_named(str(args["value"]), to_operator))}
        if name == "choose":
            if self.state.current_player < 0:
                raise Refused(NO_PLAYER_TO_ACT(command=name))
            if self._away_to_play():
                player = self.state.current_player
                raise Refused(PLAYED_AWAY(seat=player, who=self.parts[player].said()))
            return {"action": self._apply_text(args["action"], by="mqtt")}
        if name == "play":
            return {"action": self._play_from_phone(args["seat"], args.get("secret"), args["action"])}
        if name == "hint":
            return {"player": self._ask_hint()}
        if name == "resign":
            player = args["player"]
            if not 0 <= player < self.state.num_players:
                raise Refused(NO_SUCH_PLAYER(command=name, last=self.state.num_players - 1))
            self.resigned = player
            self.event("resign", player=player)
            return {"resigned": player}
        return self.configure(**args)

    def configure(self, allow_takeback: bool | None = None, chance: str | None = None) -> dict[str, Any]:
        """Change the table's settings (the journal keeps them over the configuration file's); the
        settings now."""
        if allow_takeback is not None:
            self.board.allow_takeback = self.referee.allow_takeback = allow_takeback
        if chance is not None:
            self.board.chance = chance
            self._auto_chance()
        return {"allow_takeback": self.board.allow_takeback, "chance": self.board.chance}

    def _outcome_named(self, text: str, to_operator: bool) -> str:
        """The pending chance outcome ``text`` names: its whole text, or its last word (a die's value).

        What a hidden draw can still give tells what is left in the deck, so what is in the hands:
        it is entered only with the answer going to the operator alone (whether a value is taken
        or refused tells as much as the list of those possible), and the list of possible outcomes
        is told to the operator alone."""
        state = self.state
        if state.current_player != CHANCE:
            raise Refused(NOTHING_PENDING(command="enter"))
        legal = {state.action_to_text(a): state.public_action_text(a) for a in state.legal_actions()}
        hidden = any(full != public for full, public in legal.items())
        if hidden and not to_operator:
            raise Refused(OPERATOR_ENTERS(command="enter"))
        if text in legal:
            return text
        matches = [t for t in legal if t.split()[-1] == text]
        if len(matches) == 1:
            return matches[0]
        listed = NOT_AN_OUTCOME_OF(command="enter", value=repr(text), possible=", ".join(sorted(legal)[:20]))
        if hidden:
            raise OperatorOnly(NOT_AN_OUTCOME(command="enter", value=repr(text)), listed)
        raise Refused(listed)

    # -- what it tells ---------------------------------------------------------------------------

    def event(self, kind: str, **data: Any) -> None:
        """Queue an event; the loop sends it once the journal holds what it tells."""
        log.info("%s", event_line(kind, data))
        self._outbox.append({"type": kind, "game": self.game.name, "move": len(self.match.record.actions), **data})

    def winners(self) -> list[int]:
        if self.resigned is not None:
            return [p for p in range(self.state.num_players) if p != self.resigned]
        return self.state.winners()

    def public_state(self, seq: int = 0) -> dict[str, Any]:
        """The whole public state (``docs/mqtt.md``): never a hidden card, never the chance secret
        while the game runs (its commitment, and once the game is over the secret itself)."""
        state = self.state
        over = self.over
        turn = None if over or state.current_player < 0 else state.current_player
        pending = None
        if state.current_player == CHANCE and not over:
            pending = {"outcomes": sorted({state.public_action_text(a) for a, _ in state.chance_outcomes()})[:64]}
        v = self.verdict
        view = state.public_view()
        return {
            "schema": STATE_SCHEMA,
            "seq": seq,
            "board": self.board.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.match.record.options,
            "num_players": state.num_players,
            "players": [{**info, "seat": seat} for info, seat in zip(state.player_info(), self.seats, strict=True)],
            "turn": turn,
            "phase": "over" if over else state.phase,
            "moves": len(self.match.record.actions),
            "last_action": self.match.public_log[-1] if self.match.public_log else None,
            "board_view": view,
            "notes": [told(note) for note in self.game.notes(view)],
            "scores": list(state.scores()),
            "over": over,
            "winners": self.winners() if over else [],
            "resigned": self.resigned,
            "pending_chance": pending,
            "fair": self.fairness(),
            "targets": sorted(self.referee.targets(self.sensed)) if turn is not None and self._to_pick(state) else [],
            "verdict": v.kind,
            "violation": {**told(v.said), "channels": list(v.channels)} if v.kind == "violation" else None,
            "setup": {**told(v.said), "channels": list(v.channels)} if v.kind == "setup" else None,
            "ambiguous": len(v.actions) if v.kind == "ambiguous" else 0,
            "sensors": "up" if self.link_is_up else "down",
            "health": dict(self.health),
            "remote": self.remote_view(),
        }

    def fairness(self) -> dict[str, Any]:
        """The chance commitment, and once the game is over the secret (``docs/mqtt.md``, "Fair dice")."""
        key = self.match.key
        assert key is not None  # ``take`` gives every game one
        secret = key.secret if key.secret is not None else self.remote.secret if self.remote is not None else None
        return {"scheme": SCHEME, "commitment": key.commitment,
                "secret": secret.hex() if self.over and secret is not None else None}

    def private_state(self, player: int) -> dict[str, Any]:
        """What only ``player`` may see: the game's private view, and the choices of the player to act."""
        private = dict(self.state.private_view(player))
        if player == self.state.current_player:
            private["choices"] = choices = self.choices()
            if choices:
                private["choice"] = choices[self.choice % len(choices)]
        if player in self.seat_secrets:  # a phone seat: what its page needs to play (docs/mqtt.md)
            private["secret"] = self.seat_secrets[player]
            mine = player == self.state.current_player and self._paired_to_play() and self.expected is None
            private["moves"] = self.phone_moves(player) if mine else []
        if self.expected is not None and self.expected.hint and self.expected.player == player:
            private["hint"] = self.expected.text  # a hidden move's hint is told here alone
        return private

    def scene(self) -> LedScene:
        """What the LEDs show (``controller.ledview``): a held move as if it were taken, at once."""
        if self.preview is not None:
            state, v = self.preview, Verdict("in_sync")
            if state.is_terminal():
                return LedScene(TERMINAL, {}, winners=tuple(state.winners()), colours=game_colours(state))
            targets = self.referee.targets(state=state) if self._to_pick(state) else {}
        else:
            state, v = self.state, self.verdict
            if self.over:
                return LedScene(TERMINAL, {}, winners=tuple(self.winners()), colours=game_colours(state))
            if self.expected is not None:
                return self._carry_out_scene(v)
            targets = self.referee.targets(self.sensed) if self._to_pick(state) else {}
        turns = []
        for channel, value in list(targets.items()):
            if self.kinds.get(channel) == ChannelKind.OFFSET:
                del targets[channel]
                spaces = self.referee.channels[channel].maximum + 1
                turns.append((channel, shortest_turn(self.sensed.get(channel, 0), value, spaces)))
        return LedScene(
            player=state.current_player,
            targets=targets,
            violation=v.channels if v.kind == "violation" else (),
            progress=v.channels if v.kind in ("progress", "setup") else (),
            ambiguous=v.kind == "ambiguous",
            status_light=state.status_light(),
            offsets_to_turn=tuple(turns),
            colours=game_colours(state),
            warning=self.preview is None and self._computer_failed(),
        )
