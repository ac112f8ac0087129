"""Hands at the simulated table: what a player does to a board, for the demo's bots and the tests.

They lift and place pieces on the simulated sensor board (the real firmware on a pty), turn ring
encoders and press buttons through gpiozero's mock pins: the service sees exactly what it would
see from a person at a real board.
"""

from __future__ import annotations

import time
from typing import Any

from controller.games import ChannelKind, State
from controller.referee import shortest_turn
from controller.service import Service
from firmware_bridge.sim import SimulatedBoard
from hardware.inputs import TableInputs


class Hands:
    """What a player's hands do at the simulated table: sensors, ring encoders, buttons."""

    def __init__(self, service: Service, sim: SimulatedBoard, pace: float = 0.0, at_once: bool = False) -> None:
        self.service = service
        self.sim = sim
        self.pace = pace
        self.at_once = at_once  # a move's sensors change in one scan, as no hand can (the demo at --pace 0)
        self.kinds = {c.name: c for c in service.session.channels}

    @property
    def inputs(self) -> TableInputs:
        """The table's gpiozero inputs (the service opens them as it starts)."""
        assert isinstance(self.service.inputs, TableInputs), "hands need the table's gpiozero inputs"
        return self.service.inputs

    def set_channels(self, changes: dict[str, int]) -> None:
        """Make the sensed board show ``changes``: lifts first, then placements, ring turns last."""
        layout = self.service.wiring.layout
        if self.at_once:
            self.sim.set_many({layout.sensor_of[c]: v for c, v in changes.items()
                               if self.kinds[c].kind != ChannelKind.OFFSET})
            changes = {c: v for c, v in changes.items() if self.kinds[c].kind == ChannelKind.OFFSET}
        order = sorted(changes, key=lambda c: (self.kinds[c].kind == ChannelKind.OFFSET, changes[c] > 0, c))
        for channel in order:
            if self.kinds[channel].kind == ChannelKind.OFFSET:
                self.turn(channel, changes[channel])
            else:
                self.sim.set(layout.sensor_of[channel], changes[channel])
            if self.pace:
                time.sleep(self.pace / 4)

    def turn(self, channel: str, target: int) -> None:
        """Turn a ring's encoder the shorter way until it reads ``target``."""
        ring = self.inputs.rings[channel]
        spaces = ring.spec.spaces
        steps = shortest_turn(ring.offset, target, spaces) * ring.spec.steps_per_space
        a, b = ring.device.a.pin, ring.device.b.pin
        for _ in range(abs(steps)):
            first, second = (a, b) if steps > 0 else (b, a)
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def press(self, button: str, hold: float = 0.0) -> None:
        pin = self.inputs.buttons[button].pin
        pin.drive_low()
        if hold:
            time.sleep(hold)
        pin.drive_high()

    def choose(self, text: str) -> None:
        """Pick an action that leaves no trace on the board with the table's buttons: ``next``
        until it is the one offered, then ``confirm``."""
        choices, choice = self.service.read(lambda s: (s.choices(), s.choice))
        if text not in choices:
            raise ValueError(f"{text!r} is not among the choices {choices}")
        steps = (choices.index(text) - choice) % len(choices)
        for _ in range(steps):
            self.press("next")
        self.press("confirm")

    def enact(self, state: State, action: Any) -> bool:
        """Carry out ``action`` on the board; False when it leaves no trace (send it by MQTT)."""
        before = state.physical_view()
        after = state.apply(action).physical_view()
        changes = {c: v for c, v in after.items() if before[c] != v}
        if not changes:
            return False
        self.set_channels(changes)
        return True


def close_table(service: Service, sim: SimulatedBoard) -> None:
    """Switch a simulated table off: its service, the journal and the inputs the service leaves
    open (a test reopens the journal), then its sensor board (the tests' and the benches' tables)."""
    service.stop()
    if service.running():  # closing its journal under a running loop would crash SQLite: say so instead
        raise RuntimeError("the service's loop did not stop within 10 s; its journal is left open")
    if service.journal is not None:
        service.journal.close()
    if service.inputs is not None:
        service.inputs.close()
    sim.close()
