"""Game records people can hand out and replay: the one module that writes and reads them (docs/records.md).

A record is one JSON object. Its tags, in the spirit of PGN's tag pairs, say where and when the
game was played and by whom (``event``, ``site``, ``date``, ``round``, ``board``, ``players``),
how it ended (``result``: in words and in points) and when each action was played (``times``);
beside them are the fields of the record that rebuilds every position
(:meth:`controller.games.record.Record.to_dict`: the game, its options, its actions and its fair
chance). ``format`` and ``version`` name the format; a record without them is an export from
before version 2 (``arbitro journal --export`` until December 2026), which still reads. Version 3
adds ``position``, the position text a game began from (PGN's SetUp and FEN tags): a record is
written with the lowest version that holds it, so one without a position is still version 2.

A record of a game still in play holds no secret (its commitment only); given to anyone (its
public part) it also stops before the first action that hides a card (``withheld`` says how many
are left out), so that it replays, and tells nothing a spectator may not see.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from controller.games.record import Match, Record

if TYPE_CHECKING:
    from controller.games.base import State

FORMAT = "arbitro-record"
VERSION = 3
SINCE = {"position": 3}  # the fields a version added: a record that has one is written with that version
UNKNOWN = "?"  # a tag nobody gave (PGN's word for it)
TAGS = ("event", "site", "date", "round", "board")
MOST_SEATS = 16  # a seat list longer is no game's (the game's own check names the count)


@dataclass(frozen=True)
class Player:
    """One seat of a record: its number (from 1), who sat there and how he played."""

    seat: int
    name: str
    kind: str  # the seat's text (controller.seats): table, bot:<level>, phone, remote


@dataclass
class GameRecord:
    """A record as people hand it out: the game (:class:`Record`) with its tags, players, result and times."""

    record: Record
    tags: dict[str, str] = field(default_factory=lambda: dict.fromkeys(TAGS, UNKNOWN))
    players: list[Player] = field(default_factory=list)
    result: dict[str, Any] | None = None  # words, points, winners (seats from 1), resigned, over
    times: list[float | None] = field(default_factory=list)  # seconds after ``started`` each action was played
    started: float | None = None  # Unix time
    withheld: int = 0  # actions of a game in play left out of its public part
    version: int = VERSION

    def to_dict(self) -> dict[str, Any]:
        game = self.record.to_dict()
        version = max([2, *(v for name, v in SINCE.items() if name in game)])
        out: dict[str, Any] = {"format": FORMAT, "version": version, **self.tags,
                               "started": _iso(self.started),
                               "players": [{"seat": p.seat, "name": p.name, "kind": p.kind} for p in self.players],
                               "result": self.result, "times": list(self.times)}
        if self.withheld:
            out["withheld"] = self.withheld
        return {**out, **game}  # a secret not to be told is not in it (:func:`build`)

    def final_state(self) -> State:
        """The position after every action, each checked again by the rules (``IllegalAction`` otherwise)."""
        return self.record.replay()


def build(match: Match, *, board: str, over: bool, resigned: int | None = None, abandoned: bool = False,
          names: list[str] | None = None, started: float | None = None, at: Sequence[float | None] | None = None,
          public: bool = False, tags: dict[str, str] | None = None) -> GameRecord:
    """The record of ``match``, played on ``board``: over (its secret revealed) or in play; ``at``
    when each action was played (Unix time); ``public``: a game in play given to anyone stops before
    its first hidden action. ``names``: the players' names, seat by seat, where given."""
    record = replace(match.record, over=over)
    if not over and record.keys:  # a game in play keeps its secret: with it every die and hand to come is known
        record.keys = [*record.keys[:-1], replace(record.keys[-1], secret=None)]
    state = match.state
    cut = len(record.actions)
    if public and not over:
        cut = next((i for i, (shown, text) in enumerate(zip(match.public_log, record.actions, strict=True))
                    if shown != text), cut)
        record = _cut(record, cut)
        state = match.history[cut]
    kinds = record.seats or ["table"] * record.num_players
    names = list(names or [])
    players = [Player(p + 1, names[p] if p < len(names) and names[p] else _named(state, p), kinds[p])
               for p in range(record.num_players)]
    times = [None if a is None or started is None else round(a - started, 1) for a in (at or [])][:cut]
    times += [None] * (cut - len(times))
    day = time.strftime("%Y-%m-%d", time.gmtime(started)) if started is not None else UNKNOWN
    return GameRecord(record, {**dict.fromkeys(TAGS, UNKNOWN), "date": day, "board": board, **(tags or {})}, players,
                      result_of(state, players, over=over, resigned=resigned, abandoned=abandoned), times, started,
                      len(match.record.actions) - cut)


