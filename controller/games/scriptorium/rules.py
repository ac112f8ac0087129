"""Scriptorium's rules: who acts, the legal actions, what a legal action does, and why anything
else is refused (every refusal a :class:`Phrase` of the table below, its params in the game's words).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import CHANCE, GAME_OVER, TERMINAL, IllegalAction, Message, Phrase
from controller.games.scriptorium.actions import (
    First,
    Move,
    RollColour,
    RollNumber,
    ScriptoriumAction,
    SetPart,
    Turn,
    parse_action,
)
from controller.games.scriptorium.board import (
    CENTRE,
    COLOURS,
    DIE_FACES,
    HUB,
    HUB_GATE,
    INNER,
    NEIGHBOURS,
    OUTER,
    PART_NAMES,
    PART_TITLES,
    N,
    condition_holds,
    is_aligned,
    location_text,
    player_name,
    rotate_location,
)
from controller.games.scriptorium.position import CHANCE_PHASES, NOBODY, SETUP_PHASES, Position

CLOCK_ORDER = {CENTRE: INNER, INNER: OUTER, OUTER: CENTRE}
"""The part the sync clock passes to when the active one is in sync."""


# --- what the game waits for (said in refusals and on the terminal) -------------------------
SETTING = Phrase("scriptorium.waiting.setting", "the {part} is being set for the start")
WHO_STARTS = Phrase("scriptorium.waiting.first", "the roll for who starts")
ROLLS_COLOUR = Phrase("scriptorium.waiting.roll", "{player} rolls the colour die")
MOVES = Phrase("scriptorium.waiting.move", "{player} moves the pawn to a {colour} space")
ROLLS_NUMBER = Phrase("scriptorium.waiting.number", "{player} rolls the number die for the {part}")
MUST_TURN = Phrase("scriptorium.waiting.rotate", "the {part} must turn left {spaces}")
CLOCK_TURNS = Phrase("scriptorium.waiting.clock", "the sync clock turns the {part} left 1")

# --- refusals -------------------------------------------------------------------------------
NOT_AN_ACTION = Phrase("scriptorium.not_an_action", "that is not a Scriptorium action")
NO_SUCH_TEXT = Phrase("scriptorium.no_such_text", "names no Scriptorium action (examples: 'roll blue', 'hub-i4', "
                                                  "'i3-m2',"
                                       " 'number 4', 'turn inner left 4')")
NO_SUCH_ACTION = Phrase("scriptorium.no_such_action", "the rules allow no such action here")
SET_IN_ORDER = Phrase("scriptorium.set_in_order", "the board is set part by part: the {part} comes next")
CHANCE_NOT_NEXT = {
    "set": Phrase("scriptorium.setting_not_next", "setting the board is not what comes next: {next}"),
    "first": Phrase("scriptorium.first_not_next", "the roll for who starts is not what comes next: {next}"),
    "colour": Phrase("scriptorium.colour_not_next", "a roll of the colour die is not what comes next: {next}"),
    "number": Phrase("scriptorium.number_not_next", "a roll of the number die is not what comes next: {next}"),
}
DIE_DECIDES = Phrase("scriptorium.die_decides", "a die decides now: {next}")
NO_MOVE_NOW = Phrase("scriptorium.no_move_now", "no pawn moves now: {next}")
MOVE_SHAPE = Phrase("scriptorium.move_shape", "a move names where the pawn is and where it goes")
PAWN_ELSEWHERE = Phrase("scriptorium.pawn_elsewhere", "{player}'s pawn is on {at}, not on {source}")
ALREADY_ON_HUB = Phrase("scriptorium.already_on_hub", "the pawn is already on the hub")
HUB_FROM_INNER = Phrase("scriptorium.hub_from_inner", "only an Inner space leads to the hub")
SECTOR_CLOSED = Phrase("scriptorium.sector_closed", "the Centre sector at position {sector} shows {shown}, not "
                                                    "{rolled}:"
                                         " no way into the hub from {source}")
HUB_TO_INNER = Phrase("scriptorium.hub_to_inner", "from the hub a pawn goes only to an Inner space")
MUST_ENTER_HUB = Phrase("scriptorium.must_enter_hub", "the Centre sector at position {sector} shows {rolled}, so the "
                                                      "pawn on"
                                           " {source} must go to the hub")
NO_LINE = Phrase("scriptorium.no_line", "no black line joins {source} and {target}")
WRONG_COLOUR = Phrase("scriptorium.wrong_colour", "{target} is {colour}, but the colour die shows {rolled}")
PINNED = Phrase("scriptorium.pinned", "{target} is a dead space: a black pin marks it")
OCCUPIED = Phrase("scriptorium.occupied", "{target} is a dead space: {player}'s pawn is on it")
TURN_SHAPE = Phrase("scriptorium.turn_shape", "a turn names the part, the direction and the number of spaces")
NO_TURN_NOW = Phrase("scriptorium.no_turn_now", "no part turns now: {next}")
WRONG_CIRCLE = Phrase("scriptorium.wrong_circle", "the {part} circle (the one the pawn left) must turn, not the "
                                                  "{turned}")
CLOCK_PART = Phrase("scriptorium.clock_part", "the sync clock turns the active part, the {part}, not the {turned}")
TURN_LEFT = Phrase("scriptorium.turn_left", "the {part} turns left (clockwise, the way the play goes round), not "
                                            "{direction}")
DIE_SPACES = Phrase("scriptorium.die_spaces", "the number die shows {number}: the {part} turns {number} spaces, not "
                                              "{spaces}")
DIE_SPACE = Phrase("scriptorium.die_space", "the number die shows 1: the {part} turns 1 space, not {spaces}")
CLOCK_SPACES = Phrase("scriptorium.clock_spaces", "the sync clock turns one space per round: the {part} turns 1 space,"
                                       " not {spaces}")


# --- who acts, and what -------------------------------------------------------------------------

def current_player(position: Position) -> int:
    if position.phase == "over":
        return TERMINAL
    if position.phase in CHANCE_PHASES:
        return CHANCE
    return position.turn


# Every action a decision can offer, made once: a legal list is built of these, not of new tuples.
_LOCATIONS = (HUB, *range(N, 4 * N))
_MOVES = {a: {b: Move("move", a, b) for b in _LOCATIONS} for a in _LOCATIONS}
"""``_MOVES[source][target]``."""
_TURNS = tuple(tuple((Turn("turn", part, "left", k),) for k in range(N)) for part in range(4))
"""``_TURNS[part][spaces]``: the one legal action of a part that must turn (spaces 1..N-1)."""
_ROLLS = tuple(RollColour("colour", c) for c in range(len(COLOURS)))
_NUMBERS = tuple(RollNumber("number", k) for k in DIE_FACES)
_FIRSTS = tuple(First("first", p) for p in range(len(COLOURS)))
_SETS = tuple(tuple(SetPart("set", part, o) for o in range(N)) for part in range(4))


def legal_actions(position: Position) -> Sequence[ScriptoriumAction]:
    """The legal actions, in a stable order (shared: copy before changing)."""
    phase = position.phase
    if phase == "roll":
        return _ROLLS
    if phase == "move":
        turn = position.turn
        moves = _MOVES[position.pawns[turn]]
        return [moves[d] for d in position.targets(turn, position.die)]
    if phase == "number":
        return _NUMBERS
    if phase == "rotate":
        return _TURNS[position.pending][position.number]
    if phase == "clock":
        return _TURNS[position.active][1]
    if phase == "first":
        return _FIRSTS[:position.players]
    if phase in SETUP_PHASES:
        return _SETS[SETUP_PHASES.index(phase)]
    return ()


def waiting_for(position: Position) -> Message:
    """What the game waits for now."""
    phase = position.phase
    if phase in SETUP_PHASES:
        return SETTING(part=phase[6:])
    if phase == "first":
        return WHO_STARTS()
    player = player_name(position.turn)
    if phase == "roll":
        return ROLLS_COLOUR(player=player)
    if phase == "move":
        return MOVES(player=player, colour=COLOURS[position.die])
    if phase == "number":
        return ROLLS_NUMBER(player=player, part=PART_NAMES[position.pending])
    if phase == "rotate":
        return MUST_TURN(part=PART_NAMES[position.pending], spaces=position.number)
    if phase == "clock":
        return CLOCK_TURNS(part=PART_NAMES[position.active])
    return GAME_OVER()


def action_from_text(position: Position, text: str) -> ScriptoriumAction:
    """The action a text names, legal or not; :class:`IllegalAction` when it names none."""
    action = parse_action(text, position.players)
    if action is None:
        raise IllegalAction(text, NO_SUCH_TEXT())
    return action


# --- the effect of a legal action ----------------------------------------------------------------

def apply_legal(position: Position, action: ScriptoriumAction) -> Position:
    """The position after ``action``, one of :func:`legal_actions` (unchecked)."""
    if action.kind == "colour":
        rolled = position._replace(die=action.colour, number=0, pending=NOBODY)
        if rolled.targets(position.turn, action.colour):
            return rolled._replace(phase="move")
        return _end_turn(rolled)
    if action.kind == "move":
        return _moved(position, action.source, action.target)
    if action.kind == "number":
        return position._replace(phase="rotate", number=action.spaces)
    if action.kind == "turn":
        turned = _rotated(position, action.part, action.spaces)
        if position.phase == "clock":
            return turned._replace(phase="roll", turn=position.first, pending=NOBODY)
        return _end_turn(turned)
    if action.kind == "first":
        return position._replace(phase="roll", first=action.player, turn=action.player)
    offsets = list(position.offsets)
    offsets[action.part] = action.offset
    c, i, m, o = offsets
    following = "first" if action.part == OUTER else SETUP_PHASES[action.part + 1]
    return position._replace(phase=following, offsets=(c, i, m, o))


def _moved(position: Position, source: int, target: int) -> Position:
    player = position.turn
    pins = position.pins
    if source != HUB and source // N == OUTER and position.colour_of(source) == player:
        pins = tuple(sorted((*pins, source)))
    pawns = (*position.pawns[:player], target, *position.pawns[player + 1:])
    aligned = is_aligned(position.offsets)
    moved = position._replace(pawns=pawns, pins=pins)
    if target == HUB and aligned and moved.visited(player) >= 2:
        return moved._replace(phase="over", winner=player)
    changes_circle = source != HUB and (target == HUB or target // N != source // N)
    if changes_circle and not aligned:
        return moved._replace(phase="number", pending=source // N)
    return _end_turn(moved)


def _rotated(position: Position, part: int, spaces: int) -> Position:
    """The board after ``part`` turns left ``spaces``; pawns and pins on it turn with it. Then
    alignment is checked, and the active part hands over if its condition holds."""
    offsets = list(position.offsets)
    offsets[part] = (offsets[part] + spaces) % N
    c, i, m, o = offsets
    turned = (c, i, m, o)
    pawns, pins = position.pawns, position.pins
    if part != CENTRE:
        pawns = tuple(rotate_location(p, part, spaces) for p in pawns)
        if part == OUTER and pins:
            pins = tuple(sorted(rotate_location(p, part, spaces) for p in pins))
    active = position.active
    if not is_aligned(turned) and condition_holds(turned, active, position.options["outer_line"]):
        active = CLOCK_ORDER[active]
    return position._replace(offsets=turned, pawns=pawns, pins=pins, active=active)


def _end_turn(position: Position) -> Position:
    following = (position.turn + 1) % position.players
    if following != position.first:
        return position._replace(phase="roll", turn=following, pending=NOBODY)
    rounds = position.rounds_played + 1
    if rounds >= position.options["round_limit"]:
        return position._replace(phase="over", rounds_played=rounds, pending=NOBODY, winner=NOBODY)
    if is_aligned(position.offsets):
        return position._replace(phase="roll", turn=following, rounds_played=rounds, pending=NOBODY)
    return position._replace(phase="clock", rounds_played=rounds, pending=NOBODY)


# --- outcome -------------------------------------------------------------------------------

def returns(position: Position) -> list[float]:
    if position.phase != "over" or position.winner < 0:
        return [0.0] * position.players
    return [1.0 if p == position.winner else -1.0 for p in range(position.players)]


def scores(position: Position) -> list[float]:
    return [float(position.visited(p) + (1 if p == position.winner else 0)) for p in range(position.players)]


# --- refusals -----------------------------------------------------------------------------------

def why_illegal(position: Position, action: object) -> Message:
    """Why ``action`` (not one of :func:`legal_actions`) is refused here."""
    if position.phase == "over":
        return GAME_OVER()
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        return NOT_AN_ACTION()
    try:
        return _refusal(position, action) or NO_SUCH_ACTION()
    except (IndexError, KeyError, TypeError, ValueError):
        return NOT_AN_ACTION()


def _refusal(position: Position, action: tuple[object, ...]) -> Message | None:
    phase, kind = position.phase, action[0]
    if kind in CHANCE_NOT_NEXT:
        expected = {"roll": "colour", "number": "number", "first": "first"}
        if phase in CHANCE_PHASES and (expected.get(phase) == kind or (kind == "set" and phase in SETUP_PHASES)):
            if kind == "set" and len(action) == 3 and action[1] != SETUP_PHASES.index(phase):
                return SET_IN_ORDER(part=phase[6:])
            return None
        return CHANCE_NOT_NEXT[str(kind)](next=waiting_for(position))
    if phase in CHANCE_PHASES:
        return DIE_DECIDES(next=waiting_for(position))
    if kind == "move":
        if phase != "move":
            return NO_MOVE_NOW(next=waiting_for(position))
        if len(action) != 3:
            return MOVE_SHAPE()
        _, source, target = action
        return _move_refusal(position, source, target)  # type: ignore[arg-type]
    if kind == "turn":
        if len(action) != 4:
            return TURN_SHAPE()
        _, part, direction, spaces = action
        return _turn_refusal(position, part, direction, spaces)  # type: ignore[arg-type]
    return NOT_AN_ACTION()


def _move_refusal(position: Position, source: int, target: int) -> Message | None:
    at = position.pawns[position.turn]
    if source != at:
        return PAWN_ELSEWHERE(player=player_name(position.turn), at=location_text(at), source=location_text(source))
    rolled = COLOURS[position.die]
    if target == HUB:
        if source == HUB:
            return ALREADY_ON_HUB()
        if source // N != INNER:
            return HUB_FROM_INNER()
        gate = HUB_GATE[source % N]
        shown = position.colour_of_sector(gate)
        if shown != position.die:
            return SECTOR_CLOSED(sector=gate, shown=COLOURS[shown], rolled=rolled, source=location_text(source))
        return None
    if source == HUB:
        if target // N != INNER:
            return HUB_TO_INNER()
    else:
        if source // N == INNER:
            sector = HUB_GATE.get(source % N)
            if sector is not None and position.colour_of_sector(sector) == position.die:
                return MUST_ENTER_HUB(sector=sector, rolled=rolled, source=location_text(source))
        if target not in NEIGHBOURS[source]:
            return NO_LINE(source=location_text(source), target=location_text(target))
    colour = position.colour_of(target)
    if colour != position.die:
        return WRONG_COLOUR(target=location_text(target), colour=COLOURS[colour],  # type: ignore[index]
                            rolled=rolled)
    if target in position.pins:
        return PINNED(target=location_text(target))
    if target in position.pawns:
        return OCCUPIED(target=location_text(target), player=player_name(position.pawns.index(target)))
    return None


def _turn_refusal(position: Position, part: int, direction: str, spaces: int) -> Message | None:
    phase = position.phase
    if phase == "rotate":
        want, needed = position.pending, position.number
        if part != want:
            return WRONG_CIRCLE(part=PART_TITLES[want], turned=PART_TITLES[part])
    elif phase == "clock":
        want, needed = position.active, 1
        if part != want:
            return CLOCK_PART(part=PART_TITLES[want], turned=PART_TITLES[part])
    else:
        return NO_TURN_NOW(next=waiting_for(position))
    title = PART_TITLES[want]
    if direction != "left":
        return TURN_LEFT(part=title, direction=direction)
    if spaces != needed:
        if phase == "clock":
            return CLOCK_SPACES(part=title, spaces=spaces)
        return (DIE_SPACES if needed > 1 else DIE_SPACE)(number=needed, part=title, spaces=spaces)
    return None
