"""Serpientes' computer player: Information Set MCTS over determinizations of the hidden cards.

With dealt cards a seat sees its own hand and programmed sequence, and only counts of the others'
hands and sequences, of the deck and of the discards. Each iteration deals every card the seat has
not seen (the game's whole deck less its own hand and sequence and the cards the running sequence
has shown) at random among those places, in their public sizes: a state that agrees with all the
seat knows. The tree sees another player's card added or drawn only as "add" or "draw"
(``public_action_text``), and its own draws whole. With physical cards the engine itself knows only
the counts, so the public position is the whole state.

A leaf is scored after a rollout of about a turn by each snake's score (tokens eaten, sticks on the
board and in supply), how near its head is to a token, and how much room the head has.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from controller.games.base import CHANCE, Action, Options, State, read_fields, write_fields
from controller.games.registry import get_game
from controller.games.serpientes import board as B
from controller.games.serpientes.position import KEYS
from controller.games.serpientes.state import SerpientesState
from controller.players.search import Budget, Model, contest

BUDGETS: Final = {
    "easy": Budget(iterations=40, rollout=10),
    "medium": Budget(iterations=120, rollout=10),
    "hard": Budget(iterations=250, rollout=10),
}


def model(options: Options, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> Model:
    engine = get_game("serpientes")
    wanted, _ = engine.resolve(options, public_view["players"])
    if public_view["options"] != wanted:
        raise ValueError(f"serpientes: the public view is a game of options {public_view['options']}, not {wanted}")
    if wanted["dealing"] == "physical":
        return SerpientesModel(engine.state_from_text(public_view["position"]), seat)
    return DealtModel(public_view, private_view, seat)


class SerpientesModel(Model):
    def evaluate(self, state: State) -> Sequence[float]:
        if not isinstance(state, SerpientesState):
            return super().evaluate(state)
        return contest([strength(state, p) for p in range(state.num_players)], 2.0)


def strength(state: SerpientesState, p: int) -> float:
    """The score, and while the snake lives, a token's nearness and the room about its head."""
    position = state.position
    points = float(position.eaten[p] + max(0, len(position.snakes[p]) - 1) + position.supply[p])
    snake = position.snakes[p]
    if not snake or state.is_terminal():
        return points
    head = snake[-1]
    r, c = B.rc(head)
    near = min((abs(r - tr) + abs(c - tc) for tr, tc in map(B.rc, position.tokens)), default=B.SIZE)
    taken = {n for s in position.snakes for n in s}
    room = sum(1 for n in B.NEIGHBOUR[head] if n is not None and n not in taken)
    return points + 0.8 / (1 + near) + 0.15 * room


class DealtModel(SerpientesModel):
    """Dealt cards: the seat's hand and sequence known, every other card dealt anew each iteration."""

    hidden = True

    def __init__(self, public_view: Mapping[str, Any], private_view: Mapping[str, Any], seat: int) -> None:
        fields = read_fields(public_view["position"], "serpientes", KEYS)
        absolute = fields["cards"] == "absolute"
        kinds = B.ABSOLUTE_KINDS if absolute else B.RELATIVE_KINDS
        letters = B.ABSOLUTE_LETTERS if absolute else B.RELATIVE_LETTERS
        n = int(fields["players"])
        if private_view.get("player") != seat or "hand" not in private_view:
            raise ValueError(f"serpientes: the private view is not seat {seat}'s own dealt hand")
        hand = [kinds.index(card) for card in private_view["hand"]]
        sequence = [kinds.index(card) for card in private_view["sequence"]]
        shown = [letters.index(ch) for ch in fields["shown"].strip("-")]
        per = (B.ABSOLUTE_PER_PLAYER if absolute else B.RELATIVE_PER_PLAYER)
        unseen = [k for k, count in enumerate(per) for _ in range(count * n)]
        for k in (*hand, *sequence, *shown):
            unseen.remove(k)
        hands = [0 if p == seat else int(x[1:]) for p, x in enumerate(fields["hands"].split("/"))]
        sequences = [0 if p == seat else int(x[1:]) for p, x in enumerate(fields["seqs"].split("/"))]
        self.kinds = len(kinds)
        self.unseen = unseen
        self.hand_sizes = hands
        self.sequence_lengths = sequences
        self.deck_size = int(fields["deck"][1:])
        self.shown = shown
        if sum(hands) + sum(sequences) + self.deck_size + int(fields["discard"][1:]) - len(shown) != len(unseen):
            raise ValueError("serpientes: the views' card counts do not add up to the deck")
        own_hand = tuple(hand.count(k) for k in range(self.kinds))
        # One determinization is read by the engine, which checks it; later ones only redeal its cards.
        template = get_game("serpientes").state_from_text(
            self._text(fields, own_hand, sequence, seat, random.Random(0), letters))
        assert isinstance(template, SerpientesState)
        super().__init__(template, seat)
        self.template = template

    def _text(self, fields: dict[str, str], own_hand: tuple[int, ...], sequence: list[int], seat: int,
              rng: random.Random, letters: str) -> str:
        hands, sequences, deck, discard = self._deal(rng)
        hands[seat], sequences[seat] = own_hand, tuple(sequence)
        fields = dict(fields)
        fields["hands"] = "/".join("".join(letters[k] * c for k, c in enumerate(h)) or "-" for h in hands)
        fields["seqs"] = "/".join("".join(letters[k] for k in q) or "-" for q in sequences)
        fields["deck"] = ",".join(map(str, deck))
        fields["discard"] = ",".join(map(str, discard))
        return write_fields("serpientes", fields.items())

    def _deal(self, rng: random.Random) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], tuple[int, ...],
                                                 tuple[int, ...]]:
        """The unseen cards shuffled into the others' hands and sequences, the deck and the discards."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        at = 0
        hands: list[tuple[int, ...]] = []
        sequences: list[tuple[int, ...]] = []
        for size, length in zip(self.hand_sizes, self.sequence_lengths, strict=True):
            held = cards[at:at + size]
            hands.append(tuple(held.count(k) for k in range(self.kinds)))
            sequences.append(tuple(cards[at + size:at + size + length]))
            at += size + length
        deck = cards[at:at + self.deck_size]
        discard = cards[at + self.deck_size:] + self.shown
        return (hands, sequences, tuple(deck.count(k) for k in range(self.kinds)),
                tuple(discard.count(k) for k in range(self.kinds)))

    def determinize(self, rng: random.Random) -> State:
        position = self.template.position
        hands, sequences, deck, discard = self._deal(rng)
        hands[self.seat], sequences[self.seat] = position.hands[self.seat], position.sequences[self.seat]  # type: ignore[assignment]
        return SerpientesState(position._replace(hands=tuple(hands), sequences=tuple(sequences), deck=deck,
                                                 discard=discard))

    def observation(self, state: State, action: Action) -> Hashable:
        actor = state.current_player
        if actor == self.seat:
            return action
        if actor == CHANCE and isinstance(state, SerpientesState) and state.position.phase == "draw" \
                and state.position.player == self.seat:
            return action  # a card drawn into the seat's own hand
        return state.public_action_text(action)
