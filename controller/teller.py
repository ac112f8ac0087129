"""What the loop tells, in order, once the journal holds it: events, the public state, each seat's
private state and the answers to requests; then, in a game on two boards, what this board accepted
goes to the other board.

The :class:`Teller` writes the journal first (``BoardJournal.keep``) and only then tells: nothing
reaches a display or an answer before it is on disk. While the journal cannot be written (a full
or read-only disk) what is to be told waits here, requests are answered once what they did is on
disk, the state says the service is degraded, and the journal is tried again every
:data:`RETRY_JOURNAL_S`. It also stamps the public state as published: ``seq`` (one more for each
change), ``time`` (wall clock, when it changed) and the game ``clock`` (the session has no clock).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from controller import records
from controller.config import BoardConfig
from controller.gameclock import GameClock
from controller.games.base import Message, Phrase, State
from controller.i18n import People, as_json, say, speak_event, speak_state
from controller.journal import CANNOT_WRITE, BoardJournal
from controller.mqtt import Command
from controller.ports import Publisher, Sound
from controller.session import HEALTHY, STATE_SCHEMA, Outcome, Session, told
from controller.wiring import Wiring
from firmware_bridge.boardconfig import SHIPPED_FIRMWARE, firmware_differs
from firmware_bridge.protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from controller.records import GameRecord
    from controller.remote_link import RemoteLink

RETRY_JOURNAL_S = 1.0  # how often a journal that cannot be written is tried again
MOVERS_KEPT = 16  # the last moves whose mover the teller remembers (to say the state's last action after undos)

table_log = logging.getLogger("arbitro.table")
"""What happened at the table, as the players are told it: each event's text, in the board's language
(``journalctl -u arbitro``; the other loggers are the operator's diagnostics, in English)."""

MOST_SEATS: Final = 6
"""The most players any game has: every ``player/<n>`` topic a board may ever have filled, emptied
where the game has not got the seat. A number, checked against every engine by
``tests/test_teller.py``: asking the engines imported them all on the first move told."""


@functools.cache
def arbitro_version() -> str:
    from importlib import metadata  # slow to import: not before the service is online

    try:
        return metadata.version("arbitro")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


JOURNAL_FAILING = Phrase("teller.journal_failing", "{fault}; the game goes on at the table, but requests are refused "
                         "and nothing more is told until the journal can be written again")
NO_NEW_GAME = Phrase("service.no_new_game", "no new game: {fault}")
NOTHING_DONE = Phrase("teller.nothing_done", "{command}: {fault}; nothing was done")
NOT_KEPT = Phrase("teller.not_kept", "{command}: {fault}; what it did is not kept yet, and is told once the journal "
                  "can be written")

def _log(events: list[dict[str, Any]]) -> None:
    """Each event's text in the table's log (:data:`table_log`)."""
    for event in events:
        table_log.info("%s", event["text"])


class Teller:
    """Tells one board's session (on ``board``, wired up as ``wiring`` says), in the board's language:
    to MQTT (``mqtt``), to ``watchers`` (the demo, tests), after the journal (``kept``), and last to
    the table's ``sound``; a remote game's part to the other board (``remote``)."""

    def __init__(self, session: Session, board: BoardConfig, wiring: Wiring, kept: BoardJournal | None,
                 mqtt: Publisher | None, sound: Sound | None = None, *, clock: Callable[[], float],
                 wall_clock: Callable[[], float], remote: RemoteLink | None = None) -> None:
        self.session = session
        self.remote = remote
        self.board = board
        self.wiring = wiring
        self.kept = kept
        self.mqtt = mqtt
        self.sound = sound  # the buzzer and the voice hear every publish
        self.clock = clock
        self.wall_clock = wall_clock
        self.started_at = wall_clock()
        self.watchers: list[Callable[[dict[str, Any]], None]] = []  # see every event (the demo, tests)
        self.retry_at: float | None = None  # while the journal cannot be written: when to try again
        self.resumed_serial = 0  # the session's game resumed from the journal (0: none): its clock resumes
        self._events: list[dict[str, Any]] = []  # waiting for the journal
        self._movers: dict[int, int | None] = {}  # the last moves told: who made each (None: chance), to say them
        self._public: dict[str, Any] | None = None  # the last public and private states, to tell
        self._private: tuple[dict[str, Any] | None, ...] = ()
        self._told: dict[str, Any] | None = None  # the last public state published
        self._state_seq = 0  # one more for every change of the public state
        self._state_time = 0.0  # when it last changed
        self._last_public: dict[str, Any] | None = None
        self._game_clock = GameClock.start(0.0, 0)
        self._clock_serial = 0  # the session's game the clock counts
        self._people: tuple[State, str, People] | None = None  # the state whose players were named last, and how

    @property
    def failing(self) -> bool:
        """The journal cannot be written: requests are refused, nothing more is told."""
        return self.retry_at is not None

    @property
    def seq(self) -> int:
        """The ``seq`` of the last public state stamped (tests wait for displays to reach it)."""
        return self._state_seq

    def why(self) -> Message:
        """Why the journal cannot be written (said in the board's language where it is told)."""
        return (self.kept.why if self.kept is not None else None) or CANNOT_WRITE()

    def fault(self) -> str:
        return self.why().text

    def info(self) -> dict[str, Any]:
        """The board's ``info`` topic: versions, the sensor board's firmware, the game and its layout."""
        hello, layout = self.wiring.hello, self.wiring.layout
        return {
            "board": self.board.id,
            "arbitro": arbitro_version(),
            "schema": STATE_SCHEMA,
            "protocol": PROTOCOL_VERSION,
            "sensor_board": None if hello is None else {
                "protocol": hello.protocol, "board_kind": hello.board_kind, "firmware": hello.firmware,
                "shipped_firmware": SHIPPED_FIRMWARE, "firmware_differs": firmware_differs(hello.firmware)},
            "game": self.session.game.name,
            "title": self.session.game.title,
            "layout": {"file": self.board.layout or None, "game": layout.game, "board_kind": layout.board_kind},
            "started_at": round(self.started_at, 3),
        }

    def refuse(self, command: Command) -> bool:
        """While the journal cannot be written a request does not run: it is answered at once (``state``
        with the state last told, anything else refused, saying why); False when it may run."""
        if not self.failing:
            return False
        if command.name == "state":
            command.reply(True, self.degraded_state())
        else:
            command.reply(False, self.said(NOTHING_DONE(command=command.name, fault=self.why())))
        return True

    def said(self, refusal: Message) -> dict[str, Any]:
        """A refusal as an answer says it: in the board's language, with its code and params."""
        return {"error": say(refusal, self.language, self.people()), **as_json(refusal)}

    def refuse_button(self, name: str, held: bool) -> bool:
        """A new game (``undo`` held) while the journal cannot be written: refused, saying why (the
        game's end would be lost); False when the button may act."""
        if not (name == "undo" and held and self.failing):
            return False
        self.notice("refused", NO_NEW_GAME(fault=self.why()))
        return True

    def tell(self, outcome: Outcome) -> None:
        """Journal what ``outcome`` changed, then tell it with whatever waited (or keep it waiting),
        then send a remote game's part to the other board. An outcome with no state to tell but
        an answer is still kept: a refusal too is remembered with its id."""
        if outcome.public is None:
            if outcome.answer is not None:
                self.keep()
            return
        self._events += outcome.events
        self._public, self._private = outcome.public, outcome.private
        self.flush()
        self._send_remote()

    def _send_remote(self) -> None:
        """A remote game: what this board accepted goes to the other board once the journal has it."""
        s = self.session
        if self.remote is None or s.remote is None or self.failing or not (s.wires or s.status_due):
            return
        wires, _ = s.outgoing()
        self.remote.send(wires, s.remote.status())

    @property
    def language(self) -> str:
        return self.board.language

    def people(self) -> People:
        """How this game's players are named in the board's language (their colours, else seats from 1):
        named once per state (a state is a value: its players stay as they are), though a move is
        told with them twice."""
        state, language = self.session.state, self.language
        if self._people is None or self._people[0] is not state or self._people[1] != language:
            self._people = (state, language, People.of(state.player_info(), language))
        return self._people[2]

    def answer(self, command: Command, ok: bool, result: Any, refusal: Message | None = None) -> None:
        """Answer ``command`` now, or once what it did is on disk (``refusal``: why a rule refused it)."""
        if not ok and refusal is not None:  # a rule's refusal: said in the board's language, with its code
            result = self.said(refusal)
        if ok and command.name == "state":  # the session has no clock: answered as published, stamped
            result = self.stamp(self.session.public_state())
        if ok and command.name == "record":  # the hidden cards of a game in play to the operator alone
            result = self.record(private=command.to_operator and bool(command.args.get("private"))).to_dict()
        if self.failing and ok:  # its own write failed: never an ok that is not on disk, and never a wait
            command.reply(False, self.said(NOT_KEPT(command=command.name, fault=self.why())))
        else:
            command.reply(ok, result)  # after the journal and the publish: an ok is never lost

    def record(self, *, private: bool = False) -> GameRecord:
        """The game's record (docs/records.md), with when each action was played as the journal has it;
        a game in play without its secret, and its public part alone unless ``private``."""
        s, kept = self.session, self.kept
        started: float | None = None
        at: list[float | None] = []
        if kept is not None and kept.game_id is not None and kept.serial == s.serial and not self.failing:
            started, at = kept.journal.timing(kept.game_id)
        if started is None and self._clock_serial == s.serial:  # no journal: the game clock's start
            started = self._game_clock.started_at
        return records.build(s.match, board=self.board.id, over=s.over, resigned=s.resigned, started=started, at=at,
                             public=not private)

    def flush(self) -> None:
        """Write the journal; when it can be written, tell everything that waited, in order."""
        if not self.keep():
            return
        events, self._events = self._events, []
        said = self._send(events)
        state = None
        if self._public is not None:  # with the service's health now: the journal has just been written
            state = self._told = self.stamp({**self._public, "health": dict(self.session.health)})
            if self.mqtt is not None:
                self.mqtt.publish_info(self.info())
                self.mqtt.publish_state(state)
                for p in range(max(MOST_SEATS, len(self._private))):  # seats the game has not got: emptied
                    self.mqtt.publish_private(p, self._private[p] if p < len(self._private) else None)
        _log(said)  # once all is out: on a Pi the log is a write to journald, which may wait
        if self.sound is not None and state is not None:  # last: a sound only queues, and never holds up what is told
            self.sound.hear(events, state)

    def stamp(self, state: dict[str, Any]) -> dict[str, Any]:
        """The session's public ``state`` as published: stamped with ``seq``, ``time`` and the game
        ``clock``. An unchanged state keeps its stamps, so how often the loop published tells
        nothing (how often a player pressed ``next`` choosing a secret card, say)."""
        serial = self.session.serial
        if serial != self._clock_serial:  # another game (though it may look like the last): its clock starts now
            self._clock_serial = serial
            self._last_public = None
            self._game_clock = GameClock.start(self.wall_clock(), state["num_players"],
                                               "resume" if serial == self.resumed_serial else "start")
        if state != self._last_public:
            self._last_public = state
            self._state_seq += 1
            self._state_time = max(self.wall_clock(), self._game_clock.started_at)
            self._game_clock.observe(state["turn"], state["over"], self._state_time)
        return speak_state({**state, "seq": self._state_seq, "time": round(self._state_time, 3),
                            "clock": self._game_clock.to_json(self._state_time)}, self.people(), self.language,
                           self._movers)

    def _send(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Events out, stamped with the wall-clock ``time`` they are told at (the session has no clock);
        returns them as told, for the table's log (:func:`_log`)."""
        now = round(self.wall_clock(), 3)
        people = self.people()  # said at the edge, in the board's language
        stamped = []
        for event in events:
            stamped.append({**speak_event(event, people, self.language, self._movers), "time": now})
            if event["type"] in ("action", "chance"):  # the state's last action is said with its mover
                move = event["move"]  # a few back, for an undo; none ahead (an undo, a new game)
                self._movers = {**{m: p for m, p in self._movers.items() if move - MOVERS_KEPT < m < move},
                                move: event.get("player") if event["type"] == "action" else None}
        if stamped and self.mqtt is not None:
            self.mqtt.publish_events(stamped)
        for event in stamped:
            for watch in self.watchers:
                watch(event)
        return stamped

    def notice(self, kind: str, message: Message) -> None:
        """An event told at once, ahead of those waiting for the journal: at the last move told."""
        last = self._told or self.session.public_state()
        _log(self._send([{"type": kind, "game": last["game"], "move": last["moves"], **told(message)}]))

    def keep(self) -> bool:
        """Write what changed; False while the journal cannot be written. Its first failure is told
        at once (a warning, the degraded state); it is tried again every :data:`RETRY_JOURNAL_S`."""
        if self.kept is None:
            return True
        was_failing = self.failing
        if self.kept.keep(self.session):
            self.retry_at = None
            self.session.set_health(HEALTHY)
            return True
        self.retry_at = self.clock() + RETRY_JOURNAL_S
        if not was_failing:
            fault = self.fault()
            self.session.set_health({"status": "degraded", "message": fault})
            self.notice("warning", JOURNAL_FAILING(fault=self.why()))
            if self.mqtt is not None:
                self.mqtt.publish_state(self.degraded_state())
        return False

    def degraded_state(self) -> dict[str, Any]:
        """The public state while the journal cannot be written: the last one told (nothing since is
        on disk), saying why."""
        told = self._told or self.stamp(self.session.public_state())
        health = dict(self.session.health)
        if told.get("health") != health:  # a change: a new seq and time; the next state told is one again
            self._state_seq += 1
            self._state_time = self.wall_clock()
            self._last_public = None
            told = self._told = {**told, "health": health, "seq": self._state_seq, "time": round(self._state_time, 3)}
        return told
