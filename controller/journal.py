"""The journal: every game's chance secret, settings and actions in SQLite, written as they happen.

After a power cut the service reopens the journal, rebuilds the unfinished game from its record
(every action re-checked by the rules engine, the dice drawn again from the same secret) and carries
on; the LEDs then show what differs between the game and the board. Finished games stay in the
journal and export as records that ``arbitro replay`` re-referees.

It also keeps the answers to the last requests that carried an id, written in the same
transaction as the actions they made: a request repeated after a crash (its answer never came)
gets that answer again and does not run twice.

One connection, used only by the service's loop (``check_same_thread=False`` because the service is
built on one thread and runs on another). WAL with ``synchronous=FULL``: what the service answers
or publishes is on disk first. A file that is not a readable journal is moved aside (renamed
``*.corrupt-N``) and a fresh journal started; :attr:`Journal.set_aside` says so. A journal written
before fair dice (chance from ``games.seed``) gets the columns it lacks (:data:`ADDED_COLUMNS`) and
its games replay as they were; an unfinished one goes on with a fresh secret.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.games.record import ChanceKey, Record

if TYPE_CHECKING:
    from controller.session import Session

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    seed INTEGER NOT NULL,  -- before fair dice, random.Random's seed; since, -1
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    secrets TEXT  -- the chance secrets (hex), oldest first, as a JSON list; NULL before fair dice
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    key INTEGER,  -- the secret (its index) that drew this chance outcome; NULL: anything else
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS answers (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    key TEXT NOT NULL,
    answer TEXT NOT NULL
);
"""
COLUMNS = {
    "games": ("id", "board", "game", "options", "num_players", "seed", "finished", "result", "secrets"),
    "actions": ("game", "n", "text", "key"),
    "answers": ("n", "board", "key", "answer"),
}
ADDED_COLUMNS = {"games": "secrets TEXT", "actions": "key INTEGER"}
"""The last column of these tables, which a journal from before fair dice lacks: added on opening."""
KEEP_ANSWERS = 1000  # requests remembered per board: far more than any client keeps in flight

log = logging.getLogger("arbitro.journal")


def request_key(command: str, request_id: object, args: dict[str, Any]) -> str:
    """What makes two requests the same request: command, id and arguments."""
    return json.dumps([command, request_id, args], sort_keys=True, separators=(",", ":"))


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.set_aside: str | None = None
        try:
            self.db = self._open()
        except sqlite3.DatabaseError as exc:
            aside = self._move_aside()
            self.set_aside = (f"the journal {self.path} could not be read ({exc}); it was moved to {aside} "
                              "and a new journal started")
            log.error("%s", self.set_aside)
            self.db = self._open()
        self._stored: dict[int, list[tuple[str, int | None]]] = {}  # per game: (action text, key) as on disk
        self._stored_secrets: dict[int, str | None] = {}

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("damaged pages (quick_check)")
            for table, columns in COLUMNS.items():
                found = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
                if table in ADDED_COLUMNS and found == columns[:-1]:  # a journal from before fair dice
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {ADDED_COLUMNS[table]}")
                elif found != columns:
                    raise sqlite3.DatabaseError(f"table {table} is not a journal's")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self) -> Path:
        n = 1
        while self.path.with_name(f"{self.path.name}.corrupt-{n}").exists():
            n += 1
        aside = self.path.with_name(f"{self.path.name}.corrupt-{n}")
        self.path.rename(aside)
        for suffix in ("-wal", "-shm"):  # SQLite's side files belong to the damaged file
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
        return aside

    def close(self) -> None:
        self.db.close()

    def start(self, board: str, record: Record) -> int:
        """Record a new game; returns its id."""
        secrets = _secrets(record)
        cur = self.db.execute(
            "INSERT INTO games (board, game, options, num_players, seed, secrets) VALUES (?, ?, ?, ?, -1, ?)",
            (board, record.game, json.dumps(record.options, sort_keys=True), record.num_players, secrets))
        game_id = cur.lastrowid
        assert game_id is not None
        self._stored[game_id] = []
        self._stored_secrets[game_id] = secrets
        self.sync(game_id, record)
        return game_id

    def sync(self, game_id: int, record: Record, answers: Sequence[tuple[str, str, str]] = ()) -> None:
        """Make the stored game equal ``record`` (what an undo or a takeback removed goes, what
        was played since is added, a new secret is kept) and store ``answers`` ((board, request
        key, answer JSON)), in one transaction."""
        stored = self._stored.setdefault(game_id, self._actions(game_id))
        actions = [(text, record.drawn.get(n)) for n, text in enumerate(record.actions)]
        if game_id not in self._stored_secrets:
            self._stored_secrets[game_id] = self.db.execute("SELECT secrets FROM games WHERE id = ?",
                                                            (game_id,)).fetchone()[0]
        secrets = _secrets(record)
        same = 0
        while same < min(len(stored), len(actions)) and stored[same] == actions[same]:
            same += 1
        if same == len(stored) == len(actions) and not answers and secrets == self._stored_secrets[game_id]:
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE games SET secrets = ? WHERE id = ?", (secrets, game_id))
            self.db.execute("DELETE FROM actions WHERE game = ? AND n >= ?", (game_id, same))
            self.db.executemany("INSERT INTO actions (game, n, text, key) VALUES (?, ?, ?, ?)",
                                [(game_id, n, *actions[n]) for n in range(same, len(actions))])
            self.db.executemany("INSERT INTO answers (board, key, answer) VALUES (?, ?, ?)", answers)
            for board in {a[0] for a in answers}:
                self.db.execute("DELETE FROM answers WHERE board = ? AND n <= (SELECT MAX(n) FROM answers "
                                "WHERE board = ?) - ?", (board, board, KEEP_ANSWERS))
        self._stored[game_id] = actions
        self._stored_secrets[game_id] = secrets

    def answers(self, board: str) -> list[tuple[str, str]]:
        """The board's remembered answers, oldest first: (request key, answer JSON)."""
        return self.db.execute("SELECT key, answer FROM answers WHERE board = ? ORDER BY n", (board,)).fetchall()

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
        row = self.db.execute("SELECT game, options, num_players, secrets FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal {self.path}")
        game, options, players, secrets = row
        keys = [ChanceKey.of(bytes.fromhex(s)) for s in json.loads(secrets)] if secrets is not None else []
        actions = self._actions(game_id)
        return Record(game, json.loads(options), players, keys, [text for text, _ in actions],
                      {n: key for n, (_, key) in enumerate(actions) if key is not None})

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT g.id, g.board, g.game, g.finished, g.result, COUNT(a.n) FROM games g "
                               "LEFT JOIN actions a ON a.game = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        return [{"id": i, "board": b, "game": g, "finished": bool(f), "result": json.loads(r) if r else None,
                 "actions": n} for i, b, g, f, r, n in rows]

    def _actions(self, game_id: int) -> list[tuple[str, int | None]]:
        """The game's stored actions: (text, the key that drew it when it is a drawn chance outcome)."""
        return [(t, k) for t, k in self.db.execute("SELECT text, key FROM actions WHERE game = ? ORDER BY n",
                                                   (game_id,))]


