"""Contigo's actions: one value per kind, each equal to the tagged tuple records and tests use
(``Move("m", 14, 26) == ("m", 14, 26)``), and their texts (``c3-c5``, ``beads n-a>n-c 2``)."""

from __future__ import annotations

from typing import Literal, NamedTuple, TypeGuard

from controller.games.base import IllegalAction, Phrase
from controller.games.contigo.board import (
    COLORS,
    NPITS,
    NSQ,
    PIT_INDEX,
    PIT_NAMES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    ring_distance,
)

Drops = tuple[tuple[int, int], ...]
"""(pit, beads) per pit a bead move drops into, pits in ring order."""


class Start(NamedTuple):
    """Chance: who starts (the hidden bead)."""

    kind: Literal["start"]
    player: int


class Move(NamedTuple):
    """A pawn move: from square, to square (a capture when an enemy is there)."""

    kind: Literal["m"]
    src: int
    dst: int


class Pass(NamedTuple):
    """Capture game: the double on ``src`` hands its second man to the single on ``dst``."""

    kind: Literal["p"]
    src: int
    dst: int


class Beads(NamedTuple):
    """A bead move in one action: from pit, drops (the alignment game's k beads go into one pit)."""

    kind: Literal["b"]
    src: int
    drops: Drops


class Take(NamedTuple):
    """Capture game: pick up that many ``beads`` from pit ``pit``."""

    kind: Literal["t"]
    pit: int
    beads: int


class Drop(NamedTuple):
    """Capture game: drop that many of the ``beads`` in the hand into pit ``pit``."""

    kind: Literal["d"]
    pit: int
    beads: int


ContigoAction = Start | Move | Pass | Beads | Take | Drop

NOT_A_STRING = Phrase("contigo.not_a_string", "an action text must be a string")
NO_SUCH_ACTION = Phrase("contigo.no_such_action", "names no Contigo action (try c3-c5, c3xc5, pass d1-d4,"
                                                  " beads n-a>n-c 2, take n-f 3, drop e-6 2 or start red)")


def _whole(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def is_start(action: object) -> TypeGuard[Start]:
    return isinstance(action, tuple) and len(action) == 2 and action[0] == "start" and _whole(action[1])


def is_pawn(action: object) -> TypeGuard[Move | Pass]:
    return (isinstance(action, tuple) and len(action) == 3 and action[0] in ("m", "p")
            and all(_whole(x) and 0 <= x < NSQ for x in action[1:]))


def is_beads(action: object) -> TypeGuard[Beads]:
    if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "b" and _whole(action[1])
            and 0 <= action[1] < NPITS and isinstance(action[2], tuple) and action[2]):
        return False
    return all(isinstance(item, tuple) and len(item) == 2 and all(_whole(x) for x in item)
               and 0 <= item[0] < NPITS and item[1] >= 1 for item in action[2])


def is_hand_action(action: object) -> TypeGuard[Take | Drop]:
    return (isinstance(action, tuple) and len(action) == 3 and action[0] in ("t", "d")
            and _whole(action[1]) and _whole(action[2]) and 0 <= action[1] < NPITS and action[2] >= 1)


def is_action(action: object) -> TypeGuard[ContigoAction]:
    return is_start(action) or is_pawn(action) or is_beads(action) or is_hand_action(action)


def action_text(action: object, capturing: bool) -> str:
    """The text of ``action``; ``capturing``: a move's target holds an enemy (written ``c3xc5``)."""
    if not is_action(action):
        raise ValueError(f"not a Contigo action: {action!r}")
    if action[0] == "start":
        return f"start {COLORS[action[1]]}"
    if action[0] == "m":
        _, s, t = action
        return f"{SQUARE_NAMES[s]}{'x' if capturing else '-'}{SQUARE_NAMES[t]}"
    if action[0] == "p":
        return f"pass {SQUARE_NAMES[action[1]]}-{SQUARE_NAMES[action[2]]}"
    if action[0] == "b":
        _, src, drops = action
        k = sum(c for _, c in drops)
        direction = 1 if all(1 <= ring_distance(src, d, 1) <= k for d, _ in drops) else -1
        ordered = sorted(drops, key=lambda drop: ring_distance(src, drop[0], direction))
        return f"beads {PIT_NAMES[src]}>" + ",".join(f"{PIT_NAMES[d]} {c}" for d, c in ordered)
    if action[0] == "t":
        return f"take {PIT_NAMES[action[1]]} {action[2]}"
    return f"drop {PIT_NAMES[action[1]]} {action[2]}"


def parse_action(text: str, n: int) -> ContigoAction:
    """The action ``text`` names in an ``n``-player game; :class:`IllegalAction` when it names none."""
    if not isinstance(text, str):
        raise IllegalAction(repr(text), NOT_A_STRING())
    words = text.strip().lower().split()
    bad = IllegalAction(text, NO_SUCH_ACTION())
    if not words or len(text) > 200:
        raise bad
    if words[0] == "start" and len(words) == 2:
        if words[1] in COLORS[:n]:
            return Start("start", COLORS.index(words[1]))
        raise bad
    if words[0] == "pass" and len(words) == 2:
        s, t = _parse_squares(words[1], ("-",), bad)
        return Pass("p", s, t)
    if words[0] in ("take", "drop") and len(words) == 3:
        pit = PIT_INDEX.get(words[1])
        if pit is None or not words[2].isdigit() or len(words[2]) > 3 or int(words[2]) < 1:
            raise bad
        return Take("t", pit, int(words[2])) if words[0] == "take" else Drop("d", pit, int(words[2]))
    if words[0] == "beads":
        rest = " ".join(words[1:])
        if rest.count(">") != 1:
            raise bad
        src_text, drops_text = rest.split(">")
        src = PIT_INDEX.get(src_text.strip())
        if src is None:
            raise bad
        drops: dict[int, int] = {}
        for part in drops_text.split(","):
            bits = part.split()
            if len(bits) != 2 or bits[0] not in PIT_INDEX or not bits[1].isdigit() or len(bits[1]) > 3:
                raise bad
            dst, count = PIT_INDEX[bits[0]], int(bits[1])
            if dst in drops or count < 1:
                raise bad
            drops[dst] = count
        return Beads("b", src, tuple(sorted(drops.items())))
    if len(words) == 1:
        s, t = _parse_squares(words[0], ("-", "x"), bad)
        return Move("m", s, t)
    raise bad


def _parse_squares(word: str, seps: tuple[str, ...], bad: IllegalAction) -> tuple[int, int]:
    if len(word) != 5 or word[2] not in seps:
        raise bad
    s, t = SQUARE_INDEX.get(word[:2]), SQUARE_INDEX.get(word[3:])
    if s is None or t is None:
        raise bad
    return s, t
