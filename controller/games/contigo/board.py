"""Contigo's board and fixed tables: 6x6 squares inside a ring of 28 pits, the variant options,
the starting layouts and the sensor channels.

Squares are named like chess squares: files ``a``-``f`` from west to east, ranks ``1``-``6`` from
south to north; square index ``s = rank * 6 + file`` (both 0-based).

Pits are named by the side they lie on and the file or rank they close: ``n-a`` .. ``n-f`` north of
each file, ``s-a`` .. ``s-f`` south of each file, ``e-1`` .. ``e-6`` east of each rank, ``w-1`` ..
``w-6`` west of each rank, and the corners ``nw``, ``ne``, ``se``, ``sw``. Ring index 0..27 runs
clockwise (seen from above, north up) from the north-west corner:

    nw n-a n-b n-c n-d n-e n-f ne e-6 e-5 e-4 e-3 e-2 e-1 se s-f s-e s-d s-c s-b s-a sw w-1 .. w-6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller.games.base import ColourName, Message, Option, Phrase

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


# --------------------------------------------------------------------------- players, options, layouts
COLORS: tuple[ColourName, ...] = ("red", "blue", "green", "yellow")
"""Each seat's colour, which is also the player's name in texts ("start red", "result=blue")."""
LETTERS = "rbgy"
BEADS_PER_PIT = 2
TOTAL_BEADS = BEADS_PER_PIT * NPITS  # 56
CAPTURE_MEN = 12  # men per player in the capture game (one double = two of them stacked)
CAPTURE_WIN = 7  # men to capture to win

GAMES = ("alignment", "capture")
FORMS = ("straight", "L")
WINS = ("four", "five")
SPREADS = ("either_side", "one_way")
MAX_TURN_LIMIT = 10_000
MAX_SPREAD_LIMIT = 56
OPTIONS = (
    Option("game", "alignment", choices=GAMES, doc="the alignment game (2 or 4 players) or the capture game (2)"),
    Option("form", "straight", choices=FORMS, doc="straight moves, or the advanced form's L moves"),
    Option("win", "four", choices=WINS, doc="four on a line, or the 2-player variant's five in a row or column"),
    Option("turn_limit", 1000, minimum=1, maximum=MAX_TURN_LIMIT, doc="turns before the game ends in a draw"),
    Option("rounds", 0, minimum=0, maximum=MAX_TURN_LIMIT // 2,
           doc="the alignment game's sitting: 0 plays on; n ends it after n rounds, won by the longest line"),
    Option("spread_limit", 0, minimum=0, maximum=MAX_SPREAD_LIMIT,
           doc="0 is no limit; 1..56 makes larger pick-ups go all into one pit"),
    Option("spread", "either_side", choices=SPREADS,
           doc="capture game: each bead of a pick-up within range on either side of its pit, or all one way round"),
)


def single(p: int) -> int:
    """Piece code of player p's single pawn (sensor code): 1, 3, 5, 7."""
    return 1 + 2 * p


def double(p: int) -> int:
    """Piece code of player p's double (two men stacked): 2, 4, 6, 8."""
    return 2 + 2 * p


def validate(options: dict[str, Any], num_players: int) -> None:
    """Raise ValueError for a game, options and player count that do not go together (each value
    on its own is checked by :data:`OPTIONS` and the player range)."""
    game, win = options["game"], options["win"]
    if game == "alignment" and num_players not in (2, 4):
        raise ValueError(f"contigo: the alignment game is for 2 or 4 players, not {num_players}")
    if game == "capture" and num_players != 2:
        raise ValueError(f"contigo: the capture game is for 2 players, not {num_players}")
    if win == "five" and (game != "alignment" or num_players != 2):
        raise ValueError("contigo: the five-in-a-row variant (win=five) is a 2-player alignment game")
    if options["rounds"] and game != "alignment":
        raise ValueError("contigo: a sitting of so many rounds (rounds=n) is an alignment game")


def _squares(names: str) -> list[int]:
    return [SQUARE_INDEX[n] for n in names.split()]


