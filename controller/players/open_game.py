"""The state of an open game, rebuilt from its public view: in Contigo, Jeocinco and Scriptorium
everyone sees everything, so the position text of the public view is the whole state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.base import Options, State
from controller.games.registry import get_game


def reconstruct(game: str, options: Options, public_view: Mapping[str, Any]) -> State:
    """The state ``public_view`` shows; ``ValueError`` when its variant is not ``options``'."""
    engine = get_game(game)
    state = engine.state_from_text(public_view["position"])
    wanted, _ = engine.resolve(options, state.num_players)
    if state.options != wanted:
        raise ValueError(f"{game}: the public view is a game of options {state.options}, not {wanted}")
    return state
