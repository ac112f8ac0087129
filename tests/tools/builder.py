"""A scripted builder for the tools' tests: reads each prompt and does it on the simulated board."""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.tools.console import Console, Prompt
from firmware_bridge.sim import SimulatedBoard


class Builder(Console):
    """``wiring``: element name -> the sensor it is really wired to (the truth the tools must find).
    ``dead``: sensors that never answer; ``answers``: replies to questions, in order ("" = Enter).
    ``place``: how a value is made physically (default ``sim.set``; calibration tests read raw)."""

    def __init__(self, sim: SimulatedBoard, wiring: dict[str, int], *, dead: set[int] | None = None,
                 answers: list[str] | None = None, actions: dict[str, Callable[[Prompt], None]] | None = None,
                 place: Callable[[int, int], None] | None = None) -> None:
        self.sim = sim
        self.wiring = wiring
        self.dead = dead or set()
        self.answers = list(answers or [])
        self.actions = actions or {}
        self.place = place or self._set
        self.idle_check = place is None  # raw readings: the firmware reports other units than the sim's values
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
        return self.answers.pop(0) if self.answers else ""
