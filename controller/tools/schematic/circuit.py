"""A layout's reference board as a SKiDL circuit: its electrical rules check and its KiCad netlist.

Every sensor of the layout is a hall sensor wired to the input the firmware reads it on
(``firmware_bridge.firmware.arbitro_fw``: presence channel k is input H..A of 74HC165 ``k // 8``
counted from the Pico, ``k % 8 = 0`` being H; analog input j is input ``j % 16`` of CD74HC4067
``j // 16``); every LED of the layout is a WS2812B in the strip's order. The net of a sensor is
named after its channel, and every sensor and LED carries a ``Channel`` field, so the netlist can
be checked against the layout without this code (``tests/tools/test_schematic.py``).

Reference designators: the Pico U1, the level shifter U2, the sensors' 3.3 V regulator U3, shift
register i U(100 + i), multiplexer m U(300 + m), buffer b U(400 + b), sensor k H(k + 1), pull-up
network of register i RN(i + 1), LED i D(i + 1), LED power feed b F(b + 1).
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import simp_sexp
import skidl

from controller.tools.diagrams import plan
from controller.tools.schematic import parts as P
from firmware_bridge.firmware import arbitro_fw as fw
from hardware.layout import Layout

SR_INPUTS = "HGFEDCBA"  # the order a 74HC165 shifts its inputs out: channel k % 8 = 0 is H
CHIPS_PER_BUFFER = 16  # CLK and SH/LD are buffered (74HC244) for every 16 registers beyond 16
HALL_LINEAR_MA = 10  # a DRV5055's supply current, at most
PICO_3V3_SPARE_MA = 150  # what the Pico's 3V3(OUT) may give the sensors (300 mA in all)


@dataclass(frozen=True)
class Place:
    """Where the sensor of one channel is wired."""

    channel: str
    sensor: int  # the layout's (and the MCU's) sensor index
    kind: str  # presence, count or piece
    chip: int  # the 74HC165 (presence) or CD74HC4067 (analog) it is read through, from the Pico
    input: str  # that chip's input pin name (H..A, or I0..I15)


def places(layout: Layout) -> list[Place]:
    """Every sensor channel of the layout and the chip input the firmware reads it on, in sensor order."""
    out, presence, analog = [], 0, 0
    for sensor in range(layout.sensor_count):
        kind = layout.kind_of_sensor(sensor)
        name = layout.channel_of.get(sensor, f"spare{sensor}")
        if kind == "presence":
            out.append(Place(name, sensor, kind, presence // 8, SR_INPUTS[presence % 8]))
            presence += 1
        else:
            out.append(Place(name, sensor, kind, analog // 16, f"I{analog % 16}"))
            analog += 1
    return out


def led_channels(layout: Layout) -> dict[int, str]:
    """What each LED of the strip lights: its channel, or ``status``."""
    owner = {i: name for name, leds in layout.leds_of.items() for i in leds}
    owner.update({i: "status" for i in layout.status_leds})
    return {i: owner.get(i, "spare") for i in range(layout.led_count)}


def separate_sensor_supply(layout: Layout) -> bool:
    """Whether the linear hall sensors draw more than the Pico's 3V3(OUT) can spare: then a
    regulator of their own feeds them from the LED supply."""
    analog = sum(1 for p in places(layout) if p.kind != "presence")
    return analog * HALL_LINEAR_MA > PICO_3V3_SPARE_MA


# -- SKiDL ------------------------------------------------------------------------------------

_templates: dict[str, Any] = {}


def _template(spec: P.PartSpec) -> Any:
    key = f"{spec.name}/{spec.footprint}"
    if key not in _templates:
        pins = [skidl.Pin(num=n, name=name, func=getattr(skidl.Pin.types, kind)) for n, name, kind in spec.pins]
        _templates[key] = skidl.Part(tool=skidl.SKIDL, name=spec.name, ref_prefix=spec.ref_prefix,
                                     dest=skidl.TEMPLATE, pins=pins)
    return _templates[key]


class Parts:
    """Makes parts with fixed references (stable netlists) and connects their pins by name."""

    def __init__(self) -> None:
        self.counters: dict[str, int] = {}
        self.pending: dict[int, tuple[Any, list[Any]]] = {}

    def wire(self, part: Any, name: str | int, net: Any) -> None:
        """Connect the pin called ``name`` (or numbered) of ``part`` to ``net``, when :meth:`connect`
        runs: SKiDL walks a whole net at each connection, so a rail's thousand pins go in at once."""
        number = name if isinstance(name, int) else part.spec.num(name)
        self.pending.setdefault(id(net), (net, []))[1].append(part[number])

    def connect(self) -> None:
        for net, pins in self.pending.values():
            net += pins
        self.pending.clear()

    def add(self, spec: P.PartSpec, ref: str | None = None, value: str | None = None, **fields: str) -> Any:
        if ref is None:
            n = self.counters.get(spec.ref_prefix, 0) + 1
            self.counters[spec.ref_prefix] = n
            ref = f"{spec.ref_prefix}{n}"
        part = _template(spec)(ref=ref, value=value or spec.name, footprint=spec.footprint, tag=ref)
        part.spec = spec
        part.fields["MPN"] = spec.mpn
        for k, v in fields.items():
            part.fields[k] = v
        return part


