"""The players' language (issue 22): every text in the catalogue has Spanish, and a whole game of
each game told in Spanish on MQTT and on the terminal says nothing in English; players are named,
numbers start at 1, places are in the game's notation."""

from __future__ import annotations

import json
import queue
import re
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller import locale, schemas
from controller.demo import _game_over, play_game
from controller.games import game_names, get_game
from controller.games.base import VOCABULARY, IllegalAction, Message, Param, Plural, Say
from controller.i18n import LANGUAGES, WORD_OF, People, as_json, message_of, say, saying, speak_event
from controller.localbroker import Broker
from controller.session import NOTHING_TO_UNDO
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service
from tests.support.table import Table

ENGLISH_WORDS = re.compile(r"\b(the|player|players|is|of|and|not|wins|win|over|board|piece|move|moves)\b")


def english_templates() -> list[str]:
    """The English fragments of every template (between its params): what must not show in Spanish."""
    spanish = {m.context: " ".join(locale.translated_forms(m)) for m in locale.read("es") if m.id}
    fragments = set()
    for m in locale.read("en"):
        if not m.id or not m.context:
            continue
        for piece in re.split(r"\{[^}]*\}", " ".join(locale.english_forms(m))):
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

    extracted = {m.context: m.id for m in locale.extract() if m.id}
    spanish = {m.context: locale.translated_forms(m) for m in locale.read("es") if m.id}
    for code, phrase in VOCABULARY.items():
        if code.startswith("toy."):  # the tests' own game
            continue
        forms = (phrase.template, phrase.plural) if isinstance(phrase, Plural) else phrase.template
        assert extracted.get(code) == forms, f"{code}: not extracted (built at run time?)"
        english = [phrase.template, phrase.plural] if isinstance(phrase, Plural) else [phrase.template]
        for i, said in enumerate(spanish[code]):  # each form with its English form's fields ("one bead")
            fields = sorted(re.findall(r"\{[^}]*\}", english[min(i, len(english) - 1)]))
            assert sorted(re.findall(r"\{[^}]*\}", said)) == fields, code


def test_a_message_is_said_in_each_language_with_its_params_and_people() -> None:
    people = People.of([{"index": 0, "name": "red", "colour": "#d55e00"},
                        {"index": 1, "name": "player 1", "colour": "#888888"}], "es")
    assert people.labels == ("rojo", "jugador 2")  # by colour, else the seat from 1
    assert People.of([{"index": 0, "name": "x", "colour": "#888888"}], "es", ["Ana"]).labels == ("Ana",)
    get_game("jeocinco")  # a game's phrases are known once its package is loaded (alone, nothing else loads it)
    said = message_of("jeocinco.tower_stands", {"player": "player 1", "pentagon": "C3N"})
    assert say(said, "es", people) == "jugador 2 completa C3N: se levanta una torre"
    assert say(said, "en", People.of([], "en")) == "player 2 completes C3N: a tower stands"  # an unknown seat: from 1
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


@pytest.mark.parametrize("game", game_names())
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
        assert state["language"] == "es"
        for marked in (state["violation"], state["setup"]):
            assert marked is None or not english_in(marked["message"]), marked
        for note in state["notes"]:  # what a display says beside the picture
            said = message_of(note["code"], note["params"])
            assert note["message"] == say(said, "es", people) and not english_in(say(skeleton(said), "es", people))
    # The terminal: its event lines say what MQTT said (checked above); every other line (the board's
    # picture, the LEDs, the status) is Spanish from the catalogue, or notation.
    lines = terminal.splitlines()
    told = [re.sub(r"^\[\s*\d+\] ", "", line) for line in lines if re.match(r"\[\s*\d+\] ", line)]
    assert told and set(told) <= {e["text"] for e in events}
    own = [line for line in lines if not re.match(r"\[\s*\d+\] ", line)]
    assert any(line.startswith("LED") for line in own)
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


MALFORMED: list[tuple[str, bytes, str]] = [  # command, payload, the code of its answer
    ("state", b'{"id": "' + b"x" * 5000 + b'"}', "request.too_large"),
    ("state", b"\xff\xfe", "request.not_utf8"),
    ("state", b'{"id": ', "request.not_json"),
    ("state", b"[" * 4000, "request.too_deep"),
    ("state", b"[1, 2]", "request.not_object"),
    ("state", b'{"id": true}', "request.bad_id"),
    ("nope", b"{}", "request.unknown_command"),
]


