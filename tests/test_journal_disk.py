"""A journal on a disk that fills up or turns read-only, for real: ``arbitro run`` with its journal
on a small tmpfs filled to the last byte, or on an ext4 image (a loop device) that the kernel turns
read-only after an error, as an SD card's file system does. The service goes on answering: every
request is refused with the reason, the state says it is degraded, a warning is told, the log says
it once; when there is room again the journal catches up by itself. Nothing acknowledged is lost,
nothing that was not written is acknowledged.

Both need root (mount, a loop device), as the whole suite runs. A real full file system rather than
SQLite's own limit (``PRAGMA max_page_count``): the service opens its journal itself, and a disk
filling under it is the fault to survive; mounting works wherever the suite runs as root.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import BoardConfig
from controller.games import CHANCE
from controller.games.record import Match, Record
from controller.i18n import message_of, say
from controller.journal import BoardJournal, Journal
from controller.localbroker import Broker
from controller.session import Session
from controller.teller import JOURNAL_FAILING
from controller.wiring import Wiring
from hardware.layout import load_layout
from tests.support.mqttc import Listener
from tests.test_crash_restart import Board, scripted


def umount(where: Path) -> None:
    """Unmount ``where``; lazily when a failed test left a file open there (it goes when that does)."""
    if subprocess.run(["umount", str(where)]).returncode:
        subprocess.run(["umount", "-l", str(where)], check=True)


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "4m") -> Iterator[Path]:
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "arbitro-test", str(where)], check=True)
    try:
        yield where
    finally:
        umount(where)


def fill(disk: Path) -> Path:
    """Write a file until the disk has not one byte left."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    chunk = b"\0" * 65536
    try:
        while True:
            os.write(fd, chunk)  # a short write near the end, then ENOSPC
    except OSError as exc:
        assert exc.errno == errno.ENOSPC, exc
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler


class Ext4:
    """An ext4 file system in a file, on a loop device, that turns read-only on an error."""

    def __init__(self, image: Path, where: Path) -> None:
        self.image, self.where = image, where
        subprocess.run(["truncate", "-s", "16M", str(image)], check=True)
        subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
        where.mkdir()
        self.mount()

    def mount(self) -> None:
        subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.where)], check=True)
        self.mounted = True

    def fail(self) -> None:
        """A file-system error, as a failing card gives: the kernel turns the file system read-only."""
        device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(self.where)], capture_output=True, text=True,
                                check=True).stdout.strip()
        Path(f"/sys/fs/ext4/{Path(device).name}/trigger_fs_error").write_text("arbitro test\n")

    def repair(self) -> None:
        """What a reboot does: unmount, check, mount again."""
        self.umount()
        assert subprocess.run(["e2fsck", "-fy", str(self.image)], capture_output=True).returncode in (0, 1)
        self.mount()

    def umount(self) -> None:
        if self.mounted:
            umount(self.where)
            self.mounted = False


class Script:
    """A seeded Contigo game as requests: ``roll`` for a chance step, ``choose`` for a move."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.record, self.public = scripted("contigo", {}, 2, seed)
        match = Match(Record.seeded("contigo", self.record.options, 2, seed))
        self.requests: list[tuple[str, dict[str, Any]]] = []
        for i, text in enumerate(self.record.actions):
            chance = match.state.current_player == CHANCE
            self.requests.append(("roll", {"id": f"a{i}"}) if chance else ("choose", {"id": f"a{i}", "action": text}))
            match.apply_text(text)

    def ask(self, board: Board, answers: Listener, i: int) -> dict[str, Any]:
        """Send request ``i`` and return its answer."""
        mark = len(answers.messages)
        board.send(*self.requests[i])
        answer: dict[str, Any] = json.loads(
            answers.wait_for(lambda m: json.loads(m[1])["id"] == f"a{i}", since=mark)[1])
        return answer

    def result(self, i: int) -> dict[str, Any]:
        command = self.requests[i][0]
        return {"outcome" if command == "roll" else "action": self.public[i]}


def in_english(answer: dict[str, Any]) -> str:
    """A coded refusal's words in English (the board says them in its own language)."""
    return say(message_of(answer["code"], answer["params"]), "en")


