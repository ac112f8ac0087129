"""The game at the table (:class:`TableGame`): its match, the sensed board, chance, takebacks, what
is told; the base the session's other parts build on (``controller.session``)."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from controller.carry_out import CarryOut
from controller.commands import RecentAnswers, Refused
from controller.games import CHANCE, ChannelKind, Game, IllegalAction, State, get_game
from controller.games.base import Message, Phrase, PlayerInfo
from controller.games.chance import SCHEME
from controller.games.record import Match, Record
from controller.move_table import board_diff, recall, remember
from controller.referee import Redo, Referee, Verdict
from controller.remote import Sync, Wire
from controller.seats import Seat, seat_of, seats_for
from controller.session.showing import Showing, shown_game

if TYPE_CHECKING:
    from controller.config import BoardConfig

from controller.session.outcome import (
    AskedBack,
    CalibrateRings,
    Effect,
    Expected,
    Outcome,
    RequestSnapshot,
    TakeBoard,
    told,
)

HEALTHY = {"status": "ok"}
NOTHING_TO_ROLL = Phrase("table.nothing_to_roll", "nothing to roll: no die, card or draw is pending")
NOTHING_TO_UNDO = Phrase("table.nothing_to_undo", "there is nothing to undo")
HOST_ROLLS = Phrase("remote.host_rolls", "the host board draws chance in a remote game")
NO_UNDO_REMOTE = Phrase("remote.no_undo", "a remote game cannot be taken back")
NEEDS_CONSENT = Phrase("table.needs_consent", "taking back {move} needs the consent of {seats}: the chance outcome "
                       "after it has been seen")
SEAT = Phrase("table.seat", "{player}")
"""One of several seats a message names (said as the person, his colour or his seat from 1)."""
TAKEBACK_ASKED = Phrase("table.takeback_asked", "a takeback of {move} is asked: {seats} must agree (the chance "
                        "outcome after it has been seen)")


PUBLIC_PARTS_KEPT = 3  # states whose public part is kept: the game's, a held move's, and one to spare


class PublicPart(NamedTuple):
    """What the public state shows of one game state alone (shared by every state published of it:
    never changed in place)."""

    view: dict[str, Any]
    notes: list[dict[str, Any]]
    scores: list[float]
    players: list[PlayerInfo]
    outcomes: list[str]  # at a chance node: the outcomes it may show (the first 64)


class TableGame(ABC):
    """The game at one table, with what every part of the session shares."""

    @abstractmethod
    def _outcome(self, tell: bool, show: bool = True, **found: Any) -> Outcome:
        """Must override: the outcome of an input, with what it queued (:class:`controller.session.Session`)."""

    @abstractmethod
    def clean_move(self) -> bool:
        """Must override: the sensed board may be judged at once (:class:`controller.session.Session`)."""

    @abstractmethod
    def expect(self, expected: Expected | None, *, kept: bool = False) -> None:
        """Must override: the table is to carry out ``expected`` (:class:`controller.session.away.AwaySeats`)."""

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
        self.showing: Showing | None = None  # a record shown at the table, its moves stepped through
        self.recorded: Callable[[int], Record] | None = None  # a game of the board's journal, by its id (show)
        self._carry: tuple[State, Expected, CarryOut] | None = None
        self._own_decision_key: bytes | None = None  # a joining board's key for its computers' decisions
        self._public_parts: OrderedDict[int, tuple[State, PublicPart]] = OrderedDict()  # (:meth:`_public_part`)

    @property
    def state(self) -> State:
        return self.match.state

    def _public_known(self, state: State) -> bool:
        return recall(self._public_parts, state) is not None

    def _public_part(self, state: State) -> PublicPart:
        """What the public state shows of ``state`` alone: worked out once per state (a value), the
        last few kept (the game's and a held move's, worked out ahead in the loop's idle steps)."""
        known = recall(self._public_parts, state)
        if known is not None:
            return known
        view = state.public_view()
        outcomes = sorted({state.public_action_text(a) for a, _ in state.chance_outcomes()})[:64] \
            if state.current_player == CHANCE else []
        part = PublicPart(view, [told(note) for note in self.game.notes(view)], list(state.scores()),
                          state.player_info(), outcomes)
        remember(self._public_parts, id(state), (state, part), PUBLIC_PARTS_KEPT)
        return part

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

    def _start(self, match: Match) -> None:
        other_board = match.record.game != self.game.name
        self.take(match)
        if other_board:  # read the new board afresh
            self.sensed = {}
            self.board_known = False
            self._effects.append(RequestSnapshot())

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
        self.showing = None  # a game taken ends a showing (show takes its own, then shows)
        self.answers.clear()  # a request id names a request within one game
        self.restoring = False
        self.choice = 0
        self.expected = self.asked = self.failed = None
        self.asked_back: AskedBack | None = None  # a takeback waiting for the seats' consent
        self._own_decision_key = None  # a new game, a new key (a joining board's: its computers' decisions)
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

    def _away_to_play(self) -> bool:
        """The seat to act plays away from the table (a computer player, a phone, the other board):
        the table carries out its move."""
        player = self.state.current_player
        return not self.over and player >= 0 and not self.parts[player].at_table

    def _paired_to_play(self) -> bool:
        """The seat to act plays from a paired page (a phone): its move comes as a request."""
        return self._away_to_play() and self.parts[self.state.current_player].paired

    def _to_pick(self, state: State) -> bool:
        """A person at the table is to pick a move in ``state``: the LEDs light the legal ones. A
        seat played away (a computer, a phone) never has them lit (they may tell what it holds):
        only the move it decided."""
        return state.current_player >= 0 and self.parts[state.current_player].at_table

    def sensed_matches(self) -> bool:
        return not board_diff(self.referee.expected(), self.sensed, self.referee.ceiling)

    def differing(self) -> tuple[str, ...]:
        return tuple(sorted(c for c, _ in board_diff(self.referee.expected(), self.sensed, self.referee.ceiling)))

    def _after_action(self) -> None:
        self.expected = None  # carried out, or passed by (a hint not taken)
        if self.state.is_terminal():
            self.event("game_over", winners=self.state.winners(), scores=list(self.state.scores()),
                       fair=self.fairness())
        if self.showing is not None:  # the record's next move lit, or its chance outcome entered as it was
            self.show_next()
            return
        self._auto_chance()

    def _auto_chance(self) -> None:
        if self.board.chance == "auto" and (self.remote is None or self.remote.host):
            while self.state.current_player == CHANCE:
                self._resolve_chance()

    def show(self, record: Record, move: int) -> None:
        """Set up ``record``'s position at ``move`` at the table, then step through its moves
        (:mod:`controller.session.showing`); ``ValueError`` for a game this board cannot play or a
        record whose actions the rules refuse."""
        self.check_board(get_game(record.game), record.options, record.num_players)
        self._start(shown_game(record, move))
        self.event("new_game", game=record.game, num_players=record.num_players)
        if move < len(record.actions):
            self.showing = Showing(list(record.actions))  # its moves lit once the position is set up (show_next)
        else:  # nothing to step through (a position text): play goes on from it
            self._auto_chance()

    def show_next(self) -> None:
        """The shown record's next move lit (or its chance outcome entered); the showing ends once the
        game leaves the record."""
        if self.showing is not None and self.expected is None and not self.showing.next(self):
            self.showing = None

    def enter_shown(self, text: str) -> None:
        """A chance outcome of the record being shown, entered as it was."""
        self._resolve_chance(text)

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

    def consent_needed(self) -> frozenset[int]:
        """The seats whose consent an undo needs now: none, unless it would take back a chance outcome
        already seen (its node keeps it: whoever took the move back would choose again knowing what
        comes next); then every seat played away from the board (a phone confirms; the operator
        answers for a computer). The people at the table see the undo made."""
        history = self.match.history
        if len(history) < 2 or history[-2].current_player != CHANCE or self.resigned is not None:
            return frozenset()
        return frozenset(p for p, seat in enumerate(self.parts) if not seat.at_table)

    def takeback_floor(self) -> int:
        """How many actions a takeback from the board must leave: with seats played away, it never
        goes back over a chance outcome already seen (that needs their consent: ``undo``)."""
        if all(seat.at_table for seat in self.parts):
            return 0
        history = self.match.history
        return next((i + 1 for i in range(len(history) - 2, -1, -1) if history[i].current_player == CHANCE), 0)

    def _undo(self, consent: frozenset[int] = frozenset()) -> str:
        if self.remote is not None:
            raise IllegalAction("undo", NO_UNDO_REMOTE())
        waits = self.consent_needed() - consent
        if waits:
            self._ask_back(waits)
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
        self.asked_back = None
        if consent:  # told to everyone, and kept with the game's record
            self.match.record.takebacks.append({"at": len(self.match.record.actions), "undone": undone,
                                                "consent": sorted(consent)})
            self.event("undo", action=undone, consent=sorted(consent))
        else:
            self.event("undo", action=undone)
        return undone

    def _ask_back(self, waits: frozenset[int]) -> None:
        """An undo across a chance outcome already seen, without the consent it needs: asked of the
        seats that must agree (told once per position), and refused until they do."""
        moves, move = len(self.match.record.actions), self._taken_back_move()
        seats = tuple(SEAT(player=f"player {p}") for p in sorted(waits))
        if self.asked_back is None or self.asked_back.moves != moves:
            self.asked_back = AskedBack(moves, waits)
            self.event("takeback_asked", seats=sorted(waits), action=move,
                       **told(TAKEBACK_ASKED(move=move, seats=seats)))
        raise Refused(NEEDS_CONSENT(move=move, seats=seats))

    def _taken_back_move(self) -> str:
        """The player's move an undo takes back now (the last one before the chance steps after it)."""
        history, log = self.match.history, self.match.public_log
        for i in range(len(log) - 1, -1, -1):
            if history[i].current_player >= 0:
                return log[i]
        return log[-1]

    def choices(self) -> list[str]:
        """What ``next``/``confirm`` pick from: the moves an ambiguous board fits, or the move a
        board on the way to another already shows (a crash), else the actions with no physical trace."""
        return self.board_choices() or (self.referee.silent_actions() if self.state.current_player >= 0 else [])

    def board_choices(self) -> list[str]:
        """The moves the board itself shows, to choose among (public: everyone sees the board)."""
        return list(self.verdict.actions) if self.verdict.kind in ("ambiguous", "progress") else []

    def event(self, kind: str, **data: Any) -> None:
        """Queue an event; the loop sends it once the journal holds what it tells, and logs it in the
        board's language (``controller.teller``)."""
        self._outbox.append({"type": kind, "game": self.game.name, "move": len(self.match.record.actions), **data})

    def winners(self) -> list[int]:
        if self.resigned is not None:
            return [p for p in range(self.state.num_players) if p != self.resigned]
        return self.state.winners()

    def set_health(self, health: dict[str, str]) -> None:
        """What the loop says of the service itself (its journal), shown in the public state."""
        self.health = dict(health)

    def decisions_kept(self, count: int) -> None:
        """The journal holds the first ``count`` decisions waiting in :attr:`decisions`."""
        del self.decisions[:count]

    def decision_key(self) -> bytes:
        """What a computer player's decisions are keyed by: the game's chance secret; on the board that
        joined a remote game, which learns the host's secret only at its end, a key of its own."""
        key = self.match.key
        secret = key.secret if key is not None and key.secret is not None else None
        if secret is None and self.remote is not None:
            secret = self.remote.secret
        if secret is None:
            if self._own_decision_key is None:
                self._own_decision_key = self.fresh_secret()
            secret = self._own_decision_key
        return secret

    def fairness(self) -> dict[str, Any]:
        """The chance commitment, and once the game is over the secret (``docs/mqtt.md``, "Fair dice")."""
        key = self.match.key
        assert key is not None  # ``take`` gives every game one
        secret = key.secret if key.secret is not None else self.remote.secret if self.remote is not None else None
        return {"scheme": SCHEME, "commitment": key.commitment,
                "secret": secret.hex() if self.over and secret is not None else None}
