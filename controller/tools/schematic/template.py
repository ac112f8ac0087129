"""Printable templates at true scale: where to drill for each sensor and LED of a reference board.

Positions come from the game's own picture geometry (``Game.channel_xy``, what the display draws
and rings), scaled to the reference build by each game's ``Game.picture_mm``. The SVG's user unit is the
millimetre (``width="...mm"`` and a viewBox of the same numbers); the PDF cuts it into A4 pages at
100 %, each with a 100 mm scale bar to check the printer, and crosses at the pages' corners to
line them up (``svg.pdf_tiles``).

A channel whose point another channel shares (Jeocinco's bridge sockets sit over the middle of the
slot they cross) is drawn :data:`SHARED_STEP_MM` apart from it along x, and said so on the template.
LEDs sit :data:`LED_OFFSET_MM` below their channel's sensor; the rings of LEDs beside encoders and
the status LEDs go on a panel strip below the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from controller.games import get_game
from controller.tools.schematic import svg as S
from hardware.layout import Layout

BORDER_MM = 20.0  # board edge beyond the outermost sensor
HEADER_MM = 30.0  # title and scale bar above the board
SENSOR_HOLE_MM = 4.0  # a pocket for a SOT-23/TO-92 hall sensor under the playing surface
LED_SIZE_MM = 5.0  # WS2812B 5050
LED_OFFSET_MM = (0.0, 5.0)
SHARED_STEP_MM = 5.0
PANEL_MM = 40.0  # strip below the board for encoder rings and status LEDs
PAGE_MM = (210.0, 297.0)  # A4
MARGIN_MM = 10.0, 15.0  # page margins left/right, top/bottom: the scale bar and page name go there


@dataclass(frozen=True)
class Hole:
    channel: str
    kind: str  # "sensor" or "led"
    x: float  # mm from the template's left edge
    y: float  # mm from its top edge
    index: int  # the sensor's or the LED's index in the layout


@dataclass(frozen=True)
class Template:
    game: str
    width: float  # mm, the whole sheet
    height: float
    board: tuple[float, float, float, float]  # x, y, width, height of the board outline (mm)
    holes: tuple[Hole, ...]
    shared: tuple[str, ...]  # channels moved off a point they share with another


def origin(layout: Layout) -> tuple[float, float, float]:
    """(x0, y0, scale): the template point of a picture point (px, py) is (x0 + px * scale, y0 + py * scale)."""
    game = get_game(layout.game)
    scale = get_game(layout.game).picture_mm
    pts = [xy for c in layout.sensor_of if (xy := game.channel_xy(c)) is not None]
    min_x, min_y = min(p[0] for p in pts), min(p[1] for p in pts)
    return 2 * BORDER_MM - min_x * scale, HEADER_MM + BORDER_MM - min_y * scale, scale


def template(layout: Layout) -> Template:
    game = get_game(layout.game)
    x0, y0, scale = origin(layout)
    points: dict[tuple[int, int], list[str]] = {}
    where: dict[str, tuple[float, float]] = {}
    for channel in layout.sensor_of:
        xy = game.channel_xy(channel)
        if xy is None:
            raise ValueError(f"{layout.game} places no channel {channel}")
        where[channel] = (x0 + xy[0] * scale, y0 + xy[1] * scale)
        points.setdefault((round(where[channel][0] * 10), round(where[channel][1] * 10)), []).append(channel)
    shared = []
    for group in points.values():
        for k, channel in enumerate(group[1:], 1):  # the first keeps the point
            x, y = where[channel]
            where[channel] = (x + k * SHARED_STEP_MM, y)
            shared.append(channel)
    xs, ys = [p[0] for p in where.values()], [p[1] for p in where.values()]
    board = (min(xs) - BORDER_MM, min(ys) - BORDER_MM, max(xs) - min(xs) + 2 * BORDER_MM,
             max(ys) - min(ys) + 2 * BORDER_MM)
    holes = []
    for channel, (x, y) in where.items():
        holes.append(Hole(channel, "sensor", x, y, layout.sensor_of[channel]))
        for led in layout.leds_of.get(channel, []):
            holes.append(Hole(channel, "led", x + LED_OFFSET_MM[0], y + LED_OFFSET_MM[1], led))
    panel_y = board[1] + board[3] + PANEL_MM / 2
    x = board[0] + 15
    for e in layout.encoders:  # a ring of LEDs around each encoder's knob, on the panel
        leds = layout.leds_of.get(e.channel, [])
        for k, led in enumerate(leds):
            a = 2 * math.pi * k / max(1, len(leds))
            holes.append(Hole(e.channel, "led", x + 12 * math.sin(a), panel_y - 12 * math.cos(a), led))
        x += 40
    for k, led in enumerate(layout.status_leds):
        holes.append(Hole("status", "led", x + 10 * k, panel_y, led))
    width = board[0] + board[2] + BORDER_MM
    height = board[1] + board[3] + PANEL_MM + BORDER_MM
    return Template(layout.game, round(width, 1), round(height, 1), board, tuple(holes), tuple(shared))


def tiles(t: Template) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """The printable area of a page (portrait or landscape, whichever needs fewer pages) and the
    top-left corner of each page's piece of the template, row by row."""
    best: tuple[int, tuple[float, float]] | None = None
    for pw, ph in (PAGE_MM, PAGE_MM[::-1]):
        tw, th = pw - 2 * MARGIN_MM[0], ph - 2 * MARGIN_MM[1]
        n = math.ceil(t.width / tw) * math.ceil(t.height / th)
        if best is None or n < best[0]:
            best = (n, (tw, th))
    assert best is not None
    tw, th = best[1]
    corners = [(c * tw, r * th) for r in range(math.ceil(t.height / th)) for c in range(math.ceil(t.width / tw))]
    return (tw, th), corners


