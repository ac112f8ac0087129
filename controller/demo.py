"""``arbitro demo``: the referee on a simulated board, with bots (and optionally a person) playing.

Everything real runs: the simulated sensor board runs the MCU firmware on a pseudo-terminal, the
host link decodes its frames, the service referees, the LEDs are a recording NeoPixel buffer, the
buttons and ring encoders are gpiozero devices on its mock pin factory, and the state goes to a
Mosquitto broker (a private one on loopback unless ``--broker`` names one). Bots play by doing what
a player does at the table: lifting and placing pieces on the simulated board (``controller.hands``),
turning rings, pressing the roll button; moves that leave no trace on the board go as MQTT
``choose`` requests. The board, its LEDs and the last events are drawn in the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import json
import logging
import random
import secrets
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt

from controller.app import build_service
from controller.config import Config, ConfigError
from controller.demo_screen import LedPlan, screen
from controller.games import CHANCE, ChannelKind, IllegalAction, State, game_names, get_game
from controller.games.base import Phrase
from controller.i18n import LANGUAGES, People, listing, say, saying
from controller.mqtt import set_nodelay
from controller.players import LEVELS
from controller.referee import Verdict
from controller.service import Service
from controller.session import REFUSED

if TYPE_CHECKING:
    from controller.hands import Hands

log = logging.getLogger("arbitro.demo")
NOTES: list[str] = []  # lines under the terminal picture (the display's address)

# What the demo says on the terminal, in the board's language (--language).
LEDS_UNDER = Phrase("demo.leds_under", "LEDs under the board:")
STATUS_LEDS = Phrase("demo.status_leds", "status LEDs: {leds}")
YOUR_MOVE = Phrase("demo.your_move", "your move ({count} legal, e.g. {some}; help lists them all): ")
LEGAL_MOVES = Phrase("demo.legal_moves", "the {count} legal moves: {moves}")
GAME_OVER = Phrase("demo.game_over", "{title}: game over after {moves} actions; {won} (scores: {scores})")
WINS = Phrase("demo.wins", "{winners} wins")
WIN = Phrase("demo.win", "{winners} win")
NO_WINNER = Phrase("demo.no_winner", "no winner")
SCORE = Phrase("demo.score", "{player} {score}")
ON_SHOW = Phrase("demo.on_show", "The last game stays on show (the board, its LEDs, MQTT and the display); "
                 "Ctrl-C stops the demo.")
STOPPED = Phrase("demo.stopped", "stopped")
LIVE_DISPLAY = Phrase("demo.live_display", "live display: {url}")
HALL = Phrase("demo.hall", "the hall: {url}")
CLICK_SEAT = Phrase("demo.click_seat", "play seat {seat} by clicking: {url}")
LIMIT = Phrase("demo.limit", "each game is played to its end or for at most {count} actions (--max-actions), "
               "one every {pace} s (--pace)")
LIMIT_REACHED = Phrase("demo.limit_reached", "the demo's limit of {count} actions: the player to move resigns")
MAX_ACTIONS = 120
"""The default limit of a game's actions: at the default pace, every game in under 20 minutes (the
shortest games end before it; a whole game of the longest takes some 2,000)."""


class DemoError(Exception):
    """Why the demo cannot go on, in one line for the person who started it; ``code`` 2: bad options."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


