"""Contigo's rules: the legal actions of a position, the effect of one, and why any other is
refused (every refusal a :class:`Phrase` of the table below)."""

from __future__ import annotations

from functools import cache

from controller.games.base import GAME_OVER, NOT_LEGAL_NOW, TERMINAL, Action, Message, Phrase, Plural
from controller.games.contigo.actions import Beads, Drop, Move, Pass, Start, Take, is_beads, is_hand_action, is_pawn
from controller.games.contigo.board import (
    CAPTURE_WIN,
    COLORS,
    DIR_NAMES,
    GOV,
    NPITS,
    NSQ,
    PERPENDICULAR,
    PIT_NAMES,
    RAY,
    SIZE,
    SQUARE_NAMES,
    TOTAL_BEADS,
    direction_between,
    has_line,
    leg,
    owner,
    sitting_winner,
)
from controller.games.contigo.position import ACW, CW, Hand, Position, Variant

# --------------------------------------------------------------------------- what the referee says
# Every refusal and announcement, declared once; params are in Contigo's notation (squares ``c3``,
# pits ``n-a``, players by colour).
NOT_AN_ACTION = Phrase("contigo.not_an_action", "not a Contigo action")
START_FIRST = Phrase("contigo.start_first", "first the hidden bead decides who starts (a chance outcome)")
STARTED = Phrase("contigo.started", "who starts was decided already")
BEADS = Plural("contigo.beads", "{count} bead", "{count} beads")
SQUARES = Plural("contigo.squares", "{count} square", "{count} squares")
EITHER = Phrase("contigo.either", "{first} or {second}")
NOWHERE = Phrase("contigo.nowhere", "nowhere")
PAWN_MOVED = Phrase("contigo.pawn_moved", "you have made your pawn move (or have none): now move beads")
NOT_A_PAWN_MOVE = Phrase("contigo.not_a_pawn_move", "not a Contigo pawn move")
PAWN_FIRST = Phrase("contigo.pawn_first", "first move a pawn; the bead move ends the turn")
NOT_A_BEAD_MOVE = Phrase("contigo.not_a_bead_move", "not a Contigo bead move")
ONE_BEAD_ACTION = Phrase("contigo.one_bead_action",
                         "in the alignment game a bead move is one action: beads n-a>n-c 2")
NO_PAWN = Phrase("contigo.no_pawn", "there is no pawn on {square}")
NOT_YOURS = Phrase("contigo.not_yours", "the pawn on {square} is {owner}'s, not yours ({player})")
STAYS = Phrase("contigo.stays", "a move must leave its square")
OCCUPIED = Phrase("contigo.occupied", "{square} is occupied: in the alignment game pawns land on empty squares only")
OWN_PIECE = Phrase("contigo.own_piece",
                   "{square} holds your own piece: you may land on an empty square or capture an enemy")
NOT_LEGAL = Phrase("contigo.not_legal", "{move} is not a legal move")
NOT_STRAIGHT = Phrase("contigo.not_straight",
                      "{move} is not straight: a pawn moves straight along its row or column")
EMPTY_PIT = Phrase("contigo.empty_pit", "the pit {pit} is empty, so nothing moves {direction} from {square}")
WRONG_COUNT = Phrase("contigo.wrong_count", "the pit {pit} governing moves {direction} from {square} holds {beads},"
                                            " so the move is {squares}, not {distance}")
JUMPS_ENEMY = Phrase("contigo.jumps_enemy", "{move} would jump the {owner} pawn on {square}:"
                                            " pawns jump their own pawns, never an opponent's")
L_STRAIGHT = Phrase("contigo.l_straight",
                    "{move} is straight, but {who} always moves in an L: two straight legs at right angles")
L_ROUTE = Phrase("contigo.l_route", "{first} then {second} by {corner}: {reason}")
DOUBLE_BLOCKED = Phrase("contigo.double_blocked",
                        "the double may not pass over the piece on {square} (doubles move only over empty squares)")
