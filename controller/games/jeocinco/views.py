"""What each side sees of a Jeocinco position: the sensors, everyone (an open game: no private
views), the announcements of an action, and the terminal's picture."""

from __future__ import annotations

from typing import Any

from controller.games.base import CHANCE, Announcement, Message, Phrase, Say, announcement, in_english
from controller.games.jeocinco import board as B
from controller.games.jeocinco.actions import JeocincoAction, number_text, roll_text
from controller.games.jeocinco.board import PHASE
from controller.games.jeocinco.position import JeocincoPosition, to_text
from controller.games.jeocinco.rules import current_player

CHANNEL_KEYS = (
    tuple(f"slot:{name}" for name in B.SLOT_NAMES),
    tuple(f"tower:{name}" for name in B.PENT_NAMES),
    tuple(f"bridge:{name}" for name in B.BRIDGE_NAMES),
)
"""Channel names per sensor family, in bit order of :func:`sensed_bits`."""


def sensed_bits(pos: JeocincoPosition) -> tuple[int, int, int]:
    """What the presence sensors see, as bit masks: slots, tower sockets, bridge sockets."""
    towers = vacated = 0
    for q, t in enumerate(pos.towers):  # one pass: the sockets, and the slots their towers replaced
        if t >= 0:
            towers |= 1 << q
            vacated |= 1 << t
    bridges = 0
    for k in pos.bridges:
        bridges |= 1 << k
    return pos.occupied() & ~vacated, towers, bridges


_BIT_VALUES = bytes.maketrans(b"01", b"\x00\x01")


def physical_view(pos: JeocincoPosition) -> dict[str, int]:
    view: dict[str, int] = {}
    for keys, bits in zip(CHANNEL_KEYS, sensed_bits(pos), strict=True):
        # The mask's binary digits, lowest bit first, as 0/1 bytes: twice as fast as shifting per channel.
        view.update(zip(keys, format(bits, "b").zfill(len(keys))[::-1].encode().translate(_BIT_VALUES), strict=True))
    return view


def put_down(action: JeocincoAction) -> dict[str, int] | None:
    """The one channel a placement or a bridge changes (it only puts one piece down), else None."""
    if action[0] == "place" or action[0] == "bridge":
        return {CHANNEL_KEYS[0 if action[0] == "place" else 2][action[1]]: 1}
    return None


def changed_channels(before: tuple[int, int, int], after: JeocincoPosition) -> dict[str, int]:
    """The channels that differ from ``before`` (a position's :func:`sensed_bits`) in ``after``,
    with their values there: bit masks compared, not 645-channel views."""
    out = {}
    for keys, old, new in zip(CHANNEL_KEYS, before, sensed_bits(after), strict=True):
        changed = old ^ new
        while changed:
            low = changed & -changed
            i = low.bit_length() - 1
            out[keys[i]] = (new >> i) & 1
            changed ^= low
    return out


TOWER_STANDS = Phrase("jeocinco.tower_stands", "{player} completes {pentagon}: a tower stands")
CHALLENGES = Phrase("jeocinco.challenges", "{player} challenges the piece on {slot}")
BRIDGE_FALLS = Phrase("jeocinco.bridge_falls", "the bridge from {a} to {b} falls with its support")


def announcements(before: JeocincoPosition, action: JeocincoAction, after: JeocincoPosition) -> list[Announcement]:
    out: list[Announcement] = []
    p = current_player(before)
    if action[0] == "tower":
        out.append(announcement("tower", p, TOWER_STANDS(player=f"player {p}", pentagon=B.PENT_NAMES[action[1]])))
    elif action[0] == "dispute":
        out.append(announcement("dispute", p, CHALLENGES(player=f"player {p}", slot=B.SLOT_NAMES[action[1]])))
    for k in sorted(set(before.bridges) - set(after.bridges)):
        out.append(announcement("bridge_lost", None, BRIDGE_FALLS(**B.bridge_ends(k))))
    return out


