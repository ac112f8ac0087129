"""A scripted builder for the tools' tests: reads each prompt and does it on the simulated board."""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.tools.console import Console, Prompt
from firmware_bridge.sim import SimulatedBoard
from hardware.leds import LedStrip


class Builder(Console):
    """``wiring``: element name -> the sensor it is really wired to (the truth the tools must find).
    ``dead``: sensors that never answer; ``answers``: replies to questions, in order ("" = Enter).
    ``place``: how a value is made physically (default ``sim.set``; calibration tests read raw).
    ``strip`` and ``dead_leds``: the builder's eyes on the LEDs: a question about the lit LEDs
    (``judge``) is answered "n" when a dead one is among those the strip last lit. ``reply``: the
    answer to a question (by its text) when it returns one, before ``answers`` are used."""

    def __init__(self, sim: SimulatedBoard, wiring: dict[str, int], *, dead: set[int] | None = None,
                 answers: list[str] | None = None, actions: dict[str, Callable[[Prompt], None]] | None = None,
                 place: Callable[[int, int], None] | None = None, strip: LedStrip | None = None,
                 dead_leds: set[int] | None = None, reply: Callable[[str], str | None] | None = None) -> None:
        self.sim = sim
        self.wiring = wiring
        self.dead = dead or set()
        self.answers = list(answers or [])
        self.actions = actions or {}
        self.place = place or self._set
        self.idle_check = place is None  # raw readings: the firmware reports other units than the sim's values
        self.strip = strip
        self.dead_leds = dead_leds or set()
        self.reply = reply or (lambda question: None)
        self.said: list[str] = []
        self.todo: list[Prompt] = []

    def settle(self, timeout: float = 2.0) -> None:
        """Wait until the firmware has scanned what the hands did and reported all of it (as a
        person pressing Enter a second later would find it)."""
        if self.idle_check:
            assert self.sim.wait_idle(timeout), "the simulated firmware did not report"
            return
        fw = self.sim.firmware
        start = fw.scans
        deadline = time.monotonic() + timeout
        while not (fw.scans > start + fw.debounce + 1 and not fw.pending and fw.stable == fw.raw):
            assert time.monotonic() < deadline, "the simulated firmware did not settle"
            time.sleep(0.001)

    def _set(self, sensor: int, value: int) -> None:
        if sensor not in self.dead:
            self.sim.set(sensor, value)

    def say(self, prompt: Prompt | str) -> None:
        p = prompt if isinstance(prompt, Prompt) else Prompt(prompt)
        self.said.append(p.text)
        if p.action in ("clear", "sweep"):  # done when the tool asks for Enter
            self.todo.append(p)
        elif p.action in ("place", "lift"):
            self.place(self.wiring[p.channel], p.value)
        elif p.action in self.actions:
            self.actions[p.action](p)

    def ask(self, prompt: Prompt | str) -> str:
        self.said.append(prompt.text if isinstance(prompt, Prompt) else prompt)
        if isinstance(prompt, Prompt) and prompt.action == "judge" and self.strip is not None:
            frame = self.strip.pixels.transmitted[-1]
            lit = {i for i in range(self.strip.n) if frame[3 * i: 3 * i + 3] != b"\0\0\0"}
            assert len(lit) == prompt.value, "the question names as many LEDs as are lit"
            return "n" if lit & self.dead_leds else "y"
        for p in self.todo:
            if p.action == "clear":
                for sensor in self.wiring.values():
                    self.place(sensor, 0)
            elif p.action == "sweep":
                for sensor in sorted(self.wiring.values()):
                    for value in (1, 0):
                        self._set(sensor, value)
                        assert self.sim.wait_idle(), "the simulated firmware did not report"
        self.todo.clear()
        self.settle()
        text = prompt.text if isinstance(prompt, Prompt) else prompt
        answer = self.reply(text)
        if answer is not None:
            return answer
        return self.answers.pop(0) if self.answers else ""
