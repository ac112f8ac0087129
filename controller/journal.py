"""The journal: every game's seed, settings and actions in SQLite, written as they happen.

After a power cut the service reopens the journal, rebuilds the unfinished game from its record
(every action re-checked by the rules engine, the dice drawn again from the same seed) and carries
on; the LEDs then show what differs between the game and the board. Finished games stay in the
journal and export as records that ``arbitro replay`` re-referees.

One connection, used only by the service's loop (``check_same_thread=False`` because the service is
built on one thread and runs on another). WAL with ``synchronous=FULL``: an action the referee took
is on disk before the LEDs move on.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from controller.games.record import Record

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
"""


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        self._stored: dict[int, list[str]] = {}

    def close(self) -> None:
        self.db.close()

    def start(self, board: str, record: Record) -> int:
        """Record a new game; returns its id."""
        cur = self.db.execute(
            "INSERT INTO games (board, game, options, num_players, seed) VALUES (?, ?, ?, ?, ?)",
            (board, record.game, json.dumps(record.options, sort_keys=True), record.num_players, record.seed))
        game_id = cur.lastrowid
        assert game_id is not None
        self._stored[game_id] = []
        self.sync(game_id, record.actions)
        return game_id

    def sync(self, game_id: int, actions: list[str]) -> None:
        """Make the stored actions equal ``actions``: what an undo or a takeback removed goes, what
        was played since is added, in one transaction."""
        stored = self._stored.setdefault(game_id, self._actions(game_id))
        same = 0
        while same < min(len(stored), len(actions)) and stored[same] == actions[same]:
            same += 1
        if same == len(stored) == len(actions):
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM actions WHERE game = ? AND n >= ?", (game_id, same))
            self.db.executemany("INSERT INTO actions (game, n, text) VALUES (?, ?, ?)",
                                [(game_id, n, actions[n]) for n in range(same, len(actions))])
        self._stored[game_id] = list(actions)

    def finish(self, game_id: int, result: dict[str, Any]) -> None:
        self.db.execute("UPDATE games SET finished = 1, result = ? WHERE id = ?", (json.dumps(result), game_id))

    def reopen(self, game_id: int) -> None:
        """A finished game taken back (an undo after the end) is in play again."""
        self.db.execute("UPDATE games SET finished = 0, result = NULL WHERE id = ?", (game_id,))

    def unfinished(self, board: str) -> tuple[int, Record] | None:
        """The board's latest game that did not finish (a power cut, a crash), if any."""
        row = self.db.execute("SELECT id FROM games WHERE board = ? AND finished = 0 ORDER BY id DESC LIMIT 1",
                              (board,)).fetchone()
        return (row[0], self.record(row[0])) if row else None

    def record(self, game_id: int) -> Record:
        row = self.db.execute("SELECT game, options, num_players, seed FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal {self.path}")
        game, options, players, seed = row
        return Record(game, json.loads(options), players, seed, self._actions(game_id))

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT g.id, g.board, g.game, g.finished, g.result, COUNT(a.n) FROM games g "
                               "LEFT JOIN actions a ON a.game = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        return [{"id": i, "board": b, "game": g, "finished": bool(f), "result": json.loads(r) if r else None,
                 "actions": n} for i, b, g, f, r, n in rows]

    def _actions(self, game_id: int) -> list[str]:
        return [t for (t,) in self.db.execute("SELECT text FROM actions WHERE game = ? ORDER BY n", (game_id,))]
