"""Contigo's position as a frozen value, its one-line text, and what makes a position impossible."""

from __future__ import annotations

import contextlib
from typing import Any, NamedTuple

from controller.games.base import (
    CHANCE,
    TERMINAL,
    BadPosition,
    Message,
    Phrase,
    parse_int,
    quick_replace,
    read_checked,
    read_fields,
    write_fields,
)
from controller.games.contigo.board import (
    CAPTURE_MEN,
    CAPTURE_WIN,
    COLORS,
    LETTERS,
    LINES,
    LINES_THROUGH,
    NPITS,
    NSQ,
    OPTIONS,
    ORTHO_LINES,
    ORTHO_LINES_THROUGH,
    PIT_INDEX,
    PIT_NAMES,
    SIZE,
    TOTAL_BEADS,
    has_line,
    owner,
    ring_distance,
    validate,
)

PHASES = ("start", "move", "beads", "drop", "over")
OPTION_KEYS = tuple(o.name for o in OPTIONS)
POSITION_KEYS = ("game", "form", "win", "turn_limit", "rounds", "spread_limit", "spread", "players", "board", "pits",
                 "to", "phase", "hand", "turn", "captured", "result")
"""The fields of a position text, in order."""


class Variant:
    """One variant with its player count, and the tables it needs (shared by all its positions)."""

    __slots__ = ("alignment", "all_lines", "capture", "form", "game", "last_turn", "lform", "lines", "n", "need",
                 "one_way", "options", "rounds", "spread", "spread_limit", "turn_limit", "win")

    def __init__(self, options: dict[str, Any], n: int) -> None:
        validate(options, n)
        self.options = dict(options)
        self.game = options["game"]
        self.form = options["form"]
        self.win = options["win"]
        self.turn_limit = options["turn_limit"]
        self.rounds = options["rounds"]
        self.last_turn = min(self.turn_limit, self.rounds * n) if self.rounds else self.turn_limit
        """The turn the game ends at without a line: a draw at the turn limit, or the sitting's last
        round (its winner the longest line)."""
        self.spread_limit = options["spread_limit"]
        self.spread = options["spread"]
        self.one_way = self.spread == "one_way"  # every drop of a pick-up the same way round the ring
        self.n = n
        self.capture = self.game == "capture"
        self.alignment = not self.capture
        self.lform = self.form == "L"
        self.need = 5 if self.win == "five" else 4
        self.lines = ORTHO_LINES_THROUGH if self.win == "five" else LINES_THROUGH
        self.all_lines = ORTHO_LINES if self.win == "five" else LINES


_VARIANTS: dict[tuple[object, ...], Variant] = {}


def get_variant(options: dict[str, Any], n: int) -> Variant:
    key = (*(options[k] for k in OPTION_KEYS), n)
    try:
        return _VARIANTS[key]
    except (KeyError, TypeError):
        pass
    variant = Variant(options, n)
    with contextlib.suppress(TypeError):
        _VARIANTS[key] = variant
    return variant


CW, ACW = 1, 2
"""Bits of ``Hand.ways``: the beads may still go clockwise (+1 round the ring), anticlockwise (-1).
Both stay open for the whole spread but in the one-way variant, where the first drop that only one
way reaches closes the other."""
WAYS_TEXT = {CW | ACW: "both", CW: "cw", ACW: "acw"}


class Hand(NamedTuple):
    """Capture game, between the pick-up and the last drop: (pit, taken, left, ways) — the pit the
    beads came from, how many were taken (the range), how many are still in the hand, and the
    directions round the ring the drops so far leave open (``CW | ACW`` until a drop decides)."""

    pit: int
    taken: int
    left: int
    ways: int

    def reaches(self, dst: int) -> int:
        """The directions still open in which ``dst`` lies within range (0: out of range)."""
        out = 0
        for bit, direction in ((CW, 1), (ACW, -1)):
            if self.ways & bit and 1 <= ring_distance(self.pit, dst, direction) <= self.taken:
                out |= bit
        return out


@quick_replace
class Position(NamedTuple):
    """Everything a Contigo position is: the piece code per square, the beads per pit, who acts
    (a player, CHANCE or TERMINAL) in which phase, the turn, the men each captured, the result
    (None while playing, -1 a draw, else the winner) and, in phase ``drop``, the beads in the hand."""

    variant: Variant
    board: tuple[int, ...]
    pits: tuple[int, ...]
    player: int
    phase: str
    turn: int
    captured: tuple[int, ...]
    result: int | None
    hand: Hand | None = None


def piece_char(code: int) -> str:
    if not code:
        return "."
    letter = LETTERS[owner(code)]
    return letter if code & 1 else letter.upper()


