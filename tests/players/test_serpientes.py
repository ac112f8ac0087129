"""Serpientes' player: a sequence bound to crash is run, not held for ever."""

from __future__ import annotations

import random

import pytest

from controller.games.registry import get_game
from controller.games.serpientes.state import SerpientesState
from controller.players import decide
from controller.players.serpientes import will_crash

# Player 0's snake g2.g1 heads off the board's edge: its programmed "straight" crashes at once.
DOOMED = ("serpientes players=2 two=1 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
          "turns=3 toplace=0 tok=d4 snakes=g2.g1/g13.g12 supply=4,4 eaten=0,0 crashed=0,0 hands=SSLLR/SSLLR seqs=SL/- "
          "deck=7,1,4 discard=0,0,0 reshuffles=0 shown=- last=-")


def _state(text: str) -> SerpientesState:
    state = get_game("serpientes").state_from_text(text)
    assert isinstance(state, SerpientesState)
    return state


def test_a_sequence_is_known_to_crash_before_it_runs() -> None:
    doomed = _state(DOOMED)
    assert will_crash(doomed.position, 0)
    fine = _state(DOOMED.replace("seqs=SL/-", "seqs=LS/-"))  # east of g1, then on
    assert not will_crash(fine.position, 0)
    assert not will_crash(doomed.position, 1)  # no sequence


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_sequence_bound_to_crash_is_run_rather_than_held(level: str) -> None:
    # Holding it only put the crash off: the bot added card after card to a sequence it never ran,
    # and games against random play went to the round limit.
    state = _state(DOOMED)
    decision = decide("serpientes", {"two_players": True}, state.public_view(), state.private_view(0), 0, level,
                      random.Random(3))
    assert decision.text == "run"
