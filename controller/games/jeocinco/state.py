"""Jeocinco's rules: state, actions, text formats, views.

See ``docs/rules/jeocinco.md`` for every rule and ruling this module enforces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeGuard

from controller.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    Announcement,
    BadPosition,
    Channel,
    ChannelKind,
    ColourName,
    Game,
    IllegalAction,
    Option,
    Options,
    State,
    canonical,
    find_action,
    read_fields,
)
from controller.games.jeocinco import board as B

WILD = 6
"""Number die: 1..5, 6 = the Jeocinco logo (wildcard; counts as 6 in a roll-off)."""
PLUS = 5
"""Letter die: 0..4 = A..E, 5 = "+1" (wildcard letter and one extra piece)."""
TIE_CAP = 10
"""Tied re-rolls allowed before a tie is settled without dice (opening: seat order; dispute: the
challenged keeps his piece). Needed for a true bound on game length; reached with odds 6**-10."""

PHASES = ("opening", "colour", "roll", "place", "tower", "challenge", "defence", "over")
CHANCE_PHASES = ("opening", "roll", "challenge", "defence")

# Channel names per sensor family, in bit order of ``State._sensed_bits``.
_CHANNEL_KEYS = (
    tuple(f"slot:{name}" for name in B.SLOT_NAMES),
    tuple(f"tower:{name}" for name in B.PENT_NAMES),
    tuple(f"bridge:{name}" for name in B.BRIDGE_NAMES),
)

# Actions (hashable tuples):
#   ("dice", number, letter)   chance: the two dice of a turn
#   ("die", value)             chance: the number die alone (opening roll, roll-off)
#   ("colour", c)              choose a colour (0..3 = N E S W)
#   ("place", slot)            put a piece in an empty slot
#   ("dispute", slot)          challenge the piece in slot
#   ("tower", pentagon, slot)  the tower replaces the piece in slot of the completed pentagon
#   ("bridge", k)              lay bridge k of board.BRIDGE_SLOTS
#   ("done",)                  end the turn with bridges still in hand

DiceAction = tuple[Literal["dice"], int, int]
DieAction = tuple[Literal["die"], int]
ColourAction = tuple[Literal["colour"], int]
SlotAction = tuple[Literal["place", "dispute"], int]
TowerAction = tuple[Literal["tower"], int, int]
BridgeAction = tuple[Literal["bridge"], int]
DoneAction = tuple[Literal["done"]]
JAction = DiceAction | DieAction | ColourAction | SlotAction | TowerAction | BridgeAction | DoneAction

DICE_OUTCOMES: tuple[DiceAction, ...] = tuple(("dice", n, c) for n in range(1, 7) for c in range(6))
DIE_OUTCOMES: tuple[DieAction, ...] = tuple(("die", v) for v in range(1, 7))
_DICE_P: list[tuple[Action, float]] = [(a, 1 / 36) for a in DICE_OUTCOMES]
_DIE_P: list[tuple[Action, float]] = [(a, 1 / 6) for a in DIE_OUTCOMES]


_SHAPES = {"dice": 2, "die": 1, "colour": 1, "place": 1, "dispute": 1, "tower": 2, "bridge": 1, "done": 0}
"""Each action kind and how many whole numbers follow it."""


def _is_action(action: object) -> TypeGuard[JAction]:
    return (isinstance(action, tuple) and len(action) >= 1 and action[0] in _SHAPES
            and len(action) == 1 + _SHAPES[action[0]]
            and all(isinstance(x, int) and not isinstance(x, bool) for x in action[1:]))


class _Cache:
    """Board facts a state works out at most once (states never change, so neither do these)."""

    __slots__ = ("done", "partners", "placements", "regions")

    def __init__(self) -> None:
        self.done: int | None = None
        self.partners: dict[int, dict[int, int]] = {}
        self.regions: dict[int, tuple[int, int]] = {}
        self.placements: tuple[int, int] | None = None


def _num_text(v: int) -> str:
    return "*" if v == WILD else str(v)


def _letter_text(v: int) -> str:
    return "+" if v == PLUS else B.LETTERS[v]


def roll_text(number: int, letter: int) -> str:
    return _num_text(number) + _letter_text(letter)


def _parse_number(ch: str) -> int:
    if ch == "*":
        return WILD
    if ch in "12345":
        return int(ch)
    raise ValueError(ch)


End = tuple[str, *tuple[int, ...]]
"""How the game ended: ``("five", winner)`` or ``("limit", *winners)`` (none on a draw)."""


class _W:
    """A mutable working copy of a state, used inside ``apply``."""

    __slots__ = (
        "actor",
        "bridges",
        "col",
        "dc",
        "dcap",
        "diag",
        "dispute",
        "end",
        "extra",
        "fast",
        "n",
        "op",
        "order",
        "own",
        "own_turn_bridges",
        "phase",
        "ptower",
        "queue",
        "roll",
        "roll_order",
        "rolled",
        "round",
        "rounds",
        "spare",
        "stage",
        "towers",
        "turn",
    )
    fast: bool
    rounds: int
    dcap: int
    n: int
    diag: bool
    roll_order: bool
    own_turn_bridges: bool
    op: list[list[int]]
    order: list[int]
    col: list[int]
    own: list[int]
    towers: list[int]
    bridges: tuple[int, ...]
    spare: list[int]
    turn: int
    round: int
    phase: str
    roll: tuple[int, int] | None
    actor: int
    stage: str
    rolled: int
    extra: int
    queue: list[list[int]]
    dc: int
    dispute: list[int] | None
    ptower: int
    end: End | None


class JeocincoState(State):
    __slots__ = (
        "_cache",
        "_legal",
        "actor",
        "bridges",
        "col",
        "current_player",
        "dc",
        "dcap",
        "diag",
        "dispute",
        "end",
        "extra",
        "fast",
        "n",
        "op",
        "order",
        "own",
        "own_turn_bridges",
        "phase",
        "ptower",
        "queue",
        "roll",
        "roll_order",
        "rolled",
        "round",
        "rounds",
        "spare",
        "stage",
        "towers",
        "turn",
        "turn_order",
    )
    fast: bool
    rounds: int
    dcap: int
    n: int
    diag: bool
    roll_order: bool
    own_turn_bridges: bool
    op: tuple[tuple[int, ...], ...]
    """Each player's opening rolls so far."""
    order: tuple[int, ...]
    """Players by their opening rolls, highest first (set by the opening roll): colours are chosen in
    this order, and its first player starts."""
    turn_order: tuple[int, ...]
    """Players in playing order, which ``turn`` indexes: round the table (seat order) from the
    starter, or (option ``roll_order``) the order of the rolls."""
    col: tuple[int, ...]
    """Each player's colour (0..3 = N E S W), -1 until chosen."""
    own: tuple[int, ...]
    """Each player's pieces, a slot bit mask."""
    towers: tuple[int, ...]
    """Per pentagon: the slot its tower replaced, -1 while not completed."""
    bridges: tuple[int, ...]
    spare: tuple[int, ...]
    turn: int
    round: int
    phase: str
    roll: tuple[int, int] | None
    actor: int
    stage: str
    rolled: int
    extra: int
    queue: tuple[tuple[int, ...], ...]
    dc: int
    dispute: tuple[int, ...] | None
    """(slot, challenger, challenged, challenger's roll or 0, ties so far) while a dispute is rolled."""
    ptower: int
    end: End | None
    current_player: int  # a plain slot here, computed once per state
    _legal: list[JAction] | None
    _cache: _Cache

    # ---- construction -------------------------------------------------------------------------
    @classmethod
    def _from(cls, w: _W) -> JeocincoState:
        s = object.__new__(cls)
        s.fast, s.rounds, s.dcap, s.n, s.diag = w.fast, w.rounds, w.dcap, w.n, w.diag
        s.roll_order, s.own_turn_bridges = w.roll_order, w.own_turn_bridges
        s.op = tuple(tuple(x) for x in w.op)
        s.order = tuple(w.order)
        if s.roll_order or not s.order:
            s.turn_order = s.order
        else:
            s.turn_order = tuple((s.order[0] + i) % s.n for i in range(s.n))
        s.col = tuple(w.col)
        s.own = tuple(w.own)
        s.towers = tuple(w.towers)
        s.bridges = w.bridges
        s.spare = tuple(w.spare)
        s.turn, s.round, s.phase = w.turn, w.round, w.phase
        s.roll = w.roll
        s.actor, s.stage, s.rolled, s.extra = w.actor, w.stage, w.rolled, w.extra
        s.queue = tuple(tuple(q) for q in w.queue)
        s.dc = w.dc
        s.dispute = tuple(w.dispute) if w.dispute is not None else None
        s.ptower = w.ptower
        s.end = w.end
        s._legal = None
        s._cache = _Cache()
        s.current_player = s._player()
        return s

    def _work(self) -> _W:
        w = _W()
        w.fast, w.rounds, w.dcap, w.n, w.diag = self.fast, self.rounds, self.dcap, self.n, self.diag
        w.roll_order, w.own_turn_bridges = self.roll_order, self.own_turn_bridges
        w.op = [list(x) for x in self.op]
        w.order = list(self.order)
        w.col = list(self.col)
        w.own = list(self.own)
        w.towers = list(self.towers)
        w.bridges = self.bridges
        w.spare = list(self.spare)
        w.turn, w.round, w.phase = self.turn, self.round, self.phase
        w.roll = self.roll
        w.actor, w.stage, w.rolled, w.extra = self.actor, self.stage, self.rolled, self.extra
        w.queue = [list(q) for q in self.queue]
        w.dc = self.dc
        w.dispute = list(self.dispute) if self.dispute is not None else None
        w.ptower = self.ptower
        w.end = self.end
        return w

    # ---- API basics ---------------------------------------------------------------------------
    @property
    def options(self) -> dict[str, Any]:
        return {"fast": self.fast, "max_rounds": self.rounds, "max_disputes_per_turn": self.dcap,
                "diagonal_bridges": self.diag, "roll_order": self.roll_order,
                "own_turn_bridges": self.own_turn_bridges}

    @property
    def num_players(self) -> int:
        return self.n

    def _player(self) -> int:
        ph = self.phase
        if ph == "over":
            return TERMINAL
        if ph in CHANCE_PHASES:
            return CHANCE
        if ph == "colour":
            return self.order[sum(1 for c in self.col if c >= 0)]
        return self.actor

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == "roll":
            return list(_DICE_P)
        if self.phase in ("opening", "challenge", "defence"):
            return list(_DIE_P)
        return []

    def player_colour(self, player: int) -> ColourName | None:
        c = self.col[player]
        return B.COLOUR_NAMES[c] if c >= 0 else None

    def returns(self) -> list[float]:
        if self.end is None:
            return [0.0] * self.n
        winners = self.end[1:]
        if not winners:
            return [0.0] * self.n
        share = 1.0 / len(winners)
        return [share if p in winners else -1.0 for p in range(self.n)]

    def scores(self) -> list[float]:
        return [float(self.tower_count(p)) for p in range(self.n)]

    def tower_count(self, p: int) -> int:
        c = self.col[p] if p < len(self.col) else -1
        if c < 0:
            return 0
        return sum(1 for q in range(c, B.NUM_PENTS, 4) if self.towers[q] >= 0)

    # ---- derived board facts --------------------------------------------------------------------
    def _completed_mask(self) -> int:
        m = self._cache.done
        if m is None:
            m = 0
            for q, t in enumerate(self.towers):
                if t >= 0:
                    m |= B.PENT_MASK[q]
            self._cache.done = m
        return m

    def _occupied(self) -> int:
        m = 0
        for o in self.own:
            m |= o
        return m

    def _network(self, p: int, seed: int) -> int:
        """Every slot of player ``p`` connected to a slot of ``seed`` by adjacency and p's bridges."""
        own = self.own[p]
        comp = seed & own
        frontier = comp
        partners = self._bridge_partners(p)
        while frontier:
            grow = 0
            for s in B.bits(frontier):
                grow |= B.ADJ_MASK[s]
                if partners:
                    grow |= partners.get(s, 0)
            grow &= own & ~comp
            comp |= grow
            frontier = grow
        return comp

    def _bridge_partners(self, p: int) -> dict[int, int]:
        d = self._cache.partners.get(p)
        if d is None:
            d = {}
            own = self.own[p]
            for k in self.bridges:
                a, b = B.BRIDGE_SLOTS[k]
                if own >> a & 1:
                    d[a] = d.get(a, 0) | (1 << b)
                    d[b] = d.get(b, 0) | (1 << a)
            self._cache.partners[p] = d
        return d

    def _blocked(self, p: int, h: int) -> bool:
        """Case 5: p's pentagon in hexagon h has a side held by another player whose pentagon on
        that side is completed, so p can never complete it."""
        pent = 4 * h + self.col[p]
        others = self._occupied() & ~self.own[p]
        return bool(B.PENT_MASK[pent] & others & self._completed_mask())

    def _regions(self, p: int) -> tuple[int, int]:
        """(rolled region, free region) for player p, as slot masks before removing held slots.

        free: sides of any pentagon of p's colour, or adjacent to any of p's pieces.
        rolled: sides of p's pentagon in a rolled hexagon, or adjacent to any piece of a network of
        p's that has a piece on a rolled hexagon; the free region if a rolled hexagon is blocked
        (case 5) or both dice are wildcards (case 4).
        """
        r = self._cache.regions.get(p)
        if r is not None:
            return r
        c = self.col[p]
        own = self.own[p]
        free = B.COLOUR_MASK[c] | B.adjacent(own)
        rolled = 0
        if self.roll is not None and self.stage == "M" and p == self.turn_order[self.turn]:
            number, letter = self.roll
            hexes = B.hexes_for_roll(number, letter)
            if (number == WILD and letter == PLUS) or any(self._blocked(p, h) for h in hexes):
                rolled = free
            else:
                touch = 0
                for h in hexes:
                    rolled |= B.PENT_MASK[4 * h + c]
                    touch |= B.HEX_MASK[h]
                # (a bridge passing over a hexagon always rests on a slot of that hexagon, so the
                # pieces on the hexagon are all the network needs to be reached; see test_board)
                seed = own & touch
                if seed:
                    rolled |= B.adjacent(self._network(p, seed))
        r = (rolled, free)
        self._cache.regions[p] = r
        return r

    def _bridge_options(self, p: int) -> list[int]:
        if self.spare[p] <= 0:
            return []
        own = self.own[p]
        placed = 0
        for k in self.bridges:
            placed |= 1 << k
        # Diagonal bridges are not offered in the two-family variant; they are not laid either, so
        # only the bridges on the board can block a new one.
        closed = placed if self.diag else placed | B.DIAGONAL_BRIDGES
        out = set()
        for a in B.bits(own):
            for k in B.BRIDGES_AT[a]:
                b = B.BRIDGE_SLOTS[k][0] + B.BRIDGE_SLOTS[k][1] - a
                if own >> b & 1 and not closed >> k & 1 and not B.BRIDGE_CONFLICT[k] & placed:
                    out.add(k)
        return sorted(out)

    def _placements(self) -> tuple[int, int]:
        """(mask of slots a piece may go to, mask of slots that may be disputed) for the actor."""
        r = self._cache.placements
        if r is not None:
            return r
        p = self.actor
        rolled, free = self._regions(p)
        region = 0
        if self.rolled > 0:
            region |= rolled
        if self.extra > 0:
            region |= free
        occ = self._occupied()
        place = region & ~occ & B.ALL
        disp = 0
        if self.dc < self.dcap:
            disp = region & occ & ~self.own[p] & ~self._completed_mask()
        r = (place, disp)
        self._cache.placements = r
        return r

    # ---- legal actions --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self._legal_list())

    def _legal_list(self) -> list[JAction]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[JAction]:
        ph = self.phase
        if ph == "over":
            return []
        if ph == "roll":
            return list(DICE_OUTCOMES)
        if ph in ("opening", "challenge", "defence"):
            return list(DIE_OUTCOMES)
        if ph == "colour":
            taken = set(self.col)
            return [("colour", c) for c in range(4) if c not in taken]
        out: list[JAction] = []
        own: list[int] = []  # the bridges the turn's player may lay in his own turn
        done = False
        if ph == "tower":
            out.extend(("tower", self.ptower, s) for s in B.PENT_SLOTS[self.ptower])
        else:  # place
            place, disp = self._placements()
            out.extend(("place", s) for s in B.bits(place))
            out.extend(("dispute", s) for s in B.bits(disp))
            if self._main_actor():
                own = self._bridge_options(self.actor)
            # Pieces with nowhere to go wait while the turn's player can still lay a bridge (it may
            # open a slot): he lays one or ends with done. Bridges laid only in their owner's turn
            # also hold the turn open once his pieces are placed.
            pieces_left = self.rolled > 0 or self.extra > 0
            done = bool(own) and not (place or disp) and (pieces_left or self.own_turn_bridges)
            if not (out or done):
                return []  # nothing holds the turn: it moves on (settle)
        bridges = own if self.own_turn_bridges else self._bridges_any_time()
        out.extend(("bridge", k) for k in bridges)
        if done:
            out.append(("done",))
        return out

    def _bridges_any_time(self) -> list[int]:
        """Every bridge any player may lay now (bridges "en cualquier momento")."""
        return sorted(k for p in range(self.n) for k in self._bridge_options(p))

    def player_of(self, action: Action) -> int:
        """A bridge is its supports' owner's (laid in anyone's turn); anything else the actor's."""
        if _is_action(action) and action[0] == "bridge" and 0 <= action[1] < B.NUM_BRIDGES:
            owner = self.holder(B.BRIDGE_SLOTS[action[1]][0])
            if owner >= 0:
                return owner
        return self.current_player

    def _main_actor(self) -> bool:
        return self.stage == "M" and self.actor == self.turn_order[self.turn]

    # ---- apply ----------------------------------------------------------------------------------
    def apply(self, action: Action) -> JeocincoState:
        if self.phase == "over":
            raise self.illegal(action, "the game is over")
        act = find_action(action, self._legal_list())
        if act is None:
            raise self.illegal(action, self._why(action))
        return self._apply_legal(act)

    def _apply_legal(self, action: JAction) -> JeocincoState:
        w = self._work()
        if action[0] == "die":
            self._apply_die(w, action[1])
        elif action[0] == "dice":
            w.roll = (action[1], action[2])
            w.actor = self.turn_order[w.turn]
            w.stage = "M"
            w.rolled = (2 if w.fast else 1) + (1 if action[2] == PLUS else 0)
            w.extra = 0
            w.dc = 0
            w.phase = "place"
        elif action[0] == "colour":
            w.col[w.order[sum(1 for c in w.col if c >= 0)]] = action[1]
            if all(c >= 0 for c in w.col):
                w.phase = "roll"
                w.turn = 0
        elif action[0] == "place":
            s = action[1]
            self._consume(w, s)
            w.own[w.actor] |= 1 << s
            self._check_complete(w, w.actor, s)
        elif action[0] == "dispute":
            s = action[1]
            self._consume(w, s)
            w.dc += 1
            holder = next(q for q in range(w.n) if w.own[q] >> s & 1)
            w.dispute = [s, w.actor, holder, 0, 0]
            w.phase = "challenge"
        elif action[0] == "tower":
            _, pent, s = action
            w.towers[pent] = s
            w.ptower = -1
            w.spare[w.actor] = min(2, w.spare[w.actor] + 1)
            w.phase = "place"
        elif action[0] == "bridge":
            w.bridges = tuple(sorted((*w.bridges, action[1])))
            w.spare[self.player_of(action)] -= 1
        elif action[0] == "done":
            w.rolled = w.extra = 0
            w.stage = "X"
        new = JeocincoState._from(w)
        return new._settle()

    def _consume(self, w: _W, s: int) -> None:
        rolled, _free = self._regions(w.actor)
        if w.rolled > 0 and rolled >> s & 1:
            w.rolled -= 1
        else:
            w.extra -= 1

    def _check_complete(self, w: _W, p: int, s: int) -> None:
        for pent in B.SLOT_PENTS[s]:
            if B.PENT_COLOUR[pent] == w.col[p] and w.towers[pent] < 0 and \
                    w.own[p] & B.PENT_MASK[pent] == B.PENT_MASK[pent]:
                w.ptower = pent
                w.phase = "tower"

    def _apply_die(self, w: _W, v: int) -> None:
        if w.phase == "opening":
            p = self._opening_roller()
            assert p is not None, "the opening phase lasts while someone has to roll"
            w.op[p].append(v)
            tmp = JeocincoState._from(w)
            if tmp._opening_roller() is None:
                w.order = sorted(range(w.n), key=lambda q: ([-x for x in w.op[q]], q))
                w.phase = "colour"
            return
        # roll-off
        assert w.dispute is not None, "the roll-off phases have a dispute"
        s, challenger, holder, croll, ties = w.dispute
        if w.phase == "challenge":
            w.dispute[3] = v
            w.phase = "defence"
            return
        if v == croll:
            ties += 1
            if ties < TIE_CAP:
                w.dispute = [s, challenger, holder, 0, ties]
                w.phase = "challenge"
                return
            winner = holder  # a tie that will not break: the challenged keeps his piece
        else:
            winner = challenger if croll > v else holder
        w.dispute = None
        w.phase = "place"
        if winner == challenger:
            w.own[holder] &= ~(1 << s)
            w.bridges = tuple(k for k in w.bridges if s not in B.BRIDGE_SLOTS[k])
            w.own[challenger] |= 1 << s
            w.extra += 1
            self._check_complete(w, challenger, s)
        else:
            w.queue.append([holder, 1])

    def _opening_roller(self) -> int | None:
        keys = self.op
        best = None
        for p, k in enumerate(keys):
            n = len(k)
            if any(q != p and len(keys[q]) >= n and keys[q][:n] == k for q in range(self.n)) and \
                    (best is None or n < len(keys[best])):
                best = p
        if best is not None and len(keys[best]) >= TIE_CAP + 1:
            return None  # every tied player has rolled TIE_CAP + 1 times: seat order decides
        return best

    def _settle(self) -> JeocincoState:
        """Move past decisions that are not decisions: pieces with nowhere to go, a finished turn."""
        s = self
        for _ in range(10 * s.n + 50):
            if s._check_win():
                return s
            if s.phase != "place":
                return s
            if s.legal_actions():
                return s
            w = s._work()
            w.rolled = w.extra = 0  # pieces that cannot be placed are forfeited
            if w.stage == "M":
                w.stage = "X"
            if w.queue:
                w.actor, w.extra = w.queue.pop(0)
                w.rolled = 0
            else:
                w.turn += 1
                w.roll = None
                w.actor = -1
                w.dc = 0
                w.stage = "M"
                w.phase = "roll"
                if w.turn >= w.n:
                    w.turn = 0
                    w.round += 1
                if w.round >= w.rounds:
                    w.phase = "over"
                    counts = [s.tower_count(p) for p in range(w.n)]
                    best = max(counts)
                    w.end = ("limit", *([p for p in range(w.n) if counts[p] == best]
                                        if counts.count(best) < w.n else []))
            s = JeocincoState._from(w)
        raise AssertionError("settle did not settle")  # pragma: no cover

    def _check_win(self) -> bool:
        if self.phase in ("over", "opening", "colour"):
            return False
        for p in range(self.n):
            c = self.col[p]
            mine = [q for q in range(c, B.NUM_PENTS, 4) if self.towers[q] >= 0]
            if len(mine) < 5:
                continue
            for q in mine:
                comp = self._network(p, B.PENT_MASK[q])
                if sum(1 for r in mine if B.PENT_MASK[r] & comp) >= 5:
                    self.phase = "over"
                    self.end = ("five", p)
                    self._legal = None
                    self.current_player = TERMINAL
                    return True
        return False

    # ---- reasons ------------------------------------------------------------------------------
    def _who(self, p: int) -> str:
        c = self.col[p] if 0 <= p < len(self.col) else -1
        return f"player {p}" + (f" ({B.COLOURS[c]})" if c >= 0 else "")

    def _why(self, action: object) -> str:
        ph = self.phase
        if not isinstance(action, tuple) or not action or action[0] not in (
                "dice", "die", "colour", "place", "dispute", "tower", "bridge", "done"):
            return "that is not a Jeocinco action"
        kind = action[0]
        if ph in CHANCE_PHASES:
            want = {"roll": "both dice (roll 3C)", "opening": "the opening roll of the number die",
                    "challenge": "the challenger's roll of the number die",
                    "defence": "the challenged player's roll of the number die"}[ph]
            if kind in ("dice", "die"):
                return f"the dice due now are {want}"
            return f"waiting for {want}"
        if kind in ("dice", "die"):
            return f"no dice are due: {self._who(self.current_player)} must play ({ph})"
        if ph == "colour":
            if kind != "colour":
                return f"colours are being chosen: {self._who(self.current_player)} picks a colour first"
            owner = self.col.index(action[1]) if action[1] in self.col else -1
            if owner >= 0:
                return f"colour {B.COLOURS[action[1]]} is already taken by player {owner}"
            return "not a colour"
        if kind == "colour":
            return "colours were chosen at the start"
        if kind == "bridge" and (ph == "place" or not self.own_turn_bridges):
            return self._why_bridge(action[1])
        if ph == "tower":
            if kind != "tower":
                return (f"pentagon {B.PENT_NAMES[self.ptower]} is complete: its tower must replace one of its "
                        "pieces first")
            if action[1] != self.ptower:
                return f"the completed pentagon is {B.PENT_NAMES[self.ptower]}, not {B.PENT_NAMES[action[1]]}"
            return (f"slot {B.SLOT_NAMES[action[2]]} is not a side of {B.PENT_NAMES[self.ptower]}: "
                    "the tower replaces one of its five pieces")
        # place phase
        p = self.actor
        if kind == "tower":
            return "no pentagon of yours has just been completed"
        if kind == "done":
            place, disp = self._placements()
            return "you still have a piece to place (or a dispute to play instead)" if (place or disp) else \
                "nothing to end"
        s = action[1]
        sn = B.SLOT_NAMES[s]
        if self.rolled == 0 and self.extra == 0:
            return "you have no piece left to place this turn"
        holder = next((q for q in range(self.n) if self.own[q] >> s & 1), -1)
        if kind == "place" and holder >= 0:
            if holder == p:
                return f"slot {sn} already holds your piece"
            return f"slot {sn} is held by {self._who(holder)}: you may only dispute it"
        if kind == "dispute":
            if holder < 0:
                return f"slot {sn} is empty: nothing to dispute, place a piece there instead"
            if holder == p:
                return f"slot {sn} holds your own piece"
            done = self._completed_mask()
            if done >> s & 1:
                pent = next(q for q in B.SLOT_PENTS[s] if self.towers[q] >= 0)
                return (f"slot {sn} is a side of the completed pentagon {B.PENT_NAMES[pent]} (a tower): "
                        "its pieces can never be disputed")
            if self.dc >= self.dcap:
                return f"at most {self.dcap} disputes may be started in one turn"
        return self._why_region(p, s, sn)

    def _why_region(self, p: int, s: int, sn: str) -> str:
        c = B.COLOURS[self.col[p]]
        if self.rolled > 0 and self.roll is not None:
            number, letter = self.roll
            blocked = [h for h in B.hexes_for_roll(number, letter) if self._blocked(p, h)]
            if blocked and not (number == WILD and letter == PLUS):
                return (f"the roll {roll_text(number, letter)} reaches {B.hex_name(blocked[0])}{c}, which can never be "
                        f"completed (case 5), so you place anywhere under the rules: but slot {sn} is neither a side "
                        f"of a {c} pentagon nor next to one of your pieces")
            if number == WILD and letter == PLUS:
                where = "the whole board"
            elif number == WILD:
                where = f"column {B.LETTERS[letter]} (any number)"
            elif letter == PLUS:
                where = f"row {number} (any letter)"
            else:
                where = f"hexagon {B.LETTERS[letter]}{number}"
            why = (f"the roll {roll_text(number, letter)} sends you to {where}: slot {sn} is neither a side of "
                   f"your colour's ({c}) pentagon there nor next to a piece of a network of yours that reaches it")
            if self.extra > 0:
                why += f"; nor is it a side of any {c} pentagon or next to any of your pieces (extra piece)"
            return why
        return (f"slot {sn} is neither a side of a {c} pentagon nor next to one of your pieces "
                "(an extra piece goes anywhere under those rules)")

    def _why_bridge(self, k: int) -> str:
        if not 0 <= k < B.NUM_BRIDGES:
            return "there is no such bridge"
        if k in self.bridges:
            return "that bridge is already laid"
        if not self.diag and B.BRIDGE_FAMILY[k] == "diagonal":
            return "diagonal bridges (supports facing over a fifth of a slot) are off in this variant"
        supports = B.BRIDGE_SLOTS[k]
        holders = [self.holder(s) for s in supports]
        for s, h in zip(supports, holders, strict=True):
            if h < 0:
                return f"a bridge rests on two pieces of one player: slot {B.SLOT_NAMES[s]} is empty"
        p = holders[0]
        if holders[1] != p:
            return (f"a bridge rests on two pieces of one player: slot {B.SLOT_NAMES[supports[0]]} holds "
                    f"{self._who(p)}'s, slot {B.SLOT_NAMES[supports[1]]} {self._who(holders[1])}'s")
        if self.own_turn_bridges and not (self._main_actor() and p == self.actor):
            return (f"bridges are laid only during their owner's own turn (option own_turn_bridges), and it is "
                    f"not {self._who(p)}'s")
        if self.spare[p] <= 0:
            return f"{self._who(p)} has no bridge in hand (one is earned with each tower)"
        placed = 0
        for m in self.bridges:
            placed |= 1 << m
        clash = B.BRIDGE_CONFLICT[k] & placed
        if clash:
            return f"it would cross the bridge {B.BRIDGE_NAMES[clash.bit_length() - 1]}"
        return "not a legal bridge here"

    # ---- texts --------------------------------------------------------------------------------
    def action_to_text(self, action: Action) -> str:
        if not _is_action(action):
            raise ValueError(f"not a Jeocinco action: {action!r}")
        if action[0] == "dice":
            return "roll " + roll_text(action[1], action[2])
        if action[0] == "die":
            return "roll " + _num_text(action[1])
        if action[0] == "colour":
            return "colour " + B.COLOURS[action[1]]
        if action[0] == "place" or action[0] == "dispute":
            return f"{action[0]} {B.SLOT_NAMES[action[1]]}"
        if action[0] == "tower":
            return f"tower {B.PENT_NAMES[action[1]]} {B.SLOT_NAMES[action[2]]}"
        if action[0] == "bridge":
            return "bridge " + B.BRIDGE_NAMES[action[1]]
        return "done"

    def action_from_text(self, text: str) -> Action:
        return parse_action(text)

    # ---- position text --------------------------------------------------------------------------
    def to_text(self) -> str:
        board = board_to_text(self.own)
        towers = ",".join(f"{B.PENT_NAMES[q]}@{B.SLOT_NAMES[t]}" for q, t in enumerate(self.towers) if t >= 0)
        bridges = ",".join(B.BRIDGE_NAMES[k] for k in self.bridges)
        op = "/".join("".join(_num_text(v) for v in k) or "-" for k in self.op)
        disp = "-"
        if self.dispute is not None:
            s, ch, ho, cr, ti = self.dispute
            disp = f"{B.SLOT_NAMES[s]}:{ch}:{ho}:{_num_text(cr) if cr else '-'}:{ti}"
        end = "-" if self.end is None else ":".join(str(x) for x in self.end)
        parts = [
            "jeocinco", f"players={self.n}", f"fast={int(self.fast)}", f"rounds={self.rounds}",
            f"disputes={self.dcap}", f"diagonal={int(self.diag)}", f"rollorder={int(self.roll_order)}",
            f"ownbridges={int(self.own_turn_bridges)}", f"phase={self.phase}", f"open={op}",
            "order=" + ("".join(map(str, self.order)) or "-"),
            "colours=" + "".join(B.COLOURS[c] if c >= 0 else "-" for c in self.col),
            f"round={self.round}", f"turn={self.turn}",
            "roll=" + (roll_text(*self.roll) if self.roll else "-"),
            f"actor={self.actor if self.actor >= 0 else '-'}", f"stage={self.stage}",
            f"pieces={self.rolled}+{self.extra}",
            "queue=" + (",".join(f"{p}:{k}" for p, k in self.queue) or "-"),
            f"disputed={self.dc}", f"dispute={disp}",
            "tower=" + (B.PENT_NAMES[self.ptower] if self.ptower >= 0 else "-"),
            "spare=" + "".join(map(str, self.spare)), f"end={end}",
            f"board={board}", f"towers={towers or '-'}", f"bridges={bridges or '-'}",
        ]
        return " ".join(parts)

    def _slot_char(self, s: int) -> str:
        for p in range(self.n):
            if self.own[p] >> s & 1:
                return str(p)
        return "."

    # ---- views ----------------------------------------------------------------------------------
    def vacated_mask(self) -> int:
        m = 0
        for t in self.towers:
            if t >= 0:
                m |= 1 << t
        return m

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        out: list[Announcement] = []
        if not _is_action(action) or not isinstance(after, JeocincoState):
            return out
        p = self.current_player
        if action[0] == "tower":
            out.append({"type": "tower", "player": p,
                        "text": f"player {p} completes {B.PENT_NAMES[action[1]]}: a tower stands"})
        elif action[0] == "dispute":
            out.append({"type": "dispute", "player": p,
                        "text": f"player {p} challenges the piece on {B.SLOT_NAMES[action[1]]}"})
        lost = set(self.bridges) - set(after.bridges)
        for k in sorted(lost):
            out.append({"type": "bridge_lost", "player": None,
                        "text": f"the bridge {B.BRIDGE_NAMES[k]} falls with its support"})
        return out

    def _sensed_bits(self) -> tuple[int, int, int]:
        """What the presence sensors see, as bit masks: slots, tower sockets, bridge sockets."""
        towers = 0
        for q, t in enumerate(self.towers):
            if t >= 0:
                towers |= 1 << q
        bridges = 0
        for k in self.bridges:
            bridges |= 1 << k
        return self._occupied() & ~self.vacated_mask(), towers, bridges

    def physical_view(self) -> dict[str, int]:
        view = {}
        for keys, bits in zip(_CHANNEL_KEYS, self._sensed_bits(), strict=True):
            view.update({key: (bits >> i) & 1 for i, key in enumerate(keys)})
        return view

    def physical_changes(self, action: Action) -> dict[str, int]:
        # The referee asks this for every legal action: a placement or a bridge only puts one piece
        # down; anything else compares bit masks, not 645-channel views.
        if _is_action(action) and (action[0] == "place" or action[0] == "bridge"):
            return {_CHANNEL_KEYS[0 if action[0] == "place" else 2][action[1]]: 1}
        after = self.apply(action)._sensed_bits()
        out = {}
        for keys, old, new in zip(_CHANNEL_KEYS, self._sensed_bits(), after, strict=True):
            changed = old ^ new
            while changed:
                low = changed & -changed
                i = low.bit_length() - 1
                out[keys[i]] = (new >> i) & 1
                changed ^= low
        return out

    def holder(self, s: int) -> int:
        return next((q for q in range(self.n) if self.own[q] >> s & 1), -1)

    def public_view(self) -> dict[str, Any]:
        players = []
        for p in range(self.n):
            c = self.col[p]
            players.append({
                "player": p,
                "colour": B.COLOURS[c] if c >= 0 else None,
                "colour_name": B.COLOUR_NAMES[c] if c >= 0 else None,
                "pieces": bin(self.own[p]).count("1"),
                "towers": self.tower_count(p),
                "bridges_in_hand": self.spare[p],
                "opening_roll": [_num_text(v) for v in self.op[p]],
            })
        view: dict[str, Any] = {
            "game": "jeocinco",
            "position": self.to_text(),
            "options": self.options,
            "phase": self.phase,
            "current_player": self.current_player,
            "order": list(self.turn_order),
            "opening_order": list(self.order),
            "round": self.round,
            "players": players,
            "roll": roll_text(*self.roll) if self.roll else None,
            "pieces_to_place": {"rolled": self.rolled, "extra": self.extra} if self.phase == "place" else None,
            "waiting_extra_pieces": [{"player": p, "pieces": k} for p, k in self.queue],
            "dispute": None,
            "slots": {B.SLOT_NAMES[s]: self.holder(s) for s in range(B.NUM_SLOTS) if self.holder(s) >= 0},
            "towers": {B.PENT_NAMES[q]: {"player": self._pent_owner(q), "replaced_slot": B.SLOT_NAMES[t]}
                       for q, t in enumerate(self.towers) if t >= 0},
            "bridges": [{"name": B.BRIDGE_NAMES[k], "player": self.holder(B.BRIDGE_SLOTS[k][0])}
                        for k in self.bridges],
            "scores": self.scores(),
            "winners": self.winners(),
            "end": None if self.end is None else self.end[0],
        }
        if self.dispute is not None:
            s, ch, ho, cr, ti = self.dispute
            view["dispute"] = {"slot": B.SLOT_NAMES[s], "challenger": ch, "challenged": ho,
                               "challenger_roll": _num_text(cr) if cr else None, "ties": ti}
        return view

    def _pent_owner(self, q: int) -> int:
        c = B.PENT_COLOUR[q]
        return self.col.index(c) if c in self.col else -1

    def render_text(self) -> str:
        lines = [f"Jeocinco  round {self.round + 1}/{self.rounds}  phase {self.phase}  "
                 f"to play: {self.current_player}  roll: {roll_text(*self.roll) if self.roll else '-'}"]
        for p in range(self.n):
            c = self.col[p]
            lines.append(f"  player {p} {B.COLOUR_NAMES[c] if c >= 0 else '?':6} towers {self.tower_count(p)}"
                         f"  bridges in hand {self.spare[p]}")
        lines.append("  each pentagon: its five sides (. empty, digit = player, o = left by the tower), T = tower")
        vac = self.vacated_mask()
        for h in range(25):
            cells = []
            for o in range(4):
                q = 4 * h + o
                sides = "".join("o" if vac >> s & 1 else self._slot_char(s) for s in B.PENT_SLOTS[q])
                cells.append(f"{B.COLOURS[o]}:{sides}{'T' if self.towers[q] >= 0 else ' '}")
            lines.append(f"  {B.hex_name(h)}  " + "  ".join(cells))
        if self.bridges:
            lines.append("  bridges: " + ", ".join(B.BRIDGE_NAMES[k] for k in self.bridges))
        return "\n".join(lines)


