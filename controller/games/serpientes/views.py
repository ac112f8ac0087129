"""What each party sees of a Serpientes position: the board's sensors, everyone, one player; what a
move makes worth announcing; a terminal picture; the cards some seats cannot see, dealt or arranged
anew (the game API's hidden-information hooks: ``State.information_state``, ``resample``,
``seen_by``, ``rearranged``, ``Game.state_seen_by``)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from controller.games.base import (
    Announcement,
    Message,
    Phrase,
    Say,
    announcement,
    in_english,
    parse_int,
    read_fields,
    write_fields,
)
from controller.games.serpientes import board as B
from controller.games.serpientes.actions import SerpientesAction, is_action
from controller.games.serpientes.position import (
    CHANCE_PHASES,
    KEYS,
    PLAYER_PHASES,
    Cards,
    Position,
    card_kinds,
    position_to_text,
)
from controller.games.serpientes.rules import (
    PHASE,
    chance_wait,
    current_player,
    deal_recipient,
    game_round,
    hand_size,
    kinds,
    scores,
    sequence_length,
    step_preview,
    sticks,
    winners,
)

if TYPE_CHECKING:
    import random  # the type of the generator a caller passes in: an engine draws nothing itself

CRASHED: Final = Phrase("serpientes.crashed", "{player}'s snake crashed ({crash}): the stick goes back to the box")
ATE: Final = Phrase("serpientes.ate", "{player}'s snake ate a token")


def physical_view(position: Position) -> dict[str, int]:
    """A stick on every edge a snake covers, a token on its intersection."""
    view = dict(B.EMPTY_VIEW)
    for snake in position.snakes:
        for i in range(1, len(snake)):
            view[B.EDGE_CHANNEL_BY_KEY[B.edge_key(snake[i - 1], snake[i])]] = 1
    for n in position.tokens:
        view[B.NODE_CHANNELS[n]] = 1
    return view


def announcements(before: Position, action: SerpientesAction, after: Position) -> list[Announcement]:
    """A crash or a token eaten by a step."""
    if action[0] != "step":
        return []
    p = before.player
    if after.last.startswith("crash-"):
        return [announcement("crash", p, CRASHED(player=B.player_name(p), crash=after.last[6:]))]
    if after.last == "ate":
        return [announcement("ate", p, ATE(player=B.player_name(p)))]
    return []


def public_text(position: Position) -> str:
    """The position as every player sees it: hands, sequences and the deck as counts only."""
    return position_to_text(position, public=True)


def private_text(position: Position, player: int) -> str:
    """The position as ``player`` sees it: the public text with his own hand and sequence."""
    if not 0 <= player < position.players:
        raise ValueError(f"no player {player}")
    return position_to_text(position, public=True, viewer=player)


def public_view(position: Position) -> dict[str, Any]:
    snakes = []
    for p in range(position.players):
        snake = position.snakes[p]
        snakes.append({
            "player": p,
            "intersections": [B.node_name(n) for n in snake],
            "head": B.node_name(snake[-1]) if snake else None,
            "tail": B.node_name(snake[0]) if snake else None,
            "sticks": sticks(position, p),
            "supply": position.supply[p],
            "eaten": position.eaten[p],
            "in_game": bool(snake),
            "hand_size": hand_size(position, p),
            "sequence_length": sequence_length(position, p),
            "may_half_turn": bool(position.crashed[p]),
        })
    dealt = not position.physical
    return {
        "game": "serpientes",
        "options": dict(position.options),
        "players": position.players,
        "phase": position.phase,
        "current_player": current_player(position),
        "turn_player": position.player,
        "round": game_round(position),
        "max_rounds": position.options["max_rounds"],
        "tokens": [B.node_name(n) for n in sorted(position.tokens)],
        "tokens_to_place": position.tokens_to_place,
        "snakes": snakes,
        "scores": scores(position),
        "deck_size": sum(position.deck) if dealt else None,
        "discard_size": sum(position.discard) if dealt else None,
        "reshuffles": position.reshuffles,
        "revealed": [kinds(position)[k] for k in position.shown],
        "last": position.last,
        "pending_chance": chance_wait(position) if position.phase in CHANCE_PHASES else None,
        "winners": winners(position),
        "position": public_text(position),
    }


def private_view(position: Position, player: int) -> dict[str, Any]:
    if not 0 <= player < position.players:
        raise ValueError(f"no player {player}")
    view: dict[str, Any]
    names = kinds(position)
    if position.physical:
        view = {"player": player, "hand_size": position.hands[player],
                "sequence_length": position.sequences[player], "cards": "physical"}
    else:
        hand = [names[k] for k, c in enumerate(card_kinds(position.hands[player])) for _ in range(c)]
        view = {"player": player, "hand": hand,
                "sequence": [names[k] for k in card_kinds(position.sequences[player])]}
    if position.phase == "run" and player == position.player:
        view["next_steps"] = step_preview(position)
    return view


TEXT_STATUS = Phrase("serpientes.text.status", "phase {phase}, round {round}/{rounds}, tokens left {tokens}")
TEXT_PLAYER = Phrase("serpientes.text.player", "{player} ({number} body, {head} head): sticks {sticks} supply "
                     "{supply} eaten {eaten} score {score} hand {hand} sequence {sequence}")


def render_text(position: Position, say: Say = in_english) -> str:
    """The intersections (``.`` empty, ``o`` token, a player's number from 1 on his snake, a letter
    on his head) and the sticks, then a status line per player, which names his number and letter."""
    owner: dict[int, int] = {}
    heads: dict[int, int] = {}
    edges: dict[int, int] = {}
    for p, snake in enumerate(position.snakes):
        for n in snake:
            owner[n] = p
        if snake:
            heads[snake[-1]] = p
        for i in range(1, len(snake)):
            edges[B.edge_key(snake[i - 1], snake[i])] = p
    lines = ["    " + "   ".join(B.COLUMNS)]
    for r in range(B.SIZE):
        row = f"{r + 1:>2}  "
        below = "    "
        for c in range(B.SIZE):
            n = B.node(r, c)
            if n in heads:
                row += "ABCDEF"[heads[n]]
            elif n in owner:
                row += str(owner[n] + 1)
            else:
                row += "o" if n in position.tokens else "."
            if c < B.SIZE - 1:
                e = edges.get(B.edge_key(n, n + 1))
                row += "   " if e is None else f"-{e + 1}-"
            if r < B.SIZE - 1:
                e = edges.get(B.edge_key(n, n + B.SIZE))
                below += (" " if e is None else str(e + 1)) + "   "
        lines.append(row.rstrip())
        if r < B.SIZE - 1:
            lines.append(below.rstrip())
    points = scores(position)
    status = [say(TEXT_STATUS(phase=PHASE[position.phase](), round=game_round(position),
                              rounds=position.options["max_rounds"], tokens=len(position.tokens)))]
    for p in range(position.players):
        mark = "*" if p == position.player and position.phase in PLAYER_PHASES else " "
        status.append(mark + say(TEXT_PLAYER(
            player=f"player {p}", number=p + 1, head="ABCDEF"[p], sticks=sticks(position, p), supply=position.supply[p],
            eaten=position.eaten[p], score=int(points[p]), hand=hand_size(position, p),
            sequence=sequence_length(position, p))))
    return "\n".join(lines + status)


REVEALED_NOTE = Phrase("serpientes.note.revealed", "Revealed: {cards}")
CARD_NOTE = Phrase("serpientes.note.card", "{card}")  # each card said in its turn
DECK_NOTE = Phrase("serpientes.note.deck", "Deck {deck} cards, discards {discards}")
TOKENS_NOTE = Phrase("serpientes.note.tokens", "Tokens left: {tokens} · round {round} of {rounds}")


def notes(view: dict[str, Any]) -> list[Message]:
    """What a display says beside the picture: the cards revealed, the deck, the tokens and round."""
    out: list[Message] = []
    if view.get("revealed"):
        out.append(REVEALED_NOTE(cards=tuple(CARD_NOTE(card=c) for c in view["revealed"])))
    if view.get("deck_size") is not None:
        out.append(DECK_NOTE(deck=view["deck_size"], discards=view["discard_size"]))
    out.append(TOKENS_NOTE(tokens=len(view.get("tokens") or []), round=view["round"], rounds=view["max_rounds"]))
    return out


# --------------------------------------------------------------------------- the cards some seats cannot see
# A computer player searches positions that agree with all its seat may know (the public counts,
# its own hand and sequence): :func:`seen_text` gives one, :func:`resampled` deals every other card
# anew for each determinization. A remote game's joining board (``controller.remote_hidden``)
# follows the game in such a position too; when the host's seat steps with a card, or a card is
# drawn into one of the joining board's hands, that card may lie elsewhere in the arrangement:
# :func:`rearranged` swaps it into place among the cards those seats cannot see.

Place = tuple[str, int, int]
"""Where an unseen card lies: ("hand", player, -), ("seq", player, index), ("deck", -, -), ("discard", -, -)."""

SEEN_KINDS: Final = ("draw", "add")
"""The actions whose card is hidden from the seats it is not for (``public_action_text``)."""


def view_text(position: Position, seats: Collection[int]) -> str:
    """What ``seats`` may see of ``position``: the public text, then each one's private text."""
    return "\n".join([public_text(position), *(private_text(position, p) for p in sorted(seats))])


