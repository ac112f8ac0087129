"""The players' language (issue 22): every text in the catalogue has Spanish, and a whole game of
each game told in Spanish on MQTT and on the terminal says nothing in English; players are named,
numbers start at 1, places are in the game's notation."""

from __future__ import annotations

import json
import re

import pytest

from controller import locale
from controller.demo import _game_over, play_game
from controller.games import game_names, get_game
from controller.games.base import VOCABULARY, Message, Param
from controller.i18n import LANGUAGES, WORD_OF, People, message_of, say, speak_event
from controller.localbroker import Broker
from controller.session import NOTHING_TO_UNDO
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service
from tests.support.table import Table

ENGLISH_WORDS = re.compile(r"\b(the|player|players|is|of|and|not|wins|win|over|board|piece|move|moves)\b")


def english_templates() -> list[str]:
    """The English fragments of every template (between its params): what must not show in Spanish."""
    spanish = {m.context: str(m.string) for m in locale.read("es") if m.id}
    fragments = set()
    for m in locale.read("en"):
        if not m.id or not m.context:
            continue
        for piece in re.split(r"\{[^}]*\}", str(m.id)):
            piece = piece.strip(" :;,.()'")
            if len(piece.split()) >= 2 and piece not in spanish[m.context]:
                fragments.add(piece)
    return sorted(fragments, key=len, reverse=True)


FRAGMENTS = english_templates()


def english_in(text: str) -> list[str]:
    return [f for f in FRAGMENTS if f in text] + ENGLISH_WORDS.findall(text)


def skeleton(message: Message) -> Message:
    """``message`` with its notation (action texts, places: what players type and read on the board,
    the same in every language) as ``·``; its words, seats and inner messages kept."""
    def keep(value: Param) -> Param:
        if isinstance(value, Message):
            return skeleton(value)
        if isinstance(value, tuple):
            return tuple(skeleton(m) for m in value)
        return value if value in WORD_OF or re.fullmatch(r"player \d+", value) else "·"
    return Message(message.code, message.template, {k: keep(v) for k, v in message.params.items()})


def test_every_text_has_spanish_and_the_catalogues_are_built() -> None:
    """Fails on any msgid without Spanish (or a fuzzy one), and on a .mo, the display's JSON or the
    table of codes in docs/mqtt.md that is not what the .po files make."""
    assert locale.untranslated("es") == []
    assert locale.stale() == []


def test_every_phrase_of_the_code_is_in_the_catalogue_with_its_params() -> None:
    for name in game_names():
        get_game(name)
    import controller.demo
    import controller.service  # noqa: F401  (their phrases)

    extracted = {m.context: str(m.id) for m in locale.extract() if m.id}
    spanish = {m.context: str(m.string) for m in locale.read("es") if m.id}
    for code, phrase in VOCABULARY.items():
        if code.startswith("toy."):  # the tests' own game
            continue
        assert extracted.get(code) == phrase.template, f"{code}: not extracted (built at run time?)"
        fields = sorted(re.findall(r"\{[^}]*\}", phrase.template))
        assert sorted(re.findall(r"\{[^}]*\}", spanish[code])) == fields, code


def test_a_message_is_said_in_each_language_with_its_params_and_people() -> None:
    people = People.of([{"index": 0, "name": "red", "colour": "#d62728"},
                        {"index": 1, "name": "player 1", "colour": "#888888"}], "es")
    assert people.labels == ("rojo", "jugador 2")  # by colour, else the seat from 1
    assert People.of([{"index": 0, "name": "x", "colour": "#888888"}], "es", ["Ana"]).labels == ("Ana",)
    get_game("jeocinco")  # a game's phrases are known once its package is loaded (alone, nothing else loads it)
    said = message_of("jeocinco.tower_stands", {"player": "player 1", "pentagon": "C3N"})
    assert say(said, "es", people) == "jugador 2 completa C3N: se levanta una torre"
    assert say(said, "en", People.of([], "en")) == "2 completes C3N: a tower stands"  # an unknown seat: from 1
    over = speak_event({"type": "game_over", "winners": [0, 1], "scores": [1, 1]}, people, "es")
    assert over["text"] == "fin de la partida: ganan rojo y jugador 2"
    assert (over["code"], over["params"]) == ("event.win", {"winners": "rojo y jugador 2"})
    refused = speak_event({"type": "refused", "message": NOTHING_TO_UNDO().text,
                           "code": NOTHING_TO_UNDO.code, "params": {}}, people, "es")
    assert refused["message"] == refused["text"] == "no hay nada que deshacer"


