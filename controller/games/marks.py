"""Channels ringed in a game's picture: the one way every picture and display marks a target, a
set-up or a violation (part of the game API; ``controller.games.base`` re-exports these names)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final, Literal

from controller.games.messages import Phrase, Say, in_english, svg_said
from controller.games.palette import HIGHLIGHT_HEX

Point = tuple[float, float]
"""A place in a game's picture (``Game.channel_xy``): x to the right, y down, in the SVG's units."""

MarkKind = Literal["target", "setup", "violation"]
"""Why a channel is ringed: the LEDs light it for the player to act (a target), the table must set
it up, or it differs from the game (a violation)."""

MARK_STROKES: Final[Mapping[MarkKind, str]] = {
    "target": f'stroke="{HIGHLIGHT_HEX}" stroke-width="4"',
    "setup": 'stroke="#ffffff" stroke-width="4" stroke-dasharray="4 3"',
    "violation": 'stroke="#e00000" stroke-width="4"',
}
"""How each kind of mark is ringed: the highlight (no player's colour), white dashed, red."""
HALO: Final = 'fill="none" stroke="#ffffff" stroke-width="8"'
"""Under a highlight ring: white, so that the black ring shows on dark pieces and spaces too."""

MARK_RADIUS: Final = 11
"""The ring's radius where a game's picture sets no other (:attr:`Game.mark_radius`)."""


MARK_TITLES: Final[Mapping[MarkKind, Phrase]] = {
    "target": Phrase("picture.mark.target", "target: {channel}"),
    "setup": Phrase("picture.mark.setup", "setup: {channel}"),
    "violation": Phrase("picture.mark.violation", "violation: {channel}"),
}
"""What a ring says when pointed at (its SVG title)."""


def ring_marks(svg: str, marks: Iterable[tuple[MarkKind, str]], channel_xy: Callable[[str], Point | None],
               radius: float = MARK_RADIUS, say: Say = in_english) -> str:
    """``svg`` with a ring of ``radius`` around each marked ``(kind, channel)`` that has a place in
    it (``channel_xy``), drawn over everything else in the order given; names without a place are
    passed over. The one way every picture and display marks channels."""
    rings = [(halo(*xy, radius) if kind == "target" else "")
             + f'<circle class="mark {kind}" cx="{xy[0]:.1f}" cy="{xy[1]:.1f}" r="{radius:g}" fill="none" '
             f'{MARK_STROKES[kind]}>{svg_said("title", MARK_TITLES[kind](channel=channel), say)}</circle>'
             for kind, channel in marks if (xy := channel_xy(channel)) is not None]
    return svg.replace("</svg>", "\n".join([*rings, "</svg>"])) if rings else svg


def halo(x: float, y: float, radius: float) -> str:
    """The white halo a highlight ring of ``radius`` at (``x``, ``y``) is drawn over."""
    return f'<circle class="halo" cx="{x:.1f}" cy="{y:.1f}" r="{radius:g}" {HALO}/>'


def highlight_ring(x: float, y: float, radius: float) -> str:
    """A legal move's place a picture rings itself (a Scriptorium space): the highlight over its halo."""
    return (halo(x, y, radius) + f'<circle class="legal" cx="{x:.1f}" cy="{y:.1f}" r="{radius:g}" fill="none" '
            f'{MARK_STROKES["target"]}/>')
