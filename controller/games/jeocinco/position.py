"""A Jeocinco position as a frozen value, its one-line text, and what makes one impossible.

The one copy idiom is ``position._replace(...)``; ``with_item`` replaces one entry of a per-player
or per-pentagon tuple.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

from controller.games.base import BadPosition, Message, Phrase, quick_replace, read_checked, read_fields
from controller.games.jeocinco import board as B
from controller.games.jeocinco.actions import (
    letter_from_text,
    number_from_text,
    number_text,
    roll_text,
    slot_from_text,
)

PHASES = ("opening", "colour", "roll", "place", "tower", "challenge", "defence", "over")
CHANCE_PHASES = ("opening", "roll", "challenge", "defence")

End = tuple[str, *tuple[int, ...]]
"""How the game ended: ``("five", winner)`` or ``("limit", *winners)`` (none on a draw)."""


class RollOff(NamedTuple):
    """A dispute being rolled."""

    slot: int
    challenger: int
    challenged: int
    challenger_roll: int
    """0 until the challenger has rolled."""
    ties: int


@quick_replace
class JeocincoPosition(NamedTuple):
    # the variant
    players: int
    fast: bool
    max_rounds: int
    max_disputes: int
    """Disputes one turn may start."""
    diagonal_bridges: bool
    roll_order: bool
    own_turn_bridges: bool
    # the play
    phase: str
    opening_rolls: tuple[tuple[int, ...], ...]
    """Each player's opening rolls so far."""
    order: tuple[int, ...]
    """Players by their opening rolls, highest first (set by the opening roll): colours are chosen in
    this order, and its first player starts."""
    colours: tuple[int, ...]
    """Each player's colour (0..3 = N E S W), -1 until chosen."""
    round: int
    turn: int
    """Index into :attr:`turn_order`."""
    roll: tuple[int, int] | None
    actor: int
    """Who places now (the turn's player, or a challenged player placing his extra piece), -1 none."""
    stage: str
    """``M`` while the turn's player places his rolled pieces, ``X`` after (extra pieces only)."""
    rolled: int
    """Rolled pieces left to place."""
    extra: int
    """Extra pieces left to place (won disputes, the "+1")."""
    queue: tuple[tuple[int, int], ...]
    """(player, extra pieces) waiting to be placed after the actor."""
    disputes_started: int
    """Disputes started this turn."""
    dispute: RollOff | None
    tower_due: int
    """The pentagon just completed, whose tower is to stand, -1 none."""
    bridges_in_hand: tuple[int, ...]
    end: End | None
    pieces: tuple[int, ...]
    """Each player's pieces, a slot bit mask."""
    towers: tuple[int, ...]
    """Per pentagon: the slot its tower replaced, -1 while not completed."""
    bridges: tuple[int, ...]
    """The bridges laid, in order."""

    @property
    def options(self) -> dict[str, Any]:
        return {"fast": self.fast, "max_rounds": self.max_rounds, "max_disputes_per_turn": self.max_disputes,
                "diagonal_bridges": self.diagonal_bridges, "roll_order": self.roll_order,
                "own_turn_bridges": self.own_turn_bridges}

    @property
    def turn_order(self) -> tuple[int, ...]:
        """Players in playing order, which ``turn`` indexes: round the table (seat order) from the
        starter, or (option ``roll_order``) the order of the rolls."""
        if self.roll_order or not self.order:
            return self.order
        return tuple((self.order[0] + i) % self.players for i in range(self.players))

    def holder(self, slot: int) -> int:
        """The player whose piece is in ``slot``, -1 for none."""
        return next((p for p, mask in enumerate(self.pieces) if mask >> slot & 1), -1)

    def holders(self) -> list[int]:
        """:meth:`holder` of every slot at once (each player's pieces visited once, not every slot
        asked of every player: the public view lists them after every move)."""
        out = [-1] * B.NUM_SLOTS
        for p in reversed(range(len(self.pieces))):  # the first player's piece wins, as in holder()
            mask = self.pieces[p]
            while mask:
                low = mask & -mask
                out[low.bit_length() - 1] = p
                mask ^= low
        return out

    def occupied(self) -> int:
        m = 0
        for mask in self.pieces:
            m |= mask
        return m

    def vacated(self) -> int:
        """The slots towers replaced (their pieces left the board)."""
        m = 0
        for t in self.towers:
            if t >= 0:
                m |= 1 << t
        return m

    def tower_count(self, player: int) -> int:
        c = self.colours[player] if player < len(self.colours) else -1
        if c < 0:
            return 0
        return sum(1 for q in range(c, B.NUM_PENTS, 4) if self.towers[q] >= 0)

    def pentagon_owner(self, pentagon: int) -> int:
        c = B.PENT_COLOUR[pentagon]
        return self.colours.index(c) if c in self.colours else -1


