"""What the LEDs under the board show, as a pure function of the referee's situation.

* the acting player's colour on every channel a legal move would put something on (only the
  moves a lifted piece is on the way to, while one is in the hand);
* red, blinking, on every channel that differs from the game during a violation;
* for ring turns (offset channels), as many LEDs of the ring as spaces still to turn;
* the winners' colours across the board when the game is over (blinking: the celebration);
* a move to carry out (a computer player's, a hint): in the player's colour, what to lift blinking
  and where to put it steady, the rings to turn, and the status bar's last LED blinking in that
  colour (the legal-move highlight never blinks);
* a bead move to carry out: the pit to take from blinking, the pit to fill steady while it lacks
  beads (a pit holds one LED: the counts are in the ``expected`` event's words);
* a status bar: whose turn (or amber while a die or card is pending), red on a violation (amber,
  blinking, while a computer player could not decide), blue while a choice is pending, green while
  the game lights its own status (``State.status_light``);
* beside the colour, where ``leds.patterns`` gives them, each player's own pattern (steady, slow
  blink, double blink, triple blink: :data:`PATTERNS`) on his targets and the whose-turn LED, so
  that players whose colours look alike are told apart (issue 36).

It draws without the strip (``hardware.leds`` sends the frame), so the pure session can describe the
picture (:class:`LedScene`) without importing any hardware.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from controller.games.base import PALETTE, ColourName, State

if TYPE_CHECKING:
    from hardware.layout import Layout
    from hardware.leds import RGB

LED_RGB: dict[ColourName, RGB] = {
    "red": (255, 32, 0), "orange": (255, 70, 0), "yellow": (230, 180, 0), "green": (0, 200, 40),
    "blue": (0, 64, 255), "violet": (170, 0, 200), "brown": (110, 35, 0), "cyan": (0, 190, 190),
}
"""How a NeoPixel shows each of the games' colours (``controller.games.base.ColourName``): the
display's hex values look wrong on an LED (too dim, yellow turns green), so the LEDs have their own.
A brown stick can only be a dim orange."""
OFF: RGB = (0, 0, 0)  # as ``hardware.leds.OFF``, which this module does not import
NO_COLOUR: RGB = (60, 60, 60)
"""A player the game has given no colour yet (while colours are still being chosen)."""
PLAYER_COLOURS: list[RGB] = [LED_RGB[c] for c in PALETTE]
"""By seat, for callers that know no state (the games' own colours come from ``game_colours``)."""
RED: RGB = (255, 0, 0)
AMBER: RGB = (255, 110, 0)
BLUE: RGB = (0, 0, 255)
GREEN: RGB = (0, 255, 0)
WHITE: RGB = (120, 120, 120)
TURN: RGB = (0, 160, 160)


PATTERNS: Final[Mapping[str, tuple[bool, ...]]] = {
    "steady": (True,) * 8,
    "slow": (True,) * 4 + (False,) * 4,
    "double": (True, False, True) + (False,) * 5,
    "triple": (True, False, True, False, True) + (False,) * 3,
}
"""A player's pattern (``leds.patterns``, seat by seat): lit or not at each of eight blink ticks, two
seconds at the default ``leds.blink_hz`` of 2 (a tick every quarter of a second)."""


def player_lit(patterns: Sequence[str], player: int, tick: int) -> bool:
    """Whether ``player``'s LEDs are lit at blink tick ``tick`` with the seats' ``patterns`` (none
    given, or no player acting: always)."""
    if player < 0 or not patterns:
        return True
    return PATTERNS[patterns[player % len(patterns)]][tick % len(PATTERNS["steady"])]


@dataclass(frozen=True)
class LedScene:
    """Everything the LED picture depends on."""

    player: int  # acting player, -1 chance, -2 game over
    targets: dict[str, int]
    violation: tuple[str, ...] = ()
    progress: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    ambiguous: bool = False
    status_light: bool = False  # the game's own status (``State.status_light``)
    offsets_to_turn: tuple[tuple[str, int], ...] = ()  # (encoder channel, spaces still to turn)
    colours: tuple[ColourName | None, ...] = ()
    """Each player's colour in the game (``game_colours(state)``); empty: the palette by seat."""
    lift: tuple[str, ...] = ()  # a move to carry out: the channels to empty or take from (blinking)
    place: tuple[str, ...] = ()  # ... and those to put on (steady)
    warning: bool = False  # the computer player to act could not decide (``next`` asks it again)

    @property
    def carry_out(self) -> bool:
        return bool(self.lift or self.place or (self.offsets_to_turn and not self.targets))


def game_colours(state: State) -> tuple[ColourName | None, ...]:
    """Each player's colour as the game gives it, for :attr:`LedScene.colours`."""
    return tuple(state.player_colour(p) for p in range(state.num_players))


def player_colour(player: int, colours: Sequence[ColourName | None] = ()) -> RGB:
    """The LED colour of ``player``: his colour in the game when ``colours`` (``game_colours``) is
    given, else the palette by seat."""
    if colours and 0 <= player < len(colours):
        name = colours[player]
        return NO_COLOUR if name is None else LED_RGB[name]
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _light(frame: list[RGB], leds: Iterable[int], colour: RGB) -> None:
    for i in leds:
        frame[i] = colour


def render_frame(layout: Layout, scene: LedScene, blink_on: bool, player_on: bool = True) -> list[RGB]:
    """The frame for ``scene``; ``blink_on`` alternates at the blink rate, ``player_on`` follows the
    acting player's pattern (:func:`player_lit`): his targets and the whose-turn LED."""
    frame = [OFF] * layout.led_count
    board_leds = [i for leds in layout.leds_of.values() for i in leds]
    status = layout.status_leds
    if scene.player == -2:
        colours = [player_colour(w, scene.colours) for w in scene.winners] or [WHITE]
        for n, i in enumerate(board_leds):
            frame[i] = colours[(n + int(blink_on)) % len(colours)]
        _light(frame, status, colours[0])
        return frame
    colour = player_colour(scene.player, scene.colours) if scene.player >= 0 else AMBER
    for channel in scene.targets:
        _light(frame, layout.leds_of.get(channel, ()), colour if player_on else OFF)
    for channel, spaces in scene.offsets_to_turn:  # clockwise from the first LED, or back from the last
        ring = layout.leds_of.get(channel, [])
        _light(frame, ring[:spaces] if spaces > 0 else ring[len(ring) + spaces:], TURN)
    for channel in scene.place:
        _light(frame, layout.leds_of.get(channel, ()), colour)
    if blink_on:
        for channel in scene.lift:
            _light(frame, layout.leds_of.get(channel, ()), colour)
    for channel in scene.progress:
        _light(frame, layout.leds_of.get(channel, ()), WHITE)
    if blink_on:
        for channel in scene.violation:
            _light(frame, layout.leds_of.get(channel, ()), RED)
    warning = AMBER if scene.warning and blink_on else OFF
    bar = [colour if player_on else OFF, AMBER if scene.player == -1 else OFF, RED if scene.violation else warning,
           (colour if blink_on else OFF) if scene.carry_out
           else BLUE if scene.ambiguous else GREEN if scene.status_light else OFF]
    for i, c in zip(status, bar, strict=False):
        frame[i] = c
    return frame
