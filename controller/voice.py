"""Spoken announcements: the move, the roll, the violation and the winner, said by Debian's
``espeak-ng`` (started as a process: it has no Python binding) in the board's language.

:func:`announcement` is pure: what is said for one published event, or None. It says the event's
``text`` where the event carries one (rendered in the board's language: a move or a roll in its
game's words, ``Game.action_words``, never its notation), else its own short sentence from the
event's fields. Only public events are said, so the voice tells the table
nothing a display may not show.

:class:`Voice` speaks on its own thread and never blocks the service's loop. While it speaks, at
most :data:`WAITING` announcements wait; a newer one pushes out the oldest waiting, because the
table has moved on (MQTT and the displays still tell everything). Without ``espeak-ng`` it warns
once and stays silent.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.i18n import LANGUAGES, word

log = logging.getLogger("arbitro")

PROGRAM = "espeak-ng"
WAITING = 2  # announcements that may wait while one is spoken; older ones are dropped
RECORDED = 64  # the last announcements kept in ``spoken``
SPEAK_TIMEOUT_S = 30.0  # a hung speech process is ended after this long

# The voice's own words, where an event carries no rendered ``text``.
PHRASES: dict[str, dict[str, str]] = {
    "es": {"action": "Jugada {action}", "chance": "Sale {outcome}", "violation": "Atención: {message}",
           "won": "Gana {names}", "won_many": "Ganan {names}", "nobody": "Nadie gana", "and": " y ",
           "player": "jugador {n}"},
    "en": {"action": "Move {action}", "chance": "Rolled {outcome}", "violation": "Attention: {message}",
           "won": "{names} wins", "won_many": "{names} win", "nobody": "Nobody wins", "and": " and ",
           "player": "player {n}"},
}


def announcement(event: Mapping[str, Any], state: Mapping[str, Any], language: str) -> str | None:
    """What the voice says for ``event`` (``state``: the public state told with it), or None."""
    kind = event["type"]
    if kind not in ("action", "chance", "violation", "game_over", "resign"):
        return None
    if isinstance(event.get("text"), str) and event["text"]:
        return str(event["text"])
    words = PHRASES.get(language, PHRASES["en"])
    if kind in ("action", "chance", "violation"):
        return words[kind].format(**event)
    winners = event["winners"] if kind == "game_over" else state["winners"]
    if not winners:
        return words["nobody"]
    names = [player_words(state, p, words, language) for p in winners]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + words["and"] + names[-1]
    return words["won" if len(names) == 1 else "won_many"].format(names=joined)


def player_words(state: Mapping[str, Any], player: int, words: Mapping[str, str], language: str) -> str:
    """The game's name for ``player`` (his colour said in ``language``), else "player n" counted from 1."""
    players = state.get("players") or []
    colour = players[player].get("colour_name") if player < len(players) else None
    if not colour:
        return words["player"].format(n=player + 1)
    return word(str(colour), language) if language in LANGUAGES else str(colour)


def speech_command(program: str, language: str, wav: Path | None = None) -> list[str]:
    """The command that says its standard input in ``language`` (into ``wav`` rather than aloud)."""
    return [program, "-v", language, "--stdin", *(["-w", str(wav)] if wav is not None else [])]


class Voice:
    """Announcements said by ``espeak-ng`` in ``language``, one at a time, on a worker thread.
    ``wav_dir``: each announcement goes into a numbered WAV file there instead of aloud."""

    def __init__(self, language: str, *, program: str = PROGRAM, wav_dir: Path | None = None) -> None:
        self.language = language
        self.wav_dir = wav_dir
        self.spoken: deque[str] = deque(maxlen=RECORDED)
        self.failed = False  # a failure to speak has been logged
        self.started = 0  # announcements handed to espeak-ng
        self._waiting: deque[str] = deque(maxlen=WAITING)
        self._wake = threading.Condition()
        self._closed = threading.Event()
        self._process: subprocess.Popen[str] | None = None
        self._program = shutil.which(program)
        self._thread: threading.Thread | None = None
        if self._program is None:
            log.warning("sound.voice is on but %s is not installed (apt-get install espeak-ng): "
                        "nothing will be spoken", program)
            return
        self._thread = threading.Thread(target=self._run, name="arbitro-voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue ``text`` to be spoken; returns at once."""
        if self._thread is None:
            return
        with self._wake:
            self._waiting.append(text)
            self._wake.notify()

    def _run(self) -> None:
        assert self._program is not None
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._waiting or self._closed.is_set())
                if self._closed.is_set():
                    return
                text = self._waiting.popleft()
                self.started += 1
                wav = None if self.wav_dir is None else self.wav_dir / f"announcement-{self.started:04d}.wav"
                self._process = subprocess.Popen(speech_command(self._program, self.language, wav), text=True,
                                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.PIPE)
            try:
                _, errors = self._process.communicate(text, timeout=SPEAK_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self._process.kill()
                _, errors = self._process.communicate()
            if self._process.returncode == 0 and not errors.strip():  # without a sound card it says so, yet exits 0
                self.spoken.append(text)
            elif not self._closed.is_set() and not self.failed:
                self.failed = True  # one warning: a board without a sound card would fill the log
                why = errors.strip().splitlines()[:1] or [f"exit status {self._process.returncode}"]
                log.warning("%s could not speak (%s): announcements stay silent while it cannot",
                            PROGRAM, why[0])

    def close(self) -> None:
        self._closed.set()
        with self._wake:
            self._wake.notify()
            if self._process is not None and self._process.poll() is None:
                self._process.kill()
        if self._thread is not None:
            self._thread.join(5)
