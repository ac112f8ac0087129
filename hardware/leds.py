"""LED strips under the board.

Both back ends are ``adafruit_pixelbuf.PixelBuf`` objects, so the same code fills them and the
same bytes (GRB order, brightness applied) leave for the wire:

* :func:`open_neopixel` on a Raspberry Pi: ``neopixel.NeoPixel`` on a board pin.
* :class:`RecordingPixels` anywhere: a PixelBuf whose ``_transmit`` records every frame, so the
  simulated board, the demo and the tests see exactly what a real strip would receive.

:class:`LedStrip` sits in front of either and sends a frame only when it differs from the last one
(a 400-LED WS2812 frame takes about 12 ms on the wire).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adafruit_pixelbuf import PixelBuf

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)


class RecordingPixels(PixelBuf):  # type: ignore[misc]  # adafruit_pixelbuf has no type information
    """A simulated NeoPixel strip: records each transmitted buffer (GRB bytes, brightness applied)."""

    def __init__(self, n: int, *, brightness: float = 1.0, byteorder: str = "GRB", keep: int = 1000) -> None:
        super().__init__(n, byteorder=byteorder, brightness=brightness, auto_write=False)
        self.transmitted: list[bytes] = []
        self.keep = keep

    def _transmit(self, buffer: bytearray) -> None:
        self.transmitted.append(bytes(buffer))
        if len(self.transmitted) > self.keep:
            del self.transmitted[: len(self.transmitted) - self.keep]


def open_neopixel(pin_name: str, n: int, brightness: float) -> PixelBuf:
    """The real strip on a Raspberry Pi (``pin_name`` such as ``"D18"``; SPI: ``"SPI"``)."""
    import board  # only on a Pi: adafruit-blinka's board detection

    if pin_name.upper() == "SPI":
        import neopixel_spi

        return neopixel_spi.NeoPixel_SPI(board.SPI(), n, brightness=brightness, auto_write=False,
                                         pixel_order=neopixel_spi.GRB)
    import neopixel

    return neopixel.NeoPixel(getattr(board, pin_name), n, brightness=brightness, auto_write=False,
                             pixel_order=neopixel.GRB)


class LedStrip:
    """Shows whole frames on a PixelBuf, one ``show()`` per frame, unchanged frames skipped.

    ``make(n)``, when given, opens the strip again for ``n`` LEDs: a board swapped for another
    game's board brings its own strip length."""

    def __init__(self, pixels: PixelBuf, make: Callable[[int], PixelBuf] | None = None) -> None:
        self.pixels = pixels
        self.make = make
        self.n = len(pixels)
        self.last: tuple[RGB, ...] | None = None

    def can_show(self, n: int) -> bool:
        """True when the strip has, or can be opened again with, ``n`` LEDs."""
        return n == self.n or self.make is not None

    def resize(self, n: int) -> None:
        """Open the strip again for ``n`` LEDs (nothing to do when it has them)."""
        if n == self.n:
            return
        if self.make is None:
            raise ValueError(f"the strip has {self.n} LEDs and cannot be opened for {n}")
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:  # free the pin (a real NeoPixel) before it is claimed again
            deinit()
        self.pixels = self.make(n)
        self.n = n
        self.last = None

    def show(self, frame: Sequence[RGB]) -> bool:
        """Send ``frame`` (one colour per LED); returns False when it equals the frame on the strip."""
        frame = tuple(frame)
        if len(frame) != self.n:
            raise ValueError(f"frame has {len(frame)} colours, the strip has {self.n} LEDs")
        if frame == self.last:
            return False
        for i, colour in enumerate(frame):
            self.pixels[i] = colour
        self.pixels.show()
        self.last = frame
        return True