NO_L = Phrase("contigo.no_l", "no L reaches {target} from {square} ({routes})")
PASS_CAPTURE_ONLY = Phrase("contigo.pass_capture_only", "pass moves belong to the capture game")
PASS_FROM_DOUBLE = Phrase("contigo.pass_from_double", "a pass starts from your double, and {square} holds a single")
PASS_TO_EMPTY = Phrase("contigo.pass_to_empty",
                       "a pass hands the double's second man to one of your singles, and {square} is empty")
PASS_TO_OTHER = Phrase("contigo.pass_to_other", "a pass hands the double's second man to one of your singles,"
                                                " and {square} does not hold one of your singles")
PASS_NOT_IN_LINE = Phrase("contigo.pass_not_in_line",
                          "a pass goes straight along a row or column, and {target} is not in line with {square}")
PASS_BLOCKED = Phrase("contigo.pass_blocked", "the pass needs an unobstructed path, and {square} is occupied")
PASS_COUNT = Phrase("contigo.pass_count", "a pass must match its pit exactly: the pit {pit} governing {direction}"
                                          " from {square} holds {beads}, but {target} is {squares} away")
PIT_TWICE = Phrase("contigo.pit_twice", "not a Contigo bead move (name each pit once)")
TAKE_THEN_DROP = Phrase("contigo.take_then_drop", "in the capture game beads are picked up from one pit"
                                                  " (take n-f 3), then dropped pit by pit within range (drop e-6 2)")
MUST_LEAVE = Phrase("contigo.must_leave", "beads taken from {pit} must leave it")
TOO_MANY = Phrase("contigo.too_many", "the pit {pit} holds {beads}: you cannot take {count}")
ONE_PIT = Phrase("contigo.one_pit", "in the alignment game all {count} beads go together into one pit")
EXACT_DISTANCE = Phrase("contigo.exact_distance",
                        "{beads} from {pit} go exactly {count} pits around the ring, to {targets}, not to {target}")
DROPPING = Phrase("contigo.dropping", "the beads from {pit} are being dropped: drop the other {beads} in your hand")
ONE_SOURCE = Phrase("contigo.one_source", "beads come from one pit per turn, and you took yours from {pit}")
TAKE_FIRST = Phrase("contigo.take_first", "pick beads up from a pit first (take n-f 3)")
HAND_HOLDS = Phrase("contigo.hand_holds", "you hold {beads}, not {count}")
OTHER_WAY = Phrase("contigo.other_way", "the beads from {pit} go one way round the ring, and your drops so far went"
                                        " the other way: {target} is not among the {count} pits that follow {pit}"
                                        " that way")
ONE_WAY_RANGE = Phrase("contigo.one_way_range", "{beads} from {pit} may only be dropped in the {count} pits that"
                                                " follow it in one direction around the ring")
EITHER_SIDE_RANGE = Phrase("contigo.either_side_range", "{beads} from {pit} may only be dropped in the pits within"
                                                        " {count} of it, on either side round the ring")
SPREAD_LIMIT = Phrase("contigo.spread_limit", "more than {limit} beads (the spread limit) go all into one pit;"
                                              " {count} beads cannot be split")
CAPTURES = Phrase("contigo.captures", "{player} captures on {square}")


def _bead_tables() -> tuple[tuple[tuple[Beads, ...], ...], ...]:
    """The alignment game's bead moves, by pit and the beads it holds: ``BEADS[src][c]`` lists the
    bead actions of pit src holding c beads, ordered by beads taken (k = 1 .. c).

    A bead action is ``("b", src, ((dst, k),))``: all k beads into the pit exactly k steps away,
    either way round the ring (one action when both ways reach the same pit). Every list is a shared
    tuple, so that a legal list is a join of 28 of them, no slicing (some 86,000 entries, 0.7 MB).
    The capture game's bead move is several actions (take, then drop pit by pit), listed by the state.
    """
    tables: list[tuple[tuple[Beads, ...], ...]] = []
    for src in range(NPITS):
        actions: list[Beads] = []
        seen: set[Beads] = set()
        by_count: list[tuple[Beads, ...]] = [()]
        for k in range(1, TOTAL_BEADS + 1):
            for dst in ((src + k) % NPITS, (src - k) % NPITS):
                action = Beads("b", src, ((dst, k),))
                if dst != src and action not in seen:
                    seen.add(action)
                    actions.append(action)
            by_count.append(tuple(actions))
        tables.append(tuple(by_count))
    return tuple(tables)


