"""Faults an operator meets: another game asked for while the sensor board is away, a journal from
another board's game, a journal that cannot be read, a request delivered twice."""

from __future__ import annotations

import json
import random

from controller.games import get_game
from controller.games.record import Match, Record
from controller.journal import Journal
from hardware.leds import LedStrip, RecordingPixels
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service
from tests.support.table import Table


def test_another_game_while_the_sensor_board_is_away_is_refused_and_the_game_goes_on(broker):
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
        assert frame is not None and len(frame) == service.session.layout.led_count
    finally:
        op.close()
        service.stop()


def test_a_strip_opens_again_for_another_boards_led_count():
    strip = LedStrip(RecordingPixels(4), make=lambda n: RecordingPixels(n))
    strip.show([(1, 2, 3)] * 4)
    assert strip.can_show(7)
    strip.resize(7)
    assert strip.n == 7 and strip.show([(0, 0, 9)] * 7) and len(strip.pixels.transmitted[-1]) == 21
    fixed = LedStrip(RecordingPixels(4))
    assert not fixed.can_show(7) and fixed.can_show(4)


def test_a_journal_game_that_does_not_fit_the_board_is_set_aside_with_a_warning(tmp_path, broker):
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


def test_a_journal_that_cannot_be_read_is_moved_aside_and_a_fresh_one_started(tmp_path, broker):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    listener = Listener(broker.port, ["arbitro/t-contigo/events"])
    try:
        with Table("contigo", seed=2, journal=str(path), mqtt_port=broker.port) as table:
            table.play(random.Random(1).choice(table.state.legal_actions()))
            warning = json.loads(listener.wait_for(lambda m: b'"warning"' in m[1])[1])
            assert "could not be read" in warning["message"] and "journal.sqlite.corrupt-1" in warning["message"]
    finally:
        listener.close()
    assert (tmp_path / "journal.sqlite.corrupt-1").read_bytes().startswith(b"this is not a database")
    assert Journal(path).games()[0]["actions"] == 1


def test_a_request_repeated_with_its_id_runs_once_also_after_a_restart(tmp_path, broker):
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
