"""Contigo's variant options, starting layouts and precomputed bead-move tables."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from controller.games.base import ColourName, Option, Phrase
from controller.games.contigo.geometry import NPITS, NSQ, SQUARE_INDEX, rotate

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
    Option("turn_limit", 200, minimum=1, maximum=MAX_TURN_LIMIT, doc="turns before the game ends in a draw"),
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


Drops = tuple[tuple[int, int], ...]
"""(pit, beads) per pit a bead move drops into, pits in ring order."""
StartAction = tuple[Literal["start"], int]
"""Chance: who starts (the hidden bead)."""
MoveAction = tuple[Literal["m"], int, int]
"""A pawn move: from square, to square (a capture when an enemy is there)."""
PassAction = tuple[Literal["p"], int, int]
"""Capture game: the double on the first square hands its second man to the single on the second."""
BeadAction = tuple[Literal["b"], int, Drops]
"""A bead move in one action: from pit, drops (the alignment game's k beads go into one pit)."""
TakeAction = tuple[Literal["t"], int, int]
"""Capture game: pick up that many beads from a pit."""
DropAction = tuple[Literal["d"], int, int]
"""Capture game: drop that many of the beads in the hand into a pit."""
ContigoAction = StartAction | MoveAction | PassAction | BeadAction | TakeAction | DropAction


@cache
def bead_tables() -> tuple[tuple[tuple[BeadAction, ...], ...], tuple[tuple[int, ...], ...]]:
    """The alignment game's bead actions from each pit, ordered by beads taken, and prefix lengths.

    Returns (ACTIONS, END): ACTIONS[src] lists the bead actions taking k = 1, 2, ... beads from
    src; END[src][c] is how many of them take at most c beads, so the bead moves of a pit holding
    c beads are ``ACTIONS[src][:END[src][c]]``.

    A bead action is ``("b", src, ((dst, k),))``: all k beads into the pit exactly k steps away,
    either way round the ring (one action when both ways reach the same pit). The capture game's
    bead move is several actions (take, then drop pit by pit), listed by the state.
    """
    actions_all: list[tuple[BeadAction, ...]] = []
    ends_all: list[tuple[int, ...]] = []
    for src in range(NPITS):
        actions: list[BeadAction] = []
        seen: set[BeadAction] = set()
        ends = [0]
        for k in range(1, TOTAL_BEADS + 1):
            for dst in ((src + k) % NPITS, (src - k) % NPITS):
                action: BeadAction = ("b", src, ((dst, k),))
                if dst != src and action not in seen:
                    seen.add(action)
                    actions.append(action)
            ends.append(len(actions))
        actions_all.append(tuple(actions))
        ends_all.append(tuple(ends))
    return tuple(actions_all), tuple(ends_all)


# --------------------------------------------------------------------------- what the referee says
# Every refusal and announcement, declared once; params are in Contigo's notation (squares ``c3``,
# pits ``n-a``, players by colour).
NOT_AN_ACTION = Phrase("contigo.not_an_action", "not a Contigo action")
NOT_A_STRING = Phrase("contigo.not_a_string", "an action text must be a string")
NO_SUCH_ACTION = Phrase("contigo.no_such_action", "names no Contigo action (try c3-c5, c3xc5, pass d1-d4,"
                                                  " beads n-a>n-c 2, take n-f 3, drop e-6 2 or start red)")
START_FIRST = Phrase("contigo.start_first", "first the hidden bead decides who starts (a chance outcome)")
STARTED = Phrase("contigo.started", "who starts was decided already")
PAWN_MOVED = Phrase("contigo.pawn_moved", "you have made your pawn move (or have none): now move beads")
NOT_A_PAWN_MOVE = Phrase("contigo.not_a_pawn_move", "not a Contigo pawn move")
PAWN_FIRST = Phrase("contigo.pawn_first", "first move a pawn; the bead move ends the turn")
NOT_A_BEAD_MOVE = Phrase("contigo.not_a_bead_move", "not a Contigo bead move")
ONE_BEAD_ACTION = Phrase("contigo.one_bead_action",
                         "in the alignment game a bead move is one action: beads n-a>n-c 2")
NO_PAWN = Phrase("contigo.no_pawn", "there is no pawn on {square}")
NOT_YOURS = Phrase("contigo.not_yours", "the pawn on {square} is {owner}'s, not yours ({player})")
STAYS = Phrase("contigo.stays", "a move must leave its square")
OCCUPIED = Phrase("contigo.occupied", "{square} is occupied: in the alignment game pawns land on empty squares only")
OWN_PIECE = Phrase("contigo.own_piece",
                   "{square} holds your own piece: you may land on an empty square or capture an enemy")
NOT_LEGAL = Phrase("contigo.not_legal", "{move} is not a legal move")
NOT_STRAIGHT = Phrase("contigo.not_straight",
                      "{move} is not straight: a pawn moves straight along its row or column")
EMPTY_PIT = Phrase("contigo.empty_pit", "the pit {pit} is empty, so nothing moves {direction} from {square}")
WRONG_COUNT = Phrase("contigo.wrong_count", "the pit {pit} governing moves {direction} from {square} holds {beads},"
                                            " so the move is {squares}, not {distance}")
JUMPS_ENEMY = Phrase("contigo.jumps_enemy", "{move} would jump the {owner} pawn on {square}:"
                                            " pawns jump their own pawns, never an opponent's")
L_STRAIGHT = Phrase("contigo.l_straight",
                    "{move} is straight, but {who} always moves in an L: two straight legs at right angles")
L_ROUTE = Phrase("contigo.l_route", "{first} then {second} by {corner}: {reason}")
DOUBLE_BLOCKED = Phrase("contigo.double_blocked",
                        "the double may not pass over the piece on {square} (doubles move only over empty squares)")
NO_L = Phrase("contigo.no_l", "no L reaches {target} from {square} ({routes})")
PASS_CAPTURE_ONLY = Phrase("contigo.pass_capture_only", "pass moves belong to the capture game")
PASS_FROM_DOUBLE = Phrase("contigo.pass_from_double", "a pass starts from your double, and {square} holds a single")
PASS_TO_EMPTY = Phrase("contigo.pass_to_empty",
                       "a pass hands the double's second man to one of your singles, and {square} is empty")
PASS_TO_OTHER = Phrase("contigo.pass_to_other", "a pass hands the double's second man to one of your singles,"
                                                " and {square} does not hold one of your singles")
PASS_NOT_IN_LINE = Phrase("contigo.pass_not_in_line",
                          "a pass goes straight along a row or column, and {target} is not in line with {square}")
PASS_BLOCKED = Phrase("contigo.pass_blocked", "the pass needs an unobstructed path, and {square} is occupied")
PASS_COUNT = Phrase("contigo.pass_count", "a pass must match its pit exactly: the pit {pit} governing {direction}"
                                          " from {square} holds {beads}, but {target} is {squares} away")
PIT_TWICE = Phrase("contigo.pit_twice", "not a Contigo bead move (name each pit once)")
TAKE_THEN_DROP = Phrase("contigo.take_then_drop", "in the capture game beads are picked up from one pit"
                                                  " (take n-f 3), then dropped pit by pit within range (drop e-6 2)")
MUST_LEAVE = Phrase("contigo.must_leave", "beads taken from {pit} must leave it")
TOO_MANY = Phrase("contigo.too_many", "the pit {pit} holds {beads}: you cannot take {count}")
ONE_PIT = Phrase("contigo.one_pit", "in the alignment game all {count} beads go together into one pit")
EXACT_DISTANCE = Phrase("contigo.exact_distance",
                        "{beads} from {pit} go exactly {count} pits around the ring, to {targets}, not to {target}")
DROPPING = Phrase("contigo.dropping", "the beads from {pit} are being dropped: drop the other {beads} in your hand")
ONE_SOURCE = Phrase("contigo.one_source", "beads come from one pit per turn, and you took yours from {pit}")
TAKE_FIRST = Phrase("contigo.take_first", "pick beads up from a pit first (take n-f 3)")
HAND_HOLDS = Phrase("contigo.hand_holds", "you hold {beads}, not {count}")
OTHER_WAY = Phrase("contigo.other_way", "the beads from {pit} go one way round the ring, and your drops so far went"
                                        " the other way: {target} is not among the {count} pits that follow {pit}"
                                        " that way")
ONE_WAY_RANGE = Phrase("contigo.one_way_range", "{beads} from {pit} may only be dropped in the {count} pits that"
                                                " follow it in one direction around the ring")
EITHER_SIDE_RANGE = Phrase("contigo.either_side_range", "{beads} from {pit} may only be dropped in the pits within"
                                                        " {count} of it, on either side round the ring")
SPREAD_LIMIT = Phrase("contigo.spread_limit", "more than {limit} beads (the spread limit) go all into one pit;"
                                              " {count} beads cannot be split")
CAPTURES = Phrase("contigo.captures", "{player} captures on {square}")