_BEADS = _bead_tables()


# --------------------------------------------------------------------------- legal actions
# ----------------------------------------------------------------- move generation
def _targets(board: tuple[int, ...], pits: tuple[int, ...], variant: Variant, s: int) -> list[int]:
    """Squares the piece on s may move to (the current player's piece). Takes the position's parts,
    read once by the caller: it runs for every piece of every legal list."""
    code = board[s]
    p = owner(code)
    capture = variant.capture
    is_double = capture and not code & 1
    out: list[int] = []
    gov = GOV[s]
    rays = RAY[s]
    if not (is_double or variant.lform):
        for d in range(4):
            n = pits[gov[d]]
            ray = rays[d]
            if not n or n > len(ray):
                continue
            t = ray[n - 1]
            occupant = board[t]
            if capture:
                if not occupant or owner(occupant) != p:
                    out.append(t)
                continue
            if occupant:
                continue
            for i in range(n - 1):
                q = board[ray[i]]
                if q and owner(q) != p:
                    break
            else:
                out.append(t)
        return out
    for d1 in range(4):
        n1 = pits[gov[d1]]
        ray1 = rays[d1]
        if not n1 or n1 > len(ray1):
            continue
        c = ray1[n1 - 1]
        if is_double and any(board[ray1[i]] for i in range(n1)):
            continue
        for d2 in PERPENDICULAR[d1]:
            n2 = pits[GOV[c][d2]]
            ray2 = RAY[c][d2]
            if not n2 or n2 > len(ray2):
                continue
            t = ray2[n2 - 1]
            occupant = board[t]
            if occupant and (not capture or owner(occupant) == p):
                continue
            if is_double and any(board[ray2[i]] for i in range(n2 - 1)):
                continue
            if t not in out:
                out.append(t)
    return out


def _passes(board: tuple[int, ...], pits: tuple[int, ...], s: int) -> list[int]:
    """Squares of friendly singles the double on s may pass its second man to."""
    p = owner(board[s])
    out = []
    for d in range(4):
        n = pits[GOV[s][d]]
        ray = RAY[s][d]
        if not n or n > len(ray):
            continue
        t = ray[n - 1]
        if board[t] != 1 + 2 * p:
            continue
        if any(board[ray[i]] for i in range(n - 1)):
            continue
        out.append(t)
    return out


targets = _targets  # the computer players' look-ahead asks it of pits the bead move would leave

_MOVES = tuple(tuple(Move("m", s, t) for t in range(NSQ)) for s in range(NSQ))
_PASSES = tuple(tuple(Pass("p", s, t) for t in range(NSQ)) for s in range(NSQ))
"""Every pawn move and pass, by square and target: legal lists are built of these, made once."""


def _pawn_actions(position: Position, p: int) -> list[Action]:
    variant, board, pits = position[:3]
    single_code = 1 + 2 * p
    double_code = 2 + 2 * p
    out: list[Action] = []
    for s in range(NSQ):
        code = board[s]
        if code != single_code and code != double_code:
            continue
        moves = _MOVES[s]
        for t in _targets(board, pits, variant, s):
            out.append(moves[t])
        if code == double_code:
            passes = _PASSES[s]
            for t in _passes(board, pits, s):
                out.append(passes[t])
    return out


def has_pawn_move(position: Position, p: int) -> bool:
    variant, board, pits = position[:3]
    for s in range(NSQ):
        code = board[s]
        if code and owner(code) == p and (_targets(board, pits, variant, s)
                                          or (not code & 1 and _passes(board, pits, s))):
            return True
    return False


def _bead_actions(position: Position) -> list[Action]:
    out: list[Action] = []
    for by_count, c in zip(_BEADS, position.pits, strict=True):
        out += by_count[c]
    return out


