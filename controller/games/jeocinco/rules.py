"""Jeocinco's rules: who acts, the legal actions, the effect of a legal action, and why any other
action is refused. See ``docs/rules/jeocinco.md`` for every rule and ruling enforced here.

Everything works on :class:`Facts`: a position with the board facts worked out from it, each at
most once (positions never change, so neither do their facts).
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import CHANCE, GAME_OVER, TERMINAL, Message, Phrase
from controller.games.jeocinco import board as B
from controller.games.jeocinco.actions import (
    BRIDGES,
    COLOUR_CHOICES,
    DICE_OUTCOMES,
    DIE_OUTCOMES,
    DISPUTES,
    DONE,
    PLACES,
    TOWERS,
    JeocincoAction,
    is_action,
)
from controller.games.jeocinco.board import PHASE
from controller.games.jeocinco.position import (
    CHANCE_PHASES,
    JeocincoPosition,
    Networks,
    RollOff,
    networks,
    open_bridges,
    with_item,
)

TIE_CAP = 10
"""Tied re-rolls allowed before a tie is settled without dice (opening: seat order; dispute: the
challenged keeps his piece). Needed for a true bound on game length; reached with odds 6**-10."""


class Facts:
    """A position and the board facts its rules need, each worked out at most once."""

    __slots__ = ("_completed", "_legal", "_placements", "_regions", "position")

    def __init__(self, position: JeocincoPosition) -> None:
        self.position = position
        self._completed: int | None = None
        self._regions: dict[int, tuple[int, int]] = {}
        self._placements: tuple[int, int] | None = None
        self._legal: list[JeocincoAction] | None = None

    def legal_actions(self) -> list[JeocincoAction]:
        """Every legal action, in a stable order."""
        if self._legal is None:
            self._legal = _legal_actions(self)
        return self._legal

    def completed(self) -> int:
        """Every side of a completed pentagon (a tower's)."""
        m = self._completed
        if m is None:
            m = 0
            for q, t in enumerate(self.position.towers):
                if t >= 0:
                    m |= B.PENT_MASK[q]
            self._completed = m
        return m

    def network(self, p: int, seed: int) -> int:
        """Every slot of player ``p`` connected to a slot of ``seed`` by adjacency and p's bridges."""
        comp = 0
        for net, _near in networks(self.position.pieces[p], self.position.bridges):
            if net & seed:
                comp |= net
        return comp

    def near_network(self, p: int, seed: int) -> int:
        """``B.adjacent(self.network(p, seed))``, from the networks' own adjacency (kept with them)."""
        out = 0
        for net, near in networks(self.position.pieces[p], self.position.bridges):
            if net & seed:
                out |= near
        return out

    def near_pieces(self, p: int) -> int:
        """``B.adjacent`` of all of p's pieces, from his networks' adjacency."""
        out = 0
        for _net, near in networks(self.position.pieces[p], self.position.bridges):
            out |= near
        return out

    def blocked(self, p: int, h: int) -> bool:
        """Case 5: p's pentagon in hexagon h has a side held by another player whose pentagon on
        that side is completed, so p can never complete it."""
        pos = self.position
        pent = 4 * h + pos.colours[p]
        others = pos.occupied() & ~pos.pieces[p]
        return bool(B.PENT_MASK[pent] & others & self.completed())

    def regions(self, p: int) -> tuple[int, int]:
        """(rolled region, free region) for player p, as slot masks before removing held slots.

        free: sides of any pentagon of p's colour, or adjacent to any of p's pieces.
        rolled: sides of p's pentagon in a rolled hexagon, or adjacent to any piece of a network of
        p's that has a piece on a rolled hexagon; the free region if a rolled hexagon is blocked
        (case 5) or both dice are wildcards (case 4).
        """
        r = self._regions.get(p)
        if r is not None:
            return r
        pos = self.position
        c = pos.colours[p]
        mine = pos.pieces[p]
        free = B.COLOUR_MASK[c] | self.near_pieces(p)
        rolled = 0
        if pos.roll is not None and pos.stage == "M" and p == pos.turn_order[pos.turn]:
            number, letter = pos.roll
            hexes = B.hexes_for_roll(number, letter)
            if (number == B.WILD and letter == B.PLUS) or any(self.blocked(p, h) for h in hexes):
                rolled = free
            else:
                touch = 0
                for h in hexes:
                    rolled |= B.PENT_MASK[4 * h + c]
                    touch |= B.HEX_MASK[h]
                # (a bridge passing over a hexagon always rests on a slot of that hexagon, so the
                # pieces on the hexagon are all the network needs to be reached; see test_board)
                seed = mine & touch
                if seed:
                    rolled |= self.near_network(p, seed)
        r = (rolled, free)
        self._regions[p] = r
        return r

    def bridge_options(self, p: int) -> list[int]:
        """The bridges player ``p`` could lay on his pieces now, whoever's turn it is."""
        pos = self.position
        if pos.bridges_in_hand[p] <= 0:
            return []
        return list(open_bridges(pos.pieces[p], pos.bridges, pos.diagonal_bridges))

    def placements(self) -> tuple[int, int]:
        """(mask of slots a piece may go to, mask of slots that may be disputed) for the actor."""
        r = self._placements
        if r is not None:
            return r
        pos = self.position
        p = pos.actor
        rolled, free = self.regions(p)
        region = 0
        if pos.rolled > 0:
            region |= rolled
        if pos.extra > 0:
            region |= free
        occupied = pos.occupied()
        place = region & ~occupied & B.ALL
        disputable = 0
        if pos.disputes_started < pos.max_disputes:
            disputable = region & occupied & ~pos.pieces[p] & ~self.completed()
        r = (place, disputable)
        self._placements = r
        return r


# --------------------------------------------------------------------------- who acts

def current_player(position: JeocincoPosition) -> int:
    phase = position.phase
    if phase == "over":
        return TERMINAL
    if phase in CHANCE_PHASES:
        return CHANCE
    if phase == "colour":
        return position.order[sum(1 for c in position.colours if c >= 0)]
    return position.actor


def bridge_owner(position: JeocincoPosition, action: object) -> int:
    """The player a bridge action is for (its supports' owner), -1 when it is none or has none."""
    if is_action(action) and action[0] == "bridge" and 0 <= action[1] < B.NUM_BRIDGES:
        return position.holder(B.BRIDGE_SLOTS[action[1]][0])
    return -1


def main_actor(position: JeocincoPosition) -> bool:
    """Whether the actor is the turn's player placing his rolled pieces (his own turn proper)."""
    return position.stage == "M" and position.actor == position.turn_order[position.turn]


def returns(position: JeocincoPosition) -> list[float]:
    n = position.players
    if position.end is None or not position.end[1:]:
        return [0.0] * n
    winners = position.end[1:]
    share = 1.0 / len(winners)
    return [share if p in winners else -1.0 for p in range(n)]


# --------------------------------------------------------------------------- legal actions

def _legal_actions(facts: Facts) -> list[JeocincoAction]:
    pos = facts.position
    phase = pos.phase
    if phase == "over":
        return []
    if phase == "roll":
        return list(DICE_OUTCOMES)
    if phase in ("opening", "challenge", "defence"):
        return list(DIE_OUTCOMES)
    if phase == "colour":
        taken = set(pos.colours)
        return [COLOUR_CHOICES[c] for c in range(4) if c not in taken]
    out: list[JeocincoAction] = []
    own_turn: list[int] = []  # the bridges the turn's player may lay in his own turn
    done = False
    if phase == "tower":
        out.extend(TOWERS[pos.tower_due])
    else:  # place
        place, disputable = facts.placements()
        out.extend([PLACES[s] for s in B.bits(place)])
        out.extend([DISPUTES[s] for s in B.bits(disputable)])
        if main_actor(pos):
            own_turn = facts.bridge_options(pos.actor)
        # Pieces with nowhere to go wait while the turn's player can still lay a bridge (it may
        # open a slot): he lays one or ends with done. Bridges laid only in their owner's turn
        # also hold the turn open once his pieces are placed.
        pieces_left = pos.rolled > 0 or pos.extra > 0
        done = bool(own_turn) and not (place or disputable) and (pieces_left or pos.own_turn_bridges)
        if not (out or done):
            return []  # nothing holds the turn: it moves on (settle)
    bridges = own_turn if pos.own_turn_bridges else _bridges_any_time(facts)
    out.extend([BRIDGES[k] for k in bridges])
    if done:
        out.append(DONE)
    return out


def _bridges_any_time(facts: Facts) -> list[int]:
    """Every bridge any player may lay now (bridges "en cualquier momento")."""
    return sorted(k for p in range(facts.position.players) for k in facts.bridge_options(p))


# --------------------------------------------------------------------------- effects

def apply_legal(facts: Facts, action: JeocincoAction) -> Facts:
    """The facts of the position after the legal ``action``, with every non-decision after it
    played out (:func:`settle`)."""
    pos = facts.position
    if action[0] == "die":
        pos = _after_die(pos, action[1])
    elif action[0] == "dice":
        letter = action[2]
        pos = pos._replace(roll=(action[1], letter), actor=pos.turn_order[pos.turn], stage="M",
                           rolled=(2 if pos.fast else 1) + (1 if letter == B.PLUS else 0), extra=0,
                           disputes_started=0, phase="place")
    elif action[0] == "colour":
        chooser = pos.order[sum(1 for c in pos.colours if c >= 0)]
        pos = pos._replace(colours=with_item(pos.colours, chooser, action[1]))
        if all(c >= 0 for c in pos.colours):
            pos = pos._replace(phase="roll", turn=0)
    elif action[0] == "place":
        s = action[1]
        pos = _used_piece(facts, s)
        pos = pos._replace(pieces=with_item(pos.pieces, pos.actor, pos.pieces[pos.actor] | 1 << s))
        pos = _completing(pos, pos.actor, s)
    elif action[0] == "dispute":
        s = action[1]
        pos = _used_piece(facts, s)
        pos = pos._replace(disputes_started=pos.disputes_started + 1,
                           dispute=RollOff(s, pos.actor, pos.holder(s), 0, 0), phase="challenge")
    elif action[0] == "tower":
        _, pent, s = action
        hand = pos.bridges_in_hand
        pos = pos._replace(towers=with_item(pos.towers, pent, s), tower_due=-1,
                           bridges_in_hand=with_item(hand, pos.actor, min(2, hand[pos.actor] + 1)), phase="place")
    elif action[0] == "bridge":
        owner = bridge_owner(pos, action)
        pos = pos._replace(bridges=tuple(sorted((*pos.bridges, action[1]))),
                           bridges_in_hand=with_item(pos.bridges_in_hand, owner, pos.bridges_in_hand[owner] - 1))
    else:  # done
        pos = pos._replace(rolled=0, extra=0, stage="X")
    return settle(Facts(pos))


def _used_piece(facts: Facts, s: int) -> JeocincoPosition:
    """The position with the piece the actor puts on ``s`` taken from his rolled or extra pieces."""
    pos = facts.position
    rolled, _free = facts.regions(pos.actor)
    if pos.rolled > 0 and rolled >> s & 1:
        return pos._replace(rolled=pos.rolled - 1)
    return pos._replace(extra=pos.extra - 1)


def _completing(pos: JeocincoPosition, p: int, s: int) -> JeocincoPosition:
    """The position with a tower due if p's piece on ``s`` completed a pentagon of his colour."""
    for pent in B.SLOT_PENTS[s]:
        if B.PENT_COLOUR[pent] == pos.colours[p] and pos.towers[pent] < 0 and \
                pos.pieces[p] & B.PENT_MASK[pent] == B.PENT_MASK[pent]:
            pos = pos._replace(tower_due=pent, phase="tower")
    return pos


def _after_die(pos: JeocincoPosition, value: int) -> JeocincoPosition:
    if pos.phase == "opening":
        p = opening_roller(pos)
        assert p is not None, "the opening phase lasts while someone has to roll"
        pos = pos._replace(opening_rolls=with_item(pos.opening_rolls, p, (*pos.opening_rolls[p], value)))
        if opening_roller(pos) is None:
            rolls = pos.opening_rolls
            pos = pos._replace(order=tuple(sorted(range(pos.players), key=lambda q: ([-x for x in rolls[q]], q))),
                               phase="colour")
        return pos
    # a roll of a dispute
    assert pos.dispute is not None, "the roll-off phases have a dispute"
    s, challenger, challenged, challenger_roll, ties = pos.dispute
    if pos.phase == "challenge":
        return pos._replace(dispute=pos.dispute._replace(challenger_roll=value), phase="defence")
    if value == challenger_roll:
        ties += 1
        if ties < TIE_CAP:
            return pos._replace(dispute=RollOff(s, challenger, challenged, 0, ties), phase="challenge")
        winner = challenged  # a tie that will not break: the challenged keeps his piece
    else:
        winner = challenger if challenger_roll > value else challenged
    pos = pos._replace(dispute=None, phase="place")
    if winner == challenger:
        pieces = with_item(pos.pieces, challenged, pos.pieces[challenged] & ~(1 << s))
        pieces = with_item(pieces, challenger, pieces[challenger] | 1 << s)
        pos = pos._replace(pieces=pieces, bridges=tuple(k for k in pos.bridges if s not in B.BRIDGE_SLOTS[k]),
                           extra=pos.extra + 1)
        return _completing(pos, challenger, s)
    return pos._replace(queue=(*pos.queue, (challenged, 1)))


def opening_roller(pos: JeocincoPosition) -> int | None:
    """Who rolls the number die next in the opening (a player still tied with another), None once
    the order is settled."""
    rolls = pos.opening_rolls
    best = None
    for p, mine in enumerate(rolls):
        n = len(mine)
        if any(q != p and len(rolls[q]) >= n and rolls[q][:n] == mine for q in range(pos.players)) and \
                (best is None or n < len(rolls[best])):
            best = p
    if best is not None and len(rolls[best]) >= TIE_CAP + 1:
        return None  # every tied player has rolled TIE_CAP + 1 times: seat order decides
    return best


def settle(facts: Facts) -> Facts:
    """Move past decisions that are not decisions: a win, pieces with nowhere to go, a finished turn."""
    for _ in range(10 * facts.position.players + 50):
        pos = facts.position
        winner = five_towers(facts)
        if winner is not None:
            return Facts(pos._replace(phase="over", end=("five", winner)))
        if pos.phase != "place" or facts.legal_actions():
            return facts
        pos = pos._replace(rolled=0, extra=0)  # pieces that cannot be placed are forfeited
        if pos.stage == "M":
            pos = pos._replace(stage="X")
        if pos.queue:
            (actor, extra), *waiting = pos.queue
            pos = pos._replace(actor=actor, extra=extra, rolled=0, queue=tuple(waiting))
        else:
            turn, round_ = pos.turn + 1, pos.round
            if turn >= pos.players:
                turn, round_ = 0, round_ + 1
            pos = pos._replace(turn=turn, round=round_, roll=None, actor=-1, disputes_started=0, stage="M",
                               phase="roll")
            if round_ >= pos.max_rounds:
                counts = [pos.tower_count(p) for p in range(pos.players)]
                best = max(counts)
                pos = pos._replace(phase="over", end=("limit", *([p for p in range(pos.players) if counts[p] == best]
                                                                 if counts.count(best) < pos.players else [])))
        facts = Facts(pos)
    raise AssertionError("settle did not settle")  # pragma: no cover


def five_towers(facts: Facts) -> int | None:
    """The player with five towers joined by one network of his pieces and bridges, if any."""
    pos = facts.position
    if pos.phase in ("over", "opening", "colour"):
        return None
    for p in range(pos.players):
        c = pos.colours[p]
        towers = [B.PENT_MASK[q] for q in range(c, B.NUM_PENTS, 4) if pos.towers[q] >= 0]
        if len(towers) < 5:
            continue
        if five_joined(towers, networks(pos.pieces[p], pos.bridges)):
            return p
    return None


def five_joined(towers: Sequence[int], nets: Networks) -> bool:
    """Whether the networks ``nets`` join five of the ``towers`` (pentagon masks): a tower joins
    the networks that touch its pentagon."""
    for pent in towers:
        joined = 0
        for net, _near in nets:
            if net & pent:
                joined |= net
        if sum(1 for r in towers if r & joined) >= 5:
            return True
    return False


# --------------------------------------------------------------------------- refusals

NOT_JEOCINCO = Phrase("jeocinco.not_an_action", "that is not a Jeocinco action")
# Written out one by one, so that Babel finds every template (controller/locale).
OTHER_DICE_DUE = {
    "roll": Phrase("jeocinco.dice_due.roll", "the dice due now are both dice (roll 3C)"),
    "opening": Phrase("jeocinco.dice_due.opening", "the dice due now are the opening roll of the number die"),
    "challenge": Phrase("jeocinco.dice_due.challenge", "the dice due now are the challenger's roll of the number die"),
    "defence": Phrase("jeocinco.dice_due.defence",
                      "the dice due now are the challenged player's roll of the number die"),
}
WAITING_FOR_DICE = {
    "roll": Phrase("jeocinco.waiting_for.roll", "waiting for both dice (roll 3C)"),
    "opening": Phrase("jeocinco.waiting_for.opening", "waiting for the opening roll of the number die"),
    "challenge": Phrase("jeocinco.waiting_for.challenge", "waiting for the challenger's roll of the number die"),
    "defence": Phrase("jeocinco.waiting_for.defence", "waiting for the challenged player's roll of the number die"),
}
NO_DICE_DUE = Phrase("jeocinco.no_dice_due", "no dice are due: {player} must play ({phase})")
CHOOSING_COLOURS = Phrase("jeocinco.choosing_colours", "colours are being chosen: {player} picks a colour first")
COLOUR_TAKEN = Phrase("jeocinco.colour_taken", "colour {colour} is already taken by {owner}")
NOT_A_COLOUR = Phrase("jeocinco.not_a_colour", "not a colour")
COLOURS_CHOSEN = Phrase("jeocinco.colours_chosen", "colours were chosen at the start")
TOWER_FIRST = Phrase("jeocinco.tower_first",
                     "pentagon {pentagon} is complete: its tower must replace one of its pieces first")
OTHER_PENTAGON = Phrase("jeocinco.other_pentagon", "the completed pentagon is {pentagon}, not {named}")
NOT_A_SIDE = Phrase("jeocinco.not_a_side",
                    "slot {slot} is not a side of {pentagon}: the tower replaces one of its five pieces")
NOTHING_COMPLETED = Phrase("jeocinco.nothing_completed", "no pentagon of yours has just been completed")
PIECE_TO_PLACE = Phrase("jeocinco.piece_to_place", "you still have a piece to place (or a dispute to play instead)")
NOTHING_TO_END = Phrase("jeocinco.nothing_to_end", "nothing to end")
NO_PIECE_LEFT = Phrase("jeocinco.no_piece_left", "you have no piece left to place this turn")
SLOT_YOURS = Phrase("jeocinco.slot_yours", "slot {slot} already holds your piece")
SLOT_HELD = Phrase("jeocinco.slot_held", "slot {slot} is held by {holder}: you may only dispute it")
NOTHING_TO_DISPUTE = Phrase("jeocinco.nothing_to_dispute",
                            "slot {slot} is empty: nothing to dispute, place a piece there instead")
OWN_PIECE = Phrase("jeocinco.own_piece", "slot {slot} holds your own piece")
TOWER_SIDE = Phrase("jeocinco.tower_side", "slot {slot} is a side of the completed pentagon {pentagon} (a tower): "
                                           "its pieces can never be disputed")
DISPUTE_CAP = Phrase("jeocinco.dispute_cap", "at most {cap} disputes may be started in one turn")
BLOCKED_ROLL = Phrase("jeocinco.blocked_roll",
                      "the roll {roll} reaches {pentagon}, which can never be completed (case 5), so you place "
                      "anywhere under the rules: but slot {slot} is neither a side of a {colour} pentagon nor next "
                      "to one of your pieces")
OUTSIDE_ROLL = {
    ("board", False): Phrase(
        "jeocinco.outside_roll.board",
        "the roll {roll} sends you to the whole board: slot {slot} is neither a side of your colour's "
        "({colour}) pentagon there nor next to a piece of a network of yours that reaches it"),
    ("board", True): Phrase(
        "jeocinco.outside_roll.board.extra",
        "the roll {roll} sends you to the whole board: slot {slot} is neither a side of your colour's "
        "({colour}) pentagon there nor next to a piece of a network of yours that reaches it; nor is it a "
        "side of any {colour} pentagon or next to any of your pieces (extra piece)"),
    ("column", False): Phrase(
        "jeocinco.outside_roll.column",
        "the roll {roll} sends you to column {letter} (any number): slot {slot} is neither a side of your "
        "colour's ({colour}) pentagon there nor next to a piece of a network of yours that reaches it"),
    ("column", True): Phrase(
        "jeocinco.outside_roll.column.extra",
        "the roll {roll} sends you to column {letter} (any number): slot {slot} is neither a side of your "
        "colour's ({colour}) pentagon there nor next to a piece of a network of yours that reaches it; nor "
        "is it a side of any {colour} pentagon or next to any of your pieces (extra piece)"),
    ("row", False): Phrase(
        "jeocinco.outside_roll.row",
        "the roll {roll} sends you to row {number} (any letter): slot {slot} is neither a side of your "
        "colour's ({colour}) pentagon there nor next to a piece of a network of yours that reaches it"),
    ("row", True): Phrase(
        "jeocinco.outside_roll.row.extra",
        "the roll {roll} sends you to row {number} (any letter): slot {slot} is neither a side of your "
        "colour's ({colour}) pentagon there nor next to a piece of a network of yours that reaches it; nor "
        "is it a side of any {colour} pentagon or next to any of your pieces (extra piece)"),
    ("hexagon", False): Phrase(
        "jeocinco.outside_roll.hexagon",
        "the roll {roll} sends you to hexagon {hexagon}: slot {slot} is neither a side of your colour's "
        "({colour}) pentagon there nor next to a piece of a network of yours that reaches it"),
    ("hexagon", True): Phrase(
        "jeocinco.outside_roll.hexagon.extra",
        "the roll {roll} sends you to hexagon {hexagon}: slot {slot} is neither a side of your colour's "
        "({colour}) pentagon there nor next to a piece of a network of yours that reaches it; nor is it a "
        "side of any {colour} pentagon or next to any of your pieces (extra piece)"),
}
"""Per kind of rolled place and whether an extra piece is also to be placed."""
OUTSIDE_FREE = Phrase("jeocinco.outside_free", "slot {slot} is neither a side of a {colour} pentagon nor next to "
                                               "one of your pieces (an extra piece goes anywhere under those rules)")
NO_SUCH_BRIDGE = Phrase("jeocinco.no_such_bridge", "there is no such bridge")
BRIDGE_LAID = Phrase("jeocinco.bridge_laid", "that bridge is already laid")
DIAGONAL_OFF = Phrase("jeocinco.diagonal_off",
                      "diagonal bridges (supports facing over a fifth of a slot) are off in this variant")
SUPPORT_EMPTY = Phrase("jeocinco.support_empty", "a bridge rests on two pieces of one player: slot {slot} is empty")
SUPPORTS_SPLIT = Phrase("jeocinco.supports_split", "a bridge rests on two pieces of one player: slot {slot} holds "
                                                   "{player}'s, slot {other_slot} {other_player}'s")
NOT_OWNERS_TURN = Phrase("jeocinco.not_owners_turn", "bridges are laid only during their owner's own turn "
                                                     "(option own_turn_bridges), and it is not {player}'s")
NO_BRIDGE_IN_HAND = Phrase("jeocinco.no_bridge_in_hand", "{player} has no bridge in hand (one is earned with each "
                                                         "tower)")
CROSSES_BRIDGE = Phrase("jeocinco.crosses_bridge", "it would cross the bridge from {a} to {b}")
NOT_A_LEGAL_BRIDGE = Phrase("jeocinco.not_a_legal_bridge", "not a legal bridge here")


def player_text(pos: JeocincoPosition, p: int) -> str:
    """How refusals name a player: ``player 0 (N)`` once he has a colour."""
    c = pos.colours[p] if 0 <= p < len(pos.colours) else -1
    return f"player {p}" + (f" ({B.COLOURS[c]})" if c >= 0 else "")


def _in_range(action: JeocincoAction) -> bool:
    """Whether the numbers of an action name things of the board (a bridge's are checked by the rules)."""
    if action[0] == "place" or action[0] == "dispute":
        return 0 <= action[1] < B.NUM_SLOTS
    if action[0] == "tower":
        return 0 <= action[1] < B.NUM_PENTS and 0 <= action[2] < B.NUM_SLOTS
    if action[0] == "colour":
        return 0 <= action[1] < 4
    return True


def why_illegal(facts: Facts, action: object) -> Message:
    """Why ``action``, not one of :meth:`Facts.legal_actions`, is refused here."""
    pos = facts.position
    phase = pos.phase
    if phase == "over":
        return GAME_OVER()
    if not is_action(action) or not _in_range(action):
        return NOT_JEOCINCO()
    kind = action[0]
    if phase in CHANCE_PHASES:
        return (OTHER_DICE_DUE if kind in ("dice", "die") else WAITING_FOR_DICE)[phase]()
    player = current_player(pos)
    if kind in ("dice", "die"):
        return NO_DICE_DUE(player=player_text(pos, player), phase=PHASE[phase]())
    if phase == "colour":
        if action[0] != "colour":
            return CHOOSING_COLOURS(player=player_text(pos, player))
        owner = pos.colours.index(action[1]) if action[1] in pos.colours else -1
        if owner >= 0:
            return COLOUR_TAKEN(colour=B.COLOURS[action[1]], owner=f"player {owner}")
        return NOT_A_COLOUR()
    if action[0] == "colour":
        return COLOURS_CHOSEN()
    if action[0] == "bridge" and (phase == "place" or not pos.own_turn_bridges):
        return _why_not_bridge(facts, action[1])
    if phase == "tower":
        due = B.PENT_NAMES[pos.tower_due]
        if action[0] != "tower":
            return TOWER_FIRST(pentagon=due)
        if action[1] != pos.tower_due:
            return OTHER_PENTAGON(pentagon=due, named=B.PENT_NAMES[action[1]])
        return NOT_A_SIDE(slot=B.SLOT_NAMES[action[2]], pentagon=due)
    # the place phase
    if action[0] == "tower":
        return NOTHING_COMPLETED()
    if action[0] == "done":
        place, disputable = facts.placements()
        return PIECE_TO_PLACE() if (place or disputable) else NOTHING_TO_END()
    return _why_not_slot(facts, action[0], action[1])


def _why_not_slot(facts: Facts, kind: str, s: int) -> Message:
    pos = facts.position
    p = pos.actor
    name = B.SLOT_NAMES[s]
    if pos.rolled == 0 and pos.extra == 0:
        return NO_PIECE_LEFT()
    holder = pos.holder(s)
    if kind == "place" and holder >= 0:
        if holder == p:
            return SLOT_YOURS(slot=name)
        return SLOT_HELD(slot=name, holder=player_text(pos, holder))
    if kind == "dispute":
        if holder < 0:
            return NOTHING_TO_DISPUTE(slot=name)
        if holder == p:
            return OWN_PIECE(slot=name)
        if facts.completed() >> s & 1:
            pent = next(q for q in B.SLOT_PENTS[s] if pos.towers[q] >= 0)
            return TOWER_SIDE(slot=name, pentagon=B.PENT_NAMES[pent])
        if pos.disputes_started >= pos.max_disputes:
            return DISPUTE_CAP(cap=pos.max_disputes)
    return _why_outside(facts, p, name)


def _why_outside(facts: Facts, p: int, slot: str) -> Message:
    pos = facts.position
    colour = B.COLOURS[pos.colours[p]]
    if pos.rolled > 0 and pos.roll is not None:
        number, letter = pos.roll
        roll = B.ROLLED(number=B.number_said(number), letter=B.letter_said(letter))  # "the roll 3 and C"
        both_wild = number == B.WILD and letter == B.PLUS
        blocked = [h for h in B.hexes_for_roll(number, letter) if facts.blocked(p, h)]
        if blocked and not both_wild:
            return BLOCKED_ROLL(roll=roll, pentagon=f"{B.hex_name(blocked[0])}{colour}", slot=slot, colour=colour)
        where: dict[str, str]
        if both_wild:
            kind, where = "board", {}
        elif number == B.WILD:
            kind, where = "column", {"letter": B.LETTERS[letter]}
        elif letter == B.PLUS:
            kind, where = "row", {"number": str(number)}
        else:
            kind, where = "hexagon", {"hexagon": f"{B.LETTERS[letter]}{number}"}
        return OUTSIDE_ROLL[kind, pos.extra > 0](roll=roll, slot=slot, colour=colour, **where)
    return OUTSIDE_FREE(slot=slot, colour=colour)


def _why_not_bridge(facts: Facts, k: int) -> Message:
    pos = facts.position
    if not 0 <= k < B.NUM_BRIDGES:
        return NO_SUCH_BRIDGE()
    if k in pos.bridges:
        return BRIDGE_LAID()
    if not pos.diagonal_bridges and B.BRIDGE_FAMILY[k] == "diagonal":
        return DIAGONAL_OFF()
    supports = B.BRIDGE_SLOTS[k]
    holders = [pos.holder(s) for s in supports]
    for s, h in zip(supports, holders, strict=True):
        if h < 0:
            return SUPPORT_EMPTY(slot=B.SLOT_NAMES[s])
    p = holders[0]
    if holders[1] != p:
        return SUPPORTS_SPLIT(slot=B.SLOT_NAMES[supports[0]], player=player_text(pos, p),
                              other_slot=B.SLOT_NAMES[supports[1]], other_player=player_text(pos, holders[1]))
    if pos.own_turn_bridges and not (main_actor(pos) and p == pos.actor):
        return NOT_OWNERS_TURN(player=player_text(pos, p))
    if pos.bridges_in_hand[p] <= 0:
        return NO_BRIDGE_IN_HAND(player=player_text(pos, p))
    placed = 0
    for m in pos.bridges:
        placed |= 1 << m
    clash = B.BRIDGE_CONFLICT[k] & placed
    if clash:
        return CROSSES_BRIDGE(**B.bridge_ends(clash.bit_length() - 1))
    return NOT_A_LEGAL_BRIDGE()
