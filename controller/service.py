"""The service: one loop owns the table session.

Adapters only post events into :attr:`Service.events`: the serial reader (``firmware_bridge``
link events), gpiozero callbacks (:class:`~hardware.inputs.ButtonEvent`,
:class:`~hardware.inputs.EncoderEvent`) and paho's thread (:class:`~controller.mqtt.Command`).
The loop hands each to the :class:`~controller.session.Session` (the pure game of the table),
decides *when* the board is judged (at once for a clean move, else once it has been still for
the debounce window), and carries out what the session says, in this order: the LED frame, the
journal, then events, state and answers on MQTT — nothing is told before it is on disk.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from controller import sdnotify
from controller.config import Config
from controller.journal import Journal, RecentAnswers
from controller.ledview import render_frame
from controller.mqtt import Command
from controller.session import Session
from firmware_bridge.link import LinkDown, LinkError, LinkUp, SensorChanged, Snapshot
from hardware.inputs import ButtonEvent, EncoderEvent
from hardware.layout import Layout, load_layout
from hardware.leds import LedStrip

log = logging.getLogger("arbitro")
Post = Callable[[object], None]


class Link(Protocol):
    """The sensor board's link (``firmware_bridge.link.HostLink``)."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def request_snapshot(self) -> None: ...


class Publisher(Protocol):
    """Where state and events go (``controller.mqtt.MqttBridge``)."""

    post: Post
    connected: threading.Event

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def publish_state(self, state: dict[str, Any]) -> None: ...
    def publish_private(self, player: int, data: dict[str, Any]) -> None: ...
    def publish_event(self, event: dict[str, Any]) -> int: ...


class Inputs(Protocol):
    """The table's buttons and ring encoders (``hardware.inputs.TableInputs``)."""

    post: Post

    def calibrate(self, offsets: dict[str, int]) -> None: ...
    def offsets(self) -> dict[str, int]: ...


@dataclass(frozen=True)
class Stop:
    """Ends the loop."""


@dataclass(frozen=True)
class Call:
    """Runs ``fn`` inside the loop (tests and the demo read the session without racing it)."""

    fn: Callable[[], Any]
    done: queue.Queue[tuple[bool, Any]]