_TAKES = tuple(tuple(Take("t", pit, j) for j in range(1, TOTAL_BEADS + 1)) for pit in range(NPITS))
_DROPS = tuple(tuple(Drop("d", pit, c) for c in range(1, TOTAL_BEADS + 1)) for pit in range(NPITS))
"""Every pick-up and drop, by pit and beads - 1: the capture game's bead phases list hundreds."""


def _take_actions(position: Position, only: int | None = None) -> list[Action]:
    """Capture game: pick up 1.. all the beads of a pit (or, before any drop, more from the pit
    already picked from)."""
    pits = position.pits
    srcs = range(NPITS) if only is None else (only,)
    return [take for src in srcs for take in _TAKES[src][: pits[src]]]


@cache
def _drop_pits(pit: int, taken: int, ways: int) -> tuple[int, ...]:
    """The pits a hand of beads from ``pit`` may go into, in order (within range ``taken``, the
    ``ways`` still open): a few thousand hands in all, each worked out once."""
    hand = Hand(pit, taken, taken, ways)
    return tuple(dst for dst in range(NPITS) if dst != pit and hand.reaches(dst))


def _drop_actions(position: Position) -> list[Action]:
    """Capture game: drop some of the beads in the hand into one pit within range."""
    hand = position.hand
    assert hand is not None, "the drop phase has beads in the hand"
    left = hand.left
    limit = position.variant.spread_limit
    if limit and hand.taken > limit:  # the spread limit (a variant): all into one pit
        return [_DROPS[dst][left - 1] for dst in _drop_pits(hand.pit, hand.taken, hand.ways)]
    return [drop for dst in _drop_pits(hand.pit, hand.taken, hand.ways) for drop in _DROPS[dst][:left]]


def legal_actions(position: Position) -> list[Action]:
    phase = position.phase
    if phase == "move":
        return _pawn_actions(position, position.player)
    if phase == "beads":
        return _take_actions(position) if position.variant.capture else _bead_actions(position)
    if phase == "drop":
        hand = position.hand
        assert hand is not None, "the drop phase has beads in the hand"
        out = _take_actions(position, hand.pit) if hand.left == hand.taken else []
        return out + _drop_actions(position)
    if phase == "start":
        return [Start("start", p) for p in range(position.variant.n)]
    return []


def winning_actions(position: Position) -> list[Action]:
    """The pawn moves that win at once for the player to move (:func:`_after_pawn`'s winner, without
    building the positions): a line completed, or in the capture game a double or the last man taken."""
    if position.phase != "move":
        return []
    variant, board, p = position.variant, position.board, position.player
    after = list(board)
    out: list[Action] = []
    for move in _pawn_actions(position, p):
        if not isinstance(move, Move):
            continue  # a pass splits a double: no line, no capture
        _, s, t = move
        taken = board[t]
        if variant.capture:
            if taken and (not taken & 1 or position.captured[p] + 1 >= CAPTURE_WIN):
                out.append(move)
            continue
        after[t], after[s] = board[s], 0
        if has_line(after, p, variant.lines[t], variant.need):
            out.append(move)
        after[s], after[t] = board[s], board[t]
    return out


def chance_outcomes(position: Position) -> list[tuple[Action, float]]:
    if position.phase != "start":
        return []
    n = position.variant.n
    return [(Start("start", p), 1.0 / n) for p in range(n)]


def apply_legal(position: Position, action: Action) -> Position:
    """The position after ``action``, one of :func:`legal_actions` (unchecked)."""
    kind = action[0]  # type: ignore[index]  # one of legal_actions(): a ContigoAction
    if kind == "start":
        p = action[1]  # type: ignore[index]
        phase = "move" if has_pawn_move(position, p) else "beads"
        return position._replace(player=p, phase=phase, turn=0, result=None)
    if kind in ("m", "p"):
        return _after_pawn(position, action)  # type: ignore[arg-type]
    if kind == "b":
        return _afterbeads_text(position, action)  # type: ignore[arg-type]
    if kind == "t":
        return _after_take(position, action)  # type: ignore[arg-type]
    return _after_drop(position, action)  # type: ignore[arg-type]


