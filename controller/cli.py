"""The ``arbitro`` command line."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from controller.games.record import ChanceCheck, Match, Record
    from controller.journal import Journal
    from controller.records import GameRecord


class CliError(Exception):
    """What went wrong on an ordinary path, in one line for stderr; ``main`` exits with ``code``."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def _games(args: argparse.Namespace) -> int:
    """Each game, its players and its variant options: default, the values allowed, what it does."""
    from controller.games import all_games
    from controller.words import listing

    for game in all_games():
        print(f"{game.name}: {game.title}, {game.min_players} to {game.max_players} players "
              f"({game.players()} unless told)")
        for o in game.option_schema:
            if isinstance(o.default, bool):
                default, allowed = str(o.default).lower(), "true or false"
            elif isinstance(o.default, int):
                default, allowed = str(o.default), f"a whole number from {o.minimum} to {o.maximum}"
            else:
                choices = listing(list(o.choices)).replace(" and ", " or ")
                default, allowed = str(o.default), choices if o.choices else "a text"
            print(f"  {o.name:22} {default:10} {allowed}: {o.doc}")
    print("Options go in the configuration's board.options (options = { fast = true }) or in MQTT's new_game.")
    return 0


def _run(args: argparse.Namespace) -> int:
    import logging

    from controller.app import StartupError, build_service, run_forever
    from controller.config import ConfigError, load_config
    from hardware.layout import LayoutError

    logging.basicConfig(level=logging.DEBUG if args.debug else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        return run_forever(build_service(config))
    except (ConfigError, LayoutError, StartupError) as exc:
        logging.getLogger("arbitro").debug("start-up failed", exc_info=True)
        raise CliError(str(exc), 2) from exc


def _remote_bridge(args: argparse.Namespace) -> int:
    """The Mosquitto bridge of a remote game, from the configuration's [remote] section (docs/remote.md)."""
    from controller.config import ConfigError, load_config
    from controller.remote_link import bridge_stanza

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from exc
    if not (config.remote.peer and config.remote.address):
        raise CliError("remote-bridge: set [remote] peer and address (the other board's broker) first", 2)
    print(bridge_stanza(config.mqtt.base_topic, config.board.id, config.remote), end="")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from controller import demo

    return demo.run(args)


def _display(args: argparse.Namespace) -> int:
    import logging

    from controller.display.cli import bind_error, config_from
    from controller.display.server import main

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = config_from(args)
    except argparse.ArgumentTypeError as exc:
        raise CliError(str(exc), 2) from exc
    try:
        return main(config)
    except OSError as exc:  # the address to listen on is taken, not this machine's, or unknown
        raise CliError(f"cannot serve the pages on {config.host}:{config.port}: {bind_error(exc)}"
                       + (" (another display? choose --listen HOST:PORT)" if exc.errno == errno.EADDRINUSE else "")
                       ) from exc


def _sim(args: argparse.Namespace) -> int:
    from firmware_bridge.sim import main

    return main(args)


def _open_journal(path: str) -> Journal:
    """The journal at ``path``, refusing (without creating anything) a path that holds none."""
    import contextlib
    import sqlite3

    from controller.journal import Journal

    file = Path(path)
    if not file.is_file():
        raise CliError(f"no journal at {path}" + (" (a directory)" if file.is_dir() else ""))
    try:  # read-only first: a file that is not ours is neither changed nor turned into a journal
        with contextlib.closing(sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)) as db:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        raise CliError(f"{path} is not an arbitro journal: {exc}") from exc
    if not {"games", "actions"} <= tables:
        raise CliError(f"{path} is not an arbitro journal: it has no games table")
    return Journal(file)


def _journal(args: argparse.Namespace) -> int:
    import json
    import sqlite3

    try:
        journal = _open_journal(args.path)
        games = journal.games()
        if args.export is not None:
            tags = {tag: value for tag in ("event", "site", "round") if (value := getattr(args, tag)) is not None}
            print(json.dumps(_exported(journal, args.export, games, tags).to_dict(), indent=1))
            return 0
        told = [(g, _result_words(journal, g, games)) for g in games]
    except KeyError as exc:  # --export of an id the journal lacks
        raise CliError(str(exc.args[0])) from exc
    except ValueError as exc:  # a game this version's rules no longer replay
        raise CliError(f"game {args.export} of the journal does not replay: {exc}") from exc
    except sqlite3.Error as exc:  # unreadable, locked, or written by someone without us allowed to
        raise CliError(f"cannot read the journal {args.path}: {exc}") from exc
    for g, words in told:
        print(f"{g['id']:5}  {g['board']:12} {g['game']:12} {g['actions']:5} actions  {words}")
    return 0


