"""A Scriptorium position as a frozen value, its one-line text, and the check of its consistency.

``Position`` is a ``NamedTuple``: a new position is ``position._replace(...)``. Reading a text
first parses each field (a field that does not parse is a :class:`BadPosition` at once), then asks
:func:`problems` whether the whole makes sense.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from controller.games.base import (
    BadPosition,
    Message,
    Options,
    Phrase,
    quick_replace,
    read_checked,
    read_fields,
    write_fields,
)
from controller.games.scriptorium.actions import whole_number
from controller.games.scriptorium.board import (
    CENTRE,
    COLOUR,
    COLOURS,
    HUB,
    OUTER,
    PART_NAMES,
    N,
    is_aligned,
    location_text,
    parse_location,
    player_name,
    reachable,
)

Offsets = tuple[int, int, int, int]
"""Rotation of the centre, inner, middle and outer parts."""

SETUP_PHASES = ("setup-centre", "setup-inner", "setup-middle", "setup-outer")
PHASES = (*SETUP_PHASES, "first", "roll", "move", "number", "rotate", "clock", "over")
CHANCE_PHASES = frozenset((*SETUP_PHASES, "first", "roll", "number"))
ROUND_LIMIT_MAX = 10_000

NOBODY = -1
"""``first``, ``turn`` and ``winner`` before there is one; ``die`` before a roll, ``pending`` when no part waits."""


@quick_replace
class Position(NamedTuple):
    options: dict[str, Any]
    players: int
    phase: str
    offsets: Offsets
    active: int
    """The part the sync clock turns: CENTRE, INNER or OUTER."""
    pawns: tuple[int, ...]
    """Each player's pawn, a location code."""
    pins: tuple[int, ...]
    """Outer spaces a black pin marks, sorted."""
    first: int
    turn: int
    rounds_played: int
    die: int
    """The colour the colour die showed (``NOBODY`` before a roll)."""
    number: int
    """The number die (0: not rolled)."""
    pending: int
    """The circle the pawn left, which turns by the number die (``NOBODY``: none)."""
    winner: int

    def colour_of(self, loc: int) -> int | None:
        """The colour of the space at a location (None for the hub)."""
        if loc == HUB:
            return None
        return COLOUR[loc // N][self.offsets[loc // N]][loc % N]

    def colour_of_sector(self, position: int) -> int:
        return COLOUR[CENTRE][self.offsets[CENTRE]][position]

    def visited(self, player: int) -> int:
        """How many of the player's two Outer spaces the pawn has visited (pinned, or standing on one)."""
        count = 0
        table = COLOUR[OUTER][self.offsets[OUTER]]
        for pin in self.pins:
            if table[pin % N] == player:
                count += 1
        loc = self.pawns[player]
        if loc != HUB and loc // N == OUTER and table[loc % N] == player and loc not in self.pins:
            count += 1
        return count

    def targets(self, player: int, colour: int) -> list[int]:
        """Where the player's pawn may go on this colour (empty: no move); pins and pawns make spaces dead."""
        pawns = self.pawns
        dead = {*self.pins, *pawns}
        dead.discard(HUB)  # pins stand on Outer spaces, never on the hub
        return reachable(self.offsets, pawns[player], colour, dead)

    @property
    def aligned(self) -> bool:
        return self.phase not in SETUP_PHASES and is_aligned(self.offsets)


# --- text -----------------------------------------------------------------------------------

KEYS = ("players", "outer_line", "round_limit", "start", "phase", "round", "first", "turn", "offsets", "active",
        "pawns", "pins", "die", "number", "pending", "winner")


def _player_text(player: int) -> str:
    return player_name(player) if player >= 0 else "-"


def position_to_text(position: Position) -> str:
    o = position.options
    values = (
        position.players, o["outer_line"], o["round_limit"], o["start"], position.phase, position.rounds_played,
        _player_text(position.first), _player_text(position.turn), ",".join(str(v) for v in position.offsets),
        PART_NAMES[position.active],
        ",".join(location_text(p) for p in position.pawns),
        ",".join(location_text(p) for p in position.pins) or "-",
        COLOURS[position.die] if position.die >= 0 else "-",
        position.number or "-",
        PART_NAMES[position.pending] if position.pending >= 0 else "-",
        _player_text(position.winner),
    )
    return write_fields("scriptorium", zip(KEYS, values, strict=True))


def parse_offsets(text: str) -> Offsets | None:
    """Four offsets ``c,i,m,o`` (each 0..11), else None."""
    parts = text.split(",")
    if len(parts) != 4:
        return None
    c, i, m, o = (whole_number(p, 0, N - 1) for p in parts)
    return None if c is None or i is None or m is None or o is None else (c, i, m, o)


def _locations(text: str) -> tuple[int, ...] | None:
    """The location codes of a comma-separated list (``hub,i3,o0``), or None if one is not a location."""
    out = []
    for word in text.split(","):
        loc = parse_location(word)
        if loc is None:
            return None
        out.append(loc)
    return tuple(out)


def position_from_text(text: str, resolve: Callable[[Options, int], tuple[dict[str, Any], int]]) -> Position:
    """The position a text describes (``resolve`` checks the variant's options); :class:`BadPosition`
    naming the first thing wrong otherwise."""
    return read_checked(text, "Scriptorium", lambda t: _read(t, resolve), problems)


def _read(text: str, resolve: Callable[[Options, int], tuple[dict[str, Any], int]]) -> Position:
    fields = read_fields(text, "scriptorium", KEYS)
    n = whole_number(fields["players"], 2, 6)
    if n is None:
        raise BadPosition("players must be 2 to 6")
    limit = whole_number(fields["round_limit"], 1, ROUND_LIMIT_MAX)
    if limit is None:
        raise BadPosition("bad round_limit")
    try:
        opts, _ = resolve({"outer_line": fields["outer_line"], "round_limit": limit, "start": fields["start"]}, n)
    except ValueError as exc:
        raise BadPosition(str(exc)) from None
    phase = fields["phase"]
    if phase not in PHASES:
        raise BadPosition(f"unknown phase {phase!r}")
    rnd = whole_number(fields["round"], 0, limit)
    if rnd is None:
        raise BadPosition("bad round")

    def player(v: str) -> int:
        if v == "-":
            return NOBODY
        if v not in COLOURS[:n]:
            raise BadPosition(f"no player {v!r} in a {n}-player game")
        return COLOURS.index(v)

    first, turn, winner = player(fields["first"]), player(fields["turn"]), player(fields["winner"])
    offsets = parse_offsets(fields["offsets"])
    if offsets is None:
        raise BadPosition("offsets are four numbers 0-11: centre,inner,middle,outer")
    if fields["active"] not in ("centre", "inner", "outer"):
        raise BadPosition("the active part is centre, inner or outer")
    pawns = _locations(fields["pawns"])
    if pawns is None or len(pawns) != n:
        raise BadPosition(f"pawns lists {n} locations (hub, i0..i11, m0..m11, o0..o11)")
    pins: tuple[int, ...] | None = () if fields["pins"] == "-" else _locations(fields["pins"])
    if pins is None:
        raise BadPosition(PINS_ON_OUTER().text)
    die = NOBODY if fields["die"] == "-" else (COLOURS.index(fields["die"]) if fields["die"] in COLOURS else None)
    if die is None:
        raise BadPosition("bad die")
    number = 0 if fields["number"] == "-" else whole_number(fields["number"], 1, 6)
    if number is None:
        raise BadPosition("bad number")
    pending = NOBODY if fields["pending"] == "-" else (
        PART_NAMES.index(fields["pending"]) if fields["pending"] in ("inner", "middle", "outer") else None)
    if pending is None:
        raise BadPosition("the pending part is inner, middle or outer")
    return Position(opts, n, phase, offsets, PART_NAMES.index(fields["active"]), pawns, pins, first, turn, rnd, die,
                    number, pending, winner)


# --- consistency ----------------------------------------------------------------------------

TWO_PAWNS = Phrase("scriptorium.position.two_pawns", "two pawns on one space")
PINS_ON_OUTER = Phrase("scriptorium.position.pins_on_outer", "black pins stand on Outer spaces only")
PINS_ORDER = Phrase("scriptorium.position.pins_order", "pins are listed once each, in order")
PAWN_ON_PIN = Phrase("scriptorium.position.pawn_on_pin", "a pawn and a black pin on one space")
PIN_OF_NOBODY = Phrase("scriptorium.position.pin_of_nobody", "the pin on {space} marks the colour of no player")
NOT_STARTED = Phrase("scriptorium.position.started", "first and turn are set once the game has started, and only then")
MOVE_NEEDS_DIE = Phrase("scriptorium.position.move_needs_die", "a move needs the colour the die showed")
NUMBER_NEEDS_PART = Phrase("scriptorium.position.number_needs_part", "the number die is rolled for the circle the "
                                                                     "pawn left")
PART_NOT_PENDING = Phrase("scriptorium.position.part_not_pending", "a pending part only while a circle change is "
                                                                   "being resolved")
ROTATE_NEEDS_NUMBER = Phrase("scriptorium.position.rotate_needs_number", "a die rotation needs the number rolled")
WINNER_TOO_EARLY = Phrase("scriptorium.position.winner_too_early", "a winner only when the game is over")
OVER_TOO_EARLY = Phrase("scriptorium.position.over_too_early", "a game over without a winner ends at the round limit")
ROUND_LIMIT_REACHED = Phrase("scriptorium.position.round_limit", "the round limit has been reached: the game is over")
ALL_ON_HUB = Phrase("scriptorium.position.all_on_hub", "before the start every pawn is on the hub")
SETUP_NOT_RANDOM = Phrase("scriptorium.position.setup_not_random", "setting the board happens only with start=random")
UNSET_PARTS = Phrase("scriptorium.position.unset_parts", "parts not set yet read offset 0")
CLOCK_OUT_OF_ROUND = Phrase("scriptorium.position.clock_round", "the clock turns after a full round, by the player "
                                                                "who closed it")
ALIGNED_TURNS = Phrase("scriptorium.position.aligned_turns", "an aligned board never turns again")
PAWN_ON_TURNING = Phrase("scriptorium.position.pawn_on_turning", "the pawn has left the circle that turns")
NO_MOVE = Phrase("scriptorium.position.no_move", "no legal move on that colour: the turn would have ended")
BAD_WINNER = Phrase("scriptorium.position.bad_winner",
                    "a winner has visited both Outer spaces and reached the hub on an aligned board")


def problems(position: Position) -> list[Message]:
    """Everything that keeps ``position`` from being one play can reach, first things first
    (empty: it is a position of the game), like python-chess's ``Board.status()``."""
    return [*_placement_problems(position), *_phase_problems(position)]


def _placement_problems(position: Position) -> list[Message]:
    """Pawns and pins: where they stand."""
    out = []
    pawns, pins = position.pawns, position.pins
    on_board = [p for p in pawns if p != HUB]
    if len(set(on_board)) != len(on_board):
        out.append(TWO_PAWNS())
    if any(p == HUB or p // N != OUTER for p in pins):
        out.append(PINS_ON_OUTER())
        return out
    if list(pins) != sorted(set(pins)):
        out.append(PINS_ORDER())
    if set(pins) & set(on_board):
        out.append(PAWN_ON_PIN())
    out.extend(PIN_OF_NOBODY(space=location_text(p)) for p in pins
               if COLOUR[OUTER][position.offsets[OUTER]][p % N] >= position.players)
    return out


def _phase_problems(position: Position) -> list[Message]:
    """The phase and the fields that go with it."""
    out = []
    phase, turn, rnd, off = position.phase, position.turn, position.rounds_played, position.offsets
    limit = position.options["round_limit"]
    started = phase not in SETUP_PHASES and phase != "first"
    if started != (position.first >= 0) or started != (turn >= 0):
        out.append(NOT_STARTED())
    if phase == "move" and position.die < 0:
        out.append(MOVE_NEEDS_DIE())
    if phase in ("number", "rotate") and position.pending < 0:
        out.append(NUMBER_NEEDS_PART())
    if phase not in ("number", "rotate") and position.pending >= 0:
        out.append(PART_NOT_PENDING())
    if phase == "rotate" and position.number == 0:
        out.append(ROTATE_NEEDS_NUMBER())
    if position.winner >= 0 and phase != "over":
        out.append(WINNER_TOO_EARLY())
    if phase == "over" and position.winner < 0 and rnd != limit:
        out.append(OVER_TOO_EARLY())
    if rnd >= limit and phase != "over":
        out.append(ROUND_LIMIT_REACHED())
    if not started and (rnd or any(p != HUB for p in position.pawns) or position.pins or position.die >= 0
                        or position.number):
        out.append(ALL_ON_HUB())
    if phase in SETUP_PHASES and (position.options["start"] != "random" or position.active != CENTRE):
        out.append(SETUP_NOT_RANDOM())
    if phase in SETUP_PHASES and any(off[SETUP_PHASES.index(phase):]):
        out.append(UNSET_PARTS())
    if phase == "clock" and ((turn + 1) % position.players != position.first or rnd == 0):
        out.append(CLOCK_OUT_OF_ROUND())
    if phase in ("clock", "number", "rotate") and is_aligned(off):
        out.append(ALIGNED_TURNS())
    if phase in ("number", "rotate") and position.pawns[turn] != HUB and position.pawns[turn] // N == position.pending:
        out.append(PAWN_ON_TURNING())
    if out:
        return out  # what follows asks the rules questions a broken position cannot answer
    if phase == "move" and not position.targets(turn, position.die):
        out.append(NO_MOVE())
    winner = position.winner
    if winner >= 0 and (position.pawns[winner] != HUB or position.visited(winner) < 2 or not is_aligned(off)):
        out.append(BAD_WINNER())
    return out