class Requester:
    """An operator's MQTT client: sends requests, waits for the answers."""

    def __init__(self, host: str, port: int, base: str) -> None:
        self.base = base
        self.answers: dict[str, threading.Event] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"demo-op-{random.getrandbits(32):x}")
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        try:
            self.client.connect(host, port)
        except OSError as exc:
            raise DemoError(f"cannot reach the MQTT broker at {host}:{port}: {exc.strerror or exc}") from exc
        self.client.loop_start()
        self.n = 0

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: object,
                    properties: object = None) -> None:
        set_nodelay(client)
        client.subscribe(f"{self.base}/response/+", 1)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        body = json.loads(msg.payload)
        key = str(body.get("id"))
        if key in self.answers:
            self.results[key] = body
            self.answers[key].set()

    def request(self, command: str, **args: Any) -> dict[str, Any]:
        self.n += 1
        key = f"demo-{self.n}"
        self.answers[key] = threading.Event()
        self.client.publish(f"{self.base}/request/{command}", json.dumps({"id": key, **args}), qos=1)
        if not self.answers[key].wait(10):
            raise DemoError(f"the referee sent no answer to {command} within 10 s (is the broker still up?)")
        return self.results.pop(key)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def draw(service: Service, state: State, events: list[str], ansi: bool) -> str:
    """The board (the engine's picture), its LEDs where they sit, the status bar, the last events,
    fitted to a 120×40 terminal (``controller.demo_screen``)."""
    frame = service.strip.last or ()
    session = service.session
    language = service.language
    picture = state.render_text(saying(language, service.teller.people())).split("\n")
    layout = service.wiring.layout

    status = [frame[i] for i in layout.status_leds if i < len(frame)]
    status_line = say(STATUS_LEDS(leds=" ".join(
        (f"\x1b[38;2;{r};{g};{b}m●\x1b[0m" if ansi else ("#" if (r, g, b) != (0, 0, 0) else "."))
        for r, g, b in status)), language)
    text = "\n".join(screen(picture, say(LEDS_UNDER(), language), LedPlan.of(layout, session.game.channel_xy), frame,
                            ansi, [status_line, *NOTES], events))
    return ("\x1b[H\x1b[2J" + text) if ansi else text


def play_game(game_name: str, *, broker: tuple[str, int], seed: int, players: int | None, seat: int | None,
              pace: float, headless: bool, max_actions: int, board_id: str = "demo",
              ask: Callable[[State], Any] | None = None,
              at_end: Callable[[dict[str, Any]], None] | None = None, language: str = "es",
              bots: str | None = None) -> dict[str, Any]:
    """Play one game to its end on a fresh simulated board; returns the final public state.
    ``at_end`` is called with it while the board and the service still run (the demo keeps its
    last game on show there until Ctrl-C)."""
    config = demo_config(game_name, broker=broker, seed=seed, players=players, board_id=board_id, language=language,
                         bots=bots, seat=seat, pace=pace)
    from controller.hands import Hands  # the demo's own parts: imported as it plays, not by `arbitro run`'s parser
    from firmware_bridge.sim import SimulatedBoard
    from hardware.layout import load_layout

    layout = load_layout(game_name)
    rng = random.Random(seed)
    events: list[str] = []
    with SimulatedBoard(layout.blocks, board_kind=layout.board_kind, scan_ms=1.0, debounce_scans=3) as sim:
        service = build_service(config, sensor_url=sim.url, mqtt_client_id=f"arbitro-{board_id}")

        def keep_events(event: dict[str, Any]) -> None:  # said in the board's language at the edge
            events.append(f"[{event['move']:4}] {event['text']}")

        service.watchers.append(keep_events)
        hands = Hands(service, sim, pace, at_once=not pace)  # as fast as possible: a move in one scan
        # The table starts set up as the game begins: pieces where the rules put them.
        start = service.session.state.physical_view()  # the loop has not started: nothing races this read
        hands.set_channels({c: v for c, v in start.items() if service.session.kinds[c] != ChannelKind.OFFSET and v})
        service.start()
        op: Requester | None = None
        try:
            op = Requester(broker[0], broker[1], f"{config.mqtt.base_topic}/{board_id}")
            _play(service, hands, op, rng, seat, pace, headless, max_actions, events,
                  ask or functools.partial(_ask_person, language=language))
            final: dict[str, Any] = service.call(service.public_state)
            if at_end is not None:
                at_end(final)
        finally:
            if op is not None:
                op.close()
            service.stop()
            if service.inputs is not None:
                service.inputs.close()
    return final


