"""The reference board's schematic drawn as blocks and wires (SVG), from the same wiring as the netlist.

Top row: the Raspberry Pi's header with the buttons, the encoders and the LED data; the level
shifter, the LED supply, its fuses and the strip's segments; the Pico. Below: every 74HC165 of the
chain and every CD74HC4067, each input labelled with the channel whose sensor it reads. The
references (U100, H1, D1, ...) are the netlist's (``circuit``).
"""

from __future__ import annotations

from controller.tools.diagrams import plan
from controller.tools.schematic.circuit import CHIPS_PER_BUFFER, SR_INPUTS, led_channels, places, separate_sensor_supply
from controller.tools.schematic.svg import Svg
from firmware_bridge.firmware import arbitro_fw as fw
from hardware.layout import Layout

WIDTH = 1400
CHIP_W, CHIP_H = 150, 118  # a 74HC165 block with its eight labelled inputs
MUX_W, MUX_H = 200, 196
GAP = 24
PI_FILL, PICO_FILL, CHIP_FILL, LED_FILL = "#e8f4e8", "#e8eef8", "#fbf3e2", "#fbeaea"


def _pin_row(d: Svg, x: float, y: float, label: str, to_left: bool = True) -> None:
    """A pin stub with its label inside a block's edge."""
    if to_left:
        d.line(x - 14, y, x, y)
        d.text(x + 4, y + 3, label, 9)
    else:
        d.line(x, y, x + 14, y)
        d.text(x - 4, y + 3, label, 9, "end")