def _result_words(journal: Journal, game: dict[str, Any], games: list[dict[str, Any]]) -> str:
    """How a game of the journal stands, in words: players by their seats from 1 (or colours) and points."""
    if not game["finished"]:
        return "in play"
    try:
        result = _exported(journal, game["id"], games, {}).result or {}
    except (ValueError, KeyError) as exc:  # a game this version's rules no longer replay: listed all the same
        return f"over (does not replay: {exc})"
    return f"{result['words']} (points {', '.join(f'{p:g}' for p in result['points'])})"


def _exported(journal: Journal, game_id: int, games: list[dict[str, Any]], tags: dict[str, str]) -> GameRecord:
    """Game ``game_id`` of the journal as a record (docs/records.md): replayed, so its chance outcomes are
    marked. A game still in play keeps its secret: with it, every later die, draw and hand is known."""
    from controller import records
    from controller.games.record import Match

    found = next((g for g in games if g["id"] == game_id), None)
    if found is None:
        raise KeyError(f"no game {game_id} in the journal {journal.path}")
    result = found["result"] or {}
    started, at = journal.timing(game_id)
    resigned = result.get("resigned")
    return records.build(Match(journal.record(game_id)), board=found["board"], over=found["finished"],
                         resigned=resigned if isinstance(resigned, int) else None,
                         abandoned=bool(result.get("abandoned")), started=started, at=at, tags=tags)


def _read_record(source: str) -> GameRecord:
    """The game record in ``source`` (a file, or - for standard input), refused in one line when
    it cannot be read or is not a record of a known game."""
    import json

    from controller import records
    from controller.games import get_game

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{source} is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise CliError(f"{source} is not a game record: a record is a JSON object (arbitro journal --export)")
    try:
        found = records.read(data)
    except KeyError as exc:
        raise CliError(f"{source} is not a game record: it has no {exc.args[0]!r}") from exc
    except (TypeError, ValueError, AttributeError) as exc:
        raise CliError(f"{source} is not a game record: {exc}") from exc
    try:
        get_game(found.record.game)
    except KeyError as exc:
        raise CliError(f"{source}: {exc.args[0]}") from exc
    return found


def _replay(args: argparse.Namespace) -> int:
    """Re-referee a finished (or unfinished) game record: every action checked by the rules engine,
    every chance outcome against the secret that drew it (``docs/mqtt.md``, "Fair dice")."""
    from controller import records
    from controller.games.record import Match, Record, UnfairRecord, verify

    found = _read_record(args.record)
    record = found.record
    try:
        match = Match(Record(record.game, record.options, record.num_players, list(record.keys),
                             position=record.position))
    except (ValueError, TypeError) as exc:  # options or players the game does not have, or a position not its
        raise CliError(f"{args.record}: {exc}") from exc
    for n, text in enumerate(record.actions, start=1):
        try:
            match.apply_text(text)
        except ValueError as exc:  # IllegalAction (a ValueError) says which rule; text that names no action too
            raise CliError(f"action {n} ({text}) is not legal: {getattr(exc, 'reason', exc)}") from exc
    try:
        checks = {c.action: c for c in verify(record)}
    except UnfairRecord as exc:
        raise CliError(f"{args.record}: unfair chance: {exc}") from exc
    if args.verbose:
        for n, text in enumerate(match.public_log):
            print(f"{n + 1:5}  {text}" + (f"   {_chance_told(checks[n])}" if n in checks else ""))
    state = match.state
    over = "game over" if state.is_terminal() or record.over else "still in play"
    print(f"{record.game}: {len(record.actions)} actions replayed, {over}; winners {state.winners()}, "
          f"scores {list(state.scores())}")
    if found.version > 1:
        names = ", ".join(f"{p.seat} {p.name} ({p.kind})" for p in found.players)
        tags = ", ".join(f"{tag} {found.tags[tag]}" for tag in records.TAGS)
        print(f"{tags}; seats: {names}; result: {(found.result or {}).get('words', '?')}"
              + (f"; {found.withheld} later actions withheld (a game in play: the first hides a card)"
                 if found.withheld else ""))
    print(_fairness(record, list(checks.values())))
    print(_computer_moves(record, match))
    return 0


