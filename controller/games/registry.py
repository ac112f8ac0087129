"""The games arbitro referees, by name."""

from __future__ import annotations

from importlib import import_module

from controller.games.base import Game

# name -> module that defines ``GAME``; engines stay unimported until asked for.
ENGINES: dict[str, str] = {
    "contigo": "controller.games.contigo",
    "jeocinco": "controller.games.jeocinco",
    "scriptorium": "controller.games.scriptorium",
    "serpientes": "controller.games.serpientes",
}


def game_names() -> list[str]:
    return list(ENGINES)


def get_game(name: str) -> Game:
    """The registered game called ``name``; a clear error for any other name."""
    try:
        module = ENGINES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(ENGINES) or 'none'}") from None
    game = import_module(module).GAME
    if not isinstance(game, Game):
        raise TypeError(f"{module}.GAME is not a Game")
    return game


def all_games() -> list[Game]:
    return [get_game(name) for name in ENGINES]
