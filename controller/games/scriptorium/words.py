"""Scriptorium's actions in words (``sale naranja en el dado de colores``, ``el círculo interior
gira a la izquierda tres espacios``), from their public texts."""

from __future__ import annotations

from typing import Final

from controller.games.base import Message, Phrase, Plural
from controller.games.scriptorium.actions import parse_action
from controller.games.scriptorium.board import COLOURS, HUB, PART_NAMES, location_text
from controller.games.words import STARTS, WAYS, notation, seat

MOVE: Final = Phrase("scriptorium.say.move", "{player} moves the pawn from {source} to {target}")
FROM_HUB: Final = Phrase("scriptorium.say.from_hub", "{player} moves the pawn from the black centre to {target}")
TO_HUB: Final = Phrase("scriptorium.say.to_hub", "{player} moves the pawn from {source} to the black centre")
TURN: Final = Plural("scriptorium.say.turn", "{part} turns {way} one space", "{part} turns {way} {count} spaces")
COLOUR: Final = Phrase("scriptorium.say.colour", "the colour die gives {colour}")
NUMBER: Final = Phrase("scriptorium.say.number", "the number die gives {number}")
SET: Final = Phrase("scriptorium.say.set", "{part} starts at position {offset}")
PARTS: Final = (Phrase("scriptorium.say.centre", "the centre"), Phrase("scriptorium.say.inner", "the inner ring"),
                Phrase("scriptorium.say.middle", "the middle ring"), Phrase("scriptorium.say.outer", "the outer ring"))
"""Each part of ``PART_NAMES`` as the subject of a sentence."""
assert len(PARTS) == len(PART_NAMES)


def action_words(text: str, player: int | None) -> Message:
    """What ``text`` (``player``'s move, or None: a die, who starts, a part set) says, in words."""
    action = parse_action(text, len(COLOURS))
    if action is None:
        return notation(text, player)
    if action[0] == "colour":
        return COLOUR(colour=COLOURS[action[1]])
    if action[0] == "number":
        return NUMBER(number=action[1])
    if action[0] == "first":
        return STARTS(player=seat(action[1]))
    if action[0] == "set":
        return SET(part=PARTS[action[1]](), offset=action[2])
    if action[0] == "turn":
        return TURN(part=PARTS[action[1]](), way=WAYS[action[2]](), count=action[3])
    who = seat(-1 if player is None else player)
    if action[1] == HUB:
        return FROM_HUB(player=who, target=location_text(action[2]))
    if action[2] == HUB:
        return TO_HUB(player=who, source=location_text(action[1]))
    return MOVE(player=who, source=location_text(action[1]), target=location_text(action[2]))
