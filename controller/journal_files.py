"""The journal's file and its disk: what path may become a journal, who may read it, why it
cannot be written (a full or read-only disk), asked of the disk itself, and the work done beside a
commit while it waits for the disk (:class:`Beside`)."""

from __future__ import annotations

import errno
import logging
import os
import queue
import sqlite3
import stat
import tempfile
import threading
from collections.abc import Callable
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


class Beside:
    """Work done on a thread of its own while the thread that asked for it waits in a journal's
    COMMIT (SQLite lets go of Python while it waits for the fsync: about 1 ms here, an SD card's
    write on a Pi). Work the thread has not begun by the time the COMMIT returns is done by the
    asker itself: a busy machine never makes the commit wait for this thread."""

    def __init__(self) -> None:
        self._asked: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="arbitro-journal-beside", daemon=True)
        self._thread.start()

    def commit(self, db: sqlite3.Connection, meanwhile: Callable[[], None]) -> None:
        """COMMIT on ``db`` here while ``meanwhile`` runs beside it; returns once both are done (a
        failed COMMIT's ``meanwhile`` is not begun, or is waited for). Either's error is raised."""
        work = _Work(meanwhile)
        self._asked.put(work)
        try:
            db.execute("COMMIT")
        except BaseException:
            work.drop()
            raise
        work.finish()

    def _run(self) -> None:
        while (work := self._asked.get()) is not None:
            work.begin()
            del work  # nothing of the loop's is held between commits

    def stop(self) -> None:
        self._asked.put(None)
        self._thread.join(5)


class _Work:
    """One piece of :class:`Beside`'s work: begun once, by whichever thread claims it first."""

    def __init__(self, work: Callable[[], None]) -> None:
        self.work = work
        self.claimed = False
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.error: BaseException | None = None

    def _claim(self) -> bool:
        with self.lock:
            claimed, self.claimed = self.claimed, True
            return not claimed

    def begin(self) -> None:
        """On :class:`Beside`'s thread."""
        if self._claim():
            try:
                self.work()
            except BaseException as exc:  # handed to the thread that asked
                self.error = exc
            finally:
                self.done.set()

    def finish(self) -> None:
        """On the asking thread: done here if not begun, else waited for."""
        if self._claim():
            self.work()
            return
        self.done.wait()
        if self.error is not None:
            raise self.error

    def drop(self) -> None:
        """The COMMIT failed: not begun now, or waited for (it must not run on beside the asker)."""
        if not self._claim():
            self.done.wait()
