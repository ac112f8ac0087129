"""Pure rules engines (no I/O, no clock, no global random) behind one API: see ``base``."""

from controller.games.base import CHANCE, TERMINAL, BadPosition, Channel, ChannelKind, Game, IllegalAction, State
from controller.games.registry import all_games, game_names, get_game

__all__ = [
    "CHANCE", "TERMINAL", "BadPosition", "Channel", "ChannelKind", "Game", "IllegalAction", "State",
    "all_games", "game_names", "get_game",
]
