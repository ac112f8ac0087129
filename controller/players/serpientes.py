"""Serpientes' computer player: Information Set MCTS over determinizations of the hidden cards.

With dealt cards a seat sees its own hand and programmed sequence, and only counts of the others'
hands and sequences, of the deck and of the discards. Each iteration deals every card the seat has
not seen (the game's whole deck less its own hand and sequence and the discards every run turned
face up since the last reshuffle, the position's ``faceup``) at random among those places, in their
public sizes: a state that agrees with all the seat knows (the game API's ``State.resample``, from
the state ``Game.state_seen_by`` reads from the seat's views). The tree sees another player's card
added or drawn only as "add" or "draw" (``public_action_text``), and its own draws whole. With
physical cards the engine itself knows only the counts, so the public position is the whole state.

A leaf is scored as it is, without a rollout (random rollouts let the others' random crashes reward
whichever choice uses the fewest actions, and so holding), by each snake's score (tokens eaten,
sticks on the board and in supply), how near its head is to a token, and how much room the head
has, both where the head is and where its programmed sequence will take it (:func:`strength`).
A seat that cannot win any more (:func:`cannot_win`) would rather the game ended: it eats the last
token instead of stalling the game to the round limit.

Nearness counts steps round the sticks (:func:`steps_to_token`, a breadth-first search), not across
them. When programming, the search weighs what a person would: the cards that bring the end of the
sequence a step nearer a token, when the hand holds one, and then never a turn passed with nothing
laid; else the cards that do not crash it (:meth:`SerpientesModel.decisions`). Without that, a
card laid was weighed against the crashes of the cards after it, a pass risked nothing, and
between ``hard`` players every seat passed turn after turn to the round limit (issue 21). A snake
in a dead end, where every card crashes from where its sequence leads, does not pass either: it lays
a card, or runs what it holds, and crashes on purpose for the half-turn the crash earns (unless
the crash would take its only stick, putting it out of the game). A pass
there risked nothing, a crash costs a stick, and a seat far ahead (its lead saturated) values both
alike: such seats passed to the round limit (two of eight 4-player games against random play).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from controller.games.base import Action, Options, State
from controller.games.serpientes import board as B
from controller.games.serpientes import rules
from controller.games.serpientes.actions import DONE, RUN, STEPS, Add, Step
from controller.games.serpientes.position import Position
from controller.games.serpientes.state import SerpientesState
from controller.players.search import Budget, Model, contest
from controller.players.seen import model_of

BUDGETS: Final = {
    "easy": Budget(iterations=40, rollout=0),
    "medium": Budget(iterations=120, rollout=0),
    "hard": Budget(iterations=500, rollout=0),
}
"""``hard`` has 500 iterations: at 250 it won 44 of 120 games against two medium players (not above the
fair third by its interval), at 500 67 of 150 ([37 %, 53 %]); a decision still takes under 0.25 s of
CPU at every player count (docs/players.md)."""


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    return model_of(SerpientesModel, "serpientes", options, public_view, private_view, seat)


class SerpientesModel(Model):
    def __init__(self, state: State, seat: int, hidden: bool = False) -> None:
        super().__init__(state, seat, hidden)
        self._programming: dict[Hashable, tuple[Action, ...]] = {}
        """The actions kept at a programming decision, by what they depend on: asked at every visit."""

    def evaluate(self, state: State) -> Sequence[float]:
        if not isinstance(state, SerpientesState):
            return super().evaluate(state)
        if state.is_terminal():
            return [-1.0 + ENDED if r < 0 else r for r in state.returns()]
        position = state.position
        taken = _taken(position)  # the same board for every seat's strength
        points = [strength(position, p, taken) for p in range(state.num_players)]
        # A share of each value is the seat's own strength, not its lead, in a scale that does not
        # saturate (the most a snake can score): a lead that has saturated the contest (the others
        # out) still pulls the snake on to the last tokens, which end the game.
        most = 2.0 * position.options["tokens"]
        own = [max(-1.0, min(1.0, (x - START) / most)) for x in points]
        leads = contest(points, LEAD)
        lost = cannot_win(position)
        return [-1.0 + PULL * max(0.0, mine) if out else (1 - OWN) * lead + OWN * mine
                for lead, mine, out in zip(leads, own, lost, strict=True)]

    def decisions(self, state: State) -> list[Action]:
        """What a person would weigh: at a play or program decision with dealt cards, the cards that
        bring the end of the sequence a step nearer a token round the sticks, if the hand holds one
        (and then no turn passed with nothing laid: such passes stalled games); else the cards that
        do not crash it. No card after the sequence's crash or the game's end (it would change
        nothing). In a dead end (every card crashes) no pass: the crashing cards, or the run, and the
        crash lets the snake turn round. With physical cards the steps are chosen as the sequence
        runs: no pass while the seat holds a card or a sequence and a free step from the head nears a
        token; in a dead end it runs what it holds."""
        actions = super().decisions(state)
        if not isinstance(state, SerpientesState):
            return actions
        position = state.position
        physical = isinstance(position.sequences[position.player], int)
        if physical and position.phase == "run":
            nearer, safe = _ways(position, position.player, actions)
            return nearer or safe or actions
        if position.phase not in ("play", "program"):
            return actions
        if physical:
            if position.phase == "play" and len(actions) > 1:
                nearer, safe = _ways(position, position.player, STEPS[:len(rules.kinds(position))])
                dead_end = not safe and _outlives_a_crash(position, position.player)
                if dead_end and RUN in actions:
                    return [RUN]  # crash now and turn round (added cards would change nothing)
                if nearer or dead_end:
                    return [a for a in actions if a != DONE]
            return actions
        key = (position.snakes, position.tokens, position.sequences[position.player], position.hands[position.player],
               position.supply[position.player], position.phase)
        kept = self._programming.get(key)
        if kept is None:
            kept = self._programming[key] = _programming(position, actions)
        return list(kept)


def cannot_win(position: Position) -> list[bool]:
    """Whether each seat has lost whatever it eats: its score and two points (a token and its stick)
    for every token left fall short of a rival's score (barring the rival's crashes)."""
    score = rules.scores(position)
    reach = 2 * (len(position.tokens) + position.tokens_to_place)
    return [mine + reach < max(x for q, x in enumerate(score) if q != p) for p, mine in enumerate(score)]


ENDED: Final = 0.5
"""What the end of the game is worth to a seat that has lost it, above a loss still being played
(-1): a seat that cannot win any more would rather finish than stall the game to the round limit,
so it eats the last token (issue 21: hard and easy games stalled at their last token, the seats
behind holding the sequences that would eat it)."""
PULL: Final = 0.4
"""How much of a seat's own strength counts once it cannot win: below ENDED, so that ending the
game beats any play that goes on, and enough that nearing the last token counts."""


LEAD: Final = 6.0
"""The lead, in points, that counts as most of a win: scores differ by many points (a token eaten
is two), and a narrower scale saturates, so that a seat far ahead or behind no longer tells a
crash from a token."""
OWN: Final = 0.2
START: Final = 5.0
"""A snake's score at the start: one stick on the board and four in the supply."""

