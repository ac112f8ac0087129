"""Jeocinco's actions in words (``sale 3 y C en los dados``, ``verde elige el pentágono este``),
from their public texts."""

from __future__ import annotations

from typing import Final

from controller.games.base import IllegalAction, Message, Phrase
from controller.games.jeocinco import board as B
from controller.games.jeocinco.actions import action_from_text
from controller.games.words import ENDS_TURN, notation, seat

DICE: Final = Phrase("jeocinco.say.dice", "the dice give {number} and {letter}")
DIE: Final = Phrase("jeocinco.say.die", "the number die gives {number}")
COLOUR: Final = Phrase("jeocinco.say.colour", "{player} chooses the {side} pentagon")
PLACE: Final = Phrase("jeocinco.say.place", "{player} places a piece on {slot}")
DISPUTE: Final = Phrase("jeocinco.say.dispute", "{player} disputes the piece on {slot}")
TOWER: Final = Phrase("jeocinco.say.tower", "{player} builds a tower on pentagon {pentagon} in place of the "
                      "piece on {slot}")
BRIDGE: Final = Phrase("jeocinco.say.bridge", "{player} lays a bridge from {a} to {b}")
SIDES: Final = ("north", "east", "south", "west")
"""The pentagons' orientations N E S W, as words the catalogue knows."""


def action_words(text: str, player: int | None) -> Message:
    """What ``text`` (``player``'s move, or None: a roll) says, in words."""
    try:
        action = action_from_text(text)
    except IllegalAction:
        return notation(text, player)
    if action[0] == "dice":
        return DICE(number=B.number_said(action[1]), letter=B.letter_said(action[2]))
    if action[0] == "die":
        return DIE(number=B.number_said(action[1]))
    who = seat(-1 if player is None else player)
    if action[0] == "colour":
        return COLOUR(player=who, side=SIDES[action[1]])
    if action[0] in ("place", "dispute"):
        return (PLACE if action[0] == "place" else DISPUTE)(player=who, slot=B.SLOT_NAMES[action[1]])
    if action[0] == "tower":
        return TOWER(player=who, pentagon=B.PENT_NAMES[action[1]], slot=B.SLOT_NAMES[action[2]])
    if action[0] == "bridge":
        a, b = B.BRIDGE_SLOTS[action[1]]
        return BRIDGE(player=who, a=B.SLOT_NAMES[a], b=B.SLOT_NAMES[b])
    return ENDS_TURN(player=who)
