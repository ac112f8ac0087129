"""The service: one loop owns the table session.

Adapters (the serial reader, gpiozero callbacks, paho's thread) only post events into
:attr:`Service.events`. The loop hands each to the pure :class:`~controller.session.Session`,
decides *when* the board is judged (a clean move at once, anything else after the debounce
window; what the hands may still change, again once the board has been still for the commit
window), and carries out what the session says: the LED frame, the journal, then events, state
and answers on MQTT — nothing is told before it is on disk. While the journal cannot be written
(a full or read-only disk) the table plays on, requests are refused with the reason, the state
says the service is degraded, and everything is written and told once the journal can be again.
"""

from __future__ import annotations

import functools
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from controller import sdnotify
from controller.config import Config
from controller.gameclock import GameClock
from controller.games import game_names, get_game
from controller.games.chance import SECRET_BYTES
from controller.i18n import People, as_json, say, speak_event, speak_state
from controller.journal import BoardJournal, Journal, RecentAnswers
from controller.ledview import render_frame
from controller.mqtt import Command
from controller.ports import Call, Inputs, Link, Post, Publisher, Sound, Stop
from controller.session import HEALTHY, STATE_SCHEMA, Session
from firmware_bridge.link import LinkDown, LinkError, LinkUp, SensorChanged, Snapshot
from firmware_bridge.protocol import PROTOCOL_VERSION
from hardware.inputs import ButtonEvent, EncoderEvent
from hardware.layout import Layout, load_layout
from hardware.leds import LedStrip

log = logging.getLogger("arbitro")

PREPARE_POLL_S = 0.002  # how often the loop looks whether the LEDs are out, to build the next move table
RETRY_JOURNAL_S = 1.0  # how often a journal that cannot be written is tried again


@functools.cache
def most_seats() -> int:
    """The most players any game has: every ``player/<n>`` topic a board may ever have filled."""
    return max(get_game(name).max_players for name in game_names())


@functools.cache
def arbitro_version() -> str:
    try:
        return metadata.version("arbitro")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