def public_view(pos: JeocincoPosition, scores: list[float], winners: list[int]) -> dict[str, Any]:
    players = []
    for p in range(pos.players):
        c = pos.colours[p]
        players.append({
            "player": p,
            "colour": B.COLOURS[c] if c >= 0 else None,
            "colour_name": B.COLOUR_NAMES[c] if c >= 0 else None,
            "pieces": bin(pos.pieces[p]).count("1"),
            "towers": pos.tower_count(p),
            "bridges_in_hand": pos.bridges_in_hand[p],
            "opening_roll": [number_text(v) for v in pos.opening_rolls[p]],
        })
    holders = pos.holders()
    view: dict[str, Any] = {
        "game": "jeocinco",
        "position": to_text(pos),
        "options": pos.options,
        "phase": pos.phase,
        "current_player": current_player(pos),
        "order": list(pos.turn_order),
        "opening_order": list(pos.order),
        "round": pos.round,
        "players": players,
        "roll": roll_text(*pos.roll) if pos.roll else None,
        "pieces_to_place": {"rolled": pos.rolled, "extra": pos.extra} if pos.phase == "place" else None,
        "waiting_extra_pieces": [{"player": p, "pieces": k} for p, k in pos.queue],
        "dispute": None,
        "slots": {B.SLOT_NAMES[s]: p for s, p in enumerate(holders) if p >= 0},
        "towers": {B.PENT_NAMES[q]: {"player": pos.pentagon_owner(q), "replaced_slot": B.SLOT_NAMES[t]}
                   for q, t in enumerate(pos.towers) if t >= 0},
        "bridges": [{"name": B.BRIDGE_NAMES[k], "player": holders[B.BRIDGE_SLOTS[k][0]]} for k in pos.bridges],
        "scores": scores,
        "winners": winners,
        "end": None if pos.end is None else pos.end[0],
    }
    if pos.dispute is not None:
        s, challenger, challenged, roll, ties = pos.dispute
        view["dispute"] = {"slot": B.SLOT_NAMES[s], "challenger": challenger, "challenged": challenged,
                           "challenger_roll": number_text(roll) if roll else None, "ties": ties}
    return view


TEXT_STATUS = Phrase("jeocinco.text.status", "Jeocinco  round {round}/{rounds}  phase {phase}  to play: {player}  "
                     "roll: {roll}")
TEXT_CHANCE = Phrase("jeocinco.text.chance", "the dice")
TEXT_NOBODY = Phrase("jeocinco.text.nobody", "nobody")
TEXT_PLAYER = Phrase("jeocinco.text.player", "{player} ({number}): towers {towers}, bridges in hand {bridges}")
TEXT_LEGEND = Phrase("jeocinco.text.legend", "each pentagon: its five sides (. empty, a number = that player, "
                     "o = left by the tower), T = tower")
TEXT_BRIDGES = Phrase("jeocinco.text.bridges", "bridges: {bridges}")


def render_text(pos: JeocincoPosition, say: Say = in_english) -> str:
    actor = current_player(pos)
    to_play = f"player {actor}" if actor >= 0 else TEXT_CHANCE() if actor == CHANCE else TEXT_NOBODY()
    lines = [say(TEXT_STATUS(round=pos.round + 1, rounds=pos.max_rounds, phase=PHASE[pos.phase](), player=to_play,
                             roll=roll_text(*pos.roll) if pos.roll else "-"))]
    for p in range(pos.players):
        lines.append("  " + say(TEXT_PLAYER(player=f"player {p}", number=p + 1, towers=pos.tower_count(p),
                                            bridges=pos.bridges_in_hand[p])))
    lines.append("  " + say(TEXT_LEGEND()))
    vacated = pos.vacated()
    for h in range(25):
        cells = []
        for o in range(4):
            q = 4 * h + o
            sides = "".join("o" if vacated >> s & 1 else _slot_char(pos, s) for s in B.PENT_SLOTS[q])
            cells.append(f"{B.COLOURS[o]}:{sides}{'T' if pos.towers[q] >= 0 else ' '}")
        lines.append(f"  {B.hex_name(h)}  " + "  ".join(cells))
    if pos.bridges:
        lines.append("  " + say(TEXT_BRIDGES(bridges=", ".join(B.BRIDGE_NAMES[k] for k in pos.bridges))))
    return "\n".join(lines)


def _slot_char(pos: JeocincoPosition, s: int) -> str:
    holder = pos.holder(s)
    return "." if holder < 0 else str(holder + 1)  # numbers shown to people start at 1


ROLL_NOTE = Phrase("jeocinco.note.roll", "Roll: {roll}")
PIECES_NOTE = Phrase("jeocinco.note.pieces", "Pieces to place: {rolled} by the roll and {extra} extra")
DISPUTE_NOTE = Phrase("jeocinco.note.dispute", "Dispute over {slot}: {challenger} challenges {challenged}")


def notes(view: dict[str, Any]) -> list[Message]:
    """What a display says beside the picture: the roll, the pieces to place, a dispute."""
    out: list[Message] = []
    if view.get("roll"):
        out.append(ROLL_NOTE(roll=B.rolled(view["roll"])))
    if view.get("pieces_to_place"):
        out.append(PIECES_NOTE(**view["pieces_to_place"]))
    if view.get("dispute"):
        d = view["dispute"]
        out.append(DISPUTE_NOTE(slot=d["slot"], challenger=f"player {d['challenger']}",
                                challenged=f"player {d['challenged']}"))
    return out
