"""What the LEDs under the board show, as a pure function of the referee's situation.

* the acting player's colour on every channel a legal move would put something on (only the
  moves a lifted piece is on the way to, while one is in the hand);
* red, blinking, on every channel that differs from the game during a violation;
* for ring turns (offset channels), as many LEDs of the ring as spaces still to turn;
* the winners' colours across the board when the game is over (blinking: the celebration);
* a status bar: whose turn (or amber while a die or card is pending), red on a violation, blue
  while a choice is pending, green once Scriptorium's rings are aligned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hardware.layout import Layout
from hardware.leds import OFF, RGB

PLAYER_COLOURS: list[RGB] = [(255, 32, 0), (0, 64, 255), (0, 200, 40), (230, 180, 0), (170, 0, 200), (0, 190, 190)]
RED: RGB = (255, 0, 0)
AMBER: RGB = (255, 110, 0)
BLUE: RGB = (0, 0, 255)
GREEN: RGB = (0, 255, 0)
WHITE: RGB = (120, 120, 120)
TURN: RGB = (0, 160, 160)


@dataclass(frozen=True)
class LedScene:
    """Everything the LED picture depends on."""

    player: int  # acting player, -1 chance, -2 game over
    targets: dict[str, int]
    violation: tuple[str, ...] = ()
    progress: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    ambiguous: bool = False
    aligned: bool = False
    offsets_to_turn: tuple[tuple[str, int], ...] = ()  # (encoder channel, spaces still to turn)


def player_colour(player: int) -> RGB:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _light(frame: list[RGB], leds: Iterable[int], colour: RGB) -> None:
    for i in leds:
        frame[i] = colour


def render_frame(layout: Layout, scene: LedScene, blink_on: bool) -> list[RGB]:
    """The frame for ``scene``; ``blink_on`` alternates at the blink rate."""
    frame = [OFF] * layout.led_count
    board_leds = [i for leds in layout.leds_of.values() for i in leds]
    status = layout.status_leds
    if scene.player == -2:
        colours = [player_colour(w) for w in scene.winners] or [WHITE]
        for n, i in enumerate(board_leds):
            frame[i] = colours[(n + int(blink_on)) % len(colours)]
        _light(frame, status, colours[0])
        return frame
    colour = player_colour(scene.player) if scene.player >= 0 else AMBER
    for channel in scene.targets:
        _light(frame, layout.leds_of.get(channel, ()), colour)
    for channel, spaces in scene.offsets_to_turn:  # clockwise from the first LED, or back from the last
        ring = layout.leds_of.get(channel, [])
        _light(frame, ring[:spaces] if spaces > 0 else ring[len(ring) + spaces:], TURN)
    for channel in scene.progress:
        _light(frame, layout.leds_of.get(channel, ()), WHITE)
    if blink_on:
        for channel in scene.violation:
            _light(frame, layout.leds_of.get(channel, ()), RED)
    bar = [colour, AMBER if scene.player == -1 else OFF, RED if scene.violation else OFF,
           BLUE if scene.ambiguous else GREEN if scene.aligned else OFF]
    for i, c in zip(status, bar, strict=False):
        frame[i] = c
    return frame
