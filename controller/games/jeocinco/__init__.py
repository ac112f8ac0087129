"""Jeocinco: a Cairo-tiling board, dice, paths, disputes, towers and bridges (see docs/rules/jeocinco.md)."""

from controller.games.jeocinco.state import JeocincoGame, JeocincoState

GAME = JeocincoGame()

__all__ = ["GAME", "JeocincoGame", "JeocincoState"]
