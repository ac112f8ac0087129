"""What a Scriptorium position looks like: the sensors' view, the public view (no hidden
information: every player sees it all), the announcements of a move, and the terminal picture."""

from __future__ import annotations

from typing import Any

from controller.games.base import CHANCE, Announcement, Message, Phrase, Say, announcement, in_english
from controller.games.scriptorium.board import (
    CENTRE,
    COLOUR,
    COLOURS,
    ENCODER_CHANNELS,
    HUB,
    INNER,
    MIDDLE,
    OUTER,
    PART_NAMES,
    PHASE,
    SPACE_CHANNELS,
    TURN_NOTE,
    N,
    centre_meets_inner,
    location_text,
    meets_middle,
    player_name,
)
from controller.games.scriptorium.position import CHANCE_PHASES, PHASES, SETUP_PHASES, Position, position_to_text
from controller.games.scriptorium.rules import current_player, scores, waiting_for

PIN = Phrase("scriptorium.pin", "a black pin on {space}")
SYNC = Phrase("scriptorium.sync", "the {part} is in sync: the clock passes to the {next}")
ALIGNED = Phrase("scriptorium.aligned", "the rings are aligned: the board is frozen")

_EMPTY_VIEW = {**dict.fromkeys(ENCODER_CHANNELS, 0), **dict.fromkeys(SPACE_CHANNELS.values(), 0), "hub": 0}
SHORT_PHASE = {p: ("setup" if p in SETUP_PHASES else p) for p in PHASES}
"""The phase displays show (the four set-up phases are one)."""


def physical_view(position: Position) -> dict[str, int]:
    view = dict(_EMPTY_VIEW)
    for part in range(4):
        view[ENCODER_CHANNELS[part]] = position.offsets[part]
    hub = 0
    for p in position.pawns:
        if p == HUB:
            hub += 1
        else:
            view[SPACE_CHANNELS[p]] = 1
    for p in position.pins:
        view[SPACE_CHANNELS[p]] = 1
    view["hub"] = hub
    return view


def required_turn(position: Position) -> dict[str, Any] | None:
    """The rotation the table must carry out now, if any (for the LEDs)."""
    if position.phase == "rotate":
        return {"part": PART_NAMES[position.pending], "direction": "left", "spaces": position.number, "why": "die"}
    if position.phase == "clock":
        return {"part": PART_NAMES[position.active], "direction": "left", "spaces": 1, "why": "clock"}
    return None


def public_view(position: Position) -> dict[str, Any]:
    off = position.offsets
    n = position.players
    colours = {PART_NAMES[part]: [COLOURS[c] for c in COLOUR[part][off[part]]] for part in range(4)}
    targets = []
    if position.phase == "move":
        targets = [location_text(d) for d in position.targets(position.turn, position.die)]
    return {
        "game": "scriptorium",
        "position": position_to_text(position),
        "options": dict(position.options),
        "players": [player_name(p) for p in range(n)],
        "phase": SHORT_PHASE[position.phase],
        "turn": player_name(position.turn) if position.turn >= 0 and position.phase != "over" else None,
        "current_player": current_player(position),
        "round": position.rounds_played,
        "rounds_left": position.options["round_limit"] - position.rounds_played,
        "offsets": {PART_NAMES[p]: off[p] for p in range(4)},
        "colours": colours,
        "active_part": PART_NAMES[position.active],
        "aligned": position.aligned,
        "meets": {
            "centre_inner": centre_meets_inner(off),
            "inner_middle": list(meets_middle(off, INNER)),
            "outer_middle": list(meets_middle(off, OUTER)),
        },
        "pawns": {player_name(p): location_text(loc) for p, loc in enumerate(position.pawns)},
        "pins": [location_text(p) for p in position.pins],
        "visited": {player_name(p): position.visited(p) for p in range(n)},
        "die": COLOURS[position.die] if position.die >= 0 else None,
        "number": position.number or None,
        "required_turn": required_turn(position),
        "targets": targets,
        "pending_chance": position.phase if position.phase in CHANCE_PHASES else None,
        "winner": player_name(position.winner) if position.winner >= 0 else None,
        "scores": scores(position),
    }


def announcements(before: Position, after: Position) -> list[Announcement]:
    """What a move from ``before`` to ``after`` made happen: a black pin, the clock passing on, the
    rings aligning."""
    out: list[Announcement] = []
    if after.pins != before.pins and len(after.pins) > len(before.pins):
        out.append(announcement("pin", before.turn if before.turn >= 0 else None,
                                PIN(space=location_text(after.pins[-1]))))
    if after.active != before.active:
        out.append(announcement("sync", None, SYNC(part=PART_NAMES[before.active], next=PART_NAMES[after.active])))
    if after.aligned and not before.aligned:
        out.append(announcement("aligned", None, ALIGNED()))
    return out