T = TypeVar("T")


def with_item(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1:])


def initial(options: dict[str, Any], players: int) -> JeocincoPosition:
    """The position before the opening roll."""
    return JeocincoPosition(
        players=players, fast=options["fast"], max_rounds=options["max_rounds"],
        max_disputes=options["max_disputes_per_turn"], diagonal_bridges=options["diagonal_bridges"],
        roll_order=options["roll_order"], own_turn_bridges=options["own_turn_bridges"],
        phase="opening", opening_rolls=((),) * players, order=(), colours=(-1,) * players, round=0, turn=0,
        roll=None, actor=-1, stage="M", rolled=0, extra=0, queue=(), disputes_started=0, dispute=None,
        tower_due=-1, bridges_in_hand=(0,) * players, end=None, pieces=(0,) * players,
        towers=(-1,) * B.NUM_PENTS, bridges=())


# --------------------------------------------------------------------------- text

PLAYER_LETTERS = "abcd"

POSITION_KEYS = ("players", "fast", "rounds", "disputes", "diagonal", "rollorder", "ownbridges", "phase", "open",
                 "order", "colours", "round", "turn", "roll", "actor", "stage", "pieces", "queue", "disputed",
                 "dispute", "tower", "spare", "end", "board", "towers", "bridges")
"""The fields of a position text, in order."""


def board_to_text(pieces: Sequence[int]) -> str:
    """Slots in board order: a letter per piece (a = player 0 ... d = player 3), a number per run
    of empty slots (like FEN): ``149a133`` is one piece of player 0 on slot 149."""
    # by the pieces, not the slots: a board has a few dozen pieces on its hundreds of slots
    placed = {s: PLAYER_LETTERS[p] for p, mask in enumerate(pieces) for s in B.bits(mask)}
    out, free = [], 0  # free: the first slot after the last piece written
    for s in sorted(placed):
        if s > free:
            out.append(str(s - free))
        out.append(placed[s])
        free = s + 1
    if free < B.NUM_SLOTS:
        out.append(str(B.NUM_SLOTS - free))
    return "".join(out)


def board_from_text(text: str, players: int) -> tuple[int, ...]:
    pieces = [0] * players
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
        if not 0 <= p < players:
            raise BadPosition(f"board: {ch!r} names no player")
        if s >= B.NUM_SLOTS:
            raise BadPosition(f"the board has {B.NUM_SLOTS} slots")
        pieces[p] |= 1 << s
        s += 1
        i += 1
    if s != B.NUM_SLOTS:
        raise BadPosition(f"the board has {B.NUM_SLOTS} slots, not {s}")
    return tuple(pieces)


def to_text(position: JeocincoPosition) -> str:
    pos = position
    towers = ",".join(f"{B.PENT_NAMES[q]}@{B.SLOT_NAMES[t]}" for q, t in enumerate(pos.towers) if t >= 0)
    bridges = ",".join(B.BRIDGE_NAMES[k] for k in pos.bridges)
    opening = "/".join("".join(number_text(v) for v in rolls) or "-" for rolls in pos.opening_rolls)
    dispute = "-"
    if pos.dispute is not None:
        s, challenger, challenged, roll, ties = pos.dispute
        dispute = f"{B.SLOT_NAMES[s]}:{challenger}:{challenged}:{number_text(roll) if roll else '-'}:{ties}"
    end = "-" if pos.end is None else ":".join(str(x) for x in pos.end)
    parts = [
        "jeocinco", f"players={pos.players}", f"fast={int(pos.fast)}", f"rounds={pos.max_rounds}",
        f"disputes={pos.max_disputes}", f"diagonal={int(pos.diagonal_bridges)}", f"rollorder={int(pos.roll_order)}",
        f"ownbridges={int(pos.own_turn_bridges)}", f"phase={pos.phase}", f"open={opening}",
        "order=" + ("".join(map(str, pos.order)) or "-"),
        "colours=" + "".join(B.COLOURS[c] if c >= 0 else "-" for c in pos.colours),
        f"round={pos.round}", f"turn={pos.turn}",
        "roll=" + (roll_text(*pos.roll) if pos.roll else "-"),
        f"actor={pos.actor if pos.actor >= 0 else '-'}", f"stage={pos.stage}",
        f"pieces={pos.rolled}+{pos.extra}",
        "queue=" + (",".join(f"{p}:{k}" for p, k in pos.queue) or "-"),
        f"disputed={pos.disputes_started}", f"dispute={dispute}",
        "tower=" + (B.PENT_NAMES[pos.tower_due] if pos.tower_due >= 0 else "-"),
        "spare=" + "".join(map(str, pos.bridges_in_hand)), f"end={end}",
        f"board={board_to_text(pos.pieces)}", f"towers={towers or '-'}", f"bridges={bridges or '-'}",
    ]
    return " ".join(parts)


