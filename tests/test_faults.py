"""Faults an operator meets: another game asked for while the sensor board is away, a journal from
another board's game, a journal that cannot be read, a journal path that holds no journal, a
request delivered twice."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games import get_game
from controller.games.record import Match, Record
from controller.journal import Journal
from controller.localbroker import Broker
from hardware.leds import LedStrip, RecordingPixels
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service
from tests.support.table import Table


def test_another_game_while_the_sensor_board_is_away_is_refused_and_the_game_goes_on(broker: Broker) -> None:
    service = mqtt_service("contigo", "away1", broker.port, seed=3)  # no sensor link: no HELLO yet
    op = Listener(broker.port, ["arbitro/away1/#"])
    try:
        answer = op.request("arbitro/away1", "new_game", {"id": "n1", "game": "jeocinco"})
        assert answer["ok"] is False
        assert "Jeocinco needs its own board" in answer["error"] and "sensor link is down" in answer["error"]
        assert service.running() and service.call(lambda: service.session.game.name) == "contigo"
        answer = op.request("arbitro/away1", "roll", {"id": "r1"})
        assert answer["ok"] is True, answer
        frame = service.call(lambda: service.strip.last)
        assert frame is not None and len(frame) == service.wiring.layout.led_count
    finally:
        op.close()
        service.stop()


def test_a_strip_opens_again_for_another_boards_led_count() -> None:
    strip = LedStrip(RecordingPixels(4), make=lambda n: RecordingPixels(n))
    strip.show([(1, 2, 3)] * 4)
    assert strip.can_show(7)
    strip.resize(7)
    assert strip.n == 7 and strip.show([(0, 0, 9)] * 7) and len(strip.pixels.transmitted[-1]) == 21
    fixed = LedStrip(RecordingPixels(4))
    assert not fixed.can_show(7) and fixed.can_show(4)


def test_a_journal_game_that_does_not_fit_the_board_is_set_aside_with_a_warning(tmp_path: Path, broker: Broker) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    match = Match(Record.seeded("jeocinco", get_game("jeocinco").options({}), 2, 5))
    match.resolve_chance()
    game_id = journal.start("t-contigo", match.record)
    journal.close()
    listener = Listener(broker.port, ["arbitro/t-contigo/events"])
    try:
        with Table("contigo", seed=4, journal=str(path), mqtt_port=broker.port) as table:
            assert table.service.session.game.name == "contigo" and table.moves == 0
            warning = json.loads(listener.wait_for(lambda m: b'"warning"' in m[1])[1])
            assert f"unfinished jeocinco game {game_id}" in warning["message"]
            assert "set aside" in warning["message"]
    finally:
        listener.close()
    games = {g["id"]: g for g in Journal(path).games()}
    assert games[game_id]["finished"] and games[game_id]["result"]["abandoned"]
    # And the next start resumes the Contigo game, not the Jeocinco one: no crash loop.
    with Table("contigo", seed=4, journal=str(path)) as table:
        assert table.service.session.game.name == "contigo"


def damaged_database(path: Path) -> bytes:
    """A real SQLite file (the header, a table) whose pages are then overwritten: what a card
    that lost power mid-write may hold. Returns its bytes."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (x)")
        db.executemany("INSERT INTO games VALUES (?)", [("x" * 500,)] * 200)
    db.close()
    data = bytearray(path.read_bytes())
    data[5000:9000] = b"\xff" * 4000
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_journal_that_cannot_be_read_is_moved_aside_and_a_fresh_one_started(tmp_path: Path, broker: Broker) -> None:
    path = tmp_path / "journal.sqlite"
    content = damaged_database(path)
    listener = Listener(broker.port, ["arbitro/t-contigo/events"])
    try:
        with Table("contigo", seed=2, journal=str(path), mqtt_port=broker.port) as table:
            table.play(random.Random(1).choice(table.state.legal_actions()))
            warning = json.loads(listener.wait_for(lambda m: b'"warning"' in m[1])[1])
            assert "could not be read" in warning["message"] and "journal.sqlite.corrupt-1" in warning["message"]
    finally:
        listener.close()
    assert (tmp_path / "journal.sqlite.corrupt-1").read_bytes() == content
    assert Journal(path).games()[0]["actions"] == 1


def test_an_empty_file_becomes_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.touch()
    with Table("contigo", seed=2, journal=str(path)) as table:
        table.play(random.Random(1).choice(table.state.legal_actions()))
    assert Journal(path).games()[0]["actions"] == 1 and not list(tmp_path.glob("*.corrupt-*"))


