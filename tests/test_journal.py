"""The journal: a power cut mid-game loses nothing; the game resumes where it was, the dice come out
as they would have, a finished game (a resignation too) is shown as it ended, the table settings
``configure`` changed hold, and finished games export as records that ``arbitro replay``
re-referees."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from controller.games import CHANCE, TERMINAL
from controller.games.record import Match, Record
from controller.journal import Journal
from controller.journal_files import WAL_ROOM
from controller.localbroker import Broker
from hardware.inputs import ButtonEvent
from tests.support.mqttc import Listener
from tests.support.table import Table

BASE = "arbitro/t-contigo"


def play(table: Table, rng: random.Random, n: int) -> None:
    for _ in range(n):
        table.play(rng.choice(table.state.legal_actions()))


def test_a_power_cut_mid_game_resumes_where_it_was_with_the_same_dice(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    rng = random.Random(3)
    with Table("contigo", seed=7, journal=path) as table:
        play(table, rng, 9)
        before = table.state.to_text()
        record = Record.from_dict(table.service.session.match.record.to_dict())
    # The power comes back: the service reads the journal and carries on.
    with Table("contigo", seed=99, journal=path) as table:
        assert table.state.to_text() == before
        assert table.service.session.match.record.actions == record.actions
        assert table.service.session.match.record.keys == record.keys
        table.idle()
        assert table.verdict.kind in ("in_sync", "applied")
        play(table, rng, 6)
        after = table.service.session.match.record.actions
    # The same seed and actions, uninterrupted, give the same game: chance drew the same outcomes.
    replay = Match(Record.seeded("contigo", record.options, record.num_players, 7, after[: len(record.actions)]))
    for text in after[len(record.actions):]:
        if replay.state.current_player == CHANCE:
            replay.resolve_chance()
            assert replay.record.actions[-1] == text
        else:
            replay.apply_text(text)


def test_a_move_made_as_the_power_went_is_taken_again_from_the_board(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    rng = random.Random(5)
    with Table("contigo", seed=2, journal=path) as table:
        play(table, rng, 5)
        while table.state.current_player == CHANCE:
            play(table, rng, 1)
        action = rng.choice(table.state.legal_actions())
        text = table.state.action_to_text(action)
        table.play(action)
        done = list(table.service.session.match.record.actions)
        assert table.service.kept is not None and table.service.kept.game_id is not None
        game_id = table.service.kept.game_id
    journal = Journal(path)
    stored = journal.record(game_id)
    stored.actions.pop()
    journal.sync(game_id, stored)  # the last write never reached the disk
    journal.close()
    with Table("contigo", seed=2, journal=path) as table:
        # The table starts from the journal's position, but the board still shows the move made.
        options = table.service.session.match.record.options
        board = Match(Record.seeded("contigo", options, 2, 2, done)).state.physical_view()
        table.hands.set_channels({c: v for c, v in board.items() if table.state.physical_view()[c] != v})
        table.wait(lambda s: len(s.match.record.actions) == len(done), f"the referee to take {text} again")
        assert table.service.session.match.record.actions == done


def test_a_board_changed_while_the_power_was_off_is_shown_as_the_setup_to_put_right(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    rng = random.Random(4)
    with Table("contigo", seed=4, journal=path) as table:
        play(table, rng, 4)
        view = table.state.physical_view()
    occupied = next(c for c, v in view.items() if c.startswith("sq:") and v)
    with Table("contigo", journal=path, moved={occupied: 0}) as table:
        verdict = table.verdict
        assert verdict.kind == "setup" and verdict.channels == (occupied,)
        assert f"a piece is missing at {occupied[3:]}" in verdict.message
        table.hands.set_channels({occupied: view[occupied]})
        table.idle()
        assert table.verdict.kind == "in_sync" and table.moves == 4


def test_finished_games_export_as_records_that_replay_re_referees(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    rng = random.Random(1)
    with Table("contigo", seed=1, journal=path) as table:
        while not table.state.is_terminal():
            play(table, rng, 1)
        table.idle()
        winners = table.state.winners()
        named = " and ".join(table.state.player_name(w) for w in winners)
    listing = subprocess.run([sys.executable, "-m", "controller.cli", "journal", path],
                             capture_output=True, text=True, check=True).stdout
    assert f"contigo        126 actions  {named} won (points " in listing, listing  # in words, seats from 1
    exported = subprocess.run([sys.executable, "-m", "controller.cli", "journal", path, "--export", "1",
                               "--event", "Club night"], capture_output=True, text=True, check=True).stdout
    assert json.loads(exported)["result"]["winners"] == [w + 1 for w in winners]
    assert json.loads(exported)["event"] == "Club night"
    (tmp_path / "game.json").write_text(exported)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "game.json")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and f"game over; winners {winners}" in done.stdout
    record = json.loads(exported)
    record["actions"][3] = record["actions"][2]  # a tampered record is refused
    (tmp_path / "bad.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "bad.json")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "action 4" in done.stderr


def test_a_finished_game_is_shown_after_a_restart_until_a_new_game_starts(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    rng = random.Random(1)
    with Table("contigo", seed=1, journal=path) as table:
        while not table.state.is_terminal():
            play(table, rng, 1)
        table.idle()
        final, winners = table.state.to_text(), table.state.winners()
        ended = table.frame()
    with Table("contigo", seed=1, journal=path) as table:  # the power went, and came back
        assert table.state.to_text() == final
        shown = table.service.read(lambda s: (s.over, s.public_state()["winners"], s.scene().player))
        assert shown == (True, winners, TERMINAL)
        table.wait(lambda s: table.service.strip.last == ended, "the LEDs to show the end again")
        table.service.post(ButtonEvent("undo", held=True))  # hold undo: a new game
        table.wait(lambda s: not s.over and s.serial == 2, "a new game")
        assert table.moves == 0
    with Table("contigo", seed=1, journal=path) as table:  # and the new game is the one resumed
        assert table.service.read(lambda s: not s.over) and table.moves == 0
    assert [(g["finished"], g["result"] and g["result"]["winners"]) for g in Journal(path).games()] == \
        [(True, winners), (False, None)]


def test_configure_and_resign_outlive_a_restart_and_undo_takes_the_resignation_back(tmp_path: Path,
                                                                                    broker: Broker) -> None:
    path = str(tmp_path / "journal.sqlite")
    op = Listener(broker.port, [f"{BASE}/events"])
    try:
        with Table("contigo", seed=3, journal=path, mqtt_port=broker.port) as table:
            play(table, random.Random(3), 3)
            settings = {"allow_takeback": False, "chance": "auto"}
            assert op.request(BASE, "configure", {"id": "c1", **settings}) == \
                {"id": "c1", "command": "configure", "ok": True, "result": settings}
            resigned = op.request(BASE, "resign", {"id": "s1", "player": 1})
            assert resigned["ok"]
            moves = table.moves
        with Table("contigo", seed=3, journal=path, mqtt_port=broker.port) as table:  # the file says otherwise
            kept = table.service.read(lambda s: (s.board.allow_takeback, s.referee.allow_takeback, s.board.chance))
            assert kept == (False, False, "auto")
            assert table.service.read(lambda s: (s.over, s.resigned, s.winners())) == (True, 1, [0])
            assert op.request(BASE, "resign", {"id": "s1", "player": 1}) == resigned  # answered, not run again
            assert op.request(BASE, "undo", {"id": "u1"})["result"] == {"undone": "resign"}
            assert table.service.read(lambda s: (s.over, s.resigned)) == (False, None) and table.moves == moves
        with Table("contigo", seed=3, journal=path, mqtt_port=broker.port) as table:
            assert table.service.read(lambda s: (s.over, s.resigned)) == (False, None) and table.moves == moves
    finally:
        op.close()
    (game,) = Journal(path).games()
    assert not game["finished"] and game["actions"] == moves


def test_a_setting_the_configuration_file_changes_since_is_the_files_again(tmp_path: Path, broker: Broker) -> None:
    path = str(tmp_path / "journal.sqlite")
    op = Listener(broker.port, [f"{BASE}/events"])
    try:
        with Table("contigo", seed=3, journal=path, mqtt_port=broker.port):
            assert op.request(BASE, "configure", {"id": "c1", "allow_takeback": False})["ok"]
        with Table("contigo", seed=3, journal=path, allow_takeback=False) as table:  # the file now agrees
            assert table.service.read(lambda s: s.board.allow_takeback) is False
        with Table("contigo", seed=3, journal=path, allow_takeback=True) as table:  # and then says true
            assert table.service.read(lambda s: s.board.allow_takeback) is True
    finally:
        op.close()


def test_the_stored_actions_follow_every_change_of_the_record_moves_undos_and_outcomes_drawn_again(
        tmp_path: Path) -> None:
    """What a move adds is appended, what an undo or a takeback changed is written again from where
    it changed, and a chance outcome drawn by another key counts as changed: after every sync the
    file (read by a connection of its own) holds exactly the record."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    record = Record.seeded("contigo", {}, 2, 1)
    game_id = journal.start("b", record)
    rng = random.Random(11)
    for step in range(300):
        change = rng.random()
        if change < 0.55 or not record.actions:  # a move; now and then a chance outcome drawn by a key
            record.actions.append(f"a{step}")
            if rng.random() < 0.4:
                record.drawn[len(record.actions) - 1] = rng.randrange(3)
        elif change < 0.75:  # an undo or a takeback
            del record.actions[rng.randrange(len(record.actions)):]
            record.drawn = {n: k for n, k in record.drawn.items() if n < len(record.actions)}
        elif change < 0.9:  # an outcome drawn again, by another key or at the table
            n = rng.randrange(len(record.actions))
            if n in record.drawn and rng.random() < 0.5:
                del record.drawn[n]
            else:
                record.drawn[n] = rng.randrange(3)
        else:  # an action replaced where it was
            record.actions[rng.randrange(len(record.actions))] = f"b{step}"
        journal.sync(game_id, record)
        on_disk = Journal(path)
        try:
            stored = on_disk.record(game_id)
        finally:
            on_disk.close()
        assert (stored.actions, stored.drawn) == (record.actions, record.drawn), step
    journal.close()


def test_the_wal_has_room_made_for_its_commits_and_a_copy_taken_mid_game_reads_every_move(tmp_path: Path) -> None:
    """The journal's WAL is grown once, with zeros, so that a move's commit does not make the file
    longer (its fsync then writes no size); SQLite reads the log only up to its last valid frame.
    The files as a power cut leaves them (copied while the journal is open, nothing checkpointed)
    hold every move."""
    path = tmp_path / "journal.sqlite"
    wal = tmp_path / "journal.sqlite-wal"
    journal = Journal(path)
    assert wal.stat().st_size == WAL_ROOM
    record = Record.seeded("contigo", {}, 2, 1)
    game_id = journal.start("b", record)
    for n in range(100):  # two pages a move: the room holds about 125
        record.actions.append(f"a{n}")
        journal.sync(game_id, record)
        assert wal.stat().st_size == WAL_ROOM, n  # every commit within the room
    cut = tmp_path / "cut"
    cut.mkdir()
    for name in ("journal.sqlite", "journal.sqlite-wal"):
        (cut / name).write_bytes((tmp_path / name).read_bytes())
    journal.close()
    after = Journal(cut / "journal.sqlite")
    try:
        assert after.record(game_id).actions == record.actions
    finally:
        after.close()