_FLAG = {"0": False, "1": True}


def from_text(text: str) -> JeocincoPosition:
    """The position a text writes, if it is one (its variant options still to be checked by the
    game); :class:`BadPosition` naming what is wrong otherwise (the first of :func:`problems`)."""
    return read_checked(text, "Jeocinco", _read, problems)


def _read(text: str) -> JeocincoPosition:
    f = read_fields(text, "jeocinco", POSITION_KEYS)
    n = int(f["players"])
    if f["phase"] not in PHASES:
        raise BadPosition(f"unknown phase {f['phase']!r}")
    opening = f["open"].split("/")
    if len(opening) != n:
        raise BadPosition("one opening roll list per player")
    if len(f["colours"]) != n:
        raise BadPosition("one colour per player")
    roll = None
    if f["roll"] != "-":
        if len(f["roll"]) != 2:
            raise BadPosition("bad roll")
        roll = (number_from_text(f["roll"][0]), letter_from_text(f["roll"][1]))
    if f["stage"] not in ("M", "X"):
        raise BadPosition("stage is M or X")
    rolled, extra = f["pieces"].split("+")
    queue = () if f["queue"] == "-" else tuple(tuple(int(x) for x in item.split(":")) for item in f["queue"].split(","))
    if any(len(item) != 2 for item in queue):
        raise BadPosition("bad queue")
    dispute = None
    if f["dispute"] != "-":
        s, challenger, challenged, roll_text_, ties = f["dispute"].split(":")
        dispute = RollOff(slot_from_text(s), int(challenger), int(challenged),
                          0 if roll_text_ == "-" else number_from_text(roll_text_), int(ties))
    if len(f["spare"]) != n:
        raise BadPosition("one spare-bridge count per player")
    end: End | None = None
    if f["end"] != "-":
        parts = f["end"].split(":")
        if parts[0] not in ("five", "limit"):
            raise BadPosition("bad end")
        end = (parts[0], *(int(x) for x in parts[1:]))
    towers = [-1] * B.NUM_PENTS
    if f["towers"] != "-":
        for item in f["towers"].split(","):
            pentagon, slot = item.split("@")
            towers[B.PENT_INDEX[pentagon]] = B.SLOT_INDEX[slot]
    bridges: list[int] = []
    if f["bridges"] != "-":
        for item in f["bridges"].split(","):
            a, b = item.split("~")
            bridges.append(B.BRIDGE_INDEX[frozenset((B.SLOT_INDEX[a], B.SLOT_INDEX[b]))])
    return JeocincoPosition(
        players=n, fast=_FLAG[f["fast"]], max_rounds=int(f["rounds"]), max_disputes=int(f["disputes"]),
        diagonal_bridges=_FLAG[f["diagonal"]], roll_order=_FLAG[f["rollorder"]],
        own_turn_bridges=_FLAG[f["ownbridges"]], phase=f["phase"],
        opening_rolls=tuple(() if rolls == "-" else tuple(number_from_text(ch) for ch in rolls) for rolls in opening),
        order=() if f["order"] == "-" else tuple(int(ch) for ch in f["order"]),
        colours=tuple(-1 if ch == "-" else B.COLOURS.index(ch) for ch in f["colours"]),
        round=int(f["round"]), turn=int(f["turn"]), roll=roll,
        actor=-1 if f["actor"] == "-" else int(f["actor"]), stage=f["stage"], rolled=int(rolled), extra=int(extra),
        queue=tuple((item[0], item[1]) for item in queue), disputes_started=int(f["disputed"]), dispute=dispute,
        tower_due=-1 if f["tower"] == "-" else B.PENT_INDEX[f["tower"]],
        bridges_in_hand=tuple(int(ch) for ch in f["spare"]), end=end, pieces=board_from_text(f["board"], n),
        towers=tuple(towers), bridges=tuple(sorted(bridges)))


