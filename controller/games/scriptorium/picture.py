"""An SVG picture of a Scriptorium position, drawn from its public view alone:
``picture(public_view, marks) -> str``, and ``channel_xy(name)``: where a channel sits in it.

The parts are drawn as they sit (their offsets applied): positions are numbered clockwise from the
top, the Middle ring half a space off. Black lines come from the layout data. Pawns are discs in
their player's colour with its letters in the board's language (``base.letters``), and every space
carries its colour's letters too; black pins are small black dots; the active part of the sync
clock has a thick outline; legal targets of the move at hand are ringed in the highlight
(``base.HIGHLIGHT_HEX``), as are the other channels the LEDs light (a ring to turn).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from controller.games.base import (
    COLOUR_HEX,
    Message,
    Phrase,
    Say,
    highlight_ring,
    in_english,
    is_colour,
    letters,
    ring_marks,
    svg_said,
)
from controller.games.scriptorium import board as B
from controller.games.scriptorium.board import CENTRE, HUB, INNER, MIDDLE, OUTER, PART_NAMES, PHASE, TURN_NOTE

FILL: dict[str, str] = {name: value for name, value in COLOUR_HEX.items()}
"""How each colour of the layout (the spaces' and the players' pawns) is drawn."""
HUB_R = 28.0
LABEL = 12  # the letters' size: 11 px and more on a phone 390 px wide (the picture is 420 across)
BANDS = {CENTRE: (HUB_R, 62.0), INNER: (70.0, 104.0), MIDDLE: (112.0, 146.0), OUTER: (154.0, 188.0)}

SPACE = Phrase("scriptorium.picture.space", "{part} {position}: {colour}")
PIN = Phrase("scriptorium.picture.pin", "black pin")
PAWN = Phrase("scriptorium.picture.pawn", "{player} pawn")
ALIGNED = Phrase("scriptorium.picture.aligned", "ALIGNED: the board is frozen")
CLOCK = Phrase("scriptorium.picture.clock", "sync clock: {part} turns")
ROUND = Phrase("scriptorium.picture.round", "round {round}  phase {phase}  {status}")
WINS = Phrase("scriptorium.picture.wins", "{player} wins")
TO_PLAY = Phrase("scriptorium.picture.to_play", "{player} to play")
TO_PLAY_DIE = Phrase("scriptorium.picture.to_play_die", "{player} to play, die: {die}")
VISITED = Phrase("scriptorium.picture.visited", "outer spaces visited: {visits}")
VISITS = Phrase("scriptorium.picture.visits", "{player} {count}/2")


def _fill(colour: str) -> str:
    return FILL.get(colour, colour)


def _angle(part: int, position: float) -> float:
    return 2 * math.pi * (position + B.LAYOUT.angle_shift[part]) / B.N


def _point(radius: float, angle: float) -> tuple[float, float]:
    return radius * math.sin(angle), -radius * math.cos(angle)


def centre_of(loc: int) -> tuple[float, float]:
    part, p = loc // B.N, loc % B.N
    lo, hi = BANDS[part]
    return _point((lo + hi) / 2, _angle(part, p))


def _corner(part: int, p: int) -> tuple[float, float]:
    """Where a space's letters go: by its outer edge, before its middle clockwise, clear of a pawn
    and of the black lines through its centre (the narrow Centre: its middle, no pawn stands there)."""
    lo, hi = BANDS[part]
    if part == CENTRE:
        return _point(lo + (hi - lo) * 0.7, _angle(part, p))
    return _point(hi - 7, _angle(part, p - 0.3))


def _wedge(part: int, p: int) -> str:
    lo, hi = BANDS[part]
    half = math.pi / B.N
    a0, a1 = _angle(part, p) - half, _angle(part, p) + half
    x0, y0 = _point(hi, a0)
    x1, y1 = _point(hi, a1)
    x2, y2 = _point(lo, a1)
    x3, y3 = _point(lo, a0)
    return (f"M{x0:.1f},{y0:.1f} A{hi},{hi} 0 0 1 {x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
            f" A{lo},{lo} 0 0 0 {x3:.1f},{y3:.1f} Z")


class _Viewable(Protocol):
    def public_view(self) -> dict[str, Any]: ...


def render_svg(state: _Viewable, say: Say = in_english) -> str:
    """A state's picture, no marks."""
    return picture(state.public_view(), say=say)


_PARTS = {name: part for part, name in enumerate(PART_NAMES)}


def channel_xy(name: str) -> tuple[float, float] | None:
    """Where a channel sits in the picture: a ring space at its centre, the hub in the middle, a
    part's encoder at the top of its band (None for any other name)."""
    kind, _, rest = name.partition(":")
    if name == "hub":
        return (0.0, 0.0)
    if kind == "pos":
        part, _, p = rest.partition(":")
        if part in _PARTS and p.isdigit() and int(p) < B.N:
            return centre_of(_PARTS[part] * B.N + int(p))
    if kind == "enc" and rest in _PARTS:  # a ring to turn: mark it at the top
        lo, hi = BANDS[_PARTS[rest]]
        return (0.0, -(lo + hi) / 2)
    return None


