"""Serpientes: a seat whose programmed sequence would near a token does not pass (issue 37, point
4). The positions come from seeded random games, the sequence run by the engine itself."""

from __future__ import annotations

import random
from collections.abc import Iterator

from controller.games.base import State
from controller.games.registry import get_game
from controller.games.serpientes.actions import DONE, RUN
from controller.games.serpientes.state import SerpientesState
from controller.players import decide
from controller.players.serpientes import model, steps_to_token
from tests.players.table import random_step


def _ran(state: SerpientesState) -> SerpientesState | None:
    """The state after the player runs his sequence to its end, by the engine; None on a crash."""
    me = state.current_player
    after: State = state.apply_legal(RUN)
    while after.current_player == me and isinstance(after, SerpientesState) and after.position.phase == "run":
        after = after.apply_legal(after.legal_actions()[0])
    assert isinstance(after, SerpientesState)
    pos = after.position
    if (pos.last and pos.last.startswith("crash")) or not pos.snakes[me]:
        return None
    return after


def _nearing(state: SerpientesState) -> bool:
    pos = state.position
    me = pos.player
    if pos.phase != "play" or RUN not in state.legal_actions() or DONE not in state.legal_actions():
        return False
    after = _ran(state)
    if after is None:
        return False
    end = after.position
    if end.eaten[me] > pos.eaten[me]:
        return True
    return bool(end.tokens) and steps_to_token(end, end.snakes[me][-1]) < steps_to_token(pos, pos.snakes[me][-1])


def _positions(n: int, wanted: int) -> Iterator[SerpientesState]:
    found = 0
    for seed in range(200):
        state = get_game("serpientes").new_state({"two_players": True} if n == 2 else {}, n)
        rng = random.Random(seed)
        while not state.is_terminal() and found < wanted:
            if isinstance(state, SerpientesState) and state.current_player >= 0 and _nearing(state):
                found += 1
                yield state
            state = state.apply_legal(random_step(state, rng))
        if found >= wanted:
            return


def test_a_seat_whose_sequence_nears_a_token_does_not_pass() -> None:
    found = list(_positions(3, 20))
    assert len(found) == 20
    for k, state in enumerate(found):
        seat = state.current_player
        weighed = model(state.options, state.public_view(), state.private_view(seat), seat).decisions(state)
        assert DONE not in weighed and RUN in weighed, f"a pass weighed in {state.to_text()}"
        decision = decide("serpientes", state.options, state.public_view(), state.private_view(seat), seat, "hard",
                          random.Random(k))
        assert decision.action != DONE, f"passed in {state.to_text()}"