def test_a_malformed_request_is_answered_in_spanish_with_its_code(broker: Broker) -> None:
    """What the bridge refuses before any command runs: said in the board's language, coded, in the schema."""
    base = "arbitro/es-malformed"
    service = mqtt_service("contigo", "es-malformed", broker.port, seed=3, board={"language": "es"})
    listener = Listener(broker.port, [f"{base}/response/#"])
    try:
        answers = [(code, listener.request(base, command, payload)) for command, payload, code in MALFORMED]
        elsewhere = Properties(PacketTypes.PUBLISH)
        elsewhere.ResponseTopic = f"{base}/state"  # answered on the default topic instead
        listener.client.publish(f"{base}/request/state", b'{"id": "topic"}', qos=1, properties=elsewhere)
        listener.client.publish(f"{base}/request/roll", b'{"id": "kept"}', qos=1, retain=True)
        for request_id, code in (("topic", "request.foreign_response_topic"), ("kept", "request.retained")):
            got = listener.wait_for(lambda m, i=request_id: json.loads(m[1]).get("id") == i)
            answers.append((code, json.loads(got[1])))
    finally:
        listener.close()
        service.stop()
    for code, answer in answers:
        schemas.validator("response").validate(answer)
        assert answer["ok"] is False and answer["code"] == code, answer
        said = message_of(answer["code"], answer["params"])
        assert answer["error"] == say(said, "es") != say(said, "en"), answer
        assert not english_in(say(skeleton(said), "es")), answer["error"]


def grid_glyphs(game: str, picture: str) -> set[str]:
    """The digits that mark seats in a terminal grid (Jeocinco's pentagon sides, Serpientes' snakes)."""
    if game == "jeocinco":
        return {ch for sides in re.findall(r":([.o\d]{5})", picture) for ch in sides if ch.isdigit()}
    rows = picture.splitlines()[1:26]  # 13 rows of intersections and the 12 of sticks between them
    return {ch for row in rows for ch in row[4:] if ch.isdigit()}


@pytest.mark.parametrize("game", ["jeocinco", "serpientes"])
def test_the_terminal_grids_number_the_players_from_1_as_their_lines_say(game: str) -> None:
    import random

    from controller.games.record import Match, Record

    g = get_game(game)
    players = 3 if game == "serpientes" else 2  # Serpientes plays two only with an option
    numbers = {str(p + 1) for p in range(players)}
    match = Match(Record.seeded(game, g.options({}), players, 5))
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(300):
        state = match.state
        people = People.of(state.player_info(), "es")
        picture = state.render_text(saying("es", people))
        seen |= grid_glyphs(game, picture)
        for p in range(players):  # each player's line names him and the number his pieces carry
            line = next(line for line in picture.splitlines() if f"{people[p]} (" in line)
            assert re.search(rf"\({'cuerpo ' if game == 'serpientes' else ''}{p + 1}\b", line), line
        if state.is_terminal() or seen >= numbers:
            break
        if state.current_player < 0:
            match.resolve_chance()
        else:
            match.apply(rng.choice(state.legal_actions()))
    assert seen == numbers, seen


