"""Serpientes rules, one test (or a few) per rule, from hand-made positions."""

from __future__ import annotations

from typing import Any

import pytest

from controller.games import CHANCE, TERMINAL, BadPosition, IllegalAction
from controller.games.serpientes import GAME
from controller.games.serpientes.state import SerpientesState
from tests.games.serpientes.builder import field, play, position, state
from tests.games.serpientes.length_study import play as play_study


def refused(s: SerpientesState, text: str, *words: str) -> str:
    """``text`` is refused, with a reason holding every one of ``words``."""
    with pytest.raises(IllegalAction) as err:
        s.apply(s.action_from_text(text))
    for w in words:
        assert w in err.value.reason, err.value.reason
    return err.value.reason


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize(("n", "snakes"), [
    (2, "g1.g2/g13.g12"),
    (3, "g1.g2/m7.l7/g13.g12"),
    (4, "g1.g2/m7.l7/g13.g12/a7.b7"),
    (5, "g1.g2/m5.l5/l13.l12/b13.b12/a5.b5"),
    (6, "g1.g2/m3.l3/m11.l11/g13.g12/a11.b11/a3.b3"),
])
def test_start_sticks_on_the_border_pointing_inwards(n: int, snakes: str) -> None:
    s = GAME.new_state({"two_players": n == 2}, n)
    assert field(s, "snakes") == snakes
    assert field(s, "supply") == ",".join(["4"] * n)
    assert s.phase == "tokens" and s.current_player == CHANCE
    assert s.scores() == [5.0] * n  # one stick on the board and four in the supply


def test_tokens_go_at_random_away_from_border_central_lines_and_sticks() -> None:
    s = GAME.new_state(None, 5)
    spots = {s.action_to_text(a)[6:] for a in s.legal_actions()}
    # 11x11 inner intersections minus the central row and column = 100, minus the four
    # five-player start sticks' inner ends that lie among them (l5, l12, b12, b5).
    assert len(spots) == 96
    assert not spots & {"l5", "l12", "b12", "b5", "a3", "g4", "d7", "m9"}
    outcomes = s.chance_outcomes()
    assert abs(outcomes[0][1] - 1 / 96) < 1e-12
    refused(s, "token a3", "border")
    refused(s, "token g4", "central row or column")
    refused(s, "token l5", "stick")
    s = play(s, "token d4")
    refused(s, "token d4", "already holds a token")
    assert "d4" not in {s.action_to_text(a)[6:] for a in s.legal_actions()}


def test_setup_tokens_then_who_starts_then_deal_five_each_from_the_first_player() -> None:
    s = GAME.new_state({"tokens": 2}, 3)
    s = play(s, "token d4", "token j10")
    assert s.phase == "first" and [a for a, _ in s.chance_outcomes()] == [("first", p) for p in range(3)]
    s = play(s, "first 1")
    assert s.phase == "deal"
    # 3 players x 12 cards: 18 straight, 9 left, 9 right
    assert dict((s.action_to_text(a), p) for a, p in s.chance_outcomes()) == {
        "draw straight": 0.5, "draw left": 0.25, "draw right": 0.25}
    s = play(s, "draw left")
    assert s.private_view(1)["hand"] == ["left"]  # the first card goes to the first player
    s = play(s, "draw right")
    assert s.private_view(2)["hand"] == ["right"]
    s = play(s, "draw straight")
    assert s.private_view(0)["hand"] == ["straight"]
    for _ in range(12):
        s = play(s, "draw straight")
    assert [s.hand_size(p) for p in range(3)] == [5, 5, 5]
    assert s.phase == "discard" and s.current_player == 1 and s.round == 1


# ---------------------------------------------------------------- discard and draw
def test_discard_whole_hand_then_draw_to_five() -> None:
    s = state(phase="discard", hands="SLLRR/-/-/-")
    assert sorted(s.action_to_text(a) for a in s.legal_actions()) == ["discard", "keep"]
    s = play(s, "discard")
    assert field(s, "discard") == "1,2,2" and s.hand_size(0) == 0
    assert s.phase == "draw" and s.current_player == CHANCE
    for _ in range(5):
        s = play(s, "draw straight")
    assert s.phase == "play" and s.private_view(0)["hand"] == ["straight"] * 5


