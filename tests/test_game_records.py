"""Game records people can use (issue 38.1 and 38.2, docs/records.md): the tags, the players by
seat from 1, the result in words and points and a time per action, written and read by
``controller.records``; the ``record`` request gives anyone a running game's public part only (no
secret, no hidden card), the operator its hidden cards too (never the secret while it runs), and
anyone a finished game's whole record. An export from before version 2 still reads and replays."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from controller import records
from controller.cli import main
from controller.games import CHANCE
from controller.games.base import Action
from controller.games.record import Record, verify
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.table import Table
from tests.test_records import played

OLD_EXPORT = Path(__file__).parent / "records" / "jeocinco-export-v1.json"  # `arbitro journal --export`, Dec 2026
BASE = "arbitro/t-serpientes"
CARD = r"(straight|left|right)"


def test_a_record_carries_its_tags_players_result_and_times_and_reads_back() -> None:
    match = played()
    at = [1_764_000_000.0 + 2.5 * i for i in range(len(match.record.actions))]
    written = records.build(match, board="mesa3", over=True, names=["Ana", ""], started=at[0] - 10, at=at,
                            tags={"event": "Club night", "round": "2"}).to_dict()
    assert written["format"] == "arbitro-record" and written["version"] == 2  # no position: as version 2 wrote it
    assert {k: written[k] for k in records.TAGS} == {"event": "Club night", "site": "?", "date": "2025-11-24",
                                                     "round": "2", "board": "mesa3"}
    assert written["players"][0] == {"seat": 1, "name": "Ana", "kind": "table"}
    assert written["players"][1]["name"] == match.state.player_name(1)  # no name given: its colour
    assert written["times"][:3] == [10.0, 12.5, 15.0] and written["started"] == "2025-11-24T15:59:50Z"
    assert written["result"]["over"] and written["result"]["points"] == list(match.state.scores())
    assert written["fair"]["keys"][0]["secret"] is not None and written["over"] is True
    back = records.read(json.loads(json.dumps(written)))
    assert back.record == match.record.__class__.from_dict(written) and back.tags["event"] == "Club night"
    assert back.players[0].name == "Ana" and back.times[:2] == [10.0, 12.5] and back.started == at[0] - 10
    assert back.final_state().to_text() == match.state.to_text()
    verify(back.record)


def test_the_result_in_words_names_the_winners_by_name_and_a_resignation() -> None:
    match = played(stop=30)
    said = records.build(match, board="b", over=True, resigned=0, names=["Ana", "Bea"]).result
    assert said == {"over": True, "words": "Ana resigned; Bea won", "points": list(match.state.scores()),
                    "winners": [2], "resigned": 1}
    assert (records.build(match, board="b", over=False).result or {}).get("words") == "in play"


def test_an_export_from_before_version_2_still_reads_and_replays(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    old = json.loads(OLD_EXPORT.read_text())
    assert "format" not in old
    found = records.read(old)
    assert found.version == 1 and found.tags["event"] == "?" and [p.seat for p in found.players] == [1, 2]
    assert found.final_state().is_terminal() and found.times == [None] * len(old["actions"])
    assert main(["replay", str(OLD_EXPORT)]) == 0
    assert "game over" in capsys.readouterr().out
    again = found.to_dict()  # written again in the new format, the game unchanged
    assert Record.from_dict(again) == Record.from_dict(old) and records.read(again).version == 2


def test_a_record_of_another_format_or_a_newer_version_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = records.build(played(stop=20), board="b", over=False).to_dict()
    for changed, said in (({**data, "version": 4}, "version: 4 is not one this arbitro reads"),
                          ({**data, "position": "jeocinco"}, "position: a record of version 2 has none"),
                          ({**data, "format": "pgn"}, "format: 'pgn' is not 'arbitro-record'"),
                          ({**data, "players": [{"seat": 1}]}, "players: must be a list of 2 objects"),
                          ({**data, "times": ["soon"]}, "times: must be a list of seconds"),
                          ({**data, "event": 7}, "event: must be a text")):
        (tmp_path / "r.json").write_text(json.dumps(changed))
        assert main(["replay", str(tmp_path / "r.json")]) == 1
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


def serpientes_with_cards(table: Table, rng: random.Random) -> None:
    """Play until cards were programmed face down (the secrets a public record must not hold)."""
    programmed = 0
    while programmed < 6 and not table.state.is_terminal():
        legal = table.state.legal_actions()
        if table.state.current_player != CHANCE:
            adds: list[Action] = [a for a in legal if isinstance(a, tuple) and a[0] == "add"]
            if adds:
                legal, programmed = adds, programmed + 1
        table.play(rng.choice(legal))


def test_a_running_games_record_is_public_to_anyone_and_whole_once_it_is_over(broker: Broker, tmp_path: Path) -> None:
    elsewhere = Listener(broker.port, [])  # answers outside the board's tree: anyone may read them
    desk = Listener(broker.port, [], reply_topic=f"{BASE}/response/desk-1")  # the operator's
    try:
        with Table("serpientes", seed=-1, players=3, mqtt_port=broker.port,
                   journal=str(tmp_path / "j.sqlite")) as table:  # the journal keeps when each action was played
            serpientes_with_cards(table, random.Random(5))
            table.idle()
            secret = table.service.read(lambda s: bytes(s.match.record.keys[-1].secret or b"").hex())
            assert secret
            hidden = table.service.read(lambda s: [t for t, shown in zip(s.match.record.actions, s.match.public_log,
                                                                         strict=True) if t != shown])
            assert hidden and all(re.search(rf"\b(draw|add) {CARD}\b", t) for t in hidden)
            public = [elsewhere.request(BASE, "record", {}), elsewhere.request(BASE, "record", {"private": True}),
                      desk.request(BASE, "record", {})]
            for answer in public:  # the private flag from anyone but the operator: still the public part
                assert answer["ok"], answer
                text = json.dumps(answer["result"])
                assert secret not in text and not re.search(rf"\b(draw|add) {CARD}\b", text), text[:300]
                got = records.read(answer["result"])
                assert got.withheld > 0 and got.result is not None and got.result["words"] == "in play"
                got.final_state()  # the public part replays, up to the first hidden action
                assert got.times and all(t is not None and t >= 0 for t in got.times)
            private = desk.request(BASE, "record", {"private": True})["result"]
            assert secret not in json.dumps(private) and private["fair"]["keys"][-1]["secret"] is None
            assert set(hidden) <= set(private["actions"]) and "withheld" not in private
            records.read(private).final_state()
            assert elsewhere.request(BASE, "resign", {"player": 2})["ok"]
            table.idle()
            whole = elsewhere.request(BASE, "record", {})["result"]
        found = records.read(whole)
        assert found.record.keys[-1].secret is not None and found.record.keys[-1].secret.hex() == secret
        assert set(hidden) <= set(whole["actions"]) and found.result is not None
        assert found.result["words"].endswith(" won") and found.result["resigned"] == 3
        assert [p.kind for p in found.players] == ["table"] * 3 and found.tags["board"] == "t-serpientes"
        verify(found.record)
    finally:
        elsewhere.close()
        desk.close()
