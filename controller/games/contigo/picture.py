"""An SVG picture of a Contigo board drawn from its public view (``board_view``, docs/display.md).

The 6x6 squares sit inside the ring of 28 pits: ``n-a`` .. ``n-f`` above the files, ``s-a`` ..
``s-f`` below, ``w-1`` .. ``w-6`` left of the ranks, ``e-1`` .. ``e-6`` right, and the four corner
pits. A pit shows its bead count (and up to eight beads); a man is a disc in its player's colour lettered
with it in the board's language (``base.letters``), a double two stacked discs marked 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.base import (
    COLOUR_HEX,
    Message,
    Phrase,
    Plural,
    Say,
    in_english,
    ink,
    is_colour,
    letters,
    ring_marks,
    svg_said,
)
from controller.games.contigo.board import COLORS, FILES, SIZE, TEXT_TURN, to_move

CELL = 56
MARGIN = 16
# eight bead places around a pit's centre
_RING = ((1.0, 0.0), (0.71, 0.71), (0.0, 1.0), (-0.71, 0.71), (-1.0, 0.0), (-0.71, -0.71), (0.0, -1.0), (0.71, -0.71))
FILL = {colour: COLOUR_HEX[colour] for colour in COLORS}
MARK_RADIUS = 25  # a mark rings a whole pit or man, leaving its bead count readable
WIDTH = 2 * MARGIN + (SIZE + 2) * CELL
HEIGHT = WIDTH + 44
LABEL = 14  # every word's size: 11 px and more on a phone 390 px wide (the picture 480 across)

PIT = Plural("contigo.picture.pit", "pit {pit}: {count} bead", "pit {pit}: {count} beads")
MAN = Phrase("contigo.picture.man", "{square}: {player}")
DOUBLE = Phrase("contigo.picture.double", "{square}: {player} double")
VARIANT = Phrase("contigo.picture.variant", "{game} game, {form} moves")
GAMES = {"alignment": Phrase("contigo.game.alignment", "alignment"),
         "capture": Phrase("contigo.game.capture", "capture")}
FORMS = {"straight": Phrase("contigo.form.straight", "straight"), "L": Phrase("contigo.form.l", "L")}
CAPTURED = Phrase("contigo.picture.captured", "captured {captured}")
CAPTURED_BY = Phrase("contigo.picture.captured_by", "{player} {count}")
RESULT = Phrase("contigo.picture.result", "result: {result}")
DRAW = Phrase("contigo.picture.draw", "draw")


def _cell(col: int, row: int) -> tuple[float, float]:
    """Centre of grid cell (col, row); col/row 0 and 7 are the pit ring, rows counted from the top."""
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


def square_xy(name: str) -> tuple[float, float] | None:
    if len(name) != 2 or name[0] not in FILES or not name[1].isdigit() or not 1 <= int(name[1]) <= SIZE:
        return None
    return _cell(FILES.index(name[0]) + 1, SIZE + 1 - int(name[1]))


def pit_xy(name: str) -> tuple[float, float] | None:
    corners = {"nw": (0, 0), "ne": (SIZE + 1, 0), "sw": (0, SIZE + 1), "se": (SIZE + 1, SIZE + 1)}
    if name in corners:
        return _cell(*corners[name])
    side, _, where = name.partition("-")
    if side in ("n", "s") and len(where) == 1 and where in FILES:
        return _cell(FILES.index(where) + 1, 0 if side == "n" else SIZE + 1)
    if side in ("w", "e") and where.isdigit() and 1 <= int(where) <= SIZE:
        return _cell(0 if side == "w" else SIZE + 1, SIZE + 1 - int(where))
    return None


def channel_xy(channel: str) -> tuple[float, float] | None:
    """Where a sensor channel (``sq:c3``, ``pit:n-a``) sits in the picture."""
    kind, _, name = channel.partition(":")
    return square_xy(name) if kind == "sq" else pit_xy(name) if kind == "pit" else None


def picture(view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
    """The board drawn from its public ``view``, the channels in ``marks`` ringed (the display's
    targets: what the players should change), its words said by ``say``."""
    return ring_marks(render_svg(view, say), [("target", channel) for channel in marks], channel_xy, MARK_RADIUS,
                      say)


def _seat(colour: str) -> str:
    """How a param names the player of ``colour`` (said as the person: his name, else his colour)."""
    return f"player {COLORS.index(colour)}" if colour in COLORS else colour


def render_svg(view: dict[str, Any], say: Say = in_english) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
           f'height="{HEIGHT}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#efe6d2"/>']
    for r in range(1, SIZE + 1):
        for f in range(SIZE):
            x, y = _cell(f + 1, SIZE + 1 - r)
            shade = "#d9c39a" if (f + r) % 2 else "#f6ecd6"
            out.append(f'<rect x="{x - CELL / 2}" y="{y - CELL / 2}" width="{CELL}" height="{CELL}" fill="{shade}" '
                       f'stroke="#8a7350" stroke-width="1"><title>{FILES[f]}{r}</title></rect>')
    for f in range(SIZE):  # coordinates along the board's edge, inside the pit ring
        x, y = _cell(f + 1, SIZE)
        out.append(f'<text x="{x - CELL / 2 + 3}" y="{y + CELL / 2 - 3}" font-size="{LABEL}" fill="#8a7350">'
                   f'{FILES[f]}</text>')
    for r in range(1, SIZE + 1):
        x, y = _cell(1, SIZE + 1 - r)
        out.append(f'<text x="{x - CELL / 2 + 3}" y="{y - CELL / 2 + 14}" font-size="{LABEL}" fill="#8a7350">'
                   f'{r}</text>')
    for name, count in view.get("pits", {}).items():
        xy = pit_xy(name)
        if xy is None:
            continue
        x, y = xy
        fill = "#c9b48c" if "-" not in name else "#b99c6b"  # corner pits govern no move: paler
        out.append(f'<circle class="pit" cx="{x}" cy="{y}" r="{CELL * 0.4}" fill="{fill}" '
                   f'stroke="#6b5530" stroke-width="1.5">{svg_said("title", PIT(pit=name, count=count), say)}</circle>')
        for k in range(min(int(count), 8)):  # the beads themselves, on a small circle
            dx, dy = _RING[k]
            bx, by = x + CELL * 0.22 * dx, y - 6 + CELL * 0.16 * dy
            out.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="3.2" fill="#f5f0e6" stroke="#555" stroke-width="0.6"/>')
        out.append(f'<text x="{x}" y="{y + 17}" font-size="{LABEL}" font-weight="bold" text-anchor="middle" '
                   f'fill="#2b2110" class="beads">{int(count)}</text>')
    for name, piece in sorted(view.get("board", {}).items()):
        xy = square_xy(name)
        if xy is None:
            continue
        x, y = xy
        colour = piece.get("player", "")
        fill = FILL.get(colour, "#777")
        who = _seat(str(colour or "?"))
        if piece.get("double"):  # two discs stacked, the upper lettered and marked 2
            mark = letters(x - 9, y - 2, colour, say, LABEL) if is_colour(colour) else ""
            out.append(f'<circle cx="{x + 3}" cy="{y + 4}" r="19" fill="{fill}" stroke="#111" stroke-width="2"/>')
            out.append(f'<g class="man double"><circle cx="{x - 2}" cy="{y - 2}" r="19" fill="{fill}" stroke="#111" '
                       f'stroke-width="2"/>{mark}<text x="{x + 8}" y="{y + 3}" font-size="{LABEL}" font-weight="bold" '
                       f'text-anchor="middle" fill="{ink(fill)}">2</text>'
                       f'{svg_said("title", DOUBLE(square=name, player=who), say)}</g>')
        else:
            mark = letters(x, y, colour, say, LABEL + 2) if is_colour(colour) else ""
            out.append(f'<g class="man"><circle cx="{x}" cy="{y}" r="18" fill="{fill}" stroke="#111" '
                       f'stroke-width="2"/>{mark}{svg_said("title", MAN(square=name, player=who), say)}</g>')
    variant, *rest = _caption(view)  # two lines: Spanish runs longer than one
    for y, line in ((HEIGHT - 26, [variant]), (HEIGHT - 8, rest)):
        out.append(f'<text x="{MARGIN}" y="{y}" font-size="{LABEL}" fill="#222" xml:space="preserve">'
                   + "   ".join(svg_said("tspan", words, say) for words in line) + "</text>")
    out.append("</svg>")
    return "\n".join(out)


def _caption(view: dict[str, Any]) -> list[Message]:
    options = view.get("options", {})
    game, form = options.get("game", "alignment"), options.get("form", "straight")
    words = [VARIANT(game=GAMES[game](), form=FORMS[form]())]
    if view.get("turn") is not None:
        words.append(TEXT_TURN(turn=view["turn"], limit=view.get("turn_limit", "?")))
    if game == "capture":
        words.append(CAPTURED(captured=tuple(CAPTURED_BY(player=_seat(c), count=n)
                                             for c, n in view.get("captured", {}).items())))
    if view.get("result"):
        result = view["result"]
        words.append(RESULT(result=DRAW() if result == "draw" else _seat(result)))
    elif view.get("to_move"):
        words.append(to_move(COLORS.index(view["to_move"]), view.get("phase", "")))
    return words
