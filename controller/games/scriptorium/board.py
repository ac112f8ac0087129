"""Board geometry of Scriptorium, read from a layout data file (``layout.json``).

Everything about how the board is drawn lives in the layout: the colours, which colour each space
of each part shows, the black lines between fixed positions, and which Centre sector opens the way
from an Inner position to the hub. A board drawn differently needs only another layout file; the
rules in :mod:`.engine` only ask this module questions.

Positions are fixed angles numbered clockwise from the top (0..11). A part whose offset is ``o``
has its space ``s`` at position ``(s + o) % 12``; turning a part *left* one space adds 1 to its
offset (the seed: "hacia la izquierda, como el movimiento de las agujas del reloj").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.games.base import Phrase

CENTRE, INNER, MIDDLE, OUTER = 0, 1, 2, 3
PART_NAMES = ("centre", "inner", "middle", "outer")
PART_TITLES = ("Centre", "Inner", "Middle", "Outer")
RINGS = (INNER, MIDDLE, OUTER)
RING_LETTERS = {INNER: "i", MIDDLE: "m", OUTER: "o"}
HUB = -1
"""The hub's location code. A ring space at position p of part r has location code r * 12 + p."""


@dataclass(frozen=True)
class Layout:
    name: str
    positions: int
    colours: tuple[str, ...]
    angle_shift: tuple[float, ...]
    space_colours: tuple[tuple[int, ...], ...]
    hub_lines: tuple[tuple[int, int], ...]
    """(inner position, centre sector position): the hub reaches that Inner position through that sector."""
    ring_lines: tuple[tuple[int, int, int, int], ...]
    cross_lines: tuple[tuple[int, int, int, int, str], ...]
    """(ring, position, MIDDLE, position, family): a line between the Middle and the Inner or Outer ring."""

    # --- derived tables -------------------------------------------------------------------
    def lines(self) -> tuple[tuple[int, int, int, int], ...]:
        """Every black line between two ring spaces, (part, position, part, position)."""
        return (*self.ring_lines, *((r1, p1, r2, p2) for r1, p1, r2, p2, _ in self.cross_lines))

    def colour_table(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``table[part][offset][position]``: the colour a part shows at a position."""
        n = self.positions
        return tuple(
            tuple(tuple(self.space_colours[part][(p - o) % n] for p in range(n)) for o in range(n))
            for part in range(4)
        )

    def neighbours(self) -> dict[int, tuple[int, ...]]:
        """Location code -> the ring locations a black line joins it to (the hub excluded)."""
        n = self.positions
        out: dict[int, list[int]] = {r * n + p: [] for r in (INNER, MIDDLE, OUTER) for p in range(n)}
        for r1, p1, r2, p2 in self.lines():
            a, b = r1 * n + p1, r2 * n + p2
            if b not in out[a]:
                out[a].append(b)
            if a not in out[b]:
                out[b].append(a)
        return {k: tuple(sorted(v)) for k, v in out.items()}

    def families(self, ring: int) -> dict[str, tuple[tuple[int, int], ...]]:
        """Line family -> (ring position, middle position) pairs, for the lines joining ``ring`` to the Middle."""
        fam: dict[str, list[tuple[int, int]]] = {}
        for r1, p1, _r2, p2, f in self.cross_lines:
            if r1 == ring:
                fam.setdefault(f, []).append((p1, p2))
        return {f: tuple(v) for f, v in sorted(fam.items())}


def _part_index(name: Any) -> int:
    if name not in PART_NAMES:
        raise ValueError(f"layout: unknown part {name!r}")
    return PART_NAMES.index(name)


def load_layout(data: dict[str, Any]) -> Layout:
    """A :class:`Layout` from parsed layout data, checked for consistency (``ValueError`` otherwise)."""
    n = int(data["positions"])
    colours = tuple(str(c) for c in data["colours"])
    if list(data["parts"]) != list(PART_NAMES):
        raise ValueError(f"layout: parts must be {list(PART_NAMES)}")
    shift = tuple(float(data["angle_shift"][p]) for p in PART_NAMES)
    space_colours = tuple(tuple(int(c) for c in data["space_colours"][p]) for p in PART_NAMES)
    for part, row in zip(PART_NAMES, space_colours, strict=True):
        if len(row) != n or any(not 0 <= c < len(colours) for c in row):
            raise ValueError(f"layout: bad space colours for {part}")
    hub_lines = tuple((int(i), int(s)) for i, s in data["hub_lines"])
    ring_lines = []
    for a, p, b, q in data["ring_lines"]:
        ring_lines.append((_part_index(a), int(p), _part_index(b), int(q)))
    cross_lines: list[tuple[int, int, int, int, str]] = []
    for a, p, b, q, f in data["cross_lines"]:
        if b != "middle" or a not in ("inner", "outer"):
            raise ValueError("layout: cross lines join the Inner or Outer ring to the Middle")
        cross_lines.append((_part_index(a), int(p), MIDDLE, int(q), str(f)))
    for line in (*ring_lines, *((r1, p1, r2, p2) for r1, p1, r2, p2, _ in cross_lines)):
        if line[0] == CENTRE or line[2] == CENTRE or not (0 <= line[1] < n and 0 <= line[3] < n):
            raise ValueError(f"layout: bad line {line}")
    return Layout(str(data["name"]), n, colours, shift, space_colours, hub_lines, tuple(ring_lines),
                  tuple(cross_lines))


def _read_reference() -> Layout:
    path = Path(__file__).with_name("layout.json")
    return load_layout(json.loads(path.read_text(encoding="utf-8")))


LAYOUT = _read_reference()
N = LAYOUT.positions
COLOURS = LAYOUT.colours
COLOUR = LAYOUT.colour_table()
NEIGHBOURS = LAYOUT.neighbours()
HUB_GATE = dict(LAYOUT.hub_lines)
"""Inner position -> the Centre sector position that opens the way to the hub."""
HUB_EXITS = tuple(sorted(HUB_GATE))
FAMILIES = {INNER: LAYOUT.families(INNER), OUTER: LAYOUT.families(OUTER)}
DIE_FACES = (1, 2, 3, 4, 5, 6)

ENCODER_CHANNELS = tuple(f"enc:{name}" for name in PART_NAMES)
"""The channel of each part's ring encoder, by part."""
SPACE_CHANNELS = {r * N + p: f"pos:{PART_NAMES[r]}:{p}" for r in RINGS for p in range(N)}
"""Location code -> the presence channel of that ring space (the hub's channel is ``hub``, a count)."""


def player_name(player: int) -> str:
    """Each player is a colour: his pawn's, and the spaces he must visit on the Outer ring."""
    return COLOURS[player]


def location_text(loc: int) -> str:
    if loc == HUB:
        return "hub"
    return f"{RING_LETTERS[loc // N]}{loc % N}"


def parse_location(text: str) -> int | None:
    """The location code a text such as ``hub``, ``i3``, ``m11`` names, else None."""
    if text == "hub":
        return HUB
    if len(text) < 2 or text[0] not in "imo" or not text[1:].isdigit() or (len(text) > 2 and text[1] == "0"):
        return None
    p = int(text[1:])
    if p >= N:
        return None
    return "_imo".index(text[0]) * N + p


def meets_middle(offsets: tuple[int, ...], ring: int) -> tuple[str, ...]:
    """The line families by which ``ring`` (Inner or Outer) meets the Middle: every line of the
    family joins two spaces of the same colour."""
    rc, mc = COLOUR[ring][offsets[ring]], COLOUR[MIDDLE][offsets[MIDDLE]]
    return tuple(f for f, pairs in FAMILIES[ring].items() if all(rc[p] == mc[q] for p, q in pairs))


def centre_meets_inner(offsets: tuple[int, ...]) -> bool:
    """Every Centre sector shows the colour of the Inner space it opens onto."""
    cc, ic = COLOUR[CENTRE][offsets[CENTRE]], COLOUR[INNER][offsets[INNER]]
    return all(cc[s] == ic[p] for p, s in LAYOUT.hub_lines)


def reachable(offsets: tuple[int, ...], loc: int, colour: int, dead: set[int]) -> list[int]:
    """Where a pawn at ``loc`` may go on ``colour``, ``dead`` spaces excluded: from the hub to an
    Inner space of that colour; from an Inner space whose Centre sector shows it, only to the hub;
    else along a black line to a space of that colour."""
    if loc == HUB:
        table = COLOUR[INNER][offsets[INNER]]
        return [INNER * N + p for p in HUB_EXITS if table[p] == colour and INNER * N + p not in dead]
    if loc // N == INNER:
        gate = HUB_GATE.get(loc % N)
        if gate is not None and COLOUR[CENTRE][offsets[CENTRE]][gate] == colour:
            return [HUB]
    colour_table = COLOUR
    return [d for d in NEIGHBOURS[loc] if d not in dead and colour_table[d // N][offsets[d // N]][d % N] == colour]


def rotate_location(loc: int, part: int, spaces: int) -> int:
    """Where the thing at ``loc`` stands after ``part`` turns left ``spaces`` (it turns with its part)."""
    if loc != HUB and loc // N == part:
        return part * N + (loc % N + spaces) % N
    return loc


def same_colours(offsets: tuple[int, ...], a: int, b: int) -> bool:
    return COLOUR[a][offsets[a]] == COLOUR[b][offsets[b]]


def is_aligned(offsets: tuple[int, ...]) -> bool:
    """Centre, Inner and Outer show the same colour at every position (each colour on one diameter)."""
    return same_colours(offsets, CENTRE, INNER) and same_colours(offsets, OUTER, INNER)


def condition_holds(offsets: tuple[int, ...], part: int, outer_line: str) -> bool:
    """The sync clock's stopping condition for the active ``part``.

    Centre: it meets the Inner ring directly. Inner: it meets the Middle by one of the two lines.
    Outer, ``outer_line == "either"`` (the literal reading): it meets the Middle by one of the two
    lines. Outer, ``"same"`` (the default): it shows the Inner ring's colour at every position, which
    is meeting the Middle by the same line as the Inner ring does whenever the Inner meets it.
    """
    if part == CENTRE:
        return centre_meets_inner(offsets)
    if part == INNER:
        return bool(meets_middle(offsets, INNER))
    if outer_line == "either":
        return bool(meets_middle(offsets, OUTER))
    return same_colours(offsets, OUTER, INNER)


PHASE = {
    "setup-centre": Phrase("scriptorium.phase.setup_centre", "setup-centre"),
    "setup-inner": Phrase("scriptorium.phase.setup_inner", "setup-inner"),
    "setup-middle": Phrase("scriptorium.phase.setup_middle", "setup-middle"),
    "setup-outer": Phrase("scriptorium.phase.setup_outer", "setup-outer"),
    "setup": Phrase("scriptorium.phase.setup", "setup"),  # the four, as the public view shows them
    "first": Phrase("scriptorium.phase.first", "first"), "roll": Phrase("scriptorium.phase.roll", "roll"),
    "move": Phrase("scriptorium.phase.move", "move"), "number": Phrase("scriptorium.phase.number", "number"),
    "rotate": Phrase("scriptorium.phase.rotate", "rotate"), "clock": Phrase("scriptorium.phase.clock", "clock"),
    "over": Phrase("scriptorium.phase.over", "over"),
}
"""Each phase (and the public view's ``setup``), as the pictures name it."""
TURN_NOTE = Phrase("scriptorium.note.turn", "Turn the {part} {direction} by {spaces} ({why})")
