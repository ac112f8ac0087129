"""The ``arbitro`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def _games(args: argparse.Namespace) -> int:
    from controller.games import all_games

    for game in all_games():
        print(f"{game.name:12} {game.title} ({game.min_players}-{game.max_players} players)")
        for key, value in game.default_options().items():
            print(f"{'':14}{key} = {value!r}")
    return 0


def _run(args: argparse.Namespace) -> int:
    import logging

    from controller.app import build_service, run_forever
    from controller.config import ConfigError, load_config
    from hardware.layout import LayoutError

    logging.basicConfig(level=logging.DEBUG if args.debug else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        service = build_service(config)
    except (ConfigError, LayoutError) as exc:
        print(f"arbitro: {exc}", file=sys.stderr)
        return 2
    return run_forever(service)


def _demo(args: argparse.Namespace) -> int:
    from controller import demo

    return demo.run(args)


def _display(args: argparse.Namespace) -> int:
    import logging

    from controller.display.cli import config_from
    from controller.display.server import main

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = config_from(args)
    except argparse.ArgumentTypeError as exc:
        print(f"arbitro display: {exc}", file=sys.stderr)
        return 2
    return main(config)


def _sim(args: argparse.Namespace) -> int:
    from firmware_bridge.sim import main

    return main(args)


def _journal(args: argparse.Namespace) -> int:
    import json

    from controller.journal import Journal

    journal = Journal(args.path)
    if args.export is not None:
        print(json.dumps(journal.record(args.export).to_dict(), indent=1))
        return 0
    for g in journal.games():
        result = "in play" if not g["finished"] else json.dumps(g["result"])
        print(f"{g['id']:5}  {g['board']:12} {g['game']:12} {g['actions']:5} actions  {result}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Re-referee a finished (or unfinished) game record: every action checked by the rules engine."""
    import json

    from controller.games import IllegalAction
    from controller.games.record import Match, Record

    text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text()
    record = Record.from_dict(json.loads(text))
    match = Match(Record(record.game, record.options, record.num_players, record.seed))
    for n, text in enumerate(record.actions, start=1):
        try:
            match.apply_text(text)
        except IllegalAction as exc:
            print(f"action {n} ({text}) is not legal: {exc.reason}", file=sys.stderr)
            return 1
        if args.verbose:
            print(f"{n:5}  {match.public_log[-1]}")
    state = match.state
    over = "game over" if state.is_terminal() else "still in play"
    print(f"{record.game}: {len(record.actions)} actions replayed, {over}; winners {state.winners()}, "
          f"scores {list(state.scores())}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbitro", description="Referee for physical tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("games", help="list the games and their variant options")
    p.set_defaults(func=_games)

    p = sub.add_parser("run", help="referee the board: sensors, LEDs, buttons, MQTT (the service)")
    p.add_argument("--config", default=None, help="TOML configuration (default: every key's default)")
    p.add_argument("--debug", action="store_true", help="log the raw channel traffic too")
    p.set_defaults(func=_run)

    p = sub.add_parser("journal", help="list the games in a journal, or export one as a record")
    p.add_argument("path", help="the journal file (journal.sqlite in the state directory)")
    p.add_argument("--export", type=int, metavar="ID", help="print game ID as a JSON record")
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
    p.add_argument("--layout", help='JSON {"board_kind": K, "blocks": [["presence", 36], ...]} (not with --channels)')
    p.add_argument("--tcp", type=int, metavar="PORT", help="serve socket://127.0.0.1:PORT (0: any free port)")
    p.add_argument("--board-kind", default="generic", help="board kind announced in HELLO")
    p.add_argument("--scan-ms", type=float, default=1.0, help="scan period (ms)")
    p.add_argument("--debounce", type=int, default=3, help="scans a new value must hold before it is reported")
    p.set_defaults(func=_sim)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
