"""Jeocinco's actions: one value per kind, each equal to the tagged tuple it replaces
(``Place("place", 12) == ("place", 12)``), and their texts.

Every action a position can offer exists once, in the tables here (``PLACES[s]``, ``BRIDGES[k]``,
...): the legal lists are built from them, never from new values.
"""

from __future__ import annotations

import functools
from typing import Literal, NamedTuple, TypeGuard

from controller.games.base import IllegalAction, Phrase
from controller.games.jeocinco import board as B


class Dice(NamedTuple):
    """Chance: the two dice of a turn."""

    kind: Literal["dice"]
    number: int
    letter: int


class Die(NamedTuple):
    """Chance: the number die alone (an opening roll, a roll of a dispute)."""

    kind: Literal["die"]
    value: int


class ChooseColour(NamedTuple):
    kind: Literal["colour"]
    colour: int
    """0..3 = N E S W"""


class Place(NamedTuple):
    """Put a piece in an empty slot."""

    kind: Literal["place"]
    slot: int


class Dispute(NamedTuple):
    """Challenge the piece in a slot."""

    kind: Literal["dispute"]
    slot: int


class Tower(NamedTuple):
    """The tower replaces the piece in ``slot`` of the completed ``pentagon``."""

    kind: Literal["tower"]
    pentagon: int
    slot: int


class Bridge(NamedTuple):
    """Lay bridge ``bridge`` of ``board.BRIDGE_SLOTS``."""

    kind: Literal["bridge"]
    bridge: int


class Done(NamedTuple):
    """End the turn with bridges still in hand."""

    kind: Literal["done"]


JeocincoAction = Dice | Die | ChooseColour | Place | Dispute | Tower | Bridge | Done

DICE_OUTCOMES: tuple[Dice, ...] = tuple(Dice("dice", n, c) for n in range(1, 7) for c in range(6))
DIE_OUTCOMES: tuple[Die, ...] = tuple(Die("die", v) for v in range(1, 7))
COLOUR_CHOICES: tuple[ChooseColour, ...] = tuple(ChooseColour("colour", c) for c in range(4))
PLACES: tuple[Place, ...] = tuple(Place("place", s) for s in range(B.NUM_SLOTS))
DISPUTES: tuple[Dispute, ...] = tuple(Dispute("dispute", s) for s in range(B.NUM_SLOTS))
TOWERS: tuple[tuple[Tower, ...], ...] = tuple(tuple(Tower("tower", q, s) for s in B.PENT_SLOTS[q])
                                              for q in range(B.NUM_PENTS))
"""Per pentagon, a tower on each of its sides."""
BRIDGES: tuple[Bridge, ...] = tuple(Bridge("bridge", k) for k in range(B.NUM_BRIDGES))
DONE: Done = Done("done")

_ARITY = {"dice": 2, "die": 1, "colour": 1, "place": 1, "dispute": 1, "tower": 2, "bridge": 1, "done": 0}
"""Each action kind and how many whole numbers follow it."""


def is_action(action: object) -> TypeGuard[JeocincoAction]:
    """Whether ``action`` has the shape of a Jeocinco action (its numbers not yet checked)."""
    if not (isinstance(action, tuple) and len(action) >= 1 and action[0] in _ARITY
            and len(action) == 1 + _ARITY[action[0]]):
        return False
    for x in action[1:]:  # noqa: SIM110  # a loop: all() over a generator costs 3 times as much (every outcome told)
        if not isinstance(x, int) or isinstance(x, bool):
            return False
    return True


# --------------------------------------------------------------------------- texts

def number_text(v: int) -> str:
    return "*" if v == B.WILD else str(v)


def letter_text(v: int) -> str:
    return "+" if v == B.PLUS else B.LETTERS[v]


def roll_text(number: int, letter: int) -> str:
    return number_text(number) + letter_text(letter)