TEXT_STATUS = Phrase("scriptorium.text.status", "Scriptorium {players}p  round {round}/{rounds}  phase {phase}  "
                     "active {part}  {aligned}")
TEXT_ALIGNED = Phrase("scriptorium.text.aligned", "ALIGNED")
TEXT_NOT_ALIGNED = Phrase("scriptorium.text.not_aligned", "not aligned")
TEXT_POSITIONS = Phrase("scriptorium.text.positions", "pos")
TEXT_PART = Phrase("scriptorium.text.part", "{part}")
TEXT_OFFSET = Phrase("scriptorium.text.offset", "offset {offset}")
TEXT_HUB = Phrase("scriptorium.text.hub", "hub: {pawns}")
TEXT_PAWN = Phrase("scriptorium.text.pawn", "{player}@{place} visited {visited}/2")
TEXT_WINNER = Phrase("scriptorium.text.winner", "winner: {player}")
TEXT_NO_WINNER = Phrase("scriptorium.text.no_winner", "winner: none (round limit)")
TEXT_TO_ACT = Phrase("scriptorium.text.to_act", "to act: {what}")
TEXT_WAITING = Phrase("scriptorium.text.waiting", "waiting for: {what}")


def render_text(position: Position, say: Say = in_english) -> str:
    off = position.offsets
    lines = [say(TEXT_STATUS(players=position.players, round=position.rounds_played,
                             rounds=position.options["round_limit"], phase=PHASE[position.phase](),
                             part=PART_NAMES[position.active],
                             aligned=TEXT_ALIGNED() if position.aligned else TEXT_NOT_ALIGNED()))]
    occupant: dict[int, list[str]] = {}
    for p, loc in enumerate(position.pawns):
        occupant.setdefault(loc, []).append(player_name(p)[0].upper())
    for pin in position.pins:
        occupant.setdefault(pin, []).append("#")
    lines.append(f"{say(TEXT_POSITIONS()):7} " + " ".join(f"{p:>4}" for p in range(N)))
    for part in (OUTER, MIDDLE, INNER, CENTRE):
        cells = []
        for p in range(N):
            c = COLOURS[COLOUR[part][off[part]][p]][0].upper()
            who = "".join(occupant.get(part * N + p, [])) if part != CENTRE else ""
            cells.append(f"{c + who:>4}")
        shift = " (+1/2)" if part == MIDDLE else ""
        lines.append(f"{say(TEXT_PART(part=PART_NAMES[part])):7} " + " ".join(cells)
                     + f"   {say(TEXT_OFFSET(offset=off[part]))}{shift}")
    hub = "".join(occupant.get(HUB, [])) or "-"
    lines.append(say(TEXT_HUB(pawns=hub)))
    status = [say(TEXT_PAWN(player=f"player {p}", place=location_text(loc), visited=position.visited(p)))
              for p, loc in enumerate(position.pawns)]
    lines.append("; ".join(status))
    if position.phase == "over":
        lines.append(say(TEXT_WINNER(player=f"player {position.winner}") if position.winner >= 0
                         else TEXT_NO_WINNER()))
    elif current_player(position) != CHANCE:
        lines.append(say(TEXT_TO_ACT(what=waiting_for(position))))
    else:
        lines.append(say(TEXT_WAITING(what=waiting_for(position))))
    return "\n".join(lines)


COLOUR_NOTE = Phrase("scriptorium.note.colour", "Colour die: {colour}")
COLOUR_NUMBER_NOTE = Phrase("scriptorium.note.colour_number", "Colour die: {colour}, number die: {number}")
ALIGNED_NOTE = Phrase("scriptorium.note.aligned", "Sync: ALIGNED, the board is frozen")
CLOCK_NOTE = Phrase("scriptorium.note.clock", "Sync clock: the {part} turns next (round {round})")



def notes(view: dict[str, Any]) -> list[Message]:
    """What a display says beside the picture: the dice, the sync clock, a turn the rings owe."""
    out: list[Message] = []
    if view.get("die"):
        out.append(COLOUR_NUMBER_NOTE(colour=view["die"], number=view["number"]) if view.get("number")
                   else COLOUR_NOTE(colour=view["die"]))
    out.append(ALIGNED_NOTE() if view.get("aligned") else CLOCK_NOTE(part=view["active_part"], round=view["round"]))
    if view.get("required_turn"):
        out.append(TURN_NOTE(**view["required_turn"]))
    return out
