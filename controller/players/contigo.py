"""Contigo's computer player: an open game, so the public view's position is the state searched.

The evaluation counts lines: in the alignment game, each player's longest run of pawns on a line of
six that no opposing pawn breaks (the win is four, or five, of them), and his **threats**: a pawn
move the pits allow now that would complete a line. The player to move with a threat has as good as
won; another's threat is worth less, since the bead moves before his turn may undo it. In the
capture game the evaluation counts men captured and a double within reach (taking it wins). The
rollout plays random actions, except that a player who can win at once does. ``hard`` tries the
untried moves in the prior's order (:meth:`ContigoModel.prior`): pawn moves by the runs they make and
cut, bead moves that take a threatening pawn move from the next player first; with it ``hard`` won
32 of 40 games against ``hard`` without it (docs/players.md).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from controller.games.base import Action, Options, State
from controller.games.contigo import rules
from controller.games.contigo.actions import Beads, Move
from controller.games.contigo.board import (
    CAPTURE_WIN,
    GOV,
    LINES,
    LINES_THROUGH,
    ORTHO_LINES,
    ORTHO_LINES_THROUGH,
    direction_between,
    has_line,
    line_lengths,
    owner,
)
from controller.games.contigo.position import Position
from controller.games.contigo.state import ContigoState
from controller.players.search import Budget, Model, contest
from controller.players.seen import model_of

BUDGETS: Final = {
    "easy": Budget(iterations=40, rollout=4, prior=False),
    "medium": Budget(iterations=150, rollout=4, prior=False),
    "hard": Budget(iterations=400, rollout=4),
}

TO_MOVE_THREAT: Final = 3.0
"""What a threat is worth to the player about to make his pawn move: more than any run of pawns."""
THREAT: Final = 0.75
"""What a threat is worth to a player whose turn is further off."""


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return model_of(ContigoModel, "contigo", options, public_view, private_view, seat)


class ContigoModel(Model):
    def winning(self, state: State) -> list[Action]:
        wins = state.winning_actions()
        if wins or not isinstance(state, ContigoState) or state.position.variant.capture:
            return wins
        position = state.position
        if position.phase == "beads":
            return forcing_beads(position)
        if position.phase != "move":
            return []
        out: list[Action] = []
        for move in rules.legal_actions(position):
            after = rules.apply_legal(position, move)
            if after.phase == "beads" and forcing_beads(after):
                out.append(move)
        return out

    def prior(self, state: State, actions: Sequence[Action]) -> Sequence[float] | None:
        """Alignment game: a pawn move by the run it makes through its square and the rival's run it
        cuts there; a bead move first when it changes a pit that governs a pawn move of the next
        player's that would make him a run one short of the win, or the win (that move's length
        changes). No guess in the capture game."""
        if not isinstance(state, ContigoState) or state.position.variant.capture:
            return None
        position = state.position
        if position.phase == "move":
            return [pawn_prior(position, a) if isinstance(a, Move) else 0.0 for a in actions]
        if position.phase != "beads":
            return None
        pits = threatened_pits(position)
        if not pits:
            return None
        return [max((pits.get(pit, 0) for pit in (a.src, *(d for d, _ in a.drops))), default=0)
                if isinstance(a, Beads) else 0.0 for a in actions]

    def rollout_action(self, state: State, actions: Sequence[Action], rng: Any) -> Action:
        if isinstance(state, ContigoState) and state.position.phase == "move":
            win = (capturing_win if state.position.variant.capture else winning_move)(
                state.position, state.position.player, actions)
            if win is not None:
                return win
        return super().rollout_action(state, actions, rng)

    def evaluate(self, state: State) -> Sequence[float]:
        if state.is_terminal() or not isinstance(state, ContigoState):
            return super().evaluate(state)
        position = state.position
        n = position.variant.n
        if position.variant.capture:
            return contest([capture_strength(position, p) for p in range(n)], CAPTURE_WIN / 3)
        lines = ORTHO_LINES if position.variant.need == 5 else LINES
        points = []
        for p in range(n):
            best, second = runs(position.board, p, lines)
            # a move completes a line only where a run lacks just one pawn
            threat = threat_value(position, p) if best + 1 >= position.variant.need else 0.0
            points.append(best + 0.25 * second + threat)
        return contest(points, 1.0)


def runs(board: Sequence[int], p: int, lines: Sequence[tuple[int, ...]]) -> tuple[int, int]:
    """p's best and second best runs: pawns of his on a line that no opposing pawn breaks."""
    found = []
    for line in lines:
        best = count = 0
        for s in line:
            code = board[s]
            if not code:
                continue
            if owner(code) == p:
                count += 1
                best = max(best, count)
            else:
                count = 0
        found.append(best)
    found.sort(reverse=True)
    return found[0], found[1]


