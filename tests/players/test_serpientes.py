"""Serpientes' computer player runs what it programmed, so its games move and end by their own
ending (the last token eaten, or every snake out), not by the round limit."""

from __future__ import annotations

import random

import pytest

from controller.games.registry import get_game
from controller.players import decide
from tests.players.table import RANDOM, play


def seat_0_chooses(position: str, level: str) -> set[str]:
    """What seat 0's player at ``level`` chooses at ``position`` with three seeds."""
    state = get_game("serpientes").state_from_text(position)
    return {decide("serpientes", {}, state.public_view(), state.private_view(0), 0, level,
                   random.Random(seed)).text for seed in range(3)}


# Seat 0 heads south from c4 with ten straight cards programmed: nine steps of free way down column
# c, then the tenth leaves the board. No card added later can save it (they join the end), so
# holding it keeps the snake still for ever.
BOUND_TO_CRASH = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=4 toplace=0 tok=k4,e8,j10 snakes=c3.c4/m7.l7/g13.g12 supply=4,4,4 eaten=0,0,0 crashed=0,0,0 "
    "hands=LLRR/SSLRR/SSLLR seqs=SSSSSSSSSS/-/- deck=4,4,4 discard=0,0,0 reshuffles=0 shown=- last=-")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_long_programmed_sequence_with_a_free_way_is_run_though_it_crashes_at_its_end(level: str) -> None:
    assert seat_0_chooses(BOUND_TO_CRASH, level) == {"run"}


# Seat 0 (5 points) is behind seat 1 (9) by more than the last token on c5 brings (a token and its
# stick, 2 points): it cannot win. Its programmed straight card eats that token and ends the game.
CANNOT_WIN = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=40 toplace=0 tok=c5 snakes=c3.c4/m7.l7/g13.g12 supply=4,4,4 eaten=0,4,0 crashed=0,0,0 "
    "hands=LLRR/SSLRR/SSLLR seqs=S/-/- deck=4,4,4 discard=9,0,0 reshuffles=0 shown=- last=-")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_seat_that_cannot_win_eats_the_last_token_rather_than_stall_the_game(level: str) -> None:
    # before: it held ("done", "add right"), hoping for the leader's crash, and such games stalled
    # at their last token until the round limit
    assert seat_0_chooses(CANNOT_WIN, level) == {"run"}


def _ending(final_view: dict[str, object]) -> str:
    """How a finished game ended, as the public view shows it."""
    snakes = final_view["snakes"]
    assert isinstance(snakes, list)
    if not final_view["tokens"]:
        return "last token eaten"
    if not any(s["in_game"] for s in snakes):
        return "every snake out"
    return "round limit"


def test_four_easy_players_end_their_game_by_the_last_token_well_before_the_round_limit() -> None:
    # Measured (tests.players.table.play, 4 easy players, seeds 1-7): 12, 22, 23, 45 and 70 rounds
    # to the last token; people who steer end a 4-player game in 22 rounds (median, 38 at most:
    # docs/rules/serpientes.md). Before the fix such games sat at the 1000-round limit, every card
    # in two sequences never run.
    final, _ = play("serpientes", {}, 4, ["easy"] * 4, seed=2)
    view = final.public_view()
    assert final.is_terminal()
    assert _ending(view) == "last token eaten"
    assert view["winners"]
    assert view["round"] <= ROUND_BOUND


@pytest.mark.parametrize("seed", [3, 6])
def test_games_that_stalled_at_their_last_token_end_by_it(seed: int) -> None:
    # seeds 3 and 6 stalled at their last token until the limit: the seats behind would not eat it
    # (that ended the game lost), the leader did not reach it. Since a seat that cannot win would
    # rather finish, both end in 16 rounds.
    final, _ = play("serpientes", {"max_rounds": ROUND_BOUND}, 4, ["easy"] * 4, seed=seed)
    view = final.public_view()
    assert _ending(view) == "last token eaten"
    assert view["round"] <= 70, "longer than any 4-easy game measured that ended by itself"


ROUND_BOUND = 150
"""About twice the longest game measured that ended by its own ending, a seventh of the limit."""


def test_a_hard_player_against_random_play_ends_the_game_and_wins_it() -> None:
    # The fault this guards: at 3 players the hard seat never ran its sequence and the game went
    # to the 1000-round limit (2,030 decisions, 283 s of CPU). Since, hard won each of 6 seeded
    # 3-player games against random play in bench.bots, and this one ends well inside the bound.
    final, _ = play("serpientes", {}, 3, ["hard", RANDOM, RANDOM], seed=2)
    view = final.public_view()
    assert final.is_terminal()
    assert _ending(view) != "round limit"
    assert view["winners"] == [0]
    assert view["round"] <= ROUND_BOUND
