"""Whole games with computer players at some seats and random play at the others, every bot
decision checked against the engine's legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from controller.games.base import CHANCE, Action, State
from controller.games.registry import get_game
from controller.players import Budget, decide
from controller.players.search import decisions

RANDOM = "random"


def random_step(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn by its probability, or a random player's action."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(decisions(state))


def bot_move(game: str, options: Mapping[str, Any], state: State, level: str | Budget, rng: random.Random) -> Action:
    """The bot's action at ``state`` from the seat's views only, checked to be the seat's and legal."""
    seat = state.current_player
    action = decide(game, options, state.public_view(), state.private_view(seat), seat, level, rng).action
    assert action in state.legal_actions(), f"{game}: {action!r} is not legal in {state.to_text()}"
    assert state.player_of(action) == seat, f"{game}: {action!r} is not seat {seat}'s"
    return action


def play(game: str, options: Mapping[str, Any], n: int, seats: Sequence[str | Budget], seed: int) -> tuple[State,
                                                                                                            list[Action]]:
    """A whole game, ``seats[p]`` a level, a budget or ``RANDOM``; the final state and every action."""
    state = get_game(game).new_state(options, n)
    table = random.Random(seed)
    minds = [random.Random(seed * 10 + p) for p in range(n)]
    actions: list[Action] = []
    while not state.is_terminal():
        p = state.current_player
        if p != CHANCE and seats[p] != RANDOM:
            action = bot_move(game, options, state, seats[p], minds[p])
        else:
            action = random_step(state, table)
        actions.append(action)
        state = state.apply_legal(action)
    return state, actions


def position_where(game: str, options: Mapping[str, Any], n: int, seat: int, seed: int, choices: int = 2,
                   skip: int = 0) -> State:
    """A state of a randomly played game where ``seat`` decides among ``choices`` or more actions
    (the ``skip``-th such decision after the first)."""
    state = get_game(game).new_state(options, n)
    rng = random.Random(seed)
    while True:
        if state.is_terminal():
            raise AssertionError(f"{game}: no decision of seat {seat} found")
        if state.current_player == seat and len(decisions(state)) >= choices:
            if skip == 0:
                return state
            skip -= 1
        state = state.apply_legal(random_step(state, rng))
