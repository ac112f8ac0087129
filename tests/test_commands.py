"""The command table and the shipped request schema say the same, both ways."""

from __future__ import annotations

from typing import Any

import pytest

from controller import commands, schemas


def test_the_request_schema_is_the_command_table() -> None:
    shipped = schemas.load("request")["$defs"]
    assert set(shipped) == set(commands.COMMANDS)
    for name in commands.COMMANDS:
        assert shipped[name] == commands.schema(name), name


@pytest.mark.parametrize("name,args,error", [
    ("nope", {}, "unknown command 'nope'"),
    ("roll", {"x": 1}, "roll: unknown field(s) 'x'"),
    ("choose", {}, "choose: missing 'action'"),
    ("choose", {"action": "x" * 201}, "choose: action text too long"),
    ("resign", {"player": True}, "resign: 'player' has the wrong type"),
    ("resign", {"player": -1}, "resign: player out of range"),
    ("new_game", {"seed": 2**63}, "new_game: seed out of range"),
    ("configure", {"chance": "dice"}, "configure: chance must be 'button' or 'auto'"),
])
def test_a_request_that_does_not_fit_the_table_is_refused_with_its_reason(name: str, args: dict[str, Any],
                                                                          error: str) -> None:
    with pytest.raises(commands.CommandError) as refused:
        commands.check(name, args)
    assert str(refused.value).startswith(error)


def test_every_request_the_schema_accepts_the_table_accepts_too() -> None:
    for name in commands.COMMANDS:
        validator = schemas.validator("request", name)
        for args in ({}, {"game": "contigo", "seed": 3, "num_players": 2, "options": {}}, {"value": 4},
                     {"action": "a1"}, {"player": 1}, {"allow_takeback": False, "chance": "auto"}):
            if validator.is_valid(args):
                assert commands.check(name, dict(args)) == args
            else:
                with pytest.raises(commands.CommandError):
                    commands.check(name, dict(args))
