"""Seats: each seat at the table or a computer player, from the configuration and ``new_game``,
told in the public state and kept in the journal and the records."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller import players, schemas
from controller.config import Config, ConfigError
from controller.games.record import Record
from controller.journal import SCHEMA, Journal
from controller.seats import named
from controller.session import Decide, Outcome, Session
from tests.test_session import session_for, show, verdict_of

SEATED = ["bot:hard", "table", "bot:easy"]


def players_errors(state: dict[str, Any]) -> list[str]:
    """What the state schema finds wrong with the state's players (the service adds its time and clock)."""
    return [e.message for e in schemas.validator("state").iter_errors(state) if "players" in list(e.path)]


def test_the_configuration_names_the_seats_and_refuses_an_unknown_one_or_too_many() -> None:
    config = Config.from_dict({"board": {"game": "serpientes", "num_players": 3, "seats": SEATED}})
    assert config.board.seats == SEATED
    with pytest.raises(ConfigError, match=r"board\.seats: 'bot:expert' is not a seat; seats are table, bot:easy"):
        Config.from_dict({"board": {"game": "contigo", "seats": ["bot:expert"]}})
    with pytest.raises(ConfigError, match=r"board\.seats: 3 seats named for 2 players"):
        Config.from_dict({"board": {"game": "contigo", "seats": ["table"] * 3}})


def test_the_configured_seats_are_the_first_games_and_shown_in_the_public_state() -> None:
    s = session_for("serpientes", num_players=3, seats=["bot:medium"])
    s.serial = 0  # switched on afresh: the configured game starts
    state = s.opened([]).public
    assert state is not None
    assert [p["seat"] for p in state["players"]] == ["bot:medium", "table", "table"]
    assert players_errors(state) == []


def test_new_game_takes_seats_and_the_state_tells_them_within_its_schema() -> None:
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
def test_new_game_refuses_seats_it_cannot_seat_and_changes_nothing(seats: list[str], error: str) -> None:
    s = session_for("contigo")
    before = s.match
    ok, answer = s.request("new_game", {"seats": seats}).answer or (True, "")
    assert not ok and answer.startswith(error)
    assert s.match is before


