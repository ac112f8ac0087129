"""Hand-made Contigo positions, written through the position text (so the parser is exercised too)."""

from __future__ import annotations

from controller.games.contigo import GAME
from controller.games.contigo.board import PIT_NAMES
from controller.games.contigo.state import ContigoState

LETTERS = "rbgy"
COLORS = ("red", "blue", "green", "yellow")


def position(pieces: dict[str, str], *, pits: dict[str, int] | None = None, bank: str = "nw", to: str = "red",
             phase: str = "move", players: int = 2, turn: int = 0, game: str = "alignment",
             form: str = "straight", win: str = "four", turn_limit: int = 200, rounds: int = 0, spread_limit: int = 0,
             spread: str = "either_side", hand: str = "-") -> ContigoState:
    """A state from pieces ({"r": "a1 c3", "R": "d1" (a red double), "b": ...}) and pit counts.

    Every pit not named holds 2 beads; ``bank`` (a corner by default, it governs no move) takes or
    gives whatever keeps the total at 56 (when it runs dry, unnamed pits in ring order give theirs),
    less the beads in the hand (``hand`` as in the position text: ``n-f:5:3:both``).
    In the capture game the captured counts are the men missing from the board.
    """
    grid = [["."] * 6 for _ in range(6)]
    for ch, names in pieces.items():
        for name in names.split():
            f, r = "abcdef".index(name[0]), int(name[1]) - 1
            assert grid[r][f] == ".", f"two pieces on {name}"
            grid[r][f] = ch
    board = "/".join("".join(grid[r]) for r in range(5, -1, -1))
    total = 56 - (0 if hand == "-" else int(hand.split(":")[2]))  # beads in the hand are off the board
    counts = dict.fromkeys(PIT_NAMES, 2)
    counts.update(pits or {})
    named = set(pits or {})
    for name in [bank, *PIT_NAMES]:  # the bank first, then unnamed pits, give up the excess
        excess = sum(counts.values()) - total
        if excess <= 0 or (name in named and name != bank):
            continue
        counts[name] -= min(excess, counts[name])
    counts[bank] += total - sum(counts.values())
    captured = [0] * players
    if game == "capture":
        for p in range(2):
            men = sum(row.count(LETTERS[p]) + 2 * row.count(LETTERS[p].upper()) for row in grid)
            captured[1 - p] = 12 - men
    text = (f"contigo game={game} form={form} win={win} turn_limit={turn_limit} rounds={rounds}"
            f" spread_limit={spread_limit}"
            f" spread={spread} players={players} board={board} pits={','.join(str(counts[p]) for p in PIT_NAMES)}"
            f" to={to} phase={phase} hand={hand} turn={turn} captured={','.join(map(str, captured))} result=none")
    return GAME.state_from_text(text)


def moves_from(state: ContigoState, square: str) -> set[str]:
    """Texts of the legal pawn actions starting on ``square``."""
    out = set()
    for a in state.legal_actions():
        text = state.action_to_text(a)
        if text.removeprefix("pass ").startswith(square):
            out.add(text)
    return out


def play(state: ContigoState, *texts: str) -> ContigoState:
    for text in texts:
        state = state.apply(state.action_from_text(text))
    return state


def refusal(state: ContigoState, text: str) -> str:
    """The reason ``text`` is refused (fails the test if it is accepted)."""
    from controller.games import IllegalAction

    action = state.action_from_text(text)
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert action not in state.legal_actions()
        return exc.reason
    raise AssertionError(f"{text} was accepted")
