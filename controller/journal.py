"""The journal: every game's chance secret, settings and actions in SQLite, written as they happen.

After a power cut the service reopens the journal, rebuilds the board's last game from its record
(every action re-checked by the rules engine, the dice drawn again from the same secret) and carries
on: an unfinished game where it was, a finished one shown as it ended (a resignation included)
until a new game starts; the LEDs then show what differs between the game and the board. Finished
games stay in the journal and export as records that ``arbitro replay`` re-referees.

It also keeps the answers to the current game's requests that carried an id, and the table
settings ``configure`` changed, written in the same transaction as the actions they go with: a
request repeated after a crash (its answer never came) gets that answer again and does not run
twice, and nothing acknowledged is forgotten by a restart (``controller.commands.RecentAnswers``
remembers them; the journal only stores its rows). A new game forgets the earlier game's
answers: an id means something within one game only.

One connection, used only by the service's loop (``check_same_thread=False`` because the service is
built on one thread and runs on another). WAL with ``synchronous=FULL``: what the service answers
or publishes is on disk first. Only a damaged SQLite file is moved aside (renamed ``*.corrupt-N``)
and a fresh journal started (:attr:`Journal.set_aside` says so, a message); a path that holds anything else
(a device, a directory, a text file, another program's database) is refused
(:class:`JournalPathError`) and left as it is. A journal that cannot be written (a full or
read-only disk) is told by :class:`BoardJournal`, which writes everything once it can again; one
found on a read-only disk at start is opened to read (the game resumes, and the first state already
says the journal cannot be written), and for writing once the disk can be written again. A
journal written before fair dice (chance from ``games.seed``) gets the columns it lacks
(:data:`ADDED_COLUMNS`) and its games replay as they were; an unfinished one goes on with a fresh
secret.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.commands import COMMANDS, KEEP_ANSWERS
from controller.games.base import Message, Phrase
from controller.games.record import ChanceKey, Record
from controller.journal_files import (  # the file and its disk
    JournalPathError,
    NotAJournal,
    check_path,
    damaged,
    disk_fault,
    make_wal_room,
    private,
    write_fault,
)
from controller.session import Expected

if TYPE_CHECKING:
    from controller.session import Session

Stored = tuple[list[str], dict[int, int]]
"""A game's actions as the journal holds them: their texts, and which key drew each drawn outcome."""

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
    secrets TEXT,  -- the chance secrets (hex), oldest first, as a JSON list; NULL before fair dice
    seats TEXT,  -- who plays each seat (controller.seats), a JSON list; NULL before seats
    started REAL,  -- when the game began (Unix time); NULL before game records (docs/records.md)
    position TEXT  -- the position text the game began from (Record.position); NULL: the game's initial state
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    key INTEGER,  -- the secret (its index) that drew this chance outcome; NULL: anything else
    at REAL,  -- when it was played (Unix time); NULL before game records
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS answers (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL,
    key TEXT NOT NULL,
    answer TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (  -- a computer player's move (or a hint) for the table to carry out
    game INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,  -- the actions before it
    hint INTEGER NOT NULL,  -- 1: a hint a player asked for; 0: a computer player's move
    player INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, n, hint)
);
CREATE TABLE IF NOT EXISTS settings (
    board TEXT PRIMARY KEY,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seals (  -- a remote game with hidden cards: this board's key (controller.remote_hidden)
    game INTEGER PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL  -- the X25519 private key (hex): a restarted board seals and opens the cards again
);
"""
COLUMNS = {
    "games": ("id", "board", "game", "options", "num_players", "seed", "finished", "result", "secrets", "seats",
              "started", "position"),
    "actions": ("game", "n", "text", "key", "at"),
    "answers": ("n", "board", "key", "answer"),
    "decisions": ("game", "n", "hint", "player", "text"),
    "settings": ("board", "settings"),
    "seals": ("game", "key"),
}
ADDED_COLUMNS = {"games": ("secrets TEXT", "seats TEXT", "started REAL", "position TEXT"),
                 "actions": ("key INTEGER", "at REAL")}
"""The last columns of these tables, which a journal from before fair dice (or seats, or game records, or
games begun from a position) lacks: added on opening."""
TABLE_SETTINGS = tuple(COMMANDS["configure"].fields)  # what ``configure`` changes, kept per board
COMMITMENT = "commitment:"  # before a secret not known here: the commitment stored in its place
LOG_AGAIN_S = 60.0  # a journal that still cannot be written is logged again at most this often

log = logging.getLogger("arbitro.journal")


MOVED_ASIDE = Phrase("journal.moved_aside", "the journal {path} could not be read ({error}); it was moved to {aside} "
                     "and a new journal started")
GAME_SET_ASIDE = Phrase("journal.game_set_aside", "the journal's unfinished {game} game {id} cannot go on on this "
                        "board ({error}); it is set aside (arbitro journal --export {id}) and a new {new_game} game "
                        "starts")
UNWRITABLE = Phrase("journal.unwritable", "the journal cannot be written: {reason}")
CANNOT_WRITE = Phrase("journal.cannot_write", "the journal cannot be written")


class Journal:
    def __init__(self, path: str | Path, wall_clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.wall_clock = wall_clock  # when a game began and each action was played (the records' times)
        check_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            private(self.path)  # created 0600 before SQLite writes anything to it
        self.set_aside: Message | None = None
        self.read_only = False  # found on a read-only disk: opened to read until it can be written
        try:
            self.db = self._open()
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):  # cannot be opened or written (a full or read-only disk): not the file's fault
                if self.path.is_file() and write_fault(exc, self.path.parent) == "read-only":
                    self.db, self.read_only = self._open_to_read(), True
                    log.error("the journal %s is on a read-only disk: its games are read, nothing can be written "
                              "until the disk can be written again", self.path)
                else:
                    raise
            else:
                aside = self._move_aside()
                self.set_aside = MOVED_ASIDE(path=self.path, error=exc, aside=aside)
                log.error("%s", self.set_aside)
                self.db = self._open()
        private(self.path)  # an existing file made private only once it is known to be a journal
        self._stored: dict[int, Stored] = {}  # per game: the actions and drawn outcomes as on disk
        self._stored_secrets: dict[int, str | None] = {}
        self._sealed: set[int] = set()  # games whose sealing key is on disk

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "games" not in tables:  # never write into another program's database
                names = ", ".join(sorted(tables)[:6])
                raise JournalPathError(f"it is an SQLite database of something else (tables {names}), not a journal; "
                                       "it was left as it is")
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":  # before any write: set aside as it was
                raise NotAJournal("damaged pages (quick_check)")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            make_wal_room(self.path)
            for table, columns in COLUMNS.items():
                found = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
                added = ADDED_COLUMNS.get(table, ())
                missing = len(columns) - len(found)
                if 0 < missing <= len(added) and found == columns[:len(found)]:  # an older journal
                    for column in added[len(added) - missing:]:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
                elif found != columns:
                    raise NotAJournal(f"table {table} is not a journal's")
        except BaseException:
            db.close()
            raise
        return db

    def _open_to_read(self) -> sqlite3.Connection:
        """The journal on a read-only disk, to read: with its WAL where SQLite can use it, else (no WAL
        left: everything is in the main file) as an immutable file."""
        uri = self.path.resolve().as_uri()
        wal = self.path.with_name(self.path.name + "-wal").exists()
        for mode in ("mode=ro", *(() if wal else ("immutable=1",))):
            db = sqlite3.connect(f"{uri}?{mode}", uri=True, check_same_thread=False, isolation_level=None)
            try:
                tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except sqlite3.Error:
                db.close()
                continue
            if "games" not in tables:
                db.close()
                raise JournalPathError("it is on a read-only disk and holds no journal")
            return db
        raise sqlite3.OperationalError(f"the journal {self.path} on a read-only disk cannot be read")

    def _writable(self) -> None:
        """A journal opened to read becomes writable once its disk is. The read-only connection goes
        first: SQLite shares a file's WAL index between the connections of one process, and would
        keep it read-only."""
        self.db.close()
        try:
            self.db = self._open()
        except sqlite3.Error:
            self.db = self._open_to_read()  # still readable, as before; SQLite's error goes on
            raise
        self.read_only = False
        log.warning("the journal %s can be written again: opened for writing", self.path)

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

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside is on disk together, or none of it (a full disk, a read-only
        one): then the exception goes on, and what this object remembered of the file is forgotten.
        Inside another transaction it is part of that one."""
        if self.db.in_transaction:
            yield
            return
        if (fault := disk_fault(self.path.parent)) is not None:
            # SQLite opened the file to read only on such a disk: opened again once it is writable
            self.read_only = self.read_only or fault.reason == "read-only"
            raise fault
        if self.read_only:
            self._writable()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:  # SQLite may have rolled back already (a full disk does)
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            self._stored.clear()
            self._stored_secrets.clear()
            self._sealed.clear()
            raise

    def start(self, board: str, record: Record) -> int:
        """Record a new game; returns its id. The board's answers to earlier games' requests go: a
        request id names a request within one game."""
        secrets = _secrets(record)
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO games (board, game, options, num_players, seed, secrets, seats, started, position) "
                "VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?)",
                (board, record.game, json.dumps(record.options, sort_keys=True), record.num_players, secrets,
                 json.dumps(record.seats), round(self.wall_clock(), 3), record.position))
            game_id = cur.lastrowid
            assert game_id is not None
            self.db.execute("DELETE FROM answers WHERE board = ?", (board,))
            self._stored[game_id] = ([], {})
            self._stored_secrets[game_id] = secrets
            self.sync(game_id, record)
        return game_id

    def sync(self, game_id: int, record: Record, answers: Sequence[tuple[str, str, str]] = ()) -> None:
        """Make the stored game equal ``record`` (what an undo or a takeback removed goes, what
        was played since is added, a new secret is kept) and store ``answers`` ((board, request
        key, answer JSON)), in one transaction."""
        stored = self._stored.get(game_id)
        if stored is None:
            rows = self._actions(game_id)
            stored = self._stored[game_id] = ([t for t, _ in rows],
                                              {n: k for n, (_, k) in enumerate(rows) if k is not None})
        if game_id not in self._stored_secrets:
            self._stored_secrets[game_id] = self.db.execute("SELECT secrets FROM games WHERE id = ?",
                                                            (game_id,)).fetchone()[0]
        texts, drawn = stored
        same = _kept(texts, drawn, record)
        secrets = _secrets(record)
        new_secrets = secrets != self._stored_secrets[game_id]
        if same == len(texts) == len(record.actions) and not answers and not new_secrets:
            return
        with self.transaction():
            if new_secrets:
                self.db.execute("UPDATE games SET secrets = ? WHERE id = ?", (secrets, game_id))
            if same < len(texts):  # an undo or a takeback changed what is on disk
                self.db.execute("DELETE FROM actions WHERE game = ? AND n >= ?", (game_id, same))
            now = round(self.wall_clock(), 3)  # written as played: the journal is kept after every change
            self.db.executemany("INSERT INTO actions (game, n, text, key, at) VALUES (?, ?, ?, ?, ?)",
                                [(game_id, n, record.actions[n], record.drawn.get(n), now)
                                 for n in range(same, len(record.actions))])
            if answers:
                self.db.executemany("INSERT INTO answers (board, key, answer) VALUES (?, ?, ?)", answers)
            for board in {a[0] for a in answers}:
                self.db.execute("DELETE FROM answers WHERE board = ? AND n <= (SELECT MAX(n) FROM answers "
                                "WHERE board = ?) - ?", (board, board, KEEP_ANSWERS))
            self._stored[game_id] = (list(record.actions), dict(record.drawn))
            self._stored_secrets[game_id] = secrets

    def keep_seal(self, game_id: int, key: bytes) -> None:
        """Keep the sealing key of a remote game with hidden cards (once: it never changes)."""
        if game_id not in self._sealed:
            self.db.execute("INSERT OR IGNORE INTO seals (game, key) VALUES (?, ?)", (game_id, key.hex()))
            self._sealed.add(game_id)

    def seal(self, game_id: int) -> bytes | None:
        """The game's sealing key, if it is a remote game with hidden cards."""
        row = self.db.execute("SELECT key FROM seals WHERE game = ?", (game_id,)).fetchone()
        return None if row is None else bytes.fromhex(row[0])

    def decide(self, game_id: int, decisions: Sequence[Expected]) -> None:
        """Keep the moves computer players decided and the hints given (one per position and kind)."""
        if decisions:  # most moves: none, and a statement costs even when it writes nothing
            self.db.executemany("INSERT OR REPLACE INTO decisions (game, n, hint, player, text) VALUES (?, ?, ?, ?, ?)",
                                [(game_id, d.moves, int(d.hint), d.player, d.text) for d in decisions])

    def decision(self, game_id: int, moves: int, *, hint: bool = False) -> Expected | None:
        """The move a computer player decided (``hint``: the hint given) at ``moves`` actions, if any."""
        row = self.db.execute("SELECT player, text FROM decisions WHERE game = ? AND n = ? AND hint = ?",
                              (game_id, moves, int(hint))).fetchone()
        return None if row is None else Expected(moves, row[0], row[1], hint)

    def answers(self, board: str) -> list[tuple[str, str]]:
        """The board's remembered answers, oldest first: (request key, answer JSON)."""
        return self.db.execute("SELECT key, answer FROM answers WHERE board = ? ORDER BY n", (board,)).fetchall()

    def finish(self, game_id: int, result: dict[str, Any]) -> None:
        self.db.execute("UPDATE games SET finished = 1, result = ? WHERE id = ?", (json.dumps(result), game_id))

    def reopen(self, game_id: int) -> None:
        """A finished game taken back (an undo after the end) is in play again."""
        self.db.execute("UPDATE games SET finished = 0, result = NULL WHERE id = ?", (game_id,))

    def settings(self, board: str) -> dict[str, Any]:
        """The table settings ``configure`` changed on ``board``, as :meth:`BoardJournal.keep` wrote them."""
        row = self.db.execute("SELECT settings FROM settings WHERE board = ?", (board,)).fetchone()
        return dict(json.loads(row[0])) if row else {}

    def set_settings(self, board: str, settings: dict[str, Any]) -> None:
        self.db.execute("INSERT INTO settings (board, settings) VALUES (?, ?) ON CONFLICT (board) DO UPDATE "
                        "SET settings = excluded.settings", (board, json.dumps(settings, sort_keys=True)))

    def latest(self, board: str) -> tuple[int, Record, dict[str, Any] | None] | None:
        """The board's latest game, if any: its id, its record and, once it is finished, its result."""
        row = self.db.execute("SELECT id, finished, result FROM games WHERE board = ? ORDER BY id DESC LIMIT 1",
                              (board,)).fetchone()
        if row is None:
            return None
        game_id, finished, result = row
        return game_id, self.record(game_id), (json.loads(result) if result else {}) if finished else None

    def record(self, game_id: int) -> Record:
        row = self.db.execute("SELECT game, options, num_players, secrets, seats, position FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal {self.path}")
        game, options, players, secrets, seats, position = row
        keys = [ChanceKey(s.removeprefix(COMMITMENT), None) if s.startswith(COMMITMENT)
                else ChanceKey.of(bytes.fromhex(s)) for s in json.loads(secrets)] if secrets is not None else []
        actions = self._actions(game_id)
        return Record(game, json.loads(options), players, keys, [text for text, _ in actions],
                      {n: key for n, (_, key) in enumerate(actions) if key is not None},
                      json.loads(seats) if seats is not None else [], position=position)

    def finished(self, game_id: int) -> Record:
        """A finished game's record (``KeyError`` for one in play, or none): what a board may show."""
        row = self.db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or not row[0]:
            raise KeyError(f"no finished game {game_id} in the journal {self.path}")
        return self.record(game_id)

    def timing(self, game_id: int) -> tuple[float | None, list[float | None]]:
        """When the game began and when each of its actions was played (Unix time; None: kept by a
        journal from before game records)."""
        row = self.db.execute("SELECT started FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal {self.path}")
        return row[0], [at for (at,) in self.db.execute("SELECT at FROM actions WHERE game = ? ORDER BY n",
                                                         (game_id,))]

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT g.id, g.board, g.game, g.finished, g.result, COUNT(a.n) FROM games g "
                               "LEFT JOIN actions a ON a.game = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        return [{"id": i, "board": b, "game": g, "finished": bool(f), "result": json.loads(r) if r else None,
                 "actions": n} for i, b, g, f, r, n in rows]

    def _actions(self, game_id: int) -> list[tuple[str, int | None]]:
        """The game's stored actions: (text, the key that drew it when it is a drawn chance outcome)."""
        return [(t, k) for t, k in self.db.execute("SELECT text, key FROM actions WHERE game = ? ORDER BY n",
                                                   (game_id,))]


