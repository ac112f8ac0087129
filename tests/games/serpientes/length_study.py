"""How many rounds seeded Serpientes games take, to set the round limit far above real play.

    python -m tests.games.serpientes.length_study [--games N]

Plays seeded games (chance by the seed through ``controller.games.record``) with the round limit
at its maximum (500), for every number of players and both card kinds, with two kinds of players:

* ``random``: every decision uniformly at random among the legal actions;
* ``steer``: a player who aims (cards dealt by arbitro): with an empty sequence he programs, from his
  hand, the cards that take his head step by step nearer the nearest token without crashing on the
  board as it is now (stopping when a token is reached), and runs them on his next turn; he turns
  head and tail after a crash when the tail is nearer a token, discards a hand with no safe card,
  and when even a fresh hand has none, plays a card anyway (a crash, then he may turn round).

For each it prints how the games ended (``tokens``: the last token eaten, the seed's end;
``out``: every snake out; ``limit``: the round limit) and the rounds played by the games that
ended by the rules (median, 90th percentile, max). The figures in docs/rules/serpientes.md come from this script.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any

from controller.games import CHANCE
from controller.games.base import Action
from controller.games.record import sample_chance
from controller.games.serpientes import GAME
from controller.games.serpientes import board as B
from controller.games.serpientes.position import card_kinds
from controller.games.serpientes.state import SerpientesState

LIMIT = 500


def _distance(n: int, tokens: Iterable[int]) -> int:
    r, c = B.rc(n)
    return min((abs(r - tr) + abs(c - tc) for tr, tc in map(B.rc, tokens)), default=0)


def _step(state: SerpientesState, p: int, card: int) -> SerpientesState | None:
    """``state`` after player p plays ``card`` as a one-card sequence, or None if it crashes.
    (A study helper: it builds the hypothetical running sequence through the state's fields.)"""
    position = state.position
    trial = SerpientesState(position._replace(
        player=p, phase="run", sequences=(*position.sequences[:p], (card,), *position.sequences[p + 1:]),
        hands=(*position.hands[:p], (0,) * len(position.deck), *position.hands[p + 1:])))
    after = trial.apply(("step", card))
    return None if after.public_view()["last"].startswith("crash") else after


def _plan(state: SerpientesState, p: int) -> list[int]:
    """The cards of p's hand, in order, that walk his head nearer the nearest token."""
    hand = list(card_kinds(state.position.hands[p]))
    plan: list[int] = []
    now = state
    while any(hand) and now.tokens:
        best = None
        for k, count in enumerate(hand):
            if not count:
                continue
            after = _step(now, p, k)
            if after is None:
                continue
            score = _distance(after.snake(p)[-1], now.tokens) if after.tokens == now.tokens else -1
            if best is None or score < best[0]:
                best = (score, k, after)
        if best is None:
            break
        score, k, now = best
        plan.append(k)
        hand[k] -= 1
        if score < 0:  # a token eaten: enough for this sequence
            break
    return plan


def steer(state: SerpientesState, rng: random.Random, plans: dict[int, list[int]]) -> Action:
    p, phase = state.turn_player, state.phase
    if phase == "half-turn":
        sn = state.snake(p)
        return ("half-turn",) if _distance(sn[0], state.tokens) < _distance(sn[-1], state.tokens) else ("no-half-turn",)
    if phase == "discard":
        return ("keep",) if _plan(state, p) else ("discard",)
    if phase == "play":
        if state.sequence_length(p):
            return ("run",)
        plans[p] = _plan(state, p)
        if not plans[p]:  # boxed in even after a fresh hand: crash on purpose, to turn round next turn
            plans[p] = [next(k for k, c in enumerate(card_kinds(state.position.hands[p])) if c)]
    if phase in ("play", "program"):
        plan = plans.get(p) or []
        return ("add", plan.pop(0)) if plan else ("done",)
    return state.legal_actions()[0]  # run: the sequence's next card


def play(seed: int, players: int, options: dict[str, Any], policy: str) -> SerpientesState:
    """The final state of a seeded game between ``policy`` players (``random`` or ``steer``)."""
    rng = random.Random(seed)
    state = GAME.new_state(options, players)
    plans: dict[int, list[int]] = {}
    while not state.is_terminal():
        if state.current_player == CHANCE:
            action = sample_chance(state, rng)
        elif policy == "random":
            action = rng.choice(state.legal_actions())
        else:
            action = steer(state, rng, plans)
        state = state.apply(action)
    return state


def rounds(seed: int, players: int, cards: str, policy: str) -> tuple[str, int]:
    """How a seeded game with the round limit at ``LIMIT`` ended, and after how many rounds."""
    state = play(seed, players, {"cards": cards, "max_rounds": LIMIT, "two_players": players == 2}, policy)
    if not state.tokens:
        how = "tokens"
    elif not any(state.snake(p) for p in range(players)):
        how = "out"
    else:
        how = "limit"
    return how, state.round


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args(argv)
    print(f"rounds played, round limit {LIMIT}; median, p90 and max over the games not stopped by it")
    print(f"{'players':>7} {'cards':9} {'policy':7} {'ends (tokens/out/limit)':>24} {'median':>7} {'p90':>5}"
          f" {'max':>5}")
    for policy in ("random", "steer"):
        for cards in ("relative", "absolute"):
            for players in range(2, 7):
                results = [rounds(seed, players, cards, policy) for seed in range(args.games)]
                ends = Counter(how for how, _ in results)
                lengths = sorted(r for how, r in results if how != "limit")
                p90 = lengths[min(len(lengths) - 1, int(0.9 * len(lengths)))]
                print(f"{players:7} {cards:9} {policy:7} {ends['tokens']:>10}/{ends['out']}/{ends['limit']:<8}"
                      f" {statistics.median(lengths):7.0f} {p90:5} {lengths[-1]:5}")


if __name__ == "__main__":
    main()