def test_keep_draws_up_to_five_only() -> None:
    s = state(phase="discard", hands="SLL/-/-/-")
    s = play(s, "keep")
    assert s.phase == "draw"
    s = play(s, "draw right", "draw right")
    assert s.phase == "play" and s.private_view(0)["hand"] == ["straight", "left", "left", "right", "right"]
    full = play(state(phase="discard", hands="SLLRR/-/-/-"), "keep")
    assert full.phase == "play"  # nothing to draw


def test_discard_only_at_the_start_of_the_turn() -> None:
    s = state(phase="play", hands="SLLRR/-/-/-")
    refused(s, "discard", "only at the start of your turn")
    s = state(phase="discard", hands="SLLRR/-/-/-")
    refused(s, "add straight", "discard your whole hand or keep it")


def test_reshuffle_the_discards_when_the_deck_runs_out() -> None:
    # 2 players: 12 straight, 6 left, 6 right; all but player 0's hand lie in the discards.
    s = state(players=2, phase="discard", hands="SLLRR/-", discard="11,4,4")
    assert field(s, "deck") == "0,0,0"
    s = play(s, "discard")
    assert field(s, "deck") == "12,6,6" and field(s, "discard") == "0,0,0"
    assert field(s, "reshuffles") == "1" and s.phase == "draw"
    assert dict((s.action_to_text(a), p) for a, p in s.chance_outcomes()) == {
        "draw straight": 0.5, "draw left": 0.25, "draw right": 0.25}


def test_with_no_card_left_anywhere_the_hand_stays_short() -> None:
    s = state(players=2, phase="discard", hands="SSS/LLLRR", seqs="SSSSSSSSS/LLLRRRR")
    assert field(s, "deck") == "0,0,0"
    s = play(s, "keep")
    assert s.phase == "play" and s.hand_size(0) == 3


# ---------------------------------------------------------------- programming
def test_a_sequence_programmed_this_turn_runs_at_the_earliest_next_turn() -> None:
    s = state(players=2, phase="play", hands="SSLLR/SSLLR", seqs="L/-")
    assert ("run",) in s.legal_actions()
    s = play(s, "add straight")
    assert s.phase == "program" and ("run",) not in s.legal_actions()
    refused(s, "run", "programmed this turn", "next turn")
    s = play(s, "add right", "done")
    assert s.current_player == 1
    assert s.private_view(0)["sequence"] == ["left", "straight", "right"]
    s = play(s, "keep", "done")  # player 1 passes
    assert s.current_player == 0 and s.phase == "discard"
    s = play(s, "keep", "draw straight", "draw straight")
    assert s.phase == "play" and ("run",) in s.legal_actions()
    s = play(s, "run")
    assert s.phase == "run"
    # the cards run in the order they were laid: left first (heading south, left is east)
    assert [s.action_to_text(a) for a in s.legal_actions()] == ["step left"]
    refused(s, "step straight", "next card of your sequence is left")
    s = play(s, "step left")
    assert field(s, "snakes").split("/")[0] == "g1.g2.h2"


def test_running_adds_no_cards_that_turn() -> None:
    s = state(players=2, phase="run", hands="SSLLR/-", seqs="SS/-", turns=1)
    refused(s, "add straight", "running your sequence")
    refused(s, "done", "finish running")


def test_run_needs_a_sequence_and_cards_come_from_the_hand() -> None:
    s = state(phase="play", hands="SSLLL/-/-/-")
    refused(s, "run", "no programmed sequence")
    refused(s, "add right", "no right card")
    s = play(s, "add left", "add left", "add left")
    assert s.private_view(0) == {"player": 0, "hand": ["straight", "straight"],
                                 "sequence": ["left", "left", "left"]}


