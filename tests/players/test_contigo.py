"""Contigo's computer player: threats (a move the pits allow now that wins) in its evaluation and its
rollouts, and what they buy at the table."""

from __future__ import annotations

import random

from controller.games.contigo.board import LINES, sitting_winner
from controller.games.contigo.state import ContigoState
from controller.games.registry import get_game
from controller.players import decide
from controller.players.contigo import ContigoModel
from tests.players.table import RANDOM, play

ALIGNMENT = ("contigo game=alignment form=straight win=four turn_limit=200 rounds=0 spread_limit=0 spread=either_side "
             "players=2 board={board} pits=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 to={to} "
             "phase={phase} hand=- turn=10 captured=0,0 result=none")
CAPTURE = ("contigo game=capture form=straight win=four turn_limit=200 rounds=0 spread_limit=0 spread=one_way "
           "players=2 board={board} pits=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 to={to} phase=move "
           "hand=- turn=10 captured=1,2 result=none")


def _state(text: str) -> ContigoState:
    state = get_game("contigo").state_from_text(text)
    assert isinstance(state, ContigoState)
    return state


def test_a_line_the_pits_let_the_player_to_move_complete_is_as_good_as_won() -> None:
    # Red a1 b1 c1 and d3, s-d holds 2: d3-d1 wins; Blue's a6 b6 c6 are as many, with no move to a fourth
    state = _state(ALIGNMENT.format(board="bbb.../....r./b....r/.b.r../.....b/rrr...", to="red", phase="move"))
    red, blue = ContigoModel(state, 0).evaluate(state)
    assert red > 0.9 > -0.9 > blue


def test_the_bead_move_takes_away_the_opponents_winning_move() -> None:
    # Blue a6 b6 c6, and d4 goes north by n-d's 2 beads to d6: Red's bead move must change that pit
    state = _state(ALIGNMENT.format(board="bbb.../....r./...b.r/br..../..r.r./r....b", to="red", phase="beads"))
    decision = decide("contigo", state.options, state.public_view(), state.private_view(0), 0, "easy",
                      random.Random(1))
    after = state.apply_legal(decision.action)
    assert after.current_player == 1
    wins = [a for a in after.legal_actions() if after.apply_legal(a).returns()[1] > 0]
    assert not wins, f"after {decision.text} Blue wins by {after.action_to_text(wins[0])}"


def test_a_double_within_reach_of_the_capture_game_is_as_good_as_taken() -> None:
    # Blue's single on d3 reaches Red's double on d1 by s-d's 2 beads, and taking a double wins
    state = _state(CAPTURE.format(board="bbBbbb/.bbb../....../...b../rrr.../rrrRrr", to="blue"))
    red, blue = ContigoModel(state, 1).evaluate(state)
    assert blue > 0.9 > -0.9 > red


def test_hard_wins_four_player_games_against_random_play() -> None:
    # three random players' pawns break lines: without threats hard drew half such games at the limit
    for g in range(6):
        seat = g % 4
        final, _ = play("contigo", {}, 4, ["hard" if p == seat else RANDOM for p in range(4)], seed=200 + g)
        assert final.returns()[seat] > 0, f"game {g}: {final.to_text()}"


def test_the_sitting_variant_ends_every_game_between_hard_players_by_its_rule() -> None:
    # the default 4-player game between hard players is drawn at the turn limit (docs/rules/contigo.md
    # §8); a sitting ends by a line, or at its last round won by the longest line, then the next
    # (a draw only when all are alike). Capped at 3 rounds here: bench.bots measures 30 (docs/players.md)
    for seed in (300, 301):
        final, actions = play("contigo", {"rounds": 3}, 4, ["hard"] * 4, seed=seed)
        assert isinstance(final, ContigoState)
        pos = final.position
        assert pos.turn <= 12 < pos.variant.turn_limit
        if pos.turn == 12:  # not by a line: the sitting's rule (seed 300: Red's and Yellow's lines alike)
            last = (actions[0][1] + 11) % 4  # type: ignore[index]  # the 12th turn, from the seat that started
            assert pos.result == sitting_winner(pos.board, 4, LINES, last), final.to_text()
        assert final.winners(), final.to_text()
