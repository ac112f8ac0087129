"""Information Set Monte Carlo tree search over the game API (Cowling, Powley & Whitehouse, 2012).

One search serves every game. Each iteration starts from a fresh **determinization**: a full state
the seat's own views allow (for an open game, the one state they describe). The tree is keyed by
what the seat **observes** of each action, not by the action itself: its own actions and public
ones are seen whole, a card another player adds face down only as "add". That is SO-ISMCTS with
partially observable moves: at another player's decision the tree picks an observation by UCB, and
the determinized state picks one of the actions behind it at random. Chance nodes are sampled by
their probabilities. A node counts how often it was available (ISUCT), since what is legal depends
on the determinization.

The leaves are scored by a short rollout, then the game's :meth:`Model.evaluate` (the rollouts of a
whole game are too long for the time a decision has): each player's value from -1 to 1.

The budget is a number of iterations, so a decision replays exactly from the ``random.Random`` it
is handed; the time cap only stops a search that runs far beyond what its budget should take. It
counts the search's own CPU time (``time.thread_time``), so a machine busy with other work slows a
decision down but never cuts it short, which would break its replay.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from controller.games.base import CHANCE, Action, State


@dataclass(frozen=True)
class Budget:
    """How hard a level searches: ``iterations`` per decision, each scored after a rollout of at
    most ``rollout`` actions (chance included)."""

    iterations: int
    rollout: int
    exploration: float = 0.7
    """UCB's constant, for values from -1 to 1."""
    prior: bool = True
    """Whether the tree tries untried children in the game's prior order (``Model.prior``), else at
    random: a level may do without it, so that it stays weaker than the next."""


class Model:
    """A game as one seat may know it: its determinizations, what the seat sees of an action, a
    rollout policy and an evaluation, through the game API's hidden-information hooks. In an open
    game (``hidden`` False) the one known state, every action seen whole."""

    def __init__(self, state: State, seat: int, hidden: bool = False) -> None:
        self.state = state
        self.seat = seat
        self.hidden = hidden
        """Whether the seat cannot see all of the game (``Game.hides_information``): then
        determinizations differ, and what is legal, and each action's observation, is worked out
        again at every visit."""

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with what the seat knows: ``State.resample`` (an open game's is
        the state itself, and draws nothing from ``rng``)."""
        return self.state.resample(self.seat, rng)

    def observation(self, state: State, action: Action) -> Hashable:
        """What the seat learns of ``action`` taken in ``state``: the tree's key for it. Its own
        actions and a hidden card it may see (``State.seen_by``) whole, the others' as everyone
        sees them (``State.public_action_text``)."""
        if not self.hidden or state.current_player == self.seat or state.seen_by(self.seat, action):
            return action
        return state.public_action_text(action)

    def decisions(self, state: State) -> list[Action]:
        """The actions the search weighs at a decision: :func:`decisions`."""
        return decisions(state)

    def winning(self, state: State) -> list[Action]:
        """The legal actions that win at once for whoever takes them (``State.winning_actions``)."""
        return state.winning_actions()

    def prior(self, state: State, actions: Sequence[Action]) -> Sequence[float] | None:
        """How promising each of ``actions`` (at a decision of ``state``) looks to the player taking
        it, higher first: the order the tree tries untried children in (progressive bias). None (the
        default): no guess, the children are tried in random order."""
        return None

    def rollout_action(self, state: State, actions: Sequence[Action], rng: random.Random) -> Action:
        """The action a rollout takes at a decision (uniformly random unless a game says better)."""
        return actions[rng.randrange(len(actions))]

    def evaluate(self, state: State) -> Sequence[float]:
        """Each player's value of ``state``, from -1 (lost) to 1 (won): the returns once it is over."""
        return state.returns() if state.is_terminal() else [0.0] * state.num_players


def decisions(state: State) -> list[Action]:
    """The actions the player to act takes himself (a Jeocinco bridge another may lay out of turn is
    his to decide when his own turn comes); another's, when only they hold the game up."""
    if type(state).player_of is State.player_of:  # nobody else acts at this game's decisions
        return state.legal_actions()
    return state.own_actions() or state.legal_actions()


def contest(points: Sequence[float], scale: float) -> list[float]:
    """Each player's value from a score per player: how far he leads the best of the others, in
    units of ``scale``, squashed into -1..1."""
    out = []
    for p, mine in enumerate(points):
        rival = max(x for q, x in enumerate(points) if q != p)
        out.append(math.tanh((mine - rival) / scale))
    return out


