"""The sensor module: eight hall switches and a 74HC165, repeated along every presence chain.

Its circuit is the chain's own (``circuit.shift_register``, so the module and the boards' netlists
cannot disagree) with a connector at each end: J1 towards the Pico (3V3, GND, CLK, SH/LD, QH out),
J2 to the next module (the same, SER in). Outputs: its KiCad netlist, a BOM with part numbers
(CSV) and a perfboard plan (SVG), from the SKiDL circuit's own parts and nets.

No PCB yet: a KiCad board needs KiCad (pcbnew's Python API, KiBot or KiKit) for placement, DRC
and gerbers, and this repository's machines do not install it; the perfboard plan is what ships.
"""

from __future__ import annotations

import csv
import io
import itertools
from typing import Any

import skidl

from controller.tools.schematic import parts as P
from controller.tools.schematic.circuit import SR_INPUTS, Parts, _rails, shift_register
from controller.tools.schematic.svg import Svg

PITCH = 2.54  # perfboard hole pitch, mm
COLS, ROWS = 30, 16
NET_COLOURS = {"+3V3": "#d22", "GND": "#222", "CLK": "#2a2", "SH/LD": "#a2a", "QH0": "#06c", "SER": "#c80"}


def build() -> Parts:
    """The module as a SKiDL circuit (make it inside ``circuit.new_circuit``)."""
    parts = Parts()
    rails = _rails()
    rails.update({"CLK": skidl.Net("CLK"), "SH/LD": skidl.Net("SH/LD")})
    qh, ser = skidl.Net("QH0"), skidl.Net("SER")
    shift_register(parts, 0, rails, ser, qh, [(f"IN_{letter}", f"H{k + 1}") for k, letter in enumerate(SR_INPUTS)])
    bulk = parts.add(P.CAP_10U, value="10u")
    parts.wire(bulk, 1, rails["+3V3"])
    parts.wire(bulk, 2, rails["GND"])
    for spec, ref, last in ((P.CHAIN_IN, "J1", qh), (P.CHAIN_OUT, "J2", ser)):
        j = parts.add(spec, ref=ref)
        for name, net in (("3V3", rails["+3V3"]), ("GND", rails["GND"]), ("CLK", rails["CLK"]),
                          ("SH/LD", rails["SH/LD"])):
            parts.wire(j, name, net)
        parts.wire(j, 5, last)
    rails["+3V3"].drive = skidl.POWER  # from the Pico's 3V3(OUT), through J1
    parts.connect()
    return parts


def bom_csv(circuit: Any) -> str:
    """The module's parts, one line per kind: quantity, references, value, part number, footprint."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    descriptions: dict[tuple[str, str, str], str] = {}
    for part in circuit.parts:
        key = (str(part.value), str(part.fields.get("MPN", "")), str(part.footprint))
        groups.setdefault(key, []).append(str(part.ref))
        descriptions[key] = part.spec.description
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["qty", "references", "value", "part number", "footprint", "description"])
    for key in sorted(groups, key=lambda k: sorted(groups[k])[0]):
        refs = sorted(groups[key], key=lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):])))
        w.writerow([len(refs), " ".join(refs), key[0], key[1], key[2], descriptions[key]])
    return out.getvalue()


def _pads() -> dict[tuple[str, int], tuple[int, int]]:
    """Where each part's pins go on the perfboard: (column, row) of its hole."""
    pads: dict[tuple[str, int], tuple[int, int]] = {}
    for k in range(8):  # each sensor on three wires to its pocket: 3V3, OUT, GND
        for pin, col in ((1, 2 + 3 * k), (2, 3 + 3 * k), (3, 4 + 3 * k)):
            pads[(f"H{k + 1}", pin)] = (col, 1)
    for pin in range(1, 10):
        pads[("RN1", pin)] = (9 + pin, 5)
    for pin in range(1, 9):  # DIP-16: pins 1..8 along the bottom row, 16..9 above them
        pads[("U100", pin)] = (9 + pin, 11)
        pads[("U100", 17 - pin)] = (9 + pin, 8)
    for pin in range(1, 6):
        pads[("J1", pin)] = (0, 6 + pin)
        pads[("J2", pin)] = (COLS - 1, 6 + pin)
    pads[("C1", 1)], pads[("C1", 2)] = (20, 8), (20, 11)  # beside VCC (16) and GND (8)
    pads[("C2", 1)], pads[("C2", 2)] = (24, 8), (24, 11)
    return pads


def perfboard_svg(circuit: Any) -> str:
    """The module on a 30 x 16 perfboard: parts at their holes, every net drawn as wires between them."""
    pads = _pads()
    scale, ox, oy = 8.0, 40.0, 70.0  # drawing units per mm, offset

    def at(col: int, row: int) -> tuple[float, float]:
        return ox + col * PITCH * scale, oy + row * PITCH * scale

    d = Svg()
    d.text(20, 20, "Sensor module: 8 hall switches + 74HC165 on perfboard (30 x 16 holes, 0.1 in)", 14,
           weight="bold")
    d.text(20, 38, "generated from the module's netlist (sensor-module.net); each sensor on three wires to its "
                   "pocket under the board (template)", 11)
    d.rect(ox - 6, oy - 6, (COLS - 1) * PITCH * scale + 12, (ROWS - 1) * PITCH * scale + 12, "#f3ecd8")
    for c in range(COLS):
        for r in range(ROWS):
            x, y = at(c, r)
            d.circle(x, y, 1.6, "#fff", "#bba", 0.5)
    labels = {"U100": "U100 74HC165 (pin 1 bottom left)", "RN1": "RN1 10k x8 (pin 1 = common, left)",
              "J1": "J1 to the Pico", "J2": "J2 to the next module"}
    for ref, text in labels.items():
        cols = [c for (r, _), (c, _) in pads.items() if r == ref]
        rows = [rw for (r, _), (_, rw) in pads.items() if r == ref]
        x, y = at(min(cols), min(rows))
        d.text(x, y - 8, text, 9, weight="bold")
    for k in range(8):
        x, y = at(2 + 3 * k, 1)
        d.text(x, y - 8, f"H{k + 1} {SR_INPUTS[k]}", 8)
    wires: list[str] = []
    for net in sorted(circuit.get_nets(), key=lambda n: str(n.name)):
        holes = sorted({pads[(str(p.part.ref), int(p.num))] for p in net.pins if (str(p.part.ref), int(p.num)) in pads})
        colour = NET_COLOURS.get(str(net.name), "#06c")
        for (c1, r1), (c2, r2) in itertools.pairwise(holes):
            x1, y1 = at(c1, r1)
            x2, y2 = at(c2, r2)
            d.line(x1, y1, x2, y2, colour, 1.4)
        if len(holes) > 1:
            wires.append(f"{net.name}: " + " - ".join(f"{chr(65 + r)}{c + 1}" for c, r in holes))
    for (_, pin), (c, r) in sorted(pads.items()):
        x, y = at(c, r)
        d.circle(x, y, 2.4, "#333", "#000", 0.5)
        d.text(x + 3, y - 3, f"{pin}", 6, fill="#555")
    y = oy + ROWS * PITCH * scale + 20
    d.text(20, y, "Wires (hole names: row letter A.. from the top, column number 1.. from the left):", 11,
           weight="bold")
    for i, w in enumerate(wires):
        d.text(20 + 420 * (i % 2), y + 16 + 13 * (i // 2), w, 9)
    height = y + 30 + 13 * ((len(wires) + 1) // 2)
    return d.document(max(900.0, ox * 2 + (COLS - 1) * PITCH * scale), height)
