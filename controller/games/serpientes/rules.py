"""The rules of Serpientes over a :class:`Position`: the legal actions, the effect of a legal action,
and why an action is not legal (see ``docs/rules/serpientes.md``)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Final

from controller.games.base import CHANCE, GAME_OVER, TERMINAL, Message, Phrase
from controller.games.serpientes import board as B
from controller.games.serpientes.actions import (
    ADD_UNSEEN,
    ADDS,
    DISCARD,
    DONE,
    DRAWS,
    FIRSTS,
    HALF_TURN,
    KEEP,
    NO_HALF_TURN,
    RUN,
    STEPS,
    TOKENS,
    DecisionKind,
    SerpientesAction,
    action_to_text,
)
from controller.games.serpientes.position import CHANCE_PHASES, Position, card_count, card_kinds, per_player

# --------------------------------------------------------------------------- counting


def kinds(position: Position) -> tuple[str, ...]:
    """The card kinds of the variant, in their fixed order."""
    return B.ABSOLUTE_KINDS if position.absolute else B.RELATIVE_KINDS


def hand_size(position: Position, p: int) -> int:
    h = position.hands[p]
    return h if isinstance(h, int) else sum(h)


def sequence_length(position: Position, p: int) -> int:
    q = position.sequences[p]
    return q if isinstance(q, int) else len(q)


def sticks(position: Position, p: int) -> int:
    """Sticks of ``p`` on the board."""
    return max(0, len(position.snakes[p]) - 1)


def scores(position: Position) -> list[float]:
    return [float(position.eaten[p] + sticks(position, p) + position.supply[p]) for p in range(position.players)]


def returns(position: Position) -> list[float]:
    n = position.players
    if position.phase != "over":
        return [0.0] * n
    points = scores(position)
    best = max(points)
    if all(x == best for x in points):
        return [0.0] * n
    return [1.0 if x == best else -1.0 for x in points]


def winners(position: Position) -> list[int]:
    """The players who won (empty while playing or on a draw)."""
    points = returns(position)
    return [p for p, r in enumerate(points) if r == max(points) and r > 0]


def current_player(position: Position) -> int:
    if position.phase == "over":
        return TERMINAL
    if position.phase in CHANCE_PHASES:
        return CHANCE
    return position.player


def game_round(position: Position) -> int:
    """The round being played (1-based; 0 before the first turn)."""
    return (position.turns + position.players - 1) // position.players


def chance_wait(position: Position) -> str:
    """What chance is about to decide (in a chance phase)."""
    return {"tokens": "placing tokens", "first": "choosing who starts", "deal": "dealing cards",
            "draw": "drawing a card"}[position.phase]


# --------------------------------------------------------------------------- legal actions

def _free_token_spots(position: Position) -> list[int]:
    taken = set(position.tokens)
    for snake in position.snakes:
        taken.update(snake)
    return [n for n in B.TOKEN_SPOTS if n not in taken]


def _offers(adds: tuple[SerpientesAction, ...]) -> tuple[tuple[SerpientesAction, ...], tuple[SerpientesAction, ...]]:
    """What a hand that may add ``adds`` offers: (when programming or with nothing to run, with a
    sequence to run)."""
    return (*adds, DONE), (*adds, RUN, DONE)


_DEALT_OFFERS: Final = {
    hand: _offers(tuple(ADDS[k] for k, c in enumerate(hand) if c > 0))
    for count in (len(B.RELATIVE_KINDS), len(B.ABSOLUTE_KINDS))
    for hand in itertools.product(range(B.HAND_SIZE + 1), repeat=count)}
"""By dealt hand (a count per kind): the legal list is asked often, so every one is made at import."""
_COUNTED_OFFERS: Final = (_offers(()), _offers((ADD_UNSEEN,)))
"""Physical cards, by whether the hand holds any."""
_PHYSICAL_STEPS: Final = (STEPS[:len(B.RELATIVE_KINDS)], STEPS[:len(B.ABSOLUTE_KINDS)])
"""Physical cards, by whether they are absolute: the card is seen when the stick moves."""
_DEALT_STEP: Final = tuple((step,) for step in STEPS)
"""Dealt cards: the one step the sequence's next card makes."""
_HALF_TURN_CHOICE: Final = (HALF_TURN, NO_HALF_TURN)
_DISCARD_CHOICE: Final = (DISCARD, KEEP)


