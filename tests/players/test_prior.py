"""Expansion worth its iterations (issue 37, point 2): the tree tries untried children in the game's
prior order (``Model.prior``), and Jeocinco's evaluation sees the pentagons a player can no longer
complete; Contigo's prior puts first the bead moves that change a pawn move the next player would
make a line of with. Positions come from seeded random games, not picked by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from controller.games.base import CHANCE, State
from controller.games.contigo import rules as contigo_rules
from controller.games.contigo.actions import Move
from controller.games.contigo.board import line_lengths
from controller.games.contigo.state import ContigoState
from controller.games.jeocinco import board as B
from controller.games.jeocinco.rules import Facts
from controller.games.jeocinco.state import JeocincoState
from controller.games.registry import get_game
from controller.players import Budget, decide
from controller.players.contigo import ContigoModel
from controller.players.jeocinco import JeocincoModel, slot_prior, strength
from controller.players.search import Model, decisions, tactics
from tests.players.table import random_step

MODELS: dict[str, type[Model]] = {"jeocinco": JeocincoModel, "contigo": ContigoModel}


def _decisions_with_a_clear_favourite(game: str, n: int, wanted: int) -> Iterator[tuple[State, object]]:
    """Decisions of seeded random games where the prior ranks one of the actions the root searches
    (those ``tactics`` keeps) strictly above the rest: that action and the state."""
    found = 0
    for g in range(200):
        state = get_game(game).new_state({}, n)
        rng = random.Random(500 + g)
        while not state.is_terminal() and found < wanted:
            me = state.current_player
            if me != CHANCE:
                model = MODELS[game](state, me)
                own = tactics(model, state, decisions(state))
                prior = model.prior(state, own) if len(own) > 1 else None
                if prior is not None:
                    top = max(prior)
                    if sum(1 for x in prior if x == top) == 1:
                        found += 1
                        yield state, own[prior.index(top)]
            state = state.apply_legal(random_step(state, rng))
        if found >= wanted:
            return


@pytest.mark.parametrize(("game", "n"), [("jeocinco", 2), ("jeocinco", 3), ("contigo", 2), ("contigo", 4)])
def test_the_first_child_tried_is_the_prior_s_favourite(game: str, n: int) -> None:
    # one iteration expands one root child: the prior's best (random order would pick any of them)
    found = list(_decisions_with_a_clear_favourite(game, n, 20))
    assert len(found) == 20
    for k, (state, best) in enumerate(found):
        seat = state.current_player
        chosen = decide(game, {}, state.public_view(), state.private_view(seat), seat, Budget(1, 0),
                        random.Random(k)).action
        assert chosen == best, f"{game}: tried {chosen!r} first, not {best!r}, in {state.to_text()}"


def _locked_pentagons(state: JeocincoState, p: int) -> Iterator[tuple[int, int]]:
    """(pentagon, free side) of p's colour where another's piece on a tower's side (never disputed)
    holds a side: the pentagon can never be completed."""
    pos = state.position
    c = pos.colours[p]
    others = pos.occupied() & ~pos.pieces[p]
    locked = others & state.facts.completed()
    for q in range(c, B.NUM_PENTS, 4):
        sides = B.PENT_MASK[q]
        if pos.towers[q] >= 0 or not sides & locked:
            continue
        for s in B.PENT_SLOTS[q]:
            # a free side on no other pentagon of p's colour, next to none of his pieces: a piece there
            # could help only the locked pentagon (no other's progress, no network joined)
            free = not (pos.occupied() | pos.vacated()) >> s & 1
            if free and not B.ADJ_MASK[s] & pos.pieces[p] and all(r == q or B.PENT_COLOUR[r] != c
                                                                  for r in B.SLOT_PENTS[s]):
                yield q, s


def test_jeocinco_s_evaluation_counts_nothing_for_a_pentagon_that_can_never_be_completed() -> None:
    # easy players build towers (random play seldom does); a piece more on a locked pentagon is worth nothing
    checked = 0
    for g in range(6):
        state = get_game("jeocinco").new_state({}, 2)
        table, mind = random.Random(g), random.Random(100 + g)
        while not state.is_terminal() and checked < 20:
            p = state.current_player
            if p < 0:
                state = state.apply_legal(table.choice([a for a, _ in state.chance_outcomes()]))
                continue
            assert isinstance(state, JeocincoState)
            for q in range(2):
                for _, s in _locked_pentagons(state, q):
                    pos = state.position
                    pieces = tuple(m | 1 << s if r == q else m for r, m in enumerate(pos.pieces))
                    more = JeocincoState(Facts(pos._replace(pieces=pieces)))
                    assert strength(more, q) == strength(state, q)
                    assert slot_prior(state, q, s) == 0.0  # nor is the piece worth trying first
                    checked += 1
            state = state.apply_legal(decide("jeocinco", {}, state.public_view(), state.private_view(p), p, "easy",
                                             mind).action)
        if checked >= 20:
            break
    assert checked >= 20


def _threats(state: ContigoState) -> set[object]:
    """The pawn moves (by the engine) of the player after the one to move beads that would give him
    a run of his pawns one short of the win, or the win."""
    position = state.position
    q = (position.player + 1) % position.variant.n
    out: set[object] = set()
    for move in contigo_rules.legal_actions(position._replace(player=q, phase="move")):
        if isinstance(move, Move):
            after = contigo_rules.apply_legal(position._replace(player=q, phase="move"), move)
            if line_lengths(after.board, q, position.variant.lines[move.dst])[0] + 1 >= position.variant.need:
                out.add(move)
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_contigo_s_prior_puts_first_the_bead_moves_that_change_a_threatening_pawn_move(n: int) -> None:
    # the engine says which: after a bead move ranked first, one of those pawn moves is gone (its pit
    # no longer counts as many beads); after any other, every one of them is still there
    checked = 0
    for g in range(40):
        state = get_game("contigo").new_state({}, n)
        rng = random.Random(900 + g)
        while not state.is_terminal() and checked < 20:
            if isinstance(state, ContigoState) and state.position.phase == "beads":
                actions = state.legal_actions()
                prior = ContigoModel(state, state.current_player).prior(state, actions)
                threats = _threats(state)
                assert (prior is not None) == bool(threats)
                if prior is not None and max(prior) > 0:
                    checked += 1
                    for action, guess in zip(actions, prior, strict=True):
                        after = contigo_rules.apply_legal(state.position, action)
                        moved = contigo_rules.legal_actions(after._replace(player=(state.position.player + 1) % n,
                                                                           phase="move"))
                        assert (guess > 0) == bool(threats - set(moved)), (state.to_text(), action)
            state = state.apply_legal(random_step(state, rng))
        if checked >= 20:
            break
    assert checked >= 20