PLAYER_LETTERS = "abcd"


def board_to_text(own: Sequence[int]) -> str:
    """Slots in board order: a letter per piece (a = player 0 ... d = player 3), a number per run
    of empty slots (like FEN): ``149a133`` is one piece of player 0 on slot 149."""
    chars = [""] * B.NUM_SLOTS
    for p, mask in enumerate(own):
        for s in B.bits(mask):
            chars[s] = PLAYER_LETTERS[p]
    out, run = [], 0
    for ch in chars:
        if ch:
            if run:
                out.append(str(run))
                run = 0
            out.append(ch)
        else:
            run += 1
    if run:
        out.append(str(run))
    return "".join(out)


def board_from_text(text: str, n: int) -> list[int]:
    own = [0] * n
    s = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            s += int(text[i:j])
            i = j
            continue
        p = PLAYER_LETTERS.find(ch)
        if not 0 <= p < n:
            raise BadPosition(f"board: {ch!r} names no player")
        if s >= B.NUM_SLOTS:
            raise BadPosition(f"the board has {B.NUM_SLOTS} slots")
        own[p] |= 1 << s
        s += 1
        i += 1
    if s != B.NUM_SLOTS:
        raise BadPosition(f"the board has {B.NUM_SLOTS} slots, not {s}")
    return own


