"""The conformance suite: every registered game, every configuration it declares.

Seeded random playouts to the end, with every visited position and action round-tripping through
text, apply leaving its state untouched, illegal actions refused with ``IllegalAction``, replay
giving the same final position, and every game ending within its declared bound. Along the way, the
hidden-information hooks: a state resampled for a seat (or a board's seats), and the state a seat's
own views give, keep what those seats see and the public view, and the legal actions of the seat to
act; a game that hides nothing resamples to the state itself, one that hides something does deal
something anew.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.games import CHANCE, TERMINAL, Game, IllegalAction, State, all_games
from controller.games.base import ANNOUNCEMENTS, Action, Channel
from controller.games.record import Match, Record

SEEDS = (1, 2)
MAX_ACTIONS_CHECKED = 8  # per position: text round-trips and physical changes of a sample of the legal actions
SEEN_EVERY = 10  # the hidden-information hooks are checked at every tenth position of a playout



def _case_id(game: Game, options: dict[str, Any], players: int, seed: int) -> str:
    changed = [f"{k}={v}" for k, v in sorted(options.items()) if v != game.default_options()[k]]
    return f"{game.name}-{'-'.join(changed) or 'default'}-{players}p-s{seed}"


CASES = [
    pytest.param(game, options, players, seed, id=_case_id(game, options, players, seed))
    for game in all_games()
    for options, players in game.configurations()
    for seed in SEEDS
]


def _check_position(game: Game, state: State, channels: dict[str, Channel], rng: random.Random) -> None:
    text = state.to_text()
    again = game.state_from_text(text)
    assert again.to_text() == text, "position text does not round-trip"
    assert again.current_player == state.current_player
    legal = state.legal_actions()
    assert again.legal_actions() == legal, "a re-read position has other legal actions"
    assert len(set(legal)) == len(legal), "duplicate legal actions"

    view = state.physical_view()
    assert set(view) == set(channels), "physical view does not cover exactly the board's channels"
    for name, value in view.items():
        assert 0 <= value <= channels[name].maximum, f"channel {name} out of range: {value}"

    if state.is_terminal():
        assert legal == []
        assert len(state.returns()) == state.num_players
        return
    assert legal, "a non-terminal state without legal actions"
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
    else:
        assert 0 <= state.current_player < state.num_players
    for action in rng.sample(legal, min(len(legal), MAX_ACTIONS_CHECKED)):
        atext = state.action_to_text(action)
        assert state.action_from_text(atext) == action, f"action text {atext!r} does not round-trip"
        applied = state.apply(action)
        for item in state.announcements(action, applied):
            assert item["type"] in ANNOUNCEMENTS and isinstance(item["text"], str) and item["text"]
            assert item["player"] is None or 0 <= item["player"] < state.num_players
        after = applied.physical_view()
        assert state.physical_changes(action) == {c: v for c, v in after.items() if view[c] != v}, \
            f"physical_changes of {atext} differs from the views' difference"


def _check_seen(game: Game, state: State, rng: random.Random) -> bool:
    """The hidden-information hooks at ``state``, for each seat alone and for a board's seats (the
    first half): whether a resampled state differed from ``state`` (something was dealt anew)."""
    public = state.public_view()
    hides = game.hides_information(state.options)
    boards = [frozenset({p}) for p in range(state.num_players)] + [frozenset(range(state.num_players // 2))]
    dealt = False
    for seats in boards:
        seen = state.information_state(seats)
        resampled = state.resample(seats, random.Random(rng.random()))
        assert resampled.information_state(seats) == seen, f"resampling for {sorted(seats)} changed what they see"
        assert resampled.public_view() == public, f"resampling for {sorted(seats)} changed the public view"
        if state.current_player in seats:
            assert set(resampled.legal_actions()) == set(state.legal_actions()), \
                f"resampling for {sorted(seats)} changed the legal actions of the seat to act"
        if not hides:
            assert resampled.to_text() == state.to_text(), "a game that hides nothing resampled to another state"
        dealt = dealt or resampled.to_text() != state.to_text()
    for p in range(state.num_players):
        rebuilt = game.state_seen_by(public, state.private_view(p), p)
        assert rebuilt.information_state(p) == state.information_state(p), f"seat {p}'s views rebuilt another state"
        assert rebuilt.public_view() == public
        if state.current_player == p:
            assert set(rebuilt.legal_actions()) == set(state.legal_actions())
    return dealt


@pytest.mark.parametrize(("game", "options", "players", "seed"), CASES)
def test_random_playout(game: Game, options: dict[str, Any], players: int, seed: int) -> None:
    rng = random.Random(seed * 7919)
    match = Match.new(game.name, options, players, seed)
    bound = game.max_game_length(options, players)
    channels = {c.name: c for c in game.channels(match.state.options, players)}  # the board's, for the whole game
    seen_actions: list[Action] = []
    dealt = False
    while not match.state.is_terminal():
        state = match.state
        before = state.to_text()
        _check_position(game, state, channels, rng)
        if len(match.record.actions) % SEEN_EVERY == 0:
            dealt = _check_seen(game, state, rng) or dealt
        if state.current_player == CHANCE:
            match.resolve_chance()
        else:
            legal = state.legal_actions()
            # Something legal elsewhere but not here must be refused, and leave the state as it was.
            foreign = next((a for a in reversed(seen_actions) if a not in legal), None)
            if foreign is not None:
                with pytest.raises(IllegalAction):
                    state.apply(foreign)
            match.apply(rng.choice(legal))
        assert state.to_text() == before, "apply changed the state it was called on"
        seen_actions.extend(state.legal_actions()[:5])
        assert len(match.record.actions) <= bound, f"game longer than its declared bound {bound}"
    final = match.state
    _check_position(game, final, channels, rng)
    _check_seen(game, final, rng)
    assert dealt == game.hides_information(options), "a game that hides something never dealt anything anew"
    assert final.current_player == TERMINAL
    with pytest.raises(IllegalAction):
        final.apply(seen_actions[-1] if seen_actions else None)

    # Replay: the same seed and actions give the same final position, through text alone.
    record = Record.from_dict(match.record.to_dict())
    assert record.replay().to_text() == final.to_text()
    again = Match.new(game.name, options, players, seed)
    for text in record.actions:
        if again.state.current_player == CHANCE:
            again.resolve_chance()
            assert again.record.actions[-1] == text, "seeded chance did not replay"
        else:
            again.apply_text(text)
    assert again.state.to_text() == final.to_text()


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_garbage_action_text_is_refused(game: Game) -> None:
    state = game.new_state()
    for text in ("", "nonsense", "zz99", "\x00", "1" * 500):
        with pytest.raises(IllegalAction):
            state.action_from_text(text)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_bad_options_and_positions_are_refused(game: Game) -> None:
    from controller.games import BadPosition
    with pytest.raises(ValueError):
        game.new_state({"no_such_option": 1})
    with pytest.raises(ValueError):
        game.new_state(None, game.max_players + 1)
    for text in ("", "garbage", game.new_state().to_text() + " trailing junk"):
        with pytest.raises(BadPosition):
            game.state_from_text(text)
