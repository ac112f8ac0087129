"""The ``arbitro`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _games(args: argparse.Namespace) -> int:
    from controller.games import all_games

    for game in all_games():
        print(f"{game.name:12} {game.title} ({game.min_players}-{game.max_players} players)")
        for key, value in game.default_options().items():
            print(f"{'':14}{key} = {value!r}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbitro", description="Referee for physical tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("games", help="list the games and their variant options")
    p.set_defaults(func=_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
