"""The table's own inputs on the Pi's GPIO, through gpiozero.

* Buttons ``roll``, ``confirm``, ``undo`` and ``next``: a press posts ``ButtonEvent(name, held=False)``
  when released; holding past ``hold_time`` posts ``ButtonEvent(name, held=True)`` instead (the
  secondary meaning), and the release that follows posts nothing.
* One ``RotaryEncoder`` per Scriptorium part (``max_steps=0``: it never clamps), turned into the
  part's offset in spaces: ``(zero + steps // steps_per_space) mod spaces``. ``calibrate`` sets the
  zero so that the encoder reads the offset the game expects (at game start and after a reset).

Callbacks run on gpiozero's threads (synchronously under the mock pin factory); they only post.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hardware.layout import Encoder, Layout

if TYPE_CHECKING:  # gpiozero is imported as the devices are made: a third of the service's start otherwise
    from gpiozero import Button


@dataclass(frozen=True)
class ButtonEvent:
    name: str
    held: bool = False


@dataclass(frozen=True)
class EncoderEvent:
    channel: str
    offset: int


def _nowhere(event: object) -> None:
    """Where events go before a service binds ``post``."""


class _Ring:
    def __init__(self, spec: Encoder, inputs: TableInputs, pin_factory: object | None) -> None:
        self.spec = spec
        from gpiozero import RotaryEncoder

        self.zero = 0
        self.device = RotaryEncoder(spec.a, spec.b, max_steps=0, pin_factory=pin_factory)
        self.device.when_rotated = lambda: inputs.post(EncoderEvent(spec.channel, self.offset))

    @property
    def offset(self) -> int:
        steps: int = self.device.steps
        return (self.zero + steps // self.spec.steps_per_space) % self.spec.spaces

    def calibrate(self, offset: int) -> None:
        self.zero = (offset - self.device.steps // self.spec.steps_per_space) % self.spec.spaces


class TableInputs:
    """Buttons and ring encoders of one board, posting events into the service's loop."""

    def __init__(self, layout: Layout, post: Callable[[object], None] | None = None, *, hold_time: float = 1.0,
                 pin_factory: object | None = None) -> None:
        from gpiozero import Button

        self.post: Callable[[object], None] = post or _nowhere  # the service binds its own
        self.buttons: dict[str, Button] = {}
        for name, pin in layout.buttons.items():
            button = Button(pin, hold_time=hold_time, pin_factory=pin_factory)
            state = {"held": False}

            def held(name: str = name, state: dict[str, bool] = state) -> None:
                state["held"] = True
                self.post(ButtonEvent(name, held=True))

            def released(name: str = name, state: dict[str, bool] = state) -> None:
                if not state["held"]:
                    self.post(ButtonEvent(name))
                state["held"] = False

            button.when_held = held
            button.when_released = released
            self.buttons[name] = button
        self.rings = {e.channel: _Ring(e, self, pin_factory) for e in layout.encoders}

    def offsets(self) -> dict[str, int]:
        return {name: ring.offset for name, ring in self.rings.items()}

    def calibrate(self, offsets: dict[str, int]) -> None:
        for name, value in offsets.items():
            if name in self.rings:
                self.rings[name].calibrate(value)

    def close(self) -> None:
        for device in [*self.buttons.values(), *(r.device for r in self.rings.values())]:
            device.close()