def why_illegal(position: Position, action: object, action_text: str) -> Message:
    """Why ``action`` (written ``action_text``), not one of :func:`legal_actions`, is refused."""
    if position.player == TERMINAL:
        return GAME_OVER()
    if not isinstance(action, tuple) or not action:
        return NOT_AN_ACTION()
    kind = action[0]
    if position.phase == "start":
        return START_FIRST()
    if kind == "start":
        return STARTED()
    reason: Message | None = None
    if kind in ("m", "p"):
        if position.phase != "move":
            return PAWN_MOVED()
        if not is_pawn(action):
            return NOT_A_PAWN_MOVE()
        reason = _explain_pawn(position, action)
    elif kind in ("b", "t", "d"):
        if position.phase == "move":
            return PAWN_FIRST()
        if kind == "b":
            if not is_beads(action):
                return NOT_A_BEAD_MOVE()
            reason = _explainbeads_text(position, action)
        elif position.variant.alignment:
            return ONE_BEAD_ACTION()
        elif not is_hand_action(action):
            return NOT_A_BEAD_MOVE()
        else:
            reason = _explain_take(position, action) if action[0] == "t" else _explain_drop(position, action)
    else:
        return NOT_AN_ACTION()
    return reason or NOT_LEGAL_NOW(action=action_text)


def _after_pawn(position: Position, action: Move | Pass) -> Position:
    kind, s, t = action
    board = list(position.board)
    p = position.player
    variant = position.variant
    captured = position.captured
    winner = None
    if kind == "p":
        board[s] = 1 + 2 * p
        board[t] = 2 + 2 * p
    else:
        taken = board[t]
        board[t] = board[s]
        board[s] = 0
        if taken:  # capture game only: alignment moves land on empty squares
            caps = list(captured)
            caps[p] += 1 if taken & 1 else 2
            captured = tuple(caps)
            if not taken & 1 or caps[p] >= CAPTURE_WIN:
                winner = p
        if variant.alignment:
            winner = _alignment_winner(board, p, s, t, variant)
    board_t = tuple(board)
    if winner is not None:
        return position._replace(board=board_t, player=TERMINAL, phase="over", captured=captured, result=winner)
    return position._replace(board=board_t, phase="beads", captured=captured)


def _afterbeads_text(position: Position, action: Beads) -> Position:
    _, src, drops = action
    pits = list(position.pits)
    for dst, c in drops:
        pits[src] -= c
        pits[dst] += c
    return _next_turn(position, tuple(pits))


def _after_take(position: Position, action: Take) -> Position:
    _, src, j = action
    pits = list(position.pits)
    pits[src] -= j
    hand = position.hand
    taken = j + (hand.taken if hand is not None else 0)
    return position._replace(pits=tuple(pits), phase="drop", hand=Hand(src, taken, taken, CW | ACW))


def _after_drop(position: Position, action: Drop) -> Position:
    _, dst, c = action
    pits = list(position.pits)
    pits[dst] += c
    hand = position.hand
    assert hand is not None, "a drop follows a pick-up"
    if hand.left == c:
        return _next_turn(position, tuple(pits))
    ways = hand.reaches(dst) if position.variant.one_way else hand.ways
    return position._replace(pits=tuple(pits), hand=Hand(hand.pit, hand.taken, hand.left - c, ways))


def _next_turn(position: Position, pits_t: tuple[int, ...]) -> Position:
    """The bead move is over: the turn passes (or the game ends at the turn limit, a draw, or at the
    sitting's last round, won by the longest line)."""
    turn = position.turn + 1
    variant = position.variant
    if turn >= variant.last_turn:
        sitting = variant.rounds and variant.rounds * variant.n <= variant.turn_limit
        result = sitting_winner(position.board, variant.n, variant.all_lines, position.player) if sitting else -1
        return position._replace(pits=pits_t, player=TERMINAL, phase="over", turn=turn, result=result, hand=None)
    q = (position.player + 1) % variant.n
    after = position._replace(pits=pits_t, player=q, phase="move", turn=turn, hand=None)
    return after if has_pawn_move(after, q) else after._replace(phase="beads")


