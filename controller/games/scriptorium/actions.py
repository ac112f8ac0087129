"""Scriptorium's actions as values, and their texts.

Each kind is a ``NamedTuple`` whose first field is its tag, so it equals (and hashes as) the tagged
tuple records and tests write: ``Move("move", 12, 25) == ("move", 12, 25)``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, TypeGuard

from controller.games.base import parse_int
from controller.games.scriptorium.board import COLOURS, PART_NAMES, N, location_text, parse_location, player_name


class SetPart(NamedTuple):
    """Chance: the table sets a part at the start (``set inner 7``)."""

    kind: Literal["set"]
    part: int
    offset: int


class First(NamedTuple):
    """Chance: who starts (``first blue``)."""

    kind: Literal["first"]
    player: int


class RollColour(NamedTuple):
    """Chance: the colour die (``roll blue``)."""

    kind: Literal["colour"]
    colour: int


class RollNumber(NamedTuple):
    """Chance: the number die (``number 4``)."""

    kind: Literal["number"]
    spaces: int


class Move(NamedTuple):
    """A pawn move between location codes (``i3-m2``, ``hub-i4``, ``i3-hub``)."""

    kind: Literal["move"]
    source: int
    target: int


class Turn(NamedTuple):
    """A rotation the table carries out (``turn inner left 3``)."""

    kind: Literal["turn"]
    part: int
    direction: str
    spaces: int


ScriptoriumAction = SetPart | First | RollColour | RollNumber | Move | Turn

_ARITY = {"set": 2, "first": 1, "colour": 1, "number": 1, "move": 2}


def is_action(action: object) -> TypeGuard[ScriptoriumAction]:
    """Whether ``action`` has the shape of a Scriptorium action (a tagged tuple of the right arity)."""
    if not isinstance(action, tuple) or not action:
        return False
    ints = [x for x in action[1:] if isinstance(x, int) and not isinstance(x, bool)]
    if action[0] == "turn":
        return len(action) == 4 and len(ints) == 2 and isinstance(action[2], str)
    arity = _ARITY.get(action[0]) if isinstance(action[0], str) else None
    return arity is not None and len(action) == 1 + arity == 1 + len(ints)


def action_text(action: object) -> str:
    """The text of an action (``ValueError`` for what is not one)."""
    if not is_action(action):
        raise ValueError(f"not a Scriptorium action: {action!r}")
    if action[0] == "move":
        return f"{location_text(action[1])}-{location_text(action[2])}"
    if action[0] == "turn":
        return f"turn {PART_NAMES[action[1]]} {action[2]} {action[3]}"
    if action[0] == "colour":
        return f"roll {COLOURS[action[1]]}"
    if action[0] == "number":
        return f"number {action[1]}"
    if action[0] == "first":
        return f"first {player_name(action[1])}"
    return f"set {PART_NAMES[action[1]]} {action[2]}"


def whole_number(text: str, lo: int, hi: int) -> int | None:
    """``text`` as a whole number from ``lo`` to ``hi``, else None."""
    try:
        return parse_int(text, lo, hi)
    except ValueError:
        return None


def parse_action(text: object, num_players: int) -> ScriptoriumAction | None:
    """The action a text names (whether legal or not), or None."""
    if not isinstance(text, str):
        return None
    words = text.split(" ")
    if len(words) == 1 and "-" in text:
        a, _, b = text.partition("-")
        source, target = parse_location(a), parse_location(b)
        if source is None or target is None:
            return None
        return Move("move", source, target)
    if len(words) == 2:
        kind, arg = words
        if kind == "roll" and arg in COLOURS:
            return RollColour("colour", COLOURS.index(arg))
        if kind == "number":
            k = whole_number(arg, 1, 6)
            return None if k is None else RollNumber("number", k)
        if kind == "first" and arg in COLOURS[:num_players]:
            return First("first", COLOURS.index(arg))
        return None
    if len(words) == 3 and words[0] == "set" and words[1] in PART_NAMES:
        v = whole_number(words[2], 0, N - 1)
        return None if v is None else SetPart("set", PART_NAMES.index(words[1]), v)
    if len(words) == 4 and words[0] == "turn" and words[1] in PART_NAMES and words[2] in ("left", "right"):
        k = whole_number(words[3], 1, N - 1)
        if k is None:
            return None
        # A half-turn either way is the same turn (the same board): "right 6" is "left 6".
        return Turn("turn", PART_NAMES.index(words[1]), "left" if k == N // 2 else words[2], k)
    return None
