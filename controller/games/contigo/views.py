"""What Contigo's positions look like: the channels' values, the public view, announcements, the
terminal picture. Everything on a Contigo board is public (no private view)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.base import CHANCE, Action, Announcement, Message, Phrase, Say, announcement, in_english
from controller.games.contigo.actions import Beads, Drop, Take, is_beads, is_hand_action, is_pawn
from controller.games.contigo.board import (
    COLORS,
    PIT_CHANNELS,
    PIT_INDEX,
    PIT_NAMES,
    PIT_OF_CHANNEL,
    SIZE,
    SQUARE_CHANNELS,
    SQUARE_NAMES,
    TEXT_CHANCE,
    TEXT_DRAW,
    TEXT_TURN,
    TEXT_WINS,
    owner,
    to_move,
)
from controller.games.contigo.position import ACW, CW, Hand, Position, piece_char, position_text
from controller.games.contigo.rules import BEADS, CAPTURES


def physical_view(position: Position) -> dict[str, int]:
    """The piece code of every square and the bead count of every pit."""
    view = dict(zip(SQUARE_CHANNELS, position.board, strict=True))
    view.update(zip(PIT_CHANNELS, position.pits, strict=True))
    return view


def announcements(position: Position, action: Action, after: Position) -> list[Announcement]:
    """A capture (the legal ``action`` led from ``position`` to ``after``)."""
    if is_pawn(action) and after.captured != position.captured:
        return [announcement("capture", position.player,
                             CAPTURES(player=f"player {position.player}", square=SQUARE_NAMES[action[2]]))]
    return []


def bead_changes(position: Position, action: Action) -> dict[str, int] | None:
    """The pits a bead action changes, with their counts after it; None for any other action.
    The referee asks this for every legal action, and a capture-game bead phase can have
    thousands: a bead move only changes pit counts, read straight off the action."""
    if type(action) is Take:  # legal_actions()' own values, told apart by type before any shape check
        return {PIT_CHANNELS[action.pit]: position.pits[action.pit] - action.beads}
    if type(action) is Drop:
        return {PIT_CHANNELS[action.pit]: position.pits[action.pit] + action.beads}
    if type(action) is Beads and len(action.drops) == 1 and position.phase == "beads":  # all k into one pit
        src, ((dst, k),) = action[1:]
        if dst != src:
            counts = position.pits
            return {PIT_CHANNELS[src]: counts[src] - k, PIT_CHANNELS[dst]: counts[dst] + k}
    if is_hand_action(action):
        change = -action[2] if action[0] == "t" else action[2]
        return {PIT_CHANNELS[action[1]]: position.pits[action[1]] + change}
    if position.phase == "beads" and is_beads(action):
        _, src, drops = action
        pits = dict.fromkeys((src, *(dst for dst, _ in drops)), 0)
        for dst, c in drops:
            pits[src] -= c
            pits[dst] += c
        return {PIT_CHANNELS[i]: position.pits[i] + d for i, d in pits.items() if d}
    return None


def actions_for_changes(position: Position, changes: Mapping[str, int]) -> list[Action] | None:
    """The capture game's pick-up and drops that change the pits by ``changes``, however many of
    them the board shows at once (slow bead-count sensors settle together): the one pit that lost
    beads is the pick-up (or more from the pit already picked from, before any drop), each pit
    that gained is a drop of what it gained. The referee checks each against the legal actions."""
    if not position.variant.capture or position.phase not in ("beads", "drop"):
        return None
    lost: list[tuple[int, int]] = []
    gained: list[tuple[int, int]] = []
    for channel, value in changes.items():
        pit = PIT_OF_CHANNEL.get(channel)
        if pit is None:
            return None
        delta = value - position.pits[pit]
        if delta:
            (gained if delta > 0 else lost).append((pit, abs(delta)))
    hand = position.hand
    if len(lost) > 1 or (position.phase == "beads" and not lost):
        return None
    if lost and hand is not None and (lost[0][0] != hand.pit or hand.left < hand.taken):
        return None
    src = lost[0][0] if hand is None else hand.pit
    taken = (lost[0][1] if lost else 0) + (hand.taken if hand is not None else 0)
    held = Hand(src, taken, taken - (hand.taken - hand.left if hand is not None else 0), CW | ACW)
    if sum(count for _, count in gained) > held.left or not all(held.reaches(pit) for pit, _ in gained):
        return None  # more beads dropped than picked up, or beyond the range: no spread
    out: list[Action] = [Take("t", *lost[0])] if lost else []
    return out + [Drop("d", pit, count) for pit, count in sorted(gained)]


def public_view(position: Position) -> dict[str, Any]:
    board = {}
    for s, code in enumerate(position.board):
        if code:
            board[SQUARE_NAMES[s]] = {"player": COLORS[owner(code)], "double": not code & 1}
    return {
        "game": "contigo",
        "options": dict(position.variant.options),
        "players": list(COLORS[: position.variant.n]),
        "to_move": COLORS[position.player] if position.player >= 0 else None,
        "phase": position.phase,
        "turn": position.turn,
        "turn_limit": position.variant.turn_limit,
        "rounds": position.variant.rounds,
        "board": board,
        "pits": dict(zip(PIT_NAMES, position.pits, strict=True)),
        "captured": dict(zip(COLORS, position.captured, strict=False)),
        "hand": None if position.hand is None else {
            "pit": PIT_NAMES[position.hand.pit], "taken": position.hand.taken, "in_hand": position.hand.left,
            "directions": {CW | ACW: ["clockwise", "anticlockwise"], CW: ["clockwise"],
                           ACW: ["anticlockwise"]}[position.hand.ways]},
        "result": None if position.result is None else ("draw" if position.result < 0 else COLORS[position.result]),
        "position": position_text(position),
    }


TEXT_DROP = Phrase("contigo.text.drop", "{player} to drop {beads} taken from {pit} (range {range})")
TEXT_CAPTURED = Phrase("contigo.text.captured", "captured {captured}")


def render_text(position: Position, say: Say = in_english) -> str:
    pits = position.pits

    def pit(name: str) -> str:
        return f"{pits[PIT_INDEX[name]]:>3}"

    lines = []
    lines.append("     " + pit("nw") + "".join(pit(f"n-{f}") for f in "abcdef") + pit("ne"))
    for r in range(SIZE, 0, -1):
        row = "".join(f"{piece_char(position.board[(r - 1) * SIZE + f]):>3}" for f in range(SIZE))
        lines.append(f"  {r}  {pit(f'w-{r}')}{row}{pit(f'e-{r}')}")
    lines.append("     " + pit("sw") + "".join(pit(f"s-{f}") for f in "abcdef") + pit("se"))
    lines.append("        " + "".join(f"{f:>3}" for f in "abcdef"))
    if position.player >= 0 and position.hand is not None:
        status = TEXT_DROP(player=f"player {position.player}", beads=BEADS(count=position.hand.left),
                           pit=PIT_NAMES[position.hand.pit], range=position.hand.taken)
    elif position.player >= 0:
        status = to_move(position.player, position.phase)
    elif position.player == CHANCE:
        status = TEXT_CHANCE()
    else:
        status = (TEXT_DRAW() if position.result is None or position.result < 0
                  else TEXT_WINS(player=f"player {position.result}"))
    said = [say(TEXT_TURN(turn=position.turn, limit=position.variant.last_turn))]
    if position.variant.capture:
        said.append(say(TEXT_CAPTURED(captured="/".join(map(str, position.captured)))))
    lines.append(", ".join(said) + "; " + say(status))
    return "\n".join(lines)


PAWN_NOTE = Phrase("contigo.note.pawn", "Move a pawn")
BEADS_NOTE = Phrase("contigo.note.beads", "Move beads")


def notes(view: dict[str, Any]) -> list[Message]:
    """What a display says beside the picture: what the player on turn moves now (nothing once the
    game is over)."""
    if not view.get("phase") or view.get("result") is not None:
        return []
    return [PAWN_NOTE() if view["phase"] == "move" else BEADS_NOTE()]
