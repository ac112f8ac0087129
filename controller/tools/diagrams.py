"""Wiring diagrams (SVG) and the parts and power figures of ``docs/build/``, computed from the layouts.

``python -m controller.tools.diagrams`` rewrites ``docs/build/<game>-wiring.svg`` for every
shipped layout; ``tests/tools/test_diagrams.py`` fails when a committed one is out of date.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from controller.games import game_names
from firmware_bridge.firmware import arbitro_fw as fw
from hardware.layout import Layout, load_layout

GAMES = tuple(game_names())
OUT_DIR = Path(__file__).resolve().parents[2] / "docs" / "build"

LED_MA_FULL_WHITE = 60  # a WS2812B at full white: 3 x 20 mA
LEDS_PER_INJECTION = 100  # feed 5 V again every 100 LEDs (and at both ends of the strip)
BRIGHTNESS = 0.3  # leds.brightness's default
FUSES = (1, 2, 3, 5, 7.5, 10, 15, 20)  # common blade-fuse ratings, A


@dataclass(frozen=True)
class Plan:
    """What a layout needs: parts and the LED power budget."""

    game: str
    presence: int
    analog: int
    shift_registers: int
    multiplexers: int
    leds: int
    encoders: int
    buttons: int
    led_amps: float  # every LED white at BRIGHTNESS
    injections: int
    branch_fuse: float
    supply_amps: int  # the LEDs' own 5 V supply: all white at BRIGHTNESS, 25 % headroom (the Pi has its own)


def plan(layout: Layout, brightness: float = BRIGHTNESS) -> Plan:
    presence = sum(n for k, n in layout.blocks if k == "presence")
    analog = sum(n for k, n in layout.blocks if k != "presence")
    led_amps = layout.led_count * LED_MA_FULL_WHITE / 1000 * brightness
    injections = max(1, math.ceil(layout.led_count / LEDS_PER_INJECTION))
    branch = led_amps / injections
    fuse = next((f for f in FUSES if f >= branch * 1.25), FUSES[-1])
    return Plan(layout.game, presence, analog, math.ceil(presence / 8), math.ceil(analog / 16), layout.led_count,
                len(layout.encoders), len(layout.buttons), round(led_amps, 2), injections, fuse,
                max(2, math.ceil(led_amps * 1.25)))


def _text(x: float, y: float, s: str, size: int = 12, anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{escape(s)}</text>')


def _box(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="#333"/>'


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = "#333") -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="2"/>'


def svg(layout: Layout) -> str:
    """The board's wiring: Pi, Pico, sensor chains, LED strip with its power, buttons and encoders."""
    p = plan(layout)
    parts: list[str] = []
    add = parts.append
    add(_text(20, 28, f"{layout.game}: wiring of {layout.board_kind} (generated from hardware/layouts/"
                      f"{layout.game}.json)", 15, weight="bold"))
    # Raspberry Pi
    add(_box(20, 50, 250, 250, "#e8f4e8"))
    add(_text(145, 72, "Raspberry Pi (arbitro run)", 13, "middle", "bold"))
    y = 95
    for name, pin in layout.buttons.items():
        add(_text(32, y, f"GPIO{pin}: button {name} (to GND)"))
        y += 18
    for e in layout.encoders:
        add(_text(32, y, f"GPIO{e.a}/{e.b}: encoder {e.channel.split(':')[-1]}"))
        y += 18
    add(_text(32, y, "GPIO10 (SPI0 MOSI): LED data"))
    add(_text(32, y + 18, "USB: the Pico (/dev/arbitro-sensors)"))
    # Pico
    add(_box(300, 50, 310, 250, "#e8eef8"))
    add(_text(455, 72, "Raspberry Pi Pico (firmware)", 13, "middle", "bold"))
    rows = ["USB: power and serial to the Pi", f"{p.presence} presence, {p.analog} analog channels"]
    if p.presence:
        rows += [f"GP{fw.SR_LOAD_PIN}: SH/LD of every 74HC165", f"GP{fw.SR_SCK_PIN} (SPI1 SCK): CLK of every 74HC165",
                 f"GP{fw.SR_MISO_PIN} (SPI1 MISO): QH of the chip nearest it"]
    if p.analog:
        enables = ", ".join(f"GP{x}" for x in fw.MUX_ENABLE_PINS[: p.multiplexers])
        rows += [f"GP{fw.MUX_SELECT_PINS[0]}..GP{fw.MUX_SELECT_PINS[-1]}: S0..S3 of every CD74HC4067",
                 f"enables: {enables}", f"GP{fw.ADC_PIN} (ADC0): every mux's SIG"]
    for i, row in enumerate(rows):
        add(_text(312, 95 + 18 * i, row))
    add(_line(270, 200, 300, 200))
    # sensor chains
    add(_box(640, 50, 340, 250, "#f8f0e0"))
    add(_text(810, 72, "Sensors", 13, "middle", "bold"))
    y = 95
    if p.presence:
        add(_text(652, y, f"{p.shift_registers} x 74HC165 in a chain ({p.presence} inputs)"))
        add(_text(652, y + 18, f"{p.presence} x hall switch (open drain, pull-up 10k)"))
        add(_text(652, y + 36, "channel k: chip k//8 from the Pico, input H..A"))
        add(_text(652, y + 54, "(k%8 = 0 is H); each SER <- the next chip's QH"))
        if p.shift_registers > 16:
            add(_text(652, y + 72, "CLK and SH/LD buffered (74HC244) every 16 chips"))
        y += 98
    if p.analog:
        add(_text(652, y, f"{p.multiplexers} x CD74HC4067 ({p.analog} inputs)"))
        add(_text(652, y + 18, f"{p.analog} x linear hall sensor (3.3 V)"))
        add(_text(652, y + 36, "analog input j = mux j//16, input j%16"))
    add(_line(610, 200, 640, 200))
    # LEDs and power
    add(_box(20, 330, 960, 150, "#fbeaea"))  # LED lines kept under ~140 characters to fit
    add(_text(500, 352, "LEDs and power", 13, "middle", "bold"))
    add(_text(32, 378, f"{p.leds} x WS2812B in one chain (board LEDs in layout order, then 4 status LEDs)"))
    add(_text(32, 398, "data: GPIO10 -> 74AHCT125 (at 5 V: 3.3 V to 5 V) -> 330 ohm -> DIN of the first LED"))
    add(_text(32, 418, f"all white at brightness {BRIGHTNESS}: {p.led_amps:.2f} A; "
                       f"inject 5 V at {p.injections} point(s) (every {LEDS_PER_INJECTION} LEDs), "
                       f"each branch fused at {p.branch_fuse:g} A"))
    add(_text(32, 438, f"LED supply: 5 V, at least {p.supply_amps} A (25 % headroom); 1000 uF across the strip's "
                       f"5 V/GND at its start; the Pi on its own official supply"))
    add(_text(32, 458, "common ground: LED supply, Pi, 74AHCT125 and strip; the Pico is powered by USB "
                       "from the Pi"))
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500" viewBox="0 0 1000 500" '
            f'font-family="sans-serif">\n<rect width="1000" height="500" fill="white"/>\n{body}\n</svg>\n')


def write_all(directory: Path = OUT_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for game in GAMES:
        path = directory / f"{game}-wiring.svg"
        path.write_text(svg(load_layout(game)))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for path in write_all():
        print(path)
    for game in GAMES:
        print(plan(load_layout(game)))