def demo_config(game_name: str, *, broker: tuple[str, int], seed: int, players: int | None,
                board_id: str, language: str = "es", bots: str | None = None, seat: int | None = None,
                pace: float = 1.5) -> Config:
    """The service's configuration for one demo game (``bots``: every seat but ``seat`` a computer
    player at that level); a DemoError names the option that does not fit."""
    game = get_game(game_name)
    try:
        game.new_state(game.options(), game.players(players))
    except ValueError as exc:
        raise DemoError(f"--players {players}: {exc}", 2) from exc
    count = game.players(players)
    seats = [] if bots is None else ["table" if p == seat else f"bot:{bots}" for p in range(count)]
    # At pace 0 the hands set a move's sensors in one scan, so only a ring, turned step by step on its
    # encoder, can be caught part way round: 25 ms outlasts that, 10 ms anything else (the suite's time).
    rings = any(c.kind == ChannelKind.OFFSET for c in game.channels(game.options(), count))
    window = 25.0 if rings else 10.0
    try:
        return Config.from_dict({
            "board": {"id": board_id, "game": game_name, "seed": seed, "num_players": count, "seats": seats,
                      "chance": "button", "language": language},
            # The simulated hands pause pace/4 between two sensors of a move: the window that holds a
            # move they could still carry on (200 ms for a person's hands) need only outlast that pause.
            "sensors": {"debounce_ms": window, "commit_ms": min(200.0, max(window, pace * 1000))},
            "inputs": {"pin_factory": "mock", "hold_time": 1.0},
            "mqtt": {"host": broker[0], "port": broker[1]},
        })
    except ConfigError as exc:
        raise DemoError(str(exc), 2) from exc


def _wait_for_change(service: Service, moves: int, before: Verdict, timeout: float = 10.0) -> str:
    """How the referee took the hands' move: ``moved``, or a verdict it reached after the hands moved
    (``before``, the verdict from before, is not the board's answer to them)."""
    deadline = time.monotonic() + timeout
    n: int
    verdict: Verdict
    while time.monotonic() < deadline:
        n, verdict = service.read(lambda s: (len(s.match.record.actions), s.verdict))
        if n != moves:
            return "moved"
        if verdict is not before and verdict.kind in ("violation", "ambiguous"):
            return verdict.kind
        time.sleep(0.005)
    raise TimeoutError("the referee did not take the move")


def _set_up(service: Service, hands: Hands, timeout: float = 10.0) -> None:
    """The hands do what the rules ask the table to set up (a die's token, a turned ring, a bridge
    that fell), then wait until the referee has seen it."""
    expected, sensed = service.read(lambda s: (s.referee.expected(), dict(s.sensed)))
    hands.set_channels({c: v for c, v in expected.items() if sensed.get(c, 0) != v})
    deadline = time.monotonic() + timeout
    while service.read(lambda s: s.verdict.kind == "setup") and time.monotonic() < deadline:
        time.sleep(0.005)