def not_a_journal(kind: str, tmp_path: Path, config: Path) -> Path:
    """Something ``journal.path`` may name by mistake, made in ``tmp_path``: its path."""
    path = tmp_path / kind
    if kind == "char-device":  # a node of the null device, like /dev/null (which is never touched)
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    elif kind == "config-file":
        return config
    elif kind == "text-file":
        path.write_text("notes of the organiser\n" * 20)
    elif kind == "other-database":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE players (name TEXT)")
            db.execute("INSERT INTO players VALUES ('Ana')")
        db.close()
    return path


def what_is_at(path: Path) -> tuple[int, int, int, bytes | list[str] | None]:
    info = os.lstat(path)
    content = path.read_bytes() if stat.S_ISREG(info.st_mode) else sorted(os.listdir(path)) \
        if stat.S_ISDIR(info.st_mode) else None
    return stat.S_IFMT(info.st_mode), info.st_rdev, info.st_ino, content


@pytest.mark.parametrize("kind", ["char-device", "fifo", "directory", "config-file", "text-file", "other-database"])
def test_a_journal_path_that_holds_no_journal_is_a_one_line_error_and_is_left_as_it_is(tmp_path: Path,
                                                                                        kind: str) -> None:
    config = tmp_path / "config.toml"
    path = not_a_journal(kind, tmp_path, config)
    config.write_text(f"""
[board]
id = "paths"
[sensors]
url = "none"
[inputs]
enabled = false
[mqtt]
enabled = false
[journal]
path = "{path}"
""")
    before = what_is_at(path)
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"arbitro run took {kind} for a journal and kept running")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"arbitro run: journal.path: cannot use {path} as the journal: "), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert what_is_at(path) == before  # not renamed, not replaced, not written
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({path.name, config.name}), "nothing else was made"


def test_a_request_repeated_with_its_id_runs_once_also_after_a_restart(tmp_path: Path, broker: Broker) -> None:
    path = str(tmp_path / "journal.sqlite")
    op = Listener(broker.port, ["arbitro/t-contigo/events"])
    try:
        with Table("contigo", seed=6, journal=path, mqtt_port=broker.port) as table:
            first = op.request("arbitro/t-contigo", "roll", {"id": "roll-1"})
            again = op.request("arbitro/t-contigo", "roll", {"id": "roll-1"})
            assert first["ok"] and again == first
            assert table.moves == 1
            refused = op.request("arbitro/t-contigo", "undo", {"id": "u-1", "x": 1})
            assert refused["ok"] is False
        with Table("contigo", seed=6, journal=path, mqtt_port=broker.port) as table:
            assert op.request("arbitro/t-contigo", "roll", {"id": "roll-1"}) == first
            assert op.request("arbitro/t-contigo", "undo", {"id": "u-1", "x": 1}) == refused
            assert table.moves == 1
            assert op.request("arbitro/t-contigo", "undo", {"id": "u-2"})["ok"]  # a new id runs
            assert table.moves == 0
    finally:
        op.close()
    chances = [e for e in op.json_on("arbitro/t-contigo/events") if e["type"] == "chance"]
    assert len(chances) == 1


def test_a_request_id_names_a_request_of_one_game_only(tmp_path: Path, broker: Broker) -> None:
    path, base = str(tmp_path / "journal.sqlite"), "arbitro/t-contigo"
    op = Listener(broker.port, [f"{base}/events"])
    try:
        with Table("contigo", seed=6, journal=path, mqtt_port=broker.port) as table:
            assert op.request(base, "roll", {"id": "r1"})["ok"] and table.moves == 1
            started = op.request(base, "new_game", {"id": "n1"})
            assert started["ok"] and op.request(base, "new_game", {"id": "n1"}) == started  # no second new game
            assert table.moves == 0
            again = op.request(base, "roll", {"id": "r1"})  # the id of the last game: a request of this one
            assert again["ok"] and table.moves == 1
        with Table("contigo", seed=6, journal=path, mqtt_port=broker.port) as table:
            # The same game goes on after the restart: its answers hold, its requests run once.
            assert op.request(base, "new_game", {"id": "n1"}) == started
            assert op.request(base, "roll", {"id": "r1"}) == again and table.moves == 1
            assert op.request(base, "new_game", {"id": "n2"})["ok"] and table.moves == 0
            assert op.request(base, "roll", {"id": "r1"})["ok"] and table.moves == 1
    finally:
        op.close()
    assert [e["type"] for e in op.json_on(f"{base}/events")].count("new_game") == 2
    assert [g["actions"] for g in Journal(path).games()] == [1, 1, 1]