def legal_actions(position: Position) -> Sequence[SerpientesAction]:
    """Every legal action of the player on turn, in a stable order (chance: the outcomes); often a
    shared tuple, so copy it before changing it."""
    phase = position.phase
    if phase == "play" or phase == "program":
        hand = position.hands[position.player]
        offers = _COUNTED_OFFERS[hand > 0] if isinstance(hand, int) else _DEALT_OFFERS[hand]
        return offers[phase == "play" and sequence_length(position, position.player) > 0]
    if phase == "run":
        sequence = position.sequences[position.player]
        if isinstance(sequence, int):
            return _PHYSICAL_STEPS[position.absolute]
        return _DEALT_STEP[sequence[0]]
    if phase == "discard":
        return _DISCARD_CHOICE
    if phase == "half-turn":
        return _HALF_TURN_CHOICE
    if phase in ("deal", "draw"):
        return [DRAWS[k] for k, c in enumerate(position.deck) if c > 0]
    if phase == "tokens":
        return [TOKENS[n] for n in _free_token_spots(position)]
    if phase == "first":
        return FIRSTS[:position.players]
    return ()


def chance_outcomes(position: Position) -> list[tuple[SerpientesAction, float]]:
    phase = position.phase
    if phase == "tokens":
        spots = _free_token_spots(position)
        return [(TOKENS[n], 1.0 / len(spots)) for n in spots]
    if phase == "first":
        return [(FIRSTS[p], 1.0 / position.players) for p in range(position.players)]
    if phase in ("deal", "draw"):
        total = sum(position.deck)
        return [(DRAWS[k], c / total) for k, c in enumerate(position.deck) if c > 0]
    return []


# --------------------------------------------------------------------------- moving sticks

def step_target(position: Position, card: int) -> tuple[int | None, int, bool]:
    """Where a step with ``card`` goes: (far intersection or None off the board, head
    intersection it starts from, whether the stick comes from the tail)."""
    p = position.player
    snake = position.snakes[p]
    heading = B.direction(snake[-2], snake[-1])
    turned = card if position.absolute else (heading, (heading + 3) % 4, (heading + 1) % 4)[card]
    head = snake[-1]
    return B.NEIGHBOUR[head][turned], head, position.supply[p] == 0


def crash_kind(position: Position, card: int) -> tuple[str | None, int | None]:
    """('off' | 'taken' | 'jump' | None, far intersection) for a step with ``card``."""
    p = position.player
    far, head, from_tail = step_target(position, card)
    if far is None:
        return "off", None
    key = B.edge_key(head, far)
    hit_node = False
    for q, snake in enumerate(position.snakes):
        if q == p and from_tail:
            snake = snake[1:]
        for i in range(1, len(snake)):
            if B.edge_key(snake[i - 1], snake[i]) == key:
                return "taken", far
        if far in snake:
            hit_node = True
    return ("jump" if hit_node else None), far


def step_preview(position: Position) -> list[dict[str, Any]]:
    """While a sequence runs: for each legal step, where the stick would go and what would
    happen (for LEDs: where the next stick may go and where a crash would be). With dealt
    cards this names the next card, so it belongs to the running player's private view."""
    if position.phase != "run":
        return []
    out = []
    for action in legal_actions(position):
        if len(action) != 2:
            continue
        card = action[1]
        crash, far = crash_kind(position, card)
        _, head, from_tail = step_target(position, card)
        outcome = "crash-" + crash if crash is not None else "ate" if far in position.tokens else "placed"
        out.append({
            "action": action_to_text(action, kinds(position)),
            "from": B.node_name(head),
            "to": None if far is None else B.node_name(far),
            "edge": None if far is None else B.edge_channel(head, far),
            "stick_from": "tail" if from_tail else "supply",
            "outcome": outcome,
        })
    return out


