"""A Serpientes position as a frozen value, its one-line text, and the check that it can happen.

``Position`` is a ``NamedTuple``: a move makes a new one with ``position._replace(...)``.
``read_position`` parses a text strictly (a :class:`BadPosition` for anything else) and refuses a
position that ``problems`` finds fault with.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from controller.games.base import (
    BadPosition,
    Message,
    Options,
    Phrase,
    parse_int,
    quick_replace,
    read_checked,
    read_fields,
    write_fields,
)
from controller.games.serpientes import board as B

PLAYER_PHASES: Final = frozenset({"half-turn", "discard", "play", "program", "run"})
CHANCE_PHASES: Final = frozenset({"tokens", "first", "deal", "draw"})
ALL_PHASES: Final = PLAYER_PHASES | CHANCE_PHASES | {"over"}
EVENTS: Final = frozenset({"-", "placed", "ate", "crash-off", "crash-taken", "crash-jump", "half-turn",
                           "discarded", "programmed", "revealed"})
"""What ``last`` may say happened last."""

KEYS: Final = ("players", "two", "cards", "dealing", "tokens", "rounds", "phase", "player", "turns", "toplace",
               "tok", "snakes", "supply", "eaten", "crashed", "hands", "seqs", "deck", "discard", "faceup",
               "reshuffles",
               "shown", "last")

Cards = int | tuple[int, ...]
"""A player's hand or programmed sequence. With physical cards, how many; with dealt cards, a hand
is a count per kind and a sequence the kinds in order."""


@quick_replace
class Position(NamedTuple):
    options: dict[str, Any]
    players: int
    absolute: bool
    """Absolute cards (north, east, south, west) rather than relative ones."""
    physical: bool
    """Physical cards: the engine knows only how many each player holds and has programmed."""
    phase: str
    player: int
    """The player on turn (-1 before the first turn)."""
    turns: int
    """Turns begun so far (the round limit counts them)."""
    tokens_to_place: int
    tokens: frozenset[int]
    snakes: tuple[tuple[int, ...], ...]
    """Per player, the intersections from tail to head (empty once out of the game)."""
    supply: tuple[int, ...]
    eaten: tuple[int, ...]
    crashed: tuple[int, ...]
    """1 for a player who crashed last turn (he may turn round)."""
    hands: tuple[Cards, ...]
    sequences: tuple[Cards, ...]
    deck: tuple[int, ...]
    """Dealt cards: a count per kind (empty with physical cards)."""
    discard: tuple[int, ...]
    faceup: tuple[int, ...]
    """Dealt cards: of the discards, how many of each kind were turned face up by a sequence run
    since the discards last became the deck (public: everyone saw them; the rest went down unseen)."""
    reshuffles: int
    shown: tuple[int, ...]
    """The cards revealed by the running sequence so far."""
    last: str


def card_kinds(cards: Cards) -> tuple[int, ...]:
    """Dealt cards as the engine knows them: counts per kind (a hand) or kinds in order (a sequence)."""
    if isinstance(cards, int):
        raise TypeError("physical cards are only counted")
    return cards


def card_count(cards: Cards) -> int:
    """Physical cards: how many."""
    if not isinstance(cards, int):
        raise TypeError("dealt cards are listed, not only counted")
    return cards


def letters(position: Position) -> str:
    return B.ABSOLUTE_LETTERS if position.absolute else B.RELATIVE_LETTERS


def per_player(position: Position) -> tuple[int, ...]:
    """How many cards of each kind the deck holds per player."""
    return B.ABSOLUTE_PER_PLAYER if position.absolute else B.RELATIVE_PER_PLAYER


def initial_position(options: dict[str, Any], players: int) -> Position:
    """Before the tokens are placed, with checked ``options``."""
    absolute = options["cards"] == "absolute"
    physical = options["dealing"] == "physical"
    per = B.ABSOLUTE_PER_PLAYER if absolute else B.RELATIVE_PER_PLAYER
    n = players
    return Position(
        options=options, players=n, absolute=absolute, physical=physical, phase="tokens", player=-1, turns=0,
        tokens_to_place=options["tokens"], tokens=frozenset(),
        snakes=tuple(B.start_snake(n, p) for p in range(n)),
        supply=(B.START_SUPPLY,) * n, eaten=(0,) * n, crashed=(0,) * n,
        hands=(0,) * n if physical else ((0,) * len(per),) * n,
        sequences=(0,) * n if physical else ((),) * n,
        deck=() if physical else tuple(c * n for c in per),
        discard=() if physical else (0,) * len(per), faceup=() if physical else (0,) * len(per),
        reshuffles=0, shown=(), last="-")


# --------------------------------------------------------------------------- writing

def position_to_text(position: Position, public: bool = False, viewer: int = -1) -> str:
    """The position's one-line text; ``public``: hands, sequences and the deck as counts only,
    but the ``viewer``'s own hand and sequence."""
    return write_fields("serpientes", _fields(position, public, viewer))


