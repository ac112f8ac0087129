"""What the shared engine shape promises every game (issue 20): the same modules in every package,
none over 650 lines; a state works out its legal actions
once (``apply`` looks its action up in that list, never in a second one), and a position text is
read one way, every failure a :class:`BadPosition`."""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from controller.games import CHANCE, BadPosition, game_names, get_game
from controller.games.base import Message, Phrase, quick_replace, read_checked
from controller.games.record import sample_chance

LEGAL_LISTS = {"contigo": "legal_actions", "jeocinco": "_legal_actions", "scriptorium": "legal_actions",
               "serpientes": "legal_actions"}
"""Each game's function in its ``rules`` that works a legal list out."""


SHAPE = {"__init__", "board", "actions", "position", "rules", "views", "state", "picture", "words"}
"""The modules of a game package (docs/adding-a-game.md): copy the package, fill them in."""


def test_every_game_package_has_the_same_modules_none_over_650_lines() -> None:
    games = Path(__file__).parents[2] / "controller" / "games"
    for name in game_names():
        modules = {p.stem: p for p in (games / name).glob("*.py")}
        assert set(modules) == SHAPE, f"{name}: {sorted(set(modules) ^ SHAPE)} against the shape"
        for stem, path in modules.items():
            lines = len(path.read_text().splitlines())
            assert lines <= 650, f"{name}/{stem}.py has {lines} lines"


@pytest.mark.parametrize("name", game_names())
def test_a_state_lists_its_legal_actions_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = importlib.import_module(f"controller.games.{name}.rules")
    real = getattr(rules, LEGAL_LISTS[name])
    asked: list[object] = []  # every position (or its facts) a list was worked out for, kept alive

    def counted(position: object) -> Any:
        asked.append(position)
        return real(position)

    monkeypatch.setattr(rules, LEGAL_LISTS[name], counted)
    game = get_game(name)
    for options, players in game.configurations()[:2]:
        rng = random.Random(7)
        state = game.new_state(options, players)
        for _ in range(300):
            if state.is_terminal():
                break
            chance = state.current_player == CHANCE  # else asked as a playout or the referee asks
            state = state.apply(sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))
    twice = len(asked) - len({id(position) for position in asked})
    assert asked
    assert twice == 0, f"{name}: {twice} of {len(asked)} legal lists were worked out a second time"


def test_a_text_that_stops_the_parser_is_a_bad_position() -> None:
    game = get_game("contigo")
    rng = random.Random(2)
    state = game.new_state({"game": "capture"}, 2)
    while state.phase != "drop":
        state = state.apply(sample_chance(state, rng) if state.current_player == CHANCE
                            else rng.choice(state.legal_actions()))
    text = re.sub(r"hand=([^:]+):\d+:", r"hand=\1:x:", state.to_text())
    with pytest.raises(BadPosition, match="not a Contigo position: 'x' is not a whole number"):
        game.state_from_text(text)


TOO_LONG = Phrase("toy.too_long", "{count} words is too many")


def _words(text: str) -> list[str]:
    if text == "?":
        raise ValueError("a question is not a position")
    return text.split()


def _problems(words: list[str]) -> list[Message]:
    return [TOO_LONG(count=len(words)), TOO_LONG(count=0)] if len(words) > 2 else []


def test_read_checked_names_the_first_problem_or_what_stopped_the_parser() -> None:
    assert read_checked("a b", "Toy", _words, _problems) == ["a", "b"]
    with pytest.raises(BadPosition, match=r"^3 words is too many$"):
        read_checked("a b c", "Toy", _words, _problems)
    with pytest.raises(BadPosition, match=r"^not a Toy position: a question is not a position$"):
        read_checked("?", "Toy", _words, _problems)


def test_quick_replace_copies_as_collections_does() -> None:
    @quick_replace
    class Pair(NamedTuple):
        left: int
        right: tuple[int, ...]

    class Stock(NamedTuple):
        left: int
        right: tuple[int, ...]

    pair, stock = Pair(1, (2,)), Stock(1, (2,))
    assert pair._replace(right=(3,)) == (1, (3,)) == stock._replace(right=(3,))  # equal as tuples
    assert type(pair._replace(left=5)) is Pair
    assert pair._replace() == pair
    with pytest.raises(TypeError):
        pair._replace(middle=0)  # type: ignore[call-arg]
    for name in game_names():  # every engine's position copies this way
        position = getattr(get_game(name).new_state(), "position")  # noqa: B009 (not in the State API)
        assert type(position)._replace.__code__ is not Stock._replace.__code__, name
