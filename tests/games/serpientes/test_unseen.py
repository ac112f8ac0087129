"""The cards some seats cannot see (``SerpientesState.rearranged``, ``seen_by``,
``information_state``): a position arranged anew so that a card named later is where the action takes it from, changing
nothing those seats may see."""

from __future__ import annotations

import itertools
import random

import pytest

from controller.games import CHANCE
from controller.games.record import sample_chance
from controller.games.serpientes import GAME, SerpientesState
from controller.games.serpientes.position import card_kinds

SEATS = frozenset({1})  # what board b's one seat sees; seats 0 and 2 are the other board's


def positions(seed: int) -> list[SerpientesState]:
    """Every position of a random dealt game of three."""
    rng = random.Random(seed)
    state = GAME.new_state({"tokens": 4, "max_rounds": 6}, 3)
    seen = [state]
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.current_player == CHANCE else rng.choice(state.legal_actions())
        state = state.apply(action)
        seen.append(state)
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_a_step_or_draw_finds_its_card_and_the_seat_sees_no_change(seed: int) -> None:
    moved = 0
    for state in positions(seed):
        p = state.position
        wanted: list[tuple[str, int]] = []
        if p.phase == "run" and p.player not in SEATS:
            wanted = [("step", k) for k in range(len(state.kinds))]
        elif p.phase in ("deal", "draw"):
            wanted = [("draw", k) for k in range(len(state.kinds))]
        for action in wanted:
            arranged = state.rearranged(SEATS, action)
            if action in state.legal_actions():
                assert arranged is None  # already where it is taken from
                continue
            if arranged is None:
                continue  # no card of that kind is unseen
            moved += 1
            assert action in arranged.legal_actions()
            assert arranged.information_state(SEATS) == state.information_state(SEATS)
            assert GAME.state_from_text(arranged.to_text()).to_text() == arranged.to_text()  # a valid position
    assert moved


def test_a_card_all_of_whose_kind_the_seat_holds_or_has_seen_is_not_found() -> None:
    state = next(s for s in positions(1) if s.position.phase == "run" and s.position.player not in SEATS)
    p = state.position
    # Every card of one kind put in seat 1's hand, the running player's next card of another kind.
    for k in range(len(state.kinds)):
        unseen_of_k = sum(card_kinds(h)[k] for q, h in enumerate(p.hands) if q not in SEATS)
        unseen_of_k += sum(card_kinds(seq).count(k) for q, seq in enumerate(p.sequences) if q not in SEATS)
        unseen_of_k += p.deck[k] + p.discard[k] - p.faceup[k]
        arranged = state.rearranged(SEATS, ("step", k))
        if ("step", k) in state.legal_actions():
            continue
        assert (arranged is None) == (unseen_of_k == 0)


@pytest.mark.parametrize("seed", range(3))
def test_cards_turned_face_up_in_earlier_runs_stay_on_the_discards_when_dealt_anew(seed: int) -> None:
    earlier = 0
    for state in positions(seed):
        p = state.position
        if not any(p.faceup):
            continue
        for k, up in enumerate(p.faceup):
            assert p.shown.count(k) <= up <= p.discard[k]
        earlier += sum(p.faceup) > len(p.shown)  # some shown by a run before the running one
        for r in range(5):
            dealt = state.resample(SEATS, random.Random(r))
            assert dealt.information_state(SEATS) == state.information_state(SEATS)
            assert all(dealt.position.discard[k] >= up for k, up in enumerate(p.faceup))
    assert earlier


def test_the_discards_become_the_deck_face_down() -> None:
    reshuffled = 0
    for seed in range(3):
        seen = positions(seed)
        for before, after in itertools.pairwise(seen):
            if after.position.reshuffles > before.position.reshuffles:
                reshuffled += any(before.position.faceup)
                assert not any(after.position.faceup)
    assert reshuffled


def test_who_sees_a_card_drawn_or_added() -> None:
    for state in positions(2):
        for action in state.legal_actions():
            kind = state.action_to_text(action).split()[0]
            if kind == "add":  # its own seat's
                assert state.seen_by(SEATS, action) == (state.current_player in SEATS)
            elif kind == "draw":  # the seat it is dealt or drawn to
                after = state.apply(action)
                (to,) = [q for q in range(3) if after.hand_size(q) > state.hand_size(q)]
                assert state.seen_by(SEATS, action) == (to in SEATS)
            else:
                assert not state.seen_by(SEATS, action)