# --------------------------------------------------------------------------- validity

ORDER_INCOMPLETE = Phrase("jeocinco.position.order", "order must list every player once")
COLOUR_TWICE = Phrase("jeocinco.position.colour_twice", "two players with one colour")
TURN_OUT_OF_RANGE = Phrase("jeocinco.position.turn", "turn or round out of range")
ACTOR_OUT_OF_RANGE = Phrase("jeocinco.position.actor", "actor out of range")
PIECES_OUT_OF_RANGE = Phrase("jeocinco.position.pieces", "pieces out of range")
BAD_QUEUE = Phrase("jeocinco.position.queue", "bad queue")
TOO_MANY_BRIDGES = Phrase("jeocinco.position.bridges_in_hand", "a player holds at most two bridges")
TOWER_WITHOUT_SIDES = Phrase("jeocinco.position.tower", "tower {pentagon} needs its owner's pieces on all five sides")
DIAGONAL_BRIDGE_OFF = Phrase("jeocinco.position.diagonal",
                             "bridge {bridge} is diagonal, and diagonal bridges are off")
BRIDGE_UNSUPPORTED = Phrase("jeocinco.position.bridge", "bridge {bridge} must rest on two pieces of one player")
NO_ACTOR = Phrase("jeocinco.position.no_actor", "no actor")
NO_DISPUTE = Phrase("jeocinco.position.no_dispute", "no dispute")
NO_COMPLETED_PENTAGON = Phrase("jeocinco.position.no_tower", "no completed pentagon")
PLAY_UNSET = Phrase("jeocinco.position.unset", "order and colours must be set once play starts")


def problems(position: JeocincoPosition) -> list[Message]:
    """What makes ``position`` one no game reaches, in the order the text lists its fields (empty:
    none). Its tuples have one entry per player (the text reader sees to that)."""
    pos, n = position, position.players
    out: list[Message] = []
    if pos.order and sorted(pos.order) != list(range(n)):
        out.append(ORDER_INCOMPLETE())
    chosen = [c for c in pos.colours if c >= 0]
    if len(set(chosen)) != len(chosen):
        out.append(COLOUR_TWICE())
    if not (0 <= pos.turn < n and 0 <= pos.round <= pos.max_rounds):
        out.append(TURN_OUT_OF_RANGE())
    if not -1 <= pos.actor < n:
        out.append(ACTOR_OUT_OF_RANGE())
    if not (0 <= pos.rolled <= 3 and 0 <= pos.extra <= 100):
        out.append(PIECES_OUT_OF_RANGE())
    if any(not 0 <= player < n or count < 1 for player, count in pos.queue):
        out.append(BAD_QUEUE())
    if any(not 0 <= x <= 2 for x in pos.bridges_in_hand):
        out.append(TOO_MANY_BRIDGES())
    for q, t in enumerate(pos.towers):
        if t < 0:
            continue
        owner = pos.pentagon_owner(q)
        if owner < 0 or t not in B.PENT_SLOTS[q] or pos.pieces[owner] & B.PENT_MASK[q] != B.PENT_MASK[q]:
            out.append(TOWER_WITHOUT_SIDES(pentagon=B.PENT_NAMES[q]))
    for k in pos.bridges:
        a, b = B.BRIDGE_SLOTS[k]
        if not pos.diagonal_bridges and B.BRIDGE_FAMILY[k] == "diagonal":
            out.append(DIAGONAL_BRIDGE_OFF(bridge=B.BRIDGE_NAMES[k]))
        if not any(mask >> a & 1 and mask >> b & 1 for mask in pos.pieces):
            out.append(BRIDGE_UNSUPPORTED(bridge=B.BRIDGE_NAMES[k]))
    if pos.phase in ("place", "tower") and pos.actor < 0:
        out.append(NO_ACTOR())
    if pos.phase in ("challenge", "defence") and pos.dispute is None:
        out.append(NO_DISPUTE())
    if pos.phase == "tower" and pos.tower_due < 0:
        out.append(NO_COMPLETED_PENTAGON())
    if pos.phase not in ("opening", "colour") and (len(pos.order) != n or any(c < 0 for c in pos.colours)):
        out.append(PLAY_UNSET())
    return out