def seen_by(position: Position, seats: Collection[int], action: object) -> bool:
    """Whether one of ``seats`` may see the card of ``action``: its own add, or a draw into its hand."""
    if not is_action(action) or action[0] not in SEEN_KINDS:
        return False
    if action[0] == "add":
        return position.player in seats
    return (deal_recipient(position) if position.phase == "deal" else position.player) in seats


def rearranged(position: Position, seats: Collection[int], action: object) -> Position | None:
    """``position`` with the cards ``seats`` cannot see (the other seats' hands and sequences, the deck,
    the discards but those turned face up) swapped so that ``action`` — a card
    drawn, or a step with the running sequence's next card — finds its card where it takes it
    from; None when no unseen card is of its kind (or ``action`` names no such card)."""
    if position.physical or not is_action(action) or len(action) != 2:
        return None
    kind, card = action[0], action[1]
    if kind == "draw" and position.phase in ("deal", "draw") and position.deck[card] == 0:
        displaced = next(k for k, count in enumerate(position.deck) if count)
        target: Place = ("deck", -1, -1)
    elif kind == "step" and position.phase == "run" and position.player not in seats:
        displaced = card_kinds(position.sequences[position.player])[0]
        target = ("seq", position.player, 0)
    else:
        return None
    if displaced == card:
        return None
    for place in _unseen(position, seats):
        if place != target and _kind_at(position, place, card):
            return _put(_put(position, place, card, displaced), target, displaced, card)
    return None