# ----------------------------------------------------------------- reasons
def _explain_pawn(position: Position, action: Move | Pass) -> Message | None:
    kind, s, t = action
    variant, board, p = position.variant, position.board, position.player
    sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
    code = board[s]
    if not code:
        return NO_PAWN(square=sn)
    if owner(code) != p:
        # the pawn by its colour, the player as the edge names him (a given name, else his colour)
        return NOT_YOURS(square=sn, owner=COLORS[owner(code)], player=f"player {p}")
    if s == t:
        return STAYS()
    if kind == "p":
        return _explain_pass(position, s, t)
    is_double = variant.capture and not code & 1
    occupant = board[t]
    if occupant and variant.alignment:
        return OCCUPIED(square=tn)
    if occupant and owner(occupant) == p:
        return OWN_PIECE(square=tn)
    reason = _explain_l(position, s, t, is_double) if is_double or variant.lform else _explain_straight(position, s, t)
    if reason:
        return reason
    if t not in _targets(board, position.pits, variant, s):  # the final guard; the checks above should have said why
        return NOT_LEGAL(move=f"{sn}-{tn}")
    return None


def _explain_straight(position: Position, s: int, t: int) -> Message | None:
    sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
    db = direction_between(s, t)
    if db is None:
        return NOT_STRAIGHT(move=f"{sn}-{tn}")
    d, dist = db
    pit = GOV[s][d]
    n = position.pits[pit]
    reason = _count_reason(PIT_NAMES[pit], n, d, sn, dist)
    if reason:
        return reason
    if position.variant.alignment:
        for q in RAY[s][d][: dist - 1]:
            code = position.board[q]
            if code and owner(code) != position.player:
                return JUMPS_ENEMY(move=f"{sn}-{tn}", owner=COLORS[owner(code)], square=SQUARE_NAMES[q])
    return None


def _explain_l(position: Position, s: int, t: int, is_double: bool) -> Message | None:
    sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
    who = "a double" if is_double else "in the advanced form a pawn"
    fs, rs, ft, rt = s % SIZE, s // SIZE, t % SIZE, t // SIZE
    if fs == ft or rs == rt:
        return L_STRAIGHT(move=f"{sn}-{tn}", who=who)
    routes = []
    for corner in (rt * SIZE + fs, rs * SIZE + ft):  # north/south first, then east/west first
        d1, m1 = leg(s, corner)
        d2, m2 = leg(corner, t)
        cn = SQUARE_NAMES[corner]
        pit1, pit2 = GOV[s][d1], GOV[corner][d2]
        reason = _count_reason(PIT_NAMES[pit1], position.pits[pit1], d1, sn, m1)
        if not reason:
            reason = _count_reason(PIT_NAMES[pit2], position.pits[pit2], d2, cn, m2)
        if not reason and is_double:
            path = list(RAY[s][d1][:m1]) + list(RAY[corner][d2][: m2 - 1])
            blocked = [q for q in path if position.board[q]]
            if blocked:
                reason = DOUBLE_BLOCKED(square=SQUARE_NAMES[blocked[0]])
        if not reason:
            return None
        routes.append(L_ROUTE(first=DIR_NAMES[d1], second=DIR_NAMES[d2], corner=cn, reason=reason))
    return NO_L(target=tn, square=sn, routes=tuple(routes))


def _explain_pass(position: Position, s: int, t: int) -> Message | None:
    board, p = position.board, position.player
    sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
    if not position.variant.capture:
        return PASS_CAPTURE_ONLY()
    if board[s] != 2 + 2 * p:
        return PASS_FROM_DOUBLE(square=sn)
    if board[t] != 1 + 2 * p:
        return PASS_TO_EMPTY(square=tn) if not board[t] else PASS_TO_OTHER(square=tn)
    db = direction_between(s, t)
    if db is None:
        return PASS_NOT_IN_LINE(target=tn, square=sn)
    d, dist = db
    for q in RAY[s][d][: dist - 1]:
        if board[q]:
            return PASS_BLOCKED(square=SQUARE_NAMES[q])
    pit = GOV[s][d]
    n = position.pits[pit]
    if n != dist:
        return PASS_COUNT(pit=PIT_NAMES[pit], direction=DIR_NAMES[d], square=sn, beads=BEADS(count=n), target=tn,
                          squares=SQUARES(count=dist))
    return None