def parse_action(text: str) -> JAction:
    if not isinstance(text, str):
        raise IllegalAction(repr(text), "an action is a text")
    words = text.strip().split()
    if not words or len(words) > 3:
        raise IllegalAction(text, "not a Jeocinco action (e.g. 'place C3N-C3E', 'roll 3C', 'done')")
    head = words[0].lower()
    try:
        if head == "roll" and len(words) == 2:
            w = words[1].upper()
            if len(w) == 1:
                return ("die", _parse_number(w))
            if len(w) == 2:
                letter = 5 if w[1] == "+" else "ABCDE".index(w[1])
                return ("dice", _parse_number(w[0]), letter)
        elif head in ("colour", "color") and len(words) == 2:
            return ("colour", "NESW".index(words[1].upper()))
        elif head == "place" and len(words) == 2:
            return ("place", _slot(words[1]))
        elif head == "dispute" and len(words) == 2:
            return ("dispute", _slot(words[1]))
        elif len(words) == 1 and head != "done":
            return ("place", _slot(words[0]))
        elif head == "tower" and len(words) == 3:
            return ("tower", B.PENT_INDEX[_pent_key(words[1])], _slot(words[2]))
        elif head == "bridge" and len(words) == 2:
            a, b = words[1].split("~")
            return ("bridge", B.BRIDGE_INDEX[frozenset((_slot(a), _slot(b)))])
        elif head == "done" and len(words) == 1:
            return ("done",)
    except (ValueError, KeyError, IndexError):
        pass
    raise IllegalAction(text, "not a Jeocinco action (e.g. 'place C3N-C3E', 'dispute C3N-C3E', 'roll 3C', "
                              "'tower C3N C3N-C3E', 'bridge A1N-nw~A1S-se', 'done')")


