"""The Jeocinco board: a Cairo pentagonal tiling on a 5x5 grid of hexagons.

Integer model (DESIGN.md section 6): hexagon (c, r), c = letter index (A..E = 0..4), r = number
index (1..5 = 0..4), centre X = 8c + 4(r mod 2), Y = 4r; vertices h± = (X±1, Y), n = (X, Y+3),
s = (X, Y-3), e± = (X+4, Y±1), w± = (X-4, Y±1), ne/nw/se/sw = (X±2, Y±2). Each hexagon holds four
pentagons, one per orientation, and the orientation is the colour:

    N = [h-, h+, ne, n, nw]   E = [h+, se, e-, e+, ne]   S = [h-, h+, se, s, sw]   W = [h-, nw, w+, w-, sw]

A *slot* is a pentagon edge (283 of them: 217 shared by two pentagons of different colours, 66 on
the border). Two slots are adjacent when they share an end point. A *bridge* joins two slots that
are parallel and facing (their projections overlap by at least half a slot) and passes over exactly
one slot between them; the pairs are derived from the geometry here, never listed by hand.

Everything is computed once at import into tuples and int bitmasks (bit i = slot i); the bridge
geometry, the slow part, comes from a generated data file (``bridges.json``) that a test keeps equal
to the derivation here.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.games.base import ColourName, Message, Param, Phrase

Point = tuple[int, int]
FPoint = tuple[float, float]
Vec = tuple[float, float]
Named = tuple[str, tuple[Point, ...], tuple[int, ...]]
"""(slot name, its two end points, the one or two pentagons it is a side of)."""
Found = tuple[int, int, int, FPoint, FPoint]
"""A bridgeable pair: (slot a, slot b, the crossed slot, end point on a, end point on b)."""

LETTERS = "ABCDE"
COLOURS = "NESW"
COLOUR_NAMES: tuple[ColourName, ...] = ("yellow", "green", "blue", "red")
"""The colour of each orientation's pentagons and pieces (N yellow, E green, S blue, W red): a
player's colour is the orientation he chose."""

_DIRS = ("e", "ne", "n", "nw", "w", "sw", "s", "se")


def hex_name(h: int) -> str:
    return f"{LETTERS[h // 5]}{h % 5 + 1}"


def _build() -> tuple[list[Point], list[list[Point]], list[str], list[FPoint], list[Named]]:
    hexes = [(c, r) for c in range(5) for r in range(5)]  # index h = 5c + r
    pent_vertices: list[list[tuple[int, int]]] = []
    for c, r in hexes:
        x, y = 8 * c + 4 * (r % 2), 4 * r
        hm, hp, n, s = (x - 1, y), (x + 1, y), (x, y + 3), (x, y - 3)
        em, ep, wm, wp = (x + 4, y - 1), (x + 4, y + 1), (x - 4, y - 1), (x - 4, y + 1)
        ne, nw, se, sw = (x + 2, y + 2), (x - 2, y + 2), (x + 2, y - 2), (x - 2, y - 2)
        shapes = {"N": [hm, hp, ne, n, nw], "E": [hp, se, em, ep, ne],
                  "S": [hm, hp, se, s, sw], "W": [hm, nw, wp, wm, sw]}
        for o in COLOURS:
            pent_vertices.append(shapes[o])
    pent_names = [f"{hex_name(p // 4)}{COLOURS[p % 4]}" for p in range(100)]
    centroids = [(sum(v[0] for v in vs) / 5, sum(v[1] for v in vs) / 5) for vs in pent_vertices]

    edge_pents: dict[frozenset[Point], list[int]] = {}
    for p, vs in enumerate(pent_vertices):
        for i in range(5):
            edge_pents.setdefault(frozenset((vs[i], vs[(i + 1) % 5])), []).append(p)

    def slot_name(edge: frozenset[Point], pents: list[int]) -> str:
        if len(pents) == 2:
            a, b = sorted(pents)
            return f"{pent_names[a]}-{pent_names[b]}"
        (p,) = pents
        (ax, ay), (bx, by) = sorted(edge)
        cx, cy = centroids[p]
        ang = math.degrees(math.atan2((ay + by) / 2 - cy, (ax + bx) / 2 - cx)) % 360
        return f"{pent_names[p]}-{_DIRS[round(ang / 45) % 8]}"

    named = sorted(((slot_name(e, ps), tuple(sorted(e)), tuple(sorted(ps))) for e, ps in edge_pents.items()),
                   key=lambda t: (t[2][0], t[0]))
    return hexes, pent_vertices, pent_names, centroids, named


