"""A seat's model, built from what the seat sees: the game's ``state_seen_by`` gives a state that
agrees with its public and private views (an open game's: the public view's position, the whole
state), and ``State.resample`` deals anew, for each determinization, what the seat cannot see.
Names no game: each game's module hands in its own :class:`Model`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from controller.games.base import Options
from controller.games.registry import get_game
from controller.players.search import Model

M = TypeVar("M", bound=Model)


def model_of(kind: type[M], game: str, options: Options, public_view: Mapping[str, Any],
             private_view: Mapping[str, Any], seat: int) -> M:
    """A ``kind`` model of ``seat`` from its views; ``ValueError`` when their variant is not
    ``options``', or the private view is not the seat's own."""
    engine = get_game(game)
    state = engine.state_seen_by(public_view, private_view, seat)
    wanted, _ = engine.resolve(options, state.num_players)
    if state.options != wanted:
        raise ValueError(f"{game}: the public view is a game of options {state.options}, not {wanted}")
    return kind(state, seat, hidden=engine.hides_information(wanted))