def _fields(position: Position, public: bool, viewer: int) -> list[tuple[str, object]]:
    o = position.options
    cards = letters(position)
    fields: list[tuple[str, object]] = [
        ("players", position.players), ("two", int(o["two_players"])), ("cards", o["cards"]),
        ("dealing", o["dealing"]), ("tokens", o["tokens"]), ("rounds", o["max_rounds"]), ("phase", position.phase),
        ("player", position.player if position.player >= 0 else "-"), ("turns", position.turns),
        ("toplace", position.tokens_to_place),
        ("tok", ",".join(B.node_name(n) for n in sorted(position.tokens)) or "-"),
        ("snakes", "/".join(".".join(B.node_name(n) for n in sn) or "x" for sn in position.snakes)),
        ("supply", ",".join(map(str, position.supply))),
        ("eaten", ",".join(map(str, position.eaten))),
        ("crashed", ",".join(map(str, position.crashed))),
    ]

    def hand(h: Cards) -> str:
        return "".join(cards[k] * c for k, c in enumerate(card_kinds(h))) or "-"

    def sequence(q: Cards) -> str:
        return "".join(cards[k] for k in card_kinds(q)) or "-"

    if position.physical:
        fields += [("hands", "/".join(map(str, position.hands))), ("seqs", "/".join(map(str, position.sequences))),
                   ("deck", "-"), ("discard", "-"), ("faceup", "-")]
    elif public:
        fields += [
            ("hands", "/".join(hand(h) if p == viewer else f"#{sum(card_kinds(h))}"
                               for p, h in enumerate(position.hands))),
            ("seqs", "/".join(sequence(q) if p == viewer else f"#{len(card_kinds(q))}"
                              for p, q in enumerate(position.sequences))),
            ("deck", f"#{sum(position.deck)}"), ("discard", f"#{sum(position.discard)}"),
            ("faceup", ",".join(map(str, position.faceup)))]
    else:
        fields += [("hands", "/".join(map(hand, position.hands))),
                   ("seqs", "/".join(map(sequence, position.sequences))),
                   ("deck", ",".join(map(str, position.deck))), ("discard", ",".join(map(str, position.discard))),
                   ("faceup", ",".join(map(str, position.faceup)))]
    fields += [("reshuffles", position.reshuffles), ("shown", "".join(cards[k] for k in position.shown) or "-"),
               ("last", position.last)]
    return fields


# --------------------------------------------------------------------------- reading

Resolve = Callable[[Options, int], tuple[dict[str, Any], int]]
"""The game's check of a variant (``Game.resolve``): its options filled in, and its players."""


def read_position(text: str, resolve: Resolve) -> Position:
    """The position ``text`` writes (canonical form is the caller's check); :class:`BadPosition`
    for a text that is not one, or a position with :func:`problems` (the first one says why)."""
    return read_checked(text, "Serpientes", lambda t: _parse(t, resolve), problems)


def _ints(text: str, n: int) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != n:
        raise ValueError(f"expected {n} numbers in {text!r}")
    return tuple(parse_int(x) for x in parts)