class _Node:
    __slots__ = ("actions", "available", "children", "mover", "ordered", "outcome", "to_act", "value", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # who chose the edge into this node (CHANCE for an outcome)
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.value = 0.0  # the sum of the mover's values over the visits
        self.available = 0
        self.actions: list[Action] | None = None  # an open game's legal list, worked out once
        self.ordered = False  # whether ``actions`` is in the game's prior order (best first)
        self.to_act = CHANCE  # who chooses among the children (an open game's decision)
        self.outcome: tuple[float, ...] | None = None
        """The returns this node is proven to lead to (MCTS-Solver, open games): a terminal state, a
        decision with a child that wins for its chooser, or one whose children are all proven."""


@dataclass(frozen=True)
class Result:
    action: Action
    iterations: int
    """Iterations run: the budget's, unless the wall-clock cap stopped the search."""


def search(model: Model, budget: Budget, rng: random.Random, cap_seconds: float) -> Result:
    """The seat's action: the most visited of the root's children after ``budget.iterations``."""
    root_state = model.state
    own = tactics(model, root_state, model.decisions(root_state))
    if len(own) == 1:
        return Result(own[0], 0)
    root = _Node(CHANCE)
    root.to_act = root_state.current_player
    if not model.hidden:
        root.actions = _order(model, root, root_state, own, rng) if budget.prior else own
    deadline = time.thread_time() + cap_seconds
    done = 0
    for done in range(1, budget.iterations + 1):
        _iterate(model, root, model.determinize(rng), budget, rng, set(own))
        if root.outcome is not None or (done % 8 == 0 and time.thread_time() > deadline):
            break  # proven: more iterations would not change the choice
    me = root_state.current_player
    best = max(own, key=lambda a: _rank(root.children.get(model.observation(root_state, a)), me))
    return Result(best, done)


def _rank(node: _Node | None, me: int) -> tuple[float, int, float]:
    """A root child's rank: proven value first (a proven win above all, a proven loss below every
    child not proven), then visits, then the mean value."""
    if node is None:
        return (0.0, 0, -math.inf)
    proven = 0.0 if node.outcome is None else node.outcome[me]
    return (proven, node.visits, node.value / node.visits if node.visits else -math.inf)


TACTICS_WORK = 2000
"""How many positions :func:`tactics` may look at before it trusts the search with the rest: about
all the bead moves after eighteen Contigo pawn moves. The worst case (every move of a player's turn
answered by a win) is rare and would be slow."""


def tactics(model: Model, state: State, own: list[Action]) -> list[Action]:
    """The actions worth searching at a decision: those that win at once, if any; else those after
    which no opponent has a winning reply, when some are (the player's further actions of the same
    turn included: Contigo's bead move after the pawn move). In a hidden game only the wins, and
    only those that win whatever the others hold cannot be told from the seat's view, so none."""
    me = state.current_player
    wins = [a for a in model.winning(state) if state.player_of(a) == me]
    if wins:
        return wins
    if model.hidden:
        return own
    work = [TACTICS_WORK]
    safe = [a for a in own if not _hands_over(model, state.apply_legal(a), me, 1, work)]
    return safe or own


def _hands_over(model: Model, state: State, me: int, depth: int, work: list[int]) -> bool:
    """Whether ``state`` (after one of ``me``'s actions) lets another player win at once, whatever
    ``me`` does for up to ``depth`` more actions of his turn. Unknown (False) past the work left."""
    work[0] -= 1
    if state.is_terminal():
        return bool(state.winners()) and me not in state.winners()
    if state.current_player == CHANCE or work[0] <= 0:
        return False
    if any(state.player_of(a) != me for a in model.winning(state)):
        return True
    if state.current_player != me or depth == 0:
        return False
    return all(_hands_over(model, state.apply_legal(a), me, depth - 1, work) for a in model.decisions(state))


def _iterate(model: Model, root: _Node, state: State, budget: Budget, rng: random.Random,
             allowed: set[Action]) -> None:
    path = [root]
    node = root
    expanded = False
    while not expanded and not state.is_terminal():
        if state.current_player == CHANCE:
            action = _sample(state, rng)
            key = model.observation(state, action)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(CHANCE)
                expanded = True
        else:
            action, child, expanded = _select(model, node, state, budget.exploration, budget.prior, rng,
                                              allowed if node is root else None)
        state = state.apply_legal(action)
        node = child
        path.append(node)
    proven = state.is_terminal() and not model.hidden
    values = _rollout(model, state, budget.rollout, rng)
    if proven:
        node.outcome = tuple(values)
    for visited in reversed(path):
        visited.visits += 1
        if visited.mover >= 0:
            visited.value += values[visited.mover]
        if proven and visited is not node:
            proven = _solve(visited)


def _solve(node: _Node) -> bool:
    """MCTS-Solver's backup (Winands, Björnsson & Saito, 2008), max-n: a decision is proven when a
    child wins for its chooser, or when every child is proven (then the best of them for him).
    Chance nodes are not proven (their outcomes are drawn one by one). Whether it is proven."""
    chooser = node.to_act
    if chooser < 0 or node.actions is None:
        return False
    best: tuple[float, ...] | None = None
    every = len(node.children) == len(node.actions)
    for child in node.children.values():
        if child.outcome is None:
            every = False
        elif best is None or child.outcome[chooser] > best[chooser]:
            best = child.outcome
    if best is None or not (every or best[chooser] >= 1.0):
        return False
    node.outcome = best
    return True


def _select(model: Model, node: _Node, state: State, exploration: float, prior: bool,
            rng: random.Random, allowed: set[Action] | None) -> tuple[Action, _Node, bool]:
    """At a decision: a child not tried yet (at random), else the best by ISUCT; the action behind it.
    In an open game a player with a winning action weighs only those (he takes one), and a proven
    child counts its proven value (MCTS-Solver)."""
    if model.hidden:
        groups: dict[Hashable, list[Action]] = {}
        for a in model.decisions(state):
            if allowed is None or a in allowed:
                groups.setdefault(model.observation(state, a), []).append(a)
        for key in groups:
            if key in node.children:
                node.children[key].available += 1
    else:  # the same actions at every visit: each child counts as available at every visit
        if node.actions is None:
            node.to_act = me = state.current_player
            wins = [a for a in model.winning(state) if state.player_of(a) == me]
            actions = wins or model.decisions(state)
            node.actions = _order(model, node, state, actions, rng) if prior else actions
        groups = {a: [a] for a in node.actions} if len(node.children) < len(node.actions) else {}
    untried = [key for key in groups if key not in node.children]
    if untried:
        key = untried[0] if node.ordered else untried[rng.randrange(len(untried))]
        action = _pick(groups[key], rng)
        child = node.children[key] = _Node(state.player_of(action))
        child.available = 1
        return action, child, True
    log_parent = math.log(node.visits) if not model.hidden else 0.0
    best_key: Hashable = None
    best = -math.inf
    for key in (groups if model.hidden else node.children):
        child = node.children[key]
        if child.outcome is not None and child.mover >= 0:
            score = child.outcome[child.mover]
        else:
            available = math.log(child.available) if model.hidden else log_parent
            score = child.value / child.visits + exploration * math.sqrt(available / child.visits)
        if score > best:
            best, best_key = score, key
    chosen = node.children[best_key]
    action = _pick(groups[best_key], rng) if model.hidden else best_key
    return action, chosen, False


def _order(model: Model, node: _Node, state: State, actions: list[Action], rng: random.Random) -> list[Action]:
    """An open game's decision node's actions, in the game's prior order when it has one (ties in
    random order; ``node.ordered`` then), so that the first tries go to the moves a player of the
    game would try first."""
    prior = model.prior(state, actions) if len(actions) > 1 else None
    if prior is None:
        return actions
    node.ordered = True
    keyed = sorted(zip(prior, [rng.random() for _ in actions], range(len(actions)), strict=True), reverse=True)
    return [actions[k] for _, _, k in keyed]


def _pick(actions: list[Action], rng: random.Random) -> Action:
    return actions[0] if len(actions) == 1 else actions[rng.randrange(len(actions))]


def _sample(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


def _rollout(model: Model, state: State, depth: int, rng: random.Random) -> Sequence[float]:
    for _ in range(depth):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            action = _sample(state, rng)
        else:
            actions = model.decisions(state)
            action = actions[0] if len(actions) == 1 else model.rollout_action(state, actions, rng)
        state = state.apply_legal(action)
    return model.evaluate(state)