# ---------------------------------------------------------------- steps
def test_step_takes_a_stick_from_the_supply_first() -> None:
    s = state(players=2, phase="run", hands="-/SSLLR", seqs="SR/-")
    s = play(s, "step straight")
    assert field(s, "snakes") == "g1.g2.g3/g13.g12" and field(s, "supply") == "3,4"
    assert s.phase == "run" and s.current_player == 0
    s = play(s, "step right")  # heading south, right is west
    assert field(s, "snakes") == "g1.g2.g3.f3/g13.g12" and field(s, "supply") == "2,4"
    assert s.current_player == 1 and s.phase == "discard"  # sequence done: the turn passes
    assert field(s, "discard") == "1,0,1"


def test_step_moves_the_tail_to_the_head_when_the_supply_is_empty() -> None:
    s = state(players=2, phase="run", snakes="c2.c3.c4/g13.g12", supply="0,4", seqs="L/-", tok="j9")
    s = play(s, "step left")  # heading south, left is east
    assert field(s, "snakes") == "c3.c4.d4/g13.g12" and field(s, "supply") == "0,4"
    assert s.scores()[0] == 2.0


def test_absolute_cards_name_compass_directions() -> None:
    s = state(players=2, cards="absolute", phase="run", seqs="EW/-", hands="-/-")
    s = play(s, "step east")
    assert field(s, "snakes") == "g1.g2.h2/g13.g12"
    s = play(s, "step west")  # back along its own stick h2-g2: a crash
    assert field(s, "last") == "crash-taken"


def test_the_tail_is_lifted_before_the_stick_is_placed() -> None:
    # A square: tail f3, g3, g2, head f2 heading west; left is south, onto the tail's spot f3.
    s = state(players=2, phase="run", snakes="f3.g3.g2.f2/g13.g12", supply="0,4", seqs="L/-", tok="j9")
    moved = play(s, "step left")
    assert field(moved, "snakes") == "g3.g2.f2.f3/g13.g12" and field(moved, "last") == "placed"
    # with a stick in the supply the tail stays, and f3 is part of the snake: a crash
    s2 = state(players=2, phase="run", snakes="f3.g3.g2.f2/g13.g12", supply="1,4", seqs="L/-", tok="j9")
    assert field(play(s2, "step left"), "last") == "crash-jump"


# ---------------------------------------------------------------- crashes
def test_crash_off_the_board_loses_the_stick_and_discards_the_rest() -> None:
    s = state(players=2, phase="run", snakes="g2.g1/g13.g12", seqs="SLR/-", hands="-/SSLLR")
    before = s.physical_view()
    after = play(s, "step straight")
    assert s.announcements(("step", 0), after) == [
        {"type": "crash", "player": 0, "text": "player 0's snake crashed (off): the stick goes back to the box",
         "code": "serpientes.crashed", "params": {"player": "player 0", "crash": "off"}}]
    s = after
    assert field(s, "last") == "crash-off"
    assert field(s, "snakes") == "g2.g1/g13.g12" and field(s, "supply") == "3,4"  # back to the box
    assert s.sequence_length(0) == 0 and field(s, "discard") == "1,1,1"
    assert field(s, "crashed") == "1,0" and s.current_player == 1
    assert s.scores() == [4.0, 5.0]
    assert s.physical_view() == before  # a stick from the supply leaves no trace on the board


def test_crash_on_a_taken_edge() -> None:
    # absolute cards: heading south from g3, north goes back along the snake's own stick g2-g3
    s = state(players=2, cards="absolute", phase="run", snakes="g1.g2.g3/g13.g12", seqs="N/-")
    s = play(s, "step north")
    assert field(s, "last") == "crash-taken" and field(s, "snakes") == "g1.g2.g3/g13.g12"
    # from the tail: the tail stick is lost to the box
    s = state(players=2, cards="absolute", phase="run", snakes="g1.g2.g3/g13.g12", supply="0,4", seqs="N/-")
    s = play(s, "step north")
    assert field(s, "last") == "crash-taken" and field(s, "snakes") == "g2.g3/g13.g12"
    assert s.scores()[0] == 1.0