def _computer_moves(record: Record, match: Match) -> str:
    """Every computer player's move checked, once the secret its decisions are keyed by is revealed:
    the move its level takes from its seat's views and ``decision_seed`` (``CliError`` naming the
    first that is not). Its words for ``arbitro replay``."""
    import random

    from controller import players
    from controller.seats import seat_of
    from controller.seats.computer import decision_seed

    try:
        seats = [seat_of(text) for text in record.seats]
    except ValueError as exc:  # a seat no kind takes: the record is malformed
        raise CliError(f"the record's {exc}") from exc
    moves = [i for i, state in enumerate(match.history[:-1]) if 0 <= state.current_player < len(seats)
             and seats[state.current_player].decides
             and state.player_of(state.action_from_text(record.actions[i])) == state.current_player]
    if not moves:
        return "computer players: none"
    for i in moves:
        key = record.keys[max((k for j, k in record.drawn.items() if j < i), default=0)]
        if key.secret is None:
            return f"computer players: {len(moves)} moves, checked once the secret is revealed (the game is in play)"
        state, p = match.history[i], match.history[i].current_player
        decision = players.decide(record.game, record.options, state.public_view(), state.private_view(p), p,
                                  seats[p].level, random.Random(decision_seed(key.secret, i)))
        if decision.text != record.actions[i]:
            raise CliError(f"action {i + 1} ({record.actions[i]}) is not the move of seat {p}'s computer player "
                           f"({seats[p].text}): its level and seed give {decision.text}")
    return f"computer players: {len(moves)} of {len(moves)} moves are the ones their level and seed give"


def _chance_told(c: ChanceCheck) -> str:
    """A chance outcome as ``arbitro replay -v`` tells it: what checking it with code of one's own needs."""
    by = (("entered at the table" if c.table else "not drawn by a secret (not marked)") if c.key is None
          else f"drawn by secret {c.key}" + ("" if c.verified else ", not revealed yet"))
    return f"chance node {c.node}, outcome {c.outcome} of weights {list(c.weights)}: {by}"


def _fairness(record: Record, checks: list[ChanceCheck]) -> str:
    """What ``arbitro replay`` found of a record's chance, and what that proves, in words."""
    from controller.games.chance import SCHEME
    from controller.games.record import resolved

    if not record.keys:
        return f"chance: a record from before fair dice; its {len(checks)} chance outcomes cannot be checked"
    proven, hidden = sum(c.verified for c in checks), sum(c.key is not None and not c.verified for c in checks)
    table, unmarked = sum(c.table for c in checks), sum(c.key is None and not c.table for c in checks)
    counts = {"drawn by the revealed secret, each the one it gives": proven,
              "drawn by a secret not revealed yet (the game is in play: checked once it is over)": hidden,
              "entered at the table (physical dice: the table's, not checked)": table,
              "not drawn by a secret and not marked (a record from before chance was marked: taken as the "
              "table's, not checked)": unmarked}
    told = [f"{n} {what}" for what, n in counts.items() if n]
    how = {"electronic": "electronic (drawn from the secret)", "table": "the table's dice",
           "both": "electronic and the table's dice", "none": "no chance"}[resolved(proven + hidden, table)]
    rest = ([f"{hidden} wait for the secret to be revealed"] if hidden else []) + (
        [f"{table + unmarked} are the table's word"] if table + unmarked else [])
    proves = (f"the record proves {proven} of its {len(checks)} chance outcomes to be what the committed secret gives"
              + (f" ({', '.join(rest)})" if rest else ""))
    return (f"fair dice ({SCHEME}, commitment {record.keys[-1].commitment}), "
            + (f"{how}: " if record.table is not None else "")
            + ("; ".join(told) or "no chance outcomes") + f". So {proves}.")


class _Parser(argparse.ArgumentParser):
    """An unknown argument is refused by the command it was given to, with that command's usage
    (``arbitro demo --gmae``); argparse's own parser leaves it to the top one, whose usage only
    lists the commands. Subcommands' parsers are of the same class."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("arbitro")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


class _Version(argparse.Action):
    """``--version``: looked up only when asked for (``importlib.metadata`` is slow to import, and
    ``arbitro run`` should reach ``online`` fast)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"arbitro {_version()}")
        parser.exit()


