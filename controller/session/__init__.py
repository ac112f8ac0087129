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

import logging
from collections.abc import Sequence
from typing import Any

from controller import commands
from controller.commands import Refused, request_key
from controller.games import CHANCE, TERMINAL, ChannelKind, IllegalAction, get_game
from controller.games.base import Message, Phrase
from controller.games.chance import commitment, seed_secret
from controller.games.record import ChanceKey, Match, Record
from controller.i18n import message_of
from controller.ledview import LedScene, game_colours
from controller.referee import Verdict, shortest_turn
from controller.remote import JoinCode, Sync, hides_information
from controller.remote_hidden import private_key, public_key
from controller.seats import named, other_board, seats_for
from controller.session.away import carry_hint
from controller.session.game import HEALTHY, NOTHING_TO_UNDO
from controller.session.outcome import (
    CalibrateRings,
    Decide,
    Effect,
    Expected,
    OperatorOnly,
    Outcome,
    RequestSnapshot,
    TakeBoard,
    Told,
    told,
)
from controller.session.remote import RemoteGame
from controller.session.showing import position_record
from controller.words import in_words

__all__ = ["HEALTHY", "NOTHING_TO_UNDO", "REFUSED", "STATE_SCHEMA", "CalibrateRings", "Decide", "Effect", "Expected",
           "Outcome", "RequestSnapshot", "Session", "TakeBoard", "told"]

log = logging.getLogger("arbitro")

STATE_SCHEMA = 1
PUT_BACK = Phrase("table.put_back", "put the board back as it was: {what}")
SET_UP = Phrase("table.set_up", "set up the board: {what}")
NO_CHOICE = Phrase("table.no_choice", "there is no choice to confirm")
REFUSED = Phrase("table.refused", "illegal action {action}: {reason}")
PLAYED_AWAY = Phrase("seat.played_away", "{seat} is played by {who}: the table only carries out its move")
GAME_OVER = Phrase("request.game_over", "{command}: the game is over")
NO_PLAYER_TO_ACT = Phrase("request.no_player_to_act", "{command}: no player is to act (a roll is pending)")
NO_SUCH_PLAYER = Phrase("request.no_such_player", "{command}: player must be 0..{last}")
NOTHING_PENDING = Phrase("request.nothing_pending", "{command}: no die, card or draw is pending")
NO_RECORD = Phrase("request.no_record", "show: the journal has no finished game {game} (arbitro journal lists them)")
SHOW_ONE = Phrase("request.show_one", "show: give either a finished game of the journal (game, move) or a position")
OPERATOR_SETS_UP = Phrase("request.operator_sets_up", "show: a position with hidden cards is set up by the operator "
                          "only: send the request with its answer under the board's response/ topics (the default)")
HIDDEN_START = Phrase("request.hidden_start", "record: the game began from a position with hidden cards: its record "
                      "is given once it is over (the operator's, with private, before)")
OPERATOR_ENTERS = Phrase("request.operator_enters", "{command}: a hidden draw is entered by the operator only: "
                         "send the request with its answer under the board's response/ topics (the default)")
NOT_AN_OUTCOME = Phrase("request.not_an_outcome", "{command}: {value} is not a possible outcome")
NOT_AN_OUTCOME_OF = Phrase("request.not_an_outcome_of", "{command}: {value} is not a possible outcome; possible: "
                           "{possible}")
NOT_ACCEPTED = Phrase("request.not_accepted", "{reason}")  # in the words of the game, seat or board that refused it
INTERNAL_ERROR = Phrase("request.internal_error", "{command}: an internal error stopped it (the service's log has "
                        "the details)")