def _unseen(position: Position, seats: Collection[int]) -> Iterator[Place]:
    for p in range(position.players):
        if p not in seats:
            yield "hand", p, -1
            yield from (("seq", p, i) for i in range(len(card_kinds(position.sequences[p]))))
    yield "deck", -1, -1
    yield "discard", -1, -1


def _kind_at(position: Position, place: Place, card: int) -> bool:
    """Whether an unseen card of kind ``card`` lies at ``place``."""
    where, p, i = place
    if where == "seq":
        return card_kinds(position.sequences[p])[i] == card
    if where == "hand":
        return card_kinds(position.hands[p])[card] > 0
    if where == "deck":
        return position.deck[card] > 0
    return position.discard[card] - position.faceup[card] > 0  # the cards turned face up are seen


def _put(position: Position, place: Place, out: int, into: int) -> Position:
    """``position`` with a card ``out`` at ``place`` replaced by a card ``into``."""
    where, p, i = place
    if where == "seq":
        sequence = list(card_kinds(position.sequences[p]))
        sequence[i] = into
        return position._replace(sequences=_at(position.sequences, p, tuple(sequence)))
    if where == "hand":
        return position._replace(hands=_at(position.hands, p, _swap(card_kinds(position.hands[p]), out, into)))
    if where == "deck":
        return position._replace(deck=_swap(position.deck, out, into))
    return position._replace(discard=_swap(position.discard, out, into))


def _swap(counts: tuple[int, ...], out: int, into: int) -> tuple[int, ...]:
    changed = list(counts)
    changed[out] -= 1
    changed[into] += 1
    return tuple(changed)


def _at(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1:])


def resampled(position: Position, seats: Collection[int], rng: random.Random) -> Position:
    """``position`` with every card ``seats`` cannot see shuffled by ``rng`` into the places they
    cannot see, each place keeping its size: the other seats' hands and sequences, the deck, the
    discards (those turned face up stay there: everyone saw them). Physical cards:
    the engine knows only counts, so the position is all there is."""
    if position.physical:
        return position
    kinds = len(position.deck)
    cards = [k for k in range(kinds) for _ in range(_unseen_count(position, seats, k))]
    rng.shuffle(cards)
    hands, sequences, deck, discard = _deal(cards, kinds, [
        (None, None) if p in seats else (sum(card_kinds(h)), len(card_kinds(q)))
        for p, (h, q) in enumerate(zip(position.hands, position.sequences, strict=True))],
        sum(position.deck), position.faceup)
    return position._replace(hands=tuple(position.hands[p] if h is None else h for p, h in enumerate(hands)),
                             sequences=tuple(position.sequences[p] if q is None else q
                                             for p, q in enumerate(sequences)), deck=deck, discard=discard)