def position_text(position: Position) -> str:
    variant, player, result = position.variant, position.player, position.result
    ranks = ["".join(piece_char(position.board[r * SIZE + f]) for f in range(SIZE)) for r in range(SIZE - 1, -1, -1)]
    to = "chance" if player == CHANCE else "none" if player == TERMINAL else COLORS[player]
    result_text = "none" if result is None else "draw" if result < 0 else COLORS[result]
    hand = position.hand
    hand_text = "-" if hand is None else f"{PIT_NAMES[hand.pit]}:{hand.taken}:{hand.left}:{WAYS_TEXT[hand.ways]}"
    values = (variant.game, variant.form, variant.win, variant.turn_limit, variant.rounds, variant.spread_limit,
              variant.spread,
              variant.n, "/".join(ranks), ",".join(map(str, position.pits)), to, position.phase, hand_text,
              position.turn, ",".join(map(str, position.captured)), result_text)
    return write_fields("contigo", zip(POSITION_KEYS, values, strict=True))


def read_position(text: str, variant_of: Any) -> Position:
    """The position a text describes, checked by :func:`problems` (the first one is the
    :class:`BadPosition`); ``variant_of(options, n)`` resolves and checks the variant."""
    return read_checked(text, "Contigo", lambda t: _parse(t, variant_of), problems)


def _parse(text: str, variant_of: Any) -> Position:
    fields = read_fields(text, "contigo", POSITION_KEYS)
    try:
        options = {
            "game": fields["game"], "form": fields["form"], "win": fields["win"],
            "turn_limit": parse_int(fields["turn_limit"]), "rounds": parse_int(fields["rounds"]),
            "spread_limit": parse_int(fields["spread_limit"]),
            "spread": fields["spread"],
        }
        n = parse_int(fields["players"])
        variant: Variant = variant_of(options, n)
    except ValueError as exc:
        raise BadPosition(f"bad variant: {exc}") from None
    ranks = fields["board"].split("/")
    if len(ranks) != SIZE or any(len(r) != SIZE for r in ranks):
        raise BadPosition("board= needs 6 ranks of 6 squares, rank 6 first, separated by '/'")
    board = [0] * NSQ
    allowed = "." + LETTERS[:n] + (LETTERS[:n].upper() if variant.capture else "")
    for i, rank in enumerate(ranks):
        for f, ch in enumerate(rank):
            if ch not in allowed:
                raise BadPosition(f"board= has {ch!r}; allowed here: {allowed}")
            if ch != ".":
                p = LETTERS.index(ch.lower())
                board[(SIZE - 1 - i) * SIZE + f] = 1 + 2 * p if ch.islower() else 2 + 2 * p
    try:
        pits = tuple(parse_int(x) for x in fields["pits"].split(","))
        captured = tuple(parse_int(x) for x in fields["captured"].split(","))
        turn = parse_int(fields["turn"])
    except ValueError as exc:
        raise BadPosition(str(exc)) from None
    to, result_text = fields["to"], fields["result"]
    players: dict[str, int] = {"chance": CHANCE, "none": TERMINAL, **{c: p for p, c in enumerate(COLORS[:n])}}
    if to not in players:
        raise BadPosition("to= must be chance, none or a player's colour")
    results: dict[str, int | None] = {"none": None, "draw": -1, **{c: p for p, c in enumerate(COLORS[:n])}}
    if result_text not in results:
        raise BadPosition("result= must be none, draw or a player's colour")
    return Position(variant, tuple(board), pits, players[to], fields["phase"], turn, captured, results[result_text],
                    _read_hand(fields["hand"]))


def _read_hand(text: str) -> Hand | None:
    if text == "-":
        return None
    parts = text.split(":")
    ways = {v: k for k, v in WAYS_TEXT.items()}
    if len(parts) != 4 or parts[0] not in PIT_INDEX or parts[3] not in ways:
        raise BadPosition("hand= is '-' or pit:taken:left:ways (both, cw or acw), e.g. n-f:5:3:cw")
    taken, left = parse_int(parts[1]), parse_int(parts[2])
    if not 1 <= left <= taken:
        raise BadPosition("hand= holds at least one bead and no more than were taken")
    return Hand(PIT_INDEX[parts[0]], taken, left, ways[parts[3]])


BEAD_COUNT = Phrase("contigo.bead_count", "pits= needs {pits} counts adding up to {total} (with the beads in the hand)")
DROP_NEEDS_HAND = Phrase("contigo.drop_needs_hand",
                         "phase=drop is the capture game's bead move, with beads in the hand (hand=...)")
ONE_PIT_SPREAD = Phrase("contigo.one_pit_spread", "more than {limit} beads (the spread limit) go all into one pit")
UNDECIDED_WAYS = Phrase("contigo.undecided_ways",
                        "no bead is dropped yet, so both ways round the ring are open (ways both)")
EITHER_SIDE_WAYS = Phrase("contigo.either_side_ways",
                          "beads are dropped on either side (spread=either_side): both ways stay open (ways both)")
HAND_WITHOUT_DROP = Phrase("contigo.hand_without_drop", "hand= goes with phase=drop, not phase={phase}")
CAPTURED_COUNT = Phrase("contigo.captured_count", "captured= needs {players} counts")
ALIGNMENT_PIECES = Phrase("contigo.alignment_pieces",
                          "the alignment game has {pawns} pawns per player and no captures")
