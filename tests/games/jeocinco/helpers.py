"""Hand-made Jeocinco positions, built through the position text."""

from __future__ import annotations

from collections import deque

from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B
from controller.games.jeocinco.position import board_to_text
from controller.games.jeocinco.state import JeocincoState


def slot(name: str) -> int:
    return B.SLOT_INDEX[name]


def pent(name: str) -> int:
    return B.PENT_INDEX[name]


def sides(pent_name: str) -> list[str]:
    return [B.SLOT_NAMES[s] for s in B.PENT_SLOTS[pent(pent_name)]]


def position(players: int = 2, colours: str = "NE", pieces: dict[str, int] | None = None,
             towers: dict[str, str] | None = None, bridges: tuple[str, ...] = (), spare: str | None = None,
             phase: str = "place", roll: str = "3C", actor: int = 0, turn: int = 0, order: str | None = None,
             stage: str = "M", left: str = "1+0", queue: str = "-", disputed: int = 0, dispute: str = "-",
             tower: str = "-", fast: int = 0, rounds: int = 100, disputes: int = 4, diagonal: int = 1, round_: int = 0,
             end: str = "-", rollorder: int = 0, ownbridges: int = 0) -> JeocincoState:
    """A state from a few facts; a tower gets its owner's pieces on its five sides automatically."""
    own = [0] * players
    for name, p in (pieces or {}).items():
        own[p] |= 1 << slot(name)
    for pn, sn in (towers or {}).items():
        owner = colours.index(pn[-1])
        for s in B.PENT_SLOTS[pent(pn)]:
            for q in range(players):
                own[q] &= ~(1 << s)
            own[owner] |= 1 << s
        assert sn in sides(pn)
    tw = ",".join(f"{pn}@{sn}" for pn, sn in sorted((towers or {}).items(), key=lambda t: pent(t[0]))) or "-"
    br = ",".join(sorted(bridges, key=lambda n: B.BRIDGE_NAMES.index(n))) or "-"
    text = " ".join([
        "jeocinco", f"players={players}", f"fast={fast}", f"rounds={rounds}", f"disputes={disputes}",
        f"diagonal={diagonal}", f"rollorder={rollorder}", f"ownbridges={ownbridges}",
        f"phase={phase}", "open=" + "/".join(["-"] * players), "order=" + (order or "".join(map(str, range(players)))),
        f"colours={colours}", f"round={round_}", f"turn={turn}", f"roll={roll}",
        f"actor={actor if actor >= 0 else '-'}",
        f"stage={stage}", f"pieces={left}", f"queue={queue}", f"disputed={disputed}", f"dispute={dispute}",
        f"tower={tower}", "spare=" + (spare or "0" * players), f"end={end}", "board=" + board_to_text(own),
        f"towers={tw}", f"bridges={br}",
    ])
    return GAME.state_from_text(text)


def texts(state: JeocincoState) -> list[str]:
    return [state.action_to_text(a) for a in state.legal_actions()]


def placements(state: JeocincoState) -> set[str]:
    return {t.split()[1] for t in texts(state) if t.startswith("place ")}


def disputable(state: JeocincoState) -> set[str]:
    return {t.split()[1] for t in texts(state) if t.startswith("dispute ")}


def play(state: JeocincoState, *actions: str) -> JeocincoState:
    for text in actions:
        state = state.apply(state.action_from_text(text))
    return state


def slot_path(start: int, goal: int, avoid: int = 0) -> list[int]:
    """A shortest chain of slots (by shared end points) from any slot of mask ``start`` to one of
    ``goal``, not using slots of ``avoid``; both ends included."""
    prev: dict[int, int | None] = {s: None for s in B.bits(start)}
    todo = deque(prev)
    while todo:
        s = todo.popleft()
        if goal >> s & 1:
            path: list[int] = []
            step: int | None = s
            while step is not None:
                path.append(step)
                step = prev[step]
            return path[::-1]
        for t in B.SLOT_ADJ[s]:
            if t not in prev and not avoid >> t & 1:
                prev[t] = s
                todo.append(t)
    raise AssertionError("no path")