# --------------------------------------------------------------------------- the effect of an action

def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1:])


def apply_legal(position: Position, action: SerpientesAction) -> Position:
    """The position after ``action``, one of :func:`legal_actions` (unchecked)."""
    if len(action) == 1:
        return _decide(position, action[0])
    kind, argument = action
    if kind == "token":
        to_place = position.tokens_to_place - 1
        return position._replace(tokens=position.tokens | {argument}, tokens_to_place=to_place,
                                 phase="first" if to_place == 0 else position.phase)
    if kind == "first":
        if position.physical:
            return _begin_turn(position._replace(player=argument, hands=(B.HAND_SIZE,) * position.players), argument)
        return _normalise_deal(position._replace(player=argument, phase="deal"))
    if kind == "draw":
        return _draw(position, argument)
    if kind == "add":
        return _add(position, argument)
    return _step(position, argument)


def _decide(position: Position, kind: DecisionKind) -> Position:
    p = position.player
    if kind == "half-turn":
        return _begin_discard(position._replace(snakes=_set(position.snakes, p, position.snakes[p][::-1]),
                                                crashed=_set(position.crashed, p, 0), last="half-turn"))
    if kind == "no-half-turn":
        return _begin_discard(position._replace(crashed=_set(position.crashed, p, 0)))
    if kind == "discard":
        if position.physical:
            position = position._replace(hands=_set(position.hands, p, 0))
        else:
            held = card_kinds(position.hands[p])
            position = position._replace(discard=tuple(a + b for a, b in zip(position.discard, held, strict=True)),
                                         hands=_set(position.hands, p, (0,) * len(position.deck)))
        return _begin_draw(position._replace(last="discarded"))
    if kind == "keep":
        return _begin_draw(position)
    if kind == "add":  # a physical card, unseen
        return position._replace(hands=_set(position.hands, p, card_count(position.hands[p]) - 1),
                                 sequences=_set(position.sequences, p, card_count(position.sequences[p]) + 1),
                                 last="programmed", phase="program")
    if kind == "done":
        return _end_turn(position)
    return position._replace(phase="run", shown=(), last="revealed")


def _draw(position: Position, card: int) -> Position:
    dealing = position.phase == "deal"
    to = deal_recipient(position) if dealing else position.player
    hand = list(card_kinds(position.hands[to]))
    hand[card] += 1
    deck = list(position.deck)
    deck[card] -= 1
    position = position._replace(hands=_set(position.hands, to, tuple(hand)), deck=tuple(deck))
    return _normalise_deal(position) if dealing else _normalise_draw(position)


def _add(position: Position, card: int) -> Position:
    p = position.player
    hand = list(card_kinds(position.hands[p]))
    hand[card] -= 1
    return position._replace(hands=_set(position.hands, p, tuple(hand)),
                             sequences=_set(position.sequences, p, (*card_kinds(position.sequences[p]), card)),
                             last="programmed", phase="program")


def deal_recipient(position: Position) -> int:
    sizes = [sum(card_kinds(h)) for h in position.hands]
    low = min(sizes)
    n = position.players
    return next(q for q in ((position.player + i) % n for i in range(n)) if sizes[q] == low)


def _reshuffle(position: Position) -> Position:
    return position._replace(deck=position.discard, discard=(0,) * len(position.deck),
                             faceup=(0,) * len(position.deck), reshuffles=position.reshuffles + 1)


def _normalise_deal(position: Position) -> Position:
    if all(sum(card_kinds(h)) >= B.HAND_SIZE for h in position.hands):
        return _begin_turn(position, position.player)
    if sum(position.deck) == 0:
        if sum(position.discard) == 0:
            return _begin_turn(position, position.player)
        return _reshuffle(position)
    return position