def result_of(state: State, players: list[Player], *, over: bool, resigned: int | None = None,
              abandoned: bool = False) -> dict[str, Any]:
    """How the game stands, in words and points (``winners``: seats from 1)."""
    points = [round(float(s), 3) for s in state.scores()]
    if not over:
        return {"over": False, "words": "in play", "points": points, "winners": [], "resigned": None}
    winners = [p for p in range(state.num_players) if p != resigned] if resigned is not None else state.winners()
    name = [p.name for p in players]
    if abandoned and not state.is_terminal():
        words = "abandoned"
    elif not winners:
        words = "nobody won"
    elif len(winners) == len(players) and resigned is None:
        words = "a draw"
    else:
        words = " and ".join(name[w] for w in winners) + " won"
    if resigned is not None:
        words = f"{name[resigned]} resigned; {words}"
    return {"over": True, "words": words, "points": points, "winners": [w + 1 for w in winners],
            "resigned": None if resigned is None else resigned + 1}


Replayed = Match
"""A record replayed by the rules: every position and what was said of each action."""


def replay(found: GameRecord) -> Replayed:
    """The game ``found`` records, replayed: every action checked by the rules (IllegalAction, a
    ValueError, says why one is not)."""
    return Match(found.record)


def read(data: Any) -> GameRecord:
    """A record of either version: ``KeyError`` names a field it lacks, ``ValueError`` says in one
    line what is wrong (the version, a tag, the players, the times, or the game itself)."""
    if not isinstance(data, dict):
        raise ValueError("a record is a JSON object")
    if "format" not in data:  # an export from before version 2: the game alone
        record = Record.from_dict(data)
        kinds = record.seats or ["table"] * min(max(record.num_players, 0), MOST_SEATS)
        return GameRecord(record, players=[Player(p + 1, "", kind) for p, kind in enumerate(kinds)],
                          times=[None] * len(record.actions), version=1)
    if data["format"] != FORMAT:
        raise ValueError(f"format: {data['format']!r} is not {FORMAT!r}")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 2 <= version <= VERSION:
        raise ValueError(f"version: {version!r} is not one this arbitro reads (2 to {VERSION})")
    for name, since in SINCE.items():
        if name in data and version < since:
            raise ValueError(f"{name}: a record of version {version} has none (it came with version {since})")
    record = Record.from_dict(data)
    tags = {}
    for tag in TAGS:
        value = data.get(tag, UNKNOWN)
        if not isinstance(value, str) or len(value) > 200:
            raise ValueError(f"{tag}: must be a text of at most 200 characters")
        tags[tag] = value
    players = _players(data.get("players"), record.num_players)
    times = data.get("times") or []
    if not isinstance(times, list) or len(times) > len(record.actions) or not all(
            t is None or (isinstance(t, int | float) and not isinstance(t, bool) and t >= 0) for t in times):
        raise ValueError("times: must be a list of seconds (or null), at most one for each action")
    times = times + [None] * (len(record.actions) - len(times))  # those left out at the end: not known
    result = data.get("result")
    if result is not None and not (isinstance(result, dict) and isinstance(result.get("words"), str)):
        raise ValueError("result: must be an object with its words")
    withheld = data.get("withheld", 0)
    if not isinstance(withheld, int) or isinstance(withheld, bool) or withheld < 0:
        raise ValueError("withheld: must be a whole number of actions")
    return GameRecord(record, tags, players, result, [None if t is None else float(t) for t in times],
                      _unix(data.get("started")), withheld, version)


def _players(found: Any, num_players: int) -> list[Player]:
    shape = f"players: must be a list of {num_players} objects with seat (from 1), name and kind"
    if not isinstance(found, list) or len(found) != num_players:
        raise ValueError(shape)
    players = []
    for p, player in enumerate(found):
        if not (isinstance(player, dict) and player.get("seat") == p + 1 and isinstance(player.get("name"), str)
                and isinstance(player.get("kind"), str) and len(player["name"]) <= 200):
            raise ValueError(shape)
        players.append(Player(p + 1, player["name"], player["kind"]))
    return players


def _cut(record: Record, n: int) -> Record:
    """``record``'s first ``n`` actions (its marks with them)."""
    return replace(record, actions=record.actions[:n], drawn={i: k for i, k in record.drawn.items() if i < n},
                   table=None if record.table is None else {i for i in record.table if i < n},
                   takebacks=[t for t in record.takebacks if t.get("at", 0) <= n])


def _named(state: State, p: int) -> str:
    """A seat without a name given: its colour, else "seat N"."""
    name = state.player_name(p)
    return f"seat {p + 1}" if name == f"player {p}" else name


def _unix(iso: Any) -> float | None:
    """The ``started`` tag as Unix time (None: not known)."""
    if iso in (None, UNKNOWN):
        return None
    try:
        return float(calendar.timegm(time.strptime(str(iso), "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        raise ValueError(f"started: {iso!r} is not a UTC time like 2026-12-04T18:30:00Z") from None


def _iso(when: float | None) -> str:
    return UNKNOWN if when is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
