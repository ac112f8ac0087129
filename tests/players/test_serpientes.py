"""Serpientes' computer player runs what it programmed, so its games move and end by their own
ending (the last token eaten, or every snake out), not by the round limit."""

from __future__ import annotations

import random

import pytest

from controller.games.registry import get_game
from controller.games.serpientes import board as B
from controller.games.serpientes import rules
from controller.games.serpientes.actions import RUN
from controller.games.serpientes.position import Position
from controller.games.serpientes.state import SerpientesState
from controller.players import decide
from controller.players.serpientes import run_out, steps_to_token
from tests.players.table import RANDOM, bot_move, play, random_step


def seat_chooses(position: str, seat: int, level: str, options: dict[str, str] | None = None) -> set[str]:
    """What ``seat``'s player at ``level`` chooses at ``position`` with three seeds."""
    state = get_game("serpientes").state_from_text(position)
    return {decide("serpientes", options or {}, state.public_view(), state.private_view(seat), seat, level,
                   random.Random(seed)).text for seed in range(3)}


def seat_0_chooses(position: str, level: str) -> set[str]:
    return seat_chooses(position, 0, level)


# Seat 0 heads south from c4 with ten straight cards programmed: nine steps of free way down column
# c, then the tenth leaves the board. No card added later can save it (they join the end), so
# holding it keeps the snake still for ever.
BOUND_TO_CRASH = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=4 toplace=0 tok=k4,e8,j10 snakes=c3.c4/m7.l7/g13.g12 supply=4,4,4 eaten=0,0,0 crashed=0,0,0 "
    "hands=LLRR/SSLRR/SSLLR seqs=SSSSSSSSSS/-/- deck=4,4,4 discard=0,0,0 faceup=0,0,0 reshuffles=0 shown=- last=-")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_long_programmed_sequence_with_a_free_way_is_run_though_it_crashes_at_its_end(level: str) -> None:
    assert seat_0_chooses(BOUND_TO_CRASH, level) == {"run"}


# Seat 0 (5 points) is behind seat 1 (9) by more than the last token on c5 brings (a token and its
# stick, 2 points): it cannot win. Its programmed straight card eats that token and ends the game.
CANNOT_WIN = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=40 toplace=0 tok=c5 snakes=c3.c4/m7.l7/g13.g12 supply=4,4,4 eaten=0,4,0 crashed=0,0,0 "
    "hands=LLRR/SSLRR/SSLLR seqs=S/-/- deck=4,4,4 discard=9,0,0 faceup=0,0,0 reshuffles=0 shown=- last=-")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_seat_that_cannot_win_eats_the_last_token_rather_than_stall_the_game(level: str) -> None:
    # before: it held ("done", "add right"), hoping for the leader's crash, and such games stalled
    # at their last token until the round limit
    assert seat_0_chooses(CANNOT_WIN, level) == {"run"}


# Seed 5000 of the bench's endings (3 hard players, `max_rounds=200`), round 33, seats turned so that
# the leader is seat 0: the last token b9 lies ten steps round the sticks from its head c2. From
# round 26 to the limit every seat passed (`discard`, `done`): the search weighed a card laid
# against the crashes of the cards after it, and a pass, which risks nothing, won.
LAST_TOKEN_FAR = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=97 toplace=0 tok=b9 snakes=b8.b7.b6.b5.c5.d5.e5.e4.e3.e2.d2.c2/m7.l7.l8.l9.k9.j9.j10.k10/"
    "h2.h3.h4.h5.h6.i6.j6.k6.l6.l5 supply=0,2,0 eaten=6,4,4 crashed=0,0,0 hands=SSSSR/SSSSL/SLRRR seqs=-/-/- "
    "deck=2,2,2 discard=7,5,3 faceup=0,0,0 reshuffles=18 shown=- last=discarded")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_seat_lays_the_card_towards_a_far_last_token_rather_than_pass(level: str) -> None:
    # before: "done", turn after turn, until the round limit; heading west, straight (to b2) is a step
    # nearer b9 round the snake's own body, right (to c1) a step farther
    assert seat_0_chooses(LAST_TOKEN_FAR, level) == {"add straight"}


# Seat 0's head g2 (heading south): the token f5 is four steps away as the crow flies, but seat 1's
# snake walls it off along row 3, twelve steps round; l2 is five steps east, in the open.
WALLED_OFF = (
    "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
    "turns=10 toplace=0 tok=l2,f5 snakes=g1.g2/c3.d3.e3.f3.g3.h3.i3.j3/g13.g12 supply=4,0,4 eaten=0,2,0 "
    "crashed=0,0,0 hands=SSLRR/SSLRR/SSLLR seqs=-/-/- deck=12,5,4 discard=0,0,0 faceup=0,0,0 reshuffles=0 "
    "shown=- last=-")