def number_from_text(ch: str) -> int:
    if ch == "*":
        return B.WILD
    if ch in "12345":
        return int(ch)
    raise ValueError(ch)


def letter_from_text(ch: str) -> int:
    return B.PLUS if ch == "+" else B.LETTERS.index(ch)


_SLOT_ALIASES: dict[str, int] = {}
for _i, _name in enumerate(B.SLOT_NAMES):
    _a, _b = _name.split("-")
    _SLOT_ALIASES[_name.upper()] = _i
    if len(_b) >= 3:  # shared slot: either order
        _SLOT_ALIASES[f"{_b}-{_a}".upper()] = _i


def slot_from_text(word: str) -> int:
    """The slot a name gives, in any case, a shared slot's two pentagons in either order."""
    return _SLOT_ALIASES[word.upper()]


@functools.lru_cache(maxsize=1024)
def action_text(action: JeocincoAction) -> str:
    """The action's text (kept for the last 1024 asked: every state at the dice lists the dice's
    outcomes, a few dozen, in the state told)."""
    if action[0] == "dice":
        return "roll " + roll_text(action[1], action[2])
    if action[0] == "die":
        return "roll " + number_text(action[1])
    if action[0] == "colour":
        return "colour " + B.COLOURS[action[1]]
    if action[0] == "place" or action[0] == "dispute":
        return f"{action[0]} {B.SLOT_NAMES[action[1]]}"
    if action[0] == "tower":
        return f"tower {B.PENT_NAMES[action[1]]} {B.SLOT_NAMES[action[2]]}"
    if action[0] == "bridge":
        return "bridge " + B.BRIDGE_NAMES[action[1]]
    return "done"


NOT_A_TEXT = Phrase("jeocinco.not_a_text", "an action is a text")
UNREADABLE = Phrase("jeocinco.unreadable", "not a Jeocinco action (e.g. 'place C3N-C3E', 'roll 3C', 'done')")
UNREADABLE_KIND = Phrase("jeocinco.unreadable_kind",
                         "not a Jeocinco action (e.g. 'place C3N-C3E', 'dispute C3N-C3E', 'roll 3C', "
                         "'tower C3N C3N-C3E', 'bridge A1N-nw~A1S-se', 'done')")


def action_from_text(text: str) -> JeocincoAction:
    """The action a text names (``IllegalAction`` when it names none); a bare slot name is a placement."""
    if not isinstance(text, str):
        raise IllegalAction(repr(text), NOT_A_TEXT())
    words = text.strip().split()
    if not words or len(words) > 3:
        raise IllegalAction(text, UNREADABLE())
    head = words[0].lower()
    try:
        if head == "roll" and len(words) == 2:
            roll = words[1].upper()
            if len(roll) == 1:
                return DIE_OUTCOMES[number_from_text(roll) - 1]
            if len(roll) == 2:
                return Dice("dice", number_from_text(roll[0]), letter_from_text(roll[1]))
        elif head in ("colour", "color") and len(words) == 2:
            return COLOUR_CHOICES[B.COLOURS.index(words[1].upper())]
        elif head == "place" and len(words) == 2:
            return PLACES[slot_from_text(words[1])]
        elif head == "dispute" and len(words) == 2:
            return DISPUTES[slot_from_text(words[1])]
        elif len(words) == 1 and head != "done":
            return PLACES[slot_from_text(words[0])]
        elif head == "tower" and len(words) == 3:
            return Tower("tower", B.PENT_INDEX[words[1].upper()], slot_from_text(words[2]))
        elif head == "bridge" and len(words) == 2:
            a, b = words[1].split("~")
            return BRIDGES[B.BRIDGE_INDEX[frozenset((slot_from_text(a), slot_from_text(b)))]]
        elif head == "done" and len(words) == 1:
            return DONE
    except (ValueError, KeyError, IndexError):
        pass
    raise IllegalAction(text, UNREADABLE_KIND())
