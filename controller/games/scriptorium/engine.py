"""Scriptorium: rotating rings, a colour die and a number die, the sync clock.

See ``docs/rules/scriptorium.md`` for the rules as implemented, every ruling and the text formats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, TypeGuard

from controller.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    Announcement,
    BadPosition,
    Channel,
    ChannelKind,
    ColourName,
    Game,
    IllegalAction,
    Option,
    Options,
    State,
    canonical,
    find_action,
    is_colour,
    parse_int,
    read_fields,
    write_fields,
)
from controller.games.scriptorium import board as B
from controller.games.scriptorium.board import CENTRE, HUB, INNER, MIDDLE, OUTER, PART_NAMES

N = B.N
COLOURS = B.COLOURS
NUM_COLOURS = len(COLOURS)
DIE_FACES = (1, 2, 3, 4, 5, 6)
PART_TITLES = ("Centre", "Inner", "Middle", "Outer")
CLOCK_ORDER = {CENTRE: INNER, INNER: OUTER, OUTER: CENTRE}
RINGS = (INNER, MIDDLE, OUTER)
SETUP_PHASES = ("setup-centre", "setup-inner", "setup-middle", "setup-outer")
PHASES = (*SETUP_PHASES, "first", "roll", "move", "number", "rotate", "clock", "over")
CHANCE_PHASES = frozenset((*SETUP_PHASES, "first", "roll", "number"))
SHORT_PHASE = {p: ("setup" if p.startswith("setup") else p) for p in PHASES}

ROUND_LIMIT_MAX = 10_000
OPTIONS = (
    Option("outer_line", "same", choices=("same", "either"),
           doc="the Outer ring meets the Middle by the Inner ring's line (same) or by either (the literal reading)"),
    Option("round_limit", 200, minimum=1, maximum=ROUND_LIMIT_MAX, doc="rounds before the game ends without a winner"),
    Option("start", "random", doc="'random' (the table sets the parts by chance) or four offsets like '0,3,5,7'"),
)

# Actions (hashable tuples):
#   ("set", part, offset)        chance: the table sets a part at the start ("set inner 7")
#   ("first", player)            chance: who starts ("first blue")
#   ("colour", colour)           chance: the colour die ("roll blue")
#   ("number", k)                chance: the number die ("number 4")
#   ("move", src, dst)           a pawn move between location codes ("i3-m2", "hub-i4", "i3-hub")
#   ("turn", part, dir, spaces)  a rotation the table carries out ("turn inner left 3")
SetAction = tuple[Literal["set"], int, int]
FirstAction = tuple[Literal["first"], int]
ColourAction = tuple[Literal["colour"], int]
NumberAction = tuple[Literal["number"], int]
MoveAction = tuple[Literal["move"], int, int]
TurnAction = tuple[Literal["turn"], int, str, int]
SAction = SetAction | FirstAction | ColourAction | NumberAction | MoveAction | TurnAction
Offsets = tuple[int, int, int, int]
"""Rotation of the centre, inner, middle and outer parts."""


def _is_action(action: object) -> TypeGuard[SAction]:
    if not isinstance(action, tuple) or not action:
        return False
    ints = [x for x in action[1:] if isinstance(x, int) and not isinstance(x, bool)]
    if action[0] == "turn":
        return len(action) == 4 and len(ints) == 2 and isinstance(action[2], str)
    arity = {"set": 2, "first": 1, "colour": 1, "number": 1, "move": 2}.get(action[0]) if isinstance(action[0],
                                                                                                     str) else None
    return arity is not None and len(action) == 1 + arity == 1 + len(ints)


def _check_start(start: str) -> None:
    if start != "random" and _parse_offsets(start) is None:
        raise ValueError(f"scriptorium: start must be 'random' or four offsets 0-11 like '0,3,5,7'"
                         f" (centre, inner, middle, outer), not {start!r}")


def _parse_int(text: str, lo: int, hi: int) -> int | None:
    try:
        return parse_int(text, lo, hi)
    except ValueError:
        return None


def _locations(text: str) -> tuple[int, ...] | None:
    """The location codes of a comma-separated list (``hub,i3,o0``), or None if one is not a location."""
    out = []
    for word in text.split(","):
        loc = B.parse_location(word)
        if loc is None:
            return None
        out.append(loc)
    return tuple(out)


def _offsets(values: list[int]) -> Offsets:
    c, i, m, o = values
    return (c, i, m, o)


def _parse_offsets(text: str) -> Offsets | None:
    parts = text.split(",")
    if len(parts) != 4:
        return None
    c, i, m, o = (_parse_int(p, 0, N - 1) for p in parts)
    return None if c is None or i is None or m is None or o is None else (c, i, m, o)


def _rotate_loc(loc: int, part: int, spaces: int) -> int:
    if loc != HUB and loc // N == part:
        return part * N + (loc % N + spaces) % N
    return loc


class ScriptoriumState(State):
    __slots__ = ("_active", "_die", "_first", "_n", "_number", "_off", "_opts", "_pawns", "_pending", "_phase",
                 "_pins", "_round", "_turn", "_winner")

    def __init__(self, opts: dict[str, Any], n: int, phase: str, off: Offsets, active: int,
                 pawns: tuple[int, ...], pins: tuple[int, ...], first: int, turn: int, rnd: int, die: int,
                 number: int, pending: int, winner: int) -> None:
        self._opts = opts
        self._n = n
        self._phase = phase
        self._off = off
        self._active = active
        self._pawns = pawns
        self._pins = pins
        self._first = first
        self._turn = turn
        self._round = rnd
        self._die = die
        self._number = number
        self._pending = pending
        self._winner = winner

    def _with(self, **kw: object) -> ScriptoriumState:
        s = object.__new__(ScriptoriumState)
        s._opts, s._n, s._phase, s._off, s._active = self._opts, self._n, self._phase, self._off, self._active
        s._pawns, s._pins, s._first, s._turn = self._pawns, self._pins, self._first, self._turn
        s._round, s._die, s._number, s._pending, s._winner = (self._round, self._die, self._number, self._pending,
                                                              self._winner)
        for key, value in kw.items():
            setattr(s, "_" + key, value)
        return s

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        out: list[Announcement] = []
        if not isinstance(after, ScriptoriumState):
            return out
        if after._pins != self._pins and len(after._pins) > len(self._pins):
            out.append({"type": "pin", "player": self._turn if self._turn >= 0 else None,
                        "text": f"a black pin on {B.location_text(after._pins[-1])}"})
        if after._active != self._active:
            out.append({"type": "sync", "player": None,
                        "text": f"the {PART_NAMES[self._active]} is in sync: the clock passes to the "
                                f"{PART_NAMES[after._active]}"})
        before, now = self.public_view()["aligned"], after.public_view()["aligned"]
        if now and not before:
            out.append({"type": "aligned", "player": None, "text": "the rings are aligned: the board is frozen"})
        return out

    # --- players ----------------------------------------------------------------------------
    def player_name(self, player: int) -> str:
        return player_name(player)

    def player_colour(self, player: int) -> ColourName | None:
        colour = COLOURS[player]
        return colour if is_colour(colour) else None  # a layout may name a colour displays lack

    # --- basic properties -------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        return dict(self._opts)

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def current_player(self) -> int:
        if self._phase == "over":
            return TERMINAL
        if self._phase in CHANCE_PHASES:
            return CHANCE
        return self._turn

    @property
    def phase(self) -> str:
        return SHORT_PHASE[self._phase]

    @property
    def offsets(self) -> Offsets:
        return self._off

    @property
    def aligned(self) -> bool:
        return self._phase not in SETUP_PHASES and B.is_aligned(self._off)

    @property
    def active_part(self) -> str:
        return PART_NAMES[self._active]

    @property
    def pawns(self) -> tuple[int, ...]:
        return self._pawns

    @property
    def pins(self) -> tuple[int, ...]:
        return self._pins

    @property
    def rounds_played(self) -> int:
        return self._round

    # --- rules helpers ----------------------------------------------------------------------
    def colour_of(self, loc: int) -> int | None:
        """The colour of the space at a location (None for the hub)."""
        if loc == HUB:
            return None
        return B.COLOUR[loc // N][self._off[loc // N]][loc % N]

    def visited(self, player: int) -> int:
        """How many of the player's two Outer spaces the pawn has visited (pinned, or standing on one)."""
        count = 0
        table = B.COLOUR[OUTER][self._off[OUTER]]
        for pin in self._pins:
            if table[pin % N] == player:
                count += 1
        loc = self._pawns[player]
        if loc != HUB and loc // N == OUTER and table[loc % N] == player and loc not in self._pins:
            count += 1
        return count

    def _dead(self) -> set[int]:
        dead = set(self._pins)
        dead.update(p for p in self._pawns if p != HUB)
        return dead

    def targets(self, player: int, colour: int) -> list[int]:
        """Where the player's pawn may go on this colour (empty: no move)."""
        loc = self._pawns[player]
        dead = self._dead()
        off = self._off
        if loc == HUB:
            table = B.COLOUR[INNER][off[INNER]]
            return [INNER * N + p for p in B.HUB_EXITS if table[p] == colour and INNER * N + p not in dead]
        if loc // N == INNER:
            gate = B.HUB_GATE.get(loc % N)
            if gate is not None and B.COLOUR[CENTRE][off[CENTRE]][gate] == colour:
                return [HUB]
        colour_table = B.COLOUR
        return [d for d in B.NEIGHBOURS[loc]
                if d not in dead and colour_table[d // N][off[d // N]][d % N] == colour]

    # --- API --------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self._legal())

    def _legal(self) -> list[SAction]:
        ph = self._phase
        if ph == "roll":
            return [("colour", c) for c in range(NUM_COLOURS)]
        if ph == "move":
            src = self._pawns[self._turn]
            return [("move", src, d) for d in self.targets(self._turn, self._die)]
        if ph == "number":
            return [("number", k) for k in DIE_FACES]
        if ph == "rotate":
            return [("turn", self._pending, "left", self._number)]
        if ph == "clock":
            return [("turn", self._active, "left", 1)]
        if ph == "first":
            return [("first", p) for p in range(self._n)]
        if ph in SETUP_PHASES:
            part = SETUP_PHASES.index(ph)
            return [("set", part, o) for o in range(N)]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._phase not in CHANCE_PHASES:
            return []
        acts = self.legal_actions()
        p = 1.0 / len(acts)
        return [(a, p) for a in acts]

    def _reason(self, action: object) -> str | None:
        """Why ``action`` is illegal here, in a player's words (None when no specific reason is found)."""
        ph = self._phase
        if ph == "over":
            return "the game is over"
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            return "that is not a Scriptorium action"
        kind = action[0]
        chance_kinds = {"set": "setting the board", "first": "the roll for who starts",
                        "colour": "a roll of the colour die", "number": "a roll of the number die"}
        expected = {"roll": "colour", "number": "number", "first": "first"}
        if kind in chance_kinds:
            if ph in CHANCE_PHASES and (expected.get(ph) == kind or (kind == "set" and ph in SETUP_PHASES)):
                if kind == "set" and len(action) == 3 and action[1] != SETUP_PHASES.index(ph):
                    return f"the board is set part by part: the {ph[6:]} comes next"
                return None
            return f"{chance_kinds[kind]} is not what comes next: {self._waiting_for()}"
        if ph in CHANCE_PHASES:
            return f"a die decides now: {self._waiting_for()}"
        player = player_name(self._turn)
        if kind == "move":
            if ph != "move":
                return f"no pawn moves now: {self._waiting_for()}"
            if len(action) != 3:
                return "a move names where the pawn is and where it goes"
            _, src, dst = action
            mine = self._pawns[self._turn]
            if src != mine:
                return f"{player}'s pawn is on {B.location_text(mine)}, not on {B.location_text(src)}"
            rolled = COLOURS[self._die]
            if dst == HUB:
                if src == HUB:
                    return "the pawn is already on the hub"
                if src // N != INNER:
                    return "only an Inner space leads to the hub"
                gate = B.HUB_GATE[src % N]
                shown = self.colour_of_sector(gate)
                if shown != self._die:
                    return (f"the Centre sector at position {gate} shows {COLOURS[shown]}, not {rolled}:"
                            f" no way into the hub from {B.location_text(src)}")
                return None
            if src == HUB:
                if dst // N != INNER:
                    return "from the hub a pawn goes only to an Inner space"
            else:
                if src // N == INNER:
                    sector = B.HUB_GATE.get(src % N)
                    if sector is not None and self.colour_of_sector(sector) == self._die:
                        return (f"the Centre sector at position {sector} shows {rolled}, so the pawn on"
                                f" {B.location_text(src)} must go to the hub")
                if dst not in B.NEIGHBOURS[src]:
                    return f"no black line joins {B.location_text(src)} and {B.location_text(dst)}"
            dcol = self.colour_of(dst)
            if dcol != self._die:
                return f"{B.location_text(dst)} is {COLOURS[dcol]}, but the colour die shows {rolled}"  # type: ignore[index]
            if dst in self._pins:
                return f"{B.location_text(dst)} is a dead space: a black pin marks it"
            if dst in self._pawns:
                who = player_name(self._pawns.index(dst))
                return f"{B.location_text(dst)} is a dead space: {who}'s pawn is on it"
            return None
        if kind == "turn":
            if len(action) != 4:
                return "a turn names the part, the direction and the number of spaces"
            _, part, direction, spaces = action
            if ph == "rotate":
                want, spaces_needed, why = self._pending, self._number, f"the number die shows {self._number}"
                pname = PART_TITLES[want]
                if part != want:
                    return f"the {pname} circle (the one the pawn left) must turn, not the {PART_TITLES[part]}"
            elif ph == "clock":
                want, spaces_needed, why = self._active, 1, "the sync clock turns one space per round"
                pname = PART_TITLES[want]
                if part != want:
                    return f"the sync clock turns the active part, the {pname}, not the {PART_TITLES[part]}"
            else:
                return f"no part turns now: {self._waiting_for()}"
            if direction != "left":
                return f"the {pname} turns left (clockwise, the way the play goes round), not {direction}"
            if spaces != spaces_needed:
                return f"{why}: the {pname} turns {spaces_needed} space{'s' if spaces_needed > 1 else ''}, not {spaces}"
            return None
        return "that is not a Scriptorium action"

    def colour_of_sector(self, position: int) -> int:
        return B.COLOUR[CENTRE][self._off[CENTRE]][position]

    def _waiting_for(self) -> str:
        ph = self._phase
        if ph in SETUP_PHASES:
            return f"the {ph[6:]} is being set for the start"
        if ph == "first":
            return "the roll for who starts"
        if ph == "roll":
            return f"{player_name(self._turn)} rolls the colour die"
        if ph == "move":
            return f"{player_name(self._turn)} moves the pawn to a {COLOURS[self._die]} space"
        if ph == "number":
            return f"{player_name(self._turn)} rolls the number die for the {PART_NAMES[self._pending]}"
        if ph == "rotate":
            return f"the {PART_NAMES[self._pending]} must turn left {self._number}"
        if ph == "clock":
            return f"the sync clock turns the {PART_NAMES[self._active]} left 1"
        return "the game is over"

    def apply(self, action: Action) -> ScriptoriumState:
        legal = find_action(action, self._legal())
        if legal is None:
            try:
                reason = self._reason(action)
            except (IndexError, KeyError, TypeError, ValueError):
                reason = "that is not a Scriptorium action"
            raise self.illegal(action, reason or "the rules allow no such action here")
        return self._apply_legal(legal)

    def _apply_legal(self, action: SAction) -> ScriptoriumState:
        if action[0] == "colour":
            colour = action[1]
            s = self._with(die=colour, number=0, pending=-1)
            if s.targets(self._turn, colour):
                return s._with(phase="move")
            return s._end_turn()
        if action[0] == "move":
            _, src, dst = action
            player = self._turn
            pins = self._pins
            if src != HUB and src // N == OUTER and self.colour_of(src) == player:
                pins = tuple(sorted((*pins, src)))
            pawns = (*self._pawns[:player], dst, *self._pawns[player + 1:])
            aligned = B.is_aligned(self._off)
            s = self._with(pawns=pawns, pins=pins)
            if dst == HUB and aligned and self.visited(player) >= 2:
                return s._with(phase="over", winner=player)
            changes_circle = src != HUB and (dst == HUB or dst // N != src // N)
            if changes_circle and not aligned:
                return s._with(phase="number", pending=src // N)
            return s._end_turn()
        if action[0] == "number":
            return self._with(phase="rotate", number=action[1])
        if action[0] == "turn":
            _, part, _direction, spaces = action
            s = self._rotated(part, spaces)
            if self._phase == "clock":
                return s._with(phase="roll", turn=self._first, pending=-1)
            return s._end_turn()
        if action[0] == "first":
            return self._with(phase="roll", first=action[1], turn=action[1])
        _, part, value = action
        off = list(self._off)
        off[part] = value
        nxt = "first" if part == OUTER else SETUP_PHASES[part + 1]
        return self._with(phase=nxt, off=_offsets(off))

    def _rotated(self, part: int, spaces: int) -> ScriptoriumState:
        """The board after ``part`` turns left ``spaces``; pawns and pins on it turn with it. Then
        alignment is checked, and the active part hands over if its condition holds."""
        off = list(self._off)
        off[part] = (off[part] + spaces) % N
        off_t = _offsets(off)
        pawns, pins = self._pawns, self._pins
        if part != CENTRE:
            pawns = tuple(_rotate_loc(p, part, spaces) for p in pawns)
            if part == OUTER and pins:
                pins = tuple(sorted(_rotate_loc(p, part, spaces) for p in pins))
        active = self._active
        if not B.is_aligned(off_t) and B.condition_holds(off_t, active, self._opts["outer_line"]):
            active = CLOCK_ORDER[active]
        return self._with(off=off_t, pawns=pawns, pins=pins, active=active)

    def _end_turn(self) -> ScriptoriumState:
        nxt = (self._turn + 1) % self._n
        if nxt != self._first:
            return self._with(phase="roll", turn=nxt, pending=-1)
        rnd = self._round + 1
        if rnd >= self._opts["round_limit"]:
            return self._with(phase="over", round=rnd, pending=-1, winner=-1)
        if B.is_aligned(self._off):
            return self._with(phase="roll", turn=nxt, round=rnd, pending=-1)
        return self._with(phase="clock", round=rnd, pending=-1)

    def returns(self) -> list[float]:
        if self._phase != "over" or self._winner < 0:
            return [0.0] * self._n
        return [1.0 if p == self._winner else -1.0 for p in range(self._n)]

    def scores(self) -> list[float]:
        return [float(self.visited(p) + (1 if p == self._winner else 0)) for p in range(self._n)]

    # --- texts ------------------------------------------------------------------------------
    def to_text(self) -> str:
        o = self._opts

        def player(p: int) -> str:
            return player_name(p) if p >= 0 else "-"

        values = (
            self._n, o["outer_line"], o["round_limit"], o["start"], self._phase, self._round,
            player(self._first), player(self._turn), ",".join(str(v) for v in self._off), PART_NAMES[self._active],
            ",".join(B.location_text(p) for p in self._pawns),
            ",".join(B.location_text(p) for p in self._pins) or "-",
            COLOURS[self._die] if self._die >= 0 else "-",
            self._number or "-",
            PART_NAMES[self._pending] if self._pending >= 0 else "-",
            player(self._winner),
        )
        return write_fields("scriptorium", zip(_KEYS, values, strict=True))

    def action_to_text(self, action: Action) -> str:
        if not _is_action(action):
            raise ValueError(f"not a Scriptorium action: {action!r}")
        if action[0] == "move":
            return f"{B.location_text(action[1])}-{B.location_text(action[2])}"
        if action[0] == "turn":
            return f"turn {PART_NAMES[action[1]]} {action[2]} {action[3]}"
        if action[0] == "colour":
            return f"roll {COLOURS[action[1]]}"
        if action[0] == "number":
            return f"number {action[1]}"
        if action[0] == "first":
            return f"first {player_name(action[1])}"
        return f"set {PART_NAMES[action[1]]} {action[2]}"

    def action_from_text(self, text: str) -> Action:
        action = parse_action(text, self._n)
        if action is None:
            raise IllegalAction(text, "names no Scriptorium action (examples: 'roll blue', 'hub-i4', 'i3-m2',"
                                      " 'number 4', 'turn inner left 4')")
        return action

    # --- views ------------------------------------------------------------------------------
    def physical_view(self) -> dict[str, int]:
        view = dict(_EMPTY_VIEW)
        for part in range(4):
            view[_ENC[part]] = self._off[part]
        hub = 0
        for p in self._pawns:
            if p == HUB:
                hub += 1
            else:
                view[_POS[p]] = 1
        for p in self._pins:
            view[_POS[p]] = 1
        view["hub"] = hub
        return view

    def required_turn(self) -> dict[str, Any] | None:
        """The rotation the table must carry out now, if any (for the LEDs)."""
        if self._phase == "rotate":
            return {"part": PART_NAMES[self._pending], "direction": "left", "spaces": self._number, "why": "die"}
        if self._phase == "clock":
            return {"part": PART_NAMES[self._active], "direction": "left", "spaces": 1, "why": "clock"}
        return None

    def public_view(self) -> dict[str, Any]:
        off = self._off
        setup = self._phase in SETUP_PHASES
        colours = {PART_NAMES[part]: [COLOURS[c] for c in B.COLOUR[part][off[part]]] for part in range(4)}
        targets = []
        if self._phase == "move":
            targets = [B.location_text(d) for d in self.targets(self._turn, self._die)]
        return {
            "game": "scriptorium",
            "position": self.to_text(),
            "options": self.options,
            "players": [player_name(p) for p in range(self._n)],
            "phase": self.phase,
            "turn": player_name(self._turn) if self._turn >= 0 and self._phase != "over" else None,
            "current_player": self.current_player,
            "round": self._round,
            "rounds_left": self._opts["round_limit"] - self._round,
            "offsets": {PART_NAMES[p]: off[p] for p in range(4)},
            "colours": colours,
            "active_part": PART_NAMES[self._active],
            "aligned": (not setup) and B.is_aligned(off),
            "meets": {
                "centre_inner": B.centre_meets_inner(off),
                "inner_middle": list(B.meets_middle(off, INNER)),
                "outer_middle": list(B.meets_middle(off, OUTER)),
            },
            "pawns": {player_name(p): B.location_text(loc) for p, loc in enumerate(self._pawns)},
            "pins": [B.location_text(p) for p in self._pins],
            "visited": {player_name(p): self.visited(p) for p in range(self._n)},
            "die": COLOURS[self._die] if self._die >= 0 else None,
            "number": self._number or None,
            "required_turn": self.required_turn(),
            "targets": targets,
            "pending_chance": self._phase if self._phase in CHANCE_PHASES else None,
            "winner": player_name(self._winner) if self._winner >= 0 else None,
            "scores": self.scores(),
        }

    def render_text(self) -> str:
        off = self._off
        lines = [f"Scriptorium {self._n}p  round {self._round}/{self._opts['round_limit']}  phase {self._phase}"
                 f"  active {PART_NAMES[self._active]}  {'ALIGNED' if self.aligned else 'not aligned'}"]
        occupant: dict[int, list[str]] = {}
        for p, loc in enumerate(self._pawns):
            occupant.setdefault(loc, []).append(player_name(p)[0].upper())
        for pin in self._pins:
            occupant.setdefault(pin, []).append("#")
        lines.append("pos     " + " ".join(f"{p:>4}" for p in range(N)))
        for part in (OUTER, MIDDLE, INNER, CENTRE):
            cells = []
            for p in range(N):
                c = COLOURS[B.COLOUR[part][off[part]][p]][0].upper()
                who = "".join(occupant.get(part * N + p, [])) if part != CENTRE else ""
                cells.append(f"{c + who:>4}")
            shift = " (+1/2)" if part == MIDDLE else ""
            lines.append(f"{PART_NAMES[part]:7} " + " ".join(cells) + f"   offset {off[part]}{shift}")
        hub = "".join(occupant.get(HUB, [])) or "-"
        lines.append(f"hub: {hub}")
        status = [f"{player_name(p)}@{B.location_text(loc)} visited {self.visited(p)}/2"
                  for p, loc in enumerate(self._pawns)]
        lines.append("; ".join(status))
        if self._phase == "over":
            lines.append("winner: " + (player_name(self._winner) if self._winner >= 0 else "none (round limit)"))
        elif self.current_player != CHANCE:
            lines.append("to act: " + self._waiting_for())
        else:
            lines.append("waiting for: " + self._waiting_for())
        return "\n".join(lines)


def player_name(p: int) -> str:
    """Each player is a colour: his pawn's, and the spaces he must visit on the Outer ring."""
    return COLOURS[p]


_ENC = tuple(f"enc:{name}" for name in PART_NAMES)
_POS = {r * N + p: f"pos:{PART_NAMES[r]}:{p}" for r in RINGS for p in range(N)}
_EMPTY_VIEW = {**dict.fromkeys(_ENC, 0), **dict.fromkeys(_POS.values(), 0), "hub": 0}


def parse_action(text: object, n: int) -> SAction | None:
    """The action a text names (whether legal or not), or None."""
    if not isinstance(text, str):
        return None
    words = text.split(" ")
    if len(words) == 1 and "-" in text:
        a, _, b = text.partition("-")
        src, dst = B.parse_location(a), B.parse_location(b)
        if src is None or dst is None:
            return None
        return ("move", src, dst)
    if len(words) == 2:
        kind, arg = words
        if kind == "roll" and arg in COLOURS:
            return ("colour", COLOURS.index(arg))
        if kind == "number":
            k = _parse_int(arg, 1, 6)
            return None if k is None else ("number", k)
        if kind == "first" and arg in COLOURS[:n]:
            return ("first", COLOURS.index(arg))
        return None
    if len(words) == 3 and words[0] == "set" and words[1] in PART_NAMES:
        v = _parse_int(words[2], 0, N - 1)
        return None if v is None else ("set", PART_NAMES.index(words[1]), v)
    if len(words) == 4 and words[0] == "turn" and words[1] in PART_NAMES and words[2] in ("left", "right"):
        k = _parse_int(words[3], 1, N - 1)
        if k is None:
            return None
        # A half-turn either way is the same turn (the same board): "right 6" is "left 6".
        return ("turn", PART_NAMES.index(words[1]), "left" if k == N // 2 else words[2], k)
    return None


_KEYS = ("players", "outer_line", "round_limit", "start", "phase", "round", "first", "turn", "offsets", "active",
         "pawns", "pins", "die", "number", "pending", "winner")


class Scriptorium(Game):
    name = "scriptorium"
    title = "Scriptorium"
    min_players = 2
    max_players = 6

    option_schema = OPTIONS

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        _check_start(options["start"])

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> ScriptoriumState:
        opts, n = self.resolve(options, num_players)
        pawns = (HUB,) * n
        off = _parse_offsets(opts["start"])
        if off is None:  # start=random: the table sets every part by chance first
            return ScriptoriumState(opts, n, SETUP_PHASES[0], (0, 0, 0, 0), CENTRE, pawns, (), -1, -1, 0, -1, 0,
                                    -1, -1)
        return ScriptoriumState(opts, n, "first", off, CENTRE, pawns, (), -1, -1, 0, -1, 0, -1, -1)

    def state_from_text(self, text: str) -> ScriptoriumState:
        try:
            state = self._parse(text)
        except BadPosition:
            raise
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise BadPosition(f"not a Scriptorium position: {exc}") from None
        return canonical(state, text)

    def _parse(self, text: str) -> ScriptoriumState:
        fields = read_fields(text, "scriptorium", _KEYS)
        n = _parse_int(fields["players"], 2, 6)
        if n is None:
            raise BadPosition("players must be 2 to 6")
        limit = _parse_int(fields["round_limit"], 1, ROUND_LIMIT_MAX)
        if limit is None:
            raise BadPosition("bad round_limit")
        try:
            opts, _ = self.resolve({"outer_line": fields["outer_line"], "round_limit": limit,
                                    "start": fields["start"]}, n)
        except ValueError as exc:
            raise BadPosition(str(exc)) from None
        phase = fields["phase"]
        if phase not in PHASES:
            raise BadPosition(f"unknown phase {phase!r}")
        rnd = _parse_int(fields["round"], 0, limit)
        if rnd is None:
            raise BadPosition("bad round")

        def player(v: str) -> int:
            if v == "-":
                return -1
            if v not in COLOURS[:n]:
                raise BadPosition(f"no player {v!r} in a {n}-player game")
            return COLOURS.index(v)

        first, turn, winner = player(fields["first"]), player(fields["turn"]), player(fields["winner"])
        off = _parse_offsets(fields["offsets"])
        if off is None:
            raise BadPosition("offsets are four numbers 0-11: centre,inner,middle,outer")
        if fields["active"] not in ("centre", "inner", "outer"):
            raise BadPosition("the active part is centre, inner or outer")
        active = PART_NAMES.index(fields["active"])
        pawns = _locations(fields["pawns"])
        if pawns is None or len(pawns) != n:
            raise BadPosition(f"pawns lists {n} locations (hub, i0..i11, m0..m11, o0..o11)")
        on_board = [p for p in pawns if p != HUB]
        if len(set(on_board)) != len(on_board):
            raise BadPosition("two pawns on one space")
        pins: tuple[int, ...] = ()
        if fields["pins"] != "-":
            read = _locations(fields["pins"])
            if read is None or any(p == HUB or p // N != OUTER for p in read):
                raise BadPosition("black pins stand on Outer spaces only")
            pins = read
            if list(pins) != sorted(set(pins)):
                raise BadPosition("pins are listed once each, in order")
            if set(pins) & set(on_board):
                raise BadPosition("a pawn and a black pin on one space")
            for p in pins:
                if B.COLOUR[OUTER][off[OUTER]][p % N] >= n:
                    raise BadPosition(f"the pin on {B.location_text(p)} marks the colour of no player")
        die = -1 if fields["die"] == "-" else (COLOURS.index(fields["die"]) if fields["die"] in COLOURS else None)
        if die is None:
            raise BadPosition("bad die")
        number = 0 if fields["number"] == "-" else _parse_int(fields["number"], 1, 6)
        if number is None:
            raise BadPosition("bad number")
        pending = -1 if fields["pending"] == "-" else (
            PART_NAMES.index(fields["pending"]) if fields["pending"] in ("inner", "middle", "outer") else None)
        if pending is None:
            raise BadPosition("the pending part is inner, middle or outer")
        # consistency of the phase with its fields
        started = phase not in SETUP_PHASES and phase != "first"
        if started != (first >= 0) or started != (turn >= 0):
            raise BadPosition("first and turn are set once the game has started, and only then")
        if phase == "move" and die < 0:
            raise BadPosition("a move needs the colour the die showed")
        if phase in ("number", "rotate") and pending < 0:
            raise BadPosition("the number die is rolled for the circle the pawn left")
        if phase not in ("number", "rotate") and pending >= 0:
            raise BadPosition("a pending part only while a circle change is being resolved")
        if phase == "rotate" and number == 0:
            raise BadPosition("a die rotation needs the number rolled")
        if winner >= 0 and phase != "over":
            raise BadPosition("a winner only when the game is over")
        if phase == "over" and winner < 0 and rnd != limit:
            raise BadPosition("a game over without a winner ends at the round limit")
        if rnd >= limit and phase != "over":
            raise BadPosition("the round limit has been reached: the game is over")
        if not started and (rnd or any(p != HUB for p in pawns) or pins or die >= 0 or number):
            raise BadPosition("before the start every pawn is on the hub")
        if phase in SETUP_PHASES and (opts["start"] != "random" or active != CENTRE):
            raise BadPosition("setting the board happens only with start=random")
        if phase in SETUP_PHASES:
            unset = off[SETUP_PHASES.index(phase):]
            if any(unset):
                raise BadPosition("parts not set yet read offset 0")
        if phase == "clock" and ((turn + 1) % n != first or rnd == 0):
            raise BadPosition("the clock turns after a full round, by the player who closed it")
        if phase == "clock" and B.is_aligned(off):
            raise BadPosition("an aligned board never turns again")
        if phase in ("number", "rotate") and B.is_aligned(off):
            raise BadPosition("an aligned board never turns again")
        if phase in ("number", "rotate") and pawns[turn] != HUB and pawns[turn] // N == pending:
            raise BadPosition("the pawn has left the circle that turns")
        state = ScriptoriumState(opts, n, phase, off, active, pawns, pins, first, turn, rnd, die, number, pending,
                                 winner)
        if phase == "move" and not state.targets(turn, die):
            raise BadPosition("no legal move on that colour: the turn would have ended")
        if winner >= 0 and (pawns[winner] != HUB or state.visited(winner) < 2 or not B.is_aligned(off)):
            raise BadPosition("a winner has visited both Outer spaces and reached the hub on an aligned board")
        return state

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        _, n = self.resolve(options, num_players)
        chans = [Channel(name, ChannelKind.OFFSET, N - 1) for name in _ENC]
        chans += [Channel(_POS[r * N + p], ChannelKind.PRESENCE, 1) for r in RINGS for p in range(N)]
        chans.append(Channel("hub", ChannelKind.COUNT, n))
        return chans

    def channel_positions(self, options: Options | None = None,
                          num_players: int | None = None) -> dict[str, tuple[float, float]]:
        # Position 0 at the top, counting clockwise; the Middle sits half a space off.
        out: dict[str, tuple[float, float]] = {"hub": (0.0, 0.0)}
        for radius, r in enumerate(RINGS, start=1):
            shift = 0.5 if r == MIDDLE else 0.0
            for p in range(N):
                angle = math.radians(90 - (p + shift) * 360 / N)
                out[_POS[r * N + p]] = (radius * math.cos(angle), radius * math.sin(angle))
        for k, name in enumerate(_ENC):  # each encoder's turn indicator in a row below the board
            out[name] = (-3.5, -4.0 - 0.5 * k)
        return out

    def configurations(self) -> Sequence[tuple[dict[str, Any], int]]:
        base = self.default_options()
        return [
            *((dict(base), n) for n in range(2, 7)),
            ({**base, "outer_line": "either"}, 3),
            ({**base, "start": "0,3,5,8", "round_limit": 40}, 4),
        ]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        # setup (4 parts + who starts), then per round: every player rolls, moves, rolls the number
        # die and turns a circle (4 actions at most), and the clock turns once.
        return 5 + opts["round_limit"] * (4 * n + 1)