def test_with_physical_cards_a_sequence_with_a_way_towards_the_token_is_run() -> None:
    # LAST_TOKEN_FAR with physical cards and three cards programmed: the steps are chosen as the
    # sequence runs, and straight (b2) is a step nearer b9. Before: "add", turn after turn (the
    # search weighed the run against the crashes of the steps it could take; a physical 4-player
    # hard game, seed 5002, sat 200 rounds mostly adding)
    physical = LAST_TOKEN_FAR.replace("dealing=arbitro", "dealing=physical").replace(
        "hands=SSSSR/SSSSL/SLRRR seqs=-/-/- deck=2,2,2 discard=7,5,3 faceup=0,0,0",
        "hands=5/5/5 seqs=3/0/0 deck=- discard=- faceup=-")
    for level in ("easy", "hard"):
        assert seat_chooses(physical, 0, level, {"dealing": "physical"}) == {"run"}


def test_steps_to_a_token_go_round_the_sticks() -> None:
    position = _position(WALLED_OFF)
    assert steps_to_token(position, B.parse_node("g2")) == 5
    assert steps_to_token(position._replace(tokens=frozenset({B.parse_node("f5")})), B.parse_node("g2")) == 12


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_seat_steers_for_the_token_it_can_reach_not_the_one_behind_a_snake(level: str) -> None:
    # by the straight count f5 is nearer (right, to f2); round the sticks l2 is (left, to h2).
    # Before: "done" (a pass)
    assert seat_0_chooses(WALLED_OFF, level) == {"add left"}


# Seed 1001 of the bench's strength games (4 players, absolute cards, the hard seat 1 against random
# play, `max_rounds=200`), round 199: seat 1 alone on the board, 27 points to 2, the last token b6.
# Its head c11 is in a dead end of its own body (c10, b11, d11, c12 all taken): every card crashes.
# The way out is a crash, a stick lost, and the half-turn it earns: the tail's end e6 is three steps
# from b6.
DEAD_END = (
    "serpientes players=4 two=0 cards=absolute dealing=arbitro tokens=15 rounds=1000 phase=play player=1 "
    "turns=796 toplace=0 tok=b6 snakes=x/f6.e6.e7.e8.e9.d9.d10.d11.e11.e12.d12.c12.b12.b11.b10.c10.c11/x/x "
    "supply=0,0,0,0 eaten=2,11,1,0 crashed=1,0,1,1 hands=NNSSW/EESSW/NESWW/NEEWW seqs=-/-/-/- deck=0,1,0,0 "
    "discard=8,6,7,6 faceup=0,0,0,0 reshuffles=74 shown=- last=placed")
# The same game at round 60: the head b10 four steps below b6, but no north card came, and the
# sequence east, south it holds leads into that dead end (c10, c11).
INTO_A_DEAD_END = (
    "serpientes players=4 two=0 cards=absolute dealing=arbitro tokens=15 rounds=1000 phase=play player=1 "
    "turns=240 toplace=0 tok=b6 snakes=x/g5.g6.f6.e6.e7.e8.e9.d9.d10.d11.e11.e12.d12.c12.b12.b11.b10/x/x "
    "supply=0,0,0,0 eaten=2,11,1,0 crashed=1,0,1,1 hands=NNSSW/NNEWW/NESWW/NEEWW seqs=-/ES/-/- deck=5,5,8,3 "
    "discard=1,2,0,2 faceup=0,0,0,0 reshuffles=52 shown=- last=discarded")


@pytest.mark.parametrize("position", [DEAD_END, INTO_A_DEAD_END])
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_snake_in_a_dead_end_does_not_pass(position: str, level: str) -> None:
    # before: "done" turn after turn, to the round limit (the search weighed every card's crash
    # against a pass that risked nothing; the dead end itself kept only "done")
    assert "done" not in seat_chooses(position, 1, level, {"cards": "absolute"})


def test_a_seat_alone_in_a_dead_end_crashes_turns_round_and_eats_the_last_token() -> None:
    state = get_game("serpientes").state_from_text(DEAD_END)
    table, mind = random.Random(1), random.Random(2)
    turns = 0
    while not state.is_terminal() and turns < 12:
        if state.current_player == 1:
            turns += _of(state).phase == "play"
            state = state.apply_legal(bot_move("serpientes", {"cards": "absolute"}, state, "hard", mind))
        else:
            state = state.apply_legal(random_step(state, table))
    assert _ending(state.public_view()) == "last token eaten"
    assert _of(state).last == "ate" and _of(state).eaten[1] == 12


