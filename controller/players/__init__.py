"""Computer players: a seat the referee plays, seeing only what that seat may know.

:func:`decide` is the one entry point. It takes the game's name and options, the public view, the
seat's own private view, the seat and a seeded ``random.Random``; never an engine state nor the
dice secret. Each game's module (``contigo``, ``jeocinco``, ``scriptorium``, ``serpientes``) builds
the states the search explores from those views (an open game's one state, Serpientes'
determinizations), gives the rollout policy and the evaluation, and the iteration budget of each
level. The search itself is :mod:`controller.players.search`. See ``docs/players.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Final, Literal, get_args

from controller.games.base import Action, Options
from controller.players.search import Budget, Model, search

__all__ = ["CAP_SECONDS", "LEVELS", "Budget", "Decision", "Level", "budget", "decide"]

Level = Literal["easy", "medium", "hard"]
LEVELS: Final[tuple[Level, ...]] = get_args(Level)

CAP_SECONDS: Final = 2.0
"""The safety net of one decision, in the search's own CPU seconds: a hard decision takes under
0.25 s here (about 2 s on a Raspberry Pi Zero 2 W), so only a machine far slower than planned
reaches it, and then the decision no longer replays from the seed."""

ModelMaker = Callable[[Options, Mapping[str, Any], Mapping[str, Any], int], Model]

MODULES: Final = {name: f"controller.players.{name}" for name in ("contigo", "jeocinco", "scriptorium", "serpientes")}


@dataclass(frozen=True)
class Decision:
    """A computer player's choice: the ``action`` (legal in the state the views describe) and its
    ``text`` (``State.action_to_text``), with how many search iterations it took."""

    action: Action
    text: str
    iterations: int


def budget(game: str, level: str) -> Budget:
    """The iteration budget of ``level`` in ``game``; ``ValueError`` for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    budgets: Mapping[str, Budget] = _module(game).BUDGETS
    return budgets[level]


def decide(game: str, options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any],
           seat: int, level: str | Budget, rng: random.Random, cap_seconds: float = CAP_SECONDS) -> Decision:
    """The move of the computer player in ``seat`` at ``level`` (or with an explicit budget), from
    what that seat may know: the public view and its own private view. ``ValueError`` when the
    views are not the seat's decision (another's turn, the game over)."""
    plan = level if isinstance(level, Budget) else budget(game, level)
    make: ModelMaker = _module(game).model
    model = make(options, public_view, private_view, seat)
    if model.state.current_player != seat:
        raise ValueError(f"{game}: it is not seat {seat}'s decision")
    result = search(model, plan, rng, cap_seconds)
    return Decision(result.action, model.state.action_to_text(result.action), result.iterations)


def _module(game: str) -> Any:
    try:
        return import_module(MODULES[game])
    except KeyError:
        raise ValueError(f"no computer player for {game!r}; games: {', '.join(MODULES)}") from None
