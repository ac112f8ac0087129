"""Reading the Serpientes position text (``State.to_text``) back into a state, strictly."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from controller.games.base import BadPosition, canonical, parse_int, read_fields
from controller.games.serpientes import board as B
from controller.games.serpientes.engine import (
    ABSOLUTE_LETTERS,
    ABSOLUTE_PER_PLAYER,
    ALL_PHASES,
    EVENTS,
    HAND_SIZE,
    PLAYER_PHASES,
    RELATIVE_LETTERS,
    RELATIVE_PER_PLAYER,
    Hand,
    Sequence_,
    SerpientesState,
)

if TYPE_CHECKING:
    from controller.games.serpientes.engine import SerpientesGame

KEYS = ("players", "two", "cards", "dealing", "tokens", "rounds", "phase", "player", "turns", "toplace", "tok",
        "snakes", "supply", "eaten", "crashed", "hands", "seqs", "deck", "discard", "reshuffles", "shown",
        "last")


def _int(text: str) -> int:
    return parse_int(text)


def _ints(text: str, n: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != n:
        raise ValueError(f"expected {n} numbers in {text!r}")
    return tuple(_int(x) for x in parts)


def _letters(text: str, letters: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text or any(ch not in letters for ch in text):
        raise ValueError(f"bad cards {text!r}")
    return tuple(letters.index(ch) for ch in text)


def parse_position(game: SerpientesGame, text: str) -> SerpientesState:
    try:
        state = _parse(game, text)
    except BadPosition:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise BadPosition(f"not a Serpientes position: {exc}") from None
    return canonical(state, text)


def _parse(game: SerpientesGame, text: str) -> SerpientesState:
    f = read_fields(text, "serpientes", KEYS)
    n = _int(f["players"])
    opts, n = game.resolve({"cards": f["cards"], "dealing": f["dealing"], "tokens": _int(f["tokens"]),
                            "max_rounds": _int(f["rounds"]), "two_players": {"0": False, "1": True}[f["two"]]}, n)
    s = game.new_state(opts, n)
    absolute = opts["cards"] == "absolute"
    phys = opts["dealing"] == "physical"
    letters = ABSOLUTE_LETTERS if absolute else RELATIVE_LETTERS
    per = ABSOLUTE_PER_PLAYER if absolute else RELATIVE_PER_PLAYER
    nk = len(letters)

    phase = f["phase"]
    if phase not in ALL_PHASES:
        raise BadPosition(f"unknown phase {phase!r}")
    player = -1 if f["player"] == "-" else _int(f["player"])
    if player >= n:
        raise BadPosition(f"no player {player}")
    turns = _int(f["turns"])
    toplace = _int(f["toplace"])
    tokens = frozenset() if f["tok"] == "-" else frozenset(B.parse_node(x) for x in f["tok"].split(","))
    if f["tok"] != "-" and len(tokens) != len(f["tok"].split(",")):
        raise BadPosition("a token is listed twice")
    snakes: list[tuple[int, ...]] = []
    for part in f["snakes"].split("/"):
        if part == "x":
            snakes.append(())
            continue
        sn = tuple(B.parse_node(x) for x in part.split("."))
        if len(sn) < 2 or len(set(sn)) != len(sn):
            raise BadPosition(f"a snake needs two or more different intersections: {part!r}")
        if any(not B.adjacent(a, b) for a, b in itertools.pairwise(sn)):
            raise BadPosition(f"a snake's sticks must join neighbouring intersections: {part!r}")
        snakes.append(sn)
    if len(snakes) != n:
        raise BadPosition(f"expected {n} snakes")
    seen: set[int] = set()
    for sn in snakes:
        if seen & set(sn):
            raise BadPosition("two snakes touch the same intersection")
        seen |= set(sn)
    if tokens & seen:
        raise BadPosition("a token lies under a stick")
    if not tokens <= B.TOKEN_SPOT_SET:
        raise BadPosition("a token lies on the border or the central row or column")
    supply = _ints(f["supply"], n)
    eaten = _ints(f["eaten"], n)
    crashed = _ints(f["crashed"], n)
    if any(c > 1 for c in crashed):
        raise BadPosition("crashed flags are 0 or 1")
    for p, sn in enumerate(snakes):
        if not sn and supply[p]:
            raise BadPosition(f"player {p} has sticks in supply but none on the board")
    hand_parts = f["hands"].split("/")
    seq_parts = f["seqs"].split("/")
    if len(hand_parts) != n or len(seq_parts) != n:
        raise BadPosition(f"expected {n} hands and {n} sequences")
    total = sum(per) * n
    hands: tuple[Hand, ...]
    seqs: tuple[Sequence_, ...]
    if phys:
        counts = tuple(_int(x) for x in hand_parts)
        lengths = tuple(_int(x) for x in seq_parts)
        if f["deck"] != "-" or f["discard"] != "-":
            raise BadPosition("with physical cards the deck and discards are not tracked: deck=- discard=-")
        deck: tuple[int, ...] = ()
        discard: tuple[int, ...] = ()
        if sum(counts) + sum(lengths) > total:
            raise BadPosition(f"more cards in hands and sequences than the {total} of the deck")
        hands, seqs, sizes = counts, lengths, counts
        programmed = lengths
    else:
        dealt: list[tuple[int, ...]] = []
        for part in hand_parts:
            ks = _letters(part, letters)
            if list(ks) != sorted(ks):
                raise BadPosition("hand cards are listed in the deck's order")
            dealt.append(tuple(ks.count(k) for k in range(nk)))
        cards = tuple(_letters(part, letters) for part in seq_parts)
        deck = _ints(f["deck"], nk)
        discard = _ints(f["discard"], nk)
        for k in range(nk):
            held = sum(h[k] for h in dealt) + sum(q.count(k) for q in cards) + deck[k] + discard[k]
            if held != per[k] * n:
                raise BadPosition(f"the deck holds {per[k] * n} {letters[k]} cards, the position {held}")
        hands, seqs = tuple(dealt), cards
        sizes = tuple(sum(h) for h in dealt)
        programmed = tuple(len(q) for q in cards)
    if any(x > HAND_SIZE for x in sizes):
        raise BadPosition(f"a hand holds at most {HAND_SIZE} cards")
    shown = _letters(f["shown"], letters)
    last = f["last"]
    if last not in EVENTS:
        raise BadPosition(f"unknown last event {last!r}")
    reshuffles = _int(f["reshuffles"])

    # Phase consistency.
    if (phase == "tokens") != (toplace > 0):
        raise BadPosition("tokens remain to be placed exactly in the tokens phase")
    if len(tokens) + toplace > opts["tokens"]:
        raise BadPosition("more tokens than the game has")
    if phase in ("tokens", "first"):
        if player != -1 or turns or any(sizes) or any(programmed):
            raise BadPosition("before the first turn nobody plays nor holds cards")
    elif player < 0:
        raise BadPosition("the player to act is missing")
    if phase in PLAYER_PHASES or phase == "draw":
        if not snakes[player]:
            raise BadPosition(f"player {player} is out of the game and cannot be on turn")
        if turns == 0:
            raise BadPosition("a turn is being played but turns=0")
    if phase == "run" and not programmed[player]:
        raise BadPosition("running an empty sequence")
    if phase in ("deal", "draw") and sum(deck) == 0:
        raise BadPosition("drawing from an empty deck")
    if phase == "half-turn" and not crashed[player]:
        raise BadPosition("the half-turn is offered only after a crash")
    if turns > opts["max_rounds"] * n:
        raise BadPosition("more turns than the round limit allows")

    for key, value in (("_phase", phase), ("_player", player), ("_turns", turns), ("_toplace", toplace),
                       ("_tokens", tokens), ("_snakes", tuple(snakes)), ("_supply", supply),
                       ("_eaten", eaten), ("_crashed", crashed), ("_hands", hands), ("_seqs", seqs),
                       ("_deck", deck), ("_discard", discard), ("_reshuffles", reshuffles),
                       ("_shown", shown), ("_last", last)):
        setattr(s, key, value)
    return s
