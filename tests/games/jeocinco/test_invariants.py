"""Seeded random games keep the board's invariants and refuse random illegal actions with reasons."""

import random
from typing import Any

import pytest

from controller.games import CHANCE, IllegalAction
from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B
from controller.games.jeocinco.state import JeocincoState
from controller.games.record import sample_chance


def _check(s: JeocincoState) -> None:
    seen = 0
    for p in range(s.position.players):
        assert not seen & s.position.pieces[p], "a slot held by two players"
        seen |= s.position.pieces[p]
    for k in s.position.bridges:
        a, b = B.BRIDGE_SLOTS[k]
        assert any(mine >> a & 1 and mine >> b & 1 for mine in s.position.pieces), "a bridge without supports"
        for m in s.position.bridges:
            assert not B.BRIDGE_CONFLICT[k] >> m & 1, "crossing bridges"
    for q, t in enumerate(s.position.towers):
        if t >= 0:
            owner = s.position.colours.index(B.PENT_COLOUR[q])
            assert s.position.pieces[owner] & B.PENT_MASK[q] == B.PENT_MASK[q], "a tower without its five sides"
    assert all(0 <= x <= 2 for x in s.position.bridges_in_hand)


@pytest.mark.parametrize(("options", "players"), [({"fast": True, "max_rounds": 40}, 2),
                                                  ({"fast": True, "max_rounds": 25}, 4)])
def test_random_games_keep_invariants(options: dict[str, Any], players: int) -> None:
    rng = random.Random(11)
    s = GAME.new_state(options, players)
    while not s.is_terminal():
        _check(s)
        if s.current_player == CHANCE:
            a = sample_chance(s, rng)
        else:
            legal = set(s.legal_actions())
            for _ in range(3):
                probe = rng.choice([("place", rng.randrange(283)), ("dispute", rng.randrange(283)),
                                    ("bridge", rng.randrange(B.NUM_BRIDGES)), ("done",),
                                    ("tower", rng.randrange(100), rng.randrange(283))])
                if probe not in legal:
                    with pytest.raises(IllegalAction) as info:
                        s.apply(probe)
                    assert info.value.reason and "not a legal" not in info.value.reason
            a = rng.choice(s.legal_actions())
        s = s.apply(a)
    _check(s)
    assert s.is_terminal()
