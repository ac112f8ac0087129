"""A position text set up at the table (issue 38.4, docs/records.md "On the board"): the ``show``
request with ``{"position": TEXT}`` makes the board's game one that begins from that position; the
LEDs light white every place that differs and each goes out once it is right, then play goes on
from it. Its record holds the text (``position``, record version 3), the journal keeps it so a
power cut resumes it, and a position with hidden cards is taken from the operator alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller import records
from controller.cli import main
from controller.games import CHANCE
from controller.games.record import Match, Record, verify
from controller.journal import Journal
from tests.support.table import Table
from tests.test_session import session_for
from tests.test_show_record import request, set_up_piece_by_piece


def position_after(game: str, seed: int, moves: int, **options: object) -> str:
    """The position of a seeded game after at least ``moves`` actions, with a player to act."""
    match, rng = Match.new(game, options, seed=seed), random.Random(seed)
    while len(match.record.actions) < moves or match.state.current_player == CHANCE:
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match.state.to_text()


def test_a_position_text_is_set_up_guided_by_the_leds_then_played_on_and_resumed_after_a_power_cut(
        tmp_path: Path) -> None:
    text = position_after("contigo", 11, 12)
    path = str(tmp_path / "j.sqlite")
    rng = random.Random(2)
    with Table("contigo", seed=5, journal=path) as table:
        assert table.state.to_text() != text  # the board is at the game's start
        ok, answer = request(table, "show", {"position": text})
        assert ok and answer == {"game": "contigo", "moves": 0, "from": 0}, answer
        assert table.state.to_text() == text
        set_up_piece_by_piece(table)  # every place that differs lit white, each out once it is right

        played = 0
        while played < 3:  # three moves from it, the referee taking each from the board
            state = table.state
            played += state.current_player != CHANCE
            table.play(rng.choice(state.legal_actions()))
        record = table.service.read(lambda s: Record.from_dict(s.match.record.to_dict()))
        assert record.position == text and len(record.actions) >= 3
        assert Match(record).state.to_text() == table.state.to_text()  # the record replays from the position
        before = table.state.to_text()
    game_id, kept, _ = Journal(path).latest("t-contigo") or (0, None, None)
    assert kept is not None and kept.position == text and kept.actions == record.actions
    with Table("contigo", seed=99, journal=path) as table:  # the power comes back: the game goes on
        assert table.state.to_text() == before
        assert table.service.read(lambda s: s.match.record.position) == text
        table.play(rng.choice(table.state.legal_actions()))
        assert Journal(path).record(game_id).actions[:len(record.actions)] == record.actions


def test_a_position_with_hidden_cards_is_taken_from_the_operator_alone_and_its_record_given_once_over() -> None:
    text = position_after("serpientes", 4, 20)  # cards dealt by arbitro: the text holds every hand
    s = session_for("serpientes", num_players=4)
    start = s.state.to_text()
    outcome = s.request("show", {"position": text})  # the answer would go elsewhere than response/
    assert outcome.answer is not None and not outcome.answer[0]
    assert outcome.refusal is not None and outcome.refusal.code == "request.operator_sets_up"
    assert s.state.to_text() == start  # refused: nothing changed
    assert s.request("show", {"position": text}, to_operator=True).answer == (
        True, {"game": "serpientes", "moves": 0, "from": 0})
    assert s.state.to_text() == text and s.match.record.position == text
    assert "hands=-/-/-/-" not in text and text not in json.dumps(s.public_state())  # the hands stay private
    public = s.request("record", {})
    assert public.answer is not None and not public.answer[0]  # even the public part would hold every hand
    assert public.refusal is not None and public.refusal.code == "request.hidden_start"
    assert s.request("record", {"private": True}, to_operator=True).answer == (True, {})
    assert s.request("resign", {"player": 0}).answer == (True, {"resigned": 0})
    assert s.request("record", {}).answer == (True, {})  # over: the whole record, for anyone


@pytest.mark.parametrize("args,code", [
    ({"position": "contigo game=alignment"}, "request.not_accepted"),  # the game's own words
    ({"position": "chess rnbqkbnr/pppppppp"}, "request.not_accepted"),
    ({"position": "contigo x", "game": 1}, "request.show_one"),
    ({"position": "contigo x", "move": 2}, "request.show_one"),
    ({}, "request.show_one"),
])
def test_a_position_that_is_none_or_a_show_that_names_two_things_is_refused_in_words(args: dict[str, object],
                                                                                   code: str) -> None:
    s = session_for("contigo")
    start = s.state.to_text()
    outcome = s.request("show", args, to_operator=True)
    assert outcome.answer is not None and not outcome.answer[0], outcome.answer
    assert outcome.refusal is not None and outcome.refusal.code == code, outcome.refusal
    assert s.state.to_text() == start


def test_a_record_begun_from_a_position_is_version_3_and_replays_from_it(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = position_after("jeocinco", 3, 10)
    match = Match(Record.seeded("jeocinco", {}, 2, 8))
    match = Match(Record(match.record.game, match.record.options, 2, match.record.keys, position=text))
    rng = random.Random(1)
    for _ in range(12):
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    written = records.build(match, board="b", over=True).to_dict()
    assert written["version"] == 3 and written["position"] == text
    back = records.read(json.loads(json.dumps(written)))
    assert back.record.position == text and back.final_state().to_text() == match.state.to_text()
    verify(back.record)  # its chance drawn from the secret, from the position on
    (tmp_path / "r.json").write_text(json.dumps(written))
    assert main(["replay", str(tmp_path / "r.json")]) == 0
    assert "12 actions replayed" in capsys.readouterr().out
    other = {**written, "num_players": 3, "players": [*written["players"], {"seat": 3, "name": "", "kind": "table"}]}
    (tmp_path / "r.json").write_text(json.dumps(other))  # a position of 2 players in a record of 3
    assert main(["replay", str(tmp_path / "r.json")]) == 1
    assert "position: a jeocinco position of 2 players" in capsys.readouterr().err