def _normalise_draw(position: Position) -> Position:
    if sum(card_kinds(position.hands[position.player])) >= B.HAND_SIZE:
        return position._replace(phase="play")
    if sum(position.deck) == 0:
        if sum(position.discard) == 0:
            return position._replace(phase="play")  # every card is in a hand or a sequence: draw what there is
        return _reshuffle(position)
    return position


def _begin_turn(position: Position, seat: int) -> Position:
    if not any(position.snakes):
        return position._replace(phase="over")
    limit = position.options["max_rounds"] * position.players
    turns = position.turns
    while True:
        if turns >= limit:
            return position._replace(phase="over", turns=turns)
        turns += 1
        if position.snakes[seat]:
            break
        seat = (seat + 1) % position.players
    position = position._replace(turns=turns, player=seat, shown=())
    if position.crashed[seat]:
        return position._replace(phase="half-turn")
    return _begin_discard(position)


def _end_turn(position: Position) -> Position:
    return _begin_turn(position, (position.player + 1) % position.players)


def _begin_discard(position: Position) -> Position:
    if hand_size(position, position.player) > 0:
        return position._replace(phase="discard")
    return _begin_draw(position)


def _begin_draw(position: Position) -> Position:
    p = position.player
    if position.physical:
        free = (sum(per_player(position)) * position.players - sum(map(card_count, position.hands))
                - sum(map(card_count, position.sequences)))
        return position._replace(hands=_set(position.hands, p, min(B.HAND_SIZE, card_count(position.hands[p]) + free)),
                                 phase="play")
    return _normalise_draw(position._replace(phase="draw"))


def _step(position: Position, card: int) -> Position:
    p = position.player
    crash, far = crash_kind(position, card)
    snake = position.snakes[p]
    supply = position.supply
    if supply[p] > 0:
        supply = _set(supply, p, supply[p] - 1)
    else:
        snake = snake[1:]  # the tail is lifted first
    discard = list(position.discard)
    faceup = position.faceup
    if position.physical:
        rest: int | tuple[int, ...] = card_count(position.sequences[p]) - 1
        left = rest
    else:
        rest = card_kinds(position.sequences[p])[1:]
        discard[card] += 1
        faceup = _set(faceup, card, faceup[card] + 1)  # shown to all; the rest of a crashed one goes down unseen
        left = len(rest)
    shown = (*position.shown, card)
    if crash is not None:
        if len(snake) < 2:
            snake = ()  # no stick left on the board nor in the supply: out of the game
        if not position.physical:
            for k in card_kinds(rest):
                discard[k] += 1
        crashed = position._replace(
            snakes=_set(position.snakes, p, snake), supply=supply, crashed=_set(position.crashed, p, 1),
            sequences=_set(position.sequences, p, 0 if position.physical else ()), discard=tuple(discard),
            faceup=faceup, shown=shown, last="crash-" + crash)
        return _end_turn(crashed)
    assert far is not None
    position = position._replace(snakes=_set(position.snakes, p, (*snake, far)), supply=supply,
                                 sequences=_set(position.sequences, p, rest), discard=tuple(discard), faceup=faceup,
                                 shown=shown)
    if far in position.tokens:
        tokens = position.tokens - {far}
        position = position._replace(tokens=tokens, eaten=_set(position.eaten, p, position.eaten[p] + 1),
                                     supply=_set(supply, p, supply[p] + 1), last="ate")
        if not tokens:
            return position._replace(phase="over")
    else:
        position = position._replace(last="placed")
    return _end_turn(position) if left == 0 else position


# --------------------------------------------------------------------------- refusals

NOT_AN_ACTION: Final = Phrase("serpientes.not_an_action", "that is not a Serpientes action")
WAITING_FOR_CHANCE: Final = Phrase("serpientes.waiting_for_chance",
                                   "waiting for chance ({chance}), not for a player's move")