HEXES, PENT_VERTICES, PENT_NAMES, PENT_CENTRES, _NAMED = _build()
NUM_PENTS = 100
NUM_SLOTS = len(_NAMED)
SLOT_NAMES: tuple[str, ...] = tuple(n for n, _, _ in _NAMED)
SLOT_ENDS: tuple[tuple[Point, Point], ...] = tuple((e[0], e[1]) for _, e, _ in _NAMED)
SLOT_PENTS: tuple[tuple[int, ...], ...] = tuple(p for _, _, p in _NAMED)
SLOT_INDEX: dict[str, int] = {n: i for i, n in enumerate(SLOT_NAMES)}
PENT_INDEX: dict[str, int] = {n: i for i, n in enumerate(PENT_NAMES)}
ALL = (1 << NUM_SLOTS) - 1

PENT_COLOUR: tuple[int, ...] = tuple(p % 4 for p in range(NUM_PENTS))
PENT_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(NUM_SLOTS) if p in SLOT_PENTS[s]) for p in range(NUM_PENTS))
PENT_MASK: tuple[int, ...] = tuple(sum(1 << s for s in PENT_SLOTS[p]) for p in range(NUM_PENTS))
HEX_MASK: tuple[int, ...] = tuple(PENT_MASK[4 * h] | PENT_MASK[4 * h + 1] | PENT_MASK[4 * h + 2]
                                  | PENT_MASK[4 * h + 3] for h in range(25))
COLOUR_MASK: tuple[int, ...] = tuple(
    sum(PENT_MASK[p] for p in range(NUM_PENTS) if PENT_COLOUR[p] == c) for c in range(4))
"""Per colour: every slot that is a side of a pentagon of that colour (overlaps summed once each:
a slot is never a side of two pentagons of the same colour)."""

_at_point: dict[tuple[int, int], list[int]] = {}
for _s, (_a, _b) in enumerate(SLOT_ENDS):
    _at_point.setdefault(_a, []).append(_s)
    _at_point.setdefault(_b, []).append(_s)
SLOT_ADJ: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({t for pt in SLOT_ENDS[s] for t in _at_point[pt] if t != s})) for s in range(NUM_SLOTS))
ADJ_MASK: tuple[int, ...] = tuple(sum(1 << t for t in SLOT_ADJ[s]) for s in range(NUM_SLOTS))


