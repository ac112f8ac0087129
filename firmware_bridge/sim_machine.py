"""CPython doubles of MicroPython's ``machine`` and ``time`` for the sensor firmware.

``SimMachine(config)`` models the reference board wired as a firmware ``config`` says
(``firmware_bridge.firmware.arbitro_fw.default_config``): a 74HC165 chain read over SPI after
an SH/LD pulse, and CD74HC4067 multiplexers with active-low enables feeding one ADC. Its
``Pin``, ``SPI``, ``ADC`` and ``WDT`` attributes stand in for the ``machine`` module's classes,
so ``Firmware(config, SimMachine(config), RealClock(), port)`` runs the unchanged firmware, and
a ``SimMachine`` placed in ``sys.modules["machine"]`` serves the Pico's ``main.py`` (tested).
``set(channel, value)`` changes what a sensor physically sees:

- presence: the chain bit reads 0 when present if ``presence_active_low`` (else 1); the chain
  latches its inputs when SH/LD goes low, as the real part does.
- count / piece: the ADC reads ``value * 1024`` (+ optional ``noise`` in ``[-noise, noise]``,
  which must stay below 512 to quantize back to ``value``); for an input the config calibrates
  (``analog_cal``), the middle of the band the firmware maps to ``value``. ``set_raw(channel,
  reading)`` sets the ADC reading itself (a sensor model: what a real hall sensor would read).

Clocks (MicroPython's ``time.ticks_*`` API): ``RealClock`` follows ``time.monotonic_ns``;
``ManualClock`` only moves when ``advance_us`` is called (``sleep_us`` advances it too), for
deterministic tests.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

TICKS_PERIOD = 1 << 30
"""MicroPython's ticks wrap at 2**30 on the RP2040."""


def ticks_add(ticks: int, delta: int) -> int:
    """MicroPython's ``time.ticks_add``."""
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    """MicroPython's ``time.ticks_diff``: signed ``a - b`` across the wrap."""
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


