"""What each party sees of a Serpientes position: the board's sensors, everyone, one player; what a
move makes worth announcing; a terminal picture; the cards some seats cannot see, arranged anew."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, Final

from controller.games.base import Announcement, Message, Phrase, Say, announcement, in_english
from controller.games.serpientes import board as B
from controller.games.serpientes.actions import SerpientesAction, is_action
from controller.games.serpientes.position import CHANCE_PHASES, PLAYER_PHASES, Position, card_kinds, position_to_text
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


# --------------------------------------------------------------------------- the cards a board cannot see
# A remote game's joining board (``controller.remote_hidden``) follows the game in a position that
# agrees with all its own seats may know (the public counts, their own hands and sequences), like a
# computer player's determinization (``controller.players.serpientes``): every other card placed
# arbitrarily. When the host's seat steps with a card, or a card is drawn into one of the joining
# board's hands, that card may lie elsewhere in the arrangement: :func:`rearranged` swaps it into
# place among the cards those seats cannot see.

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
    the discards but the cards the running sequence has shown) swapped so that ``action`` — a card
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
    return position.discard[card] - position.shown.count(card) > 0  # the shown cards are seen


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
