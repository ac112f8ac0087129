"""Scriptorium's evaluation: the moves each player still needs, one unit for every player."""

from __future__ import annotations

from controller.games.registry import get_game
from controller.games.scriptorium.state import ScriptoriumState
from controller.players.scriptorium import ScriptoriumModel, moves_left

# Outer offset 0: red's Outer spaces are o0 and o6, orange's o1 and o7, yellow's o2 and o8, green's o3 and o9.
TEXT = ("scriptorium players={n} outer_line=same round_limit=200 start=random phase=roll round=0 first=red "
        "turn=red offsets=3,0,1,0 active=centre pawns={pawns} pins={pins} die=- number=- pending=- winner=-")


def _position(pawns: str, pins: str = "-", n: int = 2) -> ScriptoriumState:
    state = get_game("scriptorium").state_from_text(TEXT.format(n=n, pawns=pawns, pins=pins))
    assert isinstance(state, ScriptoriumState)
    return state


def test_moves_left_counts_both_outer_spaces_then_the_hub() -> None:
    # from o1: one move to o0, six round the Outer ring to o6, three in to the hub
    assert moves_left(_position("o1,hub").position, 0) == 1 + 6 + 3
    # o0 visited (its pin), so only o6 and the hub remain
    assert moves_left(_position("o1,hub", pins="o0").position, 0) == 5 + 3
    # both visited: the hub only
    assert moves_left(_position("m4,hub", pins="o0,o6").position, 0) == 2


def test_a_pawn_next_to_its_outer_space_is_worth_more_than_one_further_along_the_same_ring() -> None:
    near = ScriptoriumModel(_position("o1,hub"), 0).evaluate(_position("o1,hub"))
    far = ScriptoriumModel(_position("o3,hub"), 0).evaluate(_position("o3,hub"))
    assert near[0] > far[0]


def test_in_four_player_games_the_player_with_fewest_moves_left_leads() -> None:
    state = _position("o3,m0,i8,o5", pins="o9", n=4)  # green (3) has visited o9 and stands next to o4's ring
    values = ScriptoriumModel(state, 0).evaluate(state)
    left = [moves_left(state.position, p) for p in range(4)]
    assert sorted(range(4), key=lambda p: values[p]) == sorted(range(4), key=lambda p: -left[p])
    assert max(values) > 0 > min(values)
