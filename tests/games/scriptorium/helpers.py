"""Hand-made Scriptorium positions for the rule tests."""

from __future__ import annotations

from controller.games.scriptorium import GAME
from controller.games.scriptorium import board as B
from controller.games.scriptorium.state import ScriptoriumState

KEYS = ("players", "outer_line", "round_limit", "start", "phase", "round", "first", "turn", "offsets", "active",
        "pawns", "pins", "die", "number", "pending", "winner")
DEFAULTS = {
    "players": "2", "outer_line": "same", "round_limit": "200", "start": "random", "phase": "roll", "round": "0",
    "first": "red", "turn": "red", "offsets": "0,0,0,0", "active": "centre", "pawns": "hub,hub", "pins": "-",
    "die": "-", "number": "-", "pending": "-", "winner": "-",
}


def text(**fields: object) -> str:
    merged = {**DEFAULTS, **{k: str(v) for k, v in fields.items()}}
    unknown = set(merged) - set(KEYS)
    assert not unknown, unknown
    return "scriptorium " + " ".join(f"{k}={merged[k]}" for k in KEYS)


def pos(**fields: object) -> ScriptoriumState:
    """The state of a position given by its fields (the rest from DEFAULTS)."""
    return GAME.state_from_text(text(**fields))


def acts(state: ScriptoriumState) -> list[str]:
    return [state.action_to_text(a) for a in state.legal_actions()]


def play(state: ScriptoriumState, *texts: str) -> ScriptoriumState:
    for t in texts:
        state = state.apply(state.action_from_text(t))
    return state


def location(name: str) -> int:
    """The location a name such as ``i3`` or ``hub`` stands for (the test fails on a bad name)."""
    found = B.parse_location(name)
    assert found is not None, name
    return found


def field(state: ScriptoriumState, key: str) -> str:
    for word in state.to_text().split(" ")[1:]:
        k, _, v = word.partition("=")
        if k == key:
            return v
    raise KeyError(key)