def template_svg(layout: Layout) -> str:
    t = template(layout)
    return _drawn(t).document(t.width, t.height, "mm")


def _drawn(t: Template) -> S.Svg:
    d = S.Svg()
    d.text(2 * BORDER_MM, 10, f"{t.game}: drilling template of {t.game}-ref-1, true scale (1:1)", 5,
           weight="bold")
    d.text(2 * BORDER_MM, 16, f"board {t.board[2]:.0f} x {t.board[3]:.0f} mm; circle: hall sensor pocket "
                          f"{SENSOR_HOLE_MM:g} mm, square: LED {LED_SIZE_MM:g} mm; label: channel, s = sensor, "
                          "L = LED index", 3)
    if t.shared:
        d.text(2 * BORDER_MM, 21, f"{len(t.shared)} channels share a point with another in the game's geometry: "
                              f"drawn {SHARED_STEP_MM:g} mm to its right (e.g. {t.shared[0]})", 3, fill="#a33")
    _scale_bar(d, 2 * BORDER_MM, 25)
    bx, by, bw, bh = t.board
    d.rect(bx, by, bw, bh, stroke="#000", width=0.4, on_every_page=True)
    d.rect(bx, by + bh, bw, PANEL_MM, stroke="#777", width=0.3, on_every_page=True)
    d.text(bx + 2, by + bh + 4, "panel: encoder LED rings and status LEDs", 2.5, fill="#555")
    for h in t.holes:
        if h.kind == "sensor":
            d.circle(h.x, h.y, SENSOR_HOLE_MM / 2, stroke="#000", width=0.25, cls="sensor",
                     title=f"{h.channel} sensor {h.index}")
            d.add(f'<path d="M{h.x - 1:.2f},{h.y:.2f}h2M{h.x:.2f},{h.y - 1:.2f}v2" stroke="#000" '
                  'stroke-width="0.15"/>', h.x, h.y)  # the drill's centre
            d.text(h.x + 2.4, h.y - 0.6, f"{h.channel} s{h.index}", 1.5, cls="label")
        else:
            s = LED_SIZE_MM
            d.add(f'<rect class="led" x="{h.x - s / 2:.2f}" y="{h.y - s / 2:.2f}" width="{s:g}" height="{s:g}" '
                  f'fill="none" stroke="#c33" stroke-width="0.25"><title>{h.channel} LED {h.index}</title></rect>',
                  h.x, h.y)
            d.text(h.x + s / 2 + 0.4, h.y + 0.5, f"L{h.index}", 1.2, fill="#c33")
    (tw, th), corners = tiles(t)
    for r in range(int(t.height // th) + 2):  # alignment crosses where four pages meet
        for c in range(int(t.width // tw) + 2):
            x, y = c * tw, r * th
            d.line(x - 5, y, x + 5, y, "#06c", 0.2)
            d.line(x, y - 5, x, y + 5, "#06c", 0.2)
            d.circle(x, y, 2.5, stroke="#06c", width=0.2)
    for n, (x, y) in enumerate(corners):
        d.text(x + 4, y + 8, f"page {n + 1}", 3, fill="#06c")
    return d


def _scale_bar(d: S.Svg, x: float, y: float) -> None:
    d.rect(x, y, 100, 2, fill="#000", stroke="#000", width=0.1)
    for k in range(0, 101, 10):
        d.line(x + k, y - 1.5, x + k, y + 2, width=0.2)
    d.text(x + 102, y + 2, "100 mm: check with a ruler before drilling", 3)


def template_pdf(layout: Layout, path: Path) -> None:
    t = template(layout)
    (tw, th), corners = tiles(t)
    page = PAGE_MM if tw == PAGE_MM[0] - 2 * MARGIN_MM[0] else PAGE_MM[::-1]
    d = _drawn(t)
    pieces = [d.window(x, y, tw, th, reach=40) for x, y in corners]
    S.pdf_tiles(pieces, path, (tw, th), page, furniture=_page_furniture(t, len(corners)))


def _page_furniture(t: Template, pages: int) -> S.PageFurniture:
    def draw(pdf: Canvas, n: int, _width: float, page_h: float) -> None:
        mm = S.MM
        x, y = 10 * mm, 6 * mm
        pdf.setLineWidth(0.3)
        pdf.rect(x, y, 100 * mm, 2 * mm, fill=1)
        for k in range(0, 101, 10):
            pdf.line(x + k * mm, y - 1 * mm, x + k * mm, y + 3 * mm)
        pdf.setFont("Helvetica", 8)
        pdf.drawString(x + 103 * mm, y, f"100 mm at 100 %  |  {t.game} template, page {n + 1} of {pages}")
        pdf.drawString(10 * mm, page_h - 8 * mm, "print at 100 % (no fit to page); trim, then align the blue "
                                                 "crosses with the next pages")
    return draw


def dimensions(layout: Layout) -> str:
    """The reference build's size in words, as docs/build/<game>.md says it."""
    t = template(layout)
    sensors = [h for h in t.holes if h.kind == "sensor"]
    pitch = min(math.dist((a.x, a.y), (b.x, b.y)) for i, a in enumerate(sensors) for b in sensors[i + 1:])
    return (f"board {t.board[2]:.0f} x {t.board[3]:.0f} mm, {len(sensors)} sensor pockets, "
            f"{sum(1 for h in t.holes if h.kind == 'led')} LEDs, closest sensors {pitch:.1f} mm apart")
