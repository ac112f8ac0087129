"""Contigo's board: 6x6 squares inside a ring of 28 pits.

Squares are named like chess squares: files ``a``-``f`` from west to east, ranks ``1``-``6`` from
south to north; square index ``s = rank * 6 + file`` (both 0-based).

Pits are named by the side they lie on and the file or rank they close: ``n-a`` .. ``n-f`` north of
each file, ``s-a`` .. ``s-f`` south of each file, ``e-1`` .. ``e-6`` east of each rank, ``w-1`` ..
``w-6`` west of each rank, and the corners ``nw``, ``ne``, ``se``, ``sw``. Ring index 0..27 runs
clockwise (seen from above, north up) from the north-west corner:

    nw n-a n-b n-c n-d n-e n-f ne e-6 e-5 e-4 e-3 e-2 e-1 se s-f s-e s-d s-c s-b s-a sw w-1 .. w-6
"""

from __future__ import annotations

FILES = "abcdef"
SIZE = 6
NSQ = SIZE * SIZE
NPITS = 28

# Directions: north, east, south, west.
N, E, S, W = range(4)
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIR_NAMES = ("north", "east", "south", "west")
PERPENDICULAR = ((E, W), (N, S), (E, W), (N, S))


def square_name(s: int) -> str:
    return f"{FILES[s % SIZE]}{s // SIZE + 1}"


SQUARE_NAMES = tuple(square_name(s) for s in range(NSQ))
SQUARE_INDEX = {name: s for s, name in enumerate(SQUARE_NAMES)}


def _pit_names() -> tuple[str, ...]:
    names = ["nw"]
    names += [f"n-{f}" for f in FILES]
    names.append("ne")
    names += [f"e-{r}" for r in range(SIZE, 0, -1)]
    names.append("se")
    names += [f"s-{f}" for f in reversed(FILES)]
    names.append("sw")
    names += [f"w-{r}" for r in range(1, SIZE + 1)]
    return tuple(names)


PIT_NAMES = _pit_names()
PIT_INDEX = {name: i for i, name in enumerate(PIT_NAMES)}
assert len(PIT_NAMES) == NPITS


def governing_pit(s: int, d: int) -> int:
    """The pit at the end of square ``s``'s row or column in direction ``d``."""
    f, r = s % SIZE, s // SIZE
    if d == N:
        return PIT_INDEX[f"n-{FILES[f]}"]
    if d == S:
        return PIT_INDEX[f"s-{FILES[f]}"]
    if d == E:
        return PIT_INDEX[f"e-{r + 1}"]
    return PIT_INDEX[f"w-{r + 1}"]


def _ray(s: int, d: int) -> tuple[int, ...]:
    f, r = s % SIZE, s // SIZE
    dx, dy = DIRS[d]
    out = []
    f, r = f + dx, r + dy
    while 0 <= f < SIZE and 0 <= r < SIZE:
        out.append(r * SIZE + f)
        f, r = f + dx, r + dy
    return tuple(out)


GOV = tuple(tuple(governing_pit(s, d) for d in range(4)) for s in range(NSQ))
"""GOV[s][d]: the pit governing moves from square s in direction d."""
RAY = tuple(tuple(_ray(s, d) for d in range(4)) for s in range(NSQ))
"""RAY[s][d]: the squares from s (excluded) to the board's edge in direction d."""


def direction_between(a: int, b: int) -> tuple[int, int] | None:
    """(direction, distance) when b lies straight north/east/south/west of a, else None."""
    for d in range(4):
        ray = RAY[a][d]
        if b in ray:
            return d, ray.index(b) + 1
    return None


def leg(a: int, b: int) -> tuple[int, int]:
    """(direction, distance) from a to b, which lie on one row or column (a leg of an L)."""
    db = direction_between(a, b)
    if db is None:
        raise ValueError(f"{square_name(b)} is not straight from {square_name(a)}")
    return db


def _lines() -> tuple[tuple[int, ...], ...]:
    rows = [tuple(r * SIZE + f for f in range(SIZE)) for r in range(SIZE)]
    cols = [tuple(r * SIZE + f for r in range(SIZE)) for f in range(SIZE)]
    diags = [tuple(i * SIZE + i for i in range(SIZE)), tuple(i * SIZE + (SIZE - 1 - i) for i in range(SIZE))]
    return tuple(rows + cols + diags)


LINES = _lines()
"""The 14 lines of six squares: 6 rows, 6 columns, the 2 long diagonals."""
ORTHO_LINES = LINES[:12]
LINES_THROUGH = tuple(tuple(line for line in LINES if s in line) for s in range(NSQ))
ORTHO_LINES_THROUGH = tuple(tuple(line for line in ORTHO_LINES if s in line) for s in range(NSQ))


def rotate(s: int) -> int:
    """Square s turned a quarter turn anticlockwise about the board's centre (south -> east)."""
    f, r = s % SIZE, s // SIZE
    # (x, y) -> (5 - y, x): the south edge goes to the east edge.
    return f * SIZE + (SIZE - 1 - r)


def ring_distance(src: int, dst: int, direction: int) -> int:
    """Steps from pit src to pit dst going clockwise (+1) or anticlockwise (-1), 0..27."""
    return ((dst - src) * direction) % NPITS
