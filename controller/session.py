"""The table session: one board's game, pure.

A :class:`Session` owns the match, the referee, the sensed board and what the referee made of it
(the verdict), takebacks and undo, the buttons' choice, resignations, and the events that tell
what happened. It has no thread, no clock and no I/O: the service's loop (``controller.service``)
feeds it typed values — sensor readings, link changes, button presses, requests — decides *when*
to judge (the debounce and commit windows), and carries what it says out to the LEDs, the journal
and MQTT.
So every rule of the table is tested without threads or sleeps (``tests/test_session.py``).

What it is handed from outside: the board's layout and a way to load another game's
(``layout_for``), whether the LED strip can show a layout (``strip_fits``), where fresh chance
secrets come from (``fresh_secret``), the answers already given to requests (``answers``, from the
journal), and the service's own health (:attr:`Session.health`, shown in the public state).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from controller import commands
from controller.config import BoardConfig
from controller.games import CHANCE, TERMINAL, ChannelKind, Game, IllegalAction, State, get_game
from controller.games.base import Message, Phrase
from controller.games.chance import SCHEME, seed_secret
from controller.games.record import ChanceKey, Match, Record
from controller.i18n import as_json
from controller.journal import RecentAnswers, request_key
from controller.ledview import LedScene, game_colours
from controller.referee import Redo, Referee, Verdict, shortest_turn
from controller.words import event_line, in_words
from firmware_bridge.link import SensorChanged
from firmware_bridge.protocol import Hello
from hardware.inputs import EncoderEvent
from hardware.layout import Layout, LayoutError

log = logging.getLogger("arbitro")

STATE_SCHEMA = 1
HEALTHY = {"status": "ok"}
PUT_BACK = Phrase("table.put_back", "put the board back as it was: {what}")
SET_UP = Phrase("table.set_up", "set up the board: {what}")
NOTHING_TO_ROLL = Phrase("table.nothing_to_roll", "nothing to roll: no die, card or draw is pending")
NOTHING_TO_UNDO = Phrase("table.nothing_to_undo", "there is nothing to undo")
NO_CHOICE = Phrase("table.no_choice", "there is no choice to confirm")
REFUSED = Phrase("table.refused", "illegal action {action}: {reason}")


def told(said: Message | None) -> dict[str, Any]:
    """What is said, for an event or the state: its English ``message`` with its ``code`` and
    ``params`` (``controller.i18n`` says it in the board's language at the edge)."""
    return {} if said is None else {"message": said.text, **as_json(said)}


class OperatorOnly(ValueError):
    """A refusal whose full text (``operator``) tells hidden information: told only in an answer
    the operator alone reads; everywhere else (the answers kept for repeats) it is ``str(self)``."""

    def __init__(self, public: str, operator: str) -> None:
        super().__init__(public)
        self.operator = operator


class Session:
    """One board's game. Feed it with :meth:`sense`, :meth:`snapshot`, :meth:`link_up`,
    :meth:`link_down`, :meth:`button`, :meth:`request`; :meth:`judge` when the board has settled;
    read :meth:`take_events`, :meth:`public_state`, :meth:`private_state`, :meth:`scene`."""

    def __init__(self, board: BoardConfig, layout: Layout, *, layout_for: Callable[[str], Layout],
                 fresh_secret: Callable[[], bytes], strip_fits: Callable[[int], bool] = lambda n: True,
                 answers: RecentAnswers | None = None) -> None:
        self.board = board
        self.layout = layout  # the board wired up (until another game's board is shown to be)
        self.layout_for = layout_for
        self.fresh_secret = fresh_secret
        self.strip_fits = strip_fits
        self.answers = answers or RecentAnswers()
        self.game: Game = get_game(board.game)
        self.hello: Hello | None = None  # the sensor board's last HELLO: which board is wired up
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
        self.serial = 0  # counts the games taken: the loop starts a journal entry when it changes
        self.wants_snapshot = False  # another board: the loop asks the sensor board for a snapshot
        self.health: dict[str, str] = HEALTHY  # what the loop says of the service itself (its journal)
        self.refusal: Message | None = None
        """Why the last :meth:`request` was refused, when a rule refused it (its answer is its English text)."""
        self._outbox: list[dict[str, Any]] = []

    # -- the game ------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.resigned is not None

    def new_game(self, game: str, options: dict[str, Any] | None, num_players: int, seed: int) -> None:
        """Start a game; refuses (``ValueError``) before it changes anything."""
        g = get_game(game)
        opts = g.options(options)
        players = g.players(num_players)
        layout = self.layout
        other_board = game != self.game.name
        if other_board:  # another game needs its own board: check it is the one wired up
            layout = self.layout_for(game)
            self.check_board_fits(layout, g.title)
        layout.check_game(g, opts, players)
        secret = seed_secret(seed) if seed >= 0 else self.fresh_secret()  # an explicit seed: predictable, for tests
        match = Match(Record(game, opts, players, [ChanceKey.of(secret)]))
        if other_board:  # read the new board afresh
            self.sensed = {}
            self.board_known = False
            self.wants_snapshot = True
        self.take(match, layout)
        log.info("new game: %s, %d players (%s)", g.title, players, in_words(opts))
        self._auto_chance()

    def check_board_fits(self, layout: Layout, title: str) -> None:
        """Refuse (``LayoutError``) a game whose layout is not the board wired up: its sensors must
        match the sensor board's HELLO and its LEDs the strip."""
        same_hardware = layout.blocks == self.layout.blocks and layout.led_count == self.layout.led_count
        if self.hello is not None:
            layout.check_hello(self.hello.blocks)
        elif not same_hardware:
            raise LayoutError(f"{title} needs its own board, and the sensor board has not said which board is "
                              "wired up (the sensor link is down): connect it, then start the game")
        if not self.strip_fits(layout.led_count):
            raise LayoutError(f"{title}'s board has {layout.led_count} LEDs; the strip cannot show them")

    def resume(self, record: Record, resigned: int | None = None) -> None:
        """Carry on with ``record`` (the journal's last game; ``resigned``: the player who resigned
        it); ``ValueError`` when it cannot go on on this board (an illegal action, another game's
        board)."""
        match = Match(record)  # every action re-checked by the rules engine
        layout = self.layout_for(record.game)
        layout.check_game(get_game(record.game), record.options, record.num_players)
        if record.game != self.game.name:
            self.check_board_fits(layout, get_game(record.game).title)
        if resigned is not None and not 0 <= resigned < record.num_players:
            raise ValueError(f"player {resigned} resigned, but the game has {record.num_players} players")
        self.take(match, layout)
        self.resigned = resigned

    def take(self, match: Match, layout: Layout) -> None:
        """Make ``match`` the game on this board."""
        g = get_game(match.record.game)
        if match.key is None:  # a game begun before fair dice (an older journal): fair from now on
            match.rekey(self.fresh_secret())
        self.layout = layout
        self.game = g
        self.match = match
        self.channels = g.channels(match.record.options, match.record.num_players)
        self.kinds = {c.name: c.kind for c in self.channels}
        self.referee = Referee(match, self.channels, allow_takeback=self.board.allow_takeback)
        self.verdict = Verdict("in_sync")
        self.held = self.preview = self.ghost = None
        self.resigned = None
        self.answers.clear()  # a request id names a request within one game
        self.restoring = False
        self.choice = 0
        # A new game starts with the board to set up: what differs is shown, not flagged.
        self.setup_channels: set[str] = {c.name for c in self.channels}
        self.serial += 1

    def ring_offsets(self) -> dict[str, int]:
        """Where the game wants each ring (the encoders are calibrated to it as a game starts)."""
        return {c: v for c, v in self.referee.expected().items() if self.kinds[c] == ChannelKind.OFFSET}

    # -- what the table senses -------------------------------------------------------------------

    def sense(self, channel: str, value: int) -> bool:
        """A logical channel reads ``value``; True when it counts (the board is known)."""
        if not self.board_known and self.kinds.get(channel) != ChannelKind.OFFSET:
            return False
        self.sensed[channel] = value
        return True

    def sense_sensor(self, sensor: int, value: int) -> bool:
        """The MCU's sensor ``sensor`` reads ``value``; True when it counts."""
        channel = self.layout.channel_of.get(sensor)
        return channel is not None and self.sense(channel, value)

    def sense_event(self, event: SensorChanged | EncoderEvent) -> bool:
        """A reading from the sensor board or a ring encoder; True when it counts."""
        if isinstance(event, SensorChanged):
            return self.sense_sensor(event.channel, event.value)
        return self.sense(event.channel, event.offset)

    def snapshot(self, values: list[int]) -> str | None:
        """Every sensor at once (after a (re)connect); an error message when it does not fit the layout."""
        if len(values) != self.layout.sensor_count:
            return f"the sensor board sent {len(values)} channels, the layout has {self.layout.sensor_count}"
        for sensor, value in enumerate(values):
            channel = self.layout.channel_of.get(sensor)
            if channel is not None:
                self.sensed[channel] = value
        self.board_known = True
        return None

    def link_up(self, hello: Hello) -> str | None:
        """The sensor board said HELLO; an error message when it is not the board of the layout."""
        try:
            self.layout.check_hello(hello.blocks)
        except LayoutError as exc:
            return str(exc)
        self.link_is_up = True
        self.hello = hello
        self.event("link", up=True)
        if " cfg " in hello.firmware or hello.board_kind != self.layout.board_kind:
            try:  # the channels fit; a configuration flashed from another layout or calibration is told
                self.layout.check_firmware(hello)
            except LayoutError as exc:
                self.event("warning", message=str(exc))
        return None

    def link_down(self, reason: str) -> None:
        self.link_is_up = False
        self.board_known = False  # judge nothing on stale readings; a snapshot follows the reconnect
        self.event("link", up=False, reason=reason)

    def clean_move(self) -> bool:
        """True when the sensed board is exactly one legal action's view and no part of another, with
        no ring turned: it may be judged at once, without waiting for the debounce window (and is
        taken at once only if nothing else could follow from it: see :meth:`judge`)."""
        if not self.board_known or self.over or self.restoring or self.setup_channels:
            return False
        return self.referee.clean_move(self.sensed)

    # -- judging ---------------------------------------------------------------------------------

    def judge(self, settled: bool = True) -> Verdict:
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
                # What a die, draw or random placement asks the table to do: not a mistake.
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
            self._announce(len(verdict.actions), by="board")
            self.choice = 0
            self._after_action()
            self.ghost = (start, len(self.match.record.actions), ())
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

    def sensed_matches(self) -> bool:
        return all(self.sensed.get(c, 0) == v for c, v in self.referee.expected().items())

    def differing(self) -> tuple[str, ...]:
        return tuple(sorted(c for c, v in self.referee.expected().items() if self.sensed.get(c, 0) != v))

    def _after_action(self) -> None:
        if self.state.is_terminal():
            self.event("game_over", winners=self.state.winners(), scores=list(self.state.scores()),
                       fair=self.fairness())
        self._auto_chance()

    def _auto_chance(self) -> None:
        if self.board.chance == "auto":
            while self.state.current_player == CHANCE:
                self._resolve_chance()

    def _resolve_chance(self, text: str | None = None) -> str:
        if self.state.current_player != CHANCE:
            raise IllegalAction(text or "roll", NOTHING_TO_ROLL())
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
        made happen (a capture, a tower, a crash, the rings aligning). A chance outcome among them (done
        again by a correction) is told as one."""
        before = self.match.history[-count - 1:-1]
        for state, text, happened in zip(before, self.match.public_log[-count:], self.match.announced[-count:],
                                         strict=True):
            if by == "chance" or state.current_player == CHANCE:
                self.event("chance", outcome=text)
            else:
                self.event("action", action=text, by=by, player=state.current_player)
            for item in happened:
                self.event(item["type"], **{k: v for k, v in item.items() if k != "type"})

    def _undo(self) -> str:
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
        self.event("undo", action=undone)
        return undone

    # -- buttons ---------------------------------------------------------------------------------

    def button(self, name: str, held: bool = False) -> None:
        """A table button pressed (``held``: kept down for its second meaning)."""
        log.info("button %s%s", name, " (held)" if held else "")
        self.ghost = None  # someone acted: the last move from the board stands
        try:
            if name == "roll" and not held:
                self._resolve_chance()
            elif name == "undo" and held:  # hold undo: a new game with the same settings
                self.new_game(self.game.name, self.match.record.options, self.match.record.num_players, -1)
                self.event("new_game", game=self.game.name, num_players=self.match.record.num_players)
            elif name == "undo":
                self._undo()
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
                to_operator: bool = False) -> tuple[bool, Any]:
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
            ok, result, told = False, str(exc), exc.operator if to_operator else None
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            ok, result = False, exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            if isinstance(exc, IllegalAction):  # a rule refused it: said in the board's language at the edge
                self.refusal = REFUSED(action=exc.action, reason=exc.refusal)
        if key is not None:
            self.answers.add(key, ok, result)
        return ok, told or result

    def _run(self, name: str, args: dict[str, Any], to_operator: bool) -> Any:
        if self.over and not commands.COMMANDS[name].after_the_end:
            raise ValueError(f"{name}: the game is over")
        if name == "state":
            return self.public_state()
        self.ghost = None  # someone acted: the last move from the board stands
        if name == "new_game":
            game = args.get("game", self.game.name)
            seed = args.get("seed", -1)
            self.new_game(game, args.get("options", {}), args.get("num_players", 0), seed)
            self.event("new_game", game=game, num_players=self.match.record.num_players)
            # A seed named by the request is told back; a fresh secret is never (its commitment is).
            return {"game": game, "seed": seed} if seed >= 0 else {"game": game}
        if name == "undo":
            return {"undone": self._undo()}
        if name == "roll":
            return {"outcome": self._resolve_chance()}
        if name == "enter":
            return {"outcome": self._resolve_chance(self._outcome_named(str(args["value"]), to_operator))}
        if name == "choose":
            if self.state.current_player < 0:
                raise ValueError("choose: no player is to act (a roll is pending)")
            return {"action": self._apply_text(args["action"], by="mqtt")}
        if name == "resign":
            player = args["player"]
            if not 0 <= player < self.state.num_players:
                raise ValueError(f"resign: player must be 0..{self.state.num_players - 1}")
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
            raise ValueError("enter: no die, card or draw is pending")
        legal = {state.action_to_text(a): state.public_action_text(a) for a in state.legal_actions()}
        hidden = any(full != public for full, public in legal.items())
        if hidden and not to_operator:
            raise ValueError("enter: a hidden draw is entered by the operator only: send the request with its "
                             "answer under the board's response/ topics (the default)")
        if text in legal:
            return text
        matches = [t for t in legal if t.split()[-1] == text]
        if len(matches) == 1:
            return matches[0]
        refusal = f"enter: {text!r} is not a possible outcome"
        if hidden:
            raise OperatorOnly(refusal, f"{refusal}; possible: {sorted(legal)[:20]}")
        raise ValueError(f"{refusal}; possible: {sorted(legal)[:20]}")

    # -- what it tells ---------------------------------------------------------------------------

    def event(self, kind: str, **data: Any) -> None:
        """Queue an event; the loop sends it once the journal holds what it tells."""
        log.info("%s", event_line(kind, data))
        self._outbox.append({"type": kind, "game": self.game.name, "move": len(self.match.record.actions), **data})

    def has_events(self) -> bool:
        return bool(self._outbox)

    def take_events(self) -> list[dict[str, Any]]:
        events, self._outbox = self._outbox, []
        return events

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
        return {
            "schema": STATE_SCHEMA,
            "seq": seq,
            "board": self.board.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.match.record.options,
            "num_players": state.num_players,
            "players": state.player_info(),
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
            "fair": self.fairness(),
            "targets": sorted(self.referee.targets(self.sensed)) if turn is not None else [],
            "verdict": v.kind,
            "violation": {**told(v.said), "channels": list(v.channels)} if v.kind == "violation" else None,
            "setup": {**told(v.said), "channels": list(v.channels)} if v.kind == "setup" else None,
            "ambiguous": len(v.actions) if v.kind == "ambiguous" else 0,
            "sensors": "up" if self.link_is_up else "down",
            "health": dict(self.health),
        }

    def fairness(self) -> dict[str, Any]:
        """The chance commitment, and once the game is over the secret (``docs/mqtt.md``, "Fair dice")."""
        key = self.match.key
        assert key is not None and key.secret is not None  # ``take`` gives every game one
        return {"scheme": SCHEME, "commitment": key.commitment, "secret": key.secret.hex() if self.over else None}

    def private_state(self, player: int) -> dict[str, Any]:
        """What only ``player`` may see: the game's private view, and the choices of the player to act."""
        private = dict(self.state.private_view(player))
        if player == self.state.current_player:
            private["choices"] = choices = self.choices()
            if choices:
                private["choice"] = choices[self.choice % len(choices)]
        return private

    def scene(self) -> LedScene:
        """What the LEDs show (``controller.ledview``): a held move as if it were taken, at once."""
        if self.preview is not None:
            state, v = self.preview, Verdict("in_sync")
            if state.is_terminal():
                return LedScene(TERMINAL, {}, winners=tuple(state.winners()), colours=game_colours(state))
            targets = self.referee.targets(state=state) if state.current_player >= 0 else {}
        else:
            state, v = self.state, self.verdict
            if self.over:
                return LedScene(TERMINAL, {}, winners=tuple(self.winners()), colours=game_colours(state))
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
            colours=game_colours(state),
        )