def on(board: Board, topic: str, where: Callable[[dict[str, Any]], object], since: int) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(
        board.op.wait_for(lambda m: m[0] == f"{board.base}/{topic}" and where(json.loads(m[1])), since=since)[1])
    return message


@contextlib.contextmanager
def played(tmp_path: Path, port: int, script: Script, journal: Path, moves: int) -> Iterator[tuple[Board, Listener]]:
    """``arbitro run`` with its journal at ``journal``, the script's first ``moves`` requests played
    and answered ok; the board and the listener of its answers (kept after the block)."""
    board = Board(tmp_path, port, "contigo", {}, 2, script.seed, journal=journal)
    answers = Listener(port, [f"{board.base}/response/#"])
    try:
        board.start()
        for i in range(moves):
            assert script.ask(board, answers, i)["ok"]
        yield board, answers
    finally:
        board.close()
        answers.close()


def told_degraded(board: Board, since: int, why: str) -> dict[str, Any]:
    """The warning event and the degraded state the first failed write tells; the state."""
    warning = on(board, "events", lambda e: e["type"] == "warning", since)
    assert warning["code"] == JOURNAL_FAILING.code, warning  # said in the board's language, from its code
    said = say(message_of(warning["code"], warning["params"]), "en")
    assert said.startswith(f"the journal cannot be written: {why}; the game goes on"), warning
    state = on(board, "state", lambda s: s["health"]["status"] == "degraded", since)
    assert state["health"]["message"] == f"the journal cannot be written: {why}"
    return state


def test_a_full_disk_is_told_and_refused_and_the_journal_catches_up_once_there_is_room(tmp_path: Path,
                                                                                       broker: Broker) -> None:
    script = Script(seed=3)
    with tmpfs(tmp_path / "disk") as disk:
        board = Board(tmp_path, broker.port, "contigo", {}, 2, 3, journal=disk / "journal.sqlite")
        answers = Listener(broker.port, [f"{board.base}/response/#"])
        try:
            board.start()
            for i in range(5):
                assert script.ask(board, answers, i)["ok"]
            board.op.fence(board.base)  # the events of those have all arrived too
            filler = fill(disk)
            mark = len(board.op.messages)
            not_kept = script.ask(board, answers, 5)  # played, but its write failed: answered at once, no ok
            assert not_kept["ok"] is False and not_kept["code"] == "teller.not_kept", not_kept
            assert in_english(not_kept) == (f"{script.requests[5][0]}: the journal cannot be written: disk full; what "
                                            "it did is not kept yet, and is told once the journal can be written")
            assert told_degraded(board, mark, "disk full")["moves"] == 5
            refused = script.ask(board, answers, 6)  # refused at once, and why
            assert refused["ok"] is False and refused["code"] == "teller.nothing_done"
            assert in_english(refused) == \
                f"{script.requests[6][0]}: the journal cannot be written: disk full; nothing was done"
            state = board.op.request(board.base, "state", {})
            assert state["ok"] and state["result"]["moves"] == 5 and state["result"]["health"]["status"] == "degraded"
            twenty_answers(board, script, 6)
            # That answer was a fence: all told so far has arrived. Nothing of a5 but its answer.
            assert [json.loads(m[1])["type"] for m in board.op.messages[mark:] if m[0].endswith("/events")] == \
                ["warning"]
            assert [json.loads(m[1])["id"] for m in answers.messages] == [f"a{i}" for i in range(7)]

            mark = len(board.op.messages)
            filler.unlink()  # room again: the journal catches up, and all that waited is told
            assert on(board, "state", lambda s: s["health"] == {"status": "ok"}, mark)["moves"] == 6
            assert on(board, "events", lambda e: e["type"] in ("action", "chance"), mark)["move"] == 6
            again = script.ask(board, answers, 6)  # refused before, so it runs now
            assert again["ok"] and again["result"] == script.result(6)

            filler = fill(disk)  # full again, and the power goes before there is room
            mark = len(board.op.messages)
            board.send(*script.requests[7])
            told_degraded(board, mark, "disk full")
            board.kill()
            filler.unlink()
            state = board.start()
            assert state["moves"] == 7 and state["health"] == {"status": "ok"}  # every acknowledged action
            assert script.ask(board, answers, 7)["ok"]  # never acknowledged, never written: it runs now
        finally:
            board.close()
            answers.close()
        # a7's write failed: answered at once with no ok (never acknowledged; that answer may still have
        # been on its way when the power went), then run afresh after the restart
        oks = [json.loads(m[1])["ok"] for m in answers.messages if json.loads(m[1])["id"] == "a7"]
        assert oks[-1] is True and not any(oks[:-1]) and len(oks) <= 2, oks
        with contextlib.closing(Journal(board.journal)) as journal:
            assert journal.record(1).actions == script.record.actions[:8]
    log = (tmp_path / "service.log").read_text()
    assert "Traceback" not in log and log.count("the journal cannot be written: disk full") == 2, log  # once each time
    assert log.count("the journal is written again") == 1