def test_crash_jumping_another_snake_through_an_intersection() -> None:
    # player 1 lies across g4 (f4-g4-h4); player 0's head g3 goes straight to g4: the edge is
    # free but its far end touches another snake.
    s = state(players=2, phase="run", snakes="g1.g2.g3/f4.g4.h4", seqs="S/-", tok="j9")
    s = play(s, "step straight")
    assert field(s, "last") == "crash-jump" and field(s, "snakes") == "g1.g2.g3/f4.g4.h4"


def test_crash_jumping_its_own_body() -> None:
    s = state(players=2, phase="run", snakes="h3.g3.g2.f2.f3/g13.g12", seqs="L/-", tok="j9")
    s = play(s, "step left")  # heading south, left is east: g3 is the snake's own intersection
    assert field(s, "last") == "crash-jump"


def test_a_snake_with_no_stick_left_is_out_and_skipped() -> None:
    s = state(players=2, phase="run", snakes="g2.g1/g13.g12", supply="0,4", seqs="S/-", eaten="2,0",
              turns=1, hands="-/SSLLR")
    s = play(s, "step straight")
    assert field(s, "snakes") == "x/g13.g12" and s.scores() == [2.0, 5.0]
    assert s.current_player == 1 and s.round == 1
    s = play(s, "keep", "done")
    assert s.current_player == 1 and s.round == 2 and s.phase == "discard"  # player 0 is skipped
    refused(s, "half-turn", "after a crash")


def test_when_every_snake_is_out_the_game_ends() -> None:
    s = state(players=2, phase="run", snakes="g2.g1/x", supply="0,0", seqs="S/-", eaten="0,3")
    s = play(s, "step straight")
    assert s.current_player == TERMINAL and s.returns() == [-1.0, 1.0]


# ---------------------------------------------------------------- half-turn
def test_half_turn_is_offered_the_turn_after_a_crash() -> None:
    s = state(players=2, phase="run", snakes="g1.g2.g3/g13.g12", seqs="N/-", cards="absolute",
              hands="NNESW/NNESW")
    s = play(s, "step north")  # crash on its own stick
    s = play(s, "keep", "done")
    assert s.current_player == 0 and s.phase == "half-turn"
    assert [s.action_to_text(a) for a in s.legal_actions()] == ["half-turn", "no-half-turn"]
    refused(s, "discard", "decide on the half-turn")
    turned = play(s, "half-turn")
    assert field(turned, "snakes").split("/")[0] == "g3.g2.g1" and field(turned, "crashed") == "0,0"
    kept = play(s, "no-half-turn")
    assert field(kept, "snakes").split("/")[0] == "g1.g2.g3" and field(kept, "crashed") == "0,0"


def test_after_a_half_turn_relative_cards_follow_the_new_head() -> None:
    s = state(players=2, phase="half-turn", snakes="c2.c3.c4/g13.g12", crashed="1,0", hands="SSLLR/-",
              seqs="L/-", tok="j9")
    s = play(s, "half-turn", "keep", "run", "step left")  # new head c2 heads north; left is west
    assert field(s, "snakes") == "c4.c3.c2.b2/g13.g12"


def test_no_half_turn_without_a_crash() -> None:
    s = state(phase="discard", hands="SSLLR/-/-/-")
    refused(s, "half-turn", "only at the start of the turn after a crash")


# ---------------------------------------------------------------- eating and the end
def test_eating_scores_and_grows_the_snake() -> None:
    s = state(players=2, phase="run", snakes="c2.c3/g13.g12", supply="0,4", seqs="SS/-", tok="c4,j9")
    s = play(s, "step straight")  # tail c2 moves to c4, where the token is
    assert field(s, "snakes") == "c3.c4/g13.g12" and field(s, "tok") == "j9"
    assert field(s, "eaten") == "1,0" and field(s, "supply") == "1,4" and field(s, "last") == "ate"
    assert s.physical_view()["pt:3:2"] == 0 and s.physical_view()["pt:8:9"] == 1
    s = play(s, "step straight")  # the new stick comes from the supply: the snake grows
    assert field(s, "snakes") == "c3.c4.c5/g13.g12" and field(s, "supply") == "0,4"
    assert s.scores() == [3.0, 5.0]


