"""Seats: each seat at the table or a computer player, from the configuration and ``new_game``,
told in the public state and kept in the journal and the records."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from controller import schemas
from controller.config import Config, ConfigError
from controller.games.record import Record
from controller.journal import SCHEMA, Journal
from tests.test_session import session_for

SEATED = ["bot:hard", "table", "bot:easy"]


def players_errors(state: dict[str, Any]) -> list[str]:
    """What the state schema finds wrong with the state's players (the service adds its time and clock)."""
    return [e.message for e in schemas.validator("state").iter_errors(state) if "players" in list(e.path)]


def test_the_configuration_names_the_seats_and_refuses_an_unknown_one_or_too_many():
    config = Config.from_dict({"board": {"game": "serpientes", "num_players": 3, "seats": SEATED}})
    assert config.board.seats == SEATED
    with pytest.raises(ConfigError, match=r"board\.seats: 'bot:expert' is not a seat; seats are table, bot:easy"):
        Config.from_dict({"board": {"game": "contigo", "seats": ["bot:expert"]}})
    with pytest.raises(ConfigError, match=r"board\.seats: 3 seats named for 2 players"):
        Config.from_dict({"board": {"game": "contigo", "seats": ["table"] * 3}})


def test_the_configured_seats_are_the_first_games_and_shown_in_the_public_state():
    s = session_for("serpientes", num_players=3, seats=["bot:medium"])
    s.serial = 0  # switched on afresh: the configured game starts
    state = s.opened([]).public
    assert state is not None
    assert [p["seat"] for p in state["players"]] == ["bot:medium", "table", "table"]
    assert players_errors(state) == []


def test_new_game_takes_seats_and_the_state_tells_them_within_its_schema():
    s = session_for("contigo")
    ok, answer = s.request("new_game", {"game": "contigo", "seats": ["table", "bot:hard"], "seed": 4}).answer or (0, 0)
    assert ok, answer
    state = s.public_state()
    assert [p["seat"] for p in state["players"]] == ["table", "bot:hard"]
    assert players_errors(state) == []
    assert s.match.record.seats == ["table", "bot:hard"]


@pytest.mark.parametrize("seats,error", [
    (["bot:expert"], "new_game: each of seats must be 'table' or 'bot:easy' or 'bot:medium' or 'bot:hard'"),
    ("bot:hard", "new_game: 'seats' has the wrong type"),
    (["table"] * 3, "seats: 3 seats named for 2 players"),
])
def test_new_game_refuses_seats_it_cannot_seat_and_changes_nothing(seats, error):
    s = session_for("contigo")
    before = s.match
    ok, answer = s.request("new_game", {"seats": seats}).answer or (True, "")
    assert not ok and answer.startswith(error)
    assert s.match is before


def test_the_journal_and_the_records_keep_the_seats(tmp_path):
    journal = Journal(tmp_path / "j.db")
    record = Record.seeded("serpientes", {}, 3, 5)
    record.seats = list(SEATED)
    game_id = journal.start("b", record)
    assert journal.record(game_id).seats == SEATED
    assert Record.from_dict(record.to_dict()).seats == SEATED
    at_the_table = Record.seeded("contigo", {}, 2, 5)
    at_the_table.seats = ["table", "table"]
    assert "seats" not in at_the_table.to_dict()  # a game at the table alone: its record as before seats


def test_a_journal_from_before_seats_gains_the_column_and_its_games_are_played_at_the_table(tmp_path):
    path = tmp_path / "old.db"
    seats = "    seats TEXT  -- who plays each seat (controller.seats), a JSON list; NULL before seats\n"
    assert seats in SCHEMA
    db = sqlite3.connect(path)
    db.executescript(SCHEMA.replace(seats, "").replace("secrets TEXT,", "secrets TEXT"))
    secrets = json.dumps([Record.seeded("contigo", {}, 2, 5).keys[0].secret.hex()])
    db.execute("INSERT INTO games (board, game, options, num_players, seed, secrets) "
               "VALUES ('b', 'contigo', '{}', 2, -1, ?)", (secrets,))
    db.commit()
    db.close()
    record = Journal(path).record(1)
    assert record.seats == []
    s = session_for("contigo")
    s.resume(record)
    assert s.seats == ("table", "table")