def _decouple(parts: Parts, vcc: Any, gnd: Any, ref: str | None = None) -> None:
    c = parts.add(P.CAP, ref=ref, value="100n")
    parts.wire(c, 1, vcc)
    parts.wire(c, 2, gnd)


def shift_register(parts: Parts, index: int, rails: dict[str, Any], ser: Any, qh: Any,
                   inputs: list[tuple[str, str] | None]) -> None:
    """One 74HC165 with its pull-ups, decoupling and a hall switch on each used input: ``inputs``
    are (channel, sensor ref) for H..A in turn, None for a spare input (tied high)."""
    v33, gnd = rails["+3V3"], rails["GND"]
    u = parts.add(P.HC165, ref=f"U{100 + index}")
    rn = parts.add(P.RES_NETWORK, ref=f"RN{index + 1}", value="10k")
    parts.wire(u, "VCC", v33)
    parts.wire(u, "GND", gnd)
    parts.wire(u, "CLK_INH", gnd)
    parts.wire(u, "CLK", rails["CLK"])
    parts.wire(u, "SH/LD", rails["SH/LD"])
    parts.wire(u, "SER", ser)
    parts.wire(u, "QH", qh)
    parts.wire(u, "~QH", _nc())
    parts.wire(rn, "common", v33)
    _decouple(parts, v33, gnd)
    for i, (letter, used) in enumerate(zip(SR_INPUTS, inputs, strict=True)):
        if used is None:
            parts.wire(u, letter, v33)
            parts.wire(rn, f"R{i + 1}", v33)
            continue
        channel, ref = used
        net = skidl.Net(channel)
        h = parts.add(P.HALL_SWITCH, ref=ref, Channel=channel)
        parts.wire(h, "VCC", v33)
        parts.wire(h, "GND", gnd)
        parts.wire(h, "OUT", net)
        parts.wire(u, letter, net)
        parts.wire(rn, f"R{i + 1}", net)


def _no_trace() -> list[Any]:
    return []


def _as_is(sexp: str, **_: Any) -> str:
    return sexp