class Service:
    """The referee service for one board. Construct, ``start()``, ``stop()``; read the session
    with :meth:`read`."""

    def __init__(self, config: Config, strip: LedStrip, *, layout: Layout | None = None,
                 link_factory: Callable[[str, Post], Link] | None = None, mqtt: Publisher | None = None,
                 inputs: Inputs | None = None, journal: Journal | None = None, sound: Sound | None = None,
                 clock: Callable[[], float] = time.monotonic, wall_clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.strip = strip
        self.clock = clock
        self.wall_clock = wall_clock  # stamps states and events; judging never reads it
        self.started_at = wall_clock()
        self.events: queue.Queue[object] = queue.Queue()
        self.mqtt = mqtt
        self.inputs = inputs
        for adapter in (mqtt, inputs):  # adapters post into this loop, and nowhere else
            if adapter is not None:
                adapter.post = self.post
        self.sound = sound  # the buzzer and the voice hear every publish
        self.link_factory = link_factory
        self.link: Link | None = None
        self.watchers: list[Callable[[dict[str, Any]], None]] = []  # see every event (the demo, tests)
        self.owned: list[Any] = []  # things started for this service alone (an in-process simulated board)
        self.fatal: str | None = None
        self.settle_at: float | None = None  # when the board is judged: the debounce window is over
        self.commit_at: float | None = None  # when a held verdict is judged again: the commit window is over
        self.still_since = clock()  # when the board last changed
        self.last_sensed: float | None = None  # when the last sensor reading that counted arrived
        self.blink_on = True
        self._thread: threading.Thread | None = None
        self._state_seq = 0  # one more for every change of the public state
        self._state_time = 0.0  # when it last changed
        self._last_public: dict[str, Any] | None = None
        self._game_clock = GameClock.start(0.0, 0)
        self._clock_serial = 0  # the session's game the clock counts
        self._told: dict[str, Any] | None = None  # the last public state published
        self.retry_at: float | None = None  # while the journal cannot be written: when to try again
        self.unanswered: list[tuple[Command, bool, Any]] = []  # answers waiting for the journal
        self.journal = journal
        self.kept = BoardJournal(journal, config.board.id, clock) if journal is not None else None
        self._serial = 0  # the session's game the loop has set the strip, rings and board up for
        board = config.board
        self.session = Session(board, layout or load_layout(board.layout or board.game),
                               layout_for=lambda game: load_layout(board.layout or game),
                               fresh_secret=lambda: secrets.token_bytes(SECRET_BYTES),
                               strip_fits=strip.can_show, answers=RecentAnswers(persist=journal is not None))
        notices = self.kept.open(self.session, resume=config.journal.resume) if self.kept is not None else []
        self._resumed_serial = self.session.serial  # 0: no game resumed
        if self.session.serial == 0:
            self.session.new_game(board.game, board.options, board.num_players, board.seed)
        self._took_game()
        for message in notices:  # told once the board has its game
            self.session.event("warning", message=message)

    def _took_game(self) -> None:
        """After the session took a game: the strip sized for its board, its rings, a fresh snapshot."""
        s = self.session
        if s.serial == self._serial:
            return
        self._serial = s.serial
        s.referee.lazy = True  # the next move table is built while the loop is idle, not on a move's path
        self.strip.resize(s.layout.led_count)
        if self.inputs is not None:
            self.inputs.calibrate(s.ring_offsets())
            for channel, offset in self.inputs.offsets().items():
                s.sense(channel, offset)
        if s.wants_snapshot and self.link is not None:
            self.link.request_snapshot()
        s.wants_snapshot = False

    def post(self, event: object) -> None:
        self.events.put(event)

    def start(self) -> Service:
        self.strip.start()  # LED frames go out on their own thread: the loop never waits for the wire
        if self.mqtt is not None:
            self.mqtt.start()
            # Give displays the game from its first state; a broker that is away does not stop play.
            if not self.mqtt.connected.wait(3.0):
                log.warning("MQTT broker %s:%d not reachable yet; refereeing anyway, state goes out on connect",
                            self.config.mqtt.host, self.config.mqtt.port)
        if self.link_factory is not None:
            self.link = self.link_factory(self.config.sensors.url, self.post)
            self.link.start()
        self._publish()
        self._thread = threading.Thread(target=self._loop, name="arbitro-loop", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.post(Stop())
        if self._thread is not None:
            self._thread.join(10)
        if self.retry_at is not None:
            log.error("stopping, and %s: what happened since it last could be is not recorded", self.kept_fault())
        for part in (self.link, self.mqtt):
            if part is not None:
                part.stop()
        self.strip.stop()
        if self.sound is not None:
            self.sound.close()
        for thing in self.owned:
            thing.close()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` inside the loop and return its result."""
        done: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self.post(Call(fn, done))
        ok, value = done.get(timeout=timeout)
        if ok:
            return value
        raise value

    def read(self, fn: Callable[[Session], Any], timeout: float = 10.0) -> Any:
        """``fn(session)`` inside the loop: how tests and the demo look at the table."""
        return self.call(lambda: fn(self.session), timeout)

    def public_state(self) -> dict[str, Any]:
        """The public state as published (call it inside the loop): the session's, stamped by the
        loop with ``seq`` (one more for each change), ``time`` (wall clock, when it changed) and
        the game ``clock``. An unchanged state keeps its stamps, so how often the loop published
        tells nothing (how often a player pressed ``next`` choosing a secret card, say)."""
        s = self.session
        state = s.public_state()
        if s.serial != self._clock_serial:  # another game (though it may look like the last): its clock starts now
            self._clock_serial = s.serial
            self._last_public = None
            self._game_clock = GameClock.start(self.wall_clock(), state["num_players"],
                                               "resume" if s.serial == self._resumed_serial else "start")
        if state != self._last_public:
            self._last_public = state
            self._state_seq += 1
            self._state_time = max(self.wall_clock(), self._game_clock.started_at)
            self._game_clock.observe(state["turn"], state["over"], self._state_time)
        return speak_state({**state, "seq": self._state_seq, "time": round(self._state_time, 3),
                            "clock": self._game_clock.to_json(self._state_time)}, self.people(), self.language)

    @property
    def language(self) -> str:
        return self.config.board.language

    def people(self) -> People:
        """How this game's players are named in the board's language (their colours, else seats from 1)."""
        return People.of(self.session.state.player_info(), self.language)

    def info(self) -> dict[str, Any]:
        """The board's ``info`` topic: versions, the sensor board's firmware, the game and its layout."""
        s = self.session
        hello = s.hello
        return {
            "board": self.config.board.id,
            "arbitro": arbitro_version(),
            "schema": STATE_SCHEMA,
            "protocol": PROTOCOL_VERSION,
            "sensor_board": None if hello is None else {
                "protocol": hello.protocol, "board_kind": hello.board_kind, "firmware": hello.firmware},
            "game": s.game.name,
            "title": s.game.title,
            "layout": {"file": self.config.board.layout or None, "game": s.layout.game,
                       "board_kind": s.layout.board_kind},
            "started_at": round(self.started_at, 3),
        }

    def _loop(self) -> None:
        blink_period = 0.5 / self.config.leds.blink_hz
        next_blink = self.clock() + blink_period
        watchdog = sdnotify.Watchdog(self.clock())
        sdnotify.notify(f"READY=1\nSTATUS=refereeing {self.session.game.title}")
        while True:
            now = self.clock()
            watchdog.tick(now)  # the loop turns: tell systemd
            deadline = min(d for d in (self.settle_at, self.commit_at, next_blink, watchdog.due, self.retry_at)
                           if d is not None)
            wait = max(0.0, deadline - now)
            # A move table to build while nothing else waits, once the LEDs' worker (it needs the GIL) is done.
            unready = self.session.referee.unready
            preparing = unready and not (self.strip.writing or self.strip.waiting)
            if unready:
                wait = 0.0 if preparing else min(wait, PREPARE_POLL_S)
            try:
                event = self.events.get(timeout=wait)
            except queue.Empty:
                event = None
            if isinstance(event, Stop):
                sdnotify.notify("STOPPING=1")
                break
            try:
                if event is not None:
                    self._handle(event)
                elif preparing and not self.session.referee.prepare():
                    self._publish()  # the table is built: the LEDs, the state and the seats show what it says
                now = self.clock()
                if self.settle_at is not None and now >= self.settle_at:
                    self.settle_at = None
                    self._judge(settled=False)
                if self.commit_at is not None and now >= self.commit_at:
                    self._judge(settled=True)
                if now >= next_blink:
                    next_blink = now + blink_period
                    self.blink_on = not self.blink_on
                    self._show_leds()
                if self.retry_at is not None and now >= self.retry_at:
                    self._publish()  # the journal tried again: all that waited is told if it can be written
                elif self.session.has_events() and self.retry_at is None:
                    self._publish()  # events from a handler that published no state (the link came up)
            except Exception:  # the loop must outlive any one bad event
                log.exception("error while handling %r", event)

    def _handle(self, event: object) -> None:
        s = self.session
        if isinstance(event, Call):
            event.run()
        elif isinstance(event, SensorChanged | EncoderEvent):
            if s.sense_event(event):
                self.last_sensed = event.received if isinstance(event, SensorChanged) else self.clock()
                self._board_changed()
        elif isinstance(event, Snapshot):
            if not self._failed(s.snapshot(list(event.values))):
                self._board_changed()
        elif isinstance(event, LinkUp):
            self._failed(s.link_up(event.hello))
        elif isinstance(event, LinkDown):
            s.link_down(str(event.reason))
            self._publish()
        elif isinstance(event, LinkError):
            log.warning("sensor link: %s", event.message)
        elif isinstance(event, ButtonEvent):
            if event.name == "undo" and event.held and self.retry_at is not None:  # the game's end would be lost
                self._notice("refused", f"no new game: {self.kept_fault()}")
                return
            self._commit()
            s.button(event.name, event.held)
            self._changed()
        elif isinstance(event, Command):
            if self.retry_at is not None:  # nothing can be written: refused at once, and why
                if event.name == "state":
                    event.reply(True, self._degraded_state())
                else:
                    event.reply(False, f"{event.name}: {self.kept_fault()}; nothing was done")
                return
            if event.name != "state":
                self._commit()
            ok, result = s.request(event.name, event.args, event.id, to_operator=event.to_operator)
            if not ok and s.refusal is not None:  # a rule's refusal: said in the board's language, with its code
                result = {"error": say(s.refusal, self.language, self.people()), **as_json(s.refusal)}
            self._changed() if ok else self._journal()  # a refusal too is remembered with its id
            if ok and event.name == "state":  # the session has no clock: answered as published, stamped
                result = self.public_state()
            if self.retry_at is not None:  # what it did is not on disk: answered once it is
                self.unanswered.append((event, ok, result))
            else:
                event.reply(ok, result)  # after the journal and the publish: an ok is never lost
        else:
            log.warning("unknown event %r", event)

    def _board_changed(self) -> None:
        """A clean move is judged at once; anything else once the board has been still for the
        debounce window. What the hands may still change waits for the commit window (``_judge``)."""
        self.still_since = self.clock()
        self.commit_at = None
        if self.session.clean_move():
            self.settle_at = None
            self._judge(settled=False)
        else:
            self.settle_at = self.still_since + self.config.sensors.debounce_ms / 1000

    def _judge(self, settled: bool) -> None:
        """Judge the board. A verdict the hands may still change is held: the LEDs show it, nothing
        is recorded or told, and it is judged again once the board has been still for the commit
        window (``sensors.commit_ms``)."""
        self.commit_at = None
        self.session.judge(settled=settled)
        if self.session.held is not None:
            self.commit_at = self.still_since + self.config.sensors.commit_ms / 1000
            self._show_leds()
        else:
            self._publish()

    def _commit(self) -> None:
        """A button pressed or a request made: the hands are done, so what the board shows is judged
        as it stands before the game changes otherwise."""
        if self.session.held is not None:
            self._judge(settled=True)
        self.session.referee.finish()  # the choices a button or a request picks among are all known

    def _changed(self) -> None:
        """The game changed by a button or a request: judge the board against it again, tell it."""
        self._took_game()
        self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000
        self._publish()

    def _failed(self, message: str | None) -> bool:
        """A mismatch between the layout and the sensor board (``message``): nothing can be refereed."""
        if message is None:
            return False
        log.error("%s", message)
        self.fatal = message
        self.session.event("error", message=message)
        self._publish()
        self.post(Stop())
        return True

    def _publish(self) -> None:
        """LEDs first (the table sees at once), then the journal, then events and state: nothing
        reaches a display or an answer before it is on disk (until it can be, they wait). Events and
        states carry the wall-clock ``time`` they happened (the session has no clock)."""
        s = self.session
        self._show_leds()
        if not self._journal():
            return
        events = s.take_events()
        self._tell(events)
        state = self._told = self.public_state()
        if self.mqtt is not None:
            self.mqtt.publish_info(self.info())
            self.mqtt.publish_state(state)
            for p in range(max(most_seats(), s.state.num_players)):  # seats the game has not got: emptied
                self.mqtt.publish_private(p, s.private_state(p) if p < s.state.num_players else None)
        for command, ok, result in self.unanswered:
            command.reply(ok, result)
        self.unanswered.clear()
        if self.sound is not None:  # last: a sound only queues, and never holds up what is told
            self.sound.hear(events, state)

    def _tell(self, events: list[dict[str, Any]]) -> None:
        """Events out, stamped with the wall-clock ``time`` they are told at (the session has no clock)."""
        now = round(self.wall_clock(), 3)
        people = self.people()  # said at the edge, in the board's language
        stamped = [{**speak_event(event, people, self.language), "time": now} for event in events]
        if stamped and self.mqtt is not None:
            self.mqtt.publish_events(stamped)
        for event in stamped:
            for watch in self.watchers:
                watch(event)

    def _notice(self, kind: str, message: str) -> None:
        """An event told at once, ahead of those waiting for the journal: at the last move told."""
        told = self._told or self.session.public_state()
        self._tell([{"type": kind, "game": told["game"], "move": told["moves"], "message": message}])

    def _journal(self) -> bool:
        """Write what changed; False while the journal cannot be written. Its first failure is told
        at once (a warning, the degraded state); it is tried again every :data:`RETRY_JOURNAL_S`."""
        if self.kept is None:
            return True
        was_failing = self.retry_at is not None
        if self.kept.keep(self.session):
            self.retry_at = None
            self.session.health = HEALTHY
            return True
        self.retry_at = self.clock() + RETRY_JOURNAL_S
        if not was_failing:
            fault = self.kept_fault()
            self.session.health = {"status": "degraded", "message": fault}
            self._notice("warning", f"{fault}; the game goes on at the table, but requests are refused and "
                         "nothing more is told until the journal can be written again")
            if self.mqtt is not None:
                self.mqtt.publish_state(self._degraded_state())
        return False

    def kept_fault(self) -> str:
        return (self.kept.fault if self.kept is not None else None) or "the journal cannot be written"

    def _degraded_state(self) -> dict[str, Any]:
        """The public state while the journal cannot be written: the last one told (nothing since is
        on disk), saying why."""
        told = self._told or self.public_state()
        health = dict(self.session.health)
        if told.get("health") != health:  # a change: a new seq and time; the next state told is one again
            self._state_seq += 1
            self._state_time = self.wall_clock()
            self._last_public = None
            told = self._told = {**told, "health": health, "seq": self._state_seq, "time": round(self._state_time, 3)}
        return told

    def _show_leds(self) -> None:
        self.strip.show(render_frame(self.session.layout, self.session.scene(), self.blink_on))