# The published 2-player alignment layout: Red (1,1) (2,5) (3,3) (4,4) (5,2) (6,6), Blue mirrored.
ALIGN2_RED = _squares("a1 b5 c3 d4 e2 f6")
ALIGN2_BLUE = _squares("f1 e5 d3 c4 b2 a6")
# 4 players: Red's four squares, each turned a quarter turn per seat (south, east, north, west).
ALIGN4_RED = _squares("b1 e1 d2 c3")
# Capture game: Red fills rank 1 and a2-e2, the double on d1; Blue is Red turned half a turn.
CAPTURE_RED = _squares("a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2")
CAPTURE_RED_DOUBLE = SQUARE_INDEX["d1"]


def _turn(squares: list[int], quarters: int) -> list[int]:
    out = []
    for s in squares:
        for _ in range(quarters):
            s = rotate(s)
        out.append(s)
    return out


def initial_board(game: str, num_players: int) -> tuple[int, ...]:
    board = [0] * NSQ
    if game == "capture":
        for p in range(2):
            for s in _turn(CAPTURE_RED, 2 * p):
                board[s] = single(p)
            board[_turn([CAPTURE_RED_DOUBLE], 2 * p)[0]] = double(p)
    elif num_players == 2:
        for s in ALIGN2_RED:
            board[s] = single(0)
        for s in ALIGN2_BLUE:
            board[s] = single(1)
    else:
        for p in range(4):
            for s in _turn(ALIGN4_RED, p):
                board[s] = single(p)
    return tuple(board)


SQUARE_CHANNELS = tuple(f"sq:{name}" for name in SQUARE_NAMES)
PIT_CHANNELS = tuple(f"pit:{name}" for name in PIT_NAMES)
PIT_OF_CHANNEL = {channel: pit for pit, channel in enumerate(PIT_CHANNELS)}


def owner(code: int) -> int:
    """The player whose single or double a piece code is."""
    return (code - 1) >> 1


def has_line(board: Sequence[int], p: int, lines: Iterable[tuple[int, ...]], need: int) -> bool:
    """Whether player p's singles stand ``need`` in a row on one of ``lines``."""
    code = 1 + 2 * p
    for line in lines:
        count = 0
        for s in line:
            c = board[s]
            if not c:
                continue
            if c == code:
                count += 1
                if count >= need:
                    return True
            else:
                count = 0
    return False


def line_lengths(board: Sequence[int], p: int, lines: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    """p's lines, longest first: on each of ``lines`` the most of his pawns with no opposing pawn
    between them (the count the win needs four, or five, of)."""
    code = 1 + 2 * p
    found = []
    for line in lines:
        best = count = 0
        for s in line:
            c = board[s]
            if c == code:
                count += 1
                best = max(best, count)
            elif c:
                count = 0
        found.append(best)
    return tuple(sorted(found, reverse=True))


def sitting_winner(board: Sequence[int], n: int, lines: Iterable[tuple[int, ...]], last: int) -> int:
    """The sitting variant's winner at its last round, whose last turn was ``last``'s: the longest
    line, then the next longest, line by line; players whose lines are alike to the last go by turn
    order, the latest in the round first (he had the fewest turns to answer the others)."""
    every = tuple(lines)
    counts = [line_lengths(board, p, every) for p in range(n)]
    best = max(counts)
    return min((p for p in range(n) if counts[p] == best), key=lambda p: (last - p) % n)


TO_MOVE_PAWN = Phrase("contigo.text.to_move_pawn", "{player} to move a pawn")
TO_MOVE_BEADS = Phrase("contigo.text.to_move_beads", "{player} to move beads")
TEXT_CHANCE = Phrase("contigo.text.chance", "the hidden bead decides who starts")
TEXT_DRAW = Phrase("contigo.text.draw", "game over: draw")
TEXT_WINS = Phrase("contigo.text.wins", "game over: {player} wins")
TEXT_TURN = Phrase("contigo.text.turn", "turn {turn}/{limit}")


def to_move(player: int, phase: str) -> Message:
    """``red to move a pawn`` or ``red to move beads``: what the player on turn does now."""
    return (TO_MOVE_PAWN if phase == "move" else TO_MOVE_BEADS)(player=f"player {player}")
