"""The sitting variant (``rounds=n``, docs/rules/contigo.md §8): the alignment game ends after n
rounds, won by the longest line (then the second longest; a draw while two still tie)."""

from __future__ import annotations

import pytest

from controller.games.base import State
from controller.games.contigo import GAME
from tests.games.contigo.builder import position

# Four players, 2 rounds: the game ends after turn 8. Red's longest line is 3 (a1 b1 c1), the others' 2.
PIECES = {"r": "a1 b1 c1 f3", "b": "a6 b6 e4 f6", "g": "a3 c4 d6 e2", "y": "b3 d2 e6 f1"}


def _last_bead_move(pieces: dict[str, str], rounds: int = 2, turn_limit: int = 200) -> State:
    state = position(pieces, players=4, phase="beads", to="yellow", turn=2 * 4 - 1, rounds=rounds,
                     turn_limit=turn_limit)
    return state.apply_legal(state.legal_actions()[0])


def test_the_longest_line_wins_the_last_round() -> None:
    after = _last_bead_move(PIECES)
    assert after.is_terminal() and after.winners() == [0]
    assert "rounds=2" in after.to_text() and "result=red" in after.to_text()
    assert GAME.state_from_text(after.to_text()).to_text() == after.to_text()


def test_a_tie_is_broken_line_by_line_then_by_the_latest_turn() -> None:
    # Red's a1 b1 c1 and Green's d3 d4 d5 are 3 each; Green's next line (a5 with d5 on rank 5) is 2
    second = {"r": "a1 b1 c1 f3", "b": "a6 c6 e4 f6", "g": "d3 d4 d5 a5", "y": "b3 d2 e6 f1"}
    assert _last_bead_move(second).winners() == [2]
    # the starting layout, each seat's a quarter turn of the last: every player's lines alike, so the
    # latest in the round wins: the one whose bead move ends it
    start = GAME.new_state({"rounds": 2}, 4)
    for seat in range(4):
        first = start.apply_legal(start.chance_outcomes()[seat][0])
        last = GAME.state_from_text(first.to_text().replace("phase=move", "phase=beads").replace("turn=0", "turn=7"))
        after = last.apply_legal(last.legal_actions()[0])
        assert after.is_terminal() and after.winners() == [seat]


def test_the_turn_limit_still_draws_when_it_comes_first() -> None:
    assert _last_bead_move(PIECES, rounds=5, turn_limit=8).winners() == []


def test_the_sitting_is_the_alignment_games() -> None:
    with pytest.raises(ValueError, match="sitting"):
        GAME.new_state({"game": "capture", "rounds": 10}, 2)
    assert GAME.max_game_length({"rounds": 30}, 4) == 1 + 2 * 120