class RealClock:
    """MicroPython's ``time`` tick functions on CPython's monotonic clock."""

    ticks_add = staticmethod(ticks_add)
    ticks_diff = staticmethod(ticks_diff)

    def ticks_ms(self) -> int:
        """Milliseconds, wrapping at 2**30."""
        return (time.monotonic_ns() // 1_000_000) % TICKS_PERIOD

    def ticks_us(self) -> int:
        """Microseconds, wrapping at 2**30."""
        return (time.monotonic_ns() // 1_000) % TICKS_PERIOD

    def sleep_us(self, us: int) -> None:
        """Sleep ``us`` microseconds."""
        time.sleep(us / 1e6)


class ManualClock(RealClock):
    """A clock that only moves when told to: ``advance_us`` (``sleep_us`` also advances it)."""

    def __init__(self, start_us: int = 0) -> None:
        self.now_us = start_us

    def advance_us(self, us: int) -> None:
        """Move time forward by ``us`` microseconds."""
        self.now_us += us

    def ticks_ms(self) -> int:
        return (self.now_us // 1000) % TICKS_PERIOD

    def ticks_us(self) -> int:
        return self.now_us % TICKS_PERIOD

    def sleep_us(self, us: int) -> None:
        self.advance_us(us)


class _Pin:
    """``machine.Pin``: remembers its level in the owning ``SimMachine``; SH/LD low latches the chain."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    _machine: SimMachine

    def __init__(self, pin_id: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        self.id = pin_id
        if value is not None:
            self.value(value)

    def value(self, v: int | None = None) -> int:
        """Read the level, or set it (returns the level)."""
        levels = self._machine.levels
        if v is None:
            return levels.get(self.id, 0)
        v = 1 if v else 0
        if self.id == self._machine.load_pin and v == 0 and levels.get(self.id, 1) == 1:
            self._machine.latch()
        levels[self.id] = v
        if self.id in self._machine.mux_pins:
            self._machine.mux_pin_set(self.id, v)
        return v

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class _SPI:
    """``machine.SPI``: ``readinto`` shifts out the latched 74HC165 chain, first bit = presence channel 0."""

    _machine: SimMachine

    def __init__(self, spi_id: int, **kwargs: Any) -> None:
        self.id = spi_id

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        latched = self._machine.latched
        n = min(len(buf), len(latched))
        buf[:n] = latched[:n]
        for i in range(n, len(buf)):
            buf[i] = 0xFF


class _ADC:
    """``machine.ADC``: reads the analog input the enabled multiplexer currently selects."""

    _machine: SimMachine

    def __init__(self, pin: Any) -> None:
        self.pin = pin

    def read_u16(self) -> int:
        return self._machine.adc_value()


class _WDT:
    """``machine.WDT``: ``feed`` counts feeds."""

    _machine: SimMachine

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout

    def feed(self) -> None:
        self._machine.wdt_feeds += 1


class SimMachine:
    """A fake ``machine`` module bound to one virtual sensor array (see the module docstring).

    Thread-safe for one writer (``set``/``set_many``) and the firmware's thread reading.
    """

    def __init__(self, config: dict[str, Any], noise: int = 0, seed: int = 0) -> None:
        self.config = config
        self.levels: dict[int, int] = {}
        self.wdt_feeds = 0
        self.noise = noise
        self._rng = random.Random(seed)
        self.load_pin = config["sr_load_pin"]
        self.active_low = config.get("presence_active_low", True)
        self.select_pins = tuple(config["mux_select_pins"])
        self.kinds: list[str] = [kind for kind, count in config["blocks"] for _ in range(count)]
        self.values = bytearray(len(self.kinds))
        self.presence_bit: dict[int, int] = {}
        self.analog_input: dict[int, int] = {}
        self.analog_channel: list[int] = []
        self.raw: dict[int, int] = {}  # analog channel -> ADC reading set with set_raw
        for ch, kind in enumerate(self.kinds):
            if kind == "presence":
                self.presence_bit[ch] = len(self.presence_bit)
            else:
                self.analog_input[ch] = len(self.analog_channel)
                self.analog_channel.append(ch)
        cal = list(config.get("analog_cal", []))
        self.cal = [cal[j] if j < len(cal) else None for j in range(len(self.analog_channel))]
        self.enable_pins = tuple(config["mux_enable_pins"])[: (len(self.analog_channel) + 15) // 16]
        self.mux_pins = frozenset(self.select_pins + self.enable_pins)
        self._select_bit = {pin: b for b, pin in enumerate(self.select_pins)}
        self._enable_index = {pin: i for i, pin in enumerate(self.enable_pins)}
        self._sel = 0
        self._enabled: set[int] = set()
        self._input: int | None = None
        idle = 0xFF if self.active_low else 0x00
        self.chain = bytearray([idle]) * ((len(self.presence_bit) + 7) // 8)
        self.latched = bytes(self.chain)
        self._lock = threading.Lock()
        machine = self
        self.Pin = type("Pin", (_Pin,), {"_machine": machine})
        self.SPI = type("SPI", (_SPI,), {"_machine": machine})
        self.ADC = type("ADC", (_ADC,), {"_machine": machine})
        self.WDT = type("WDT", (_WDT,), {"_machine": machine})

    def check(self, channel: int, value: int) -> None:
        """Raise ``ValueError`` unless ``channel`` exists and can read ``value`` (presence 0/1, analog 0..63)."""
        if not 0 <= channel < len(self.kinds):
            raise ValueError(f"channel {channel} not in 0..{len(self.kinds) - 1}")
        kind = self.kinds[channel]
        limit = 1 if kind == "presence" else 63
        if not 0 <= value <= limit:
            raise ValueError(f"channel {channel} ({kind}) value {value} out of range 0..{limit}")
        j = self.analog_input.get(channel)
        cal = self.cal[j] if j is not None else None
        if cal is not None and value not in cal[1]:
            raise ValueError(f"channel {channel} ({kind}) is calibrated for {sorted(cal[1])}, not {value}")

    def reading_for(self, j: int, value: int) -> int:
        """The ADC reading analog input ``j`` gives for ``value``: the middle of its calibrated band."""
        cal = self.cal[j]
        if cal is None:
            return value * 1024
        thresholds, values = cal
        i = values.index(value)
        low = thresholds[i - 1] if i > 0 else 0
        high = thresholds[i] if i < len(thresholds) else 65536
        return (low + high) // 2

    def set_raw(self, channel: int, reading: int) -> None:
        """Make analog ``channel``'s ADC read ``reading`` (0..65535), whatever value that maps to."""
        if channel not in self.analog_input or not 0 <= reading <= 0xFFFF:
            raise ValueError(f"channel {channel} is not analog, or {reading} is not 0..65535")
        j = self.analog_input[channel]
        with self._lock:
            self.raw[channel] = reading
            cal = self.cal[j]
            if cal is not None:
                thresholds, values = cal
                self.values[channel] = values[sum(1 for t in thresholds if reading >= t)]
            else:
                self.values[channel] = min(63, (reading + 512) >> 10)

    def set(self, channel: int, value: int) -> None:
        """Make channel ``channel`` physically read ``value`` (``ValueError`` if ``check`` fails)."""
        self.check(channel, value)
        with self._lock:
            self.values[channel] = value
            self.raw.pop(channel, None)
            bit = self.presence_bit.get(channel)
            if bit is not None:
                mask = 0x80 >> (bit % 8)
                on = bool(value) != self.active_low
                if on:
                    self.chain[bit // 8] |= mask
                else:
                    self.chain[bit // 8] &= ~mask & 0xFF

    def set_many(self, values: dict[int, int]) -> None:
        """``set`` several channels; all are checked first, so a bad one changes none."""
        for channel, value in values.items():
            self.check(channel, value)
        for channel, value in values.items():
            self.set(channel, value)

    def latch(self) -> None:
        """SH/LD went low: the chain captures the inputs."""
        with self._lock:
            self.latched = bytes(self.chain)

    def mux_pin_set(self, pin: int, level: int) -> None:
        """A select or enable pin moved: track which analog input reaches the ADC (None: no or several muxes on)."""
        if pin in self._select_bit:
            bit = 1 << self._select_bit[pin]
            self._sel = (self._sel | bit) if level else (self._sel & ~bit)
        if pin in self._enable_index:
            if level:
                self._enabled.discard(self._enable_index[pin])
            else:
                self._enabled.add(self._enable_index[pin])
        self._input = next(iter(self._enabled)) * 16 + self._sel if len(self._enabled) == 1 else None

    def adc_value(self) -> int:
        """The ADC reading for the selected analog input (floating high-ish if no mux is enabled)."""
        j = self._input
        if j is None:
            return 0xFFFF
        if j >= len(self.analog_channel):
            return 0
        channel = self.analog_channel[j]
        raw = self.raw.get(channel)
        if raw is None:
            raw = self.reading_for(j, self.values[channel])
        if self.noise:
            raw += self._rng.randint(-self.noise, self.noise)
        return max(0, min(0xFFFF, raw))
