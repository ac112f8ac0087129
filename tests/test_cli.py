"""Ordinary mistakes on the command line end in one clear line on stderr and a non-zero exit,
never a traceback: each test runs the real ``arbitro`` command."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def arbitro(*args: str, stdin: str = "", cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def refused(done: subprocess.CompletedProcess, code: int, words: str) -> str:
    """Assert that ``done`` exited with ``code`` and said one line on stderr containing ``words``."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    assert words in lines[0] and done.returncode == code, (done.returncode, lines[0])
    return lines[0]


@pytest.mark.parametrize(("content", "words"), [
    (None, "missing.json: No such file or directory"),
    ("{not json", "is not JSON"),
    ("[1, 2]", "is not a game record"),
    ('{"game": "contigo"}', "is not a game record: it has no 'options'"),
    ('{"game": "chess", "options": {}, "num_players": 2, "seed": 1, "actions": []}', "unknown game 'chess'"),
])
def test_replay_of_a_missing_or_bad_file_says_so(tmp_path, content, words):
    path = tmp_path / "missing.json"
    if content is not None:
        path.write_text(content)
    refused(arbitro("replay", str(path)), 1, words)


def test_journal_on_a_mistyped_path_says_so_and_creates_nothing(tmp_path):
    path = tmp_path / "jornal.sqlite"
    refused(arbitro("journal", str(path)), 1, f"no journal at {path}")
    assert list(tmp_path.iterdir()) == []


def test_journal_on_a_file_that_is_no_journal_leaves_it_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n")
    refused(arbitro("journal", str(path)), 1, "is not an arbitro journal")
    assert path.read_text() == "not a database\n" and sorted(tmp_path.iterdir()) == [path]


def test_journal_export_of_a_game_it_lacks_says_so(tmp_path):
    from controller.journal import Journal

    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    refused(arbitro("journal", str(path), "--export", "5"), 1, "no game 5 in the journal")


def test_demo_with_more_players_than_the_game_takes_says_so():
    refused(arbitro("demo", "--game", "contigo", "--players", "7", "--headless"), 2,
            "--players 7: contigo: the alignment game is for 2 or 4 players, not 7")


def test_demo_with_an_unreachable_broker_says_so():
    with socket.socket() as bound:  # bound but not listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        done = arbitro("demo", "--game", "contigo", "--headless", "--pace", "0", "--broker", f"127.0.0.1:{port}")
    refused(done, 1, f"cannot reach the MQTT broker at 127.0.0.1:{port}: Connection refused")


def test_demo_with_a_malformed_broker_says_so():
    refused(arbitro("demo", "--game", "contigo", "--headless", "--broker", "localhost"), 2, "--broker localhost")


def test_a_person_typing_a_well_formed_illegal_move_hears_why_and_is_asked_again():
    done = arbitro("demo", "--game", "contigo", "--seat", "0", "--seed", "3", "--headless", "--pace", "0",
                   stdin="a1-a2\n")  # then end of input: the person leaves
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    assert done.returncode == 0 and done.stdout.rstrip().endswith("stopped")
    assert "illegal action a1-a2: the pit n-a governing moves north from a1" in done.stdout
    assert done.stdout.count("your move (") == 2


def test_a_record_with_an_illegal_action_names_it(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": "contigo", "options": {}, "num_players": 2, "seed": 1, "actions": ["zzz"]}))
    assert refused(arbitro("replay", str(path)), 1, "action 1 (zzz) is not legal").startswith("arbitro replay: ")
