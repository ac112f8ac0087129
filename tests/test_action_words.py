"""A game says its actions in words (issue 36, point 1): every action and chance outcome of every
game, said from the catalogue in Spanish with the seed texts' terms and in English, never in the
notation's English words (the notation stays the record and what a player types)."""

from __future__ import annotations

import html
import json
import logging
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from controller import schemas
from controller.demo import play_game
from controller.display.model import BoardModel, said_moves
from controller.games import CHANCE, game_names, get_game
from controller.games.base import Message, State
from controller.games.words import CHANCE as IN_NOTATION
from controller.games.words import PLAYS
from controller.i18n import People, message_of, say, speak_event
from controller.localbroker import Broker
from controller.voice import announcement
from tests.support.mqttc import Listener

SPANISH = re.compile(r"\b(mueve|cuentas?|ficha|sale|dados?|coloca|disputa|torre|puente|elige|pentágono|rojo|azul"
                     r"|verde|amarillo|naranja|violeta|marrón|jugador|gira|círculo|centro|izquierda|derecha|norte"
                     r"|oeste|palote|carta|roba|añade|secuencia|empieza|termina|turno|chinche|coge|deja|espacios?)\b")
"""Spanish words of the actions said (what an English text must not hold)."""
SYMBOLS = re.compile(r"[>~*+=]")
"""The notation's symbols (``beads n-a>n-c 2``, ``bridge A~B``, ``roll *+``): never in words."""


def notation_words(texts: set[str]) -> set[str]:
    """The words of the notation (``beads``, ``roll``, ``half``): its letters-only tokens of three or
    more (places, pits and slots, ``c3``, ``n-a``, ``C3N``, are no words and stay as they are)."""
    return {w for text in texts for w in re.findall(r"\b[a-z]{3,}\b", text.lower())}


def said_kinds(game: str, seed: int = 1, steps: int = 400) -> Iterator[tuple[str, int | None]]:
    """Every action and chance outcome legal along seeded random games of every variant of
    ``game``, each as its public and its full text, with who makes it (None: chance)."""
    engine = get_game(game)
    rng = random.Random(seed)
    for options, players in engine.configurations():
        state: State = engine.new_state(options, players)
        for _ in range(steps):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for action in rng.sample(legal, min(len(legal), 24)):
                player = None if state.current_player == CHANCE else state.player_of(action)
                yield state.public_action_text(action), player
                yield state.action_to_text(action), player
            state = state.apply(rng.choice(legal))


def people(language: str) -> People:
    return People.of([{"index": i, "name": f"player {i}", "colour": "#000000"} for i in range(6)], language)


@pytest.mark.parametrize("game", game_names())
def test_every_action_and_outcome_of_a_game_is_said_in_words_in_each_language(game: str) -> None:
    engine = get_game(game)
    said = dict.fromkeys(said_kinds(game))
    notation = notation_words({text for text, _ in said})
    codes = set()
    for text, player in said:
        words: Message = engine.action_words(text, player)
        codes.add(words.code)
        assert words.code not in (PLAYS.code, IN_NOTATION.code), text  # said by the game, not its notation
        spanish, english = say(words, "es", people("es")), say(words, "en", people("en"))
        assert not set(re.findall(r"\b[a-z]{3,}\b", spanish.lower())) & notation, (text, spanish)
        assert not SYMBOLS.search(spanish) and not SYMBOLS.search(english), (text, spanish, english)
        assert not re.search(r"\bplayer \d|jugador 0\b", spanish), (text, spanish)  # people from 1
        assert not SPANISH.search(english) and not re.search(r"\bjugador\b", english), (text, english)
        assert " " not in text or text not in english, (text, english)  # not the notation said again
    assert len(codes) >= 6  # every kind of action has its own words


@pytest.mark.parametrize(("game", "text", "player", "spanish", "english"), [
    ("contigo", "beads s-c>s-e 2", 0, "rojo mueve 2 cuentas de s-c a s-e", "red moves 2 beads from s-c to s-e"),
    ("contigo", "take n-f 1", 1, "azul coge una cuenta de n-f", "blue takes one bead from n-f"),
    ("contigo", "start green", None, "empieza verde", "green starts"),
    ("scriptorium", "roll orange", None, "sale naranja en el dado de colores", "the colour die gives orange"),
    ("scriptorium", "turn inner left 3", 0, "el círculo interior gira a la izquierda 3 espacios",
     "the inner ring turns to the left 3 spaces"),
    ("serpientes", "draw", None, "se roba una carta", "a card is drawn"),
    ("serpientes", "step left", 1, "azul mueve un palote a la izquierda", "blue moves a stick to the left"),
    ("jeocinco", "colour E", 2, "verde elige el pentágono este", "green chooses the east pentagon"),
    ("jeocinco", "roll *+", None, "sale el comodín y más uno en los dados", "the dice give the wildcard and plus one"),
])
def test_the_words_of_the_issue(game: str, text: str, player: int | None, spanish: str, english: str) -> None:
    words = get_game(game).action_words(text, player)
    assert say(words, "es", People(("rojo", "azul", "verde", "amarillo"), "es")) == spanish
    assert say(words, "en", People(("red", "blue", "green", "yellow"), "en")) == english


def test_a_game_that_says_nothing_of_its_own_says_the_notation() -> None:
    from tests.support.toy import GAME  # a game of the tests: no words module

    assert GAME.action_words("a1", 0) == PLAYS(player="player 0", action="a1")


