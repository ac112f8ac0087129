"""The event view: every finished game the display has seen on any board, and the standings per
player across them, as JSON for the results page and as CSV for the organiser (docs/display.md).

A game counts once, when its board's state first says ``over`` (a finished game's retained state
counts when the display starts). Players are who the board's names say (the display's
``names`` topic), else the board and the game's name for the seat. Kept in memory: a display
started later knows the games whose final state is still on the broker.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class Seat:
    player: str
    score: float
    won: bool


@dataclass(frozen=True)
class Game:
    board: str
    game: str
    title: str
    finished: float  # wall clock, Unix seconds (the state's time)
    seats: tuple[Seat, ...]


def player_of(board: str, state: dict[str, Any], names: list[str], seat: int) -> str:
    if seat < len(names) and names[seat].strip():
        return names[seat].strip()
    players = state.get("players") or []
    named = players[seat].get("name") if seat < len(players) else None
    return f"{board} · {named or f'player {seat + 1}'}"


class Results:
    def __init__(self) -> None:
        self.games: list[Game] = []

    def finished(self, board: str, state: dict[str, Any], names: list[str]) -> None:
        """``board``'s game is over (its first ``over`` state)."""
        scores = [float(s) for s in state.get("scores") or ()]
        winners = set(state.get("winners") or ())
        seats = tuple(Seat(player_of(board, state, names, n), score, n in winners) for n, score in enumerate(scores))
        self.games.append(Game(board, str(state.get("game") or ""), str(state.get("title") or state.get("game") or ""),
                               float(state.get("time") or time.time()), seats))

    def standings(self) -> list[dict[str, Any]]:
        """Per player: games, wins, points (the games' scores summed); most wins first, then points."""
        table: dict[str, dict[str, Any]] = {}
        for game in self.games:
            for seat in game.seats:
                row = table.setdefault(seat.player, {"player": seat.player, "games": 0, "wins": 0, "points": 0.0})
                row["games"] += 1
                row["wins"] += int(seat.won)
                row["points"] += seat.score
        ranked = sorted(table.values(), key=lambda r: (-r["wins"], -r["points"], r["player"]))
        return [{"rank": i + 1, **row} for i, row in enumerate(ranked)]

    def rows(self) -> list[dict[str, Any]]:
        """One row per player of each finished game, in the order they finished."""
        return [{"board": g.board, "game": g.game, "title": g.title,
                 "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(g.finished)),
                 "seat": n + 1, "player": s.player, "score": s.score, "won": s.won}
                for g in sorted(self.games, key=lambda g: g.finished) for n, s in enumerate(g.seats)]

    # -- the pages' requests ----------------------------------------------------------------------

    async def json(self, request: web.Request) -> web.Response:
        return web.json_response({"games": self.rows(), "standings": self.standings()},
                                 headers={"Cache-Control": "no-store"})

    async def results_csv(self, request: web.Request) -> web.Response:
        return _csv("results.csv", ["board", "game", "title", "finished", "seat", "player", "score", "won"],
                    self.rows())

    async def standings_csv(self, request: web.Request) -> web.Response:
        return _csv("standings.csv", ["rank", "player", "games", "wins", "points"], self.standings())


def _csv(name: str, fields: list[str], rows: list[dict[str, Any]]) -> web.Response:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\r\n")  # RFC 4180's line ends
    writer.writeheader()
    writer.writerows(rows)
    return web.Response(text=out.getvalue(), content_type="text/csv", charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})