NO_SUCH_CARD: Final = Phrase("serpientes.no_such_card", "that card kind is not in this deck")
DECK_LACKS_CARD: Final = Phrase("serpientes.deck_lacks_card", "no {card} card is left in the deck")
NO_SUCH_FIRST: Final = Phrase("serpientes.no_such_first", "the first player is one of 0..{last}")
NOT_AN_OUTCOME: Final = Phrase("serpientes.not_an_outcome", "not a possible outcome here")
NOT_AN_INTERSECTION: Final = Phrase("serpientes.not_an_intersection", "that is not an intersection")
TOKEN_ON_BORDER: Final = Phrase("serpientes.token_on_border", "tokens are not placed on the border ({node})")
TOKEN_ON_CENTRE: Final = Phrase("serpientes.token_on_centre",
                                "tokens are not placed on the central row or column ({node})")
TOKEN_TAKEN: Final = Phrase("serpientes.token_taken", "{node} already holds a token")
TOKEN_UNDER_STICK: Final = Phrase("serpientes.token_under_stick", "a stick touches {node}")
CHANCE_OUTCOME: Final = Phrase("serpientes.chance_outcome", "that is a chance outcome; it is {player}'s turn ({phase})")
PHASE: Final = {
    "tokens": Phrase("serpientes.phase.tokens", "tokens"), "first": Phrase("serpientes.phase.first", "first"),
    "deal": Phrase("serpientes.phase.deal", "deal"), "draw": Phrase("serpientes.phase.draw", "draw"),
    "half-turn": Phrase("serpientes.phase.half_turn", "half-turn"),
    "discard": Phrase("serpientes.phase.discard", "discard"), "play": Phrase("serpientes.phase.play", "play"),
    "program": Phrase("serpientes.phase.program", "program"), "run": Phrase("serpientes.phase.run", "run"),
    "over": Phrase("serpientes.phase.over", "over"),
}
"""Each phase, as the pictures and the refusals name it."""
HALF_TURN_NOT_NOW: Final = Phrase("serpientes.half_turn_not_now",
                                  "the half-turn is offered only at the start of the turn after a crash")
HALF_TURN_FIRST: Final = Phrase("serpientes.half_turn_first", "first decide on the half-turn (you crashed last "
                                "time): 'half-turn' or 'no-half-turn'")
DISCARD_NOT_NOW: Final = Phrase("serpientes.discard_not_now",
                                "you may discard your whole hand only at the start of your turn, before drawing")
DISCARD_FIRST: Final = Phrase("serpientes.discard_first",
                              "first choose to discard your whole hand or keep it ('discard' or 'keep')")
NO_ADDING_WHILE_RUNNING: Final = Phrase("serpientes.no_adding_while_running",
                                        "you are running your sequence: no cards may be added this turn")
HAND_EMPTY: Final = Phrase("serpientes.hand_empty", "your hand is empty")
HAND_LACKS_CARD: Final = Phrase("serpientes.hand_lacks_card", "your hand holds no {card} card")
RUN_NEXT_TURN: Final = Phrase("serpientes.run_next_turn", "a sequence programmed this turn cannot run until your "
                              "next turn (you added cards this turn)")
ALREADY_RUNNING: Final = Phrase("serpientes.already_running", "your sequence is already running")
NOTHING_TO_RUN: Final = Phrase("serpientes.nothing_to_run", "you have no programmed sequence to run")
FINISH_THE_RUN: Final = Phrase("serpientes.finish_the_run",
                               "finish running your sequence: every card is played unless a crash ends it")
RUN_BEFORE_STEP: Final = Phrase("serpientes.run_before_step", "reveal your sequence with 'run' before moving sticks")
NOT_THE_NEXT_CARD: Final = Phrase("serpientes.not_the_next_card",
                                  "the next card of your sequence is {next}, not {card}")
NOT_LEGAL_HERE: Final = Phrase("serpientes.not_legal_here", "not legal in this position")

