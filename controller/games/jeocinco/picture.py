"""An SVG picture of a Jeocinco public view (for the display and the rules document), and where each
sensor channel sits on it. It reads the public view, never the position: what it draws is what anyone
may see."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from controller.games.base import (
    COLOUR_HEX,
    HIGHLIGHT_HEX,
    Message,
    Phrase,
    Plural,
    Say,
    in_english,
    letters,
    ring_marks,
    svg_said,
    tint,
)
from controller.games.jeocinco import board as B
from controller.games.jeocinco.board import PHASE

SCALE = 20
MARGIN = 30
PALE = tuple(tint(COLOUR_HEX[c], 0.4) for c in B.COLOUR_NAMES)
"""Board colour of each orientation's pentagons (N yellow, E green, S blue, W red): the players'
colours made paler, still told apart under colour-vision deficiency (``tests/test_colour.py``)."""
STRONG = tuple(COLOUR_HEX[c] for c in B.COLOUR_NAMES)
"""Pieces, towers and bridges of each colour (the players' colours)."""
LABEL = 27
"""Every word's size: 11 px and more on a phone 390 px wide (the picture is 940 across)."""

SLOT = Phrase("jeocinco.picture.slot", "{slot}: {player}")
BRIDGE = Phrase("jeocinco.picture.bridge", "bridge from {a} to {b}")
TOWER = Phrase("jeocinco.picture.tower", "tower {pentagon}")
PHASE_CAPTION = Phrase("jeocinco.picture.phase", "phase {phase}")
ROLL_CAPTION = Phrase("jeocinco.picture.roll", "roll {roll}")
TOWERS_CAPTION = Plural("jeocinco.picture.towers", "{player}: {count} tower", "{player}: {count} towers")


def to_picture(x: float, y: float) -> tuple[float, float]:
    """A point of the board model in the picture's coordinates."""
    min_x, _min_y, _max_x, max_y = B.BOUNDS
    return (round((x - min_x) * SCALE + MARGIN, 1), round((max_y - y) * SCALE + MARGIN, 1))


def _pt(x: float, y: float) -> str:
    a, b = to_picture(x, y)
    return f"{a:g},{b:g}"


def channel_xy(name: str) -> tuple[float, float] | None:
    """Where the channel ``name`` (``slot:...``, ``tower:...``, ``bridge:...``) sits in the picture."""
    kind, _, item = name.partition(":")
    if kind == "slot" and item in B.SLOT_INDEX:
        (ax, ay), (bx, by) = B.SLOT_ENDS[B.SLOT_INDEX[item]]
        return to_picture((ax + bx) / 2, (ay + by) / 2)
    if kind == "tower" and item in B.PENT_INDEX:
        return to_picture(*B.PENT_CENTRES[B.PENT_INDEX[item]])
    if kind == "bridge" and item in B.BRIDGE_NAMES:
        (px, py), (qx, qy) = B.BRIDGE_POINTS[B.BRIDGE_NAMES.index(item)]
        return to_picture((px + qx) / 2, (py + qy) / 2)
    return None


def picture(public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
    """The board of a public view, the slots among the channels ``marks`` highlighted along their
    length and the other marks (towers, bridges) ringed; its words said by ``say``."""
    slots = tuple(m.removeprefix("slot:") for m in marks if m.startswith("slot:"))
    return ring_marks(render_svg(public_view, highlight=slots, say=say),
                      [("target", m) for m in marks if not m.startswith("slot:")], channel_xy, say=say)


def render_svg(view: dict[str, Any], highlight: tuple[str, ...] = (), say: Say = in_english) -> str:
    """The board of a public view (``State.public_view``) as a standalone SVG document.

    ``highlight`` names slots to ring (e.g. the legal placements a display wants to show).
    """
    min_x, min_y, max_x, max_y = B.BOUNDS
    width = (max_x - min_x) * SCALE + 2 * MARGIN
    caption = _caption(view)
    height = (max_y - min_y) * SCALE + 2 * MARGIN + (LABEL + 8) * len(caption)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">',
           f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>']
    for q, verts in enumerate(B.PENT_VERTICES):
        pts = " ".join(_pt(*v) for v in verts)
        out.append(f'<polygon points="{pts}" fill="{PALE[B.PENT_COLOUR[q]]}" stroke="#9a9a9a" '
                   f'stroke-width="1"><title>{B.PENT_NAMES[q]}</title></polygon>')
    for h in range(25):
        c, r = B.HEXES[h]
        x, y = to_picture(8 * c + 4 * (r % 2), 4 * r)
        out.append(f'<text x="{x:g}" y="{y + LABEL / 3:g}" font-size="{LABEL}" text-anchor="middle" fill="#777">'
                   f'{B.hex_name(h)}</text>')
    colour_of = {seat["player"]: B.COLOURS.index(seat["colour"]) for seat in view["players"] if seat["colour"]}
    holder = {B.SLOT_INDEX[name]: p for name, p in view["slots"].items()}
    vacated = {B.SLOT_INDEX[tower["replaced_slot"]] for tower in view["towers"].values()}
    ringed = {B.SLOT_INDEX[n] for n in highlight if n in B.SLOT_INDEX}
    for s in range(B.NUM_SLOTS):
        (ax, ay), (bx, by) = B.SLOT_ENDS[s]
        (x1, y1), (x2, y2) = to_picture(ax, ay), to_picture(bx, by)
        line = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
        if s in ringed:  # the highlight, dashed: no piece looks like it
            out.append(f'<line class="legal" {line} stroke="#fff" stroke-width="10" stroke-linecap="round"/>'
                       f'<line {line} stroke="{HIGHLIGHT_HEX}" stroke-width="5" stroke-dasharray="5 4"/>')
        p = holder.get(s, -1)
        if p < 0:
            continue
        colour = STRONG[colour_of.get(p, 0)]
        title = svg_said("title", SLOT(slot=B.SLOT_NAMES[s], player=f"player {p}"), say)
        if s in vacated:
            out.append(f'<line {line} stroke="{colour}" stroke-width="3" stroke-dasharray="4 3">{title}</line>')
        else:  # cased in dark grey, lettered at its middle: told apart from the pentagons without colour
            out.append(f'<line {line} stroke="#333" stroke-width="9" stroke-linecap="round"/>'
                       f'<line {line} stroke="{colour}" stroke-width="6" stroke-linecap="round">{title}</line>')
            out.append(letters((x1 + x2) / 2, (y1 + y2) / 2, B.COLOUR_NAMES[colour_of.get(p, 0)], say, LABEL))
    for bridge in view["bridges"]:
        k = B.BRIDGE_NAMES.index(bridge["name"])
        (fx, fy), (gx, gy) = B.BRIDGE_POINTS[k]
        (x1, y1), (x2, y2) = to_picture(fx, fy), to_picture(gx, gy)
        p = bridge["player"]
        line = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
        out.append(f'<line {line} stroke="#222" stroke-width="8" stroke-linecap="round"/>')
        out.append(f'<line {line} stroke="{STRONG[colour_of.get(p, 0)]}" stroke-width="5" stroke-linecap="round">'
                   f'{svg_said("title", BRIDGE(**B.bridge_ends(k)), say)}</line>')
        out.append(letters((x1 + x2) / 2, (y1 + y2) / 2, B.COLOUR_NAMES[colour_of.get(p, 0)], say, LABEL))
    for q in sorted(B.PENT_INDEX[name] for name in view["towers"]):
        x, y = to_picture(*B.PENT_CENTRES[q])
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="18" fill="{STRONG[B.PENT_COLOUR[q]]}" stroke="#222" '
                   f'stroke-width="2">{svg_said("title", TOWER(pentagon=B.PENT_NAMES[q]), say)}</circle>')
        out.append(letters(x, y, B.COLOUR_NAMES[B.PENT_COLOUR[q]], say, LABEL))
    if view["dispute"] is not None:
        (ax, ay), (bx, by) = B.SLOT_ENDS[B.SLOT_INDEX[view["dispute"]["slot"]]]
        (x1, y1), (x2, y2) = to_picture(ax, ay), to_picture(bx, by)
        out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#000" stroke-width="12" '
                   'stroke-opacity="0.25" stroke-linecap="round"/>')
    for i, said in enumerate(caption):
        y = height - 12 - (LABEL + 8) * (len(caption) - 1 - i)
        out.append(f'<text x="{MARGIN}" y="{y:g}" font-size="{LABEL}" fill="#333" xml:space="preserve">'
                   + "   ".join(svg_said("tspan", words, say) for words in said) + "</text>")
    out.append("</svg>")
    return "\n".join(out)


