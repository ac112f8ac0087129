"""The table's buzzer: gpiozero's ``TonalBuzzer`` on one GPIO, playing short tunes on its own thread.

A tune is a few notes, each a note name ("A5") or None for a rest, with how long it lasts in
seconds. :meth:`Buzzer.play` only queues, so the service's loop never waits for a tune; a burst of
cues keeps the newest few waiting (a cue that is late is no cue). Every tune is recorded by name in
:attr:`Buzzer.played` as it starts: over gpiozero's ``MockFactory`` with PWM pins this is the
simulated twin, and the mock pin's frequency and value show what a piezo would have sounded.

gpiozero's ``TonalBuzzer`` has no volume: it drives the pin at half duty, a piezo's loudest; a
quieter buzzer is a resistor in series (``docs/build/README.md``).
"""

from __future__ import annotations

import threading
from collections import deque

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

Note = tuple[str | None, float]
Tune = tuple[Note, ...]

WAITING = 3  # tunes that may wait while one plays; older ones are dropped
RECORDED = 256  # the last tunes kept in ``played``

# A piezo sounds best in the kHz; A5 with two octaves either way gives 220..3520 Hz.
MID_TONE = "A5"
OCTAVES = 2


class Buzzer:
    """A ``TonalBuzzer`` on ``pin`` playing queued tunes, one at a time."""

    def __init__(self, pin: int, *, pin_factory: object | None = None) -> None:
        self.device = TonalBuzzer(pin, mid_tone=Tone(MID_TONE), octaves=OCTAVES, pin_factory=pin_factory)
        self.played: deque[str] = deque(maxlen=RECORDED)
        self._waiting: deque[tuple[str, Tune]] = deque(maxlen=WAITING)
        self._wake = threading.Condition()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="arbitro-buzzer", daemon=True)
        self._thread.start()

    def play(self, name: str, tune: Tune) -> None:
        """Queue ``tune`` (recorded as ``name``); returns at once."""
        with self._wake:
            self._waiting.append((name, tune))
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._waiting or self._closed.is_set())
                if self._closed.is_set():
                    return
                name, tune = self._waiting.popleft()
            self.played.append(name)
            for note, seconds in tune:
                if note is None:
                    self.device.stop()
                else:
                    self.device.play(Tone(note))
                if self._closed.wait(seconds):
                    break
            self.device.stop()

    def close(self) -> None:
        self._closed.set()
        with self._wake:
            self._wake.notify()
        self._thread.join(5)
        self.device.close()