def test_the_game_ends_when_the_last_token_is_eaten() -> None:
    s = state(phase="run", snakes="c2.c3/m7.l7/g13.g12/a7.b7", seqs="SS/-/-/-", tok="c4", eaten="0,1,0,0")
    s = play(s, "step straight")
    assert s.is_terminal() and s.phase == "over" and s.legal_actions() == []
    # player 0: 1 token + 2 sticks + 4 in supply (3 left + 1 for eating); player 1: 1 + 1 + 4
    assert s.scores() == [7.0, 6.0, 5.0, 5.0]
    assert s.returns() == [1.0, -1.0, -1.0, -1.0] and s.winners() == [0]
    refused(s, "step straight", "game is over")


def test_the_round_limit_ends_the_game_and_the_score_decides() -> None:
    s = state(players=2, rounds=3, turns=6, player=1, phase="play", hands="-/SSLLR", eaten="1,0")
    s = play(s, "done")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    tie = play(state(players=2, rounds=3, turns=6, player=1, phase="play", hands="-/SSLLR"), "done")
    assert tie.is_terminal() and tie.returns() == [0.0, 0.0] and tie.winners() == []
    going = play(state(players=2, rounds=3, turns=5, player=0, phase="play", hands="SSLLR/SSLLR"), "done")
    assert not going.is_terminal() and going.current_player == 1


def test_shared_best_score_wins_for_both() -> None:
    s = state(players=3, snakes="c2.c3/m7.l7/g13.g12", phase="run", seqs="S/-/-", tok="c4",
              eaten="0,1,0", supply="4,3,4")
    s = play(s, "step straight")
    assert s.scores() == [7.0, 5.0, 5.0]
    s2 = state(players=3, rounds=1, turns=3, player=2, phase="play", eaten="1,1,0")
    s2 = play(s2, "done")
    assert s2.returns() == [1.0, 1.0, -1.0] and s2.winners() == [0, 1]


# ---------------------------------------------------------------- refusals and texts
def test_illegal_actions_name_the_rule() -> None:
    s = state(phase="play", hands="SSLLR/-/-/-")
    refused(s, "step straight", "reveal your sequence")
    refused(s, "draw straight", "chance outcome")
    c = state(phase="draw", hands="SS/-/-/-")
    refused(c, "done", "waiting for chance", "drawing a card")
    with pytest.raises(IllegalAction):
        s.apply(None)
    with pytest.raises(IllegalAction):
        s.apply(("fly", 3))
    for junk in ("step sideways", "add", "token z9", "first 9", "add  straight", "run now"):
        with pytest.raises(IllegalAction):
            s.action_from_text(junk)


def test_refusals_are_codes_with_params_in_the_games_notation() -> None:
    s = state(phase="tokens", player="-", turns=0, toplace=1, tok="d4")
    with pytest.raises(IllegalAction) as err:
        s.apply(s.action_from_text("token d4"))
    assert (err.value.refusal.code, dict(err.value.refusal.params)) == ("serpientes.token_taken", {"node": "d4"})
    run = state(phase="run", hands="-/-/-/-", seqs="LS/-/-/-")
    with pytest.raises(IllegalAction) as err:
        run.apply(run.action_from_text("step straight"))
    assert err.value.refusal.code == "serpientes.not_the_next_card"
    assert dict(err.value.refusal.params) == {"next": "left", "card": "straight"}
    assert err.value.reason == "the next card of your sequence is left, not straight"
    with pytest.raises(IllegalAction) as err:
        s.action_from_text("fly")
    assert err.value.refusal.code == "serpientes.unknown_action" and "step straight|left|right" in err.value.reason
    assert s.why_illegal(("token", 3)).params == {"node": "d1"}  # an index never shows


def test_apply_leaves_the_state_untouched() -> None:
    s = state(players=2, phase="run", seqs="SS/-")
    text = s.to_text()
    s.apply(s.legal_actions()[0])
    assert s.to_text() == text


@pytest.mark.parametrize("kw", [
    {},
    {"players": 2, "cards": "absolute", "hands": "NNESW/-", "seqs": "WW/-"},
    {"dealing": "physical", "players": 3, "seqs": "2/0/0", "phase": "run"},
    {"phase": "half-turn", "crashed": "1,0,0,0"},
])
def test_positions_round_trip(kw: dict[str, Any]) -> None:
    text = position(**kw)
    assert GAME.state_from_text(text).to_text() == text