def _forget(args: argparse.Namespace) -> int:
    from controller.config import ConfigError, load_config
    from controller.display.cli import host_port
    from controller.forget import ForgetError, forget

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from exc
    if args.broker:
        try:
            config.mqtt.host, config.mqtt.port = host_port("--broker", args.broker, 1883, any_port=False)
        except argparse.ArgumentTypeError as exc:
            raise CliError(str(exc), 2) from exc
    try:
        done = forget(config.mqtt, args.board, even_online=args.even_online)
    except ForgetError as exc:
        raise CliError(str(exc)) from exc
    for topic in done.topics:
        print(f"emptied {topic}")
    print(f"board {args.board}: {len(done.topics)} retained topic(s) emptied")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="arbitro", description="Referee for physical tabletop games.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")  # none: said in main, after unknown options
    p = sub.add_parser("games", help="list the games and their variant options")
    p.set_defaults(func=_games)

    p = sub.add_parser("run", help="referee the board: sensors, LEDs, buttons, MQTT (the service)")
    p.add_argument("--config", default=None, help="TOML configuration (default: every key's default)")
    p.add_argument("--debug", action="store_true", help="log the raw channel traffic too")
    p.set_defaults(func=_run)

    p = sub.add_parser("remote-bridge", help="print the Mosquitto bridge of a remote game ([remote] in the config)")
    p.add_argument("--config", default=None, help="TOML configuration (default: every key's default)")
    p.set_defaults(func=_remote_bridge)

    p = sub.add_parser("forget", help="clear a board that is gone from the broker: its retained topics, its "
                       "Home Assistant entities")
    p.add_argument("board", help="the board's id")
    p.add_argument("--config", default=None, help="TOML configuration: its [mqtt] (default: every key's default)")
    p.add_argument("--broker", metavar="HOST:PORT", help="another broker than the configuration's (a hall's)")
    p.add_argument("--even-online", action="store_true", help="forget a board whose status is online too")
    p.set_defaults(func=_forget)

    p = sub.add_parser("journal", help="list the games in a journal, or export one as a record")
    p.add_argument("path", help="the journal file (journal.sqlite in the state directory)")
    p.add_argument("--export", type=int, metavar="ID", help="print game ID as a JSON record (docs/records.md)")
    for tag in ("event", "site", "round"):
        p.add_argument(f"--{tag}", help=f"the record's {tag} tag (with --export)")
    p.set_defaults(func=_journal)

    p = sub.add_parser("replay", help="re-referee a game record (JSON from `arbitro journal --export`)")
    p.add_argument("record", help="the record file, or - for standard input")
    p.add_argument("-v", "--verbose", action="store_true", help="print every action")
    p.set_defaults(func=_replay)

    from controller import demo

    p = sub.add_parser("demo", help="bots play on a simulated board, drawn in the terminal, live on MQTT")
    demo.add_arguments(p)
    p.set_defaults(func=_demo)

    from controller.display import cli as display_cli

    p = sub.add_parser("display", help="web pages that draw every board live from MQTT: the hall, boards, seats")
    display_cli.add_arguments(p)
    p.set_defaults(func=_display)

    p = sub.add_parser("sim", help="a simulated sensor board on a pty or TCP port; prints its URL, reads commands")
    p.add_argument("--channels", default="presence:64", help="channel blocks KIND:COUNT,... (presence, count, piece)")
    p.add_argument("--layout", help="a layout file: its blocks, channel names (set sq:c3 1) and firmware config")
    p.add_argument("--tcp", type=int, metavar="PORT", help="serve socket://127.0.0.1:PORT (0: any free port)")
    p.add_argument("--board-kind", default="generic", help="board kind announced in HELLO")
    p.add_argument("--scan-ms", type=float, default=1.0, help="scan period (ms)")
    p.add_argument("--debounce", type=int, default=3, help="scans a new value must hold before it is reported")
    p.add_argument("--pico", nargs="?", const="", metavar="DIR", help="a simulated Pico to rehearse 'arbitro firmware "
                   "flash' on (mpremote); its files in DIR (default: a temporary directory)")
    p.set_defaults(func=_sim)

    from controller.tools import cli as tools_cli  # firmware flash, diagnose, layout, calibrate

    tools_cli.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # an unknown option is named as such ("unrecognized arguments: --verison")
    if args.command is None:
        parser.error("a COMMAND is needed (arbitro --help lists them and says what each does)")
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"arbitro {args.command}: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:  # Ctrl-C while starting up or reading standard input
        return 130


if __name__ == "__main__":
    sys.exit(main())