def test_the_display_catalogue_has_every_code_in_both_languages() -> None:
    table = json.loads(locale.JSON_CATALOGUE.read_text("utf-8"))
    assert set(table) == set(LANGUAGES)
    assert set(table["es"]) == set(table["en"]) >= {c for c in VOCABULARY if not c.startswith("toy.")}
    assert table["es"]["board.missing"] == "falta una pieza en {place}"


def test_a_violation_is_told_in_spanish_at_the_places_of_the_board(broker: Broker) -> None:
    """'a piece should not be at 0:0' must read in the board's notation (a1), in the board's language."""
    listener = Listener(broker.port, ["arbitro/t-serpientes/#"])
    try:
        with Table("serpientes", mqtt_port=broker.port, language="es") as table:
            place = get_game("serpientes").channel_label("pt:0:0")
            assert place == "a1"
            table.hands.set_channels({"pt:0:0": 1})  # a token on the corner: never a legal place for one
            table.idle()
            kind = table.verdict.kind  # a new game's board is being set up: what differs is told as set-up
            assert kind in ("violation", "setup"), table.verdict
            told = listener.wait_for(lambda m: m[0] == "arbitro/t-serpientes/events"
                                     and json.loads(m[1])["type"] == kind)
            event = json.loads(told[1])
            assert f"sobra una pieza en {place}" in event["text"] and event["message"] == event["text"], event
            assert not english_in(say(skeleton(message_of(event["code"], event["params"])), "es")), event["text"]
            assert f"a piece should not be at {place}" in say(message_of(event["code"], event["params"]), "en")
            state = listener.latest_state("arbitro/t-serpientes", where=lambda s: s[kind] is not None)
            assert state[kind]["message"] == event["text"] and state[kind]["code"] == event["code"]
    finally:
        listener.close()


@pytest.mark.parametrize("game", ["contigo", "jeocinco", "scriptorium", "serpientes"])
def test_a_whole_game_in_spanish_says_nothing_in_english(game: str, broker: Broker,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    board = f"es-{game}"
    listener = Listener(broker.port, [f"arbitro/{board}/events", f"arbitro/{board}/state"])
    try:
        final = play_game(game, broker=("127.0.0.1", broker.port), seed=5, players=None, seat=None, pace=0,
                          headless=False, max_actions=400, board_id=board, language="es")
        terminal = capsys.readouterr().out
        events = listener.json_on(f"arbitro/{board}/events")
        states = listener.json_on(f"arbitro/{board}/state")
    finally:
        listener.close()
    assert final["moves"] > 0 and events
    people = People.of(final["players"], "es")
    for event in events:
        assert event["code"] in VOCABULARY and event["code"] != "event.notice", event
        assert event["text"] == say(message_of(event["code"], event["params"]), "es", people), event
        said = message_of(event["code"], event["params"])
        assert not english_in(say(skeleton(said), "es", people)), event
    for state in states:
        for marked in (state["violation"], state["setup"]):
            assert marked is None or not english_in(marked["message"]), marked
    # The terminal: its event lines say what MQTT said (checked above), and the demo's own words are
    # Spanish (the board's picture above them is the engine's own drawing).
    lines = terminal.splitlines()
    told = [re.sub(r"^\[\s*\d+\] ", "", line) for line in lines if re.match(r"\[\s*\d+\] ", line)]
    assert told and set(told) <= {e["text"] for e in events}
    own = [line for line in lines if line.startswith("LED")]
    assert own
    for line in [*own, _game_over(final, "es")]:
        assert not english_in(line), line
    if final["over"] and final["winners"]:
        assert "gana" in _game_over(final, "es")
        assert not re.search(r"jugador 0\b", _game_over(final, "es"))  # numbers shown to people start at 1


def test_a_request_a_rule_refuses_is_answered_in_spanish_with_its_code(broker: Broker) -> None:
    service = mqtt_service("contigo", "es-refused", broker.port, seed=3, board={"chance": "auto", "language": "es"})
    listener = Listener(broker.port, ["arbitro/es-refused/response/#"])
    try:
        answer = listener.request("arbitro/es-refused", "choose", {"id": "c1", "action": "c3-c4"})
        assert answer["ok"] is False and answer["code"] == "table.refused", answer
        said = message_of(answer["code"], answer["params"])
        assert answer["error"] == say(said, "es") and answer["error"].startswith("jugada no permitida c3-c4: ")
        assert say(said, "en").startswith("illegal action c3-c4: ")
        assert listener.request("arbitro/es-refused", "choose", {"id": "c1", "action": "c3-c4"})["error"]  # a repeat
    finally:
        listener.close()
        service.stop()
