"""The voice says the words (issue 36, point 2): every kind of announcement of every game, in
Spanish and in English, is phrased to be heard; what the real espeak-ng makes of a Spanish one
(``espeak-ng -x``, its phonemes) holds no English word of the notation (``beads`` is no
``be-ads``, ``start red`` no ``st-art r-ed``), and no symbol reaches it."""

from __future__ import annotations

import re
import subprocess
from functools import cache

import pytest

from controller.games import game_names, get_game
from controller.i18n import People, speak_event
from controller.voice import PROGRAM, announcement
from tests.test_action_words import SPANISH, SYMBOLS, notation_words, said_kinds

PEOPLE = {"es": People(("rojo", "azul", "verde", "amarillo", "naranja", "violeta"), "es"),
          "en": People(("red", "blue", "green", "yellow", "orange", "violet"), "en")}


@cache
def phonemes(text: str, language: str) -> tuple[str, ...]:
    """The words espeak-ng says for ``text`` in ``language``, as its phonemes, without what a word's
    neighbours change in them (stress and length marks; a ``b`` softened to ``B`` after a vowel)."""
    done = subprocess.run([PROGRAM, "-q", "-x", "-v", language, text], capture_output=True, text=True,
                          check=True, timeout=30)
    return tuple(re.sub(r"[',_:2]", "", word).lower().replace("q", "g") for word in done.stdout.split())


def announcements(game: str, language: str) -> dict[str, str]:
    """One announcement of each kind of action and outcome of ``game`` (by its words' code), and the
    end of a game and a resignation, as the voice says them: code -> text."""
    engine = get_game(game)
    out: dict[str, str] = {}
    for text, player in said_kinds(game, steps=150):
        code = engine.action_words(text, player).code
        if code not in out:
            event: dict[str, object] = ({"type": "chance", "outcome": text} if player is None
                                        else {"type": "action", "action": text, "player": player, "by": "board"})
            spoken = speak_event({**event, "game": game, "move": 1}, PEOPLE[language], language)
            out[code] = announcement(spoken, {}, language) or ""
    ends: tuple[dict[str, object], ...] = ({"type": "game_over", "winners": [1], "scores": [0, 1]},
                                          {"type": "resign", "player": 0})
    for event in ends:
        spoken = speak_event({**event, "game": game, "move": 9}, PEOPLE[language], language)
        out[str(event["type"])] = announcement(spoken, {"winners": [1], "players": []}, language) or ""
    return out


@pytest.mark.parametrize("game", game_names())
def test_every_announcement_is_said_in_words_the_voice_can_say(game: str) -> None:
    notation = notation_words({text for text, _ in said_kinds(game, steps=150)})
    english_sounds = {phonemes(word, "es") for word in notation}  # how the Spanish voice would mangle each
    said = announcements(game, "es")
    assert len(said) >= 6
    for code, text in said.items():
        assert text and not SYMBOLS.search(text), (code, text)
        sounds = phonemes(text, "es")
        heard = {sounds[i:i + len(w)] for w in english_sounds for i in range(len(sounds))}
        assert not heard & english_sounds, (code, text, sounds)
    for code, text in announcements(game, "en").items():
        assert text and not SYMBOLS.search(text) and not SPANISH.search(text), (code, text)
        assert phonemes(text, "en"), (code, text)