def test_a_capture_names_the_player_as_every_announcement_does() -> None:
    """By his given name, else his colour, else his seat from 1: the edge names him, not the engine."""
    from tests.games.contigo.builder import position

    state = position({"r": "a1 b1 c1 e1 f1 b2 e2 f2 c3 c4", "R": "d1", "b": "a6 b6 d6 e6 f6 a5 b5 d5 e5 c5",
                      "B": "c6"}, pits={"n-c": 2}, game="capture")
    action = state.action_from_text("c3xc5")
    (capture,) = state.announcements(action, state.apply(action))
    said = message_of(capture["code"], capture["params"])
    players = state.player_info()
    assert say(said, "es", People.of(players, "es", ["Ana", "Bea"])) == "Ana captura en c5"
    assert say(said, "es", People.of(players, "es")) == "rojo captura en c5"
    assert say(said, "en", People.of([], "en")) == "player 1 captures on c5"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_displays_cannot_draw_picture_is_said_from_the_catalogue(language: str) -> None:
    import xml.etree.ElementTree as ET

    from controller.display.render import board_svg

    for state, code in (({"game": "contigo", "board_view": {"pits": {"n-a": "x"}}}, "display.cannot_draw"),
                        ({"game": "no-such-game", "board_view": {}}, "display.no_picture")):
        svg = board_svg({**state, "targets": [], "players": [], "language": language})
        (text,) = [e for e in ET.fromstring(svg).iter() if "data-code" in e.attrib]
        assert text.attrib["data-code"] == code, svg
        said = message_of(code, json.loads(text.attrib["data-params"]))
        assert text.text and text.text == say(said, language), svg
        if language == "es":
            assert not english_in(say(skeleton(said), "es")), text.text


SAID_AS_IS = re.compile(r"[A-Za-z]{3,}")
"""A word of three letters or more: never in a picture but from the catalogue (its notation is shorter)."""


def spanish_words(said: list[tuple[Message, str]], people: People) -> None:
    """Every message a picture said: Spanish from the catalogue, with no English in it but notation."""
    for message, text in said:
        assert message.code in VOCABULARY and text == say(message, "es", people), message
        assert not english_in(say(skeleton(message), "es", people)), (message, text)


def the_rest_is_notation(text: str, said: list[tuple[Message, str]]) -> None:
    for _message, words in sorted(said, key=lambda m: -len(m[1])):
        text = text.replace(words, " ")
    assert not SAID_AS_IS.findall(text), text


def svg_is_spanish(svg: str, people: People) -> None:
    """Every text, title and legend of an SVG picture: said from its code in Spanish, else notation."""
    import xml.etree.ElementTree as ET

    for element in ET.fromstring(svg).iter():
        if "data-code" in element.attrib:
            message = message_of(element.attrib["data-code"], json.loads(element.attrib["data-params"]))
            assert element.text == say(message, "es", people), element.attrib
            assert not english_in(say(skeleton(message), "es", people)), element.text
        elif element.text and element.text.strip() and not element.tag.endswith("}svg"):
            if element.tag.endswith("title") and element.text == "Scriptorium":
                continue  # the game's name, the whole picture's title (never its position's notation)
            assert not SAID_AS_IS.findall(element.text), (element.tag, element.text)


def recording(said: list[tuple[Message, str]], people: People) -> Say:
    """Spanish, keeping each message said and its words in ``said``."""
    def spanish(message: Message) -> str:
        text = say(message, "es", people)
        said.append((message, text))
        return text
    return spanish


@pytest.mark.parametrize("game", game_names())
def test_every_picture_of_a_whole_game_speaks_spanish_from_the_catalogue(game: str) -> None:
    """The terminal picture (``State.render_text``) and the SVG (``Game.picture``, as the display
    draws it) of every position of a seeded game, in Spanish: each word a message said from the
    catalogue, players named, the rest notation."""
    import random

    from controller.display.render import board_svg
    from controller.games.record import Match, Record

    g = get_game(game)
    match = Match(Record.seeded(game, g.options({}), g.players(None), 5))
    rng = random.Random(5)
    for _ in range(250):
        state = match.state
        people = People.of(state.player_info(), "es")
        said: list[tuple[Message, str]] = []
        terminal = state.render_text(recording(said, people))
        spanish_words(said, people)
        the_rest_is_notation(terminal, said)
        assert not english_in(terminal), terminal
        public = {"game": game, "board_view": state.public_view(), "players": state.player_info(), "language": "es",
                  "targets": [c.name for c in g.channels(match.record.options, match.record.num_players)][:3]}
        svg_is_spanish(board_svg(public), people)
        if state.is_terminal():
            break
        if state.current_player < 0:
            match.resolve_chance()
        else:
            match.apply(rng.choice(state.legal_actions()))


