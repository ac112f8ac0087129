"""The service: one loop owns the table session.

Adapters (the serial reader, gpiozero callbacks, paho's thread) only post events into
:attr:`Service.events`. The loop translates each into the pure :class:`~controller.session.Session`'s
terms (a sensor index into a channel, through :class:`~controller.wiring.Wiring`), decides *when*
the board is judged (a clean move at once, anything else after the debounce window; what the hands
may still change, again once the board has been still for the commit window), and carries out the
:class:`~controller.session.Outcome` the session returns: its effects, the LED frame
(:class:`~controller.lights.Lights`), then the journal and what is told
(:class:`~controller.teller.Teller`: nothing is told before it is on disk).
While the journal cannot be written (a full or read-only disk) the table plays on, requests are
refused with the reason, the state says the service is degraded, and everything is written and told
once the journal can be again.
"""

from __future__ import annotations

import gc
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from controller import sdnotify
from controller.computer import decide_apart
from controller.config import Config
from controller.games.base import Phrase
from controller.journal import Journal
from controller.mqtt import Command
from controller.ports import Call, Inputs, Link, Post, Publisher, Sound, Stop
from controller.remote_link import RemoteIn
from controller.session import CalibrateRings, Decide, Effect, Outcome, RequestSnapshot, Session, TakeBoard
from controller.table import Table
from firmware_bridge.boardconfig import SHIPPED_FIRMWARE, firmware_differs
from firmware_bridge.link import LinkDown, LinkError, LinkUp, SensorChanged, SensorTime, Snapshot
from firmware_bridge.protocol import Hello
from hardware.inputs import ButtonEvent, EncoderEvent
from hardware.layout import Layout
from hardware.leds import LedStrip

MIN_HEARTBEAT_MS = 10  # a quiet board's word on its time at most this often (a few bytes on USB each)

log = logging.getLogger("arbitro")

PREPARE_POLL_S = 0.002  # how often the loop looks whether the LEDs are out, to build the next move table

# Garbage is collected by the loop while it is idle, never in the middle of a move: a full collection
# of the service's heap takes 10-25 ms here (four times that on a Pi), one of the young generations
# up to 2 ms. What the start made is frozen out of every collection; Python's own collections are
# left as a backstop for a loop that never idles (a young one after this many net allocations: a
# move's step makes at most about 650, a next move table built in idle steps a few thousand).
GC_BACKSTOP = 10_000
GC_IDLE_AFTER = 200  # net allocations since the last collection that make an idle loop collect (a move's: thousands)
GC_FULL_EVERY = 16  # of the loop's idle collections of the young generations, one is a full collection

# what the service tells the operator, beside the game (events)
OTHER_CONFIG = Phrase("service.other_config", "the sensor board's configuration is another layout's: {problem}")
NOT_THIS_BOARD = Phrase("service.not_this_board", "the sensor board is not this layout's: {problem}")

