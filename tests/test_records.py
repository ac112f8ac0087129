"""Records that say what they prove (issue 35.4): a record marks how each chance outcome was
resolved (drawn from a secret, or entered at the table), says how the game's chance was resolved
and whether the game is over; ``arbitro replay`` refuses a game over whose secret is withheld and
an outcome of an electronic game marked as the table's, says in words what a record proves, and
answers every malformed record with one line, never a traceback. Older records still replay."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.games import CHANCE
from controller.games.record import Match, Record, UnfairRecord, verify
from controller.journal import Journal
from tests.test_fairness import SECRET
from tests.test_fairness import played as played_game

JEOCINCO = ("jeocinco", {"fast": True, "max_rounds": 8}, 2)


def played(*, enter_every: int = 0, seed: int = 1, stop: int | None = None) -> Match:
    """A Jeocinco game of random moves (to the end, or ``stop`` actions); every ``enter_every``-th
    chance outcome entered at the table."""
    return played_game(*JEOCINCO, enter_every=enter_every, seed=seed, stop=stop)


def replay(tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    """``arbitro replay`` of ``data`` (in this process: anything but a one-line refusal escapes as an
    exception and fails the test): its exit code, standard output and its error line."""
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code = main(["replay", *extra, str(path)])
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == (1 if code else 0), err
    return code, out, err.strip()


def test_a_record_marks_each_outcome_and_says_how_chance_was_resolved_and_whether_the_game_is_over() -> None:
    match = played(enter_every=4)
    data = match.record.to_dict(over=True)
    drawn, table = set(data["fair"]["keys"][0]["drawn"]), set(data["fair"]["table"])
    chance = {i for i, state in enumerate(match.history[:-1]) if state.current_player == CHANCE}
    assert drawn and table and drawn | table == chance and not drawn & table
    assert data["fair"]["chance"] == "both" and data["over"] is True
    assert played().record.to_dict()["fair"]["chance"] == "electronic"
    record = Record.from_dict(json.loads(json.dumps(data)))
    assert record == dataclasses.replace(match.record, over=True) and record.said == "both"
    again = Match.new(*JEOCINCO, secret=SECRET)  # an outcome drawn, undone, entered at the table, undone, drawn
    again.resolve_chance()
    again.undo()
    again.apply(again.state.legal_actions()[0])
    assert again.record.table == {0} and again.record.drawn == {}
    again.undo()
    again.resolve_chance()
    assert again.record.table == set() and again.record.drawn == {0: 0}


def test_replay_refuses_a_game_over_whose_secret_is_withheld(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    match = played()
    assert match.state.is_terminal()
    withheld = match.record.to_dict(reveal=False, over=True)
    code, _, err = replay(tmp_path, withheld, capsys)
    assert code == 1 and "unfair chance: the game is over, and its secret is withheld" in err, err
    del withheld["over"]  # the end is in the actions themselves: still refused
    assert replay(tmp_path, withheld, capsys)[0] == 1
    resigned = played(stop=40).record.to_dict(reveal=False, over=True)  # over by a resignation: said by the record
    code, _, err = replay(tmp_path, resigned, capsys)
    assert code == 1 and "its secret is withheld" in err
    code, out, _ = replay(tmp_path, {**resigned, "over": False}, capsys)
    assert code == 0 and "still in play" in out and "wait for the secret to be revealed" in out
    code, out, _ = replay(tmp_path, match.record.to_dict(over=True), capsys)
    assert code == 0 and "game over" in out
    assert "electronic (drawn from the secret)" in out and "So the record proves" in out
    n = len(match.record.drawn)
    assert f"proves {n} of its {n} chance outcomes to be what the committed secret gives." in out


def test_replay_refuses_an_electronic_outcome_marked_as_the_tables_or_unmarked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = played()
    data = match.record.to_dict(over=True)
    i = [i for i in sorted(match.record.drawn) if len(match.history[i].legal_actions()) > 1][2]  # drawn ones before
    state = match.history[i]
    changed = copy.deepcopy(data)  # another roll at node i, the rest of the game cut
    changed["actions"] = [*match.record.actions[:i], next(t for t in map(state.action_to_text, state.legal_actions())
                                                          if t != match.record.actions[i])]
    changed["fair"]["keys"][0]["drawn"] = [j for j in data["fair"]["keys"][0]["drawn"] if j < i]
    changed["over"] = False
    code, _, err = replay(tmp_path, changed, capsys)  # the mark removed (the case: rc 0 before)
    assert code == 1 and f"action {i + 1} ({changed['actions'][i]}) is a chance outcome marked neither" in err, err
    changed["fair"]["table"] = [i]  # ... and marked as the table's, in a game the record says was electronic
    code, _, err = replay(tmp_path, changed, capsys)
    assert code == 1 and f"action {i + 1} ({changed['actions'][i]}) is marked as entered at the table, but the " \
        "record says its chance was electronic" in err, err
    changed["fair"]["chance"] = "both"  # every claim changed to fit: what the record proves is said
    code, out, err = replay(tmp_path, changed, capsys)
    assert code == 0 and "1 entered at the table" in out and "1 are the table's word" in out, err
    changed["fair"]["chance"] = "table"
    code, _, err = replay(tmp_path, changed, capsys)
    assert code == 1 and "says its chance was resolved 'table', but its outcomes are marked 'both'" in err
    changed["fair"].update(table=[], chance="electronic")  # from Python too
    with pytest.raises(UnfairRecord, match=f"action {i + 1} .* marked neither"):
        verify(Record.from_dict(changed))


def test_older_records_without_the_marks_still_read_and_replay(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    data = played(enter_every=4).record.to_dict()
    for name in ("table", "chance"):
        del data["fair"][name]
    record = Record.from_dict(data)
    assert record.table is None and record.over is None
    checks = verify(record)
    assert any(c.key is None for c in checks) and not any(c.table for c in checks)
    code, out, _ = replay(tmp_path, data, capsys)
    assert code == 0 and "not drawn by a secret and not marked (a record from before chance was marked" in out


def test_the_journal_exports_the_marks_and_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = played(enter_every=4)
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    game = journal.start("board1", Record(*JEOCINCO, list(match.record.keys)))  # as the session starts one
    journal.sync(game, match.record)
    journal.finish(game, {"winners": match.state.winners()})
    journal.close()
    assert main(["journal", str(path), "--export", str(game)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["over"] is True and exported["fair"]["chance"] == "both"
    assert set(exported["fair"]["table"]) == match.record.table
    code, out, _ = replay(tmp_path, exported, capsys, "-v")
    assert code == 0 and "electronic and the table's dice" in out and ": entered at the table" in out


def _junk(data: dict[str, Any]) -> list[dict[str, Any]]:
    """``data`` with one field at a time replaced by something no record holds, or removed."""
    values: list[Any] = [None, True, -1, 2**70, 1.5, "x", "", [], [None], ["x"], [-1], [10**6], {}, {"a": 1}, "0" * 64]
    paths: list[tuple[str, ...]] = [("game",), ("options",), ("num_players",), ("actions",), ("seats",), ("over",),
                                    ("takebacks",),
                                    ("fair",), ("fair", "scheme"), ("fair", "keys"), ("fair", "table"),
                                    ("fair", "chance"), ("fair", "keys", "0"), ("fair", "keys", "0", "commitment"),
                                    ("fair", "keys", "0", "secret"), ("fair", "keys", "0", "drawn"),
                                    ("options", "fast"), ("options", "max_rounds"), ("actions", "0")]
    out = []
    for where in paths:
        for value in [*values, ...]:  # ...: the field removed
            changed = copy.deepcopy(data)
            holder: Any = changed
            for step in where[:-1]:
                holder = holder[int(step)] if isinstance(holder, list) else holder[step]
            last: Any = int(where[-1]) if isinstance(holder, list) else where[-1]
            if value is ...:
                holder.pop(last) if isinstance(holder, list) else holder.pop(last, None)
            else:
                holder[last] = value
            out.append(changed)
    return out


def test_every_malformed_record_is_one_line_never_a_traceback(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = played(enter_every=4, stop=60).record.to_dict(over=False)
    short = copy.deepcopy(data)
    short["fair"]["keys"][0]["secret"] = bytes(15).hex()  # the 15-byte secret: a ValueError traceback before
    code, _, err = replay(tmp_path, short, capsys)
    assert code == 1 and "its secret has 15 bytes; a chance secret has at least 16" in err, err
    refused = 0
    for changed in _junk(data):
        code, _, err = replay(tmp_path, changed, capsys)  # raises (fails the test) on anything but one line
        refused += code != 0
        assert "Traceback" not in err
    assert refused > 200


def test_arbitro_replay_of_a_short_secret_says_so_in_one_line(tmp_path: Path) -> None:
    data = played(stop=20).record.to_dict()
    data["fair"]["keys"][0]["secret"] = bytes(15).hex()
    (tmp_path / "short.json").write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "short.json")],
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr and done.returncode == 1, done.stderr[-3000:]
    assert done.stderr.count("\n") == 1 and "its secret has 15 bytes" in done.stderr


def test_replay_checks_every_computer_move_against_its_level_and_seed(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35: once the secret is revealed, ``arbitro replay`` works out every computer player's
    move from its seat's views and ``decision_seed``, and names one that is not the computer's."""
    from tests.test_seats import bot_game, decide
    from tests.test_session import show

    s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"])
    for _ in range(12):
        decide(s, outcome)
        show(s, s.expected_view())
        outcome = s.judge()
    assert s.request("resign", {"player": 0}).answer == (True, {"resigned": 0})
    data = s.match.record.to_dict(over=True)
    code, out, err = replay(tmp_path, data, capsys)
    moves = sum(1 for text in s.match.public_log if not text.startswith(("start", "first")))
    assert code == 0, err
    assert "computer players: " in out and "moves are the ones their level and seed give" in out
    # Another legal move put in place of the computer's last one: named.
    match = s.match
    last = max(i for i, state in enumerate(match.history[:-1]) if state.current_player >= 0)
    state = match.history[last]
    other = next(state.action_to_text(a) for a in state.legal_actions()
                 if state.action_to_text(a) != match.record.actions[last])
    changed = {**data, "actions": [*data["actions"][:last], other], "over": False}
    changed["fair"] = {**data["fair"], "keys": [{**k, "drawn": [i for i in k["drawn"] if i < last]}
                                                 for k in data["fair"]["keys"]]}
    code, _, err = replay(tmp_path, changed, capsys)
    assert code == 1 and f"action {last + 1} ({other}) is not the move of seat" in err, err
    assert moves > 10
