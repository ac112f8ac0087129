"""Spoken announcements: what is said for each published event, in the board's language, spoken
by the real espeak-ng (installed by ``scripts/dev test``) into WAV files that must not be silent; a
burst keeps the newest, a missing or failing espeak-ng warns once and never stops the table."""

from __future__ import annotations

import array
import logging
import math
import shutil
import wave
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from controller.sound import TableSound
from controller.voice import PROGRAM, WAITING, Voice, announcement
from tests.support.waiting import wait_until

STATE = {"turn": 1, "winners": [], "players": [{"index": 0, "name": "rojo", "colour_name": "red"},
                                               {"index": 1, "name": "jugador 2", "colour_name": None}]}
"""As a Spanish board publishes it: the voice says each colour in its own language."""
LOUD = 500  # RMS of 16-bit speech is in the thousands; espeak-ng's silence is 0



def rms(path: Path) -> float:
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2, "espeak-ng writes 16-bit samples"
        samples = array.array("h", w.readframes(w.getnframes()))
    return math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


def attempted(voice: Voice, n: int) -> bool:
    """Whether espeak-ng was started ``n`` times (and, the first time, failed)."""
    return voice.started == n and (n > 1 or voice.failed)


@pytest.fixture
def espeak() -> str:
    """The espeak-ng the voice starts."""
    if shutil.which(PROGRAM) is None:
        pytest.fail(f"{PROGRAM} is missing: `bash scripts/dev test` installs Debian's espeak-ng")
    return PROGRAM


@pytest.mark.parametrize(("event", "language", "said"), [
    ({"type": "action", "action": "c3-c5"}, "es", "Jugada c3-c5"),
    ({"type": "action", "action": "c3-c5"}, "en", "Move c3-c5"),
    ({"type": "chance", "outcome": "4"}, "es", "Sale 4"),
    ({"type": "violation", "message": "a piece is missing at c4"}, "en", "Attention: a piece is missing at c4"),
    ({"type": "game_over", "winners": [0]}, "es", "Gana rojo"),  # the state's "red", said in the voice's language
    ({"type": "game_over", "winners": [0]}, "en", "red wins"),
    ({"type": "game_over", "winners": [0, 1]}, "es", "Ganan rojo y jugador 2"),
    ({"type": "game_over", "winners": []}, "en", "Nobody wins"),
    ({"type": "violation", "message": "a piece is missing at c4", "text": "falta una pieza en c4"}, "es",
     "falta una pieza en c4"),  # an event rendered in the board's language is said as it is
    ({"type": "link", "up": True}, "es", None),
    ({"type": "setup", "message": "place the tokens"}, "es", None),
])
def test_what_is_said_for_each_event(event: Mapping[str, Any], language: str, said: str | None) -> None:
    assert announcement(event, STATE, language) == said


def test_a_resignation_names_who_won() -> None:
    assert announcement({"type": "resign", "player": 1}, {**STATE, "winners": [0]}, "en") == "red wins"


def test_espeak_speaks_an_announcement_into_a_wav_that_is_not_silent(espeak: str, tmp_path: Path) -> None:
    voice = Voice("es", program=espeak, wav_dir=tmp_path)
    try:
        voice.say(".")  # a control: a full stop says nothing, so the check below can fail
        voice.say(announcement({"type": "game_over", "winners": [0]}, STATE, "es") or "")
        wait_until(lambda: len(voice.spoken) == 2, "both to be spoken")
    finally:
        voice.close()
    silent, spoken = sorted(tmp_path.glob("announcement-*.wav"))
    assert rms(silent) < LOUD
    assert rms(spoken) > LOUD


def test_the_table_sound_says_the_move_the_roll_and_the_violation(espeak: str, tmp_path: Path) -> None:
    voice = Voice("en", program=espeak, wav_dir=tmp_path)
    sound = TableSound(voice=voice)
    try:
        sound.hear([{"type": "chance", "outcome": "first 0"}], {**STATE, "turn": 0})
        wait_until(lambda: len(voice.spoken) == 1, "the roll")  # one at a time: none is pushed out
        sound.hear([{"type": "action", "action": "b2"}, {"type": "link", "up": True}], STATE)
        wait_until(lambda: len(voice.spoken) == 2, "the move")
        sound.hear([{"type": "violation", "message": "b3 is not a legal move"}], STATE)
        wait_until(lambda: len(voice.spoken) == 3, "the violation")
        assert list(voice.spoken) == ["Rolled first 0", "Move b2", "Attention: b3 is not a legal move"]
        assert all(rms(wav) > LOUD for wav in tmp_path.glob("*.wav"))
    finally:
        sound.close()


def test_a_burst_of_announcements_keeps_the_newest_waiting(espeak: str, tmp_path: Path) -> None:
    voice = Voice("en", program=espeak, wav_dir=tmp_path)
    try:
        voice.say("one more move on the board " * 100)  # keeps espeak-ng busy a while
        wait_until(lambda: (tmp_path / "announcement-0001.wav").exists(), "the first to be spoken")
        burst = [f"move {n}" for n in range(WAITING + 3)]
        for text in burst:
            voice.say(text)
        wait_until(lambda: len(voice.spoken) == 1 + WAITING, "the waiting ones")
        assert list(voice.spoken)[1:] == burst[-WAITING:]
    finally:
        voice.close()


def test_a_missing_espeak_warns_once_and_stays_silent(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="arbitro"):
        voice = Voice("es", program="espeak-ng-not-installed", wav_dir=tmp_path)
        voice.say("hola")
        voice.say("otra vez")
        voice.close()
    assert [r.getMessage() for r in caplog.records] == [
        "sound.voice is on but espeak-ng-not-installed is not installed (apt-get install espeak-ng): "
        "nothing will be spoken"]
    assert list(tmp_path.iterdir()) == []


def test_espeak_that_cannot_speak_warns_once(espeak: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="arbitro"):
        voice = Voice("zz", program=espeak, wav_dir=tmp_path)  # a language espeak-ng has no voice for
        try:
            for n, text in enumerate(["one", "two", "three"], 1):
                voice.say(text)
                wait_until(partial(attempted, voice, n), f"attempt {n}")
        finally:
            voice.close()
    assert [r.getMessage() for r in caplog.records] == [
        "espeak-ng could not speak (Error: The specified espeak-ng voice does not exist.): "
        "announcements stay silent while it cannot"]
    assert list(voice.spoken) == []
