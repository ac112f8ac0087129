"""Serpientes' actions in words (``azul mueve un palote a la izquierda``, ``se roba una carta``),
from their public texts (a card drawn or added face down is not named)."""

from __future__ import annotations

from typing import Final

from controller.games.base import Message, Phrase
from controller.games.serpientes import board as B
from controller.games.words import ENDS_TURN, STARTS, WAYS, notation, seat

TOKEN: Final = Phrase("serpientes.say.token", "a token goes on {node}")
DRAW: Final = Phrase("serpientes.say.draw", "a card is drawn")
DRAW_CARD: Final = Phrase("serpientes.say.draw_card", "a card is drawn: {card}")
STEP: Final = Phrase("serpientes.say.step", "{player} moves a stick {way}")
ADD: Final = Phrase("serpientes.say.add", "{player} adds a card to the sequence")
ADD_CARD: Final = Phrase("serpientes.say.add_card", "{player} adds a card to the sequence: {card}")
DECIDES: Final = {
    "half-turn": Phrase("serpientes.say.half_turn", "{player} turns the snake around"),
    "no-half-turn": Phrase("serpientes.say.no_half_turn", "{player} does not turn the snake around"),
    "discard": Phrase("serpientes.say.discard", "{player} discards the whole hand"),
    "keep": Phrase("serpientes.say.keep", "{player} keeps the hand"),
    "run": Phrase("serpientes.say.run", "{player} turns up the sequence and moves"),
    "add": ADD, "done": ENDS_TURN,
}
"""The decisions, said with the player who makes them."""
CARDS: Final = (*B.RELATIVE_KINDS, *B.ABSOLUTE_KINDS)


def action_words(text: str, player: int | None) -> Message:
    """What ``text`` (``player``'s move, or None: a token, who starts, a card drawn) says, in words."""
    words = text.split()
    who = seat(-1 if player is None else player)
    if len(words) == 1 and words[0] in DECIDES:
        return DECIDES[words[0]](player=who)
    if words == ["draw"]:
        return DRAW()
    if len(words) == 2:
        kind, argument = words
        if kind == "token" and argument in B.NODE_BY_NAME:
            return TOKEN(node=argument)
        if kind == "first" and argument.isdigit():
            return STARTS(player=seat(int(argument)))
        if argument in CARDS:
            if kind == "draw":
                return DRAW_CARD(card=argument)
            if kind == "step":
                return STEP(player=who, way=WAYS[argument]())
            if kind == "add":
                return ADD_CARD(player=who, card=argument)
    return notation(text, player)