def _unseen_count(position: Position, seats: Collection[int], kind: int) -> int:
    held = sum(card_kinds(position.hands[p])[kind] + card_kinds(position.sequences[p]).count(kind)
               for p in range(position.players) if p not in seats)
    return held + position.deck[kind] + position.discard[kind] - position.faceup[kind]


def _deal(cards: Sequence[int], kinds: int, places: Sequence[tuple[int | None, int | None]], deck_size: int,
          faceup: Sequence[int]) -> tuple[list[Cards | None], list[Cards | None], tuple[int, ...], tuple[int, ...]]:
    """``cards`` in their order into each player's hand and sequence of the sizes ``places`` gives
    (None: a seen seat's, left to the caller), then the deck; the rest and the ``faceup`` cards (a
    count per kind) are the discards."""
    at = 0
    hands: list[Cards | None] = []
    sequences: list[Cards | None] = []
    for size, length in places:
        if size is None or length is None:
            hands.append(None)
            sequences.append(None)
            continue
        held = cards[at:at + size]
        hands.append(tuple(held.count(k) for k in range(kinds)))
        sequences.append(tuple(cards[at + size:at + size + length]))
        at += size + length
    deck = cards[at:at + deck_size]
    rest = cards[at + deck_size:]
    return (hands, sequences, tuple(deck.count(k) for k in range(kinds)),
            tuple(rest.count(k) + faceup[k] for k in range(kinds)))


def seen_text(public_text: str, private_view: Mapping[str, Any], seat: int) -> str:
    """The text of a position that agrees with all ``seat`` sees: the public position
    ``public_text`` and its own hand and sequence (``private_view``), every other card dealt in the
    deck's order (:func:`resampled` deals them anew). ``ValueError`` for a private view not the
    seat's, or counts that do not add up to the deck."""
    f = read_fields(public_text, "serpientes", KEYS)
    if f["dealing"] == "physical":
        return public_text  # the engine counts physical cards: the public position is all of it
    absolute = f["cards"] == "absolute"
    kinds = B.ABSOLUTE_KINDS if absolute else B.RELATIVE_KINDS
    letters = B.ABSOLUTE_LETTERS if absolute else B.RELATIVE_LETTERS
    if private_view.get("player") != seat or "hand" not in private_view:
        raise ValueError(f"serpientes: the private view is not seat {seat}'s own dealt hand")
    hand = [kinds.index(card) for card in private_view["hand"]]
    sequence = [kinds.index(card) for card in private_view["sequence"]]
    faceup = [parse_int(x) for x in f["faceup"].split(",")]
    per = B.ABSOLUTE_PER_PLAYER if absolute else B.RELATIVE_PER_PLAYER
    n = parse_int(f["players"])
    cards = [k for k, count in enumerate(per)
             for _ in range(count * n - hand.count(k) - sequence.count(k) - faceup[k])]
    places = [(None, None) if p == seat else (parse_int(h[1:]), parse_int(q[1:]))
              for p, (h, q) in enumerate(zip(f["hands"].split("/"), f["seqs"].split("/"), strict=True))]
    deck_size, discard_size = parse_int(f["deck"][1:]), parse_int(f["discard"][1:])
    if sum(a + b for a, b in places if a is not None and b is not None) + deck_size + discard_size - sum(faceup) \
            != len(cards):
        raise ValueError("serpientes: the views' card counts do not add up to the deck")
    hands, sequences, deck, discard = _deal(cards, len(kinds), places, deck_size, faceup)
    hands[seat], sequences[seat] = tuple(hand.count(k) for k in range(len(kinds))), tuple(sequence)
    fields = {**f, "hands": "/".join("".join(letters[k] * c for k, c in enumerate(card_kinds(h))) or "-"
                                     for h in hands if h is not None),
              "seqs": "/".join("".join(letters[k] for k in card_kinds(q)) or "-" for q in sequences if q is not None),
              "deck": ",".join(map(str, deck)), "discard": ",".join(map(str, discard))}
    return write_fields("serpientes", fields.items())
