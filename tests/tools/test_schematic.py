"""docs/build's schematics, netlists, templates and sensor module are generated from the layouts
(``python -m controller.tools.schematic``): they must be up to date, pass SKiDL's electrical rules check,
and agree with the layouts and the firmware as read back by a parser that is not SKiDL's."""

from __future__ import annotations

import gzip
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import sexpdata

from controller.games import get_game
from controller.tools.schematic import GAMES, OUT_DIR, outputs
from hardware.layout import Layout, load_layout

# The datasheets' pin numbers (74HC165: A..H; CD74HC4067: I0..I15), written here again on purpose.
HC165_PIN = {"A": "11", "B": "12", "C": "13", "D": "14", "E": "3", "F": "4", "G": "5", "H": "6"}
HC4067_PIN = {**{f"I{i}": str(9 - i) for i in range(8)}, **{f"I{i}": str(31 - i) for i in range(8, 16)}}
SVG = "{http://www.w3.org/2000/svg}"
REFERENCE_PITCH_MM = {"contigo": ("sq:a1", "sq:b1", 40.0), "serpientes": ("pt:0:0", "pt:0:1", 30.0)}


@pytest.fixture(scope="module")
def generated() -> dict[str, bytes]:
    return outputs()  # raises ErcFailed when SKiDL's ERC finds an error


def test_every_generated_file_is_committed_and_up_to_date(generated: dict[str, bytes]) -> None:
    stale = []
    for name, data in generated.items():
        path = OUT_DIR / name
        committed = path.read_bytes() if path.exists() else b""
        if name.endswith(".gz"):
            committed, data = (gzip.decompress(committed) if committed else b""), gzip.decompress(data)
        if committed != data:
            stale.append(name)
    assert not stale, f"stale: {stale}; run: python -m controller.tools.schematic"
    assert len(generated) == 5 * len(GAMES) + 3


def _netlist(text: str) -> tuple[dict[str, dict[str, str]], dict[str, set[tuple[str, str]]]]:
    """(fields of each part by reference, (reference, pin) nodes of each net by name), from the text."""
    tree = sexpdata.loads(text)
    parts: dict[str, dict[str, str]] = {}
    nets: dict[str, set[tuple[str, str]]] = {}

    def value(expr: list[Any], key: str) -> str:
        return next(str(e[1]) for e in expr if isinstance(e, list) and str(e[0]) == key)

    for section in tree[1:]:
        if str(section[0]) == "components":
            for comp in section[1:]:
                fields = {"value": value(comp, "value"), "footprint": value(comp, "footprint")}
                for block in (e for e in comp if isinstance(e, list) and str(e[0]) == "fields"):
                    for f in block[1:]:
                        if len(f) > 2:
                            fields[str(f[1][1])] = str(f[2])
                parts[value(comp, "ref")] = fields
        elif str(section[0]) == "nets":
            for net in section[1:]:
                nodes = {(value(n, "ref"), value(n, "pin")) for n in net if isinstance(n, list) and str(n[0]) == "node"}
                nets[value(net, "name")] = nodes
    return parts, nets


def _net_of(nets: dict[str, set[tuple[str, str]]], node: tuple[str, str]) -> set[tuple[str, str]]:
    return next(nodes for nodes in nets.values() if node in nodes)


@pytest.mark.parametrize("game", GAMES)
def test_netlist_wires_every_channel_and_led_of_the_layout(game: str) -> None:
    layout = load_layout(game)
    parts, nets = _netlist(gzip.decompress((OUT_DIR / f"{game}.net.gz").read_bytes()).decode())
    presence = analog = 0
    for sensor in range(layout.sensor_count):  # the firmware's reading order
        channel = layout.channel_of[sensor]
        hall = f"H{sensor + 1}"
        assert parts[hall]["Channel"] == channel
        if layout.kind_of_sensor(sensor) == "presence":
            chip = (f"U{100 + presence // 8}", HC165_PIN["HGFEDCBA"[presence % 8]])
            presence += 1
            assert parts[hall]["value"] == "DRV5032FB"
        else:
            chip = (f"U{300 + analog // 16}", HC4067_PIN[f"I{analog % 16}"])
            analog += 1
        assert {(hall, "2"), chip} <= nets[channel], channel
    owners = {i: c for c, leds in layout.leds_of.items() for i in leds} | {i: "status" for i in layout.status_leds}
    for i in range(layout.led_count):
        led = f"D{i + 1}"
        assert (parts[led]["LED"], parts[led]["Channel"]) == (str(i), owners[i])
        if i:
            assert (f"D{i}", "2") in _net_of(nets, (led, "4")), f"DOUT of LED {i - 1} is not DIN of LED {i}"
    assert ("U2", "3") in _net_of(nets, (_series_resistor(nets), "1"))  # level shifter -> 330 R -> D1
    assert ("U2", "1") in nets["GND"], "the level shifter's first gate must be enabled (OE low)"
    if presence:
        assert {("U1", "16"), ("U100", "9")} <= nets["QH0"]  # GP12 <- QH of the register nearest the Pico
    if analog:
        assert ("U1", "31") in nets["ADC0"]  # GP26
    fused = [n for n in nets if n.startswith("+5V_LEDS")]
    assert fused and all(any(r.startswith("F") for r, _ in nets[n]) for n in fused)
    for e in layout.encoders:
        assert any(p.get("Channel") == e.channel and r.startswith("SW") for r, p in parts.items())


