"""The colours every picture draws with: the players', the pieces', the spaces' and the legal-move
highlight, chosen so that people with a colour-vision deficiency tell them apart (part of the game
API; ``controller.games.base`` re-exports these names).

The hues are Okabe and Ito's ("Color Universal Design", 2008): vermillion for red, orange, yellow,
blue as they give them; green, violet and brown are shades picked the same way, checked against
every game's set of colours under simulated deuteranopia, protanopia and tritanopia
(``tests/test_colour.py``; the minimum and why: ``docs/display.md``). Each keeps the hue its name
says, since the rules texts name the colours. The highlight is black: no game's colour.

Beside the colour, every piece carries its colour's letters (:data:`COLOUR_LETTERS`, said in the
board's language: "Az" for azul, "Am" for amarillo), so no one has to tell colours apart at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeGuard

from controller.games.messages import Phrase, Say, svg_said

ColourName = Literal["red", "orange", "yellow", "green", "blue", "violet", "brown", "cyan"]
"""The colours a game may give its players (the pieces' colours on the real board)."""

COLOUR_HEX: Final[Mapping[ColourName, str]] = {
    "red": "#d55e00", "orange": "#e69f00", "yellow": "#f0e442", "green": "#47b276",
    "blue": "#0072b2", "violet": "#4b2a8c", "brown": "#663d29", "cyan": "#56b4e9",
}
"""How displays draw each colour. The LEDs have their own values for the same names
(``controller.ledview.LED_RGB``): a NeoPixel needs other numbers to look the same."""

NO_COLOUR_HEX: Final = "#888888"
"""A player the game has given no colour yet (Jeocinco before the colours are chosen)."""

HIGHLIGHT_HEX: Final = "#000000"
"""The legal-move highlight (the target rings, Jeocinco's legal slots): no player's colour, drawn
over a white halo so that it shows on dark pieces too."""

PALETTE: Final[tuple[ColourName, ...]] = ("red", "blue", "green", "yellow", "violet", "orange")
"""Colours of games whose pieces have none of their own, by seat (all six told apart, as
Scriptorium's six)."""

COLOUR_LETTERS: Final[Mapping[ColourName, Phrase]] = {
    "red": Phrase("colour.letter.red", "R"), "orange": Phrase("colour.letter.orange", "O"),
    "yellow": Phrase("colour.letter.yellow", "Y"), "green": Phrase("colour.letter.green", "G"),
    "blue": Phrase("colour.letter.blue", "B"), "violet": Phrase("colour.letter.violet", "V"),
    "brown": Phrase("colour.letter.brown", "Br"), "cyan": Phrase("colour.letter.cyan", "C"),
}
"""The letters on a piece of each colour: its colour's initial in the board's language, two letters
where two colours of one game share an initial (Spanish azul and amarillo, verde and violeta)."""


def is_colour(name: object) -> TypeGuard[ColourName]:
    """Whether ``name`` is one of the colour names (a layout file's colours are plain text)."""
    return name in COLOUR_HEX


def _channels(hex_: str) -> tuple[int, int, int]:
    return int(hex_[1:3], 16), int(hex_[3:5], 16), int(hex_[5:7], 16)


def tint(hex_: str, white: float) -> str:
    """``hex_`` mixed with ``white`` (0..1) parts of white: a board's paler version of a colour."""
    r, g, b = (round(c + (255 - c) * white) for c in _channels(hex_))
    return f"#{r:02x}{g:02x}{b:02x}"


def ink(hex_: str) -> str:
    """Black or white, whichever reads better on ``hex_`` (WCAG's relative luminance: black on a
    background lighter than about 18 %)."""
    r, g, b = ((c / 255 / 12.92) if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in _channels(hex_))
    return "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "#ffffff"


def letters(x: float, y: float, colour: ColourName, say: Say, size: float = 9) -> str:
    """The letters of ``colour`` (:data:`COLOUR_LETTERS`, said by ``say``) centred on (``x``, ``y``)
    of a piece of that colour: in the ink that reads on it, outlined in the colour itself so that
    they read where they overflow a thin piece."""
    hex_ = COLOUR_HEX[colour]
    return svg_said("text", COLOUR_LETTERS[colour](), say,
                    f'class="letters" x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size:g}" font-weight="bold" '
                    f'text-anchor="middle" fill="{ink(hex_)}" stroke="{hex_}" stroke-width="{min(size / 4, 4):g}" '
                    'paint-order="stroke" pointer-events="none"')
