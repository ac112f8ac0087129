"""LED strips under the board.

Both back ends are ``adafruit_pixelbuf.PixelBuf`` objects, so the same code fills them and the
same bytes (GRB order, brightness applied) leave for the wire:

* :func:`open_neopixel` on a Raspberry Pi: ``neopixel.NeoPixel`` on a board pin.
* :class:`RecordingPixels` anywhere: a PixelBuf whose ``_transmit`` records every frame, so the
  simulated board, the demo and the tests see exactly what a real strip would receive; with
  ``wire=True`` it also takes as long as a WS2812 strip takes to receive the frame.

:class:`LedStrip` sits in front of either and sends a frame only when it differs from the last one.
A WS2812 frame takes 30 µs per LED on the wire (Jeocinco's 649 LEDs: 19.5 ms), and the SPI driver
fills its buffer in pure Python first: once :meth:`LedStrip.start` is called, frames are written by
a worker thread of their own, so the service's loop goes on to the journal and MQTT while the bytes
are on the wire. The worker always sends the latest frame: one superseded before it went out is
dropped, never sent late. Only the LEDs a frame changes are set in the buffer (PixelBuf encodes
each in pure Python): a move changes a handful, so its bytes leave at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from adafruit_pixelbuf import PixelBuf

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

WIRE_SECONDS_PER_LED = 24 / 800_000
"""A WS2812 takes 24 bits at 800 kbit/s: 30 µs per LED."""
WIRE_RESET_SECONDS = 80e-6
"""The low time that latches a frame (WS2812B: at least 50 µs, later parts 280 µs)."""


HANDOVER_TIMEOUT_S = 0.05
"""How long :meth:`LedStrip.show` waits for an idle worker to begin sending a frame (the time it
takes to fill the strip's buffer: about 1 ms here for 649 LEDs)."""


class RecordingPixels(PixelBuf):  # type: ignore[misc]  # adafruit_pixelbuf has no type information
    """A simulated NeoPixel strip: records each transmitted buffer (GRB bytes, brightness applied)
    and, in :attr:`transmit_times`, when each transmission began and ended (``time.monotonic``).
    With ``wire=True`` a transmission takes the real wire time of the frame, as on a Pi."""

    def __init__(self, n: int, *, brightness: float = 1.0, byteorder: str = "GRB", keep: int = 1000,
                 wire: bool = False) -> None:
        super().__init__(n, byteorder=byteorder, brightness=brightness, auto_write=False)
        self.transmitted: list[bytes] = []
        self.transmit_times: list[tuple[float, float]] = []
        self.keep = keep
        self.wire_seconds = n * WIRE_SECONDS_PER_LED + WIRE_RESET_SECONDS if wire else 0.0

    def _transmit(self, buffer: bytearray) -> None:
        began = time.monotonic()
        if self.wire_seconds:
            time.sleep(self.wire_seconds)  # the strip is being written: nothing else goes on the wire
        self.transmitted.append(bytes(buffer))
        self.transmit_times.append((began, time.monotonic()))
        if len(self.transmitted) > self.keep:
            del self.transmitted[: len(self.transmitted) - self.keep]
            del self.transmit_times[: len(self.transmit_times) - self.keep]


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

    Until :meth:`start`, :meth:`show` writes the frame itself (the builder's tools, which want each
    frame on the strip before they go on). After it, a worker thread writes: :meth:`show` only
    hands the frame over and returns, and a frame not yet taken by the worker when the next comes
    is dropped (:attr:`dropped` counts them). :meth:`flush` waits until the strip shows the last
    frame.

    ``make(n)``, when given, opens the strip again for ``n`` LEDs: a board swapped for another
    game's board brings its own strip length."""

    def __init__(self, pixels: PixelBuf, make: Callable[[int], PixelBuf] | None = None) -> None:
        self.pixels = pixels
        self.make = make
        self.n = len(pixels)
        self.last: tuple[RGB, ...] | None = None
        """The last frame asked for (on the strip, or on its way there)."""
        self.dropped = 0
        self._next: tuple[RGB, ...] | None = None  # handed over, not yet taken by the worker
        self._writing = False
        self._sending: tuple[RGB, ...] | None = None  # the frame whose bytes are leaving the buffer
        self._written: tuple[RGB, ...] | None = None  # the frame the pixel buffer holds
        self._stopping = False
        self._worker: threading.Thread | None = None
        self._lock = threading.Condition()

    def start(self) -> LedStrip:
        """Write frames on a worker thread from now on."""
        if self._worker is None:
            self._stopping = False
            self._worker = threading.Thread(target=self._write_frames, name="arbitro-leds", daemon=True)
            self._worker.start()
        return self

    def stop(self) -> None:
        """Send what was handed over, then end the worker (frames are written directly again)."""
        worker = self._worker
        if worker is None:
            return
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        worker.join(5)
        self._worker = None

    @property
    def writing(self) -> bool:
        """True while the worker is putting a frame on the wire."""
        return self._writing

    @property
    def waiting(self) -> bool:
        """True while a frame handed over has not been taken by the worker yet."""
        return self._next is not None

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every frame handed over is on the strip; False if it took longer than ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: self._next is None and not self._writing, timeout)

    def _write_frames(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._next is not None or self._stopping)
                frame, self._next = self._next, None
                if frame is None:  # stopping, and nothing left to send
                    return
                self._writing = True
            try:
                self._write(frame)
            finally:
                with self._lock:
                    self._writing = False
                    self._sending = None
                    self._lock.notify_all()

    def _write(self, frame: tuple[RGB, ...]) -> None:
        # Only the LEDs that changed since the last frame written are set: PixelBuf encodes each in
        # pure Python (1.4 ms here for Jeocinco's 649), and a move changes a handful.
        written = self._written
        pixels = self.pixels
        if written is None or len(written) != len(frame):
            for i, colour in enumerate(frame):
                pixels[i] = colour
        else:
            for i, colour in enumerate(frame):
                if colour != written[i]:
                    pixels[i] = colour
        self._written = frame
        if self._worker is not None:
            with self._lock:
                self._sending = frame
                self._lock.notify_all()  # the bytes go out from here: ``show`` waits for that
        self.pixels.show()

    def can_show(self, n: int) -> bool:
        """True when the strip has, or can be opened again with, ``n`` LEDs."""
        return n == self.n or self.make is not None

    def resize(self, n: int) -> None:
        """Open the strip again for ``n`` LEDs (nothing to do when it has them)."""
        if n == self.n:
            return
        if self.make is None:
            raise ValueError(f"the strip has {self.n} LEDs and cannot be opened for {n}")
        self.flush()  # the worker is done with the old strip before it goes
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:  # free the pin (a real NeoPixel) before it is claimed again
            deinit()
        self.pixels = self.make(n)
        self.n = n
        self.last = self._written = None

    def show(self, frame: Sequence[RGB]) -> bool:
        """Send ``frame`` (one colour per LED); returns False when it equals the frame on the strip."""
        frame = tuple(frame)
        if len(frame) != self.n:
            raise ValueError(f"frame has {len(frame)} colours, the strip has {self.n} LEDs")
        if frame == self.last:
            return False
        self.last = frame
        if self._worker is None:
            self._write(frame)
            return True
        with self._lock:
            if self._next is not None:
                self.dropped += 1  # superseded before the worker took it: never sent late
            self._next = frame
            self._lock.notify_all()
            if not self._writing:  # an idle worker sends it now: the LEDs start before the loop goes on
                self._lock.wait_for(lambda: self._next is not frame and (self._sending is frame or not self._writing),
                                    HANDOVER_TIMEOUT_S)
        return True
