"""How games say their actions in words, for people: what every game says alike, and the default.

The notation (``beads s-c>s-e 2``, ``roll 3C``) is the record and what a player types; the words
(``rojo mueve dos cuentas de s-c a s-e``) are what events, pages and the voice say. Each game gives
them in its ``words`` module (``Game.action_words``): a :class:`Message` whose ``player`` param is
``player N`` (said as the person, ``controller.i18n``), its other params in the notation or words
the catalogue knows. Numbers stay digits (espeak-ng says them in the voice's language), the
singular said as a word (``one bead``), no symbols.
"""

from __future__ import annotations

from typing import Final

from controller.games.messages import Message, Phrase

PLAYS: Final = Phrase("event.action", "{player} plays {action}")
"""A move said in its notation: the default, for a game without words."""
CHANCE: Final = Phrase("event.chance", "chance gives {outcome}")
STARTS: Final = Phrase("game.say.starts", "{player} starts")
ENDS_TURN: Final = Phrase("game.say.ends_turn", "{player} ends the turn")

WAYS: Final = {
    "straight": Phrase("game.say.way.straight", "straight ahead"),
    "left": Phrase("game.say.way.left", "to the left"), "right": Phrase("game.say.way.right", "to the right"),
    "north": Phrase("game.say.way.north", "to the north"), "east": Phrase("game.say.way.east", "to the east"),
    "south": Phrase("game.say.way.south", "to the south"), "west": Phrase("game.say.way.west", "to the west"),
}
"""A direction said after a verb ("turns to the left", "moves a stick to the north")."""


def seat(player: int) -> str:
    """A player as a message's param: ``player 0``, said as his name, colour or seat from 1."""
    return f"player {player}"


def notation(text: str, player: int | None) -> Message:
    """``text`` said as it is written: ``player``'s move, or a chance outcome (``player`` None)."""
    return CHANCE(outcome=text) if player is None else PLAYS(player=seat(player), action=text)
