"""The demo's terminal frame: the game's picture, its LEDs beside it (or under it), the status LEDs,
the last events and the display's address, fitted to a 120×40 terminal (:data:`SCREEN`).

The LED picture is drawn as large as the room left by the game's picture allows: beside the
picture's narrowest rows where it fits (Jeocinco's pentagons, Serpientes' board), else under it,
smaller; the events take the rows left over.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from controller.games.base import Point

if TYPE_CHECKING:
    from hardware.layout import Layout
    from hardware.leds import RGB

SCREEN: Final = (120, 40)
"""Columns and rows of the smallest terminal the demo's frame fits."""
EVENTS: Final = 6
"""The most recent events shown (fewer where the picture leaves fewer rows; at least one)."""
NARROWEST: Final = 16
"""The narrowest LED picture drawn, in columns: narrower, the LEDs would be too crowded to tell apart."""
GAP: Final = 2
"""Columns between the game's picture and the LEDs beside it."""

_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@dataclass(frozen=True)
class LedPlan:
    """Where each LED of the board sits in the game's picture (``Game.channel_xy``): a channel with one
    LED at its place, a channel with several (a ring's turn indicator) as a row of its own under it."""

    placed: dict[int, Point]
    """LED index -> the place of its channel."""
    rows: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, layout: Layout, place: Callable[[str], Point | None]) -> LedPlan:
        placed = {leds[0]: xy for c, leds in layout.leds_of.items() if len(leds) == 1 and (xy := place(c)) is not None}
        return cls(placed, tuple(tuple(leds) for leds in layout.leds_of.values() if len(leds) > 1))

    def _grid(self, width: int | None) -> tuple[int, int]:
        """The board's columns and rows at ``width`` (None: as many as its LEDs call for, at most 100)."""
        if width is None:
            width = max(32, min(100, int(4 * len(self.placed) ** 0.5)))
        xs, ys = [x for x, _ in self.placed.values()] or [0.0], [y for _, y in self.placed.values()] or [0.0]
        span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
        return width, max(min(8, width // 2), round(width * span_y / span_x / 2))  # a cell: about twice as high as wide

    def size(self, width: int | None = None) -> tuple[int, int]:
        """The columns and lines :meth:`draw` takes at ``width``."""
        columns, height = self._grid(width)
        return max([columns, *map(len, self.rows)]), height + (1 + len(self.rows) if self.rows else 0)

    def draw(self, frame: tuple[RGB, ...], ansi: bool, width: int | None = None) -> list[str]:
        """Lit LEDs as coloured dots, dark ones as faint dots; two LEDs in one cell show the lit one."""
        columns, height = self._grid(width)
        xs, ys = [x for x, _ in self.placed.values()] or [0.0], [y for _, y in self.placed.values()] or [0.0]
        span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0

        def colour(led: int) -> tuple[int, int, int]:
            return frame[led] if led < len(frame) else (0, 0, 0)

        grid: list[list[tuple[int, int, int] | None]] = [[None] * columns for _ in range(height)]
        for led, (x, y) in self.placed.items():
            col = round((x - min(xs)) / span_x * (columns - 1))
            row = round((y - min(ys)) / span_y * (height - 1))  # the picture's y runs down
            if grid[row][col] is None or grid[row][col] == (0, 0, 0):
                grid[row][col] = colour(led)
        rows: list[list[tuple[int, int, int] | None]] = [[colour(led) for led in leds] for leds in self.rows]
        grid += [[], *rows] if rows else []
        lines = []
        for cells in grid:
            out = []
            for cell in cells:
                if cell is None:
                    out.append(" ")
                elif cell == (0, 0, 0):
                    out.append("\x1b[2m·\x1b[0m" if ansi else ".")
                else:
                    out.append(f"\x1b[38;2;{cell[0]};{cell[1]};{cell[2]}m●\x1b[0m" if ansi else "#")
            lines.append("".join(out).rstrip())
        return lines


def led_picture(layout: Layout, frame: tuple[RGB, ...], place: Callable[[str], Point | None], ansi: bool,
                width: int | None = None) -> list[str]:
    """The LED frame drawn where each LED's channel sits in the game's picture (:class:`LedPlan`)."""
    return LedPlan.of(layout, place).draw(frame, ansi, width)


def shown(line: str) -> int:
    """The columns ``line`` takes on a terminal (its colour escapes take none)."""
    return len(_ESCAPE.sub("", line))


def clipped(line: str, width: int) -> str:
    """``line`` cut to ``width`` columns, its colour escapes kept whole (and reset where it is cut)."""
    if shown(line) <= width:
        return line
    out, used, at = [], 0, 0
    while at < len(line):
        escape = _ESCAPE.match(line, at)
        if escape:  # the escapes after the last column shown too: a colour ended is ended
            out.append(escape.group())
            at = escape.end()
        elif used < width:
            out.append(line[at])
            used += 1
            at += 1
        else:
            break
    return "".join(out) + ("\x1b[0m" if "\x1b[" in line else "")  # no colour runs on past the cut


def screen(picture: Sequence[str], heading: str, leds: LedPlan, frame: tuple[RGB, ...], ansi: bool,
           footer: Sequence[str], events: Sequence[str], size: tuple[int, int] = SCREEN) -> list[str]:
    """The frame's lines, at most ``size`` (columns, rows): ``picture`` (the game's), the LEDs
    (``heading`` and ``frame`` drawn by ``leds``) beside or under it, then ``footer``'s first line
    (the status LEDs), a blank line, the last ``events`` that fit and the rest of ``footer`` (the
    display's address)."""
    columns, rows = size
    picture = folded(picture, columns)
    footer = [clipped(line, columns) for line in footer]
    room = rows - len(footer) - 2  # a blank line and at least one event under the top block
    top = _beside_or_under(picture, heading, leds, frame, ansi, columns, room)
    shown_events = [clipped(line, columns) for line in events[-EVENTS:]]
    shown_events = shown_events[max(0, len(shown_events) - (rows - len(top) - len(footer) - 1)):]
    return [*top, *footer[:1], "", *shown_events, *footer[1:]]


def folded(picture: Sequence[str], columns: int) -> list[str]:
    """The game's picture with no blank line at its end, a line wider than ``columns`` folded at its
    spaces (Scriptorium's pawns of six players), the rest indented by two."""
    out = list(picture)
    while out and not out[-1].strip():
        out.pop()
    return [part for line in out for part in (textwrap.wrap(line, columns, subsequent_indent="  ",
                                                            drop_whitespace=True) if shown(line) > columns else [line])]


def _beside_or_under(picture: list[str], heading: str, leds: LedPlan, frame: tuple[RGB, ...], ansi: bool,
                     columns: int, room: int) -> list[str]:
    """The picture with the largest LED picture that fits in ``room`` rows: beside the picture's
    narrowest run of rows, else under it; the picture alone (cut to ``room``) if none does."""
    for width in range(min(leds.size()[0], columns), NARROWEST - 1, -2):
        block_width, height = leds.size(width)
        block_width, height = max(block_width, shown(heading)), height + 1
        for start in range(max(len(picture) - height, 0) + 1):
            left = max((shown(line) for line in picture[start:start + height]), default=0) + GAP
            if left + block_width <= columns and max(len(picture), start + height) <= room:
                return _side_by_side(picture, [heading, *leds.draw(frame, ansi, width)], start, left)
        if len(picture) + 1 + height <= room and block_width <= columns:
            return [*picture, "", heading, *leds.draw(frame, ansi, width)]
    return picture[:room]


def _side_by_side(picture: list[str], block: list[str], start: int, left: int) -> list[str]:
    out = []
    for row in range(max(len(picture), start + len(block))):
        line = picture[row] if row < len(picture) else ""
        if start <= row < start + len(block):
            line = line + " " * (left - shown(line)) + block[row - start]
        out.append(line.rstrip())
    return out