def _play(service: Service, hands: Hands, op: Requester, rng: random.Random, seat: int | None, pace: float,
          headless: bool, max_actions: int, events: list[str], ask_person: Callable[[State], Any]) -> None:
    last_drawn = -1
    while True:
        # One read: a computer's move may be taken between two (a card programmed), and the state must be the seat's.
        state, moves, over, computer, setup = service.read(lambda s: (
            s.state, len(s.match.record.actions), s.over,
            s.state.current_player >= 0 and not s.parts[s.state.current_player].at_table, s.verdict.kind == "setup"))
        if not headless and moves != last_drawn:
            print(draw(service, state, events, ansi=sys.stdout.isatty()), flush=True)
            last_drawn = moves
        if over:
            return
        if moves >= max_actions:
            events.append(say(LIMIT_REACHED(count=str(max_actions)), service.language))
            log.info("action limit %d reached: the player to move resigns", max_actions)
            op.request("resign", player=max(state.current_player, 0))
            if not headless:  # the game as it ends, with the resignation among the events
                print(draw(service, service.read(lambda s: s.state), events, ansi=sys.stdout.isatty()), flush=True)
            return
        if setup:  # what the rules asked the table to put right (a bridge that fell with its support)
            _set_up(service, hands)
            continue
        if pace:
            time.sleep(pace)
        if state.current_player == CHANCE:
            before = service.read(lambda s: s.verdict)
            hands.press("roll")
            _wait_for_change(service, moves, before)
            _set_up(service, hands)  # whatever the die or draw asks of the table (place a token, turn a ring)
            continue
        if computer:  # the computer player's move, as the LEDs ask the hands to carry it out
            action = _computers_move(service, state, moves)
            if action is None:
                continue  # a move with no trace on the board: the referee took it at once
        elif seat is not None and state.current_player == seat:
            action = ask_person(state)
        else:
            action = rng.choice(state.own_actions())
        text = state.action_to_text(action)
        before = service.read(lambda s: s.verdict)
        if hands.enact(state, action):
            outcome = _wait_for_change(service, moves, before)
            if outcome == "ambiguous":
                op.request("choose", action=text)
            elif outcome == "violation":
                why = service.read(lambda s: s.verdict.message)
                raise RuntimeError(f"the referee refused the bot's legal move {text}: {why}")
        else:
            answer = op.request("choose", action=text)
            if not answer["ok"]:
                raise RuntimeError(f"the referee refused {text}: {answer['error']}")


