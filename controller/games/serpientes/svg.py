"""An SVG picture of a Serpientes position (public information only: no hands, no sequences)."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from html import escape
from typing import Any, Protocol

from controller.games.base import COLOUR_HEX
from controller.games.serpientes import board as B
from controller.games.serpientes.engine import SNAKE_COLOURS

CELL = 40
MARGIN = 30
COLOURS = tuple(COLOUR_HEX[c] for c in SNAKE_COLOURS)
"""Each seat's sticks as drawn."""


def _xy(n: int) -> tuple[int, int]:
    r, c = B.rc(n)
    return MARGIN + c * CELL, MARGIN + r * CELL


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


def render_svg(state: Drawable) -> str:
    """The board of ``state`` as a standalone SVG document (grid, tokens, snakes, heads, scores)."""
    size = 2 * MARGIN + (B.SIZE - 1) * CELL
    height = size + 20 * state.num_players + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
           f'<rect x="0" y="0" width="{size}" height="{height}" fill="#f6efe0"/>']
    lo, hi = MARGIN, MARGIN + (B.SIZE - 1) * CELL
    for i in range(B.SIZE):
        p = MARGIN + i * CELL
        out.append(f'<line x1="{lo}" y1="{p}" x2="{hi}" y2="{p}" stroke="#bbb" stroke-width="1"/>')
        out.append(f'<line x1="{p}" y1="{lo}" x2="{p}" y2="{hi}" stroke="#bbb" stroke-width="1"/>')
        out.append(f'<text x="{p}" y="{lo - 12}" font-size="11" text-anchor="middle">{B.COLUMNS[i]}</text>')
        out.append(f'<text x="{lo - 16}" y="{p + 4}" font-size="11" text-anchor="middle">{i + 1}</text>')
    for n in sorted(state.tokens):
        x, y = _xy(n)
        out.append(f'<circle class="token" cx="{x}" cy="{y}" r="8" fill="#e8c547" stroke="#7a6200"/>')
    for p in range(state.num_players):
        sn = state.snake(p)
        colour = COLOURS[p % len(COLOURS)]
        for a, b in itertools.pairwise(sn):
            (x1, y1), (x2, y2) = _xy(a), _xy(b)
            out.append(f'<line class="stick p{p}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                       f'stroke="{colour}" stroke-width="7" stroke-linecap="round"/>')
        if sn:
            x, y = _xy(sn[-1])
            out.append(f'<circle class="head p{p}" cx="{x}" cy="{y}" r="7" fill="{colour}" '
                       f'stroke="#000" stroke-width="2"/>')
    scores = state.scores()
    snakes = state.public_view()["snakes"]
    for p in range(state.num_players):
        y = size + 10 + 20 * p
        colour = COLOURS[p % len(COLOURS)]
        turn = " \u25c0" if p == state.turn_player and state.phase not in ("over", "tokens", "first") else ""
        label = (f"player {p}: score {int(scores[p])} (eaten {snakes[p]['eaten']}, "
                 f"sticks {state.sticks(p)}, supply {snakes[p]['supply']}){turn}")
        out.append(f'<rect x="{MARGIN}" y="{y - 10}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{MARGIN + 18}" y="{y}" font-size="12">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)