def test_a_disk_turned_read_only_is_told_and_refused_and_nothing_acknowledged_is_lost(tmp_path: Path,
                                                                                      broker: Broker) -> None:
    script = Script(seed=4)
    disk = Ext4(tmp_path / "card.img", tmp_path / "card")
    try:
        with played(tmp_path, broker.port, script, disk.where / "journal.sqlite", 4) as (board, answers):
            disk.fail()
            mark = len(board.op.messages)
            board.send(*script.requests[4])
            assert told_degraded(board, mark, "read-only")["moves"] == 4
            refused = script.ask(board, answers, 5)
            assert refused["ok"] is False and in_english(refused) == \
                f"{script.requests[5][0]}: the journal cannot be written: read-only; nothing was done"
            assert [json.loads(m[1])["ok"] for m in answers.messages if json.loads(m[1])["id"] == "a4"] == [False]
            board.kill()  # the operator reboots: the card is checked and mounted again
            disk.repair()
            state = board.start()
            assert state["moves"] == 4 and state["health"] == {"status": "ok"}
            assert script.ask(board, answers, 4)["ok"] and script.ask(board, answers, 5)["ok"]
        assert [json.loads(m[1])["ok"] for m in answers.messages if json.loads(m[1])["id"] == "a4"] == [False, True]
    finally:
        disk.umount()
    log = (tmp_path / "service.log").read_text()
    assert "Traceback" not in log and log.count("the journal cannot be written: read-only") == 1, log


