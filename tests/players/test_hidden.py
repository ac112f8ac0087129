"""A computer player sees only what its seat may know: permuting what it cannot see changes nothing."""

from __future__ import annotations

import inspect
import random

import pytest

from controller.games.serpientes.position import card_kinds
from controller.games.serpientes.state import SerpientesState
from controller.players import decide
from tests.players.table import position_where

SEAT = 0


def _programming(seed: int, n: int = 4) -> SerpientesState:
    """A Serpientes state where seat 0 programs (adds a card, runs or ends its turn)."""
    for skip in range(40):
        state = position_where("serpientes", {}, n, seat=SEAT, seed=seed, choices=3, skip=skip)
        assert isinstance(state, SerpientesState)
        if state.phase == "play" and state.position.deck:
            return state
    raise AssertionError("no programming decision found")


def _permuted(state: SerpientesState) -> SerpientesState:
    """The same public and seat-0 views, with the others' hands, sequences and the deck redealt:
    the cards the seat cannot see, shuffled among those hidden places."""
    pos = state.position
    kinds = len(pos.deck)
    others = [p for p in range(pos.players) if p != SEAT]
    cards: list[int] = []
    for p in others:
        hand, sequence = card_kinds(pos.hands[p]), card_kinds(pos.sequences[p])
        cards += [k for k, c in enumerate(hand) for _ in range(c)] + list(sequence)
    cards += [k for k, c in enumerate(pos.deck) for _ in range(c)]
    random.Random(len(cards)).shuffle(cards)
    hands, sequences = list(pos.hands), list(pos.sequences)
    at = 0
    for p in others:
        size, length = sum(card_kinds(pos.hands[p])), len(card_kinds(pos.sequences[p]))
        hands[p] = tuple(cards[at:at + size].count(k) for k in range(kinds))
        sequences[p] = tuple(cards[at + size:at + size + length])
        at += size + length
    deck = tuple(cards[at:].count(k) for k in range(kinds))
    return SerpientesState(pos._replace(hands=tuple(hands), sequences=tuple(sequences), deck=deck))


@pytest.mark.parametrize("seed", [1, 4])
def test_serpientes_decides_alike_when_the_cards_it_cannot_see_are_permuted(seed: int) -> None:
    state = _programming(seed)
    other = _permuted(state)
    assert other.to_text() != state.to_text()  # the hidden cards differ...
    assert other.public_view() == state.public_view()  # ...where nobody may see them
    assert other.private_view(SEAT) == state.private_view(SEAT)
    for level in ("easy", "medium"):
        mine = decide("serpientes", {}, state.public_view(), state.private_view(SEAT), SEAT, level, random.Random(9))
        theirs = decide("serpientes", {}, other.public_view(), other.private_view(SEAT), SEAT, level,
                        random.Random(9))
        assert mine == theirs


def test_a_bot_refuses_another_seats_private_view() -> None:
    state = _programming(1)
    with pytest.raises(ValueError, match="not seat 0's own dealt hand"):
        decide("serpientes", {}, state.public_view(), state.private_view(1), SEAT, "easy", random.Random(1))


def test_a_bot_refuses_to_decide_for_a_seat_not_on_turn() -> None:
    state = position_where("contigo", {}, 2, seat=1, seed=3)
    with pytest.raises(ValueError, match="not seat 0's decision"):
        decide("contigo", {}, state.public_view(), state.private_view(0), 0, "easy", random.Random(1))


def test_the_public_view_holds_no_hidden_card() -> None:
    # The search builds its states from what decide is given; the public position is all counts.
    state = _programming(1)
    fields = dict(word.split("=", 1) for word in state.public_view()["position"].split()[1:])
    assert all(part.startswith("#") for key in ("hands", "seqs") for part in fields[key].split("/"))
    assert fields["deck"].startswith("#") and fields["discard"].startswith("#")


def test_the_entry_point_takes_views_not_states() -> None:
    assert list(inspect.signature(decide).parameters) == ["game", "options", "public_view", "private_view", "seat",
                                                          "level", "rng", "cap_seconds"]
