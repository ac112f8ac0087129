"""The board wired up, as the loop shell knows it: the layout of its sensors and LEDs, the sensor
board's HELLO, the strip's size.

The loop translates the sensor board's readings (sensor indexes) into the game's channels here, and
checks each HELLO against the layout. The pure session never sees a sensor index, a HELLO or a
layout: it asks :meth:`Wiring.check` whether a game can be played on this board before it takes
it, and says so (``TakeBoard``) once it has, and the loop wires that game's board up
(:meth:`Wiring.take`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from controller.games import Game
from controller.layouts import check_game
from firmware_bridge.protocol import Hello
from hardware.layout import Layout, LayoutError


class Wiring:
    """The board wired up (``layout``, the board of game ``game``) and what the sensor board last
    said of itself (``hello``). ``layout_for``: another game's layout; ``strip_fits``: whether the LED
    strip can show a layout's LEDs."""

    def __init__(self, layout: Layout, game: str, *, layout_for: Callable[[str], Layout],
                 strip_fits: Callable[[int], bool] = lambda n: True) -> None:
        self.layout = layout
        self.game = game
        self.layout_for = layout_for
        self.strip_fits = strip_fits
        self.hello: Hello | None = None  # the sensor board's last HELLO: which board is wired up

    # -- readings -------------------------------------------------------------------------------

    def channel(self, sensor: int) -> str | None:
        """The game's channel the MCU's sensor ``sensor`` reads; None for a sensor the layout leaves out."""
        return self.layout.channel_of.get(sensor)

    def readings(self, values: Sequence[int]) -> dict[str, int] | str:
        """A snapshot's values (one per sensor) by channel; an error message when it does not fit the layout."""
        if len(values) != self.layout.sensor_count:
            return f"the sensor board sent {len(values)} channels, the layout has {self.layout.sensor_count}"
        return {channel: values[sensor] for sensor, channel in self.layout.channel_of.items()}

    def link_up(self, hello: Hello) -> tuple[str | None, str | None]:
        """The sensor board said HELLO: (an error when it is not the board of the layout, a warning to
        tell when its channels fit but its configuration was flashed from another layout or
        calibration)."""
        try:
            self.layout.check_hello(hello.blocks)
        except LayoutError as exc:
            return str(exc), None
        self.hello = hello
        if " cfg " in hello.firmware or hello.board_kind != self.layout.board_kind:
            try:
                self.layout.check_firmware(hello)
            except LayoutError as exc:
                return None, str(exc)
        return None, None

    # -- games ----------------------------------------------------------------------------------

    def check(self, game: Game, options: dict[str, Any], num_players: int) -> None:
        """Refuse (``LayoutError``, a ``ValueError``) a game this board cannot play: another game's
        board must be the one wired up (its sensors match the sensor board's HELLO, its LEDs the
        strip), and the layout must have the variant's channels."""
        layout = self.layout
        if game.name != self.game:
            layout = self.layout_for(game.name)
            same_hardware = layout.blocks == self.layout.blocks and layout.led_count == self.layout.led_count
            if self.hello is not None:
                layout.check_hello(self.hello.blocks)
            elif not same_hardware:
                raise LayoutError(f"{game.title} needs its own board, and the sensor board has not said which board "
                                  "is wired up (the sensor link is down): connect it, then start the game")
            if not self.strip_fits(layout.led_count):
                raise LayoutError(f"{game.title}'s board has {layout.led_count} LEDs; the strip cannot show them")
        check_game(layout, game, options, num_players)

    def take(self, game: str) -> Layout:
        """The session took a game of ``game`` (checked by :meth:`check`): its board is the one wired up."""
        if game != self.game:
            self.layout, self.game = self.layout_for(game), game
        return self.layout