def test_the_log_says_it_once_a_minute(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Four failed writes a second for five minutes: the log says so once, then once a minute, with
    no traceback; the first write that can be made writes it all."""
    with tmpfs(tmp_path / "disk") as disk, contextlib.closing(Journal(disk / "journal.sqlite")) as journal:
        now = [0.0]
        kept = BoardJournal(journal, "b1", clock=lambda: now[0])
        wiring = Wiring(load_layout("contigo"), "contigo", layout_for=load_layout)
        session = Session(BoardConfig(id="b1"), check_board=wiring.check, fresh_secret=lambda: bytes(32))
        kept.open(session, resume=False)
        session.new_game("contigo", {}, 2, 7)
        assert kept.keep(session)
        filler = fill(disk)
        session.match.resolve_chance()
        caplog.set_level(logging.INFO, "arbitro.journal")
        for _ in range(4 * 300):
            assert not kept.keep(session)
            now[0] += 0.25
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 5 and all(r.exc_info is None for r in errors)  # at 0 s, then after each minute
        assert kept.fault == "the journal cannot be written: disk full" and kept.failures == 1200
        filler.unlink()
        assert kept.keep(session) and kept.fault is None
        with contextlib.closing(sqlite3.connect(disk / "journal.sqlite")) as db:  # on disk, as played
            assert [t for (t,) in db.execute("SELECT text FROM actions ORDER BY n")] == session.match.record.actions


ANSWER_WITHIN_S = 1.0
"""Issue 35: every request in a disk outage is answered within a second (refused with the reason)."""


def twenty_answers(board: Board, script: Script, first: int) -> list[dict[str, Any]]:
    """Twenty requests (the game's next moves, each asked again, and ``state``), one at a time: each
    answered within :data:`ANSWER_WITHIN_S` by the refusal or the degraded state; the answers."""
    answers = []
    for k in range(20):
        command, args = ("state", {}) if k % 4 == 3 else script.requests[first + k % 3]
        start = time.monotonic()
        answer = board.op.request(board.base, command, {**args, "id": f"x{k}"} if "id" in args else args,
                                  timeout=10.0)
        took = time.monotonic() - start
        assert took <= ANSWER_WITHIN_S, f"{command} answered after {took:.2f} s: {answer}"
        if command == "state":
            assert answer["ok"] and answer["result"]["health"]["status"] == "degraded", answer
        else:
            assert answer["ok"] is False and answer["code"] == "teller.nothing_done", answer
        answers.append(answer)
    return answers


def test_a_start_on_a_full_disk_says_degraded_first_and_answers_every_request_at_once(
        tmp_path: Path, broker: Broker) -> None:
    script = Script(seed=3)
    with tmpfs(tmp_path / "disk") as disk, played(tmp_path, broker.port, script, disk / "journal.sqlite", 4) as (
            board, answers):
        board.kill()
        filler = fill(disk)
        starts_degraded_and_recovers(board, script, answers, "disk full", filler.unlink)  # room again
    log = (tmp_path / "service.log").read_text()
    assert "Traceback" not in log and log.count("the journal cannot be written: disk full") == 1, log


def starts_degraded_and_recovers(board: Board, script: Script, answers: Listener, fault: str,
                                 writable: Callable[[], object]) -> None:
    """A start after 4 moves on a disk that cannot be written (``fault``): the first state told
    already says so, twenty requests are answered at once, refused with the reason; once ``writable``
    (room again, remounted) the board is healthy by itself and the game goes on where it was."""
    state = board.start()
    assert state["moves"] == 4 and state["health"] == {
        "status": "degraded", "message": f"the journal cannot be written: {fault}"}, state
    refused = twenty_answers(board, script, 4)
    assert in_english(refused[0]) == f"{script.requests[4][0]}: the journal cannot be written: {fault}; " \
        "nothing was done"
    mark = len(board.op.messages)
    writable()
    assert on(board, "state", lambda s: s["health"] == {"status": "ok"}, mark)["moves"] == 4
    assert script.ask(board, answers, 4)["ok"] and script.ask(board, answers, 5)["ok"]


@pytest.mark.parametrize("stopped", ["power cut", "stopped"])
def test_a_start_on_a_read_only_disk_says_degraded_first_and_answers_every_request_at_once(
        tmp_path: Path, broker: Broker, stopped: str) -> None:
    """The disk turned read-only while the power was off (or mounted so): the game resumes from the
    journal, read only (after a power cut SQLite reads it with its WAL; after a clean stop it opens
    only to read); every request is answered at once; once the disk is writable again the journal is
    opened for writing and the refused moves run."""
    script = Script(seed=4)
    disk = Ext4(tmp_path / "card.img", tmp_path / "card")
    try:
        with played(tmp_path, broker.port, script, disk.where / "journal.sqlite", 4) as (board, answers):
            if stopped == "power cut":
                board.kill()  # the WAL is left as it was
            else:
                assert board.proc is not None
                board.proc.terminate()
                assert board.proc.wait(10) == 0
            subprocess.run(["mount", "-o", "remount,ro", str(disk.where)], check=True)
            starts_degraded_and_recovers(board, script, answers, "read-only", lambda: subprocess.run(
                ["mount", "-o", "remount,rw", str(disk.where)], check=True))
            board.kill()
            assert board.start()["moves"] == 6  # written: a restart resumes after them
    finally:
        disk.umount()
    log = (tmp_path / "service.log").read_text()
    assert "Traceback" not in log and log.count("the journal cannot be written: read-only") == 1, log
    assert "can be written again: opened for writing" in log
    assert ("on a read-only disk: its games are read" in log) == (stopped == "stopped"), log