@contextmanager
def _replaced(owner: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


@contextmanager
def new_circuit() -> Iterator[Any]:
    """A SKiDL circuit of its own that writes no log or ERC file beside the caller.

    SKiDL records the Python call stack where each part and net is made (``inspect.stack``, which
    reads every caller's source): two thirds of the time for a board of 1,300 parts. The netlist
    carries no source trace here (``track_src=False``), so none is recorded while it is open."""
    circuit = skidl.Circuit()
    circuit.no_files = True
    with _replaced(skidl.circuit, "get_skidl_trace", _no_trace), \
            _replaced(skidl.node, "get_skidl_trace", _no_trace), circuit:
        yield circuit


def _nc() -> Any:
    """The no-connect net of the circuit being built (SKiDL keeps it in builtins while one is open)."""
    return builtins.NC  # type: ignore[attr-defined]


def _rails(*names: str) -> dict[str, Any]:
    rails = {name: skidl.Net(name) for name in ("GND", "+3V3", *names)}
    rails["GND"].drive = skidl.POWER
    return rails


def build(layout: Layout) -> Any:
    """The layout's reference board as a SKiDL circuit (make it inside :func:`new_circuit`)."""
    parts = Parts()
    rails = _rails("+5V")
    gnd, v33, v5 = rails["GND"], rails["+3V3"], rails["+5V"]
    pico = parts.add(P.PICO, ref="U1", firmware=layout.board_kind)
    for n, name, _ in P.PICO.pins:
        if name in ("GND", "AGND"):
            parts.wire(pico, n, gnd)
    parts.wire(pico, "3V3", v33)
    parts.wire(pico, "ADC_VREF", v33)
    used_pico = {"GND", "AGND", "3V3", "ADC_VREF"}

    def gp(number: int, net: Any) -> None:
        used_pico.add(f"GP{number}")
        parts.wire(pico, f"GP{number}", net)

    where = places(layout)
    presence = [p for p in where if p.kind == "presence"]
    analog = [p for p in where if p.kind != "presence"]
    chips = (len(presence) + 7) // 8
    if chips:
        rails.update({"CLK": skidl.Net("CLK"), "SH/LD": skidl.Net("SH/LD")})
        gp(fw.SR_SCK_PIN, rails["CLK"])
        gp(fw.SR_LOAD_PIN, rails["SH/LD"])
        buffered = chips > CHIPS_PER_BUFFER
        groups = (chips + CHIPS_PER_BUFFER - 1) // CHIPS_PER_BUFFER
        clk = [skidl.Net(f"CLK{g}") for g in range(groups)] if buffered else []
        load = [skidl.Net(f"SH/LD{g}") for g in range(groups)] if buffered else []
        qh = skidl.Net("QH0")
        gp(fw.SR_MISO_PIN, qh)
        for i in range(chips):
            ser = skidl.Net(f"QH{i + 1}") if i + 1 < chips else v33  # the far chip shifts in ones
            group = i // CHIPS_PER_BUFFER
            chip_rails = {**rails, "CLK": clk[group], "SH/LD": load[group]} if buffered else rails
            inputs: list[tuple[str, str] | None] = [None] * 8
            for p in presence[8 * i: 8 * i + 8]:
                inputs[SR_INPUTS.index(p.input)] = (p.channel, f"H{p.sensor + 1}")
            shift_register(parts, i, chip_rails, ser, qh, inputs)
            qh = ser
        if buffered:
            for b in range(groups):
                buf = parts.add(P.HC244, ref=f"U{400 + b}")
                for name, net in (("1A1", rails["CLK"]), ("1Y1", clk[b]),
                                  ("1A2", rails["SH/LD"]), ("1Y2", load[b]),
                                  ("VCC", v33), ("GND", gnd), ("~1OE", gnd), ("~2OE", gnd)):
                    parts.wire(buf, name, net)
                for name in ("1A3", "1A4", "2A1", "2A2", "2A3", "2A4"):
                    parts.wire(buf, name, gnd)  # unused inputs held low, their outputs left open
                for name in ("1Y3", "1Y4", "2Y1", "2Y2", "2Y3", "2Y4"):
                    parts.wire(buf, name, _nc())
                _decouple(parts, v33, gnd)
    if analog:
        sensor_rail = v33
        if separate_sensor_supply(layout):
            sensor_rail = skidl.Net("+3V3_SENSORS")
            ldo = parts.add(P.LDO, ref="U3")
            parts.wire(ldo, "VI", v5)
            parts.wire(ldo, "GND", gnd)
            parts.wire(ldo, "VO", sensor_rail)
            bulk = parts.add(P.CAP_10U, value="10u")
            parts.wire(bulk, 1, sensor_rail)
            parts.wire(bulk, 2, gnd)
        com = skidl.Net("ADC0")
        gp(fw.ADC_PIN, com)
        selects = [skidl.Net(f"S{i}") for i in range(4)]
        for i, net in enumerate(selects):
            gp(fw.MUX_SELECT_PINS[i], net)
        for m in range((len(analog) + 15) // 16):
            mux = parts.add(P.HC4067, ref=f"U{300 + m}")
            enable = skidl.Net(f"~E{m}")
            gp(fw.MUX_ENABLE_PINS[m], enable)
            for name, net in (("COM", com), ("~E", enable), ("VCC", v33), ("GND", gnd),
                              *((f"S{i}", selects[i]) for i in range(4))):
                parts.wire(mux, name, net)
            _decouple(parts, v33, gnd)
            mine = analog[16 * m: 16 * m + 16]
            for p in mine:
                net = skidl.Net(p.channel)
                h = parts.add(P.HALL_LINEAR, ref=f"H{p.sensor + 1}", Channel=p.channel)
                parts.wire(h, "VCC", sensor_rail)
                parts.wire(h, "GND", gnd)
                parts.wire(h, "OUT", net)
                parts.wire(mux, p.input, net)
                _decouple(parts, sensor_rail, gnd)
            for j in range(len(mine), 16):
                parts.wire(mux, f"I{j}", gnd)  # spare inputs grounded: they read 0
    for n, name, _ in P.PICO.pins:
        if name not in used_pico:
            parts.wire(pico, n, _nc())
    _leds_and_pi(layout, parts, rails)
    parts.connect()
    return parts


def _leds_and_pi(layout: Layout, parts: Parts, rails: dict[str, Any]) -> None:
    """The Pi's header, buttons and encoders; the level shifter; the LED strip with its power feeds."""
    gnd, v5 = rails["GND"], rails["+5V"]
    supply = parts.add(P.SUPPLY, ref="J2", value="5V")
    parts.wire(supply, "+5V", v5)
    parts.wire(supply, "GND", gnd)
    pi = parts.add(P.PI_HEADER, ref="J1")
    used = set(P.PI_GND_PADS)
    for pad in P.PI_GND_PADS:
        parts.wire(pi, pad, gnd)  # one ground: the Pi's, the LED supply's and the Pico's (through USB)
    for name, gpio in layout.buttons.items():
        sw = parts.add(P.BUTTON, value=name, Button=name)
        button = skidl.Net(f"BTN_{name}")
        parts.wire(sw, 1, button)
        parts.wire(sw, 2, gnd)
        parts.wire(pi, P.PI_GPIO_PAD[gpio], button)
        used.add(P.PI_GPIO_PAD[gpio])
    for e in layout.encoders:
        enc = parts.add(P.ENCODER, Channel=e.channel)
        for end, gpio in (("A", e.a), ("B", e.b)):
            net = skidl.Net(f"{e.channel}/{end}")
            parts.wire(enc, end, net)
            parts.wire(pi, P.PI_GPIO_PAD[gpio], net)
            used.add(P.PI_GPIO_PAD[gpio])
        parts.wire(enc, "C", gnd)
    shifter = parts.add(P.AHCT125, ref="U2")
    data = skidl.Net("LED_DATA_3V3")
    parts.wire(pi, P.PI_GPIO_PAD[10], data)
    used.add(P.PI_GPIO_PAD[10])
    for name, net in (("VCC", v5), ("GND", gnd), ("~1OE", gnd), ("1A", data), ("~2OE", v5), ("~3OE", v5),
                      ("~4OE", v5), ("2A", gnd), ("3A", gnd), ("4A", gnd)):
        parts.wire(shifter, name, net)  # gate 1 always on (OE low); gates 2-4 off, inputs grounded
    for name in ("2Y", "3Y", "4Y"):
        parts.wire(shifter, name, _nc())
    _decouple(parts, v5, gnd)
    series = parts.add(P.RES, value="330")
    level = skidl.Net("LED_DATA_5V")
    parts.wire(shifter, "1Y", level)
    parts.wire(series, 1, level)
    din = skidl.Net("LED_DIN")
    parts.wire(series, 2, din)
    bulk = parts.add(P.CAP_BULK, value="1000u")
    parts.wire(bulk, 1, v5)
    parts.wire(bulk, 2, gnd)
    power = plan(layout)
    per_feed = -(-layout.led_count // power.injections)
    feeds = []
    for b in range(power.injections):
        fuse = parts.add(P.FUSE, ref=f"F{b + 1}", value=f"{power.branch_fuse:g}A")
        feed = skidl.Net(f"+5V_LEDS{b}")
        feed.drive = skidl.POWER  # fed through its fuse from the supply (KiCad's PWR_FLAG)
        parts.wire(fuse, 1, v5)
        parts.wire(fuse, 2, feed)
        feeds.append(feed)
    owner = led_channels(layout)
    for i in range(layout.led_count):
        led = parts.add(P.WS2812B, ref=f"D{i + 1}", Channel=owner[i], LED=str(i))
        parts.wire(led, "VDD", feeds[i // per_feed])
        parts.wire(led, "VSS", gnd)
        parts.wire(led, "DIN", din)
        din = skidl.Net(f"LED_DOUT{i}") if i + 1 < layout.led_count else _nc()
        parts.wire(led, "DOUT", din)
    for n, _, _ in P.PI_HEADER.pins:
        if n not in used:
            parts.wire(pi, n, _nc())


# -- checks and outputs ---------------------------------------------------------------------------

def _circuit_erc(circuit: Any) -> None:
    """SKiDL's own rules on every net and part (``skidl.erc.dflt_circuit_erc``), each net found by
    its name once: SKiDL looks every name up in the list of all nets, minutes for 1,300 nets."""
    circuit.merge_net_names()
    seen: set[str] = set()
    for net in circuit.nets:
        if net.name not in seen:
            seen.add(net.name)
            net.ERC()
    for part in circuit.parts:
        part.ERC()


def erc(circuit: Any) -> tuple[int, int]:
    """SKiDL's electrical rules check of the circuit: (errors, warnings)."""
    circuit.erc_list = [_circuit_erc]
    circuit.ERC()
    return skidl.logger.erc_logger.error.count, skidl.logger.erc_logger.warning.count


_DATE = re.compile(r'\(date "[^"]*"\)')
_SPACE = re.compile(r"\s*\n\s*")
_ENTRY = re.compile(r" \((comp|net|components|nets) ")
_SOURCE = re.compile(r'\(source "[^"]*"\)')


def netlist(circuit: Any, source: str) -> str:
    """The circuit's KiCad (version 8) netlist; date and source fixed, so it changes only with the circuit."""
    # SKiDL pretty-prints every nested expression again at each level (quadratic: seconds for a
    # big board); the lines are laid out below instead.
    with _replaced(simp_sexp, "prettify_sexp", _as_is):
        text = str(circuit.generate_netlist(tool=skidl.KICAD8, track_src=False, do_backup=False))
    text = _DATE.sub('(date "")', text)
    text = _SOURCE.sub(f'(source "{source}")', text)
    # SKiDL indents every field on a line of its own; one part or net a line is a fifth the size
    return _ENTRY.sub(r"\n(\1 ", _SPACE.sub(" ", text)) + "\n"