@pytest.mark.parametrize("text", [
    position(discard="1,0,0", deck="48,12,12"),  # one card too many
    position(hands="LS/-/-/-"),  # hand not in the deck's order
    position(snakes="g1.g2/g2.g3/g13.g12/a7.b7"),  # two snakes touching
    position(snakes="g1.g3/m7.l7/g13.g12/a7.b7"),  # not neighbours
    position(tok="g4"),  # a token on the central column
    position(phase="half-turn"),  # no crash to turn after
    position(hands="SSLLRR/-/-/-"),  # six cards in hand
    position(player=4),
    position() + " ",
    position().replace("phase=play", "phase=dance"),
])
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(BadPosition):
        GAME.state_from_text(text)


def test_two_players_play_only_with_the_option() -> None:
    # the seed: "No he probado con 2 porque supongo que no funcionaría"; DESIGN plays 3 to 6
    with pytest.raises(ValueError, match="2 only with the option two_players"):
        GAME.new_state(None, 2)
    with pytest.raises(ValueError, match="two_players"):
        GAME.state_from_text(position(players=2).replace("two=1", "two=0"))
    s = GAME.new_state({"two_players": True}, 2)
    assert s.num_players == 2 and s.options["two_players"] is True and " two=1 " in s.to_text()
    assert GAME.state_from_text(s.to_text()).to_text() == s.to_text()
    for n in (3, 6):
        assert GAME.new_state(None, n).num_players == n


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="cards"):
        GAME.new_state({"cards": "hexagonal"})
    with pytest.raises(ValueError, match="dealing"):
        GAME.new_state({"dealing": "telepathic"})
    with pytest.raises(ValueError, match="tokens"):
        GAME.new_state({"tokens": 0})
    with pytest.raises(ValueError, match="max_rounds"):
        GAME.new_state({"max_rounds": True})
    with pytest.raises(ValueError, match="players"):
        GAME.new_state(None, 1)
    assert GAME.new_state().options == {"cards": "relative", "dealing": "arbitro", "tokens": 15,
                                        "max_rounds": 1000, "two_players": False}
    with pytest.raises(ValueError, match="max_rounds"):
        GAME.new_state({"max_rounds": 5001})
    assert GAME.new_state({"max_rounds": 5000}).options["max_rounds"] == 5000
    assert GAME.new_state().num_players == 4


def test_a_lone_tail_stick_played_backwards_only_reverses() -> None:
    # absolute cards, one stick c2-c3 heading south, empty supply: the stick is lifted first, so
    # north from c3 lies on the now free edge c3-c2.
    s = state(players=2, cards="absolute", phase="run", snakes="c2.c3/g13.g12", supply="0,4", seqs="N/-",
              tok="j9")
    t = play(s, "step north")
    assert field(t, "snakes") == "c3.c2/g13.g12" and field(t, "last") == "placed"
    assert t.physical_view() == s.physical_view()


def test_the_default_round_limit_lets_a_real_game_run_to_its_last_token() -> None:
    # Two players who steer for the tokens (seed 0): under the old default limit of 40 rounds the
    # game was stopped at round 40 with tokens on the board; it now ends as the seed says, when the
    # last token is eaten.
    final = play_study(0, 2, {"two_players": True}, "steer")
    assert final.is_terminal() and final.public_view()["last"] == "ate"
    assert final.tokens == frozenset() and sum(final.public_view()["snakes"][p]["eaten"] for p in range(2)) == 15
    assert 40 < final.round < GAME.default_options()["max_rounds"]


def test_round_forty_is_no_longer_the_end() -> None:
    # the last turn of round 40 under the default limit: the game goes on into round 41
    limit = GAME.default_options()["max_rounds"]
    s = state(players=2, rounds=limit, player=1, turns=80, hands="-/SSLLR")
    s = play(s, "done")
    assert not s.is_terminal() and s.round == 41 and s.tokens
