"""The service: one loop owns the game.

Adapters only post events into :attr:`Service.events`: the serial reader (``firmware_bridge``
link events), gpiozero callbacks (:class:`~hardware.inputs.ButtonEvent`,
:class:`~hardware.inputs.EncoderEvent`) and paho's thread (:class:`~controller.mqtt.Command`).
The loop keeps the sensed board, waits until it has been still for the debounce window, asks the
referee what it shows, and then drives the LEDs and MQTT. Nothing else touches the match.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller import sdnotify
from controller.config import Config
from controller.games import CHANCE, TERMINAL, ChannelKind, IllegalAction, get_game
from controller.games.record import Match, Record
from controller.journal import Journal, RecentAnswers, request_key
from controller.ledview import LedScene, player_colour, render_frame
from controller.mqtt import Command, MqttBridge
from controller.referee import Referee, Verdict, shortest_turn
from firmware_bridge.link import LinkDown, LinkError, LinkUp, SensorChanged, Snapshot
from firmware_bridge.protocol import Hello
from hardware.inputs import ButtonEvent, EncoderEvent, TableInputs
from hardware.layout import Layout, LayoutError, load_layout
from hardware.leds import LedStrip

log = logging.getLogger("arbitro")

STATE_SCHEMA = 1


@dataclass(frozen=True)
class Stop:
    """Ends the loop."""


@dataclass(frozen=True)
class Call:
    """Runs ``fn`` inside the loop (for tests and the demo: read the game without racing it)."""

    fn: Callable[[], Any]
    done: queue.Queue


class Service:
    """The referee service for one board. Construct, ``start()``, ``stop()``."""

    def __init__(self, config: Config, strip: LedStrip, *, layout: Layout | None = None,
                 link_factory: Callable[[str, Callable[[object], None]], Any] | None = None,
                 mqtt: MqttBridge | None = None, inputs: TableInputs | None = None, journal: Journal | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.game = get_game(config.board.game)
        self.layout = layout or load_layout(config.board.layout or config.board.game)
        self.strip = strip
        self.clock = clock
        self.events: queue.Queue = queue.Queue()
        self.mqtt = mqtt
        self.inputs = inputs
        for adapter in (mqtt, inputs):  # adapters post into this loop, and nowhere else
            if adapter is not None:
                adapter.post = self.post
        self.link_factory = link_factory
        self.link: Any = None
        self.observers: list[Callable[[str, Any], None]] = []
        self.owned: list[Any] = []  # things started for this service alone (an in-process simulated board)
        self.fatal: str | None = None
        self._thread: threading.Thread | None = None
        self._state_seq = 0
        self.sensed: dict[str, int] = {}
        self.board_known = False
        self.link_up = False
        self.settle_at: float | None = None
        self.last_change: float | None = None
        self.verdict = Verdict("in_sync")
        self.restoring = False
        self.choice = 0
        self.resigned: int | None = None
        self.journal = journal
        self.journal_id: int | None = None
        self.journal_finished = False
        self.hello: Hello | None = None  # the sensor board's last HELLO: which board is wired up
        self._outbox: list[dict[str, Any]] = []  # events told only once the journal holds what they tell
        self._answers = RecentAnswers(journal, config.board.id)
        self._notices = [journal.set_aside] if journal is not None and journal.set_aside else []
        if not (config.journal.resume and self._resume()):
            self.new_game(config.board.game, config.board.options, config.board.num_players, config.board.seed)
        for message in self._notices:  # told once the board has its game
            self._event("warning", message=message)

    # -- the game ------------------------------------------------------------------------------

    def new_game(self, game: str, options: dict[str, Any] | None, num_players: int, seed: int) -> None:
        # Everything that can refuse runs before anything changes: a refused request leaves the game as it was.
        g = get_game(game)
        opts = g.options(options)
        players = g.players(num_players)
        layout = self.layout
        other_board = game != self.game.name
        if other_board:  # another game needs its own board: check it is the one wired up
            layout = load_layout(self.config.board.layout or game)
            self._check_board_fits(layout, g.title)
        layout.check_game(g, opts, players)
        seed = seed if seed >= 0 else random.SystemRandom().randrange(2**31)
        match = Match(Record(game, opts, players, seed))
        if other_board:  # read the new board afresh
            self.sensed = {}
            self.board_known = False
            if self.link is not None:
                self.link.request_snapshot()
        if self.journal is not None:
            if self.journal_id is not None and not self.journal_finished:
                self.journal.finish(self.journal_id, {"abandoned": True, "moves": len(self.match.record.actions)})
            self.journal_id, self.journal_finished = self.journal.start(self.config.board.id, match.record), False
        self._take(match, layout)
        log.info("new game: %s, %d players, options %s, seed %d", g.title, players, opts, seed)
        self._auto_chance()

    def _check_board_fits(self, layout: Layout, title: str) -> None:
        """Refuse (LayoutError) a game whose layout is not the board wired up: its sensors must match
        the sensor board's HELLO and its LEDs the strip."""
        same_hardware = layout.blocks == self.layout.blocks and layout.led_count == self.layout.led_count
        if self.hello is not None:
            layout.check_hello(self.hello.blocks)
        elif not same_hardware:
            raise LayoutError(f"{title} needs its own board, and the sensor board has not said which board is "
                              "wired up (the sensor link is down): connect it, then start the game")
        if not self.strip.can_show(layout.led_count):
            raise LayoutError(f"{title}'s board has {layout.led_count} LEDs; this strip has {self.strip.n}")

    def _resume(self) -> bool:
        """Carry on with the board's unfinished game from the journal (after a power cut or crash)."""
        if self.journal is None:
            return False
        found = self.journal.unfinished(self.config.board.id)
        if found is None:
            return False
        game_id, record = found
        try:
            match = Match(record)  # every action re-checked by the rules engine
            layout = load_layout(self.config.board.layout or record.game)
            layout.check_game(get_game(record.game), record.options, record.num_players)
            if record.game != self.game.name:
                self._check_board_fits(layout, get_game(record.game).title)
        except (ValueError, KeyError) as exc:  # LayoutError and IllegalAction are ValueErrors
            message = (f"the journal's unfinished {record.game} game {game_id} cannot go on on this board "
                       f"({exc}); it is set aside (arbitro journal --export {game_id}) and a new "
                       f"{self.game.name} game starts")
            log.error("%s", message)
            self.journal.finish(game_id, {"abandoned": True, "error": str(exc)})
            self._notices.append(message)
            return False
        self.journal_id, self.journal_finished = game_id, False
        self._take(match, layout)
        log.info("resumed %s after %d actions (journal game %d)", self.game.title, len(record.actions), game_id)
        return True

    def _take(self, match: Match, layout: Layout) -> None:
        """Make ``match`` the game on this board."""
        g = get_game(match.record.game)
        opts, players = match.record.options, match.record.num_players
        self.strip.resize(layout.led_count)
        self.layout = layout
        self.game = g
        self.match = match
        self.channels = g.channels(opts, players)
        self.kinds = {c.name: c.kind for c in self.channels}
        self.referee = Referee(self.match, self.channels, allow_takeback=self.config.board.allow_takeback)
        self.verdict = Verdict("in_sync")
        self.resigned = None
        self.restoring = False
        self.choice = 0
        # A new game starts with the board to set up: what differs is shown, not flagged.
        self.setup_channels: set[str] = {c.name for c in self.channels}
        if self.inputs is not None:
            self.inputs.calibrate({c: v for c, v in self.referee.expected().items()
                                   if self.kinds[c] == ChannelKind.OFFSET})
            self.sensed.update(self.inputs.offsets())

    @property
    def state(self):
        return self.match.state

    # -- life cycle ----------------------------------------------------------------------------

    def post(self, event: object) -> None:
        self.events.put(event)

    def start(self) -> Service:
        self._open_adapters()
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
        done: queue.Queue = queue.Queue()
        self.post(Call(fn, done))
        ok, value = done.get(timeout=timeout)
        if not ok:
            raise value
        return value

    def _open_adapters(self) -> None:
        if self.mqtt is not None:
            self.mqtt.start()
            # Give displays the game from its first state; a broker that is away does not stop play.
            if not self.mqtt.connected.wait(3.0):
                log.warning("MQTT broker not reachable yet; refereeing anyway, state goes out on connect")
        if self.link_factory is not None:
            self.link = self.link_factory(self.config.sensors.url, self.post)
            self.link.start()
        self._publish("start")

    def _loop(self) -> None:
        blink_period = 0.5 / self.config.leds.blink_hz
        next_blink = self.clock() + blink_period
        self.blink_on = True
        ping = sdnotify.watchdog_interval()
        next_ping = self.clock() if ping else None
        sdnotify.notify(f"READY=1\nSTATUS=refereeing {self.game.title}")
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
                    self._settled()
                if now >= next_blink:
                    next_blink = now + blink_period
                    self.blink_on = not self.blink_on
                    self._show_leds()
                if self._outbox:  # events from a handler that published no state (the link came up)
                    self._journal()
                    self._send_events()
            except Exception:  # the loop must outlive any one bad event
                log.exception("error while handling %r", event)

    # -- events ----------------------------------------------------------------------------------

    def _handle(self, event: object) -> None:
        if isinstance(event, Call):
            try:
                event.done.put((True, event.fn()))
            except Exception as exc:
                event.done.put((False, exc))
        elif isinstance(event, SensorChanged):
            channel = self.layout.channel_of.get(event.channel)
            log.debug("sensor %d (%s) -> %d", event.channel, channel, event.value)
            if channel is not None and self.board_known:
                self.sensed[channel] = event.value
                self.last_change = event.received
                self._schedule()
        elif isinstance(event, Snapshot):
            log.debug("snapshot of %d channels", len(event.values))
            if len(event.values) != self.layout.sensor_count:
                self._fail(f"the sensor board sent {len(event.values)} channels, the layout has "
                           f"{self.layout.sensor_count}")
                return
            for sensor, value in enumerate(event.values):
                channel = self.layout.channel_of.get(sensor)
                if channel is not None:
                    self.sensed[channel] = value
            self.board_known = True
            self.last_change = self.clock()
            self._schedule()
        elif isinstance(event, LinkUp):
            try:
                self.layout.check_hello(event.hello.blocks)
            except LayoutError as exc:
                self._fail(str(exc))
                return
            self.link_up = True
            self.hello = event.hello
            self._event("link", up=True)
        elif isinstance(event, LinkDown):
            self.link_up = False
            self.board_known = False  # judge nothing on stale readings; a snapshot follows the reconnect
            self._event("link", up=False, reason=str(event.reason))
            self._publish("link")
        elif isinstance(event, LinkError):
            log.warning("sensor link: %s", event.message)
        elif isinstance(event, EncoderEvent):
            self.sensed[event.channel] = event.offset
            self.last_change = self.clock()
            self._schedule()
        elif isinstance(event, ButtonEvent):
            self._button(event)
        elif isinstance(event, Command):
            self._command(event)
        else:
            log.warning("unknown event %r", event)

    def _fail(self, message: str) -> None:
        """A mismatch between the layout and the sensor board: nothing can be refereed."""
        log.error("%s", message)
        self.fatal = message
        self._event("error", message=message)
        self._publish("error")
        self.post(Stop())

    def _schedule(self) -> None:
        self.settle_at = self.clock() + self.config.sensors.debounce_ms / 1000

    # -- judging ---------------------------------------------------------------------------------

    def _settled(self) -> None:
        if not self.board_known:
            return
        if self.state.is_terminal() or self.resigned is not None:
            verdict = Verdict("in_sync") if self.sensed_matches() else Verdict("progress")
        elif self.restoring:
            if self.sensed_matches():
                self.restoring = False
                verdict = Verdict("in_sync")
            else:
                verdict = Verdict("violation", channels=self._differing(),
                                  message="put the board back as it was: " +
                                  self.referee.describe(self.referee.expected(), self.sensed))
        else:
            verdict = self.referee.judge(self.sensed, takeback=not self.setup_channels)
            if verdict.kind in ("applied", "in_sync"):  # the board is set up: mistakes are mistakes again
                self.setup_channels.clear()
            elif verdict.kind == "violation" and set(verdict.channels) <= self.setup_channels:
                # What a die, draw or random placement asks the table to do: not a mistake.
                verdict = Verdict("setup", channels=verdict.channels, message="set up the board: " +
                                  self.referee.describe(self.referee.expected(), self.sensed))
        before = self.verdict
        self.verdict = verdict
        if verdict.kind == "applied":
            self._announce(len(verdict.actions), by="board")
            self.choice = 0
            self._after_action()
        elif verdict.kind == "takeback":
            self._event("takeback", actions=list(verdict.actions))
            self.choice = 0
        elif verdict.kind in ("violation", "ambiguous", "setup") and verdict != before:
            self._event(verdict.kind, message=verdict.message, channels=list(verdict.channels),
                        choices=len(verdict.actions))
        elif verdict.kind == "in_sync" and before.kind == "violation":
            self._event("resolved")
        self._publish("judged")

    def sensed_matches(self) -> bool:
        return all(self.sensed.get(c, 0) == v for c, v in self.referee.expected().items())

    def _differing(self) -> tuple[str, ...]:
        return tuple(sorted(c for c, v in self.referee.expected().items() if self.sensed.get(c, 0) != v))

    def _after_action(self) -> None:
        if self.state.is_terminal():
            self._event("game_over", winners=self.state.winners(), scores=list(self.state.scores()))
        self._auto_chance()

    def _auto_chance(self) -> None:
        if self.config.board.chance == "auto":
            while self.state.current_player == CHANCE:
                self._resolve_chance()

    def _resolve_chance(self, text: str | None = None) -> str:
        if self.state.current_player != CHANCE:
            raise IllegalAction(text or "roll", "nothing to roll: no die, card or draw is pending")
        view = self.referee.expected()
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
        made happen (a capture, a tower, a crash, the rings aligning)."""
        for text, happened in zip(self.match.public_log[-count:], self.match.announced[-count:], strict=True):
            if by == "chance":
                self._event("chance", outcome=text)
            else:
                self._event("action", action=text, by=by)
            for item in happened:
                self._event(item["type"], **{k: v for k, v in item.items() if k != "type"})

    def _undo(self) -> str:
        if self.resigned is not None:  # the resignation is what is taken back
            self._event("undo", action=f"resign {self.resigned}")
            self.resigned = None
            return "resign"
        if len(self.match.record.actions) == 0:
            raise IllegalAction("undo", "there is nothing to undo")
        undone = self.match.public_log[-1]
        self.match.undo()
        # Chance steps are taken back with the move they followed.
        while self.state.current_player == CHANCE and self.match.record.actions:
            undone = self.match.public_log[-1]
            self.match.undo()
        self.restoring = not self.sensed_matches()
        self._event("undo", action=undone)
        return undone

    # -- buttons ---------------------------------------------------------------------------------

    def _button(self, event: ButtonEvent) -> None:
        log.info("button %s%s", event.name, " (held)" if event.held else "")
        try:
            if event.name == "roll" and not event.held:
                self._resolve_chance()
            elif event.name == "undo" and event.held:  # hold undo: a new game with the same settings
                self.new_game(self.game.name, self.match.record.options, self.match.record.num_players, -1)
                self._event("new_game", game=self.game.name, num_players=self.match.record.num_players)
            elif event.name == "undo":
                self._undo()
            elif event.name == "next":
                options = self.choices()
                if options:
                    self.choice = (self.choice + (-1 if event.held else 1)) % len(options)
                    # Moves the board shows are public; a choice among silent actions (a card to
                    # program) is the player's secret: its text goes to player/<n> only.
                    shown = {"action": options[self.choice], "index": self.choice, "of": len(options)} \
                        if self.board_choices() else {}
                    self._event("choice", player=self.state.current_player, **shown)
            elif event.name == "confirm":
                options = self.choices()
                if not options:
                    raise IllegalAction("confirm", "there is no choice to confirm")
                self._apply_text(options[self.choice % len(options)], by="button")
        except IllegalAction as exc:
            self._event("refused", message=str(exc))
        self._schedule()
        self._publish("button")

    def choices(self) -> list[str]:
        """What ``next``/``confirm`` pick from: the moves an ambiguous board fits, or the move a
        board on the way to another already shows (a crash), else the actions with no physical trace."""
        return self.board_choices() or (self.referee.silent_actions() if self.state.current_player >= 0 else [])

    def board_choices(self) -> list[str]:
        """The moves the board itself shows, to choose among (public: everyone sees the board)."""
        return list(self.verdict.actions) if self.verdict.kind in ("ambiguous", "progress") else []

    # -- MQTT commands ---------------------------------------------------------------------------

    def _command(self, cmd: Command) -> None:
        """Run a request once, put what it did on disk, tell displays, and only then answer it: an
        ``ok`` is never lost in a crash. A request repeated with the same id (an MQTT redelivery, a
        client retrying after a lost answer) gets the first answer again and runs no more."""
        key = None if cmd.id is None or cmd.name == "state" else request_key(cmd.name, cmd.id, cmd.args)
        answered = self._answers.get(key) if key is not None else None
        if answered is not None:
            cmd.reply(*answered)
            return
        try:
            ok, result = True, self._run_command(cmd.name, cmd.args)
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            ok, result = False, exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if key is not None:
            self._answers.add(key, ok, result)
        if ok:
            self._schedule()  # the game changed: judge the board against it again
            self._publish(cmd.name)
        elif key is not None:
            self._journal()
        cmd.reply(ok, result)

    def _run_command(self, name: str, args: dict[str, Any]) -> Any:
        def arg(key: str, kind: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
            if key not in args:
                if required:
                    raise ValueError(f"{name}: missing {key!r}")
                return default
            value = args[key]
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                raise ValueError(f"{name}: {key!r} has the wrong type")
            return value

        allowed = {"new_game": {"game", "num_players", "options", "seed"}, "undo": set(), "roll": set(),
                   "enter": {"value"}, "choose": {"action"}, "resign": {"player"},
                   "configure": {"allow_takeback", "chance"}, "state": set()}[name]
        unknown = set(args) - allowed
        if unknown:
            raise ValueError(f"{name}: unknown field(s) {sorted(unknown)}")
        if name == "state":
            return self.public_state()
        if name == "new_game":
            game = arg("game", str, self.game.name)
            players = arg("num_players", int, 0)
            seed = arg("seed", int, -1)
            if not -1 <= seed < 2**63:
                raise ValueError("new_game: seed out of range")
            options = arg("options", dict, {})
            self.new_game(game, options, players, seed)
            self._event("new_game", game=game, num_players=self.match.record.num_players)
            # A fresh seed is never told: with it, every future die, draw and hidden hand is known.
            return {"game": game, "seed": seed} if seed >= 0 else {"game": game}
        if (self.state.is_terminal() or self.resigned is not None) and name != "undo" and name != "configure":
            raise ValueError(f"{name}: the game is over")
        if name == "undo":
            return {"undone": self._undo()}
        if name == "roll":
            return {"outcome": self._resolve_chance()}
        if name == "enter":
            value = arg("value", (str, int), required=True)
            if self.state.current_player != CHANCE:
                raise ValueError("enter: no die, card or draw is pending")
            text = str(value)
            legal = {self.state.action_to_text(a): a for a in self.state.legal_actions()}
            if text not in legal:
                matches = [t for t in legal if t.split()[-1] == text]
                if len(matches) != 1:
                    raise ValueError(f"enter: {text!r} is not a possible outcome; possible: {sorted(legal)[:20]}")
                text = matches[0]
            return {"outcome": self._resolve_chance(text)}
        if name == "choose":
            text = arg("action", str, required=True)
            if len(text) > 200:
                raise ValueError("choose: action text too long")
            if self.state.current_player < 0:
                raise ValueError("choose: no player is to act (a roll is pending)")
            return {"action": self._apply_text(text, by="mqtt")}
        if name == "resign":
            player = arg("player", int, required=True)
            if not 0 <= player < self.state.num_players:
                raise ValueError(f"resign: player must be 0..{self.state.num_players - 1}")
            self.resigned = player
            self._event("resign", player=player)
            return {"resigned": player}
        if name == "configure":
            takeback = arg("allow_takeback", bool)
            chance = arg("chance", str)
            if chance is not None and chance not in ("button", "auto"):
                raise ValueError("configure: chance must be 'button' or 'auto'")
            if takeback is not None:
                self.config.board.allow_takeback = takeback
                self.referee.allow_takeback = takeback
            if chance is not None:
                self.config.board.chance = chance
                self._auto_chance()
            return {"allow_takeback": self.config.board.allow_takeback, "chance": self.config.board.chance}
        raise ValueError(f"unknown command {name!r}")

    # -- output ----------------------------------------------------------------------------------

    def _event(self, kind: str, **data: Any) -> None:
        """Queue an event; :meth:`_send_events` tells it, after the journal has what it says."""
        event = {"type": kind, "game": self.game.name, "move": len(self.match.record.actions), **data}
        log.info("%s %s", kind.replace("_", " "), ", ".join(f"{k} {v}" for k, v in data.items()))
        self._outbox.append(event)

    def _send_events(self) -> None:
        events, self._outbox = self._outbox, []
        for event in events:
            if self.mqtt is not None:
                self.mqtt.publish_event(event)
            for observer in self.observers:
                observer("event", event)

    def winners(self) -> list[int]:
        if self.resigned is not None:
            return [p for p in range(self.state.num_players) if p != self.resigned]
        return self.state.winners()

    def public_state(self) -> dict[str, Any]:
        state = self.state
        over = state.is_terminal() or self.resigned is not None
        turn = None if over or state.current_player < 0 else state.current_player
        pending = None
        if state.current_player == CHANCE and not over:
            pending = {"outcomes": sorted({state.public_action_text(a) for a, _ in state.chance_outcomes()})[:64]}
        v = self.verdict
        return {
            "schema": STATE_SCHEMA,
            "seq": self._state_seq,
            "board": self.config.board.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.match.record.options,
            "num_players": state.num_players,
            "players": [{"index": p, "colour": "#{:02x}{:02x}{:02x}".format(*player_colour(p))}
                        for p in range(state.num_players)],
            "turn": turn,
            "phase": "over" if over else state.phase,
            "moves": len(self.match.record.actions),
            "last_action": self.match.public_log[-1] if self.match.public_log else None,
            "board_view": state.public_view(),
            "scores": list(state.scores()),
            "over": over,
            "winners": self.winners() if over else [],
            "resigned": self.resigned,
            "pending_chance": pending,
            "targets": sorted(self.referee.targets(self.sensed)) if turn is not None else [],
            "verdict": v.kind,
            "violation": {"message": v.message, "channels": list(v.channels)} if v.kind == "violation" else None,
            "setup": {"message": v.message, "channels": list(v.channels)} if v.kind == "setup" else None,
            "ambiguous": len(v.actions) if v.kind == "ambiguous" else 0,
            "sensors": "up" if self.link_up else "down",
        }

    def _publish(self, why: str) -> None:
        """LEDs first (the table sees at once), then the journal, then events and state: nothing
        reaches a display or an answer before it is on disk."""
        self._state_seq += 1
        self._show_leds()
        self._journal()
        self._send_events()
        state = self.public_state()
        if self.mqtt is not None:
            self.mqtt.publish_state(state)
            for p in range(self.state.num_players):
                private = dict(self.state.private_view(p))
                if p == self.state.current_player:
                    private["choices"] = choices = self.choices()
                    if choices:
                        private["choice"] = choices[self.choice % len(choices)]
                self.mqtt.publish_private(p, private)
        for observer in self.observers:
            observer("state", state)

    def _journal(self) -> None:
        """Put the game's actions on disk (after the LEDs: should the power go in between, the move
        is still on the board, and the referee takes it again when the game resumes)."""
        if self.journal is None or self.journal_id is None:
            return
        self.journal.sync(self.journal_id, self.match.record.actions, self._answers.unsaved())
        over = self.state.is_terminal() or self.resigned is not None
        if over and not self.journal_finished:
            self.journal.finish(self.journal_id, {"winners": self.winners(), "scores": list(self.state.scores()),
                                                  "resigned": self.resigned})
            self.journal_finished = True
        elif not over and self.journal_finished:  # an undo after the end reopens the game
            self.journal.reopen(self.journal_id)
            self.journal_finished = False

    def scene(self) -> LedScene:
        state = self.state
        v = self.verdict
        if state.is_terminal() or self.resigned is not None:
            return LedScene(TERMINAL, {}, winners=tuple(self.winners()))
        targets = self.referee.targets(self.sensed) if state.current_player >= 0 else {}
        turns = []
        for channel, value in list(targets.items()):
            if self.kinds.get(channel) == ChannelKind.OFFSET:
                del targets[channel]
                spaces = self.referee.channels[channel].maximum + 1
                turns.append((channel, shortest_turn(self.sensed.get(channel, 0), value, spaces)))
        view = state.public_view()
        return LedScene(
            player=state.current_player,
            targets=targets,
            violation=v.channels if v.kind == "violation" else (),
            progress=v.channels if v.kind in ("progress", "setup") else (),
            ambiguous=v.kind == "ambiguous",
            aligned=bool(view.get("aligned")) if isinstance(view, dict) else False,
            offsets_to_turn=tuple(turns),
        )

    def _show_leds(self) -> None:
        frame = render_frame(self.layout, self.scene(), getattr(self, "blink_on", True))
        if self.strip.show(frame):
            for observer in self.observers:
                observer("leds", frame)
