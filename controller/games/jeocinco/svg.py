"""An SVG picture of a Jeocinco position (for the display and the rules document)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from controller.games.base import COLOUR_HEX
from controller.games.jeocinco import board as B

if TYPE_CHECKING:
    from controller.games.jeocinco.state import JeocincoState

SCALE = 20
MARGIN = 30
PALE = ("#fff4b8", "#d9f2d2", "#d4e2fa", "#fad9d4")
"""Board colour of each orientation's pentagons (N yellow, E green, S blue, W red)."""
STRONG = tuple(COLOUR_HEX[c] for c in B.COLOUR_NAMES)
"""Pieces, towers and bridges of each colour (the players' colours)."""


def _xy(x: float, y: float) -> tuple[float, float]:
    min_x, _min_y, _max_x, max_y = B.BOUNDS
    return (round((x - min_x) * SCALE + MARGIN, 1), round((max_y - y) * SCALE + MARGIN, 1))


def _pt(x: float, y: float) -> str:
    a, b = _xy(x, y)
    return f"{a:g},{b:g}"


def render_svg(state: JeocincoState, highlight: tuple[str, ...] = ()) -> str:
    """The board of ``state`` as a standalone SVG document.

    ``highlight`` names slots to ring (e.g. the legal placements a display wants to show).
    """
    min_x, min_y, max_x, max_y = B.BOUNDS
    width = (max_x - min_x) * SCALE + 2 * MARGIN
    height = (max_y - min_y) * SCALE + 2 * MARGIN + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">',
           f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>']
    for q, verts in enumerate(B.PENT_VERTICES):
        pts = " ".join(_pt(*v) for v in verts)
        out.append(f'<polygon points="{pts}" fill="{PALE[B.PENT_COLOUR[q]]}" stroke="#9a9a9a" '
                   f'stroke-width="1"><title>{B.PENT_NAMES[q]}</title></polygon>')
    for h in range(25):
        c, r = B.HEXES[h]
        x, y = _xy(8 * c + 4 * (r % 2), 4 * r)
        out.append(f'<text x="{x:g}" y="{y + 4:g}" font-size="11" text-anchor="middle" fill="#777">'
                   f'{B.hex_name(h)}</text>')
    colour_of = {p: c for p, c in enumerate(state.col) if c >= 0}
    vacated = state.vacated_mask()
    hl = {B.SLOT_INDEX[n] for n in highlight if n in B.SLOT_INDEX}
    for s in range(B.NUM_SLOTS):
        (ax, ay), (bx, by) = B.SLOT_ENDS[s]
        (x1, y1), (x2, y2) = _xy(ax, ay), _xy(bx, by)
        line = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
        if s in hl:
            out.append(f'<line {line} stroke="#ff8c00" stroke-width="10" stroke-opacity="0.5" '
                       'stroke-linecap="round"/>')
        p = state.holder(s)
        if p < 0:
            continue
        colour = STRONG[colour_of.get(p, 0)]
        title = f"<title>{B.SLOT_NAMES[s]}: player {p}</title>"
        if vacated >> s & 1:
            out.append(f'<line {line} stroke="{colour}" stroke-width="3" stroke-dasharray="4 3">{title}</line>')
        else:
            out.append(f'<line {line} stroke="{colour}" stroke-width="6" stroke-linecap="round">{title}</line>')
    for k in state.bridges:
        (fx, fy), (gx, gy) = B.BRIDGE_POINTS[k]
        (x1, y1), (x2, y2) = _xy(fx, fy), _xy(gx, gy)
        p = state.holder(B.BRIDGE_SLOTS[k][0])
        line = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
        out.append(f'<line {line} stroke="#222" stroke-width="8" stroke-linecap="round"/>')
        out.append(f'<line {line} stroke="{STRONG[colour_of.get(p, 0)]}" stroke-width="5" stroke-linecap="round">'
                   f'<title>bridge {B.BRIDGE_NAMES[k]}</title></line>')
    for q, t in enumerate(state.towers):
        if t < 0:
            continue
        x, y = _xy(*B.PENT_CENTRES[q])
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="8" fill="{STRONG[B.PENT_COLOUR[q]]}" stroke="#222" '
                   f'stroke-width="2"><title>tower {B.PENT_NAMES[q]}</title></circle>')
    if state.dispute is not None:
        (ax, ay), (bx, by) = B.SLOT_ENDS[state.dispute[0]]
        (x1, y1), (x2, y2) = _xy(ax, ay), _xy(bx, by)
        out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#000" stroke-width="12" '
                   'stroke-opacity="0.25" stroke-linecap="round"/>')
    roll = state.roll
    caption = f"phase {state.phase}"
    if roll is not None:
        from controller.games.jeocinco.state import roll_text
        caption += f"   roll {roll_text(*roll)}"
    caption += "   towers " + " ".join(f"p{p}:{state.tower_count(p)}" for p in range(state.num_players))
    out.append(f'<text x="{MARGIN}" y="{height - 12:g}" font-size="14" fill="#333">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)