class Session(RemoteGame):
    """One board's game. Feed it with :meth:`opened`, :meth:`sense`, :meth:`snapshot`,
    :meth:`link_up`, :meth:`link_down`, :meth:`button`, :meth:`request`; :meth:`judge` when the
    board has settled. Each returns the :class:`Outcome` the loop carries out."""

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

    def opened(self, notices: list[Message]) -> Outcome:
        """The table is switched on, with the game the journal resumed (if any; else the configured
        game starts) and ``notices`` for the operator (a journal set aside)."""
        if self.serial == 0:
            self.new_game(self.board.game, self.board.options, self.board.num_players, self.board.seed,
                          self.board.seats)
        for message in notices:  # told once the board has its game
            self.event("warning", **told(message))
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

    @property
    def unready(self) -> bool:
        """Work is left for the loop's idle steps (:meth:`prepare`)."""
        return self.referee.unready or (self.preview is not None and not self._public_known(self.preview))

    def prepare(self) -> Outcome | None:
        """A step of the loop's idle work: building the next move table the LEDs show, then the public
        part of a held move's state, which it tells once the move is taken (off that move's path).
        Once the table is complete, the outcome that shows it (the LEDs, the state and the seats)."""
        if self.referee.unready:
            return None if self.referee.prepare() else self._outcome(tell=True)
        if self.preview is not None:
            self._public_part(self.preview)
        return None

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
                                         ghost=None if ghost is None else (ghost[0], ghost[2]),
                                         floor=self.takeback_floor())
            if self.referee.corrected is not None:  # the last change from the board was only on the way
                self.setup_channels.clear()  # what chance asked after it, it asks again if it still does
                self.event("corrected", undone=self.referee.corrected,
                           actions=list(verdict.actions) if verdict.kind == "applied" else [],
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
        if verdict.kind == "in_sync" and self.showing is not None:  # a shown record's position is set up
            self.show_next()
        return verdict

    def button(self, name: str, held: bool = False) -> Outcome:
        """A table button pressed (``held``: kept down for its second meaning)."""
        self._commit()
        self._press(name, held)
        return self._outcome(tell=True)

    def _press(self, name: str, held: bool, *, refusal_told: bool = True) -> None:
        """What a button does; when it can do nothing now, told as a ``refused`` event (``refusal_told``,
        the table's own button: nobody else to answer) or raised (a ``press`` request answers it)."""
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
                carry = self.carry()  # only a lit move no sensor can show (beads between full pits) is confirmed
                if carry is None or self.verdict != Verdict("progress", (carry.move,)):
                    raise IllegalAction("confirm", NO_CHOICE())
                self._apply_text(carry.text, by="button")
            elif name == "confirm":
                options = self.choices()
                if not options:
                    raise IllegalAction("confirm", NO_CHOICE())
                self._apply_text(options[self.choice % len(options)], by="button")
        except IllegalAction as exc:
            if not refusal_told:
                raise
            self.event("refused", **told(REFUSED(action=exc.action, reason=exc.refusal)))
        except Refused as exc:  # a takeback waiting for consent
            if not refusal_told:
                raise
            self.event("refused", **told(exc.said))

    def request(self, name: str, args: dict[str, Any], request_id: str | int | None = None, *,
                to_operator: bool = False) -> Outcome:
        """Run a request once; the outcome's ``answer`` is ``(ok, result or error)``. A refusal changes
        nothing, so it tells nothing (its answer is still journalled before it goes out) but the held
        verdict it commits (any request but ``state`` does)."""
        committed = name not in commands.READS and self.held is not None
        if name not in commands.READS:
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
        key = None if request_id is None or name in commands.READS else request_key(name, request_id, args)
        answered = self.answers.get(key) if key is not None else None
        if answered is not None:
            ok, result, said = answered
            self.refusal = None if said is None else message_of(said["code"], said["params"])
            return ok, result
        told = kept = None
        try:
            ok, result = True, self._run(name, commands.check(name, args), to_operator)
        except OperatorOnly as exc:
            self.refusal = exc.operator if to_operator else exc.said
            ok, result, told, kept = False, str(exc), exc.operator.text if to_operator else None, exc.said
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
        if key is not None:  # kept for a repeat: never what only the operator may read
            kept = kept or self.refusal
            self.answers.add(key, ok, result, None if kept is None else kept.to_json())
        return ok, told or result

    def _run(self, name: str, args: dict[str, Any], to_operator: bool) -> Any:
        if self.over and not commands.COMMANDS[name].after_the_end:
            raise Refused(GAME_OVER(command=name))
        if name == "state":
            return self.public_state()
        if name == "record":  # written at the edge, which knows when each action was played (Teller.record)
            if self._hidden_start() and not self.over and not (to_operator and args.get("private")):
                raise Refused(HIDDEN_START())  # its position holds every hand: even its public part would tell
            return {}
        if name == "show" and (("position" in args) == ("game" in args) or {"position", "move"} <= args.keys()):
            raise Refused(SHOW_ONE())
        if name == "show" and "position" in args:  # a position text set up at the table, play going on from it
            begun = position_record(args["position"])  # refused in the game's words when it is none
            if hides_information(begun.game, begun.options) and not to_operator:
                raise Refused(OPERATOR_SETS_UP())  # whoever sent it knows every hand
            self.show(begun, 0)
            return {"game": begun.game, "moves": 0, "from": 0}
        if name == "show":  # a game of the board's journal set up at the table, its moves stepped through
            game_id = args.get("game")
            try:
                record = self.recorded(game_id) if self.recorded is not None and game_id is not None else None
            except KeyError:
                record = None
            if record is None:
                raise Refused(NO_RECORD(game=game_id))
            self.show(record, args.get("move", 0))
            return {"game": record.game, "moves": len(record.actions), "from": len(self.match.record.actions)}
        self.ghost = None  # someone acted: the last move from the board stands
        if name == "press":  # a table button pressed from afar (Home Assistant, the operator): as the board's own
            self._press(args["button"], args.get("held", False), refusal_told=False)
            return {"pressed": args["button"]}  # what it chose goes where the button's choice goes (player/<n>)
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
                raise Refused(PLAYED_AWAY(seat=f"player {player}", who=self.parts[player].said()))
            return {"action": self._apply_text(args["action"], by="mqtt")}
        if name == "consent":
            return self._consent(args["seat"], args.get("secret"), args.get("agree", True), to_operator)
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

    def _hidden_start(self) -> bool:
        """The game began from a position text that holds hidden cards (every hand)."""
        record = self.match.record
        return record.position is not None and hides_information(record.game, record.options)

    def configure(self, allow_takeback: bool | None = None, chance: str | None = None) -> dict[str, Any]:
        """Change the table's settings (the journal keeps them over the configuration file's); the
        settings now."""
        if allow_takeback is not None:
            self.board.allow_takeback = self.referee.allow_takeback = allow_takeback
        if chance is not None:
            self.board.chance = chance
            self._auto_chance()
        return {"allow_takeback": self.board.allow_takeback, "chance": self.board.chance}

    def use_settings(self, settings: dict[str, Any]) -> None:
        """The table's settings the journal kept (``configure``'s), given back before a game is taken."""
        for key, value in settings.items():
            setattr(self.board, key, value)

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

    def public_state(self, seq: int = 0) -> dict[str, Any]:
        """The whole public state (``docs/mqtt.md``): never a hidden card, never the chance secret
        while the game runs (its commitment, and once the game is over the secret itself)."""
        state = self.state
        over = self.over
        turn = None if over or state.current_player < 0 else state.current_player
        part = self._public_part(state)
        pending = None
        if state.current_player == CHANCE and not over:
            pending = {"outcomes": list(part.outcomes)}
        v = self.verdict
        return {
            "schema": STATE_SCHEMA,
            "seq": seq,
            "board": self.board.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.match.record.options,
            "num_players": state.num_players,
            "players": [{**info, "seat": seat} for info, seat in zip(part.players, self.seats, strict=True)],
            "turn": turn,
            "phase": "over" if over else state.phase,
            "moves": len(self.match.record.actions),
            "last_action": self.match.public_log[-1] if self.match.public_log else None,
            "board_view": part.view,
            "notes": part.notes,
            "scores": part.scores,
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
        asked = self.asked_back
        if asked is not None and player in asked.waits - asked.gave:  # its consent is asked (request consent)
            private["takeback"] = {"move": self._taken_back_move()}
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