# Positions share these: a move changes one player's pieces, so the other players' networks and
# bridges are worked out once for the many positions the referee looks at (pure: a cache, no state).

NETWORKS_KEPT = 4096  # (pieces, bridges) whose networks are kept
Networks = tuple[tuple[int, int], ...]
"""Each network of a player's pieces (a slot mask) with the slots next to it (``B.adjacent``)."""
# Per bridges, the last few pieces looked at. Safe on computer players' threads without a lock:
# each entry is replaced whole (a race loses a hint to derive from, never a result).
_latest: dict[tuple[int, ...], tuple[tuple[int, Networks], ...]] = {}


@functools.lru_cache(maxsize=NETWORKS_KEPT)  # thread-safe itself
def networks(mine: int, bridges: tuple[int, ...]) -> Networks:
    """The networks of the pieces ``mine``: its slots joined by adjacency and by the ``bridges``
    laid on them (a bridge joins its two slots when both hold pieces of ``mine``), one mask per
    connected group, each with the slots next to it. Kept, and derived from pieces just looked at
    with one piece fewer (a placement) instead of flooding the whole board again."""
    for before, known in _latest.get(bridges, ()):
        added = mine ^ before
        if added & before == 0 and added and added & (added - 1) == 0:  # one more piece
            nets = _joined(known, added, mine, bridges)
            break
    else:
        nets = _flood(mine, bridges)
    if len(_latest) > 64:
        _latest.clear()
    _latest[bridges] = (*_latest.get(bridges, ())[-7:], (mine, nets))
    return nets


def _joined(nets: Networks, added: int, mine: int, bridges: tuple[int, ...]) -> Networks:
    """The networks once the piece ``added`` joins those of the pieces before it (``nets``)."""
    s = added.bit_length() - 1
    touching = B.ADJ_MASK[s]
    for k in bridges:
        a, b = B.BRIDGE_SLOTS[k]
        if a == s or b == s:
            touching |= 1 << (a + b - s)
    touching &= mine
    merged, near, kept = added, B.ADJ_MASK[s], []
    for net, net_near in nets:
        if net & touching:
            merged |= net
            near |= net_near
        else:
            kept.append((net, net_near))
    return tuple(sorted((*kept, (merged, near)), key=lambda n: n[0] & -n[0]))  # lowest slot first, as a flood


def _flood(mine: int, bridges: tuple[int, ...]) -> Networks:
    """:func:`networks` worked out from nothing."""
    partners: dict[int, int] = {}
    for k in bridges:
        a, b = B.BRIDGE_SLOTS[k]
        if mine >> a & 1:
            partners[a] = partners.get(a, 0) | (1 << b)
            partners[b] = partners.get(b, 0) | (1 << a)
    adj = B.ADJ_MASK
    out = []
    rest = mine
    while rest:
        comp = frontier = rest & -rest
        while frontier:
            grow = 0
            while frontier:  # B.bits() written out
                low = frontier & -frontier
                s = low.bit_length() - 1
                grow |= adj[s] | partners.get(s, 0)
                frontier ^= low
            frontier = grow & mine & ~comp
            comp |= frontier
        out.append((comp, B.adjacent(comp)))
        rest &= ~comp
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def open_bridges(mine: int, bridges: tuple[int, ...], diagonal: bool) -> tuple[int, ...]:
    """The bridges that could be laid on the pieces ``mine`` with ``bridges`` on the board."""
    placed = 0
    for k in bridges:
        placed |= 1 << k
    # Diagonal bridges are not offered in the two-family variant; they are not laid either, so
    # only the bridges on the board can block a new one.
    closed = placed if diagonal else placed | B.DIAGONAL_BRIDGES
    out = set()
    for a in B.bits(mine):
        for k in B.BRIDGES_AT[a]:
            b = B.BRIDGE_SLOTS[k][0] + B.BRIDGE_SLOTS[k][1] - a
            if mine >> b & 1 and not closed >> k & 1 and not B.BRIDGE_CONFLICT[k] & placed:
                out.add(k)
    return tuple(sorted(out))
