"""Game records on the display (docs/records.md): downloaded from a board, replayed in the browser.

A board's record comes from its service (the ``record`` request, answered under the board's
``response/``): a finished game's whole record for anyone; a game in play without its secret and,
unless the page carries the operator's key, only its public part (no hidden card). The display
adds the players' names it was given and its event and site, and keeps the last finished game's
record of each board it gave: that one is still given while the board's referee is away.

The replay viewer (``/replay``) sends a record, and the position it wants, to ``/api/replay``:
the position is drawn here, as the board pages' are (:func:`~controller.display.render.board_svg`
from the position's public view), with every action in words (``Game.action_words``). A record
is replayed once (every action checked by the rules), then its positions are looked up.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from typing import Any

from aiohttp import web

from controller import records
from controller.display.broker import BrokerLink, settle
from controller.display.config import DisplayConfig
from controller.display.model import BoardModel
from controller.display.render import board_svg, player_colours
from controller.games import CHANCE, get_game
from controller.i18n import LANGUAGES, People, action_words, said_json

ANSWER_S = 5.0  # how long a download waits for the board's service
REPLAYS_KEPT = 8  # records replayed and kept, by their digest (a viewer steps through one at a time)
MOST_BYTES = 1 << 20  # a record sent to be replayed (a long game is tens of KB; aiohttp takes no more)


class Replays:
    """The download of a board's record and the replay viewer's positions."""

    def __init__(self, config: DisplayConfig, boards: dict[str, BoardModel], broker: BrokerLink) -> None:
        self.config = config
        self.boards = boards
        self.broker = broker
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # a record request's id -> its answer
        self._replayed: dict[str, tuple[records.GameRecord, records.Replayed]] = {}
        self._said: dict[tuple[int, People], list[dict[str, Any]]] = {}  # a kept replay's moves, said to people
        self.finished: dict[str, str] = {}  # per board, the last finished game's record downloaded (JSON)

    # -- the download ---------------------------------------------------------------------------

    async def download(self, request: web.Request) -> web.Response:
        """``/api/board/<board>/record``: the board's record as a file (``?key=``: the operator's,
        with a game in play's hidden cards)."""
        board = request.match_info["board"]
        private = secrets.compare_digest(request.query.get("key", ""), self.config.pair_key)
        result = await self._ask(board, private)
        if result is None:  # the referee is away: the last finished game downloaded from it, if any
            if board not in self.finished:
                raise web.HTTPGatewayTimeout(text=f"board {board}'s referee did not answer")
            result = {"ok": True, "result": json.loads(self.finished[board])}
        if not result.get("ok") or not isinstance(result.get("result"), dict):
            raise web.HTTPBadGateway(text=str(result.get("error", "the referee gave no record")))
        if (result["result"].get("result") or {}).get("over"):  # whole and public: kept for when the board is away
            self.finished[board] = json.dumps(result["result"])
        record = self._named(board, result["result"])
        name = f"{board}-{str(record.get('started', '')).replace(':', '').replace('?', 'game')}.arbitro.json"
        return web.Response(text=json.dumps(record, indent=1, ensure_ascii=False), content_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}"',
                                     "Cache-Control": "no-store"})

    async def _ask(self, board: str, private: bool) -> dict[str, Any] | None:
        """The board's service's answer to a ``record`` request; None when it does not answer (or is
        known to be offline: not waited for)."""
        model = self.boards.get(board)
        if not self.broker.ready or (model is not None and model.status == "offline"):
            return None
        request_id = f"display-record-{secrets.token_hex(8)}"
        answer = self.answers[request_id] = asyncio.get_running_loop().create_future()
        self.broker.publish(f"{self.config.base_topic}/{board}/request/record",
                            json.dumps({"id": request_id, "private": private}))
        try:
            return await asyncio.wait_for(answer, ANSWER_S)
        except TimeoutError:
            return None
        finally:
            self.answers.pop(request_id, None)

    def _named(self, board: str, record: dict[str, Any]) -> dict[str, Any]:
        """The record with the names the display was given and its event and site, where none is set."""
        model = self.boards.get(board)
        names = model.names if model is not None else []
        for i, player in enumerate(record.get("players") or []):
            if i < len(names) and names[i] and isinstance(player, dict):
                player["name"] = names[i]
        if isinstance(record.get("result"), dict) and record["result"].get("over"):
            found = records.read(record)  # the result's words with the names
            record["result"] = records.result_of(found.final_state(), found.players, over=True,
                                                 resigned=_seat(record["result"].get("resigned")),
                                                 abandoned=record["result"].get("words") == "abandoned")
        for tag in ("event", "site"):
            if record.get(tag, records.UNKNOWN) == records.UNKNOWN and getattr(self.config, tag):
                record[tag] = getattr(self.config, tag)
        return record

    def answered(self, payload: bytes) -> None:
        """The service answered a ``record`` request: the download that asked gets it."""
        settle(self.answers, payload)

    # -- the viewer -----------------------------------------------------------------------------

    async def position(self, request: web.Request) -> web.Response:
        """``POST /api/replay`` with ``{"record", "move", "language"}``: position ``move`` of the
        record drawn, with the record's tags, players, result and every action in words."""
        if request.content_length is not None and request.content_length > MOST_BYTES:
            raise web.HTTPRequestEntityTooLarge(max_size=MOST_BYTES, actual_size=request.content_length)
        try:
            body = json.loads(await request.text())
            data, move = body["record"], body.get("move", 0)
        except (ValueError, KeyError, TypeError) as exc:
            raise web.HTTPBadRequest(text='expected {"record": RECORD, "move": N}') from exc
        language = body.get("language") if body.get("language") in LANGUAGES else "en"
        found, match = self._replay(data)
        last = len(match.record.actions)
        n = move if isinstance(move, int) and not isinstance(move, bool) and 0 <= move <= last else last
        state = match.history[n]
        players = state.player_info()
        shown = {"game": found.record.game, "board_view": state.public_view(), "players": players,
                 "language": language}
        people = People.of(players, language)  # as this position names them (a game may give colours later)
        key = (id(match), people)
        moves = self._said.get(key)
        if moves is None:  # every action in words: once per record and naming, not per step of the viewer
            moves = self._said[key] = _moves(found, match, people)
        return web.json_response({
            "game": found.record.game, "title": get_game(found.record.game).title, "move": n, "last": last,
            "svg": board_svg(shown), "colours": player_colours(shown), "players": players,
            "seats": [{"seat": p.seat, "name": p.name, "kind": p.kind} for p in found.players],
            "tags": found.tags, "result": found.result, "withheld": found.withheld, "moves": moves,
            "over": state.is_terminal(), "scores": list(state.scores())})

    def _replay(self, data: Any) -> tuple[records.GameRecord, records.Replayed]:
        """The record ``data`` replayed (each action checked by the rules), once per record."""
        digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        kept = self._replayed.get(digest)
        if kept is not None:
            return kept
        try:
            found = records.read(data)
            get_game(found.record.game)
            match = records.replay(found)
        except KeyError as exc:
            raise web.HTTPUnprocessableEntity(text=f"not a game record: {exc.args[0]!r} is missing or unknown") from exc
        except (ValueError, TypeError) as exc:  # IllegalAction is a ValueError: the rules say why
            raise web.HTTPUnprocessableEntity(text=f"not a record that replays: {exc}") from exc
        if len(self._replayed) >= REPLAYS_KEPT:
            _, gone = self._replayed.pop(next(iter(self._replayed)))
            self._said = {key: said for key, said in self._said.items() if key[0] != id(gone)}
        self._replayed[digest] = (found, match)
        return found, match


def _moves(found: records.GameRecord, match: records.Replayed, people: People) -> list[dict[str, Any]]:
    """Every action of a replayed record, said to ``people`` in their language, and when it was played."""
    moves = []
    for i, text in enumerate(match.public_log):
        mover = match.history[i].current_player
        words = action_words(found.record.game, text, None if mover == CHANCE else mover)
        moves.append({"n": i + 1, "text": text, "said": said_json(words, people.language, people),
                      "time": found.times[i] if i < len(found.times) else None})
    return moves


def _seat(seat: Any) -> int | None:
    """A seat counted from 1 (a record's), as an index from 0."""
    return seat - 1 if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 1 else None
