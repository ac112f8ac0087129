"""Contigo's actions in words (``rojo mueve dos cuentas de s-c a s-e``), from their public texts."""

from __future__ import annotations

from typing import Final

from controller.games.base import IllegalAction, Message, Phrase, Plural
from controller.games.contigo.actions import parse_action
from controller.games.contigo.board import PIT_INDEX, PIT_NAMES, SQUARE_NAMES
from controller.games.words import STARTS, notation, seat

MOVE: Final = Phrase("contigo.say.move", "{player} moves a piece from {src} to {dst}")
CAPTURE: Final = Phrase("contigo.say.capture", "{player} captures on {dst} with the piece from {src}")
PASS: Final = Phrase("contigo.say.pass", "{player} passes a piece from {src} to {dst}")
BEADS: Final = Plural("contigo.say.beads", "{player} moves one bead from {src} to {dst}",
                      "{player} moves {count} beads from {src} to {dst}")
SPREAD: Final = Phrase("contigo.say.spread", "{player} moves {count} beads from {src}: {drops}")
INTO: Final = Plural("contigo.say.into", "one into {pit}", "{count} into {pit}")
TAKE: Final = Plural("contigo.say.take", "{player} takes one bead from {pit}",
                     "{player} takes {count} beads from {pit}")
DROP: Final = Plural("contigo.say.drop", "{player} drops one bead into {pit}",
                     "{player} drops {count} beads into {pit}")


def action_words(text: str, player: int | None) -> Message:
    """What ``text`` (``player``'s move, or None: the chance of who starts) says, in words."""
    try:
        action = parse_action(text, 4)
    except IllegalAction:
        return notation(text, player)
    if action[0] == "start":
        return STARTS(player=seat(action[1]))
    who = seat(-1 if player is None else player)
    if action[0] in ("m", "p"):
        phrase = PASS if action[0] == "p" else CAPTURE if "x" in text else MOVE
        return phrase(player=who, src=SQUARE_NAMES[action[1]], dst=SQUARE_NAMES[action[2]])
    if action[0] == "b":
        pit, drops = action[1], action[2]
        if len(drops) == 1:
            return BEADS(player=who, count=drops[0][1], src=PIT_NAMES[pit], dst=PIT_NAMES[drops[0][0]])
        # said in the order the text gives, round the ring from the source
        order = [PIT_INDEX[part.split()[0]] for part in text.lower().split(">", 1)[1].split(",")]
        count = dict(drops)
        return SPREAD(player=who, count=sum(count.values()), src=PIT_NAMES[pit],
                      drops=tuple(INTO(count=count[d], pit=PIT_NAMES[d]) for d in order))
    return (TAKE if action[0] == "t" else DROP)(player=who, count=action[2], pit=PIT_NAMES[action[1]])