class Service:
    """The referee service for one board. Construct, ``start()``, ``stop()``; read the session
    with :meth:`read`."""

    def __init__(self, config: Config, strip: LedStrip, *, layout: Layout | None = None,
                 link_factory: Callable[[str, Post], Link] | None = None, mqtt: Publisher | None = None,
                 inputs: Inputs | None = None, journal: Journal | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.strip = strip
        self.clock = clock
        self.events: queue.Queue[object] = queue.Queue()
        self.mqtt = mqtt
        self.inputs = inputs
        for adapter in (mqtt, inputs):  # adapters post into this loop, and nowhere else
            if adapter is not None:
                adapter.post = self.post
        self.link_factory = link_factory
        self.link: Link | None = None
        self.observers: list[Callable[[str, Any], None]] = []
        self.owned: list[Any] = []  # things started for this service alone (an in-process simulated board)
        self.fatal: str | None = None
        self.settle_at: float | None = None
        self.last_sensed: float | None = None  # when the last sensor reading that counted arrived
        self.blink_on = True
        self._thread: threading.Thread | None = None
        self._state_seq = 0
        self.journal = journal
        self.journal_id: int | None = None
        self.journal_finished = False
        self._serial = 0  # the session's game the loop has set the strip, rings and board up for
        self._journaled = 0  # the session's game the journal has an entry for
        board = config.board
        self.session = Session(board, layout or load_layout(board.layout or board.game),
                               layout_for=lambda game: load_layout(board.layout or game),
                               fresh_seed=lambda: random.SystemRandom().randrange(2**31),
                               strip_fits=strip.can_show, answers=RecentAnswers(journal, board.id))
        notices = [journal.set_aside] if journal is not None and journal.set_aside else []
        if not (config.journal.resume and self._resume(notices)):
            self.session.new_game(board.game, board.options, board.num_players, board.seed)
        self._took_game()
        for message in notices:  # told once the board has its game
            self.session.event("warning", message=message)

    def _resume(self, notices: list[str]) -> bool:
        """Carry on with the board's unfinished game from the journal (after a power cut or crash)."""
        found = self.journal.unfinished(self.config.board.id) if self.journal is not None else None
        if self.journal is None or found is None:
            return False
        game_id, record = found
        try:
            self.session.resume(record)
        except (ValueError, KeyError) as exc:  # LayoutError and IllegalAction are ValueErrors
            message = (f"the journal's unfinished {record.game} game {game_id} cannot go on on this board "
                       f"({exc}); it is set aside (arbitro journal --export {game_id}) and a new "
                       f"{self.session.game.name} game starts")
            log.error("%s", message)
            self.journal.finish(game_id, {"abandoned": True, "error": str(exc)})
            notices.append(message)
            return False
        self.journal_id, self.journal_finished, self._journaled = game_id, False, self.session.serial
        log.info("resumed %s after %d actions (journal game %d)", record.game, len(record.actions), game_id)
        return True

    def _took_game(self) -> None:
        """After the session took a game: its strip size, its journal entry, its rings, its board."""
        s = self.session
        if s.serial == self._serial:
            return
        self._serial = s.serial
        self.strip.resize(s.layout.led_count)
        if self.journal is not None and self._journaled != s.serial:
            self._journaled = s.serial
            if self.journal_id is not None and not self.journal_finished:
                self.journal.finish(self.journal_id, {"abandoned": True, "moves": len(s.match.record.actions)})
            self.journal_id, self.journal_finished = self.journal.start(self.config.board.id, s.match.record), False
        if self.inputs is not None:
            self.inputs.calibrate(s.ring_offsets())
            for channel, offset in self.inputs.offsets().items():
                s.sense(channel, offset)
        if s.wants_snapshot and self.link is not None:
            self.link.request_snapshot()
        s.wants_snapshot = False

    # -- life cycle ----------------------------------------------------------------------------

    def post(self, event: object) -> None:
        self.events.put(event)

    def start(self) -> Service:
        if self.mqtt is not None:
            self.mqtt.start()
            # Give displays the game from its first state; a broker that is away does not stop play.
            if not self.mqtt.connected.wait(3.0):
                log.warning("MQTT broker not reachable yet; refereeing anyway, state goes out on connect")
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
        if self.link is not None:
            self.link.stop()
        if self.mqtt is not None:
            self.mqtt.stop()
        for thing in self.owned:
            thing.close()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` inside the loop and return its result."""
        done: queue.Queue[tuple[bool, Any]] = queue.Queue()
        self.post(Call(fn, done))
        ok, value = done.get(timeout=timeout)
        if not ok:
            raise value
        return value

    def read(self, fn: Callable[[Session], Any], timeout: float = 10.0) -> Any:
        """``fn(session)`` inside the loop: how tests and the demo look at the table."""
        return self.call(lambda: fn(self.session), timeout)

    def public_state(self) -> dict[str, Any]:
        """The public state as last published (with its sequence number); call it inside the loop."""
        return self.session.public_state(self._state_seq)

    def _loop(self) -> None:
        blink_period = 0.5 / self.config.leds.blink_hz
        next_blink = self.clock() + blink_period
        ping = sdnotify.watchdog_interval()
        next_ping = self.clock() if ping else None
        sdnotify.notify(f"READY=1\nSTATUS=refereeing {self.session.game.title}")
        while True:
            now = self.clock()
            if ping is not None and next_ping is not None and now >= next_ping:  # the loop turns: tell the watchdog
                sdnotify.notify("WATCHDOG=1")
                next_ping = now + ping
            deadline = min(d for d in (self.settle_at, next_blink, next_ping) if d is not None)
            try:
                event = self.events.get(timeout=max(0.0, deadline - now))
            except queue.Empty:
                event = None
            if isinstance(event, Stop):
                sdnotify.notify("STOPPING=1")
                break
            try:
                if event is not None:
                    self._handle(event)
                now = self.clock()
                if self.settle_at is not None and now >= self.settle_at:
                    self.settle_at = None
                    self.session.judge()
                    self._publish()
                if now >= next_blink:
                    next_blink = now + blink_period
                    self.blink_on = not self.blink_on
                    self._show_leds()
                if self.session.has_events():  # events from a handler that published no state (the link came up)
                    self._publish()
            except Exception:  # the loop must outlive any one bad event
                log.exception("error while handling %r", event)

    # -- events ----------------------------------------------------------------------------------

    def _handle(self, event: object) -> None:
        s = self.session
        if isinstance(event, Call):
            try:
                event.done.put((True, event.fn()))
            except Exception as exc:
                event.done.put((False, exc))
        elif isinstance(event, SensorChanged | EncoderEvent):
            counted = s.sense_sensor(event.channel, event.value) if isinstance(event, SensorChanged) \
                else s.sense(event.channel, event.offset)
            if counted:
                self.last_sensed = event.received if isinstance(event, SensorChanged) else self.clock()
                self._board_changed()
        elif isinstance(event, Snapshot):
            error = s.snapshot(list(event.values))
            if error:
                self._fail(error)
            else:
                self._board_changed()
        elif isinstance(event, LinkUp):
            error = s.link_up(event.hello)
            if error:
                self._fail(error)
        elif isinstance(event, LinkDown):
            s.link_down(str(event.reason))
            self._publish()
        elif isinstance(event, LinkError):
            log.warning("sensor link: %s", event.message)
        elif isinstance(event, ButtonEvent):
            s.button(event.name, event.held)
            self._changed()
        elif isinstance(event, Command):
            ok, result = s.request(event.name, event.args, event.id)
            if ok:
                self._changed()
            else:
                self._journal()  # the refusal is remembered with its id
            event.reply(ok, result)  # after the journal and the publish: an ok is never lost
        else:
            log.warning("unknown event %r", event)

    def _board_changed(self) -> None:
        """A clean move is judged at once; anything else once the board has been still for the window."""
        if self.session.clean_move():
            self.settle_at = None
            self.session.judge()
            self._publish()
        else:
            self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000

    def _changed(self) -> None:
        """The game changed by a button or a request: judge the board against it again, tell it."""
        self._took_game()
        self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000
        self._publish()

    def _fail(self, message: str) -> None:
        """A mismatch between the layout and the sensor board: nothing can be refereed."""
        log.error("%s", message)
        self.fatal = message
        self.session.event("error", message=message)
        self._publish()
        self.post(Stop())

    # -- output ----------------------------------------------------------------------------------

    def _publish(self) -> None:
        """LEDs first (the table sees at once), then the journal, then events and state: nothing
        reaches a display or an answer before it is on disk."""
        s = self.session
        self._state_seq += 1
        self._show_leds()
        self._journal()
        for event in s.take_events():
            if self.mqtt is not None:
                self.mqtt.publish_event(event)
            for observer in self.observers:
                observer("event", event)
        state = s.public_state(self._state_seq)
        if self.mqtt is not None:
            self.mqtt.publish_state(state)
            for p in range(s.state.num_players):
                self.mqtt.publish_private(p, s.private_state(p))
        for observer in self.observers:
            observer("state", state)

    def _journal(self) -> None:
        """Put the game's actions and the answers given on disk."""
        s = self.session
        if self.journal is None or self.journal_id is None:
            return
        self.journal.sync(self.journal_id, s.match.record.actions, s.answers.unsaved())
        if s.over and not self.journal_finished:
            self.journal.finish(self.journal_id, {"winners": s.winners(), "scores": list(s.state.scores()),
                                                  "resigned": s.resigned})
            self.journal_finished = True
        elif not s.over and self.journal_finished:  # an undo after the end reopens the game
            self.journal.reopen(self.journal_id)
            self.journal_finished = False

    def _show_leds(self) -> None:
        frame = render_frame(self.session.layout, self.session.scene(), self.blink_on)
        if self.strip.show(frame):
            for observer in self.observers:
                observer("leds", frame)