def test_the_journal_and_the_records_keep_the_seats(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.db")
    record = Record.seeded("serpientes", {}, 3, 5)
    record.seats = list(SEATED)
    game_id = journal.start("b", record)
    assert journal.record(game_id).seats == SEATED
    assert Record.from_dict(record.to_dict()).seats == SEATED
    at_the_table = Record.seeded("contigo", {}, 2, 5)
    at_the_table.seats = named(["table", "table"])
    assert "seats" not in at_the_table.to_dict()  # a game at the table alone: its record as before seats
    s = session_for("contigo")
    assert s.request("new_game", {"seats": ["table", "table"]}).answer is not None
    assert "seats" not in s.match.record.to_dict() and s.seats == ("table", "table")


def test_a_journal_from_before_seats_gains_the_column_and_its_games_are_played_at_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    seats = ("    seats TEXT,  -- who plays each seat (controller.seats), a JSON list; NULL before seats\n"
             "    started REAL,  -- when the game began (Unix time); NULL before game records (docs/records.md)\n"
             "    position TEXT  -- the position text the game began from (Record.position); NULL: the game's "
             "initial state\n")
    assert seats in SCHEMA  # the columns after secrets (games.started and position came later still)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA.replace(seats, "").replace("secrets TEXT,", "secrets TEXT"))
    secrets = json.dumps([bytes(Record.seeded("contigo", {}, 2, 5).keys[0].secret or b"").hex()])
    db.execute("INSERT INTO games (board, game, options, num_players, seed, secrets) "
               "VALUES ('b', 'contigo', '{}', 2, -1, ?)", (secrets,))
    db.commit()
    db.close()
    record = Journal(path).record(1)
    assert record.seats == []
    s = session_for("contigo")
    s.resume(record)
    assert s.seats == ("table", "table")


def decide(s: Session, outcome: Outcome) -> Outcome:
    """What the loop does with a :class:`Decide`: the computer player decides from the seat's views
    alone (on a thread in the service; here at once), and the session takes its answer."""
    asks = [e for e in outcome.effects if isinstance(e, Decide)]
    assert len(asks) == 1, outcome.effects
    ask = asks[0]
    decision = players.decide(ask.game, ask.options, ask.public_view, ask.private_view, ask.seat, ask.level,
                              random.Random(ask.seed))
    return s.decided(ask.moves, decision.text, ask.hint)


def bot_game(game: str, seats: list[str], **board: Any) -> tuple[Session, Outcome]:
    """A game with these seats, at the first decision of a computer player (chance rolled at once)."""
    s = session_for(game, chance="auto", **board)
    outcome = s.request("new_game", {"seats": seats, "seed": 11, **board})
    assert outcome.answer is not None and outcome.answer[0], outcome.answer
    return s, outcome


def test_a_computer_players_move_is_announced_lit_and_taken_once_the_table_carries_it_out() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    assert s.state.current_player == 0
    told = decide(s, outcome)
    expected = [e for e in told.events if e["type"] == "expected"]
    assert len(expected) == 1 and expected[0]["code"] == "table.carry_out" and expected[0]["player"] == 0
    move = expected[0]["action"]
    assert told.scene is not None and told.scene.carry_out and not told.scene.targets
    after = s.expected_view()
    assert set(told.scene.place) == {c for c, v in after.items() if v > s.sensed.get(c, 0)}
    assert s.decisions and s.decisions[0].text  # kept in the journal before it is shown (the loop's order)
    show(s, after)
    judged = s.judge()
    assert verdict_of(judged) == "applied"
    action = [e for e in judged.events if e["type"] == "action"]
    assert action[0]["by"] == "bot" and action[0]["action"] == move
    assert s.expected is None
    # The computer's next decision (the rest of its turn, or the next time its seat acts) is asked for.
    again = [e for e in judged.effects if isinstance(e, Decide)]
    assert bool(again) == (s.state.current_player == 0)


def test_another_board_than_the_computers_move_is_a_violation_saying_what_it_played() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    decide(s, outcome)
    assert s.expected is not None
    computer = s.expected.text
    other = next(a for a in s.state.legal_actions() if s.state.action_to_text(a) != computer)
    wrong = s.state.apply(other).physical_view()
    show(s, wrong)
    judged = s.judge(settled=True)
    assert verdict_of(judged) == "violation"
    assert judged.public is not None
    said = judged.public["violation"]
    assert said["code"] == "table.played" and said["message"].startswith(
        f"the computer decided: {s.game.action_words(computer, s.expected.player).text}; ")  # in words
    assert len(s.match.record.actions) == s.expected.moves  # nothing was taken
    show(s, s.expected_view())
    assert verdict_of(s.judge()) == "applied"


def test_a_hint_is_lit_in_the_carry_out_pattern_and_kept_in_the_journal_as_a_hint(tmp_path: Path) -> None:
    s, _ = bot_game("contigo", ["table", "bot:easy"])
    asked = s.request("hint", {})
    assert asked.answer == (True, {"player": 0})
    told = decide(s, asked)
    hint = [e for e in told.events if e["type"] == "hint"]
    assert len(hint) == 1 and hint[0]["player"] == 0
    assert told.scene is not None and told.scene.carry_out
    journal = Journal(tmp_path / "j.db")
    game_id = journal.start("b", s.match.record)
    journal.decide(game_id, s.decisions)
    kept = journal.decision(game_id, len(s.match.record.actions), hint=True)
    assert kept is not None and kept.hint and kept.text == s.decisions[0].text
    assert journal.decision(game_id, len(s.match.record.actions)) is None  # a hint is no computer's move
    show(s, s.expected_view())
    judged = s.judge()
    assert verdict_of(judged) == "applied" and [e["by"] for e in judged.events if e["type"] == "action"] == ["board"]


def test_the_same_seed_replays_the_same_computer_moves() -> None:
    def moves() -> list[str]:
        s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"])
        played = []
        for _ in range(6):
            decide(s, outcome)
            assert s.expected is not None
            played.append(s.expected.text)
            show(s, s.expected_view())
            outcome = s.judge()
            assert verdict_of(outcome) == "applied"
        return played

    assert moves() == moves()


def test_a_computers_decision_is_seeded_by_the_secret_not_by_what_is_public() -> None:
    """Issue 35: a decision seeded by the public commitment and move number let anyone watching work
    out the computer's reply. It is keyed by the chance secret now: nothing public names or gives it,
    and once the game is over the revealed secret checks it (``decision_seed``)."""
    from controller.seats.computer import decision_seed

    s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"])
    key = s.match.key
    assert key is not None and key.secret is not None
    seen = 0
    for _ in range(6):
        ask = next(e for e in outcome.effects if isinstance(e, Decide))
        public = json.dumps(s.public_state())
        assert ask.seed == decision_seed(key.secret, ask.moves)
        assert ask.seed not in public and key.secret.hex() not in public
        assert ask.seed != f"{s.fairness()['commitment']}:{ask.moves}"  # the old, public recipe
        decide(s, outcome)
        show(s, s.expected_view())
        outcome = s.judge()
        seen += 1
    assert seen == 6