def _pent_key(word: str) -> str:
    return word.upper()


_SLOT_ALIASES: dict[str, int] = {}
for _i, _name in enumerate(B.SLOT_NAMES):
    _a, _b = _name.split("-")
    _SLOT_ALIASES[_name.upper()] = _i
    if len(_b) >= 3:  # shared slot: either order
        _SLOT_ALIASES[f"{_b}-{_a}".upper()] = _i


def _slot(word: str) -> int:
    return _SLOT_ALIASES[word.upper()]


# ---- the game ---------------------------------------------------------------------------------------

class JeocincoGame(Game):
    name = "jeocinco"
    title = "Jeocinco"
    min_players = 2
    max_players = 4
    option_schema = (
        Option("fast", False, doc="the fast game: two pieces per turn"),
        Option("max_rounds", 100, minimum=1, maximum=10_000, doc="rounds before the game ends on tower count"),
        Option("max_disputes_per_turn", 4, minimum=0, maximum=50, doc="disputes one turn may start"),
        Option("diagonal_bridges", True, doc="bridges across the slanted slots (the third family)"),
        Option("roll_order", False, doc="play in the order of the opening rolls, not round the table from the "
                                        "starter"),
        Option("own_turn_bridges", False, doc="bridges are laid only in their owner's own turn, not at any "
                                              "moment"),
    )

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> JeocincoState:
        opts, n = self.resolve(options, num_players)
        w = _W()
        w.fast, w.rounds, w.dcap, w.n = opts["fast"], opts["max_rounds"], opts["max_disputes_per_turn"], n
        w.diag, w.roll_order = opts["diagonal_bridges"], opts["roll_order"]
        w.own_turn_bridges = opts["own_turn_bridges"]
        w.op = [[] for _ in range(n)]
        w.order = []
        w.col = [-1] * n
        w.own = [0] * n
        w.towers = [-1] * B.NUM_PENTS
        w.bridges = ()
        w.spare = [0] * n
        w.turn = w.round = 0
        w.phase = "opening"
        w.roll = None
        w.actor, w.stage, w.rolled, w.extra = -1, "M", 0, 0
        w.queue = []
        w.dc = 0
        w.dispute = None
        w.ptower = -1
        w.end = None
        return JeocincoState._from(w)

    def state_from_text(self, text: str) -> JeocincoState:
        try:
            state = _parse_position(self, text)
        except BadPosition:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
            raise BadPosition(f"not a Jeocinco position: {e}") from None
        return canonical(state, text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        out = [Channel(f"slot:{n}", ChannelKind.PRESENCE) for n in B.SLOT_NAMES]
        out += [Channel(f"tower:{n}", ChannelKind.PRESENCE) for n in B.PENT_NAMES]
        out += [Channel(f"bridge:{n}", ChannelKind.PRESENCE) for n in B.BRIDGE_NAMES]
        return out

    def channel_positions(self, options: Options | None = None,
                          num_players: int | None = None) -> dict[str, tuple[float, float]]:
        def mid(a: B.Vec, b: B.Vec) -> tuple[float, float]:
            return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)

        out = {f"slot:{n}": mid(*B.SLOT_ENDS[s]) for s, n in enumerate(B.SLOT_NAMES)}
        out.update({f"tower:{n}": B.PENT_CENTRES[q] for q, n in enumerate(B.PENT_NAMES)})
        out.update({f"bridge:{n}": mid(*B.BRIDGE_POINTS[k]) for k, n in enumerate(B.BRIDGE_NAMES)})
        return out

    def configurations(self) -> list[tuple[dict[str, Any], int]]:
        # Three and four players with a shorter round limit, to keep the suite quick.
        short = {"max_rounds": 60}
        return [({}, 2), (short, 3), (short, 4),
                ({"fast": True}, 2), ({"fast": True, **short}, 3), ({"fast": True, **short}, 4),
                ({"diagonal_bridges": False, **short}, 2),
                ({"roll_order": True, **short}, 4), ({"own_turn_bridges": True, **short}, 3)]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        d: int = opts["max_disputes_per_turn"]
        pieces = 3 + d  # rolled pieces (at most 3) plus one extra piece per dispute
        per_turn = (1                      # the dice
                    + pieces * 2           # placements or disputes, each with a tower
                    + d * 2 * TIE_CAP      # roll-offs
                    + 2 + pieces + 1)      # bridges (two in hand plus one per tower) and done
        opening = n * (TIE_CAP + 1) + n
        # Bridges laid in other players' turns: each costs a tower, and a pentagon holds one tower.
        anytime = 0 if opts["own_turn_bridges"] else B.NUM_PENTS
        return opening + int(opts["max_rounds"]) * n * per_turn + anytime


