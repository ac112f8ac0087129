"""The envelope every game shares (base.py): declared options, player counts, players' names and
colours (one owner, the game: the same on LEDs, displays and in texts)."""

from __future__ import annotations

import random
import re

import pytest

from controller.games import Game, IllegalAction, State, all_games, get_game
from controller.games.base import COLOUR_HEX
from controller.games.jeocinco.state import JeocincoState
from controller.games.record import Match
from controller.ledview import LED_RGB, NO_COLOUR, PLAYER_COLOURS, game_colours, player_colour


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_player_has_a_name_and_a_display_colour(game: Game) -> None:
    for options, players in game.configurations():
        info = game.new_state(options, players).player_info()
        assert [p["index"] for p in info] == list(range(players))
        assert all(p["name"] and re.fullmatch(r"#[0-9a-f]{6}", p["colour"]) for p in info)
        assert len({p["name"] for p in info}) == players


def test_the_games_own_colours() -> None:
    assert [p["name"] for p in get_game("scriptorium").new_state({}, 3).player_info()] == ["red", "orange", "yellow"]
    assert get_game("scriptorium").new_state({}, 2).player_info()[1]["colour"] == COLOUR_HEX["orange"]
    assert [p["name"] for p in get_game("contigo").new_state({}, 2).player_info()] == ["red", "blue"]
    snakes = get_game("serpientes").new_state({}, 4)
    assert game_colours(snakes) == ("red", "blue", "green", "orange")


def test_jeocinco_colour_is_the_chosen_orientation() -> None:
    match = Match.new("jeocinco", {}, 2, seed=3)
    assert game_colours(match.state) == (None, None)
    while match.state.phase != "roll":
        match.resolve_chance() if match.state.current_player < 0 else match.apply(match.state.legal_actions()[0])
    assert isinstance(match.state, JeocincoState)
    chosen = match.state.position.colours
    assert game_colours(match.state) == tuple(("yellow", "green", "blue", "red")[c] for c in chosen)


def test_leds_show_the_games_colours() -> None:
    state = get_game("scriptorium").new_state({}, 2)
    assert player_colour(1, game_colours(state)) == LED_RGB["orange"]
    assert player_colour(1) == PLAYER_COLOURS[1]  # no state: the palette by seat, as before
    assert player_colour(0, (None, None)) == NO_COLOUR


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_options_are_declared_once(game: Game) -> None:
    schema = {o.name: o for o in game.option_schema}
    assert game.default_options() == {name: o.default for name, o in schema.items()}
    assert all(o.doc for o in schema.values()), "say what each option does"
    for o in schema.values():
        bad = "no such value" if isinstance(o.default, bool) else (o.maximum + 1 if isinstance(o.default, int) else 7)
        with pytest.raises(ValueError, match=o.name):
            game.options({o.name: bad})


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_player_counts_are_checked_once(game: Game) -> None:
    assert game.resolve(None, None)[1] == game.players(None)
    for n in (game.min_players - 1, game.max_players + 1, True, "2"):
        with pytest.raises(ValueError, match="players"):
            game.resolve(None, n)  # type: ignore[arg-type]  # wrong types on purpose


def test_the_default_action_from_text_reads_the_legal_actions_texts() -> None:
    for game in all_games():
        for options, players in game.configurations():
            rng, state = random.Random(20), game.new_state(options, players)
            for _ in range(12):  # a few decisions into each configuration, chance nodes included
                legal = state.legal_actions()
                for action in legal:
                    assert State.action_from_text(state, state.action_to_text(action)) == action
                with pytest.raises(IllegalAction) as refused:
                    State.action_from_text(state, "no such move")
                assert refused.value.refusal.code == "game.no_legal_text"
                assert refused.value.reason == "no legal move now reads no such move"
                state = state.apply(rng.choice(legal))
    over = Match.new("contigo", {}, 2, seed=3)
    while not over.state.is_terminal():
        over.resolve_chance() if over.state.current_player < 0 else over.apply(over.state.legal_actions()[0])
    with pytest.raises(IllegalAction, match="the game is over"):
        State.action_from_text(over.state, "a1-a2")