def pawn_prior(position: Position, move: Move) -> float:
    """How promising a pawn move looks: the mover's best run on a line through its square after it,
    and half of what it cuts from the best run of another's there."""
    variant, board = position.variant, position.board
    p = position.player
    lines = variant.lines[move.dst]
    after = list(board)
    after[move.dst], after[move.src] = board[move.src], 0
    cut = 0
    for q in range(variant.n):
        if q != p:
            cut = max(cut, line_lengths(board, q, lines)[0] - line_lengths(after, q, lines)[0])
    return line_lengths(after, p, lines)[0] + 0.5 * cut


def threatened_pits(position: Position) -> dict[int, int]:
    """The pits (with the run it would make) that govern a pawn move of the player after the bead
    mover's, with the pits as they are, that would give him a run of one short of the win or more:
    a bead move into or out of such a pit changes that move's length."""
    variant, board = position.variant, position.board
    q = (position.player + 1) % variant.n
    out: dict[int, int] = {}
    after = list(board)
    for move in rules.legal_actions(position._replace(player=q, phase="move")):
        if not isinstance(move, Move):
            continue
        s, t = move.src, move.dst
        after[t], after[s] = board[s], 0
        run = line_lengths(after, q, variant.lines[t])[0]
        after[s], after[t] = board[s], board[t]
        way = direction_between(s, t)
        if run + 1 >= variant.need and way is not None:
            pit = GOV[s][way[0]]
            out[pit] = max(out.get(pit, 0), run)
    return out


def threat_value(position: Position, p: int) -> float:
    """What p's threat (a winning pawn move the pits allow now) is worth, 0 without one."""
    to_move = position.player == p and position.phase == "move"
    if winning_move(position, p, None) is None:
        return 0.0
    return TO_MOVE_THREAT if to_move else THREAT


def winning_move(position: Position, p: int, moves: Sequence[Action] | None) -> Action | None:
    """A pawn move of p's (among ``moves``, by default all that the pits allow p now) that completes
    a line of his, if there is one."""
    variant = position.variant
    board = position.board
    need = variant.need
    if moves is None:
        moves = rules.legal_actions(position._replace(player=p, phase="move"))
    after = list(board)
    for move in moves:
        if not isinstance(move, Move):
            continue
        _, s, t = move
        after[t], after[s] = after[s], 0
        won = has_line(after, p, variant.lines[t], need)
        after[s], after[t] = board[s], board[t]
        if won:
            return move
    return None


def capturing_win(position: Position, p: int, moves: Sequence[Action] | None) -> Action | None:
    """Capture game: a move of p's (among ``moves``, by default all that the pits allow p now) that
    wins: it takes a double, or the man that makes his captures the winning count."""
    board = position.board
    last = position.captured[p] + 1 >= CAPTURE_WIN
    if moves is None:
        moves = rules.legal_actions(position._replace(player=p, phase="move"))
    for move in moves:
        if isinstance(move, Move) and board[move.dst] and (last or not board[move.dst] & 1):
            return move
    return None


def capture_strength(position: Position, p: int) -> float:
    """Men p captured, and a win more when a move the pits allow him now wins (half of one when his
    turn is further off)."""
    captured = float(position.captured[p])
    if capturing_win(position, p, None) is None:
        return captured
    return captured + (CAPTURE_WIN if position.player == p and position.phase == "move" else CAPTURE_WIN / 2)


@functools.lru_cache(maxsize=4096)
def covering(board: tuple[int, ...], p: int, q: int, five: bool) -> int:
    """The squares (a bit each) of q's pawns each of which alone stands between p's pawns of a line:
    moved away, it would uncover p's line. Kept per board: a player's bead moves leave it as it is."""
    lines, need = (ORTHO_LINES_THROUGH, 5) if five else (LINES_THROUGH, 4)
    found = 0
    code = 1 + 2 * q
    after = list(board)
    for s, c in enumerate(board):
        if c != code:
            continue
        after[s] = 0
        if has_line(after, p, lines[s], need):
            found |= 1 << s
        after[s] = c
    return found


def forcing_beads(position: Position) -> list[Action]:
    """The bead moves of the player to move them (phase ``beads``) after which the next player must
    move a pawn and every pawn move he has uncovers a line that wins for the bead mover."""
    variant, board, pits = position.variant, position.board, position.pits
    p = position.player
    q = (p + 1) % variant.n
    cover = covering(board, p, q, variant.need == 5)
    if not cover:
        return []
    free = [s for s, c in enumerate(board) if c and owner(c) == q and not cover >> s & 1]
    out: list[Action] = []
    after_pits = list(pits)
    for action in rules.legal_actions(position):
        assert isinstance(action, Beads)  # the alignment game's bead move: one action
        _, src, drops = action
        for dst, k in drops:
            after_pits[src] -= k
            after_pits[dst] += k
        # the next player's pawns that cover nothing must have no move: then try the rest whole
        stuck = not any(rules.targets(board, tuple(after_pits), variant, s) for s in free)
        after_pits[src], after_pits[dst] = pits[src], pits[dst]
        if not stuck:
            continue
        after = rules.apply_legal(position, action)
        moves = rules.legal_actions(after) if after.phase == "move" else []
        if moves and all(rules.apply_legal(after, m).result == p for m in moves):
            out.append(action)
    return out