def _caption(view: dict[str, Any]) -> list[list[Message]]:
    """The caption's lines: the phase and the roll, then the towers, two players a line."""
    first = [PHASE_CAPTION(phase=PHASE[view["phase"]]())]
    if view["roll"] is not None:
        first.append(ROLL_CAPTION(roll=B.rolled(view["roll"])))  # the dice in words, never "*+"
    towers = [TOWERS_CAPTION(player=f"player {seat['player']}", count=seat["towers"]) for seat in view["players"]]
    return [first, *(towers[i:i + 2] for i in range(0, len(towers), 2))]


_PENTAGON = " ".join(f"{30 + 26 * math.sin(2 * math.pi * k / 5):.1f},{32 - 26 * math.cos(2 * math.pi * k / 5):.1f}"
                     for k in range(5))


def action_face(text: str) -> str | None:
    """A colour choice (``colour N``) drawn as what it picks: a pentagon of that orientation's colour,
    as the board shows them; None for any other move (the picture has its place)."""
    kind, _, letter = text.partition(" ")
    if kind != "colour" or len(letter) != 1 or letter not in B.COLOURS:
        return None
    q = B.COLOURS.index(letter)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 60" width="60" height="60">'
            f'<polygon points="{_PENTAGON}" fill="{PALE[q]}" stroke="{STRONG[q]}" stroke-width="5"/></svg>')
