"""Serpientes: snakes of sticks moved by programmed card sequences (see docs/rules/serpientes.md)."""

from controller.games.serpientes.engine import SerpientesGame, SerpientesState

GAME = SerpientesGame()

__all__ = ["GAME", "SerpientesGame", "SerpientesState"]
