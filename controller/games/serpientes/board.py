"""Serpientes board geometry: 13x13 intersections, 312 grid edges, directions, start points.

Intersections are numbered ``r * 13 + c`` (row ``r`` 0..12 from the north edge, column ``c`` 0..12
from the west edge). People name them with a column letter ``a``..``m`` and a row number
``1``..``13`` (row 1 is the north edge): ``g1`` is the middle of the north side.
A stick lies on the edge between two neighbouring intersections.
"""

from __future__ import annotations

from controller.games.base import Channel, ChannelKind, ColourName

SIZE = 13  # intersections per side (12x12 squares)
CENTRE = 6
COLUMNS = "abcdefghijklm"

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIR_NAMES = ("north", "east", "south", "west")
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def node(r: int, c: int) -> int:
    return r * SIZE + c


def rc(n: int) -> tuple[int, int]:
    return divmod(n, SIZE)


NODE_NAMES = tuple(f"{COLUMNS[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE))
"""Every intersection's name, by index: the views and texts name every snake's body after every move."""


def node_name(n: int) -> str:
    return NODE_NAMES[n]


NODE_BY_NAME = {name: i for i, name in enumerate(NODE_NAMES)}


def parse_node(text: str) -> int:
    """The intersection a name like ``d4`` names; ``KeyError`` for anything else."""
    return NODE_BY_NAME[text]


def step(n: int, d: int) -> int | None:
    """The intersection next to ``n`` in direction ``d``, or None off the board."""
    r, c = divmod(n, SIZE)
    row_step, column_step = DELTAS[d]
    r += row_step
    c += column_step
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return r * SIZE + c
    return None


# NEIGHBOUR[n][d]: precomputed ``step`` (None off the board).
NEIGHBOUR = tuple(tuple(step(n, d) for d in range(4)) for n in range(SIZE * SIZE))


def direction(a: int, b: int) -> int:
    """The direction from intersection ``a`` to its neighbour ``b``."""
    diff = b - a
    if diff == -SIZE:
        return NORTH
    if diff == SIZE:
        return SOUTH
    if diff == 1:
        return EAST
    if diff == -1:
        return WEST
    raise ValueError("not neighbours")


def adjacent(a: int, b: int) -> bool:
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    return abs(ra - rb) + abs(ca - cb) == 1


def edge_key(a: int, b: int) -> int:
    """A number for the edge between neighbours ``a`` and ``b`` (order does not matter)."""
    return a * 200 + b if a < b else b * 200 + a


def edge_channel(a: int, b: int) -> str:
    """The sensor channel of the edge: ``edge:h:r:c`` joins (r,c)-(r,c+1), ``edge:v:r:c`` joins
    (r,c)-(r+1,c)."""
    lo, hi = (a, b) if a < b else (b, a)
    r, c = divmod(lo, SIZE)
    return f"edge:h:{r}:{c}" if hi - lo == 1 else f"edge:v:{r}:{c}"


def node_channel(n: int) -> str:
    r, c = divmod(n, SIZE)
    return f"pt:{r}:{c}"


EDGE_CHANNELS = tuple(
    [f"edge:h:{r}:{c}" for r in range(SIZE) for c in range(SIZE - 1)]
    + [f"edge:v:{r}:{c}" for r in range(SIZE - 1) for c in range(SIZE)]
)
NODE_CHANNELS = tuple(node_channel(n) for n in range(SIZE * SIZE))


def on_border(n: int) -> bool:
    r, c = divmod(n, SIZE)
    return r in (0, SIZE - 1) or c in (0, SIZE - 1)


# Where tokens may go: not on the border, not on the central row or column (sticks are checked
# separately, as they move).
TOKEN_SPOTS = tuple(
    node(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1) if r != CENTRE and c != CENTRE
)
TOKEN_SPOT_SET = frozenset(TOKEN_SPOTS)

# Start sticks: (border intersection, inward direction) per seat, by number of players.
# Up to four players: the middle of a side (north, east, south, west, in seat order; two players
# face each other north and south). Five and six: spread evenly around the 48-edge border,
# starting at the middle of the north side (perimeter steps of 9.6 rounded, and of 8).
NORTH_START = (node(0, CENTRE), SOUTH)
EAST_START = (node(CENTRE, SIZE - 1), WEST)
SOUTH_START = (node(SIZE - 1, CENTRE), NORTH)
WEST_START = (node(CENTRE, 0), EAST)
STARTS = {
    2: (NORTH_START, SOUTH_START),
    3: (NORTH_START, EAST_START, SOUTH_START),
    4: (NORTH_START, EAST_START, SOUTH_START, WEST_START),
    5: (NORTH_START, (node(4, 12), WEST), (node(12, 11), NORTH), (node(12, 1), NORTH), (node(4, 0), EAST)),
    6: (NORTH_START, (node(2, 12), WEST), (node(10, 12), WEST), SOUTH_START, (node(10, 0), EAST),
        (node(2, 0), EAST)),
}


def start_snake(num_players: int, seat: int) -> tuple[int, int]:
    """The start stick of ``seat``: (tail on the border, head one step inwards)."""
    tail, d = STARTS[num_players][seat]
    head = NEIGHBOUR[tail][d]
    assert head is not None
    return (tail, head)


def player_name(p: int) -> str:
    """How texts name a seat."""
    return f"player {p}"


# Channels: every grid edge, then every intersection (a token on it); all presence sensors.
CHANNELS = tuple(Channel(name, ChannelKind.PRESENCE) for name in EDGE_CHANNELS + NODE_CHANNELS)
EMPTY_VIEW = dict.fromkeys(EDGE_CHANNELS + NODE_CHANNELS, 0)
EDGE_CHANNEL_BY_KEY = {edge_key(a, b): edge_channel(a, b)
                       for a in range(SIZE * SIZE) for b in (NEIGHBOUR[a][EAST], NEIGHBOUR[a][SOUTH]) if b is not None}
"""``edge_channel`` by ``edge_key``: the physical view's fast path."""

# Cards, players and supplies.
HAND_SIZE = 5
START_SUPPLY = 4
SNAKE_COLOURS: tuple[ColourName, ...] = ("red", "blue", "green", "orange", "violet", "brown")
"""Each seat's sticks."""
RELATIVE_KINDS = ("straight", "left", "right")
RELATIVE_LETTERS = "SLR"
RELATIVE_PER_PLAYER = (6, 3, 3)
ABSOLUTE_KINDS = ("north", "east", "south", "west")
ABSOLUTE_LETTERS = "NESW"
ABSOLUTE_PER_PLAYER = (3, 3, 3, 3)