CAPTURE_PIECES = Phrase("contigo.capture_pieces", "{player} has at most {men} men and one double")
CAPTURED_MISSING = Phrase("contigo.captured_missing",
                          "captured= must count the men missing from the board ({player} has taken {taken})")
BAD_PHASE = Phrase("contigo.bad_phase", "phase= must be one of {phases}")
START_FIELDS = Phrase("contigo.start_fields", "phase=start goes with to=chance, turn=0 and result=none")
OVER_FIELDS = Phrase("contigo.over_fields", "phase=over goes with to=none and a result")
DRAW_AT_LIMIT = Phrase("contigo.draw_at_limit", "a draw happens only at the turn limit")
PLAY_FIELDS = Phrase("contigo.play_fields", "phase={phase} needs to= one of the players' colours and result=none")
TURN_RANGE = Phrase("contigo.turn_range", "turn= must be below the turn limit {limit} while playing")
ONE_DOUBLE = Phrase("contigo.one_double", "while the capture game goes on, {player} has exactly one double")
CAPTURED_ENOUGH = Phrase("contigo.captured_enough", "{player} has captured {men} men: the game is over")
LINE_MADE = Phrase("contigo.line_made", "{player} already has a winning line: the game is over")


def problems(position: Position) -> list[Message]:
    """What makes ``position`` one no game of its variant reaches (empty: none), like
    python-chess's ``status()``; a position in phase ``move`` must also have a pawn move, which
    the rules check."""
    variant, hand, phase = position.variant, position.hand, position.phase
    found: list[Message] = []
    in_hand = hand.left if hand is not None else 0
    if len(position.pits) != NPITS or sum(position.pits) + in_hand != TOTAL_BEADS:
        found.append(BEAD_COUNT(pits=NPITS, total=TOTAL_BEADS))
    if phase == "drop":
        limit = variant.spread_limit
        if hand is None or not variant.capture:
            found.append(DROP_NEEDS_HAND())
        elif limit and hand.taken > limit and hand.left < hand.taken:
            found.append(ONE_PIT_SPREAD(limit=limit))
        elif hand.left == hand.taken and hand.ways != CW | ACW:
            found.append(UNDECIDED_WAYS())
        elif not variant.one_way and hand.ways != CW | ACW:
            found.append(EITHER_SIDE_WAYS())
    elif hand is not None:
        found.append(HAND_WITHOUT_DROP(phase=phase))
    if len(position.captured) != variant.n:
        found.append(CAPTURED_COUNT(players=variant.n))
        return found
    found += _piece_problems(position)
    if phase not in PHASES:
        found.append(BAD_PHASE(phases=PHASES))
    player, turn, result = position.player, position.turn, position.result
    if phase == "start":
        if player != CHANCE or turn != 0 or result is not None:
            found.append(START_FIELDS())
    elif phase == "over":
        if player != TERMINAL or result is None:
            found.append(OVER_FIELDS())
        elif result == -1 and turn != variant.last_turn:
            found.append(DRAW_AT_LIMIT())
    elif player < 0 or result is not None:
        found.append(PLAY_FIELDS(phase=phase))
    if not 0 <= turn <= variant.last_turn or (turn == variant.last_turn and phase != "over"):
        found.append(TURN_RANGE(limit=variant.last_turn))
    if phase != "over":
        found += _game_over_problems(position)
    return found


def _piece_problems(position: Position) -> list[Message]:
    variant, board, captured = position.variant, position.board, position.captured
    n = variant.n
    singles = [sum(1 for c in board if c == 1 + 2 * p) for p in range(n)]
    doubles = [sum(1 for c in board if c == 2 + 2 * p) for p in range(n)]
    if variant.alignment:
        want = 6 if n == 2 else 4
        if any(s != want for s in singles) or any(captured):
            return [ALIGNMENT_PIECES(pawns=want)]
        return []
    for p in range(2):
        men = singles[p] + 2 * doubles[p]
        if doubles[p] > 1 or men > CAPTURE_MEN:
            return [CAPTURE_PIECES(player=COLORS[p], men=CAPTURE_MEN)]
        if captured[1 - p] != CAPTURE_MEN - men:
            return [CAPTURED_MISSING(player=COLORS[1 - p], taken=CAPTURE_MEN - men)]
    return []


def _game_over_problems(position: Position) -> list[Message]:
    """A position still in play cannot already hold a finished game."""
    variant, board = position.variant, position.board
    if variant.capture:
        for p in range(2):
            if sum(1 for c in board if c == 2 + 2 * p) != 1:
                return [ONE_DOUBLE(player=COLORS[p])]
            if position.captured[p] >= CAPTURE_WIN:
                return [CAPTURED_ENOUGH(player=COLORS[p], men=CAPTURE_WIN)]
        return []
    lines = tuple({line for per_square in variant.lines for line in per_square})
    return [LINE_MADE(player=COLORS[p]) for p in range(variant.n) if has_line(board, p, lines, variant.need)][:1]
