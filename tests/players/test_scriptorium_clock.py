"""Scriptorium's evaluation sees the sync clock: the moves a pawn needs are counted against where the
clock will have turned the rings when it gets there.

The reference here is worked out apart from the player's code: a breadth-first search over the
pawn's moves (one a round along any black line, or none) that turns the rings with the engine's
own clock step (``rules.apply_legal`` of the clock's action, which turns the active part, rides the
pawns and pins on it and hands the clock over) and reads the goal spaces' colours from the engine's
positions. The positions are the move decisions of seeded random games where the die offers
spaces of different worth, none picked by hand.
"""

from __future__ import annotations

import random
from itertools import permutations

from controller.games.base import CHANCE
from controller.games.registry import get_game
from controller.games.scriptorium import rules
from controller.games.scriptorium.board import COLOUR, HUB, OUTER, N, is_aligned, rotate_location
from controller.games.scriptorium.position import Position
from controller.games.scriptorium.state import ScriptoriumState
from controller.players.scriptorium import LINES, ScriptoriumModel, moves_left
from controller.players.search import decisions
from tests.players.table import random_step


def _clock(position: Position) -> Position:
    """The position after one full round's clock step, by the engine (none once aligned)."""
    if is_aligned(position.offsets):
        return position
    closing = position._replace(phase="clock")
    (turn,) = rules.legal_actions(closing)
    return rules.apply_legal(closing, turn)


def _steps_before_first_move(position: Position, player: int) -> int:
    """The rounds that close before the player's next move, from who is to play."""
    if position.phase == "clock":
        return 1
    if position.turn == player and position.phase in ("roll", "move"):
        return 0
    order = [(position.first + k) % position.players for k in range(position.players)]
    return 0 if order.index(player) > order.index(position.turn) else 1


def reference(position: Position, player: int) -> int:
    """The fewest moves (one a round, or none) to visit the player's Outer spaces not yet visited and
    then move into the hub, the rings turned by the engine's clock between moves."""
    def space(loc: int, offsets: tuple[int, ...]) -> int:  # the Outer ring's space under a position
        return (loc % N - offsets[OUTER]) % N

    def own(loc: int, offsets: tuple[int, ...]) -> bool:
        return loc != HUB and loc // N == OUTER and COLOUR[OUTER][offsets[OUTER]][loc % N] == player

    offsets = position.offsets
    loc = position.pawns[player]
    done = frozenset(space(pin, offsets) for pin in position.pins if own(pin, offsets))
    if own(loc, offsets) and loc not in position.pins:
        done |= {space(loc, offsets)}
    states = {(loc, done)}
    clock = position
    steps = _steps_before_first_move(position, player)
    for moves in range(1, 60):
        for _ in range(steps):
            turned = _clock(clock)
            part = next((k for k in range(4) if turned.offsets[k] != clock.offsets[k]), None)
            if part is not None:
                states = {(rotate_location(at, part, 1), seen) for at, seen in states}
            clock = turned
        steps = 1
        following = set(states)
        for at, seen in states:
            for near in LINES[at]:
                if near == HUB and len(seen) == 2:
                    return moves
                now = seen | {space(near, clock.offsets)} if own(near, clock.offsets) else seen
                following.add((near, now))
        states = following
    raise AssertionError("no way to the goals")


def _distance(start: int) -> dict[int, int]:
    """Moves from ``start`` to every location along the black lines, the rings as they stand."""
    far = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for loc in frontier:
            for near in LINES[loc] - far.keys():
                far[near] = far[loc] + 1
                following.append(near)
        frontier = following
    return far


def static(position: Position, player: int) -> int:
    """Main's earlier count: the rings as they are now, the clock not seen."""
    loc = position.pawns[player]
    table = COLOUR[OUTER][position.offsets[OUTER]]
    targets = [OUTER * N + p for p in range(N)
               if table[p] == player and OUTER * N + p not in position.pins and OUTER * N + p != loc]
    best = min(sum(_distance(a)[b] for a, b in zip((loc, *order), (*order, HUB), strict=True))
               for order in permutations(targets))
    return max(best, 2) if loc == HUB and not targets else best


def _clock_choices(seeds: range, players: int) -> list[tuple[ScriptoriumState, dict[object, int], dict[object, int]]]:
    """Move decisions of random games where the earlier count (the clock not seen) ranks first a space
    the clock makes worse: each with the mover's moves left after each action, by the reference and
    by the earlier count."""
    out = []
    for seed in seeds:
        state = get_game("scriptorium").new_state({}, players)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = decisions(state) if state.current_player != CHANCE else []
            if len(actions) > 1:
                assert isinstance(state, ScriptoriumState)
                p = state.current_player
                after = {a: state.apply_legal(a) for a in actions}
                if not any(s.is_terminal() for s in after.values()):
                    sure = {a: reference(s.position, p) for a, s in after.items() if isinstance(s, ScriptoriumState)}
                    earlier = {a: static(s.position, p) for a, s in after.items() if isinstance(s, ScriptoriumState)}
                    best = {a for a, v in sure.items() if v == min(sure.values())}
                    if {a for a, v in earlier.items() if v == min(earlier.values())} - best:
                        out.append((state, sure, earlier))
            state = state.apply_legal(random_step(state, rng))
    return out


def test_the_moves_left_agree_with_the_engine_s_clock_at_every_decision() -> None:
    checked = 0
    for seed in range(3):
        state = get_game("scriptorium").new_state({}, 3)
        rng = random.Random(1000 + seed)
        while not state.is_terminal():
            if state.current_player != CHANCE and isinstance(state, ScriptoriumState):
                position = state.position
                for p in range(position.players):
                    assert moves_left(position, p) == reference(position, p), state.to_text()
                    checked += 1
            state = state.apply_legal(random_step(state, rng))
    assert checked >= 2000


def test_where_the_clock_changes_the_best_space_the_evaluation_prefers_the_clock_s() -> None:
    choices = _clock_choices(range(40), 2) + _clock_choices(range(15), 4)
    assert len(choices) >= 20
    for state, sure, earlier in choices:
        p = state.current_player
        model = ScriptoriumModel(state, p)
        value = {a: model.evaluate(state.apply_legal(a))[p] for a in sure}
        best = [a for a in sure if sure[a] == min(sure.values())]
        worse = [a for a in sure if sure[a] > min(sure.values())]
        assert min(value[a] for a in best) > max(value[a] for a in worse), state.to_text()
        # main's count preferred a space the clock makes worse, or was blind to the difference
        assert any(earlier[a] <= min(earlier[b] for b in best) for a in worse), state.to_text()
