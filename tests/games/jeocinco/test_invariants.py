"""Seeded random games keep the board's invariants and refuse random illegal actions with reasons."""

import random

import pytest

from controller.games import CHANCE, IllegalAction
from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B
from controller.games.record import sample_chance


def _check(s):
    seen = 0
    for p in range(s.n):
        assert not seen & s.own[p], "a slot held by two players"
        seen |= s.own[p]
    for k in s.bridges:
        a, b = B.BRIDGE_SLOTS[k]
        assert any(s.own[p] >> a & 1 and s.own[p] >> b & 1 for p in range(s.n)), "a bridge without supports"
        for m in s.bridges:
            assert not B.BRIDGE_CONFLICT[k] >> m & 1, "crossing bridges"
    for q, t in enumerate(s.towers):
        if t >= 0:
            owner = s.col.index(B.PENT_COLOUR[q])
            assert s.own[owner] & B.PENT_MASK[q] == B.PENT_MASK[q], "a tower without its five sides"
    assert all(0 <= x <= 2 for x in s.spare)


@pytest.mark.parametrize(("options", "players"), [({"fast": True, "max_rounds": 40}, 2),
                                                  ({"fast": True, "max_rounds": 25}, 4)])
def test_random_games_keep_invariants(options, players):
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
