"""The journal's commit waits for the disk on a thread of its own while the loop works out what it
is to tell (issue 39): what is told still reaches nobody before it is on disk, and a commit that
fails is the loop's error, with nothing told."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from controller.games.record import Match
from controller.journal import Journal
from tests.support.table import Table


def test_meanwhile_runs_on_the_writers_thread_before_the_transaction_returns(tmp_path: Path) -> None:
    """While the committer's thread makes the COMMIT, or after the writer made it itself (that
    thread had not taken it in time: a busy machine); the journal holds the game either way."""
    journal = Journal(tmp_path / "journal.sqlite")
    match = Match.new("contigo", {}, 2, secret=bytes(range(32)))
    game = journal.start("b", match.record)
    ran: list[str] = []

    def meanwhile() -> None:
        ran.append(threading.current_thread().name)

    try:
        match.apply_text(match.state.action_to_text(match.state.legal_actions()[0]))
        with journal.transaction(meanwhile):
            journal.sync(game, match.record)
        assert ran == [threading.current_thread().name]
        with journal.transaction(meanwhile):  # nothing to write: no commit to wait for, it runs all the same
            journal.sync(game, match.record)
        assert len(ran) == 2
    finally:
        journal.close()
    again = Journal(tmp_path / "journal.sqlite")
    try:
        found = again.latest("b")
        assert found is not None and found[1].actions == match.record.actions  # on disk
    finally:
        again.close()


def test_a_commit_that_fails_raises_on_the_writers_thread_and_keeps_nothing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    db = journal.db
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    db.execute("CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)")
    ran: list[bool] = []
    try:
        with pytest.raises(sqlite3.IntegrityError), journal.transaction(lambda: ran.append(True)):
            db.execute("INSERT INTO child VALUES (7)")  # only the COMMIT finds the missing parent
        assert ran in ([], [True])  # while the committer's thread made it, or never (made here, it failed first)
        assert not db.in_transaction and db.execute("SELECT COUNT(*) FROM child").fetchone()[0] == 0
    finally:
        journal.close()


def test_every_move_and_its_state_are_told_only_once_the_journal_holds_them(tmp_path: Path) -> None:
    """A watcher reading the journal file from another connection finds each move told in it."""
    path = tmp_path / "journal.sqlite"
    seen: list[tuple[int, int]] = []
    with Table("contigo", seed=5, journal=str(path)) as table:
        reader = sqlite3.connect(path, check_same_thread=False)

        def watch(event: dict[str, Any]) -> None:
            if event["type"] == "action":
                on_disk = reader.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
                seen.append((event["move"], on_disk))

        table.service.watchers.append(watch)
        rng = random.Random(5)
        for _ in range(8):
            table.play(rng.choice(table.state.legal_actions()))
        reader.close()
    assert len(seen) >= 6  # (the moves of chance are not actions)
    assert all(on_disk >= move for move, on_disk in seen), seen  # ``move``: the actions played with this one
