"""Contigo's states: pawn moves, bead moves, wins, text formats and views."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeGuard

from controller.games.base import (
    CHANCE,
    GAME_OVER,
    TERMINAL,
    Action,
    Announcement,
    BadPosition,
    ColourName,
    Game,
    IllegalAction,
    Message,
    State,
    announcement,
    canonical,
    parse_int,
    read_fields,
    write_fields,
)
from controller.games.contigo.geometry import (
    DIR_NAMES,
    GOV,
    LINES_THROUGH,
    NPITS,
    NSQ,
    ORTHO_LINES_THROUGH,
    PERPENDICULAR,
    PIT_INDEX,
    PIT_NAMES,
    RAY,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    direction_between,
    leg,
    ring_distance,
)
from controller.games.contigo.rules import (
    BEADS_PER_PIT,
    CAPTURE_MEN,
    CAPTURE_WIN,
    CAPTURES,
    COLORS,
    DOUBLE_BLOCKED,
    DROPPING,
    EITHER_SIDE_RANGE,
    EMPTY_PIT,
    EXACT_DISTANCE,
    HAND_HOLDS,
    JUMPS_ENEMY,
    L_ROUTE,
    L_STRAIGHT,
    LETTERS,
    MUST_LEAVE,
    NO_L,
    NO_PAWN,
    NO_SUCH_ACTION,
    NOT_A_BEAD_MOVE,
    NOT_A_PAWN_MOVE,
    NOT_A_STRING,
    NOT_AN_ACTION,
    NOT_LEGAL,
    NOT_STRAIGHT,
    NOT_YOURS,
    OCCUPIED,
    ONE_BEAD_ACTION,
    ONE_PIT,
    ONE_SOURCE,
    ONE_WAY_RANGE,
    OPTIONS,
    OTHER_WAY,
    OWN_PIECE,
    PASS_BLOCKED,
    PASS_CAPTURE_ONLY,
    PASS_COUNT,
    PASS_FROM_DOUBLE,
    PASS_NOT_IN_LINE,
    PASS_TO_EMPTY,
    PASS_TO_OTHER,
    PAWN_FIRST,
    PAWN_MOVED,
    PIT_TWICE,
    SPREAD_LIMIT,
    START_FIRST,
    STARTED,
    STAYS,
    TAKE_FIRST,
    TAKE_THEN_DROP,
    TOO_MANY,
    TOTAL_BEADS,
    WRONG_COUNT,
    BeadAction,
    ContigoAction,
    DropAction,
    MoveAction,
    PassAction,
    StartAction,
    TakeAction,
    bead_tables,
    initial_board,
    validate,
)

PHASES = ("start", "move", "beads", "drop", "over")
OPTION_KEYS = tuple(o.name for o in OPTIONS)
POSITION_KEYS = ("game", "form", "win", "turn_limit", "spread_limit", "spread", "players", "board", "pits", "to",
                 "phase", "hand", "turn", "captured", "result")
"""The fields of a position text, in order."""


def _is_start(action: object) -> TypeGuard[StartAction]:
    return isinstance(action, tuple) and len(action) == 2 and action[0] == "start" and _whole(action[1])


def _is_pawn(action: object) -> TypeGuard[MoveAction | PassAction]:
    return (isinstance(action, tuple) and len(action) == 3 and action[0] in ("m", "p")
            and all(_whole(x) and 0 <= x < NSQ for x in action[1:]))


def _is_beads(action: object) -> TypeGuard[BeadAction]:
    if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "b" and _whole(action[1])
            and 0 <= action[1] < NPITS and isinstance(action[2], tuple) and action[2]):
        return False
    return all(isinstance(item, tuple) and len(item) == 2 and all(_whole(x) for x in item)
               and 0 <= item[0] < NPITS and item[1] >= 1 for item in action[2])


def _is_hand_action(action: object) -> TypeGuard[TakeAction | DropAction]:
    return (isinstance(action, tuple) and len(action) == 3 and action[0] in ("t", "d")
            and _whole(action[1]) and _whole(action[2]) and 0 <= action[1] < NPITS and action[2] >= 1)


def _is_action(action: object) -> TypeGuard[ContigoAction]:
    return _is_start(action) or _is_pawn(action) or _is_beads(action) or _is_hand_action(action)


def _whole(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _owner(code: int) -> int:
    return (code - 1) >> 1


def _beads(n: int) -> str:
    return f"{n} bead" if n == 1 else f"{n} beads"


def _squares(n: int) -> str:
    return f"{n} square" if n == 1 else f"{n} squares"


class Rules:
    """One variant with its player count, and the tables it needs (shared by all its states)."""

    __slots__ = ("alignment", "bead_actions", "bead_ends", "capture", "form", "game", "lform", "lines",
                 "n", "need", "one_way", "options", "spread", "spread_limit", "turn_limit", "win")

    def __init__(self, options: dict[str, Any], n: int) -> None:
        validate(options, n)
        self.options = dict(options)
        self.game = options["game"]
        self.form = options["form"]
        self.win = options["win"]
        self.turn_limit = options["turn_limit"]
        self.spread_limit = options["spread_limit"]
        self.spread = options["spread"]
        self.one_way = self.spread == "one_way"  # every drop of a pick-up the same way round the ring
        self.n = n
        self.capture = self.game == "capture"
        self.alignment = not self.capture
        self.lform = self.form == "L"
        self.need = 5 if self.win == "five" else 4
        self.lines = ORTHO_LINES_THROUGH if self.win == "five" else LINES_THROUGH
        self.bead_actions, self.bead_ends = bead_tables() if self.alignment else ((), ())


_RULES: dict[tuple[object, ...], Rules] = {}


def get_rules(options: dict[str, Any], n: int) -> Rules:
    key = (*(options[k] for k in OPTION_KEYS), n)
    try:
        return _RULES[key]
    except (KeyError, TypeError):
        pass
    rules = Rules(options, n)
    with contextlib.suppress(TypeError):
        _RULES[key] = rules
    return rules


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


class ContigoState(State):
    __slots__ = ("board", "captured", "hand", "phase_", "pits", "player", "result", "rules", "turn")

    def __init__(self, rules: Rules, board: tuple[int, ...], pits: tuple[int, ...], player: int, phase: str,
                 turn: int, captured: tuple[int, ...], result: int | None, hand: Hand | None = None) -> None:
        self.rules = rules
        self.board = board
        self.pits = pits
        self.player = player
        self.phase_ = phase
        self.turn = turn
        self.captured = captured
        self.result = result  # None while playing, -1 for a draw, else the winner
        self.hand = hand  # phase "drop" only

    # ----------------------------------------------------------------- basic properties
    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options)

    @property
    def num_players(self) -> int:
        return self.rules.n

    @property
    def current_player(self) -> int:
        return self.player

    @property
    def phase(self) -> str:
        return self.phase_

    def returns(self) -> list[float]:
        n = self.rules.n
        if self.result is None or self.result < 0:
            return [0.0] * n
        return [1.0 if p == self.result else -1.0 for p in range(n)]

    def scores(self) -> list[float]:
        if self.rules.capture:
            return [float(c) for c in self.captured]
        return self.returns()

    # ----------------------------------------------------------------- move generation
    def _targets(self, s: int) -> list[int]:
        """Squares the piece on s may move to (the current player's piece)."""
        board, pits, rules = self.board, self.pits, self.rules
        code = board[s]
        p = _owner(code)
        capture = rules.capture
        is_double = capture and not code & 1
        out: list[int] = []
        gov = GOV[s]
        rays = RAY[s]
        if not (is_double or rules.lform):
            for d in range(4):
                n = pits[gov[d]]
                ray = rays[d]
                if not n or n > len(ray):
                    continue
                t = ray[n - 1]
                occupant = board[t]
                if capture:
                    if not occupant or _owner(occupant) != p:
                        out.append(t)
                    continue
                if occupant:
                    continue
                for i in range(n - 1):
                    q = board[ray[i]]
                    if q and _owner(q) != p:
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
                if occupant and (not capture or _owner(occupant) == p):
                    continue
                if is_double and any(board[ray2[i]] for i in range(n2 - 1)):
                    continue
                if t not in out:
                    out.append(t)
        return out

    def _passes(self, s: int) -> list[int]:
        """Squares of friendly singles the double on s may pass its second man to."""
        board, pits = self.board, self.pits
        p = _owner(board[s])
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

    def _pawn_actions(self, p: int) -> list[Action]:
        board = self.board
        single_code = 1 + 2 * p
        double_code = 2 + 2 * p
        out: list[Action] = []
        for s in range(NSQ):
            code = board[s]
            if code != single_code and code != double_code:
                continue
            for t in self._targets(s):
                out.append(("m", s, t))
            if code == double_code:
                for t in self._passes(s):
                    out.append(("p", s, t))
        return out

    def _has_pawn_move(self, p: int) -> bool:
        board = self.board
        for s in range(NSQ):
            code = board[s]
            if code and _owner(code) == p and (self._targets(s) or (not code & 1 and self._passes(s))):
                return True
        return False

    def _bead_actions(self) -> list[Action]:
        out: list[Action] = []
        acts, ends = self.rules.bead_actions, self.rules.bead_ends
        for src, c in enumerate(self.pits):
            if c:
                out += acts[src][: ends[src][c]]
        return out

    def _take_actions(self, only: int | None = None) -> list[Action]:
        """Capture game: pick up 1.. all the beads of a pit (or, before any drop, more from the pit
        already picked from)."""
        pits = self.pits
        srcs = range(NPITS) if only is None else (only,)
        return [("t", src, j) for src in srcs for j in range(1, pits[src] + 1)]

    def _drop_actions(self) -> list[Action]:
        """Capture game: drop some of the beads in the hand into one pit within range."""
        hand = self.hand
        assert hand is not None, "the drop phase has beads in the hand"
        limit = self.rules.spread_limit
        if limit and hand.taken > limit:  # the spread limit (a variant): all into one pit
            counts: range | tuple[int, ...] = (hand.left,)
        else:
            counts = range(1, hand.left + 1)
        return [("d", dst, c) for dst in range(NPITS) if dst != hand.pit and hand.reaches(dst) for c in counts]

    def legal_actions(self) -> list[Action]:
        phase = self.phase_
        if phase == "move":
            return self._pawn_actions(self.player)
        if phase == "beads":
            return self._take_actions() if self.rules.capture else self._bead_actions()
        if phase == "drop":
            hand = self.hand
            assert hand is not None, "the drop phase has beads in the hand"
            out = self._take_actions(hand.pit) if hand.left == hand.taken else []
            return out + self._drop_actions()
        if phase == "start":
            return [("start", p) for p in range(self.rules.n)]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase_ != "start":
            return []
        n = self.rules.n
        return [(("start", p), 1.0 / n) for p in range(n)]

    # ----------------------------------------------------------------- players
    def player_name(self, player: int) -> str:
        return COLORS[player]

    def player_colour(self, player: int) -> ColourName:
        return COLORS[player]

    # ----------------------------------------------------------------- applying actions
    def apply_legal(self, action: Action) -> ContigoState:
        kind = action[0]  # type: ignore[index]  # one of legal_actions(): a ContigoAction
        if kind == "start":
            p = action[1]  # type: ignore[index]
            phase = "move" if self._has_pawn_move(p) else "beads"
            return ContigoState(self.rules, self.board, self.pits, p, phase, 0, self.captured, None)
        if kind in ("m", "p"):
            return self._after_pawn(action)  # type: ignore[arg-type]
        if kind == "b":
            return self._after_beads(action)  # type: ignore[arg-type]
        if kind == "t":
            return self._after_take(action)  # type: ignore[arg-type]
        return self._after_drop(action)  # type: ignore[arg-type]

    def why_illegal(self, action: object) -> Message:
        if self.player == TERMINAL:
            return GAME_OVER()
        if not isinstance(action, tuple) or not action:
            return NOT_AN_ACTION()
        kind = action[0]
        if self.phase_ == "start":
            return START_FIRST()
        if kind == "start":
            return STARTED()
        reason: Message | None = None
        if kind in ("m", "p"):
            if self.phase_ != "move":
                return PAWN_MOVED()
            if not _is_pawn(action):
                return NOT_A_PAWN_MOVE()
            reason = self._explain_pawn(action)
        elif kind in ("b", "t", "d"):
            if self.phase_ == "move":
                return PAWN_FIRST()
            if kind == "b":
                if not _is_beads(action):
                    return NOT_A_BEAD_MOVE()
                reason = self._explain_beads(action)
            elif self.rules.alignment:
                return ONE_BEAD_ACTION()
            elif not _is_hand_action(action):
                return NOT_A_BEAD_MOVE()
            else:
                reason = self._explain_take(action) if action[0] == "t" else self._explain_drop(action)
        else:
            return NOT_AN_ACTION()
        return reason or super().why_illegal(action)

    def _after_pawn(self, action: MoveAction | PassAction) -> ContigoState:
        kind, s, t = action
        board = list(self.board)
        p = self.player
        rules = self.rules
        captured = self.captured
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
            if rules.alignment:
                winner = _alignment_winner(board, p, s, t, rules)
        board_t = tuple(board)
        if winner is not None:
            return ContigoState(rules, board_t, self.pits, TERMINAL, "over", self.turn, captured, winner)
        return ContigoState(rules, board_t, self.pits, p, "beads", self.turn, captured, None)

    def _after_beads(self, action: BeadAction) -> ContigoState:
        _, src, drops = action
        pits = list(self.pits)
        for dst, c in drops:
            pits[src] -= c
            pits[dst] += c
        return self._next_turn(tuple(pits))

    def _after_take(self, action: TakeAction) -> ContigoState:
        _, src, j = action
        pits = list(self.pits)
        pits[src] -= j
        hand = self.hand
        taken = j + (hand.taken if hand is not None else 0)
        return ContigoState(self.rules, self.board, tuple(pits), self.player, "drop", self.turn, self.captured,
                            None, Hand(src, taken, taken, CW | ACW))

    def _after_drop(self, action: DropAction) -> ContigoState:
        _, dst, c = action
        pits = list(self.pits)
        pits[dst] += c
        hand = self.hand
        assert hand is not None, "a drop follows a pick-up"
        if hand.left == c:
            return self._next_turn(tuple(pits))
        ways = hand.reaches(dst) if self.rules.one_way else hand.ways
        return ContigoState(self.rules, self.board, tuple(pits), self.player, "drop", self.turn, self.captured,
                            None, Hand(hand.pit, hand.taken, hand.left - c, ways))

    def _next_turn(self, pits_t: tuple[int, ...]) -> ContigoState:
        """The bead move is over: the turn passes (or the game ends at the turn limit)."""
        turn = self.turn + 1
        rules = self.rules
        if turn >= rules.turn_limit:
            return ContigoState(rules, self.board, pits_t, TERMINAL, "over", turn, self.captured, -1)
        q = (self.player + 1) % rules.n
        nxt = ContigoState(rules, self.board, pits_t, q, "move", turn, self.captured, None)
        if not nxt._has_pawn_move(q):
            nxt.phase_ = "beads"
        return nxt

    # ----------------------------------------------------------------- reasons
    def _explain_pawn(self, action: MoveAction | PassAction) -> Message | None:
        kind, s, t = action
        rules, board, p = self.rules, self.board, self.player
        sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
        code = board[s]
        if not code:
            return NO_PAWN(square=sn)
        if _owner(code) != p:
            return NOT_YOURS(square=sn, owner=COLORS[_owner(code)], player=COLORS[p])
        if s == t:
            return STAYS()
        if kind == "p":
            return self._explain_pass(s, t)
        is_double = rules.capture and not code & 1
        occupant = board[t]
        if occupant and rules.alignment:
            return OCCUPIED(square=tn)
        if occupant and _owner(occupant) == p:
            return OWN_PIECE(square=tn)
        reason = self._explain_l(s, t, is_double) if is_double or rules.lform else self._explain_straight(s, t)
        if reason:
            return reason
        if t not in self._targets(s):  # the final guard; the checks above should have said why
            return NOT_LEGAL(move=f"{sn}-{tn}")
        return None

    def _explain_straight(self, s: int, t: int) -> Message | None:
        sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
        db = direction_between(s, t)
        if db is None:
            return NOT_STRAIGHT(move=f"{sn}-{tn}")
        d, dist = db
        pit = GOV[s][d]
        n = self.pits[pit]
        reason = _count_reason(PIT_NAMES[pit], n, d, sn, dist)
        if reason:
            return reason
        if self.rules.alignment:
            for q in RAY[s][d][: dist - 1]:
                code = self.board[q]
                if code and _owner(code) != self.player:
                    return JUMPS_ENEMY(move=f"{sn}-{tn}", owner=COLORS[_owner(code)], square=SQUARE_NAMES[q])
        return None

    def _explain_l(self, s: int, t: int, is_double: bool) -> Message | None:
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
            reason = _count_reason(PIT_NAMES[pit1], self.pits[pit1], d1, sn, m1)
            if not reason:
                reason = _count_reason(PIT_NAMES[pit2], self.pits[pit2], d2, cn, m2)
            if not reason and is_double:
                path = list(RAY[s][d1][:m1]) + list(RAY[corner][d2][: m2 - 1])
                blocked = [q for q in path if self.board[q]]
                if blocked:
                    reason = DOUBLE_BLOCKED(square=SQUARE_NAMES[blocked[0]])
            if not reason:
                return None
            routes.append(L_ROUTE(first=DIR_NAMES[d1], second=DIR_NAMES[d2], corner=cn, reason=reason.text).text)
        return NO_L(target=tn, square=sn, routes="; ".join(routes))

    def _explain_pass(self, s: int, t: int) -> Message | None:
        board, p = self.board, self.player
        sn, tn = SQUARE_NAMES[s], SQUARE_NAMES[t]
        if not self.rules.capture:
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
        n = self.pits[pit]
        if n != dist:
            return PASS_COUNT(pit=PIT_NAMES[pit], direction=DIR_NAMES[d], square=sn, beads=_beads(n), target=tn,
                              squares=_squares(dist))
        return None

    def _explain_beads(self, action: BeadAction) -> Message | None:
        _, src, drops = action
        if [d for d, _ in drops] != sorted({d for d, _ in drops}):
            return PIT_TWICE()
        if self.rules.capture:
            return TAKE_THEN_DROP()
        sname = PIT_NAMES[src]
        if any(d == src for d, _ in drops):
            return MUST_LEAVE(pit=sname)
        k = sum(c for _, c in drops)
        have = self.pits[src]
        if k > have:
            return TOO_MANY(pit=sname, beads=_beads(have), count=k)
        if len(drops) > 1:
            return ONE_PIT(count=k)
        dst = drops[0][0]
        targets = [(src + k) % NPITS, (src - k) % NPITS]
        if dst not in targets:
            names = " or ".join(dict.fromkeys(PIT_NAMES[x] for x in targets if x != src)) or "nowhere"
            return EXACT_DISTANCE(beads=_beads(k), pit=sname, count=k, targets=names, target=PIT_NAMES[dst])
        return None

    def _explain_take(self, action: TakeAction) -> Message | None:
        _, src, j = action
        sname = PIT_NAMES[src]
        hand = self.hand
        if hand is not None:
            if hand.left < hand.taken:
                return DROPPING(pit=PIT_NAMES[hand.pit], beads=_beads(hand.left))
            if src != hand.pit:
                return ONE_SOURCE(pit=PIT_NAMES[hand.pit])
        have = self.pits[src]
        if j > have:
            return TOO_MANY(pit=sname, beads=_beads(have), count=j)
        return None

    def _explain_drop(self, action: DropAction) -> Message | None:
        hand = self.hand
        if hand is None:
            return TAKE_FIRST()
        _, dst, c = action
        src, taken = PIT_NAMES[hand.pit], hand.taken
        if c > hand.left:
            return HAND_HOLDS(beads=_beads(hand.left), count=c)
        if dst == hand.pit:
            return MUST_LEAVE(pit=src)
        if not hand.reaches(dst):
            if hand.ways != CW | ACW and hand.reaches(dst) == 0 and Hand(*hand[:3], CW | ACW).reaches(dst):
                return OTHER_WAY(pit=src, target=PIT_NAMES[dst], count=taken)
            if self.rules.one_way:
                return ONE_WAY_RANGE(beads=_beads(taken), pit=src, count=taken)
            return EITHER_SIDE_RANGE(beads=_beads(taken), pit=src, count=taken)
        limit = self.rules.spread_limit
        if limit and taken > limit and c != hand.left:
            return SPREAD_LIMIT(limit=limit, count=taken)
        return None

    # ----------------------------------------------------------------- texts
    def action_to_text(self, action: Action) -> str:
        if not _is_action(action):
            raise ValueError(f"not a Contigo action: {action!r}")
        if action[0] == "start":
            return f"start {COLORS[action[1]]}"
        if action[0] == "m":
            _, s, t = action
            sep = "x" if self.rules.capture and self.board[t] else "-"
            return f"{SQUARE_NAMES[s]}{sep}{SQUARE_NAMES[t]}"
        if action[0] == "p":
            return f"pass {SQUARE_NAMES[action[1]]}-{SQUARE_NAMES[action[2]]}"
        if action[0] == "b":
            _, src, drops = action
            k = sum(c for _, c in drops)
            direction = 1 if all(1 <= ring_distance(src, d, 1) <= k for d, _ in drops) else -1
            ordered = sorted(drops, key=lambda dc: ring_distance(src, dc[0], direction))
            return f"beads {PIT_NAMES[src]}>" + ",".join(f"{PIT_NAMES[d]} {c}" for d, c in ordered)
        if action[0] == "t":
            return f"take {PIT_NAMES[action[1]]} {action[2]}"
        return f"drop {PIT_NAMES[action[1]]} {action[2]}"

    def action_from_text(self, text: str) -> Action:
        return parse_action(text, self.rules.n)

    # ----------------------------------------------------------------- position text
    def to_text(self) -> str:
        rules = self.rules
        ranks = []
        for r in range(SIZE - 1, -1, -1):
            ranks.append("".join(_piece_char(self.board[r * SIZE + f]) for f in range(SIZE)))
        if self.player == CHANCE:
            to = "chance"
        elif self.player == TERMINAL:
            to = "none"
        else:
            to = COLORS[self.player]
        if self.result is None:
            result = "none"
        elif self.result < 0:
            result = "draw"
        else:
            result = COLORS[self.result]
        values = (rules.game, rules.form, rules.win, rules.turn_limit, rules.spread_limit, rules.spread, rules.n,
                  "/".join(ranks), ",".join(map(str, self.pits)), to, self.phase_, _hand_text(self.hand), self.turn,
                  ",".join(map(str, self.captured)), result)
        return write_fields("contigo", zip(POSITION_KEYS, values, strict=True))

    # ----------------------------------------------------------------- views
    def physical_view(self) -> dict[str, int]:
        view = dict(zip(SQUARE_CHANNELS, self.board, strict=True))
        view.update(zip(PIT_CHANNELS, self.pits, strict=True))
        return view

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if _is_pawn(action) and isinstance(after, ContigoState) and after.captured != self.captured:
            return [announcement("capture", self.player,
                                 CAPTURES(player=COLORS[self.player], square=SQUARE_NAMES[action[2]]))]
        return []

    def physical_changes(self, action: Action) -> dict[str, int]:
        # The referee asks this for every legal action, and a capture-game bead phase can have
        # thousands: a bead move only changes pit counts, read straight off the action.
        if _is_hand_action(action):
            change = -action[2] if action[0] == "t" else action[2]
            return {PIT_CHANNELS[action[1]]: self.pits[action[1]] + change}
        if self.phase_ == "beads" and _is_beads(action):
            _, src, drops = action
            pits = dict.fromkeys((src, *(dst for dst, _ in drops)), 0)
            for dst, c in drops:
                pits[src] -= c
                pits[dst] += c
            return {PIT_CHANNELS[i]: self.pits[i] + d for i, d in pits.items() if d}
        return super().physical_changes(action)

    def actions_for_changes(self, changes: Mapping[str, int]) -> list[Action] | None:
        """The capture game's pick-up and drops that change the pits by ``changes``, however many of
        them the board shows at once (slow bead-count sensors settle together): the one pit that lost
        beads is the pick-up (or more from the pit already picked from, before any drop), each pit
        that gained is a drop of what it gained. The referee checks each against the legal actions."""
        if not self.rules.capture or self.phase_ not in ("beads", "drop"):
            return None
        lost: list[tuple[int, int]] = []
        gained: list[tuple[int, int]] = []
        for channel, value in changes.items():
            pit = PIT_OF_CHANNEL.get(channel)
            if pit is None:
                return None
            delta = value - self.pits[pit]
            if delta:
                (gained if delta > 0 else lost).append((pit, abs(delta)))
        hand = self.hand
        if len(lost) > 1 or (self.phase_ == "beads" and not lost):
            return None
        if lost and hand is not None and (lost[0][0] != hand.pit or hand.left < hand.taken):
            return None
        src = lost[0][0] if hand is None else hand.pit
        taken = (lost[0][1] if lost else 0) + (hand.taken if hand is not None else 0)
        held = Hand(src, taken, taken - (hand.taken - hand.left if hand is not None else 0), CW | ACW)
        if sum(count for _, count in gained) > held.left or not all(held.reaches(pit) for pit, _ in gained):
            return None  # more beads dropped than picked up, or beyond the range: no spread
        out: list[Action] = [("t", *lost[0])] if lost else []
        return out + [("d", pit, count) for pit, count in sorted(gained)]

    def public_view(self) -> dict[str, Any]:
        board = {}
        for s, code in enumerate(self.board):
            if code:
                board[SQUARE_NAMES[s]] = {"player": COLORS[_owner(code)], "double": not code & 1}
        return {
            "game": "contigo",
            "options": self.options,
            "players": list(COLORS[: self.rules.n]),
            "to_move": COLORS[self.player] if self.player >= 0 else None,
            "phase": self.phase_,
            "turn": self.turn,
            "turn_limit": self.rules.turn_limit,
            "board": board,
            "pits": dict(zip(PIT_NAMES, self.pits, strict=True)),
            "captured": dict(zip(COLORS, self.captured, strict=False)),
            "hand": None if self.hand is None else {
                "pit": PIT_NAMES[self.hand.pit], "taken": self.hand.taken, "in_hand": self.hand.left,
                "directions": {CW | ACW: ["clockwise", "anticlockwise"], CW: ["clockwise"],
                               ACW: ["anticlockwise"]}[self.hand.ways]},
            "result": None if self.result is None else ("draw" if self.result < 0 else COLORS[self.result]),
            "position": self.to_text(),
        }

    def render_text(self) -> str:
        pits = self.pits

        def pit(name: str) -> str:
            return f"{pits[PIT_INDEX[name]]:>3}"

        lines = []
        lines.append("     " + pit("nw") + "".join(pit(f"n-{f}") for f in "abcdef") + pit("ne"))
        for r in range(SIZE, 0, -1):
            row = "".join(f"{_piece_char(self.board[(r - 1) * SIZE + f]):>3}" for f in range(SIZE))
            lines.append(f"  {r}  {pit(f'w-{r}')}{row}{pit(f'e-{r}')}")
        lines.append("     " + pit("sw") + "".join(pit(f"s-{f}") for f in "abcdef") + pit("se"))
        lines.append("        " + "".join(f"{f:>3}" for f in "abcdef"))
        if self.player >= 0 and self.hand is not None:
            status = (f"{COLORS[self.player]} to drop {_beads(self.hand.left)} taken from"
                      f" {PIT_NAMES[self.hand.pit]} (range {self.hand.taken})")
        elif self.player >= 0:
            status = f"{COLORS[self.player]} to {'move a pawn' if self.phase_ == 'move' else 'move beads'}"
        elif self.player == CHANCE:
            status = "the hidden bead decides who starts"
        else:
            status = "game over: " + ("draw" if self.result is None or self.result < 0
                                      else f"{COLORS[self.result]} wins")
        extra = f", captured {'/'.join(map(str, self.captured))}" if self.rules.capture else ""
        lines.append(f"turn {self.turn}/{self.rules.turn_limit}{extra}; {status}")
        return "\n".join(lines)


SQUARE_CHANNELS = tuple(f"sq:{name}" for name in SQUARE_NAMES)
PIT_CHANNELS = tuple(f"pit:{name}" for name in PIT_NAMES)
PIT_OF_CHANNEL = {channel: pit for pit, channel in enumerate(PIT_CHANNELS)}


def _piece_char(code: int) -> str:
    if not code:
        return "."
    letter = LETTERS[_owner(code)]
    return letter if code & 1 else letter.upper()


def _hand_text(hand: Hand | None) -> str:
    if hand is None:
        return "-"
    return f"{PIT_NAMES[hand.pit]}:{hand.taken}:{hand.left}:{WAYS_TEXT[hand.ways]}"


def _parse_hand(text: str) -> Hand | None:
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


def _count_reason(pit_name: str, n: int, d: int, from_name: str, dist: int) -> Message | None:
    if n == dist:
        return None
    if n == 0:
        return EMPTY_PIT(pit=pit_name, direction=DIR_NAMES[d], square=from_name)
    return WRONG_COUNT(pit=pit_name, direction=DIR_NAMES[d], square=from_name, beads=_beads(n), squares=_squares(n),
                       distance=dist)


def _alignment_winner(board: list[int], p: int, vacated: int, landed: int, rules: Rules) -> int | None:
    """The winner after p moved a pawn from ``vacated`` to ``landed``, if any.

    The mover wins if the move completes a line for him; otherwise a line the move uncovers wins for
    its owner (the first such player after the mover in turn order).
    """
    need = rules.need
    if _has_line(board, p, rules.lines[landed], need):
        return p
    n = rules.n
    for i in range(1, n):
        q = (p + i) % n
        if _has_line(board, q, rules.lines[vacated], need):
            return q
    return None


def _has_line(board: Sequence[int], p: int, lines: Iterable[tuple[int, ...]], need: int) -> bool:
    code = 1 + 2 * p
    for line in lines:
        count = 0
        for s in line:
            c = board[s]
            if not c:
                continue
            if c == code:
                count += 1
                if count >= need:
                    return True
            else:
                count = 0
    return False


def parse_action(text: str, n: int) -> Action:
    if not isinstance(text, str):
        raise IllegalAction(repr(text), NOT_A_STRING())
    words = text.strip().lower().split()
    bad = IllegalAction(text, NO_SUCH_ACTION())
    if not words or len(text) > 200:
        raise bad
    if words[0] == "start" and len(words) == 2:
        if words[1] in COLORS[:n]:
            return ("start", COLORS.index(words[1]))
        raise bad
    if words[0] == "pass" and len(words) == 2:
        s, t = _parse_squares(words[1], ("-",), bad)
        return ("p", s, t)
    if words[0] in ("take", "drop") and len(words) == 3:
        pit = PIT_INDEX.get(words[1])
        if pit is None or not words[2].isdigit() or len(words[2]) > 3 or int(words[2]) < 1:
            raise bad
        return (words[0][0], pit, int(words[2]))
    if words[0] == "beads":
        rest = " ".join(words[1:])
        if rest.count(">") != 1:
            raise bad
        src_text, drops_text = rest.split(">")
        src = PIT_INDEX.get(src_text.strip())
        if src is None:
            raise bad
        drops: dict[int, int] = {}
        for part in drops_text.split(","):
            bits = part.split()
            if len(bits) != 2 or bits[0] not in PIT_INDEX or not bits[1].isdigit() or len(bits[1]) > 3:
                raise bad
            dst, count = PIT_INDEX[bits[0]], int(bits[1])
            if dst in drops or count < 1:
                raise bad
            drops[dst] = count
        return ("b", src, tuple(sorted(drops.items())))
    if len(words) == 1:
        s, t = _parse_squares(words[0], ("-", "x"), bad)
        return ("m", s, t)
    raise bad


def _parse_squares(word: str, seps: tuple[str, ...], bad: IllegalAction) -> tuple[int, int]:
    if len(word) != 5 or word[2] not in seps:
        raise bad
    s, t = SQUARE_INDEX.get(word[:2]), SQUARE_INDEX.get(word[3:])
    if s is None or t is None:
        raise bad
    return s, t


# --------------------------------------------------------------------- the game


def new_state(options: dict[str, Any], n: int) -> ContigoState:
    rules = get_rules(options, n)
    return ContigoState(rules, initial_board(rules.game, n), (BEADS_PER_PIT,) * NPITS, CHANCE, "start", 0,
                        (0,) * n, None)


def state_from_text(game: Game, text: str) -> ContigoState:
    fields = read_fields(text, "contigo", POSITION_KEYS)
    try:
        options = {
            "game": fields["game"], "form": fields["form"], "win": fields["win"],
            "turn_limit": parse_int(fields["turn_limit"]), "spread_limit": parse_int(fields["spread_limit"]),
            "spread": fields["spread"],
        }
        n = parse_int(fields["players"])
        rules = get_rules(game.options(options), n)
    except ValueError as exc:
        raise BadPosition(f"bad variant: {exc}") from None
    # board
    ranks = fields["board"].split("/")
    if len(ranks) != SIZE or any(len(r) != SIZE for r in ranks):
        raise BadPosition("board= needs 6 ranks of 6 squares, rank 6 first, separated by '/'")
    board = [0] * NSQ
    allowed = "." + LETTERS[:n] + (LETTERS[:n].upper() if rules.capture else "")
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
    hand = _parse_hand(fields["hand"])
    in_hand = hand.left if hand is not None else 0
    if len(pits) != NPITS or sum(pits) + in_hand != TOTAL_BEADS:
        raise BadPosition(f"pits= needs {NPITS} counts adding up to {TOTAL_BEADS} (with the beads in the hand)")
    if (phase_text := fields["phase"]) == "drop":
        if hand is None or not rules.capture:
            raise BadPosition("phase=drop is the capture game's bead move, with beads in the hand (hand=...)")
        limit = rules.spread_limit
        if limit and hand.taken > limit and hand.left < hand.taken:
            raise BadPosition(f"more than {limit} beads (the spread limit) go all into one pit")
        if hand.left == hand.taken and hand.ways != CW | ACW:
            raise BadPosition("no bead is dropped yet, so both ways round the ring are open (ways both)")
        if not rules.one_way and hand.ways != CW | ACW:
            raise BadPosition("beads are dropped on either side (spread=either_side): both ways stay open (ways both)")
    elif hand is not None:
        raise BadPosition(f"hand= goes with phase=drop, not phase={phase_text}")
    if len(captured) != n:
        raise BadPosition(f"captured= needs {n} counts")
    _check_pieces(rules, board, captured)
    to, phase, result_text = fields["to"], fields["phase"], fields["result"]
    if phase not in PHASES:
        raise BadPosition(f"phase= must be one of {PHASES}")
    if result_text == "none":
        result = None
    elif result_text == "draw":
        result = -1
    elif result_text in COLORS[:n]:
        result = COLORS.index(result_text)
    else:
        raise BadPosition("result= must be none, draw or a player's colour")
    if phase == "start":
        if to != "chance" or turn != 0 or result is not None:
            raise BadPosition("phase=start goes with to=chance, turn=0 and result=none")
        player = CHANCE
    elif phase == "over":
        if to != "none" or result is None:
            raise BadPosition("phase=over goes with to=none and a result")
        if result == -1 and turn != rules.turn_limit:
            raise BadPosition("a draw happens only at the turn limit")
        player = TERMINAL
    else:
        if to not in COLORS[:n] or result is not None:
            raise BadPosition(f"phase={phase} needs to= one of the players' colours and result=none")
        player = COLORS.index(to)
    if not 0 <= turn <= rules.turn_limit or (turn == rules.turn_limit and phase != "over"):
        raise BadPosition(f"turn= must be below the turn limit {rules.turn_limit} while playing")
    if phase != "over":
        _check_not_over(rules, board, captured)
    state = ContigoState(rules, tuple(board), pits, player, phase, turn, captured, result, hand)
    if phase == "move" and not state._has_pawn_move(player):
        raise BadPosition(f"{to} has no pawn move: the position is in phase=beads")
    return canonical(state, text)


def _check_not_over(rules: Rules, board: list[int], captured: tuple[int, ...]) -> None:
    """A position still in play cannot already hold a finished game."""
    if rules.capture:
        for p in range(2):
            if sum(1 for c in board if c == 2 + 2 * p) != 1:
                raise BadPosition(f"while the capture game goes on, {COLORS[p]} has exactly one double")
            if captured[p] >= CAPTURE_WIN:
                raise BadPosition(f"{COLORS[p]} has captured {CAPTURE_WIN} men: the game is over")
        return
    lines = tuple({line for per_square in rules.lines for line in per_square})
    for p in range(rules.n):
        if _has_line(board, p, lines, rules.need):
            raise BadPosition(f"{COLORS[p]} already has a winning line: the game is over")


def _check_pieces(rules: Rules, board: list[int], captured: tuple[int, ...]) -> None:
    n = rules.n
    singles = [sum(1 for c in board if c == 1 + 2 * p) for p in range(n)]
    doubles = [sum(1 for c in board if c == 2 + 2 * p) for p in range(n)]
    if rules.alignment:
        want = 6 if n == 2 else 4
        if any(s != want for s in singles) or any(captured):
            raise BadPosition(f"the alignment game has {want} pawns per player and no captures")
        return
    for p in range(2):
        men = singles[p] + 2 * doubles[p]
        if doubles[p] > 1 or men > CAPTURE_MEN:
            raise BadPosition(f"{COLORS[p]} has at most {CAPTURE_MEN} men and one double")
        if captured[1 - p] != CAPTURE_MEN - men:
            raise BadPosition(f"captured= must count the men missing from the board ({COLORS[1 - p]} has"
                              f" taken {CAPTURE_MEN - men})")