def test_a_snake_of_one_stick_in_a_dead_end_waits_rather_than_crash_out_of_the_game() -> None:
    # seat 0's only stick c2.c3 (heading south, no supply) is walled in by seat 1's snake (b3, c4,
    # d3): a crash would lose its last stick and put it out, so the way out is to wait for seat 1
    # to move, not a card laid
    walled_in = (
        "serpientes players=3 two=0 cards=relative dealing=arbitro tokens=15 rounds=1000 phase=play player=0 "
        "turns=40 toplace=0 tok=k10 snakes=c2.c3/b3.b4.c4.d4.d3/g13.g12 supply=0,0,4 eaten=0,2,0 crashed=0,0,0 "
        "hands=SSLRR/SSLRR/SSLLR seqs=-/-/- deck=4,4,4 discard=8,1,0 faceup=0,0,0 reshuffles=0 shown=- last=-")
    assert seat_0_chooses(walled_in, "hard") == {"done"}


def test_with_physical_cards_a_snake_in_a_dead_end_runs_its_sequence() -> None:
    # Seed 1000 of the bench's strength games with physical cards, round 64: the hard seat 0's head
    # j5 is walled in by its own body (j4, i5, k5, j6), 42 cards programmed. Before: "done", turn
    # after turn, to the round limit
    physical = (
        "serpientes players=4 two=0 cards=relative dealing=physical tokens=15 rounds=1000 phase=play player=0 "
        "turns=253 toplace=0 tok=l2 snakes=i6.i5.h5.h6.g6.g5.g4.h4.i4.j4.k4.k5.k6.k7.k8.j8.j7.j6.j5/m5.m4.l4/x/"
        "b12.b13 supply=0,0,0,0 eaten=13,1,0,0 crashed=0,0,1,0 hands=2/0/4/0 seqs=42/0/0/0 deck=- discard=- "
        "faceup=- reshuffles=0 shown=- last=discarded")
    for level in ("easy", "hard"):
        assert seat_chooses(physical, 0, level, {"dealing": "physical"}) == {"run"}


def _position(text: str) -> Position:
    return _of(get_game("serpientes").state_from_text(text))


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


@pytest.mark.parametrize("seed", [1, 3])
def test_three_easy_players_steer_to_the_tokens_and_end_the_game_by_the_last_one(seed: int) -> None:
    # Before: every seat passed turn after turn, and 6 of 8 such games (seeds 1-8) sat at round
    # 200 with tokens left (these two with 3 and 2); since, all 8 end by the last token, in 9 to 31
    # rounds. People who steer end a 3-player game in 52 rounds at most (docs/rules/serpientes.md).
    final, _ = play("serpientes", {"max_rounds": ROUND_BOUND}, 3, ["easy"] * 3, seed=seed)
    view = final.public_view()
    assert _ending(view) == "last token eaten"
    assert view["round"] <= 52


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


@pytest.mark.parametrize("cards", ["relative", "absolute"])
def test_a_programmed_sequence_run_out_ends_where_the_engine_runs_it(cards: str) -> None:
    # run_out judges every programmed sequence at every leaf, with its own bit-board crash check:
    # it must agree with the engine's steps (a taken edge, a jump, off the board, the tail lifted first)
    rng = random.Random(7)
    engine = get_game("serpientes")
    checked = 0
    for seed in range(12):
        state = engine.new_state({"cards": cards}, 3 + seed % 4)
        table = random.Random(seed)
        while not state.is_terminal() and rules.game_round(_of(state)) < 40:
            position = _of(state)
            if position.phase == "play" and not position.sequences[position.player]:
                p = position.player
                sequence = tuple(rng.randrange(len(rules.kinds(position))) for _ in range(rng.randint(1, 8)))
                programmed = position._replace(sequences=(*position.sequences[:p], sequence,
                                                          *position.sequences[p + 1:]))
                ran = SerpientesState(programmed).apply_legal(RUN)
                while ran.current_player == p and _of(ran).phase == "run":
                    ran = ran.apply_legal(ran.legal_actions()[0])
                after, crashed = run_out(programmed, p)
                assert (after.snakes[p], after.supply[p], after.eaten[p], after.tokens) == \
                    (_of(ran).snakes[p], _of(ran).supply[p], _of(ran).eaten[p], _of(ran).tokens)
                assert crashed == _of(ran).last.startswith("crash")
                checked += 1
            state = state.apply_legal(random_step(state, table))
    assert checked > 100


def _of(state: object) -> Position:
    assert isinstance(state, SerpientesState)
    return state.position