def bits(mask: int) -> Iterator[int]:
    """The slot indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def adjacent(mask: int) -> int:
    """Every slot sharing an end point with a slot of ``mask``."""
    out = 0
    while mask:  # bits() written out: this runs for every player's pieces in every legal list
        low = mask & -mask
        out |= ADJ_MASK[low.bit_length() - 1]
        mask ^= low
    return out


# --- bridges -------------------------------------------------------------------------------------

def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1])


def _cross(a: Vec, b: Vec) -> float:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1]


def segments_meet(p1: Vec, p2: Vec, q1: Vec, q2: Vec, eps: float = 1e-9) -> bool:
    """Whether segments p1p2 and q1q2 cross or touch."""
    d1, d2 = _cross(_sub(p2, p1), _sub(q1, p1)), _cross(_sub(p2, p1), _sub(q2, p1))
    d3, d4 = _cross(_sub(q2, q1), _sub(p1, q1)), _cross(_sub(q2, q1), _sub(p2, q1))
    if ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and \
            ((d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)):
        return True

    def on(p: Vec, q: Vec, r: Vec) -> bool:
        return (abs(_cross(_sub(q, p), _sub(r, p))) < eps
                and min(p[0], q[0]) - eps <= r[0] <= max(p[0], q[0]) + eps
                and min(p[1], q[1]) - eps <= r[1] <= max(p[1], q[1]) + eps)

    return on(q1, q2, p1) or on(q1, q2, p2) or on(p1, p2, q1) or on(p1, p2, q2)


PARALLEL_DEGREES = 5.0
"""Two slots are parallel when their directions differ by less than this."""
MIN_OVERLAP = 0.5
"""Facing: the slots' projections on their common direction overlap by at least this fraction of
the shorter slot."""


def find_bridges(min_overlap: float = MIN_OVERLAP) -> list[Found]:
    """Bridgeable slot pairs from the geometry: (a, b, crossed slot, end point on a, end point on b).

    Parallel (within ``PARALLEL_DEGREES``), no common end point, facing (projections overlapping by
    at least ``min_overlap`` of the shorter slot, and by more than nothing), and the bridge (the
    segment perpendicular to both through the middle of the overlap) crossing exactly one slot.
    """
    found: list[Found] = []
    for i, j in itertools.combinations(range(NUM_SLOTS), 2):
        a, b = SLOT_ENDS[i], SLOT_ENDS[j]
        if set(a) & set(b):
            continue
        da, db = _sub(a[1], a[0]), _sub(b[1], b[0])
        la, lb = math.hypot(*da), math.hypot(*db)
        if abs(_cross(da, db)) / (la * lb) > math.sin(math.radians(PARALLEL_DEGREES)):
            continue
        u = (da[0] / la, da[1] / la)
        pa = sorted((_dot(a[0], u), _dot(a[1], u)))
        pb = sorted((_dot(b[0], u), _dot(b[1], u)))
        lo, hi = max(pa[0], pb[0]), min(pa[1], pb[1])
        if hi - lo <= 1e-9 or hi - lo < min_overlap * min(la, lb) - 1e-9:
            continue
        m = (lo + hi) / 2

        def point(seg: tuple[Point, Point], m: float = m, u: Vec = u) -> FPoint:
            d = _sub(seg[1], seg[0])
            t = (m - _dot(seg[0], u)) / _dot(d, u)
            return (seg[0][0] + d[0] * t, seg[0][1] + d[1] * t)

        pa_pt, pb_pt = point(a), point(b)
        crossed = [k for k in range(NUM_SLOTS)
                   if k not in (i, j) and segments_meet(pa_pt, pb_pt, *SLOT_ENDS[k])]
        if len(crossed) == 1:
            found.append((i, j, crossed[0], pa_pt, pb_pt))
    return found


BRIDGE_DATA_FILE = Path(__file__).with_name("bridges.json")
"""The bridge geometry as derived by :func:`derive_bridge_data`, generated once and shipped with the
package, because deriving it takes about 0.6 s here and several seconds on a Pi Zero 2 W. A test
checks that it equals a fresh derivation; regenerate it with ``python scripts/jeocinco_bridges.py``."""


def derive_bridge_data() -> dict[str, Any]:
    """Every bridgeable pair (``find_bridges`` with no overlap bound) and, per bridge, the bridges
    whose sticks would cross or touch it, in the form of ``BRIDGE_DATA_FILE``."""
    found = find_bridges(min_overlap=0.0)
    points = [(pa, pb) for *_, pa, pb in found]
    return {
        "about": "generated by python scripts/jeocinco_bridges.py; do not edit",
        "slots": list(SLOT_NAMES),
        "parallel_degrees": PARALLEL_DEGREES,
        "bridges": [[a, b, c, list(pa), list(pb)] for a, b, c, pa, pb in found],
        "conflicts": [[m for m in range(len(found)) if m != k and segments_meet(*points[k], *points[m])]
                      for k in range(len(found))],
    }


def bridge_data_text() -> str:
    """The text ``BRIDGE_DATA_FILE`` must hold: the derivation, as compact JSON."""
    return json.dumps(derive_bridge_data(), separators=(",", ":")) + "\n"


def _bridge_data() -> dict[str, Any]:
    """The shipped bridge data, or a fresh derivation when the file is missing or was made for
    another board (the tests catch a stale file; the game still starts, only slower)."""
    try:
        data = json.loads(BRIDGE_DATA_FILE.read_text(encoding="utf-8"))
        if (isinstance(data, dict) and data["slots"] == list(SLOT_NAMES)
                and data["parallel_degrees"] == PARALLEL_DEGREES):
            return data
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return derive_bridge_data()


_DATA = _bridge_data()
_BR: list[Found] = [(a, b, c, (float(pa[0]), float(pa[1])), (float(pb[0]), float(pb[1])))
                    for a, b, c, pa, pb in _DATA["bridges"]]
NUM_BRIDGES = len(_BR)
BRIDGE_SLOTS: tuple[tuple[int, int], ...] = tuple((a, b) for a, b, _, _, _ in _BR)
BRIDGE_CROSSED: tuple[int, ...] = tuple(c for _, _, c, _, _ in _BR)
BRIDGE_POINTS: tuple[tuple[FPoint, FPoint], ...] = tuple((pa, pb) for *_, pa, pb in _BR)
BRIDGE_NAMES: tuple[str, ...] = tuple(f"{SLOT_NAMES[a]}~{SLOT_NAMES[b]}" for a, b in BRIDGE_SLOTS)
BRIDGE_INDEX: dict[frozenset[int], int] = {frozenset(ab): k for k, ab in enumerate(BRIDGE_SLOTS)}


WILDCARD = Phrase("jeocinco.say.wild", "the wildcard")
PLUS_ONE = Phrase("jeocinco.say.plus", "plus one")
ROLLED = Phrase("jeocinco.say.rolled", "{number} and {letter}")
"""The dice as they lie (a note beside the picture: "Roll: 3 and plus one")."""


def number_said(value: int) -> Param:
    """The number die's face in words: a digit, or the wildcard."""
    return WILDCARD() if value == WILD else str(value)