LONGEST = {"jeocinco": 500}
"""Easy Jeocinco games run to well over a thousand moves: past these the demo resigns the player to
move, which ends the game too (the suite's time; every kind of move has been said by then)."""
ENGLISH_LONGEST = 150
"""The English game's length: its words are the catalogue's source texts, each kind of move said by
then (the Spanish game, which checks every word against the notation, is played whole)."""
PICTURES = 12
"""The board pictures drawn along a game (its first, its last and evenly between): the page's words."""


def told_words(game: str, language: str, broker: Broker, caplog: pytest.LogCaptureFixture,
               longest: int | None = None) -> tuple[list[str], set[str]]:
    """A whole game of ``game`` played by the demo (computer players, the table simulated) with the
    board in ``language``: everything said to people (issue 36's "Done when"): the events' texts and
    each action in words (``action_words``); the states' players, notes, violations and last action
    in words; the board page (its move list, its log, the picture's words), the seat page's words
    of each player's moves and choices, the voice's announcements and the log's table lines; and
    the notation they stand beside."""
    board = f"words-{language}-{game}"
    listener = Listener(broker.port, [f"arbitro/{board}/events", f"arbitro/{board}/state", f"arbitro/{board}/player/+"])
    caplog.set_level(logging.INFO, logger="arbitro.table")
    caplog.clear()
    try:
        final = play_game(game, broker=("127.0.0.1", broker.port), seed=2, players=None, seat=None, pace=0,
                          headless=True, max_actions=longest or LONGEST.get(game, 3000), board_id=board,
                          language=language, bots="easy")
        events = listener.json_on(f"arbitro/{board}/events")
        states = listener.json_on(f"arbitro/{board}/state")
        private = [(int(t.rsplit("/", 1)[1]), json.loads(p)) for t, p, *_ in listener.messages
                   if t.startswith(f"arbitro/{board}/player/") and p]
    finally:
        listener.close()
    assert final["over"]
    for event in events:  # as docs/mqtt.md's schemas say
        schemas.validator("event").validate(event)
    for published in states:
        schemas.validator("state").validate(published)
    about = [e for e in events if e["type"] in ("action", "chance", "expected", "hint", "choice")]
    assert about and all("action_words" in e for e in about)
    said = [e["action_words"]["text"] for e in about]
    said += [e["text"] for e in events]  # what each event itself says
    last = [s for s in states if s["last_action"] is not None]
    assert sum("last_action_words" in s for s in last) >= len(last) - 2  # all but a state told before its event
    said += [s["last_action_words"]["text"] for s in last if "last_action_words" in s]
    said += [p["name"] for s in states for p in s["players"]]
    said += [m["message"] for s in states for m in (*s["notes"], s["violation"] or {}, s["setup"] or {}) if m]
    said += page_words(events, states)
    said += [say(message_of(w["code"], w["params"]), language, People.of(final["players"], language))
             for seat, view in private for w in said_moves(game, seat, list(view.get("choices", []))).values()]
    said += [say(message_of(w["code"], w["params"]), language, People.of(final["players"], language))
             for e in events if e["type"] == "action" for w in said_moves(game, e["player"], [e["action"]]).values()]
    said += [a for e in events if (a := announcement(e, final, language))]  # the voice
    table = [r.getMessage() for r in caplog.records if r.name == "arbitro.table"]
    assert len(table) >= len(events) // 2  # the log: what happened at the table (a few told after the capture)
    said += table
    notation = {e.get("action", e.get("outcome", "")) for e in about} | {s["last_action"] for s in last}
    return said, notation


def page_words(events: list[dict[str, Any]], states: list[dict[str, Any]]) -> list[str]:
    """What the board page says from the Python side (the display's model): its log, and the words
    of its picture (text and tooltips) at :data:`PICTURES` states along the game."""
    page = BoardModel("words")
    drawn = {round(i * (len(states) - 1) / (PICTURES - 1)) for i in range(PICTURES)}
    out = []
    for i, state in enumerate(states):
        page.on_state(state)
        if i in drawn:
            out += [html.unescape(text) for text in re.findall(r">([^<>]*[A-Za-z][^<>]*)<", page.picture()[0])]
    for event in events:
        page.on_event(event)
    return out + page.log


@pytest.mark.parametrize("game", game_names())
def test_a_whole_spanish_game_says_its_moves_in_spanish_and_an_english_one_in_english(
        game: str, broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 36, "Done when": in a whole Spanish game no English word of the notation and no
    "player N" (people named by colour, else by seat from 1; Contigo's men are "fichas" as in its
    rules doc); the same in English, no Spanish."""
    said, notation = told_words(game, "es", broker, caplog)
    english = notation_words(notation)
    for text in said:
        assert not set(re.findall(r"\b[a-z]{3,}\b", text.lower())) & english, text
        assert not re.search(r"\bplayer \d|jugador 0\b|\bhombres?\b", text) and not SYMBOLS.search(text), text
    said, _ = told_words(game, "en", broker, caplog, longest=ENGLISH_LONGEST)
    for text in said:
        assert not SPANISH.search(text) and not re.search(r"\bjugador\b|\bplayer 0\b", text), text


def test_an_undone_move_is_said_in_words_when_its_mover_is_known() -> None:
    spanish = People(("rojo", "azul"), "es")
    undo = {"type": "undo", "game": "contigo", "move": 4, "action": "beads s-c>s-e 2"}
    assert speak_event(undo, spanish, "es", {5: 0})["text"] == "deshecho: rojo mueve 2 cuentas de s-c a s-e"
    assert speak_event(undo, spanish, "es", {4: 1})["text"] == "deshecho: beads s-c>s-e 2"  # who made it: unknown