def _letters(text: str, cards: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text or any(ch not in cards for ch in text):
        raise ValueError(f"bad cards {text!r}")
    return tuple(cards.index(ch) for ch in text)


def _parse(text: str, resolve: Resolve) -> Position:
    f = read_fields(text, "serpientes", KEYS)
    options, n = resolve({"cards": f["cards"], "dealing": f["dealing"], "tokens": parse_int(f["tokens"]),
                          "max_rounds": parse_int(f["rounds"]), "two_players": {"0": False, "1": True}[f["two"]]},
                         parse_int(f["players"]))
    start = initial_position(options, n)
    cards = letters(start)
    tokens = frozenset() if f["tok"] == "-" else frozenset(B.parse_node(x) for x in f["tok"].split(","))
    if f["tok"] != "-" and len(tokens) != len(f["tok"].split(",")):
        raise BadPosition("a token is listed twice")
    snakes = tuple(() if part == "x" else tuple(B.parse_node(x) for x in part.split("."))
                   for part in f["snakes"].split("/"))
    if len(snakes) != n:
        raise BadPosition(f"expected {n} snakes")
    hand_parts = f["hands"].split("/")
    sequence_parts = f["seqs"].split("/")
    if len(hand_parts) != n or len(sequence_parts) != n:
        raise BadPosition(f"expected {n} hands and {n} sequences")
    hands: tuple[Cards, ...]
    sequences: tuple[Cards, ...]
    if start.physical:
        if f["deck"] != "-" or f["discard"] != "-" or f["faceup"] != "-":
            raise BadPosition("with physical cards the deck and discards are not tracked: deck=- discard=- faceup=-")
        hands = tuple(parse_int(x) for x in hand_parts)
        sequences = tuple(parse_int(x) for x in sequence_parts)
        deck: tuple[int, ...] = ()
        discard: tuple[int, ...] = ()
        faceup: tuple[int, ...] = ()
    else:
        dealt = []
        for part in hand_parts:
            held = _letters(part, cards)
            if list(held) != sorted(held):
                raise BadPosition("hand cards are listed in the deck's order")
            dealt.append(tuple(held.count(k) for k in range(len(cards))))
        hands = tuple(dealt)
        sequences = tuple(_letters(part, cards) for part in sequence_parts)
        deck = _ints(f["deck"], len(cards))
        discard = _ints(f["discard"], len(cards))
        faceup = _ints(f["faceup"], len(cards))
    return start._replace(
        phase=f["phase"], player=-1 if f["player"] == "-" else parse_int(f["player"]), turns=parse_int(f["turns"]),
        tokens_to_place=parse_int(f["toplace"]), tokens=tokens, snakes=snakes,
        supply=_ints(f["supply"], n), eaten=_ints(f["eaten"], n), crashed=_ints(f["crashed"], n),
        hands=hands, sequences=sequences, deck=deck, discard=discard, faceup=faceup,
        reshuffles=parse_int(f["reshuffles"]), shown=_letters(f["shown"], cards), last=f["last"])


# --------------------------------------------------------------------------- validity

UNKNOWN_PHASE: Final = Phrase("serpientes.position.unknown_phase", "unknown phase {phase!r}")
NO_PLAYER: Final = Phrase("serpientes.position.no_player", "no {player}")
SHORT_SNAKE: Final = Phrase("serpientes.position.short_snake",
                            "a snake needs two or more different intersections: {snake!r}")
BROKEN_SNAKE: Final = Phrase("serpientes.position.broken_snake",
                             "a snake's sticks must join neighbouring intersections: {snake!r}")
SNAKES_TOUCH: Final = Phrase("serpientes.position.snakes_touch", "two snakes touch the same intersection")
TOKEN_UNDER_STICK: Final = Phrase("serpientes.position.token_under_stick", "a token lies under a stick")
TOKEN_OFF_SPOTS: Final = Phrase("serpientes.position.token_off_spots",
                                "a token lies on the border or the central row or column")
CRASHED_FLAGS: Final = Phrase("serpientes.position.crashed_flags", "crashed flags are 0 or 1")
SUPPLY_WITHOUT_STICKS: Final = Phrase("serpientes.position.supply_without_sticks",
                                      "{player} has sticks in supply but none on the board")
TOO_MANY_CARDS: Final = Phrase("serpientes.position.too_many_cards",
                               "more cards in hands and sequences than the {total} of the deck")
CARDS_MISCOUNTED: Final = Phrase("serpientes.position.cards_miscounted",
                                 "the deck holds {expected} {card} cards, the position {held}")
FACE_UP_MISCOUNTED: Final = Phrase("serpientes.position.face_up_miscounted",
                                   "more {card} cards face up than the discards hold, or fewer than the run shows")
HAND_TOO_BIG: Final = Phrase("serpientes.position.hand_too_big", "a hand holds at most {most} cards")
UNKNOWN_EVENT: Final = Phrase("serpientes.position.unknown_event", "unknown last event {last!r}")
TOKENS_PHASE: Final = Phrase("serpientes.position.tokens_phase",
                             "tokens remain to be placed exactly in the tokens phase")
TOO_MANY_TOKENS: Final = Phrase("serpientes.position.too_many_tokens", "more tokens than the game has")
PLAY_BEFORE_START: Final = Phrase("serpientes.position.play_before_start",
                                  "before the first turn nobody plays nor holds cards")
NOBODY_ON_TURN: Final = Phrase("serpientes.position.nobody_on_turn", "the player to act is missing")
OUT_ON_TURN: Final = Phrase("serpientes.position.out_on_turn", "{player} is out of the game and cannot be on turn")
NO_TURN_YET: Final = Phrase("serpientes.position.no_turn_yet", "a turn is being played but turns=0")
EMPTY_RUN: Final = Phrase("serpientes.position.empty_run", "running an empty sequence")
EMPTY_DECK: Final = Phrase("serpientes.position.empty_deck", "drawing from an empty deck")
HALF_TURN_WITHOUT_CRASH: Final = Phrase("serpientes.position.half_turn_without_crash",
                                        "the half-turn is offered only after a crash")
TOO_MANY_TURNS: Final = Phrase("serpientes.position.too_many_turns", "more turns than the round limit allows")


def problems(position: Position) -> list[Message]:
    """Everything that keeps ``position`` from being one the rules can reach (empty: none), like
    python-chess's ``status()``."""
    if position.phase not in ALL_PHASES:
        return [UNKNOWN_PHASE(phase=position.phase)]
    if position.player >= position.players:
        return [NO_PLAYER(player=B.player_name(position.player))]
    return [*_board_problems(position), *_card_problems(position), *_phase_problems(position)]


def _board_problems(position: Position) -> list[Message]:
    found = []
    for snake in position.snakes:
        if not snake:
            continue
        written = ".".join(B.node_name(n) for n in snake)
        if len(snake) < 2 or len(set(snake)) != len(snake):
            found.append(SHORT_SNAKE(snake=written))
        elif any(not B.adjacent(a, b) for a, b in itertools.pairwise(snake)):
            found.append(BROKEN_SNAKE(snake=written))
    seen: set[int] = set()
    for snake in position.snakes:
        if seen & set(snake):
            found.append(SNAKES_TOUCH())
            break
        seen |= set(snake)
    if position.tokens & seen:
        found.append(TOKEN_UNDER_STICK())
    if not position.tokens <= B.TOKEN_SPOT_SET:
        found.append(TOKEN_OFF_SPOTS())
    if any(c > 1 for c in position.crashed):
        found.append(CRASHED_FLAGS())
    found += [SUPPLY_WITHOUT_STICKS(player=B.player_name(p)) for p, snake in enumerate(position.snakes)
              if not snake and position.supply[p]]
    return found


def _card_problems(position: Position) -> list[Message]:
    found = []
    per = per_player(position)
    total = sum(per) * position.players
    if position.physical:
        sizes = tuple(map(card_count, position.hands))
        if sum(sizes) + sum(map(card_count, position.sequences)) > total:
            found.append(TOO_MANY_CARDS(total=total))
    else:
        cards = letters(position)
        hands = tuple(map(card_kinds, position.hands))
        sequences = tuple(map(card_kinds, position.sequences))
        for k in range(len(cards)):
            held = (sum(h[k] for h in hands) + sum(q.count(k) for q in sequences) + position.deck[k]
                    + position.discard[k])
            if held != per[k] * position.players:
                found.append(CARDS_MISCOUNTED(expected=per[k] * position.players, card=cards[k], held=held))
                break
        for k in range(len(cards)):
            if not position.shown.count(k) <= position.faceup[k] <= position.discard[k]:
                found.append(FACE_UP_MISCOUNTED(card=cards[k]))
                break
        sizes = tuple(sum(h) for h in hands)
    if any(x > B.HAND_SIZE for x in sizes):
        found.append(HAND_TOO_BIG(most=B.HAND_SIZE))
    if position.last not in EVENTS:
        found.append(UNKNOWN_EVENT(last=position.last))
    return found


def _phase_problems(position: Position) -> list[Message]:
    phase, player = position.phase, position.player
    found = []
    if (phase == "tokens") != (position.tokens_to_place > 0):
        found.append(TOKENS_PHASE())
    if len(position.tokens) + position.tokens_to_place > position.options["tokens"]:
        found.append(TOO_MANY_TOKENS())
    if phase in ("tokens", "first"):
        holding = (position.hands + position.sequences if position.physical
                   else tuple(map(sum, map(card_kinds, position.hands))) + tuple(map(len, map(card_kinds,
                                                                                     position.sequences))))
        if player != -1 or position.turns or any(holding):
            found.append(PLAY_BEFORE_START())
        return found
    if player < 0:
        return [*found, NOBODY_ON_TURN()]
    if phase in PLAYER_PHASES or phase == "draw":
        if not position.snakes[player]:
            found.append(OUT_ON_TURN(player=B.player_name(player)))
        if position.turns == 0:
            found.append(NO_TURN_YET())
    programmed = position.sequences[player]
    if phase == "run" and not (programmed if isinstance(programmed, int) else len(programmed)):
        found.append(EMPTY_RUN())
    if phase in ("deal", "draw") and sum(position.deck) == 0:
        found.append(EMPTY_DECK())
    if phase == "half-turn" and not position.crashed[player]:
        found.append(HALF_TURN_WITHOUT_CRASH())
    if position.turns > position.options["max_rounds"] * position.players:
        found.append(TOO_MANY_TURNS())
    return found
