"""The journal's file and its disk: what path may become a journal, who may read it, and why it
cannot be written (a full or read-only disk), asked of the disk itself."""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import stat
import tempfile
from pathlib import Path

log = logging.getLogger("arbitro.journal")

SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


class JournalPathError(ValueError):
    """``journal.path`` holds something that is not a journal and must not be touched: a device, a
    directory, a file that is no SQLite database, another program's database."""


class NotAJournal(sqlite3.DatabaseError):
    """An SQLite file whose journal tables are damaged or of another shape: it is moved aside."""


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_path(path: Path) -> None:
    """Refuse (:class:`JournalPathError`) a path that holds anything but nothing, an empty file or an
    SQLite file: only those may become a journal, or be moved aside when damaged."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise JournalPathError(f"it is {_kind(info.st_mode)}, not a journal file; it was left as it is")
    if info.st_size:
        with path.open("rb") as file:
            if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise JournalPathError("the file is not an SQLite database (it does not begin with the SQLite "
                                       "header), so it is no journal; it was left as it is")


PRIVATE = 0o600
"""The journal's mode, and its side files' (SQLite gives ``-wal`` and ``-shm`` the main file's):
it holds the chance secret of the game in play, so every die and hand to come."""


def private(path: Path) -> None:
    """Make the journal at ``path`` readable by its owner alone, whatever the umask: created 0600
    when it is not there yet, made private (one warning in the log) when found readable by others,
    with its WAL and SHM files."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        pass
    except OSError:  # a read-only or full disk, a directory not ours: SQLite's open says so, as before
        return
    else:
        os.fchmod(fd, PRIVATE)  # the umask may have taken bits from the mode asked for
        os.close(fd)
    opened = [f for f in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))) if f.is_file()]
    shown = [f for f in opened if stat.S_IMODE(f.stat().st_mode) & ~PRIVATE]
    if not shown:
        return
    modes = ", ".join(f"{f.name} {stat.S_IMODE(f.stat().st_mode):04o}" for f in shown)
    try:
        for f in shown:
            f.chmod(PRIVATE)
    except OSError as exc:
        log.warning("the journal %s is readable by others (%s), and cannot be made private: %s; it holds the "
                    "secret every die and hand is drawn from", path, modes, exc.strerror or exc)
        return
    log.warning("the journal %s was readable by others (%s): made private (0600); it holds the secret every die "
                "and hand is drawn from", path, modes)


def damaged(exc: sqlite3.DatabaseError) -> bool:
    """True when ``exc`` says the file's content is damaged (not that it cannot be written or opened)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return isinstance(exc, NotAJournal) or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


class DiskFault(sqlite3.OperationalError):
    """The journal's disk cannot take a write (``reason``: "read-only", "disk full"): nothing is tried,
    not even what SQLite's WAL might still hold, so the first state after a start on such a disk
    says so, not the first failed move."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the journal's disk is {reason}")
        self.reason = reason


def disk_fault(directory: Path) -> DiskFault | None:
    """Why the disk of ``directory`` takes no write (mounted read-only, or no block this process may
    write: root may use the blocks a file system keeps back for it); None when it may."""
    try:
        disk = os.statvfs(directory)
    except OSError:
        return None  # SQLite's own write says what is wrong
    if disk.f_flag & os.ST_RDONLY:
        return DiskFault("read-only")
    if (disk.f_bfree if os.geteuid() == 0 else disk.f_bavail) == 0:
        return DiskFault("disk full")
    return None


def write_fault(exc: sqlite3.Error, directory: Path) -> str:
    """Why the journal in ``directory`` cannot be written, in words: "disk full", "read-only", or
    SQLite's own message. A file briefly made there (never linked, never written) asks the disk."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as err:
        if err.errno == errno.EROFS:
            return "read-only"
        if err.errno in (errno.ENOSPC, errno.EDQUOT):
            return "disk full"
    if isinstance(exc, DiskFault):
        return exc.reason
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_FULL"):
        return "disk full"
    if name.startswith("SQLITE_READONLY"):
        return "read-only"
    return str(exc)


WAL_ROOM = 1 << 20
"""Bytes the journal's write-ahead log is grown to (with zeros, once) when it is opened shorter.
SQLite appends every commit to the WAL, and a commit that makes the file longer costs its fsync a
write of the file's size as well (ext4 here: 0.23 against 0.10-0.12 ms a commit); within room made
beforehand it does not. SQLite reads a WAL only up to its last valid frame (each names the log's
salt and carries a checksum), so zeros past it are never taken for one, as the stale frames it
leaves there itself are not. 256 pages: the first hundred or so moves after a start; once SQLite
has checkpointed (every 1000 pages) it writes the WAL from its start again, within the room it made."""


def make_wal_room(database: Path) -> None:
    """Grow ``database``'s WAL to :data:`WAL_ROOM` bytes if it is shorter (and present): appended
    zeros only, never over what SQLite wrote. A disk without the room is left as it is."""
    wal = database.with_name(database.name + "-wal")
    try:
        with open(wal, "r+b") as log:
            size = log.seek(0, os.SEEK_END)
            if size < WAL_ROOM:
                log.write(bytes(WAL_ROOM - size))
                log.flush()
                os.fsync(log.fileno())
    except OSError:  # no WAL (a read-only disk) or no room: the commits grow it as before
        pass