def _top(d: Svg, layout: Layout) -> float:
    """The Pi, the level shifter and LED power, the Pico; returns where the chips may start."""
    p = plan(layout)
    # Raspberry Pi header J1
    d.rect(20, 60, 300, 250, PI_FILL)
    d.text(170, 80, "J1 Raspberry Pi 40-pin header", 12, "middle", "bold")
    y = 104
    for name, gpio in layout.buttons.items():
        _pin_row(d, 320, y, f"GPIO{gpio}", to_left=False)
        d.line(334, y, 350, y)
        d.text(356, y + 3, f"SW {name} -> GND", 9)
        y += 18
    for e in layout.encoders:
        _pin_row(d, 320, y, f"GPIO{e.a}/GPIO{e.b}", to_left=False)
        d.line(334, y, 350, y)
        d.text(356, y + 3, f"encoder {e.channel} A/B, C -> GND", 9)
        y += 18
    d.text(32, y + 6, "internal pull-ups (gpiozero)", 9, fill="#555")
    _pin_row(d, 320, 290, "GPIO10 (SPI0 MOSI, pin 19)", to_left=False)
    d.text(32, 290, "GND pins 6, 9, 14 ... to GND", 9)
    # level shifter and LED power
    d.rect(520, 60, 420, 250, LED_FILL)
    d.text(730, 80, "LED data and power", 12, "middle", "bold")
    d.line(334, 290, 540, 290)
    d.rect(540, 250, 120, 56, "#fff")
    d.text(600, 266, "U2 74AHCT125 @5V", 9, "middle", "bold")
    d.text(600, 280, "1A -> 1Y, ~1OE = GND", 9, "middle")
    d.text(600, 294, "~2..4OE = 5V, A = GND", 9, "middle")
    d.line(660, 278, 690, 278)
    d.text(694, 281, "R 330 -> LED_DIN (D1 DIN)", 9)
    d.text(540, 104, f"J2 5 V supply, at least {p.supply_amps} A; C 1000 uF across +5V/GND", 10)
    d.text(540, 122, f"{p.leds} x WS2812B, D1..D{p.leds} (LED i = D(i+1)), DOUT -> next DIN", 10)
    per = -(-layout.led_count // p.injections)
    y = 144
    for b in range(p.injections):
        lo, hi = b * per, min(layout.led_count, (b + 1) * per) - 1
        d.text(540, y, f"+5V -> F{b + 1} {p.branch_fuse:g} A -> +5V_LEDS{b}: VDD of D{lo + 1}..D{hi + 1}", 9)
        y += 13
    owner = led_channels(layout)
    status = [i for i, c in owner.items() if c == "status"]
    if status:
        d.text(540, y + 4, f"status LEDs: D{status[0] + 1}..D{status[-1] + 1}", 9)
    # Pico U1
    d.rect(1000, 60, 380, 250, PICO_FILL)
    d.text(1190, 80, "U1 Raspberry Pi Pico (USB to the Pi)", 12, "middle", "bold")
    rows = ["3V3(OUT) -> +3V3, ADC_VREF = 3V3; GND, AGND -> GND"]
    where = places(layout)
    chips = -(-sum(1 for w in where if w.kind == "presence") // 8)
    muxes = -(-sum(1 for w in where if w.kind != "presence") // 16)
    if chips:
        rows += [f"GP{fw.SR_LOAD_PIN} -> SH/LD of every 74HC165",
                 f"GP{fw.SR_SCK_PIN} (SPI1 SCK) -> CLK of every 74HC165", f"GP{fw.SR_MISO_PIN} (SPI1 RX) <- QH of U100"]
        if chips > CHIPS_PER_BUFFER:
            rows.append(f"CLK, SH/LD through U400..U{399 + -(-chips // CHIPS_PER_BUFFER)} 74HC244, "
                        f"one per {CHIPS_PER_BUFFER} registers")
    if muxes:
        rows += [f"GP{fw.MUX_SELECT_PINS[0]}..GP{fw.MUX_SELECT_PINS[3]} -> S0..S3 of every CD74HC4067",
                 "~E of U300.. <- " + ", ".join(f"GP{g}" for g in fw.MUX_ENABLE_PINS[:muxes]),
                 f"GP{fw.ADC_PIN} (ADC0) <- COM of every CD74HC4067"]
        if separate_sensor_supply(layout):
            rows.append("U3 LD1117V33: +5V -> +3V3_SENSORS (the linear sensors)")
    for i, row in enumerate(rows):
        d.text(1012, 104 + 18 * i, row, 10)
    d.line(1000, 200, 940, 200)
    d.text(970, 195, "USB", 9, "middle")
    return 340


def _shift_registers(d: Svg, layout: Layout, y0: float) -> float:
    where = [w for w in places(layout) if w.kind == "presence"]
    chips = -(-len(where) // 8)
    if not chips:
        return y0
    d.text(20, y0 + 4, f"Presence chain: {chips} x 74HC165 (U100 nearest the Pico), each with a 10k network "
                       "RN and 100 nF; hall switch H(k+1) of channel k", 11, weight="bold")
    d.text(20, y0 + 18, f"on input {SR_INPUTS[0]}..{SR_INPUTS[-1]} of U(100 + k // 8); QH of each -> SER of the one "
                        "before; spare inputs and the last SER to +3V3", 11, weight="bold")
    y0 += 14
    per_row = int((WIDTH - 20) // (CHIP_W + GAP))
    by_chip: dict[int, dict[str, str]] = {}
    for w in where:
        by_chip.setdefault(w.chip, {})[w.input] = f"H{w.sensor + 1} {w.channel}"
    for i in range(chips):
        x = 20 + (i % per_row) * (CHIP_W + GAP)
        y = y0 + 20 + (i // per_row) * (CHIP_H + GAP)
        d.rect(x, y, CHIP_W, CHIP_H, CHIP_FILL)
        d.text(x + CHIP_W / 2, y + 12, f"U{100 + i}  RN{i + 1}", 9, "middle", "bold")
        for j, letter in enumerate(SR_INPUTS):
            label = by_chip.get(i, {}).get(letter, "+3V3 (spare)")
            d.text(x + 4, y + 26 + 11 * j, f"{letter} {label}", 7.5, cls="input")
        d.text(x + CHIP_W - 4, y + CHIP_H - 4, "QH <- " + (f"U{101 + i}" if i + 1 < chips else "SER=3V3"), 7,
               "end", fill="#555")
        if i % per_row:
            d.line(x - GAP, y + CHIP_H / 2, x, y + CHIP_H / 2, "#a33")
    rows = -(-chips // per_row)
    return y0 + 20 + rows * (CHIP_H + GAP)


def _muxes(d: Svg, layout: Layout, y0: float) -> float:
    where = [w for w in places(layout) if w.kind != "presence"]
    muxes = -(-len(where) // 16)
    if not muxes:
        return y0
    rail = "+3V3_SENSORS" if separate_sensor_supply(layout) else "+3V3"
    d.text(20, y0 + 4, f"Analog sensors: {muxes} x CD74HC4067 (U300..), 100 nF each; linear hall sensor H(k+1) "
                       f"of analog input j on I(j % 16) of U(300 + j // 16),", 11, weight="bold")
    d.text(20, y0 + 18, f"powered from {rail} with 100 nF each; spare inputs to GND", 11, weight="bold")
    y0 += 14
    by_mux: dict[int, dict[str, str]] = {}
    for w in where:
        by_mux.setdefault(w.chip, {})[w.input] = f"H{w.sensor + 1} {w.channel}"
    per_row = int((WIDTH - 20) // (MUX_W + GAP))
    for m in range(muxes):
        x = 20 + (m % per_row) * (MUX_W + GAP)
        y = y0 + 20 + (m // per_row) * (MUX_H + GAP)
        d.rect(x, y, MUX_W, MUX_H, CHIP_FILL)
        d.text(x + MUX_W / 2, y + 12, f"U{300 + m} CD74HC4067, ~E <- GP{fw.MUX_ENABLE_PINS[m]}", 9, "middle", "bold")
        for j in range(16):
            label = by_mux.get(m, {}).get(f"I{j}", "GND (spare)")
            d.text(x + 4, y + 26 + 10.5 * j, f"I{j} {label}", 7.5, cls="input")
    rows = -(-muxes // per_row)
    return y0 + 20 + rows * (MUX_H + GAP)


def schematic_svg(layout: Layout) -> str:
    """The drawn schematic of the layout's reference board."""
    d = Svg()
    d.text(20, 30, f"{layout.game}: schematic of {layout.board_kind} (generated from hardware/layouts/"
                   f"{layout.game}.json; netlist {layout.game}.net.gz)", 16, weight="bold")
    y = _top(d, layout)
    y = _shift_registers(d, layout, y)
    y = _muxes(d, layout, y + 10)
    return d.document(WIDTH, y + 20)