def _secrets(record: Record) -> str:
    """The record's chance secrets as the journal stores them (a JSON list of hex)."""
    if any(key.secret is None for key in record.keys):
        raise ValueError("a record whose secret is not known cannot be journalled")
    return json.dumps([key.secret.hex() for key in record.keys if key.secret is not None])


class RecentAnswers:
    """The answers to the last :data:`KEEP_ANSWERS` requests of a board that carried an id, kept in
    memory and (with a journal) on disk with the game's actions."""

    def __init__(self, journal: Journal | None, board: str) -> None:
        self.board = board
        self._persist = journal is not None
        self._answers: OrderedDict[str, tuple[bool, Any]] = OrderedDict()
        self._unsaved: list[tuple[str, str, str]] = []
        for key, answer in journal.answers(board) if journal is not None else []:
            ok, result = json.loads(answer)
            self._answers[key] = (ok, result)

    def get(self, key: str) -> tuple[bool, Any] | None:
        return self._answers.get(key)

    def add(self, key: str, ok: bool, result: Any) -> None:
        self._answers[key] = (ok, result)
        if len(self._answers) > KEEP_ANSWERS:
            self._answers.popitem(last=False)
        if self._persist:
            self._unsaved.append((self.board, key, json.dumps([ok, result])))

    def unsaved(self) -> list[tuple[str, str, str]]:
        """The answers not yet on disk, handed to :meth:`Journal.sync` (which stores them)."""
        out, self._unsaved = self._unsaved, []
        return out


class BoardJournal:
    """The journal kept equal to one board's session: an entry per game the session takes, its
    actions and answers after every change, finished when the game ends (reopened by an undo)."""

    def __init__(self, journal: Journal, board: str) -> None:
        self.journal = journal
        self.board = board
        self.game_id: int | None = None
        self.finished = False
        self.serial = 0  # the session's game that ``game_id`` is

    def open(self, session: Session, *, resume: bool) -> list[str]:
        """Give ``session`` the board's unfinished game when ``resume``; what the operator must be
        told (a journal moved aside, a game set aside)."""
        notices = [self.journal.set_aside] if self.journal.set_aside else []
        aside = self.resume(session) if resume else None
        if aside:
            log.error("%s", aside)
            notices.append(aside)
        return notices

    def resume(self, session: Session) -> str | None:
        """Give ``session`` the board's unfinished game, if any; a message when that game cannot go
        on on this board and was set aside (finished as abandoned, still exportable)."""
        found = self.journal.unfinished(self.board)
        if found is None:
            return None
        game_id, record = found
        try:
            session.resume(record)
        except (ValueError, KeyError) as exc:  # LayoutError and IllegalAction are ValueErrors
            self.journal.finish(game_id, {"abandoned": True, "error": str(exc)})
            return (f"the journal's unfinished {record.game} game {game_id} cannot go on on this board ({exc}); "
                    f"it is set aside (arbitro journal --export {game_id}) and a new {session.game.name} game starts")
        self.game_id, self.finished, self.serial = game_id, False, session.serial
        log.info("resumed %s after %d actions (journal game %d)", record.game, len(record.actions), game_id)
        return None

    def keep(self, session: Session) -> None:
        """Write what changed: a new game's entry, the actions, the answers, the end."""
        if session.serial != self.serial:
            if self.game_id is not None and not self.finished:
                self.journal.finish(self.game_id, {"abandoned": True})
            self.game_id, self.finished, self.serial = self.journal.start(self.board, session.match.record), False, \
                session.serial
        assert self.game_id is not None
        self.journal.sync(self.game_id, session.match.record, session.answers.unsaved())
        if session.over and not self.finished:
            self.journal.finish(self.game_id, {"winners": session.winners(), "scores": list(session.state.scores()),
                                               "resigned": session.resigned})
            self.finished = True
        elif not session.over and self.finished:  # an undo after the end reopens the game
            self.journal.reopen(self.game_id)
            self.finished = False
