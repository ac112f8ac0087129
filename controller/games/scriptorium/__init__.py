"""Scriptorium: rotating rings, colour and number dice, the sync clock (see docs/rules/scriptorium.md)."""

from controller.games.scriptorium.engine import Scriptorium, ScriptoriumState

GAME = Scriptorium()

__all__ = ["GAME", "Scriptorium", "ScriptoriumState"]
