"""Ordinary mistakes on the command line end in one clear line on stderr and a non-zero exit,
never a traceback: each test runs the real ``arbitro`` command."""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def arbitro(*args: str, stdin: str = "", cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def refused(done: subprocess.CompletedProcess[str], code: int, words: str) -> str:
    """Assert that ``done`` exited with ``code`` and said one line on stderr containing ``words``."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    lines: list[str] = done.stderr.strip().splitlines()
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
def test_replay_of_a_missing_or_bad_file_says_so(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "missing.json"
    if content is not None:
        path.write_text(content)
    refused(arbitro("replay", str(path)), 1, words)


def test_journal_on_a_mistyped_path_says_so_and_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "jornal.sqlite"
    refused(arbitro("journal", str(path)), 1, f"no journal at {path}")
    assert list(tmp_path.iterdir()) == []


def test_journal_on_a_file_that_is_no_journal_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n")
    refused(arbitro("journal", str(path)), 1, "is not an arbitro journal")
    assert path.read_text() == "not a database\n" and sorted(tmp_path.iterdir()) == [path]


def test_journal_export_of_a_game_it_lacks_says_so(tmp_path: Path) -> None:
    from controller.journal import Journal

    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    refused(arbitro("journal", str(path), "--export", "5"), 1, "no game 5 in the journal")


def test_demo_with_more_players_than_the_game_takes_says_so() -> None:
    refused(arbitro("demo", "--game", "contigo", "--players", "7", "--headless"), 2,
            "--players 7: contigo: the alignment game is for 2 or 4 players, not 7")


def test_demo_with_an_unreachable_broker_says_so() -> None:
    with socket.socket() as bound:  # bound but not listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        done = arbitro("demo", "--game", "contigo", "--headless", "--pace", "0", "--broker", f"127.0.0.1:{port}")
    refused(done, 1, f"cannot reach the MQTT broker at 127.0.0.1:{port}: Connection refused")


def test_demo_with_a_malformed_broker_says_so() -> None:
    refused(arbitro("demo", "--game", "contigo", "--headless", "--broker", "localhost"), 2, "--broker localhost")


def test_a_person_typing_a_well_formed_illegal_move_hears_why_and_is_asked_again() -> None:
    done = arbitro("demo", "--game", "contigo", "--seat", "0", "--seed", "3", "--headless", "--pace", "0",
                   stdin="a1-a2\n")  # then end of input: the person leaves
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    assert done.returncode == 0 and done.stdout.rstrip().endswith("detenida")  # the players' language
    assert "jugada no permitida a1-a2: el hoyo n-a, que gobierna los movimientos hacia el norte desde a1" in done.stdout
    assert done.stdout.count("tu jugada (") == 2


def test_a_record_with_an_illegal_action_names_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": "contigo", "options": {}, "num_players": 2, "seed": 1, "actions": ["zzz"]}))
    assert refused(arbitro("replay", str(path)), 1, "action 1 (zzz) is not legal").startswith("arbitro replay: ")


# -- issue 19.9: one clear line, and nothing left running ----------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["--listen", "127.0.0.1:999999"], "arbitro display: --listen 127.0.0.1:999999: expected HOST:PORT"),
    (["--broker", "localhost:http"], "arbitro display: --broker localhost:http: expected HOST:PORT"),
    (["--tls-ca", "/nonexistent.pem"], "arbitro display: --tls-ca /nonexistent.pem: No such file or directory"),
    (["--base-topic", "arbitro/#"], "arbitro display: --base-topic: must not hold '#'"),
])
def test_the_display_refuses_a_bad_option_in_one_line(args: list[str], words: str) -> None:
    refused(arbitro("display", *args), 2, words)


def test_the_display_refuses_an_invalid_tls_ca_file_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ca.pem"
    path.write_text("not a certificate\n")
    refused(arbitro("display", "--tls-ca", str(path)), 2, f"--tls-ca {path}: holds no CA certificate (PEM)")


def test_the_display_on_a_port_in_use_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = arbitro("display", "--listen", f"127.0.0.1:{port}")
    refused(done, 1, f"arbitro display: cannot serve the pages on 127.0.0.1:{port}: Address already in use")


def test_sim_on_a_port_out_of_range_or_in_use_says_so() -> None:
    refused(arbitro("sim", "--tcp", "99999999"), 2, "arbitro sim: --tcp 99999999: a TCP port is 0..65535")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = arbitro("sim", "--tcp", str(port))
    refused(done, 1, f"arbitro sim: cannot serve on 127.0.0.1:{port}: Address already in use")


def test_a_demo_whose_display_cannot_start_says_so_and_stops_its_broker(tmp_path: Path) -> None:
    from tests.test_demo import processes_mentioning

    done = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "--game", "contigo",
                           "--display", "nonsense"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert "private Mosquitto on " in done.stdout  # it had started
    refused(done, 2, "arbitro demo: --display nonsense: cannot serve the display there: ")
    assert processes_mentioning(tmp_path) == [] and list(tmp_path.iterdir()) == []


# -- issue 19.10: words, not Python ---------------------------------------------------------------


def test_games_lists_every_option_with_its_default_and_the_values_it_takes() -> None:
    from controller.games import all_games

    done = arbitro("games")
    assert done.returncode == 0 and "False" not in done.stdout and "True" not in done.stdout, done.stdout
    lines = done.stdout.splitlines()
    assert "jeocinco: Jeocinco, 2 to 4 players (2 unless told)" in lines
    for game in all_games():
        for option in game.option_schema:
            line = next(line for line in lines if line.split()[:1] == [option.name] and option.doc in line)
            assert line.startswith("  "), line
    assert any(line.split()[:5] == ["fast", "false", "true", "or", "false:"] for line in lines)
    assert any(line.split()[:4] == ["game", "alignment", "alignment", "or"] for line in lines)
    assert any(line.split()[:7] == ["max_rounds", "100", "a", "whole", "number", "from", "1"] for line in lines)


def test_players_help_states_each_games_default() -> None:
    from controller.games import game_names, get_game

    done = arbitro("demo", "--help")
    said = " ".join(done.stdout.split())
    defaults = ", ".join(f"{get_game(name).players()} for {name}" for name in game_names())
    assert f"number of players (default: {defaults})" in said, said


def test_a_mistyped_demo_option_shows_the_demos_usage() -> None:
    done = arbitro("demo", "--gmae", "contigo")
    assert done.returncode == 2 and done.stderr.startswith("usage: arbitro demo "), done.stderr
    assert done.stderr.rstrip().endswith("arbitro demo: error: unrecognized arguments: --gmae contigo")


def test_help_in_seat_play_lists_the_legal_moves() -> None:
    done = arbitro("demo", "--game", "contigo", "--seat", "0", "--seed", "3", "--headless", "--pace", "0",
                   "--no-display", "--language", "en", stdin="help\n")
    assert done.returncode == 0, done.stderr[-3000:]
    asked = re.search(r"your move \((\d+) legal, e\.g\. ([^;]*);", done.stdout)
    assert asked, done.stdout[-2000:]
    listed = re.search(rf"the {asked[1]} legal moves: (.*)", done.stdout)
    assert listed, done.stdout[-2000:]
    moves = listed[1].split(", ")
    assert len(moves) == int(asked[1]) and asked[2].split(", ")[0] in moves


def test_run_names_the_broker_it_cannot_reach_yet(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    with socket.socket() as bound:  # bound but not listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        config.write_text(f"[mqtt]\nport = {port}\n[sensors]\nurl = 'none'\n[inputs]\npin_factory = 'mock'\n")
        run = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                               stderr=subprocess.PIPE, text=True)
        assert run.stderr is not None
        try:
            for line in run.stderr:
                if "not reachable" in line:
                    break
        finally:
            run.terminate()
            run.communicate(timeout=30)
    assert f"MQTT broker 127.0.0.1:{port} is not reachable" in line, line


# -- issue 19.11: a version ------------------------------------------------------------------------


def test_version_says_the_installed_one() -> None:
    from importlib.metadata import version

    done = arbitro("--version")
    assert done.returncode == 0 and done.stdout == f"arbitro {version('arbitro')}\n", done


def test_remote_bridge_prints_the_bridge_of_the_configuration(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[board]\nid = "a"\n[remote]\npeer = "b"\naddress = "b.local:8883"\nusername = "remote-a"\n'
                      'password = "pw"\ncafile = "/etc/mosquitto/certs/b-ca.crt"\n')
    assert main(["remote-bridge", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    for line in ("address b.local:8883", "topic arbitro/a/remote/# out 1", "topic arbitro/b/remote/# in 1",
                 "bridge_cafile /etc/mosquitto/certs/b-ca.crt", "remote_username remote-a", "cleansession false"):
        assert line in out.splitlines(), line
    config.write_text('[board]\nid = "a"\n')
    assert main(["remote-bridge", "--config", str(config)]) == 2
    assert "[remote] peer and address" in capsys.readouterr().err



def test_what_was_silently_accepted_is_one_line_now(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """Issue 38: an unknown option is named as such; a remote bridge address that is no HOST:PORT
    is refused; --click without --seat is refused; a peer with no address is warned about."""
    import logging

    from controller.app import build_service
    from controller.cli import main
    from controller.config import Config, ConfigError
    from controller.demo import add_arguments, run

    with pytest.raises(SystemExit):
        main(["--verison"])
    assert "unrecognized arguments: --verison" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([])
    assert "a COMMAND is needed" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"remote\.address: 'nonsense' is not HOST:PORT"):
        Config.from_dict({"board": {"id": "a"}, "remote": {"peer": "b", "address": "nonsense"}})
    demo = argparse.ArgumentParser()
    add_arguments(demo)
    assert run(demo.parse_args(["--click", "--headless", "--no-display"])) == 2
    assert "--click plays a seat by clicking on its page: name the seat with --seat N" in capsys.readouterr().err
    config = Config.from_dict({"board": {"id": "a"}, "remote": {"peer": "b"}, "mqtt": {"enabled": False},
                               "sensors": {"url": "none"}, "inputs": {"enabled": False}, "leds": {"backend": "sim"}})
    with caplog.at_level(logging.WARNING, logger="arbitro"):
        build_service(config)
    assert any("peer b has no address here" in r.getMessage() for r in caplog.records)