def test_a_number_says_its_plural_in_each_language() -> None:
    from controller.games.contigo.rules import BEADS, TOO_MANY

    assert [say(BEADS(count=n), "es") for n in (1, 2)] == ["1 cuenta", "2 cuentas"]
    assert [BEADS(count=n).text for n in (1, 2)] == ["1 bead", "2 beads"]
    said = TOO_MANY(pit="n-a", beads=BEADS(count=3), count=4)
    assert say(said, "es") == "el hoyo n-a tiene 3 cuentas: no puedes coger 4"
    assert say(message_of(**as_json(said)), "en") == "the pit n-a holds 3 beads: you cannot take 4"  # over MQTT
    table = json.loads(locale.JSON_CATALOGUE.read_text("utf-8"))
    assert table["en"]["contigo.beads"] == ["{count} bead", "{count} beads"]
    assert table["es"]["contigo.beads"][0] == "{count} cuenta" and table["es"]["contigo.beads"][-1] == "{count} cuentas"


def told_in_spanish(event: dict[str, Any], code: str) -> None:
    """A service notice: its own code and params (not a text in English), said in Spanish."""
    assert event["code"] == code, event
    said = message_of(event["code"], event["params"])
    assert event["text"] == event["message"] == say(said, "es"), event
    assert not english_in(say(skeleton(said), "es")), event["text"]


def test_the_journals_notices_are_told_in_spanish_with_their_codes(tmp_path: Path, broker: Broker) -> None:
    from controller.games.record import Match, Record
    from controller.journal import Journal
    from tests.test_faults import damaged_database

    path = tmp_path / "journal.sqlite"
    damaged_database(path)
    listener = Listener(broker.port, ["arbitro/t-contigo/events"])
    try:
        with Table("contigo", seed=2, journal=str(path), mqtt_port=broker.port, language="es"):
            moved = json.loads(listener.wait_for(lambda m: b'"warning"' in m[1])[1])
        told_in_spanish(moved, "journal.moved_aside")
        assert moved["params"]["aside"].endswith("journal.sqlite.corrupt-1")
        journal = Journal(path)  # an unfinished game of another game than the board's: set aside
        match = Match(Record.seeded("jeocinco", get_game("jeocinco").options({}), 2, 5))
        match.resolve_chance()
        journal.start("t-contigo", match.record)
        journal.close()
        mark = len(listener.messages)
        with Table("contigo", seed=2, journal=str(path), mqtt_port=broker.port, language="es"):
            aside = json.loads(listener.wait_for(lambda m: b'"warning"' in m[1], since=mark)[1])
        told_in_spanish(aside, "journal.game_set_aside")
    finally:
        listener.close()


def test_a_sensor_board_that_is_not_the_layouts_is_told_in_spanish_with_its_code() -> None:
    from controller.app import build_service
    from controller.config import Config
    from firmware_bridge.sim import SimulatedBoard

    config = Config.from_dict({"board": {"game": "contigo", "language": "es"}, "inputs": {"enabled": False},
                               "mqtt": {"enabled": False}})
    errors: queue.Queue[dict[str, Any]] = queue.Queue()
    with SimulatedBoard([("presence", 36), ("count", 28)]) as sim:  # another board's sensors
        service = build_service(config, sensor_url=sim.url)
        service.watchers.append(lambda event: errors.put(event) if event["type"] == "error" else None)
        service.start()
        try:
            told_in_spanish(errors.get(timeout=10), "service.not_this_board")
        finally:
            service.stop()


def test_a_refusal_names_the_player_to_act_as_every_announcement_does() -> None:
    """Moving another's pawn: the pawn is named by its colour, the player by his given name."""
    from tests.games.contigo.builder import position

    state = position({"r": "a1 b1 c1 e1 f1 b2 e2 f2 c3 c4", "R": "d1", "b": "a6 b6 d6 e6 f6 a5 b5 d5 e5 c5",
                      "B": "c6"}, pits={"n-c": 2}, game="capture")
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.action_from_text("a5-a4"))
    said = refused.value.refusal
    assert said.code == "contigo.not_yours"
    players = state.player_info()
    assert say(said, "es", People.of(players, "es", ["Ana", "Bea"])) == "la ficha de a5 es de azul, no tuya (Ana)"
    assert say(said, "es", People.of(players, "es")) == "la ficha de a5 es de azul, no tuya (rojo)"
