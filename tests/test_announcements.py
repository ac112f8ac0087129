"""What games announce beyond the move itself (MQTT events): each kind shows up in real play, and
only when it really happened."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from controller.games import CHANCE, State, game_names
from controller.games.base import Announcement
from controller.games.record import Match


def announced(game: str, options: dict[str, Any] | None, seeds: range,
              players: int | None = None) -> Iterator[tuple[State, State, Announcement]]:
    """(state before, action, state after, announcement) for every announcement of seeded random games."""
    for seed in seeds:
        match = Match.new(game, options, players, seed)
        rng = random.Random(seed)
        while not match.state.is_terminal():
            state = match.state
            if state.current_player == CHANCE:
                match.resolve_chance()
            else:
                match.apply(rng.choice(state.legal_actions()))
            for item in match.announced[-1]:
                yield match.history[-2], match.history[-1], item


ANNOUNCED: dict[str, tuple[dict[str, Any], set[str]]] = {
    "contigo": ({"game": "capture"}, {"capture"}),
    "jeocinco": ({"max_rounds": 40}, {"tower", "dispute"}),
    "scriptorium": ({"round_limit": 60}, {"sync", "pin"}),
    "serpientes": ({"max_rounds": 15}, {"crash", "ate"}),
}
"""Each registered game's options for five seeded games, and the kinds of announcement they make."""


@pytest.mark.parametrize("game", game_names())
def test_each_kind_is_announced_in_play_and_only_when_it_happened(game: str) -> None:
    options, kinds = ANNOUNCED[game]
    seen = set()
    for before, after, item in announced(game, options, range(1, 6)):
        seen.add(item["type"])
        view0, view1 = before.public_view(), after.public_view()
        if item["type"] == "capture":
            assert sum(view1["captured"].values()) > sum(view0["captured"].values())
        elif item["type"] == "ate":
            assert len(view1["tokens"]) == len(view0["tokens"]) - 1
        elif item["type"] == "sync":
            assert view1["active_part"] != view0["active_part"]
        elif item["type"] == "pin":
            assert len(view1["pins"]) == len(view0["pins"]) + 1
        elif item["type"] == "tower":
            assert len(view1["towers"]) == len(view0["towers"]) + 1
        elif item["type"] == "bridge_lost":
            assert len(view1["bridges"]) < len(view0["bridges"])
    assert kinds <= seen


def test_the_rings_aligning_is_announced_when_they_align() -> None:
    alignments = [after for _, after, item in announced("scriptorium", None, range(1, 4)) if item["type"] == "aligned"]
    assert alignments and all(a.public_view()["aligned"] for a in alignments)