def letter_said(value: int) -> Param:
    """The letter die's face in words: a letter, or plus one."""
    return PLUS_ONE() if value == PLUS else LETTERS[value]


def rolled(roll: str) -> Message:
    """The dice as a view writes them (``3+``, ``*B``), in words: "3 and plus one"."""
    return ROLLED(number=number_said(WILD if roll[0] == "*" else int(roll[0])),
                  letter=letter_said(PLUS if roll[1] == "+" else LETTERS.index(roll[1])))


def bridge_ends(k: int) -> dict[str, str]:
    """The slots bridge ``k`` joins, as a message's params ``a`` and ``b`` ("the bridge from A1N to
    B2E"): said in words, never with the notation's ``~``."""
    a, b = BRIDGE_SLOTS[k]
    return {"a": SLOT_NAMES[a], "b": SLOT_NAMES[b]}


def _family(k: int) -> str:
    crossed = SLOT_PENTS[BRIDGE_CROSSED[k]]
    kinds = "".join(sorted(COLOURS[PENT_COLOUR[p]] for p in crossed))
    return {"NS": "base", "EW": "waist"}.get(kinds, "diagonal")


BRIDGE_FAMILY: tuple[str, ...] = tuple(_family(k) for k in range(NUM_BRIDGES))
"""``base``: across the horizontal N|S slot inside a hexagon (2 per hexagon, 50);
``waist``: across the vertical E|W slot between two horizontal neighbours (2 per pair, 40);
``diagonal``: across one of the slanted slots (N|E, E|S, S|W, N|W), the supports facing over a
fifth of their length (172). Base and waist supports face over four fifths of their length. All
three bridges have the same length (one stick fits every form)."""
DIAGONAL_BRIDGES: int = sum(1 << k for k in range(NUM_BRIDGES) if BRIDGE_FAMILY[k] == "diagonal")

BRIDGE_CONFLICT: tuple[int, ...] = tuple(sum(1 << m for m in ms) for ms in _DATA["conflicts"])
"""Per bridge, a bitmask of the bridges whose sticks would cross or touch it."""

BRIDGES_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NUM_BRIDGES) if s in BRIDGE_SLOTS[k]) for s in range(NUM_SLOTS))

WILD = 6
"""Number die: 1..5, 6 = the Jeocinco logo (wildcard; counts as 6 in a roll-off)."""
PLUS = 5
"""Letter die: 0..4 = A..E, 5 = "+1" (wildcard letter and one extra piece)."""

BOUNDS = (-4.0, -3.0, 40.0, 19.0)
"""min x, min y, max x, max y of the drawing (integer model units)."""


def hexes_for_roll(number: int, letter: int) -> tuple[int, ...]:
    """The hexagons a roll reaches: number 1..5 or 6 (wildcard), letter 0..4 or 5 (wildcard, "+1")."""
    cs = range(5) if letter == PLUS else (letter,)
    rs = range(5) if number == WILD else (number - 1,)
    return tuple(5 * c + r for c in cs for r in rs)


PHASE = {
    "opening": Phrase("jeocinco.phase.opening", "opening"), "colour": Phrase("jeocinco.phase.colour", "colour"),
    "roll": Phrase("jeocinco.phase.roll", "roll"), "place": Phrase("jeocinco.phase.place", "place"),
    "tower": Phrase("jeocinco.phase.tower", "tower"), "challenge": Phrase("jeocinco.phase.challenge", "challenge"),
    "defence": Phrase("jeocinco.phase.defence", "defence"), "over": Phrase("jeocinco.phase.over", "over"),
}
"""Each phase, as the pictures and the refusals name it."""
