"""Two boards in different places for tests (``bench.remote`` builds them: simulated tables, their
services, two Mosquitto brokers bridged over TLS as ``docs/remote.md`` sets it up)."""

from __future__ import annotations

from typing import Any

from bench.remote import Board, brokers, wait


def game_of(board: Board) -> dict[str, Any]:
    """What a test compares: the game's actions, the chance outcomes drawn, the seats, the remote view."""
    game: dict[str, Any] = board.read(lambda s: {
        "actions": list(s.match.record.actions), "drawn": sorted(s.match.record.drawn), "remote": s.remote_view(),
        "over": s.over, "record": None if s.remote is None else s.remote.record_json()})
    return game


__all__ = ["Board", "brokers", "game_of", "wait"]
