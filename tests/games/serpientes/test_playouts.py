"""Properties along seeded random games, and the rules document's example positions."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from controller.games import CHANCE
from controller.games.record import sample_chance
from controller.games.serpientes import GAME

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "serpientes.md"
PHYSICAL = {"token", "step"}


def _secret_free(view: dict[str, Any]) -> bool:
    text = json.dumps(view)
    return '"hand"' not in text and '"sequence"' not in text and '"next_steps"' not in text


@pytest.mark.parametrize(("options", "players", "seed"), [
    ({}, 4, 1), ({"cards": "absolute"}, 3, 2), ({"dealing": "physical"}, 5, 3), ({"two_players": True}, 2, 4),
])
def test_random_games_keep_views_and_secrets_apart(options: dict[str, Any], players: int, seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.new_state(options, players)
    while not s.is_terminal():
        a = sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions())
        mover = s.turn_player
        t = s.apply(a)
        before, after = s.physical_view(), t.physical_view()
        assert isinstance(a, tuple)
        kind = a[0]
        if kind not in PHYSICAL:
            assert before == after, f"{s.action_to_text(a)} is not physical but changed the board"
        elif kind == "token" or not t.public_view()["last"].startswith("crash"):
            # the one exception: a lone stick moved from the tail back onto its own edge (absolute
            # cards), which only reverses it
            flipped = t.snake(mover) == tuple(reversed(s.snake(mover)))
            assert before != after or flipped, f"{s.action_to_text(a)} left no trace on the board"
        assert _secret_free(t.public_view())
        assert t.public_text().count("#") == (0 if options.get("dealing") == "physical" else
                                              2 * players + 2)
        # what one player does in secret never shows in another's private view
        if kind in ("add", "discard", "keep") and mover >= 0:
            for q in range(players):
                if q != mover:
                    assert s.private_view(q) == t.private_view(q)
        s = t
    assert s.scores() == [float(x["eaten"] + x["sticks"] + x["supply"]) for x in s.public_view()["snakes"]]


def test_every_example_position_in_the_rules_document_is_valid() -> None:
    texts = re.findall(r"`(serpientes players=[^`\n]*)`", DOC.read_text())
    assert len(texts) >= 12
    for text in texts:
        assert GAME.state_from_text(text).to_text() == text
