"""Hand-made Serpientes positions for the rule tests, written as position texts."""

from __future__ import annotations

from typing import Any

from controller.games.serpientes import GAME
from controller.games.serpientes.board import (
    ABSOLUTE_LETTERS,
    ABSOLUTE_PER_PLAYER,
    RELATIVE_LETTERS,
    RELATIVE_PER_PLAYER,
)
from controller.games.serpientes.state import SerpientesState

START = {2: "g1.g2/g13.g12", 3: "g1.g2/m7.l7/g13.g12", 4: "g1.g2/m7.l7/g13.g12/a7.b7"}


def position(players: int = 4, cards: str = "relative", dealing: str = "arbitro", tokens: int = 15,
             rounds: int = 1000, phase: str = "play", player: int = 0, turns: int = 1, toplace: int = 0,
             tok: str = "d4", snakes: str | None = None, supply: str | None = None, eaten: str | None = None,
             crashed: str | None = None, hands: str | None = None, seqs: str | None = None,
             deck: str | None = None, discard: str | None = None, faceup: str | None = None,
             reshuffles: int = 0, shown: str = "-", last: str = "-") -> str:
    """A position text; the deck (arbitro dealing) defaults to every card not held elsewhere."""
    n = players
    absolute = cards == "absolute"
    letters = ABSOLUTE_LETTERS if absolute else RELATIVE_LETTERS
    per = ABSOLUTE_PER_PLAYER if absolute else RELATIVE_PER_PLAYER
    snakes = snakes or START[n]
    supply = supply or ",".join(["4"] * n)
    eaten = eaten or ",".join(["0"] * n)
    crashed = crashed or ",".join(["0"] * n)
    if dealing == "physical":
        hands = hands or "/".join(["5"] * n)
        seqs = seqs or "/".join(["0"] * n)
        deck = discard = faceup = "-"
    else:
        hands = hands or "/".join(["-"] * n)
        seqs = seqs or "/".join(["-"] * n)
        discard = discard or ",".join(["0"] * len(letters))
        # the running sequence's shown cards are face up on the discards at least
        faceup = faceup or ",".join(str(shown.count(ch)) for ch in letters)
        if deck is None:
            used = [0] * len(letters)
            for part in hands.split("/") + seqs.split("/"):
                for ch in part.replace("-", ""):
                    used[letters.index(ch)] += 1
            disc = [int(x) for x in discard.split(",")]
            deck = ",".join(str(per[k] * n - used[k] - disc[k]) for k in range(len(letters)))
    fields = [
        "serpientes", f"players={n}", f"two={int(n == 2)}", f"cards={cards}", f"dealing={dealing}", f"tokens={tokens}",
        f"rounds={rounds}", f"phase={phase}", f"player={player}", f"turns={turns}", f"toplace={toplace}",
        f"tok={tok}", f"snakes={snakes}", f"supply={supply}", f"eaten={eaten}", f"crashed={crashed}",
        f"hands={hands}", f"seqs={seqs}", f"deck={deck}", f"discard={discard}", f"faceup={faceup}",
        f"reshuffles={reshuffles}",
        f"shown={shown}", f"last={last}",
    ]
    return " ".join(fields)


def state(**kw: Any) -> SerpientesState:
    return GAME.state_from_text(position(**kw))


def play(s: SerpientesState, *texts: str) -> SerpientesState:
    """Apply action texts one after another."""
    for t in texts:
        s = s.apply(s.action_from_text(t))
    return s


def field(s: SerpientesState, key: str) -> str:
    for part in s.to_text().split(" "):
        if part.startswith(key + "="):
            return part[len(key) + 1:]
    raise KeyError(key)
