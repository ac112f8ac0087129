"""The journal holds the live chance secret: it and its WAL and SHM files are its owner's alone
(0600) whatever the umask of whoever ran the service, and a journal found readable by others is
made private, with one warning."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games.record import Match
from controller.journal import Journal

FILES = ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm")

# A game's first actions written, the journal still open: the WAL and SHM files are there.
WRITE = """
import os, sys
from pathlib import Path
from controller.games.record import Match
from controller.journal import Journal
path = Path(sys.argv[1])
journal = Journal(path)
match = Match.new("jeocinco", {}, 2, secret=bytes(range(32)))
match.resolve_chance()
journal.start("board1", match.record)
print(" ".join(f"{f}={os.stat(path.with_name(f)).st_mode & 0o777:o}" for f in sys.argv[2:]))
journal.close()
"""


def modes(directory: Path) -> dict[str, int]:
    return {f: stat.S_IMODE((directory / f).stat().st_mode) for f in FILES if (directory / f).exists()}


def test_a_journal_made_under_umask_022_is_its_owners_alone(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WRITE, str(tmp_path / FILES[0]), *FILES], capture_output=True,
                          text=True, timeout=60, preexec_fn=lambda: os.umask(0o022), check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [f"{f}=600" for f in FILES]  # all three, while the journal was open
    assert set(modes(tmp_path).values()) == {0o600}


def test_a_journal_readable_by_others_is_made_private_with_one_warning(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / FILES[0]
    journal = Journal(path)
    match = Match.new("jeocinco", {}, 2, secret=bytes(range(32)))
    match.resolve_chance()
    journal.start("board1", match.record)
    for f in FILES:  # as `arbitro run` with umask 022 left them before
        (tmp_path / f).chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="arbitro.journal"):
        again = Journal(path)
    warned = [r.getMessage() for r in caplog.records if r.name == "arbitro.journal"]
    assert len(warned) == 1 and "readable by others" in warned[0] and "made private" in warned[0], warned
    assert modes(tmp_path) == dict.fromkeys(FILES, 0o600)
    assert again.record(1).actions == match.record.actions  # the same journal, only its modes changed
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="arbitro.journal"):
        Journal(path).close()  # private already: nothing to say
    assert not [r for r in caplog.records if r.name == "arbitro.journal"]
    again.close()
    journal.close()