POSITION_KEYS = ("players", "fast", "rounds", "disputes", "diagonal", "rollorder", "ownbridges", "phase", "open",
                 "order", "colours", "round", "turn", "roll", "actor", "stage", "pieces", "queue", "disputed",
                 "dispute", "tower", "spare", "end", "board", "towers", "bridges")
"""The fields of a position text, in order."""


def _parse_position(game: JeocincoGame, text: str) -> JeocincoState:
    f = read_fields(text, "jeocinco", POSITION_KEYS)
    n = int(f["players"])
    state_opts = {"fast": {"0": False, "1": True}[f["fast"]], "max_rounds": int(f["rounds"]),
                  "max_disputes_per_turn": int(f["disputes"]),
                  "diagonal_bridges": {"0": False, "1": True}[f["diagonal"]],
                  "roll_order": {"0": False, "1": True}[f["rollorder"]],
                  "own_turn_bridges": {"0": False, "1": True}[f["ownbridges"]]}
    opts, n = game.resolve(state_opts, n)
    w = _W()
    w.fast, w.rounds, w.dcap, w.n = opts["fast"], opts["max_rounds"], opts["max_disputes_per_turn"], n
    w.diag, w.roll_order = opts["diagonal_bridges"], opts["roll_order"]
    w.own_turn_bridges = opts["own_turn_bridges"]
    if f["phase"] not in PHASES:
        raise BadPosition(f"unknown phase {f['phase']!r}")
    w.phase = f["phase"]
    op = f["open"].split("/")
    if len(op) != n:
        raise BadPosition("one opening roll list per player")
    w.op = [[] if k == "-" else [_parse_number(ch) for ch in k] for k in op]
    w.order = [] if f["order"] == "-" else [int(ch) for ch in f["order"]]
    if w.order and sorted(w.order) != list(range(n)):
        raise BadPosition("order must list every player once")
    if len(f["colours"]) != n:
        raise BadPosition("one colour per player")
    w.col = [-1 if ch == "-" else "NESW".index(ch) for ch in f["colours"]]
    if len({c for c in w.col if c >= 0}) != sum(1 for c in w.col if c >= 0):
        raise BadPosition("two players with one colour")
    w.round, w.turn = int(f["round"]), int(f["turn"])
    if not (0 <= w.turn < n and 0 <= w.round <= w.rounds):
        raise BadPosition("turn or round out of range")
    w.roll = None
    if f["roll"] != "-":
        r = f["roll"]
        if len(r) != 2:
            raise BadPosition("bad roll")
        w.roll = (_parse_number(r[0]), 5 if r[1] == "+" else "ABCDE".index(r[1]))
    w.actor = -1 if f["actor"] == "-" else int(f["actor"])
    if not -1 <= w.actor < n:
        raise BadPosition("actor out of range")
    if f["stage"] not in ("M", "X"):
        raise BadPosition("stage is M or X")
    w.stage = f["stage"]
    a, b = f["pieces"].split("+")
    w.rolled, w.extra = int(a), int(b)
    if not (0 <= w.rolled <= 3 and 0 <= w.extra <= 100):
        raise BadPosition("pieces out of range")
    w.queue = [] if f["queue"] == "-" else [[int(x) for x in item.split(":")] for item in f["queue"].split(",")]
    if any(len(q) != 2 or not 0 <= q[0] < n or q[1] < 1 for q in w.queue):
        raise BadPosition("bad queue")
    w.dc = int(f["disputed"])
    w.dispute = None
    if f["dispute"] != "-":
        s, ch, ho, cr, ti = f["dispute"].split(":")
        w.dispute = [_slot(s), int(ch), int(ho), 0 if cr == "-" else _parse_number(cr), int(ti)]
    w.ptower = -1 if f["tower"] == "-" else B.PENT_INDEX[f["tower"]]
    if len(f["spare"]) != n:
        raise BadPosition("one spare-bridge count per player")
    w.spare = [int(ch) for ch in f["spare"]]
    if any(not 0 <= x <= 2 for x in w.spare):
        raise BadPosition("a player holds at most two bridges")
    w.end = None
    if f["end"] != "-":
        parts = f["end"].split(":")
        if parts[0] not in ("five", "limit"):
            raise BadPosition("bad end")
        w.end = (parts[0], *(int(x) for x in parts[1:]))
    w.own = board_from_text(f["board"], n)
    w.towers = [-1] * B.NUM_PENTS
    if f["towers"] != "-":
        for item in f["towers"].split(","):
            pn, sn = item.split("@")
            q, slot = B.PENT_INDEX[pn], B.SLOT_INDEX[sn]
            owner = w.col.index(B.PENT_COLOUR[q]) if B.PENT_COLOUR[q] in w.col else -1
            if owner < 0 or slot not in B.PENT_SLOTS[q] or w.own[owner] & B.PENT_MASK[q] != B.PENT_MASK[q]:
                raise BadPosition(f"tower {pn} needs its owner's pieces on all five sides")
            w.towers[q] = slot
    w.bridges = ()
    if f["bridges"] != "-":
        ks: list[int] = []
        for item in f["bridges"].split(","):
            sa, sb = item.split("~")
            bridge = B.BRIDGE_INDEX[frozenset((B.SLOT_INDEX[sa], B.SLOT_INDEX[sb]))]
            x, y = B.BRIDGE_SLOTS[bridge]
            if not w.diag and B.BRIDGE_FAMILY[bridge] == "diagonal":
                raise BadPosition(f"bridge {item} is diagonal, and diagonal bridges are off")
            if not any(w.own[p] >> x & 1 and w.own[p] >> y & 1 for p in range(n)):
                raise BadPosition(f"bridge {item} must rest on two pieces of one player")
            ks.append(bridge)
        w.bridges = tuple(sorted(ks))
    if w.phase in ("place", "tower") and w.actor < 0:
        raise BadPosition("no actor")
    if w.phase in ("challenge", "defence") and w.dispute is None:
        raise BadPosition("no dispute")
    if w.phase == "tower" and w.ptower < 0:
        raise BadPosition("no completed pentagon")
    if w.phase not in ("opening", "colour") and (len(w.order) != n or any(c < 0 for c in w.col)):
        raise BadPosition("order and colours must be set once play starts")
    return JeocincoState._from(w)
