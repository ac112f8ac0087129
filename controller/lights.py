"""What the strip under the board shows: the session's last LED scene, drawn for the board wired up
and blinking at the configured rate, each player in his pattern where ``leds.patterns`` gives them
(the pure session has no clock, the loop turns the blink)."""

from __future__ import annotations

from collections.abc import Sequence

from controller.ledview import LedScene, player_lit, render_frame
from controller.wiring import Wiring
from hardware.leds import RGB, LedStrip


class Lights:
    """The strip (``strip``) showing the last scene on the board ``wiring`` has wired up; it blinks
    every ``period`` seconds, the acting player's LEDs in his pattern of ``patterns`` (seat by seat,
    ``ledview.PATTERNS``; none: steady)."""

    def __init__(self, strip: LedStrip, wiring: Wiring, blink_hz: float, patterns: Sequence[str] = ()) -> None:
        self.strip = strip
        self.wiring = wiring
        self.period = 0.5 / blink_hz
        self.patterns = tuple(patterns)
        self.scene: LedScene | None = None
        self.blink_on = True
        self.tick = 0  # blinks so far: where the players' patterns are
        self._drawn: tuple[object, ...] = ()  # what the last frame was drawn from, and the frame
        self._frame: tuple[RGB, ...] = ()

    def show(self, scene: LedScene | None) -> None:
        """Show ``scene`` from now on (None: the last one stays)."""
        if scene is not None:
            self.scene = scene
            self.draw()

    def blink(self) -> None:
        self.blink_on = not self.blink_on
        self.tick += 1
        self.draw()

    def draw(self) -> None:
        if self.scene is None:
            return
        lit = player_lit(self.patterns, self.scene.player, self.tick)
        drawn = (self.wiring.layout, self.scene, self.blink_on, lit)
        if drawn != self._drawn:  # a held move taken shows the scene it showed held: not drawn again
            self._drawn, self._frame = drawn, tuple(render_frame(self.wiring.layout, self.scene, self.blink_on, lit))
        self.strip.show(self._frame)  # the strip sends it only if it is not what it shows (a resized strip shows none)
