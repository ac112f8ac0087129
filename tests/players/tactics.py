"""Positions where tactics decide, found by playing seeded random games (not picked by hand): the
player to act can win at once, or one of his actions hands an opponent a winning reply that another
would not. Checked with the game API's default ``State.winning_actions`` (every action tried), so a
game's cheaper hook is checked too."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from controller.games.base import CHANCE, Action, State
from controller.games.registry import get_game
from controller.players.search import decisions
from tests.players.table import random_step


def wins(state: State) -> list[Action]:
    """The player to act's actions that win at once, by the engine itself (the API's default)."""
    me = state.current_player
    return [a for a in State.winning_actions(state) if state.player_of(a) == me]


def hands_over(after: State, me: int, depth: int = 1) -> bool:
    """Whether ``after`` (one of ``me``'s actions taken) lets another player win at once, whatever
    ``me`` does for ``depth`` more actions of his own turn; a loss at once counts."""
    if after.is_terminal():
        return bool(after.winners()) and me not in after.winners()
    if after.current_player == CHANCE:
        return False
    if any(after.player_of(a) != me for a in State.winning_actions(after)):
        return True
    if after.current_player != me or depth == 0:
        return False
    return all(hands_over(after.apply_legal(a), me, depth - 1) for a in decisions(after))


def positions(game: str, options: Mapping[str, Any], n: int, kind: str, wanted: int, seed: int,
              games: int, screen: Any = None) -> Iterator[State]:
    """Up to ``wanted`` decisions of ``kind`` ("win" or "prevent") from seeded random games.
    ``screen(state)`` (optional) passes over the states that cannot be of the kind, cheaply."""
    found = 0
    for g in range(games):
        state = get_game(game).new_state(options, n)
        rng = random.Random(seed + g)
        while not state.is_terminal() and found < wanted:
            me = state.current_player
            if me != CHANCE and len(decisions(state)) > 1 and (screen is None or screen(state, kind)):
                if kind == "win" and wins(state):
                    found += 1
                    yield state
                elif kind == "prevent" and not wins(state):
                    given = [hands_over(state.apply_legal(a), me) for a in decisions(state)]
                    if any(given) and not all(given):
                        found += 1
                        yield state
            state = state.apply_legal(random_step(state, rng))
        if found >= wanted:
            return