def _kept(texts: list[str], drawn: dict[int, int], record: Record) -> int:
    """How many of the stored actions (``texts``, the outcomes ``drawn`` by a key) ``record``
    still begins with. A move only adds at the end: that is told at C speed, without a
    walk over the whole game on every move."""
    stored, now = len(texts), record.actions
    if now[:stored] == texts and record.drawn.items() >= drawn.items() \
            and len(record.drawn) - len(drawn) == sum(n in record.drawn for n in range(stored, len(now))):
        return stored
    return next((n for n in range(min(stored, len(now))) if texts[n] != now[n] or drawn.get(n) != record.drawn.get(n)),
                min(stored, len(now)))


def _secrets(record: Record) -> str:
    """The record's chance secrets as the journal stores them (a JSON list of hex); a secret not
    known here (a remote game's, on the joining board, until the host reveals it) as its commitment."""
    return json.dumps([key.secret.hex() if key.secret is not None else COMMITMENT + key.commitment
                       for key in record.keys])


class BoardJournal:
    """The journal kept equal to one board's session: an entry per game the session takes, its
    actions, answers and the end (reopened by an undo), and the table settings, all written in one
    transaction after every change.

    When the journal cannot be written (a full or read-only disk), :meth:`keep` says so and
    :attr:`fault` says why; nothing of that change is on disk, and the next :meth:`keep` that can
    write writes everything since. The failure is logged once, then at most every
    :data:`LOG_AGAIN_S` seconds, and its end once."""

    def __init__(self, journal: Journal, board: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.journal = journal
        self.board = board
        self.clock = clock
        self.game_id: int | None = None
        self.finished = False
        self.serial = 0  # the session's game that ``game_id`` is
        self.why: Message | None = None  # why the journal cannot be written now
        self.failures = 0  # writes failed since the journal last could be written
        self._failed_at = self._logged_at = 0.0
        self.in_file: dict[str, Any] = {}  # the table settings of the configuration file
        self.settings: dict[str, Any] = {}  # what ``configure`` changed over them, as written

    @property
    def fault(self) -> str | None:
        """Why the journal cannot be written now, in English words (the logs'); None while it can."""
        return None if self.why is None else self.why.text

    def open(self, session: Session, *, resume: bool) -> list[Message]:
        """Give ``session`` the table settings ``configure`` left and, when ``resume``, the board's last
        game; what the operator must be told (a journal moved aside, a game set aside)."""
        notices = [self.journal.set_aside] if self.journal.set_aside else []
        self.in_file = {key: getattr(session.board, key) for key in TABLE_SETTINGS}
        self.settings = self.journal.settings(self.board)
        for key, change in self.settings.items():  # a value the file has changed since is the file's again
            if key in self.in_file and change["in_file"] == self.in_file[key]:
                session.use_settings({key: change["by_request"]})  # before a game is taken: it reads them
        aside = self.resume(session) if resume else None
        if aside:
            log.error("%s", aside)
            notices.append(aside)
        return notices

    def resume(self, session: Session) -> Message | None:
        """Give ``session`` the board's last game, if any: an unfinished one to carry on, a finished one
        of the configured game to show as it ended (until a new game starts). A message when an
        unfinished game cannot go on on this board and was set aside (finished as abandoned, still
        exportable)."""
        found = self.journal.latest(self.board)
        if found is None:
            return None
        game_id, record, result = found
        if result is not None and (result.get("abandoned") or record.game != session.board.game):
            return None  # nothing to show: the configured game starts
        try:
            session.resume(record, resigned=result.get("resigned") if result is not None else None,
                           seal=self.journal.seal(game_id))
        except (ValueError, KeyError) as exc:  # LayoutError and IllegalAction are ValueErrors
            if result is not None:  # a finished game that no longer replays: nothing is lost by a new one
                log.warning("the journal's finished %s game %d is not shown (%s)", record.game, game_id, exc)
                return None
            self.journal.finish(game_id, {"abandoned": True, "error": str(exc)})
            return GAME_SET_ASIDE(game=record.game, id=game_id, error=exc, new_game=session.game.name)
        session.answers.load(self.journal.answers(self.board))
        pending = self.journal.decision(game_id, len(record.actions)) if result is None else None
        if pending is not None:  # a computer player's move waited to be carried out: shown again, the same
            log.info("the computer's move %s waits to be carried out (kept in the journal)", pending.text)
            session.expect(pending, kept=True)
        self.game_id, self.finished, self.serial = game_id, result is not None, session.serial
        log.info("%s %s after %d actions (journal game %d)", "resumed" if result is None else "showing the finished",
                 record.game, len(record.actions), game_id)
        return None

    def keep(self, session: Session) -> bool:
        """Write what changed, in one transaction: a new game's entry, the actions, the answers, the
        end, the table settings. False when the journal cannot be written (see :attr:`fault`)."""
        answers = session.answers.unsaved()
        decisions = list(session.decisions)
        now = {key: getattr(session.board, key) for key in TABLE_SETTINGS}
        settings = {key: {"in_file": self.in_file[key], "by_request": value}
                    for key, value in now.items() if key in self.in_file and value != self.in_file[key]}
        game_id, finished, serial = self.game_id, self.finished, self.serial
        try:
            with self.journal.transaction():
                if session.serial != serial:
                    if game_id is not None and not finished:
                        self.journal.finish(game_id, {"abandoned": True})
                    game_id, finished, serial = self.journal.start(self.board, session.match.record), False, \
                        session.serial
                assert game_id is not None
                self.journal.sync(game_id, session.match.record, [(self.board, *a) for a in answers])
                self.journal.decide(game_id, decisions)
                if session.remote is not None and session.remote.key is not None:
                    self.journal.keep_seal(game_id, session.remote.key)
                if session.over and not finished:
                    self.journal.finish(game_id, {"winners": session.winners(), "resigned": session.resigned,
                                                  "scores": list(session.state.scores())})
                    finished = True
                elif not session.over and finished:  # an undo after the end reopens the game
                    self.journal.reopen(game_id)
                    finished = False
                if settings != self.settings:
                    self.journal.set_settings(self.board, settings)
        except sqlite3.Error as exc:
            self._failed(exc)
            return False
        self.game_id, self.finished, self.serial, self.settings = game_id, finished, serial, settings
        session.answers.saved(len(answers))
        session.decisions_kept(len(decisions))
        if self.fault is not None:
            log.warning("the journal is written again, after %.0f s and %d failed writes: it has caught up",
                        self.clock() - self._failed_at, self.failures)
            self.why, self.failures = None, 0
        return True

    def _failed(self, exc: sqlite3.Error) -> None:
        now = self.clock()
        first = self.fault is None
        self.why = UNWRITABLE(reason=write_fault(exc, self.journal.path.parent))
        self.failures += 1
        if first:
            self._failed_at = self._logged_at = now
            log.error("%s (%s: %s); refereeing goes on, nothing more is told until it can be written",
                      self.fault, getattr(exc, "sqlite_errorname", type(exc).__name__), exc)
        elif now - self._logged_at >= LOG_AGAIN_S:
            self._logged_at = now
            log.error("%s, still (%d failed writes in %.0f s)", self.fault, self.failures, now - self._failed_at)