def _series_resistor(nets: dict[str, set[tuple[str, str]]]) -> str:
    return next(r for r, _ in nets["LED_DIN"] if r.startswith("R"))


def test_sensor_module_netlist_and_bom() -> None:
    parts, nets = _netlist((OUT_DIR / "sensor-module.net").read_text())
    assert sum(1 for r in parts if r.startswith("H")) == 8
    for k, letter in enumerate("HGFEDCBA"):
        assert {(f"H{k + 1}", "2"), ("U100", HC165_PIN[letter])} <= nets[f"IN_{letter}"]
    assert {("J1", "5"), ("U100", "9")} <= nets["QH0"] and {("J2", "5"), ("U100", "10")} <= nets["SER"]
    bom = (OUT_DIR / "sensor-module-bom.csv").read_text().splitlines()
    assert bom[0].startswith("qty,references,value,part number")
    assert any(line.startswith("8,H1 H2 H3 H4 H5 H6 H7 H8,") for line in bom)
    ET.fromstring((OUT_DIR / "sensor-module-perfboard.svg").read_text())


def _printed(game: str) -> tuple[ET.Element, dict[str, tuple[float, float]], dict[int, tuple[float, float]]]:
    """The template's root, its sensor centres by channel and LED centres by index, in mm as printed."""
    root = ET.fromstring((OUT_DIR / f"{game}-template.svg").read_text())
    sensors, leds = {}, {}
    for c in root.iter(f"{SVG}circle"):
        if c.get("class") == "sensor":
            title = c.findtext(f"{SVG}title") or ""
            sensors[title.rsplit(" sensor ", 1)[0]] = (float(c.get("cx", 0)), float(c.get("cy", 0)))
    for r in root.iter(f"{SVG}rect"):
        if r.get("class") == "led":
            index = int((r.findtext(f"{SVG}title") or "").rsplit(" LED ", 1)[1])
            leds[index] = (float(r.get("x", 0)) + float(r.get("width", 0)) / 2,
                           float(r.get("y", 0)) + float(r.get("height", 0)) / 2)
    return root, sensors, leds


@pytest.mark.parametrize("game", GAMES)
def test_template_prints_the_pictures_geometry_at_true_scale(game: str) -> None:
    from controller.tools.schematic.template import SHARED_STEP_MM

    layout: Layout = load_layout(game)
    root, sensors, leds = _printed(game)
    width, height = root.get("width", ""), root.get("height", "")
    assert width.endswith("mm") and height.endswith("mm")
    assert root.get("viewBox") == f"0 0 {width[:-2]} {height[:-2]}", "one user unit must print as 1 mm"
    assert set(sensors) == set(layout.sensor_of)
    picture = get_game(game).channel_xy
    scale = get_game(game).picture_mm
    first = next(iter(layout.sensor_of))
    fx, fy = picture(first) or (0.0, 0.0)
    dx, dy = sensors[first][0] - fx * scale, sensors[first][1] - fy * scale
    moved = 0
    for channel, (x, y) in sensors.items():
        px, py = picture(channel) or (math.nan, math.nan)
        off = math.hypot(x - (px * scale + dx), y - (py * scale + dy))
        if off > 0.01:  # a channel sharing its point with another is moved along x, and only then
            moved += 1
            assert abs(y - (py * scale + dy)) < 0.01 and off % SHARED_STEP_MM < 0.01, channel
        for led in layout.leds_of[channel]:
            assert math.dist(leds[led], (x, y + 5.0)) < 0.01, f"LED {led} of {channel}"
    assert moved < len(sensors) / 4
    if game in REFERENCE_PITCH_MM:
        a, b, mm = REFERENCE_PITCH_MM[game]
        assert math.dist(sensors[a], sensors[b]) == pytest.approx(mm, abs=0.01)
    assert set(leds) == set(range(layout.led_count))


@pytest.mark.parametrize("game", GAMES)
def test_template_pdf_is_a4_pages_at_full_size(game: str) -> None:
    from controller.tools.schematic.template import template, tiles

    pdf = (OUT_DIR / f"{game}-template.pdf").read_bytes()
    pages = len(re.findall(rb"/Type /Page\b", pdf))
    assert pages == len(tiles(template(load_layout(game)))[1]) > 1
    boxes = {tuple(round(float(v)) for v in m.split()) for m in re.findall(rb"/MediaBox \[\s*([\d.\s]+)\]", pdf)}
    assert boxes <= {(0, 0, 595, 842), (0, 0, 842, 595)}  # A4, portrait or landscape (points)


@pytest.mark.parametrize("game", GAMES)
def test_build_page_gives_the_reference_dimensions(game: str) -> None:
    from controller.tools.schematic.template import dimensions

    said = dimensions(load_layout(game))
    assert said in (OUT_DIR / f"{game}.md").read_text(), f"docs/build/{game}.md must say: {said}"
    size = re.search(r"board (\d+ x \d+ mm)", said)
    assert size and size[1] in (OUT_DIR / f"{game}.es.md").read_text()