PROSPECT: Final = 0.6
"""How much of what a programmed sequence will do counts before it runs: enough that a sequence
towards a token is worth programming, less than all of it, so that running it is worth more than
holding it."""

STUCK: Final = 2.0
"""What holding a sequence bound to crash costs beyond the crash itself: the snake cannot move
until it runs it (cards added later only join the end), so a turn held is a turn lost. The search
then runs such a sequence, a stick lost, rather than holding it for ever."""


HOARD: Final = 0.01
"""What each card held in a programmed sequence costs: a card that does not change where the
sequence leads (laid after its crash, or after a token that ends the game) is better kept in the
hand, so that cards go on round the table; a seat that piled them up starved the others' hands
and stalled the game."""


def strength(position: Position, p: int, taken: int | None = None) -> float:
    """p's score, and while the snake lives, a token's nearness and the room about its head: now,
    and after its programmed sequence runs on the board as it is (a crash costing its stick).
    ``taken``: the position's :func:`_taken`, when the caller has it."""
    points = float(position.eaten[p] + max(0, len(position.snakes[p]) - 1) + position.supply[p])
    snake = position.snakes[p]
    if not snake:
        return points
    now = points + _lie(position, p, _taken(position) if taken is None else taken)
    sequence = position.sequences[p]
    if isinstance(sequence, int) or not sequence:
        return now  # nothing programmed, or physical cards: the engine only counts them
    after, crashed, taken_after = _run(position, p)
    prospect = strength(after, p, taken_after) if after.snakes[p] else float(after.eaten[p])
    if position.phase == "run" and position.player == p:
        return prospect  # running: every card left is played (or the crash comes)
    hoard = HOARD * len(sequence)
    if crashed:
        return prospect - STUCK - hoard
    return PROSPECT * prospect + (1 - PROSPECT) * now - hoard