def _computers_move(service: Service, state: State, moves: int, timeout: float = 30.0) -> Any:
    """The move the computer player to act decided (``expected``), once it is known; None when the
    game moved on without the table (the move left no trace on the board)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        n, expected = service.read(lambda s: (len(s.match.record.actions), s.expected))
        if n != moves:
            return None
        if expected is not None:
            return state.action_from_text(expected.text)
        time.sleep(0.005)
    raise TimeoutError("the computer player did not decide")


def _ask_person(state: State, language: str = "es") -> Any:
    legal = {state.action_to_text(a): a for a in state.own_actions()}
    while True:
        print(say(YOUR_MOVE(count=len(legal), some=", ".join(list(legal)[:6])), language), end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise KeyboardInterrupt
        text = line.strip()
        if text in legal:
            return legal[text]
        if text in ("help", "?"):
            print(say(LEGAL_MOVES(count=len(legal), moves=", ".join(legal)), language))
            continue
        try:
            action = state.action_from_text(text)
            state.apply(action)  # well-formed is not enough: the rules must allow it here
        except IllegalAction as exc:  # the rule it breaks, in the table's language
            print(say(REFUSED(action=exc.action, reason=exc.refusal), language))
            continue
        except ValueError as exc:
            print(exc)
            continue
        return action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbitro demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


class _UsualPlayers:
    """Each game's usual number of players, for ``--players``' help: it imports every engine, so it
    is worked out only when the help is shown, never when ``arbitro run`` starts."""

    def __str__(self) -> str:
        return ", ".join(f"{get_game(name).players()} for {name}" for name in game_names())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", action="append", choices=game_names(), help="game to play (default: each in turn)")
    players = parser.add_argument("--players", type=int, help="number of players (default: %(usual)s)")
    players.usual = _UsualPlayers()  # type: ignore[attr-defined]  # read by argparse's help formatting
    parser.add_argument("--seed", type=int, default=1, help="seed for the bots and the electronic dice")
    parser.add_argument("--seat", type=int, help="take this seat yourself and type your moves")
    parser.add_argument("--bots", choices=LEVELS, help="the other seats are computer players at this level, their "
                        "moves carried out by the simulated hands (default: random legal moves)")
    parser.add_argument("--click", action="store_true", help="with --seat: play it by clicking on its seat page")
    parser.add_argument("--pace", type=float, default=1.5, help="seconds between moves, a player's rhythm by default "
                        "(0: as fast as possible)")
    parser.add_argument("--broker", help="HOST:PORT of an MQTT broker (default: a private Mosquitto)")
    parser.add_argument("--headless", action="store_true",
                        help="no terminal drawing, log lines only, and the demo ends with its last game "
                             "(without it the last game stays on show, on the terminal and the display, until Ctrl-C)")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help="resign the player to move after this many actions of a game (default: %(default)s; "
                             "a whole game of the longest takes some 2,000)")
    parser.add_argument("--board-id", help="the board's MQTT id (default: demo-<random>, so demos can share a broker)")
    parser.add_argument("--display", default="0.0.0.0:8080", metavar="HOST:PORT",
                        help="serve the live web display here (another port when taken)")
    parser.add_argument("--no-display", action="store_true", help="no web display")
    parser.add_argument("--language", choices=LANGUAGES, default="es",
                        help="what the table says on the terminal and MQTT (board.language; default: es, Spanish)")


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except DemoError as exc:
        print(f"arbitro demo: {exc}", file=sys.stderr)
        return exc.code


def _broker_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise DemoError(f"--broker {text}: give HOST:PORT, such as 127.0.0.1:1883", 2)
    return host or "127.0.0.1", int(port)


def _wait_for_broker(host: str, port: int, patience: float = 3.0) -> None:
    """Return once the broker takes a TCP connection; one that is just starting gets ``patience`` s."""
    deadline = time.monotonic() + patience
    while True:
        try:
            socket.create_connection((host, port), timeout=patience).close()
            return
        except OSError as exc:
            if time.monotonic() >= deadline:
                raise DemoError(f"cannot reach the MQTT broker at {host}:{port}: {exc.strerror or exc}") from exc
        time.sleep(0.3)


def _run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.headless else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    games = args.game or game_names()
    # Each run its own board id, so its MQTT client id and topics are its own on a shared broker.
    board_id = args.board_id or f"demo-{secrets.token_hex(3)}"
    broker = _broker_address(args.broker) if args.broker else ("127.0.0.1", 1883)
    if args.pace < 0:
        raise DemoError(f"--pace {args.pace}: must be 0 or more seconds", 2)
    if args.click and args.seat is None:
        raise DemoError("--click plays a seat by clicking on its page: name the seat with --seat N", 2)
    for name in games:  # refuse what does not fit before anything starts
        players = demo_config(name, broker=broker, seed=args.seed, players=args.players,
                              board_id=board_id).board.num_players
        if args.seat is not None and not 0 <= args.seat < players:
            raise DemoError(f"--seat {args.seat}: {name} with {players} players has seats 0..{players - 1}", 2)
    display_at = None if args.no_display else _display_address(args.display)
    # SIGTERM stops the demo as Ctrl-C does, so that what it started is stopped too; and Ctrl-C
    # stops it even when started in the background by a shell, which would have it ignore SIGINT.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with contextlib.ExitStack() as running:  # whatever was started is stopped, however the demo ends
            if args.broker:
                _wait_for_broker(*broker)
            else:
                broker = ("127.0.0.1", _private_broker(running))
            print(f"board {board_id} (watch it: mosquitto_sub -h {broker[0]} -p {broker[1]} "
                  f"-t 'arbitro/{board_id}/#' -v)", flush=True)
            print(say(LIMIT(count=str(args.max_actions), pace=f"{args.pace:g}"), args.language), flush=True)
            display = None
            if display_at is not None:
                display = _start_display(args, display_at, broker, board_id)
                running.callback(display.stop)
            ask = _clicked(display, args.seat, board_id) if display is not None and args.click else None
            for n, name in enumerate(games, start=1):
                last = n == len(games) and not args.headless
                final = play_game(name, broker=broker, seed=args.seed, players=args.players, seat=args.seat,
                                  pace=args.pace, headless=args.headless, max_actions=args.max_actions,
                                  board_id=board_id, ask=ask, language=args.language, bots=args.bots,
                                  at_end=functools.partial(_keep_on_show, language=args.language) if last else None)
                if not last:
                    print(_game_over(final, args.language), flush=True)
    except KeyboardInterrupt:
        print(say(STOPPED(), args.language))
    return 0


def _game_over(final: dict[str, Any], language: str = "es") -> str:
    """The end of a game in words: who won, and every player's score (players by colour, else seat from 1)."""
    people = People.of(final["players"], language)
    winners = [people[w] for w in final["winners"]]
    won = say((WINS if len(winners) == 1 else WIN)(winners=listing(winners, language)) if winners else NO_WINNER(),
              language)
    scores = ", ".join(say(SCORE(player=people[i], score=f"{score:g}"), language)
                       for i, score in enumerate(final["scores"]))
    return say(GAME_OVER(title=final["title"], moves=final["moves"], won=won, scores=scores), language)


