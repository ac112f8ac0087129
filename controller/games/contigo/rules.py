"""Contigo's variant options, starting layouts and precomputed bead-move tables."""

from __future__ import annotations

from functools import cache
from typing import Any

from controller.games.contigo.geometry import NPITS, NSQ, SQUARE_INDEX, rotate

COLORS = ("red", "blue", "green", "yellow")
LETTERS = "rbgy"
BEADS_PER_PIT = 2
TOTAL_BEADS = BEADS_PER_PIT * NPITS  # 56
CAPTURE_MEN = 12  # men per player in the capture game (one double = two of them stacked)
CAPTURE_WIN = 7  # men to capture to win

DEFAULTS: dict[str, Any] = {
    "game": "alignment",
    "form": "straight",
    "win": "four",
    "turn_limit": 200,
    "spread_limit": 0,
}
GAMES = ("alignment", "capture")
FORMS = ("straight", "L")
WINS = ("four", "five")
MAX_TURN_LIMIT = 10_000
MAX_SPREAD_LIMIT = 56
"""``spread_limit`` 0 (the default) is no limit; 1..56 makes larger pick-ups go all into one pit."""


def single(p: int) -> int:
    """Piece code of player p's single pawn (sensor code): 1, 3, 5, 7."""
    return 1 + 2 * p


def double(p: int) -> int:
    """Piece code of player p's double (two men stacked): 2, 4, 6, 8."""
    return 2 + 2 * p


def validate(options: dict[str, Any], num_players: int) -> None:
    """Raise ValueError with a clear message for any bad option value or player count."""
    game, form, win = options["game"], options["form"], options["win"]
    if game not in GAMES:
        raise ValueError(f"contigo: option game must be one of {GAMES}, not {game!r}")
    if form not in FORMS:
        raise ValueError(f"contigo: option form must be one of {FORMS}, not {form!r}")
    if win not in WINS:
        raise ValueError(f"contigo: option win must be one of {WINS}, not {win!r}")
    for key, bottom, top in (("turn_limit", 1, MAX_TURN_LIMIT), ("spread_limit", 0, MAX_SPREAD_LIMIT)):
        value = options[key]
        if not isinstance(value, int) or isinstance(value, bool) or not bottom <= value <= top:
            raise ValueError(f"contigo: option {key} must be a whole number from {bottom} to {top}, not {value!r}")
    if not isinstance(num_players, int) or isinstance(num_players, bool):
        raise ValueError(f"contigo: number of players must be a whole number, not {num_players!r}")
    if game == "alignment" and num_players not in (2, 4):
        raise ValueError(f"contigo: the alignment game is for 2 or 4 players, not {num_players}")
    if game == "capture" and num_players != 2:
        raise ValueError(f"contigo: the capture game is for 2 players, not {num_players}")
    if win == "five" and (game != "alignment" or num_players != 2):
        raise ValueError("contigo: the five-in-a-row variant (win=five) is a 2-player alignment game")


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


@cache
def bead_tables() -> tuple[tuple[tuple, ...], tuple[tuple[int, ...], ...]]:
    """The alignment game's bead actions from each pit, ordered by beads taken, and prefix lengths.

    Returns (ACTIONS, END): ACTIONS[src] lists the bead actions taking k = 1, 2, ... beads from
    src; END[src][c] is how many of them take at most c beads, so the bead moves of a pit holding
    c beads are ``ACTIONS[src][:END[src][c]]``.

    A bead action is ``("b", src, ((dst, k),))``: all k beads into the pit exactly k steps away,
    either way round the ring (one action when both ways reach the same pit). The capture game's
    bead move is several actions (take, then drop pit by pit), listed by the state.
    """
    actions_all, ends_all = [], []
    for src in range(NPITS):
        actions: list[tuple] = []
        seen: set[tuple] = set()
        ends = [0]
        for k in range(1, TOTAL_BEADS + 1):
            for dst in ((src + k) % NPITS, (src - k) % NPITS):
                action = ("b", src, ((dst, k),))
                if dst != src and action not in seen:
                    seen.add(action)
                    actions.append(action)
            ends.append(len(actions))
        actions_all.append(tuple(actions))
        ends_all.append(tuple(ends))
    return tuple(actions_all), tuple(ends_all)