NEAR: Final = 1.5
"""What a head on a token would be worth, falling by the same step for each step away: less than
the two points eating it brings, so that eating a token never looks worse than hovering by it."""


def _lie(position: Position, p: int, taken: int) -> float:
    """How near p's head is to a token, in steps round the sticks (each step nearer counts alike, so
    that a token far across the board still draws the snake), and how much room the head has."""
    head = position.snakes[p][-1]
    far = 2 * (B.SIZE - 1)
    near = min(steps_to_token(position, head, taken), far)
    room = (_around(1 << head) & ~taken).bit_count()
    return NEAR * (1.0 - near / far) + 0.15 * room


_CELLS: Final = B.SIZE * B.SIZE
_BOARD: Final = (1 << _CELLS) - 1
_NOT_EAST: Final = sum(1 << n for n in range(_CELLS) if n % B.SIZE != B.SIZE - 1)
_NOT_WEST: Final = sum(1 << n for n in range(_CELLS) if n % B.SIZE != 0)


def _around(cells: int) -> int:
    """The intersections next to any of ``cells`` (a bit per intersection)."""
    return ((cells << B.SIZE) | (cells >> B.SIZE) | ((cells & _NOT_EAST) << 1) | ((cells & _NOT_WEST) >> 1)) & _BOARD


def steps_to_token(position: Position, start: int, taken: int | None = None) -> int:
    """Steps from ``start`` to the nearest token through the intersections no stick touches (a
    breadth-first search over the board's bits); the straight (Manhattan) count when the sticks wall
    every token off for now (they move: a tail lifted opens the way), and the board's width without
    tokens. ``taken``: the position's :func:`_taken`, when the caller has it."""
    tokens = _bits(position.tokens)
    reached = 1 << start
    if reached & tokens:
        return 0
    free = _BOARD & ~(_taken(position) if taken is None else taken)
    edge = reached
    steps = 0
    while edge:
        steps += 1
        edge = _around(edge) & free & ~reached
        if edge & tokens:
            return steps
        reached |= edge
    r, c = B.rc(start)
    return min((abs(r - tr) + abs(c - tc) for tr, tc in map(B.rc, position.tokens)), default=2 * (B.SIZE - 1))