def _explainbeads_text(position: Position, action: Beads) -> Message | None:
    _, src, drops = action
    if [d for d, _ in drops] != sorted({d for d, _ in drops}):
        return PIT_TWICE()
    if position.variant.capture:
        return TAKE_THEN_DROP()
    sname = PIT_NAMES[src]
    if any(d == src for d, _ in drops):
        return MUST_LEAVE(pit=sname)
    k = sum(c for _, c in drops)
    have = position.pits[src]
    if k > have:
        return TOO_MANY(pit=sname, beads=BEADS(count=have), count=k)
    if len(drops) > 1:
        return ONE_PIT(count=k)
    dst = drops[0][0]
    targets = [(src + k) % NPITS, (src - k) % NPITS]
    if dst not in targets:
        ends = list(dict.fromkeys(PIT_NAMES[x] for x in targets if x != src))
        names = EITHER(first=ends[0], second=ends[1]) if len(ends) == 2 else ends[0] if ends else NOWHERE()
        return EXACT_DISTANCE(beads=BEADS(count=k), pit=sname, count=k, targets=names, target=PIT_NAMES[dst])
    return None


def _explain_take(position: Position, action: Take) -> Message | None:
    _, src, j = action
    sname = PIT_NAMES[src]
    hand = position.hand
    if hand is not None:
        if hand.left < hand.taken:
            return DROPPING(pit=PIT_NAMES[hand.pit], beads=BEADS(count=hand.left))
        if src != hand.pit:
            return ONE_SOURCE(pit=PIT_NAMES[hand.pit])
    have = position.pits[src]
    if j > have:
        return TOO_MANY(pit=sname, beads=BEADS(count=have), count=j)
    return None


def _explain_drop(position: Position, action: Drop) -> Message | None:
    hand = position.hand
    if hand is None:
        return TAKE_FIRST()
    _, dst, c = action
    src, taken = PIT_NAMES[hand.pit], hand.taken
    if c > hand.left:
        return HAND_HOLDS(beads=BEADS(count=hand.left), count=c)
    if dst == hand.pit:
        return MUST_LEAVE(pit=src)
    if not hand.reaches(dst):
        if hand.ways != CW | ACW and hand.reaches(dst) == 0 and Hand(*hand[:3], CW | ACW).reaches(dst):
            return OTHER_WAY(pit=src, target=PIT_NAMES[dst], count=taken)
        if position.variant.one_way:
            return ONE_WAY_RANGE(beads=BEADS(count=taken), pit=src, count=taken)
        return EITHER_SIDE_RANGE(beads=BEADS(count=taken), pit=src, count=taken)
    limit = position.variant.spread_limit
    if limit and taken > limit and c != hand.left:
        return SPREAD_LIMIT(limit=limit, count=taken)
    return None


def _count_reason(pit_name: str, n: int, d: int, from_name: str, dist: int) -> Message | None:
    if n == dist:
        return None
    if n == 0:
        return EMPTY_PIT(pit=pit_name, direction=DIR_NAMES[d], square=from_name)
    return WRONG_COUNT(pit=pit_name, direction=DIR_NAMES[d], square=from_name, beads=BEADS(count=n),
                       squares=SQUARES(count=n), distance=dist)


def _alignment_winner(board: list[int], p: int, vacated: int, landed: int, variant: Variant) -> int | None:
    """The winner after p moved a pawn from ``vacated`` to ``landed``, if any.

    The mover wins if the move completes a line for him; otherwise a line the move uncovers wins for
    its owner (the first such player after the mover in turn order).
    """
    need = variant.need
    if has_line(board, p, variant.lines[landed], need):
        return p
    n = variant.n
    for i in range(1, n):
        q = (p + i) % n
        if has_line(board, q, variant.lines[vacated], need):
            return q
    return None