_CHANCE_KIND: Final = {"tokens": "token", "first": "first", "deal": "draw", "draw": "draw"}


def why_illegal(position: Position, action: object) -> Message:
    """Why ``action`` is not legal in ``position``, in the players' words (for an action that is
    not one of :func:`legal_actions`)."""
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        return NOT_AN_ACTION()
    if position.phase == "over":
        return GAME_OVER()
    if position.phase in CHANCE_PHASES:
        return _why_not_chance(position, action)
    return _why_not_player(position, action) or NOT_LEGAL_HERE()


def _is_card(position: Position, action: tuple[object, ...]) -> bool:
    return len(action) == 2 and action[1] in range(len(kinds(position)))


def _why_not_chance(position: Position, action: tuple[Any, ...]) -> Message:
    kind = action[0]
    if kind != _CHANCE_KIND[position.phase]:
        return WAITING_FOR_CHANCE(chance=chance_wait(position))
    if kind == "token":
        return _why_not_token(position, action) or NOT_LEGAL_HERE()
    if kind == "draw":
        if not _is_card(position, action):
            return NO_SUCH_CARD()
        if position.deck[action[1]] == 0:
            return DECK_LACKS_CARD(card=kinds(position)[action[1]])
    if kind == "first" and (len(action) != 2 or action[1] not in range(position.players)):
        return NO_SUCH_FIRST(last=position.players - 1)
    return NOT_AN_OUTCOME()


def _why_not_token(position: Position, action: tuple[Any, ...]) -> Message | None:
    n = action[1] if len(action) == 2 else None
    if not isinstance(n, int) or n not in range(B.SIZE * B.SIZE):
        return NOT_AN_INTERSECTION()
    r, c = B.rc(n)
    name = B.node_name(n)
    if B.on_border(n):
        return TOKEN_ON_BORDER(node=name)
    if r == B.CENTRE or c == B.CENTRE:
        return TOKEN_ON_CENTRE(node=name)
    if n in position.tokens:
        return TOKEN_TAKEN(node=name)
    if any(n in snake for snake in position.snakes):
        return TOKEN_UNDER_STICK(node=name)
    return None


def _why_not_player(position: Position, action: tuple[Any, ...]) -> Message | None:
    phase, p, kind = position.phase, position.player, action[0]
    names = kinds(position)
    if kind in ("token", "first", "draw"):
        return CHANCE_OUTCOME(player=B.player_name(p), phase=PHASE[phase]())
    if kind in ("half-turn", "no-half-turn"):
        return HALF_TURN_NOT_NOW() if phase != "half-turn" else None
    if phase == "half-turn":
        return HALF_TURN_FIRST()
    if kind in ("discard", "keep"):
        return DISCARD_NOT_NOW() if phase != "discard" else None
    if phase == "discard":
        return DISCARD_FIRST()
    if kind == "add":
        if phase == "run":
            return NO_ADDING_WHILE_RUNNING()
        if hand_size(position, p) == 0:
            return HAND_EMPTY()
        if not position.physical:
            if not _is_card(position, action):
                return NO_SUCH_CARD()
            if card_kinds(position.hands[p])[action[1]] == 0:
                return HAND_LACKS_CARD(card=names[action[1]])
        return None
    if kind == "run":
        if phase == "program":
            return RUN_NEXT_TURN()
        if phase == "run":
            return ALREADY_RUNNING()
        return NOTHING_TO_RUN() if sequence_length(position, p) == 0 else None
    if kind == "done":
        return FINISH_THE_RUN() if phase == "run" else None
    if kind == "step":
        if phase != "run":
            return RUN_BEFORE_STEP()
        if not _is_card(position, action):
            return NO_SUCH_CARD()
        if not position.physical and card_kinds(position.sequences[p])[0] != action[1]:
            return NOT_THE_NEXT_CARD(next=names[card_kinds(position.sequences[p])[0]], card=names[action[1]])
        return None
    return NOT_AN_ACTION()
