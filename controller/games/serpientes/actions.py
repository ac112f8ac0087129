"""Serpientes actions: one value per kind, each equal to the tagged tuple it stands for
(``Token("token", 12) == ("token", 12)``), and their texts.

A card is named by its index in the variant's kinds (``board.RELATIVE_KINDS`` or
``board.ABSOLUTE_KINDS``); texts name it by its word (``step left``, ``add north``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple, TypeGuard

from controller.games.base import IllegalAction, Phrase
from controller.games.serpientes import board as B


class Token(NamedTuple):
    """Chance: a token placed on ``node``."""

    kind: Literal["token"]
    node: int


class First(NamedTuple):
    """Chance: ``player`` starts."""

    kind: Literal["first"]
    player: int


class Draw(NamedTuple):
    """Chance: a ``card`` (its kind) drawn from the deck, dealt or to the player on turn."""

    kind: Literal["draw"]
    card: int


class Step(NamedTuple):
    """A stick moved by the next card of the running sequence, a ``card`` of that kind."""

    kind: Literal["step"]
    card: int


class Add(NamedTuple):
    """A dealt ``card`` (its kind) added from the hand to the sequence."""

    kind: Literal["add"]
    card: int


DecisionKind = Literal["add", "half-turn", "no-half-turn", "discard", "keep", "done", "run"]


class Decision(NamedTuple):
    """A decision without an argument (``add``: a physical card, unseen)."""

    kind: DecisionKind


SerpientesAction = Token | First | Draw | Step | Add | Decision

ADD_UNSEEN: Final = Decision("add")
HALF_TURN: Final = Decision("half-turn")
NO_HALF_TURN: Final = Decision("no-half-turn")
DISCARD: Final = Decision("discard")
KEEP: Final = Decision("keep")
DONE: Final = Decision("done")
RUN: Final = Decision("run")
DECISIONS: Final = {d.kind: d for d in (ADD_UNSEEN, HALF_TURN, NO_HALF_TURN, DISCARD, KEEP, DONE, RUN)}

# Every action value made once: legal lists are built by indexing these.
TOKENS: Final = tuple(Token("token", n) for n in range(B.SIZE * B.SIZE))
FIRSTS: Final = tuple(First("first", p) for p in range(len(B.SNAKE_COLOURS)))
DRAWS: Final = tuple(Draw("draw", k) for k in range(len(B.ABSOLUTE_KINDS)))
STEPS: Final = tuple(Step("step", k) for k in range(len(B.ABSOLUTE_KINDS)))
ADDS: Final = tuple(Add("add", k) for k in range(len(B.ABSOLUTE_KINDS)))
_WITH_ARGUMENT: Final = ("token", "first", "draw", "step", "add")

NOT_TEXT: Final = Phrase("serpientes.not_text", "an action is given as text")
UNKNOWN_ACTION: Final = Phrase("serpientes.unknown_action",
                               "not a Serpientes action; actions are: token <intersection>, first <player>, "
                               "draw {kinds}, half-turn, no-half-turn, discard, keep, {add}, run, done, step {kinds}")
"""The refusals of a text that names no action (the rules' own refusals are in ``rules``)."""


def is_action(action: object) -> TypeGuard[SerpientesAction]:
    """Whether ``action`` has the shape of a Serpientes action (legal or not)."""
    if not isinstance(action, tuple) or not action:
        return False
    if len(action) == 1:
        return action[0] in DECISIONS
    return (len(action) == 2 and action[0] in _WITH_ARGUMENT
            and isinstance(action[1], int) and not isinstance(action[1], bool))


def action_to_text(action: object, kinds: Sequence[str]) -> str:
    """``token d4``, ``first 2``, ``draw left``, ``step north``, ``add right``, ``run``, ...;
    ``ValueError`` for what is no Serpientes action."""
    if not is_action(action):
        raise ValueError(f"not a Serpientes action: {action!r}")
    if len(action) == 1:
        return action[0]
    if action[0] == "token":
        return f"token {B.node_name(action[1])}"
    if action[0] == "first":
        return f"first {action[1]}"
    return f"{action[0]} {kinds[action[1]]}"


def public_action_text(action: object, kinds: Sequence[str]) -> str:
    """The action as the other players may learn it: a card drawn or added face down is not named
    (``draw``, ``add``); everything else is public (steps reveal their card)."""
    if is_action(action) and action[0] in ("draw", "add"):
        return action[0]
    return action_to_text(action, kinds)


def action_from_text(text: object, kinds: Sequence[str], physical: bool, players: int) -> SerpientesAction:
    """The action ``text`` names (in a variant with these card ``kinds``, ``physical`` cards or
    not, and ``players`` seats); :class:`IllegalAction` when it names none."""
    if not isinstance(text, str):
        raise IllegalAction(repr(text), NOT_TEXT())
    words = text.split()
    if len(words) == 1:
        word = words[0]
        if word in DECISIONS and (word != "add" or physical):
            return DECISIONS[word]
    elif len(words) == 2 and " ".join(words) == text:
        word, argument = words
        if word == "token" and argument in B.NODE_BY_NAME:
            return TOKENS[B.NODE_BY_NAME[argument]]
        if (word == "first" and argument.isascii() and argument.isdigit() and int(argument) < players
                and str(int(argument)) == argument):
            return FIRSTS[int(argument)]
        if argument in kinds:
            card = kinds.index(argument)
            if word == "draw":
                return DRAWS[card]
            if word == "step":
                return STEPS[card]
            if word == "add" and not physical:
                return ADDS[card]
    names = "|".join(kinds)
    raise IllegalAction(text, UNKNOWN_ACTION(kinds=names, add="add" if physical else f"add {names}"))