class Service:
    """The referee service for one board. Construct, ``start()``, ``stop()``; read the session
    with :meth:`read`."""

    def __init__(self, config: Config, strip: LedStrip, *, layout: Layout | None = None,
                 link_factory: Callable[[str, Post], Link] | None = None, mqtt: Publisher | None = None,
                 inputs: Inputs | None = None, open_inputs: Callable[[], Inputs | None] | None = None,
                 journal: Journal | None = None, sound: Sound | None = None,
                 clock: Callable[[], float] = time.monotonic, wall_clock: Callable[[], float] = time.time) -> None:
        """``open_inputs``: makes the buttons and rings as the service starts, once ``online`` is out
        (gpiozero is a third of the imports before it); or ``inputs``, made already."""
        self.config = config
        self.strip = strip
        self.clock = clock
        self.events: queue.Queue[object] = queue.Queue()
        self.mqtt = mqtt
        self.inputs = inputs
        self.open_inputs = open_inputs
        for adapter in (mqtt, inputs):  # adapters post into this loop, and nowhere else
            if adapter is not None:
                adapter.post = self.post
        self.sound = sound  # the buzzer and the voice hear every publish (the teller's last)
        self.link_factory = link_factory
        self.link: Link | None = None
        self.owned: list[Any] = []  # things started for this service alone (an in-process simulated board)
        self.fatal: str | None = None
        self.settle_at: float | None = None  # when the board is judged: the debounce window is over
        self.commit_at: float | None = None  # when a held verdict is judged again: the commit window is over
        self.still_since = clock()  # when the board last changed
        # Sensor time (the MCU's uptime, ms): when the board last changed, and the latest the board has
        # said. A held verdict is committed only once the board itself has been still for the window:
        # a loop that got round to it late (a loaded Pi) never takes a chattering sensor for a move.
        self.still_mcu: int | None = None  # None: the last change has no sensor time (a ring, a snapshot)
        self.sensor_now: int | None = None
        self.commit_due = False  # the commit window is over on the host's clock, not yet in sensor time
        self.warned_firmware = ""  # the sensor board's firmware last warned about (another than the one shipped)
        self.last_sensed: float | None = None  # when the last sensor reading that counted arrived
        self.collections = 0  # the loop's idle collections
        self._thread: threading.Thread | None = None
        self.journal = journal
        table = Table.build(config, strip, layout, journal, mqtt, sound, self.post, clock, wall_clock)
        self.wiring, self.session, self.kept, self.teller = table.wiring, table.session, table.kept, table.teller
        self.lights, self.remote = table.lights, table.remote
        self.watchers = self.teller.watchers  # see every event (the demo, tests)
        self._opened = table.opened  # its effects carried out now, the rest once the service starts
        for effect in self._opened.effects:
            self._effect(effect)

    def post(self, event: object) -> None:
        self.events.put(event)

    def start(self) -> Service:
        self.strip.start()  # LED frames go out on their own thread: the loop never waits for the wire
        if self.mqtt is not None:
            self.mqtt.start()
            # Give displays the game from its first state; a broker that is away does not stop play.
            if not self.mqtt.connected.wait(3.0):
                log.warning("MQTT: not connected to %s:%d yet; refereeing anyway, state goes out on connect",
                            self.config.mqtt.host, self.config.mqtt.port)
        if self.open_inputs is not None and (inputs := self.open_inputs()) is not None:
            inputs.post = self.post  # nothing is lost: what they post waits for the loop, started below
            self.inputs = inputs
            self._effect(CalibrateRings(self.session.ring_offsets()))  # where the game wants them now
        if self.remote is not None:
            self.remote.start()
        if self.link_factory is not None:
            self.link = self.link_factory(self.config.sensors.url, self.post)
            self.link.start()
        self._carry_out(self._opened, effects=False)
        if not gc.get_freeze_count():  # once a process (the tests start many services in one)
            gc.collect()  # what the start made (modules, the game, its first move table) is never looked at again
            gc.freeze()
        gc.set_threshold(GC_BACKSTOP, *gc.get_threshold()[1:])
        self._thread = threading.Thread(target=self._loop, name="arbitro-loop", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.post(Stop())
        if self._thread is not None:
            self._thread.join(10)
        if self.teller.failing:
            log.error("stopping, and %s: what happened since it last could be is not recorded", self.teller.fault())
        for part in (self.link, self.remote, self.mqtt):
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

    @property
    def language(self) -> str:
        return self.config.board.language

    def public_state(self) -> dict[str, Any]:
        """The public state as published (call it inside the loop), stamped (``Teller.stamp``)."""
        return self.teller.stamp(self.session.public_state())

    def _loop(self) -> None:
        next_blink = self.clock() + self.lights.period
        watchdog = sdnotify.Watchdog(self.clock())
        sdnotify.notify(f"READY=1\nSTATUS=refereeing {self.session.game.title}")
        while True:
            now = self.clock()
            watchdog.tick(now)  # the loop turns: tell systemd
            deadline = min(d for d in (self.settle_at, self.commit_at, next_blink, watchdog.due, self.teller.retry_at)
                           if d is not None)
            wait = max(0.0, deadline - now)
            # A move table to build (or a held move's state) while nothing else waits, once the LEDs'
            # worker (it needs the GIL) is done.
            unready = self.session.unready
            preparing = unready and not (self.strip.writing or self.strip.waiting)
            if unready:
                wait = 0.0 if preparing else min(wait, PREPARE_POLL_S)
            elif self._at_rest() and gc.get_count()[0] >= GC_IDLE_AFTER and self.events.empty():
                self._collect()  # nothing waits or is due: the garbage of what was just done, off the next move's path
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
                elif preparing and (built := self.session.prepare()) is not None:
                    self._carry_out(built)  # the table is built: the LEDs, the state and the seats show what it says
                now = self.clock()
                if self.settle_at is not None and now >= self.settle_at and self.events.empty():
                    self.settle_at = None  # (the changes of one scan, queued together, are judged together)
                    self._judge(settled=False)
                if self.commit_at is not None and now >= self.commit_at:
                    self.commit_at, self.commit_due = None, True
                if self.commit_due and self._still_in_sensor_time():
                    self._judge(settled=True)
                if now >= next_blink:
                    next_blink = now + self.lights.period
                    self.lights.blink()
                if self.teller.retry_at is not None and now >= self.teller.retry_at:
                    self.teller.flush()  # the journal tried again: all that waited is told if it can be written
            except Exception:  # the loop must outlive any one bad event
                log.exception("error while handling %r", event)

    def _at_rest(self) -> bool:
        """No judgement of the board is due or waiting for a window (the hands are not mid-move)."""
        return self.settle_at is None and self.commit_at is None and not self.commit_due

    def _collect(self) -> None:
        """Collect the young generations' garbage (every :data:`GC_FULL_EVERY` th time all of it)
        while the loop is idle."""
        self.collections += 1
        gc.collect(2 if self.collections % GC_FULL_EVERY == 0 else 1)

    def _handle(self, event: object) -> None:
        s = self.session
        if isinstance(event, Call):
            event.run()
        elif isinstance(event, SensorChanged):
            self.sensor_now = event.mcu_ms
            channel = self.wiring.channel(event.channel)
            if channel is not None:
                self._sensed(s.sense(channel, event.value), event.received, event.mcu_ms)
        elif isinstance(event, SensorTime):
            self.sensor_now = event.mcu_ms
        elif isinstance(event, EncoderEvent):
            self._sensed(s.sense(event.channel, event.offset), self.clock())
        elif isinstance(event, Snapshot):
            readings = self.wiring.readings(list(event.values))
            if isinstance(readings, str):
                self._failed(readings)
            else:
                self._sensed(s.snapshot(readings), None)
        elif isinstance(event, LinkUp):
            if firmware_differs(event.hello.firmware) and event.hello.firmware != self.warned_firmware:
                self.warned_firmware = event.hello.firmware  # once (a HELLO comes again after CONFIGURE); in info too
                log.warning("the sensor board runs %s, this arbitro ships %s: flash it (arbitro firmware flash)",
                            event.hello.firmware, SHIPPED_FIRMWARE)
            error, warning = self.wiring.link_up(event.hello)
            if error is not None:
                self._failed(error)
            else:
                self._tick_often_enough(event.hello)
                self._carry_out(s.link_up(None if warning is None else OTHER_CONFIG(problem=warning)))
        elif isinstance(event, LinkDown):
            self._carry_out(s.link_down(str(event.reason)))
        elif isinstance(event, LinkError):
            log.warning("sensor link: %s", event.message)
        elif isinstance(event, ButtonEvent):
            if not self.teller.refuse_button(event.name, event.held):
                self._changed(s.button(event.name, event.held))
        elif isinstance(event, Command):
            self._command(event)
        elif isinstance(event, RemoteIn):
            self._changed(s.remote_in(event.kind, event.data))
        else:
            log.warning("unknown event %r", event)

    def _command(self, command: Command) -> None:
        if self.teller.refuse(command):  # nothing can be written: refused at once, and why
            return
        outcome = self.session.request(command.name, command.args, command.id, to_operator=command.to_operator)
        assert outcome.answer is not None
        ok, result = outcome.answer
        self._changed(outcome) if ok else self._carry_out(outcome)
        self.teller.answer(command, ok, result, outcome.refusal)

    def _sensed(self, outcome: Outcome, received: float | None, mcu_ms: int | None = None) -> None:
        """A reading changed the board: a clean move is judged at once (once the changes queued with
        it are in); anything else once the board has been still for the debounce window. What the
        hands may still change waits for the commit window (``_judge``), in sensor time."""
        if not outcome.sensed:
            return
        if received is not None:
            self.last_sensed = received
        self.still_since = self.clock()
        self.still_mcu = mcu_ms
        self.commit_at, self.commit_due = None, False
        if outcome.clean:
            self.settle_at = self.still_since
        else:
            self.settle_at = self.still_since + self.config.sensors.debounce_ms / 1000

    def _tick_often_enough(self, hello: Hello) -> None:
        """The sensor board says its time in a HEARTBEAT once it has been quiet for its heartbeat
        period: a held move waits for that word (the commit window is in sensor time), so the board
        is asked to say it at least twice per commit window (its scan settings kept). It answers
        with a HELLO that already has the period: asked once."""
        wanted = max(MIN_HEARTBEAT_MS, min(hello.heartbeat_ms, round(self.config.sensors.commit_ms / 2)))
        if self.link is not None and hello.heartbeat_ms != wanted:
            self.link.configure(hello.scan_us / 1000, hello.debounce_scans, wanted)

    def _still_in_sensor_time(self) -> bool:
        """The board has been still for the commit window by the sensor board's own clock (or the
        last change has no sensor time: a ring turned, a snapshot)."""
        if self.still_mcu is None:
            return True
        now = self.sensor_now if self.sensor_now is not None else self.still_mcu
        still = (now - self.still_mcu) & 0xFFFFFFFF  # the firmware's uptime is a u32 of milliseconds
        if still >= 1 << 31:
            still -= 1 << 32  # the board's clock before the change: not still at all
        return still >= self.config.sensors.commit_ms

    def _judge(self, settled: bool) -> None:
        """Judge the board. A verdict the hands may still change is held: the LEDs show it, nothing
        is recorded or told, and it is judged again once the board has been still for the commit
        window (``sensors.commit_ms``)."""
        self.commit_at, self.commit_due = None, False
        outcome = self.session.judge(settled=settled)
        if outcome.held:
            self.commit_at = self.still_since + self.config.sensors.commit_ms / 1000
        self._carry_out(outcome)

    def _changed(self, outcome: Outcome) -> None:
        """The game changed by a button or a request: judge the board against it again, tell it."""
        self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000
        self._carry_out(outcome)

    def _failed(self, message: str) -> None:
        """A mismatch between the layout and the sensor board (``message``): nothing can be refereed."""
        log.error("%s", message)
        self.fatal = message
        self._carry_out(self.session.error(NOT_THIS_BOARD(problem=message)))
        self.post(Stop())

    def _carry_out(self, outcome: Outcome, effects: bool = True) -> None:
        """What the session said: its effects, the LEDs first (the table sees at once), then the
        journal and what is told."""
        if effects:
            for effect in outcome.effects:
                self._effect(effect)
        if not outcome.held:  # a button or request committed what was held
            self.commit_at, self.commit_due = None, False
        self.lights.show(outcome.scene)
        self.teller.tell(outcome)

    def _effect(self, effect: Effect) -> None:
        if isinstance(effect, TakeBoard):  # the strip sized for the game's board
            self.session.referee.lazy = True  # the next move table is built while the loop is idle, off a move's path
            layout = self.wiring.take(effect.game)
            self.session.referee.sensing(layout.sensing_max())  # a full pit reads "that many or more"
            self.strip.resize(layout.led_count)
        elif isinstance(effect, CalibrateRings):
            if self.inputs is not None:
                self.inputs.calibrate(effect.offsets)
                for channel, offset in self.inputs.offsets().items():
                    self.session.sense(channel, offset)
        elif isinstance(effect, RequestSnapshot) and self.link is not None:
            self.link.request_snapshot()
        elif isinstance(effect, Decide):  # off the loop: the table goes on being refereed meanwhile
            decide_apart(effect, self.post, self._decided,
                         lambda ask, error: self._carry_out(self.session.decision_failed(ask, error)))

    def _decided(self, ask: Decide, text: str) -> None:
        """A decision is kept in the journal before the LEDs show it: a power cut resumes showing the same move."""
        outcome = self.session.decided(ask.moves, text, ask.hint)
        self.teller.tell(outcome)
        for effect in outcome.effects:
            self._effect(effect)
        self.lights.show(outcome.scene)
        self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000  # the board judged against it