def _ways(position: Position, p: int, moves: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """Of ``moves`` (cards added or stepped: each one step from the head of p's snake), those that
    bring the head nearer a token round the sticks, and those that do not crash."""
    snake = position.snakes[p]
    board = _taken(position)
    free = ~board | (0 if position.supply[p] else 1 << snake[0])  # the tail is lifted first
    here = steps_to_token(position, snake[-1], board)
    nearer: list[Action] = []
    safe: list[Action] = []
    for a in moves:
        assert isinstance(a, (Add, Step))
        far = _ahead(position, snake, a.card)
        if far is not None and free >> far & 1:
            safe.append(a)
            if steps_to_token(position, far, board) < here:
                nearer.append(a)
    return nearer, safe


def _programming(position: Position, actions: Sequence[Action]) -> tuple[Action, ...]:
    """:meth:`SerpientesModel.decisions` at a play or program decision with dealt cards: the cards
    are judged from where the sequence already leads (a dead end there: every card crashes)."""
    p = position.player
    end, crashed = run_out(position, p)
    others = [a for a in actions if not isinstance(a, Add)]
    if crashed or not end.tokens or not end.snakes[p]:
        return tuple(others)
    cards = [a for a in actions if isinstance(a, Add)]
    nearer, safe = _ways(end, p, cards)
    moves = [a for a in others if not (a == DONE and position.phase == "play")]
    if nearer:
        return (*nearer, *moves)
    if _progress(position, end):
        return (*safe, *moves)  # the sequence held nears a token: run it or add to it, never wait
    if not safe and (cards or RUN in moves) and _outlives_a_crash(end, p):
        return (*cards, *moves)  # a dead end: every card crashes, and the crash lets the snake turn round
    return (*safe, *others)


def _progress(position: Position, end: Position) -> bool:
    """Whether the player's programmed sequence, run without a crash to ``end``, eats a token or
    brings his head nearer one round the sticks: then a pass only waits (issue 37: a hard seat
    two steps from a token held its sequence, ``done`` at +0.839 against ``run`` at +0.835, for
    hundreds of rounds)."""
    p = position.player
    if end.eaten[p] > position.eaten[p]:
        return True
    here = steps_to_token(position, position.snakes[p][-1])
    return steps_to_token(end, end.snakes[p][-1]) < here


def _outlives_a_crash(position: Position, p: int) -> bool:
    """Whether p's snake is still on the board after a crash: the stick lost is one from the supply
    or its tail, not its only one (a crash on purpose is a way out of a dead end, not out of the game)."""
    return bool(position.supply[p]) or len(position.snakes[p]) > 2


def run_out(position: Position, p: int) -> tuple[Position, bool]:
    """The board after p's programmed sequence (dealt cards) runs on it as it is, the other snakes
    still; and whether it crashes. The sequence is left empty."""
    after, crashed, _ = _run(position, p)
    return after, crashed


def _run(position: Position, p: int) -> tuple[Position, bool, int]:
    """:func:`run_out`, and the :func:`_taken` of the board after it."""
    sequence = position.sequences[p]
    assert not isinstance(sequence, int)
    snake = list(position.snakes[p])
    supply, eaten, tokens = position.supply[p], position.eaten[p], position.tokens
    taken = _taken(position)
    crashed = False
    for card in sequence:
        far = _ahead(position, snake, card)
        if supply:
            supply -= 1
        else:
            taken &= ~(1 << snake.pop(0))  # the tail is lifted first
        if far is None or taken >> far & 1:  # off the board, or onto a stick (a taken edge ends on one)
            crashed = True
            if len(snake) < 2:
                for n in snake:
                    taken &= ~(1 << n)
                snake = []
            break
        snake.append(far)
        taken |= 1 << far
        if far in tokens:
            tokens, supply, eaten = tokens - {far}, supply + 1, eaten + 1
            if not tokens:
                break
    return _put(position, p, tuple(snake), supply, eaten, tokens), crashed, taken


def _ahead(position: Position, snake: Sequence[int], card: int) -> int | None:
    """Where a step with ``card`` takes the head of ``snake`` (None: off the board)."""
    head = snake[-1]
    if position.absolute:
        return B.NEIGHBOUR[head][card]
    heading = B.direction(snake[-2], head)
    return B.NEIGHBOUR[head][(heading, (heading + 3) % 4, (heading + 1) % 4)[card]]


@functools.lru_cache(maxsize=1024)
def _bits(cells: frozenset[int]) -> int:
    """The intersections of ``cells``, a bit each (token sets recur leaf after leaf)."""
    bits = 0
    for n in cells:
        bits |= 1 << n
    return bits


def _taken(position: Position) -> int:
    """The intersections a stick touches, a bit each."""
    taken = 0
    for snake in position.snakes:
        for n in snake:
            taken |= 1 << n
    return taken


def _put(position: Position, p: int, snake: tuple[int, ...], supply: int, eaten: int,
         tokens: frozenset[int]) -> Position:
    def one(values: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
        return (*values[:p], value, *values[p + 1:])
    return position._replace(snakes=one(position.snakes, snake), supply=one(position.supply, supply),
                             eaten=one(position.eaten, eaten), tokens=tokens, sequences=one(position.sequences, ()))