def _keep_on_show(final: dict[str, Any], language: str = "es") -> None:
    """The last game stays on the board, the terminal and the display until Ctrl-C."""
    print(_game_over(final, language), flush=True)
    print(say(ON_SHOW(), language), flush=True)
    threading.Event().wait()  # until KeyboardInterrupt


def _private_broker(running: contextlib.ExitStack) -> int:
    """A Mosquitto of the demo's own on a free loopback port, stopped and cleaned up with ``running``."""
    from controller.localbroker import Broker

    workdir = running.enter_context(tempfile.TemporaryDirectory(prefix="arbitro-demo-"))
    broker = Broker(Path(workdir))
    running.callback(broker.stop)  # also when it started but never listened
    try:
        broker.start()
    except RuntimeError as exc:  # not installed, or it would not start: its first line says which
        raise DemoError(f"cannot start a private Mosquitto ({str(exc).splitlines()[0]}); "
                        "or give --broker HOST:PORT") from exc
    print(f"private Mosquitto on 127.0.0.1:{broker.port}")
    return broker.port


def _display_address(text: str) -> tuple[str, int]:
    from controller.display.cli import host_port

    try:
        return host_port("--display", text, 8080)
    except argparse.ArgumentTypeError as exc:
        raise DemoError(str(exc), 2) from exc


def _start_display(args: argparse.Namespace, address: tuple[str, int], broker: tuple[str, int],
                   board_id: str) -> Any:
    """The live web display of the demo's board; with ``--seat``, the page to play that seat by clicking."""
    from controller.display.cli import bind_error
    from controller.display.server import DisplayConfig, RunningDisplay, SeatPlay

    host, port = address
    config = DisplayConfig(broker_host=broker[0], broker_port=broker[1], host=host, port=port)
    seat_play = SeatPlay() if args.seat is not None else None
    try:
        try:
            display = RunningDisplay(config, seat_play)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            config.port = 0  # the port is taken (another demo?): any free one will do
            display = RunningDisplay(config, seat_play)
    except OSError as exc:  # an address that is not this machine's, or no address at all
        raise DemoError(f"--display {args.display}: cannot serve the display there: {bind_error(exc)}", 2) from exc
    NOTES.append(say(LIVE_DISPLAY(url=f"{display.url}board/{board_id}?key={config.pair_key}"), args.language))
    NOTES.append(say(HALL(url=display.url), args.language))
    if args.seat is not None and args.click:
        NOTES.append(say(CLICK_SEAT(seat=str(args.seat), url=display.display.seat_url(board_id, args.seat)),
                         args.language))
    for line in NOTES:
        print(line, flush=True)
    return display


def _clicked(display: Any, seat: int, board_id: str) -> Callable[[State], Any]:
    """Moves for ``seat`` come from clicks on its seat page: offer the legal ones, wait for a click."""
    def ask(state: State) -> Any:
        legal = {state.action_to_text(a): a for a in state.own_actions()}
        display.display.seat_play.offer(board_id, seat, list(legal))
        return legal[display.display.seat_play.wait(board_id, seat)]
    return ask
