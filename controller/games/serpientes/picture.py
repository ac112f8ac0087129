"""An SVG picture of a Serpientes position (public information only: no hands, no sequences).

``render_svg`` draws a state; ``picture`` draws the same from a public view alone (what a display
has), and ``channel_xy`` says where each sensor channel sits in it.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from controller.games.base import COLOUR_HEX, Phrase, Say, in_english, letters, ring_marks, svg_said
from controller.games.serpientes import board as B

CELL = 40
LABEL = 16  # every word's size: 11 px and more on a phone 390 px wide (the picture is 540 across)
LEGEND_LINE = LABEL + 8
MARGIN = 30
COLOURS = tuple(COLOUR_HEX[c] for c in B.SNAKE_COLOURS)
"""Each seat's sticks as drawn."""


def _xy(n: int) -> tuple[int, int]:
    r, c = B.rc(n)
    return MARGIN + c * CELL, MARGIN + r * CELL


def channel_xy(name: str) -> tuple[float, float] | None:
    """Where the channel ``name`` sits in the picture (None for a name that is no channel)."""
    kind, *rest = name.split(":")
    if not all(part.isdigit() for part in rest[-2:]):
        return None
    if kind == "pt" and len(rest) == 2:
        r, c = map(int, rest)
        return MARGIN + c * CELL, MARGIN + r * CELL
    if kind == "edge" and len(rest) == 3:  # edge:h:r:c joins (r,c)-(r,c+1); edge:v:r:c joins (r,c)-(r+1,c)
        r, c = int(rest[1]), int(rest[2])
        dx, dy = (0.5, 0.0) if rest[0] == "h" else (0.0, 0.5)
        return MARGIN + (c + dx) * CELL, MARGIN + (r + dy) * CELL
    return None


LEGEND = Phrase("serpientes.picture.legend", "{player}: score {score} (eaten {eaten}, sticks {sticks}, "
                "supply {supply})")


class Drawable(Protocol):
    """What the picture reads of a position: a state, or a display's stand-in built from the public view."""

    @property
    def num_players(self) -> int: ...
    @property
    def tokens(self) -> Collection[int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn_player(self) -> int: ...
    def snake(self, p: int) -> Sequence[int]: ...
    def sticks(self, p: int) -> int: ...
    def scores(self) -> list[float]: ...
    def public_view(self) -> dict[str, Any]: ...


def render_svg(state: Drawable, say: Say = in_english) -> str:
    """The board of ``state`` as a standalone SVG document (grid, tokens, snakes, heads, scores)."""
    size = 2 * MARGIN + (B.SIZE - 1) * CELL
    height = size + LEGEND_LINE * state.num_players + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{size}" height="{height}" fill="#f6efe0"/>']
    lo, hi = MARGIN, MARGIN + (B.SIZE - 1) * CELL
    for i in range(B.SIZE):
        p = MARGIN + i * CELL
        out.append(f'<line x1="{lo}" y1="{p}" x2="{hi}" y2="{p}" stroke="#bbb" stroke-width="1"/>')
        out.append(f'<line x1="{p}" y1="{lo}" x2="{p}" y2="{hi}" stroke="#bbb" stroke-width="1"/>')
        out.append(f'<text x="{p}" y="{lo - 12}" font-size="{LABEL}" text-anchor="middle">{B.COLUMNS[i]}</text>')
        out.append(f'<text x="{lo - 17}" y="{p + 5}" font-size="{LABEL}" text-anchor="middle">{i + 1}</text>')
    for n in sorted(state.tokens):
        x, y = _xy(n)
        out.append(f'<circle class="token" cx="{x}" cy="{y}" r="8" fill="#e8c547" stroke="#7a6200"/>')
    for p in range(state.num_players):
        sn = state.snake(p)
        name = B.SNAKE_COLOURS[p % len(COLOURS)]
        colour = COLOURS[p % len(COLOURS)]
        for a, b in itertools.pairwise(sn):  # each stick lettered at its middle: told apart without colour
            (x1, y1), (x2, y2) = _xy(a), _xy(b)
            out.append(f'<line class="stick p{p}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                       f'stroke="{colour}" stroke-width="9" stroke-linecap="round"/>')
            out.append(letters((x1 + x2) / 2, (y1 + y2) / 2, name, say, LABEL))
        if sn:
            x, y = _xy(sn[-1])
            out.append(f'<circle class="head p{p}" cx="{x}" cy="{y}" r="13" fill="{colour}" '
                       f'stroke="#000" stroke-width="2"/>')
            out.append(letters(x, y, name, say, LABEL))
    scores = state.scores()
    snakes = state.public_view()["snakes"]
    for p in range(state.num_players):
        y = size + 10 + LEGEND_LINE * p
        colour = COLOURS[p % len(COLOURS)]
        turn = " \u25c0" if p == state.turn_player and state.phase not in ("over", "tokens", "first") else ""
        label = LEGEND(player=f"player {p}", score=int(scores[p]), eaten=snakes[p]["eaten"], sticks=state.sticks(p),
                       supply=snakes[p]["supply"])
        out.append(f'<rect x="{MARGIN - 8}" y="{y - 16}" width="24" height="22" fill="{colour}"/>')
        out.append(letters(MARGIN + 4, y - 5, B.SNAKE_COLOURS[p % len(COLOURS)], say, LABEL))
        out.append(f'<text x="{MARGIN + 22}" y="{y}" font-size="{LABEL}">{svg_said("tspan", label, say)}{turn}</text>')
    out.append("</svg>")
    return "\n".join(out)


class PublicPicture:
    """What ``render_svg`` reads of a state, from the public view (``State.public_view``)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self._view = view
        self.num_players = len(view["snakes"])
        self.tokens = {B.parse_node(t) for t in view["tokens"]}
        self._snakes = [[B.parse_node(n) for n in s["intersections"]] for s in view["snakes"]]
        self.turn_player = view["turn_player"]
        self.phase = view["phase"]

    def snake(self, p: int) -> list[int]:
        return self._snakes[p]

    def sticks(self, p: int) -> int:
        return int(self._view["snakes"][p]["sticks"])

    def scores(self) -> list[float]:
        return list(self._view["scores"])

    def public_view(self) -> dict[str, Any]:
        return self._view


def picture(public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
    """The board of a public view as SVG, a ring around each channel in ``marks``, its words said by ``say``."""
    return ring_marks(render_svg(PublicPicture(public_view), say), [("target", channel) for channel in marks],
                      channel_xy, say=say)


_TURNS = {"straight": 0, "left": -90, "right": 90, "north": 0, "east": 90, "south": 180, "west": 270}
"""Where a card's arrow points, in degrees clockwise from up (a relative card: from the snake's way)."""


def action_face(text: str) -> str | None:
    """A card added to the sequence (``add left``) drawn as its face: an arrow on a card, ringed by a
    compass for the absolute kinds; None for any other move (a card added face down has no face)."""
    kind, _, card = text.partition(" ")
    if kind != "add" or card not in _TURNS:
        return None
    compass = ('<circle cx="24" cy="32" r="17" fill="none" stroke="#2457d6" stroke-width="2"/>'
               if card in B.ABSOLUTE_KINDS else "")
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 64" width="48" height="64">'
            '<rect x="2" y="2" width="44" height="60" rx="6" fill="#fff" stroke="#333" stroke-width="2"/>'
            f'{compass}<path d="M24 16 L34 30 H28 V46 H20 V30 H14 Z" fill="#222" '
            f'transform="rotate({_TURNS[card]} 24 32)"/></svg>')