def _seat(colour: str) -> str:
    """How a param names the player of ``colour`` (said as the person: his name, else his colour)."""
    return f"player {B.COLOURS.index(colour)}" if colour in B.COLOURS else colour


def picture(view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
    """The position of a public view as a standalone SVG document; of ``marks``, the channels the
    legal moves' targets do not already show are ringed in orange. Its words are said by ``say``."""
    out: list[str] = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-210 -215 420 470" width="420" height="470"'
        ' font-family="sans-serif">',
        "<title>Scriptorium</title>",  # its name, read aloud by a screen reader: never the position's notation
        '<rect x="-210" y="-215" width="420" height="470" fill="#f4efe1"/>',
    ]
    active = _PARTS[view["active_part"]]
    aligned = view["aligned"]
    space_letters: list[str] = []  # each space's letters in a corner, drawn over the black lines
    for part in (OUTER, MIDDLE, INNER, CENTRE):
        for p, colour in enumerate(view["colours"][PART_NAMES[part]]):
            out.append(f'<path d="{_wedge(part, p)}" fill="{_fill(colour)}" stroke="#222" stroke-width="0.8">'
                       + svg_said("title", SPACE(part=PART_NAMES[part], position=p, colour=colour), say) + "</path>")
            if is_colour(colour):
                space_letters.append(letters(*_corner(part, p), colour, say, LABEL))
        if part == active and not aligned:
            lo, hi = BANDS[part]
            for r in (lo, hi):
                out.append(f'<circle r="{r}" fill="none" stroke="#000" stroke-width="3"/>')
    # black lines (from the layout), drawn over the spaces
    line_style = 'stroke="#111" stroke-width="1.4" stroke-linecap="round"'
    for r1, p1, r2, p2 in B.LAYOUT.lines():
        (x1, y1), (x2, y2) = centre_of(r1 * B.N + p1), centre_of(r2 * B.N + p2)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {line_style}/>')
    for inner_p, _sector in B.LAYOUT.hub_lines:
        x1, y1 = _point(HUB_R, _angle(INNER, inner_p))
        x2, y2 = centre_of(INNER * B.N + inner_p)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {line_style}/>')
    out.append(f'<circle r="{HUB_R}" fill="#111"/>')
    out += space_letters
    # position numbers outside the Outer ring
    for p in range(B.N):
        x, y = _point(BANDS[OUTER][1] + 10, _angle(OUTER, p))
        out.append(f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="12" text-anchor="middle" fill="#555">{p}</text>')
    # legal targets
    for t in view["targets"]:
        loc = B.parse_location(t)
        if loc == HUB:
            out.append(highlight_ring(0.0, 0.0, HUB_R - 4))
        elif loc is not None:
            out.append(highlight_ring(*centre_of(loc), 13))
    # pins
    for pin_text in view["pins"]:
        x, y = centre_of(_location(pin_text))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#000" stroke="#fff" stroke-width="1.5">'
                   + svg_said("title", PIN(), say) + "</circle>")
    # pawns
    pawns = list(view["pawns"].items())
    at_hub = [player for player, loc in pawns if loc == "hub"]
    for k, player in enumerate(at_hub):
        a = 2 * math.pi * k / max(1, len(at_hub))
        x, y = (0.0, 0.0) if len(at_hub) == 1 else _point(15, a)
        out.append(_pawn(x, y, player, say))
    for player, loc_text in pawns:
        if loc_text != "hub":
            x, y = centre_of(_location(loc_text))
            out.append(_pawn(x, y, player, say))
    # caption
    status = ALIGNED() if aligned else CLOCK(part=view["active_part"])
    turn = view["required_turn"]
    lines: list[Message] = [ROUND(round=view["round"], phase=PHASE[view["phase"]](), status=status)]
    if turn:
        lines.append(TURN_NOTE(**turn))
    elif view["winner"]:
        lines.append(WINS(player=_seat(view["winner"])))
    elif view["turn"]:
        lines.append(TO_PLAY_DIE(player=_seat(view["turn"]), die=view["die"])
                     if view["die"] and view["phase"] == "move" else TO_PLAY(player=_seat(view["turn"])))
    lines.append(VISITED(visits=tuple(VISITS(player=_seat(name), count=n) for name, n in view["visited"].items())))
    for i, words in enumerate(lines):
        out.append(svg_said("text", words, say, f'x="-200" y="{214 + 14 * i}" font-size="12" fill="#222"'))
    out.append("</svg>")
    return ring_marks("\n".join(out), [("target", channel) for channel in marks if not _drawn_target(channel)],
                      channel_xy, say=say)


def _drawn_target(channel: str) -> bool:
    """A ring space or the hub: the legal targets above already ring these."""
    return channel.startswith(("pos:", "hub"))


def _location(text: str) -> int:
    loc = B.parse_location(text)
    if loc is None:
        raise ValueError(f"not a Scriptorium location: {text!r}")
    return loc


def _pawn(x: float, y: float, colour: str, say: Say) -> str:
    return (f'<g><circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="{_fill(colour)}" stroke="#fff" stroke-width="2"/>'
            f'{letters(x, y, colour, say, LABEL) if is_colour(colour) else ""}'
            f'{svg_said("title", PAWN(player=_seat(colour)), say)}</g>')
