"""The MQTT commands, declared once: their fields, types, ranges, and when a command may run.

:func:`check` validates a request's arguments against this table before anything runs;
:func:`schema` turns the table into the JSON Schema of ``request/<command>``. The shipped
``controller/schemas/request.json`` (documentation and the display authors' contract) is checked
against :func:`schema` by a test, both ways, so the two can never disagree.

A request that carries an id runs once per game: :func:`request_key` says which requests are the
same, :class:`RecentAnswers` remembers their answers (the journal stores its rows, so a request
repeated after a crash gets its first answer again).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import Message, Phrase
from controller.seats import SEATS

SEED_MAX = 2**63 - 1
ACTION_TEXT_MAX = 200
SECRET_MAX = 128  # a phone seat's secret is 64 hex digits
JOIN_CODE_MAX = 2000  # a join code: the game, its options and seats, and the commitment
POSITION_MAX = 3000  # a position text: a few hundred characters (a request is at most 4096 bytes)
SEATS_MAX = 16  # more than any game's players
BUTTONS = ("confirm", "next")  # the table's buttons with no request of their own (roll, undo and hint have)
KEEP_ANSWERS = 1000  # requests remembered per board: far more than any client keeps in flight


class Refused(ValueError):
    """A request refused, for a reason told to whoever sent it: ``said``, a coded message that the
    answer says in the board's language (``controller.i18n``); ``str()`` is its English text."""

    def __init__(self, said: Message) -> None:
        super().__init__(said.text)
        self.said = said


class CommandError(Refused):
    """A request this table refuses: an unknown field, a missing or mistyped one, a value out of range."""


WRONG_TYPE = Phrase("request.wrong_type", "{command}: {field} has the wrong type")
OUT_OF_RANGE = Phrase("request.out_of_range", "{command}: {field} out of range")
TOO_LONG = Phrase("request.too_long", "{command}: {field} text too long")
NOT_ONE_OF = Phrase("request.not_one_of", "{command}: {field} must be {choices}")
TOO_MANY = Phrase("request.too_many", "{command}: {field} has more than {count} items")
EACH_NOT_ONE_OF = Phrase("request.each_not_one_of", "{command}: each of {field} must be {choices}")
UNKNOWN_COMMAND = Phrase("request.unknown_command", "unknown command {command}; commands: {commands}")
UNKNOWN_FIELDS = Phrase("request.unknown_fields", "{command}: unknown field(s) {fields}")
MISSING = Phrase("request.missing", "{command}: missing {field}")


@dataclass(frozen=True)
class Field:
    """One argument of a command."""

    types: tuple[type, ...]
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    choices: tuple[str, ...] = ()  # a text's values; a list's, each item's
    max_items: int | None = None
    description: str = ""

    def check(self, command: str, name: str, value: Any) -> None:
        if (isinstance(value, bool) and bool not in self.types) or not isinstance(value, self.types):
            raise CommandError(WRONG_TYPE(command=command, field=repr(name)))
        if isinstance(value, int) and not isinstance(value, bool):
            too_low = self.minimum is not None and value < self.minimum
            if too_low or (self.maximum is not None and value > self.maximum):
                raise CommandError(OUT_OF_RANGE(command=command, field=name))
        if isinstance(value, str):
            if self.max_length is not None and len(value) > self.max_length:
                raise CommandError(TOO_LONG(command=command, field=name))
            if self.choices and value not in self.choices:
                raise CommandError(NOT_ONE_OF(command=command, field=name,
                                              choices=" or ".join(repr(c) for c in self.choices)))
        if isinstance(value, list):
            if self.max_items is not None and len(value) > self.max_items:
                raise CommandError(TOO_MANY(command=command, field=name, count=self.max_items))
            for item in value:
                if not isinstance(item, str) or item not in self.choices:
                    allowed = " or ".join(repr(c) for c in self.choices)
                    raise CommandError(EACH_NOT_ONE_OF(command=command, field=name, choices=allowed))


@dataclass(frozen=True)
class Command:
    """One command: what it does, its fields, and whether it may run once the game is over."""

    description: str
    fields: dict[str, Field] = field(default_factory=dict)
    after_the_end: bool = False


COMMANDS: dict[str, Command] = {
    "new_game": Command(
        "start a new game (default: the same game, its fewest players, default options, a fresh secret for the dice)",
        {"game": Field((str,)),
         "num_players": Field((int,), minimum=0, description="0: the game's fewest"),
         "options": Field((dict,)),
         "seats": Field((list,), choices=SEATS, max_items=SEATS_MAX,
                        description="who plays each seat, in order; the seats not named are at the table"),
         "seed": Field((int,), minimum=-1, maximum=SEED_MAX, description="-1: a fresh secret nobody knows; "
                       "0 or more: dice from this seed, predictable (tests and demos)")},
        after_the_end=True),
    "join": Command(
        "join another board's remote game with its join code (docs/remote.md)",
        {"code": Field((str,), required=True, max_length=JOIN_CODE_MAX, description="the host board's join code"),
         "seats": Field((list,), choices=SEATS, max_items=SEATS_MAX,
                        description="who plays this board's seats, in order; the rest are at the table")},
        after_the_end=True),
    "undo": Command("undo the last action (and the chance steps that followed it)", after_the_end=True),
    "roll": Command("resolve the pending chance step electronically (only while one is pending)"),
    "enter": Command("enter the value of a physical die or card for the pending chance step",
                     {"value": Field((str, int), required=True,
                                     description="the outcome's text, or its last word (the die's value)")}),
    "choose": Command("apply this action (its text) for the player to act",
                      {"action": Field((str,), required=True, max_length=ACTION_TEXT_MAX)}),
    "play": Command("a phone seat's move (seat kind phone): checked against the seat's secret, then lit for the "
                    "table to carry out, as a computer player's move is",
                    {"seat": Field((int,), required=True, minimum=0, description="the seat, from 0"),
                     "secret": Field((str,), max_length=SECRET_MAX, description="the seat's secret, from its "
                                     "player/<n> topic: only the phone paired with the seat has it"),
                     "action": Field((str,), required=True, max_length=ACTION_TEXT_MAX)}),
    "consent": Command("a seat agrees to (or refuses) a takeback across a chance outcome already seen "
                       "(docs/rules/takebacks.md): a phone seat with its secret; the operator for a computer's seat",
                       {"seat": Field((int,), required=True, minimum=0, description="the seat, from 0"),
                        "secret": Field((str,), max_length=SECRET_MAX, description="a phone seat's secret"),
                        "agree": Field((bool,), description="false: the seat refuses the takeback (default: true)")}),
    "press": Command("press a table button from afar (Home Assistant, the operator): exactly what the board's own "
                     "button does; give each press its own id, so that a resend presses once",
                     {"button": Field((str,), required=True, choices=BUTTONS),
                      "held": Field((bool,), description="kept down, the button's second meaning: next goes back "
                                    "among the choices (a hint when there is none)")}),
    "hint": Command("the medium computer player's suggestion for the player to act: lit on the board, told as a "
                    "hint event, kept in the journal"),
    "resign": Command("the player resigns: the game is over", {"player": Field((int,), required=True, minimum=0)}),
    "configure": Command("change table settings",
                         {"allow_takeback": Field((bool,)), "chance": Field((str,), choices=("button", "auto"))},
                         after_the_end=True),
    "state": Command("answer with the current public state", after_the_end=True),
    "record": Command("answer with the game's record (docs/records.md): a game in play without its secret, and only "
                      "its public part unless private and the answer goes to the board's response/ tree",
                      {"private": Field((bool,), description="the hidden cards of a game in play too: for the "
                                        "operator only (the answer under the board's response/)")},
                      after_the_end=True),
    "show": Command("set up a game of the board's journal at the table, at a move, then light its moves one by one "
                    "for the table to step through; or set up a position text, and play goes on from it "
                    "(docs/records.md)",
                    {"game": Field((int,), minimum=1, description="the game's id in the journal (arbitro journal "
                                   "lists them)"),
                     "move": Field((int,), minimum=0, description="the position after this many actions (default 0: "
                                   "the start; more than the game has: its end)"),
                     "position": Field((str,), max_length=POSITION_MAX, description="instead of game: a position "
                                       "text (State.to_text: its game's name first, its options and players in it); "
                                       "one with hidden cards from the operator only")},
                    after_the_end=True),
}
READS = ("state", "record")
"""The requests that only read: they change nothing, commit nothing held and are never kept for repeats."""


def check(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments of request ``name`` once they fit the table (the request's ``id`` removed
    before); raises :class:`CommandError` naming what does not fit."""
    command = COMMANDS.get(name)
    if command is None:
        raise CommandError(UNKNOWN_COMMAND(command=repr(name[:64]), commands=", ".join(COMMANDS)))
    unknown = set(args) - set(command.fields)
    if unknown:
        raise CommandError(UNKNOWN_FIELDS(command=name, fields=", ".join(repr(f[:64]) for f in sorted(unknown))))
    for key, spec in command.fields.items():
        if key in args:
            spec.check(name, key, args[key])
        elif spec.required:
            raise CommandError(MISSING(command=name, field=repr(key)))
    return args


_JSON_TYPES = {str: "string", int: "integer", bool: "boolean", dict: "object", list: "array"}
REQUEST_ID = {"oneOf": [{"type": "string", "maxLength": 128}, {"type": "integer"}],
              "description": "echoed in the response"}


def _field_schema(spec: Field) -> dict[str, Any]:
    out: dict[str, Any]
    if list in spec.types:
        out = {"type": "array", "items": {"enum": list(spec.choices)}}
    elif spec.choices:
        out = {"enum": list(spec.choices)}
    else:
        names = [_JSON_TYPES[t] for t in spec.types]
        out = {"type": names[0] if len(names) == 1 else names}
    for key, value in (("minimum", spec.minimum), ("maximum", spec.maximum), ("maxLength", spec.max_length),
                       ("maxItems", spec.max_items)):
        if value is not None:
            out[key] = value
    if spec.description:
        out["description"] = spec.description
    return out


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``request/<name>``, made from the table."""
    command = COMMANDS[name]
    return {"description": command.description, "type": "object", "additionalProperties": False,
            "required": [k for k, f in command.fields.items() if f.required],
            "properties": {"id": REQUEST_ID, **{k: _field_schema(f) for k, f in command.fields.items()}}}


def request_key(command: str, request_id: object, args: dict[str, Any]) -> str:
    """What makes two requests the same request: command, id and arguments."""
    return json.dumps([command, request_id, args], sort_keys=True, separators=(",", ":"))


Answer = tuple[bool, Any, dict[str, Any] | None]
"""A request's answer as kept: ok, the result (or the refusal's English text), and the refusal's
``code`` and ``params`` (``Message.to_json``) when it was refused for a reason told in words."""


class RecentAnswers:
    """The answers to the current game's last :data:`KEEP_ANSWERS` requests that carried an id, kept
    in memory and (with a journal) on disk with the game's actions. A new game starts with none."""

    def __init__(self, *, persist: bool = False) -> None:
        self._persist = persist
        self._answers: OrderedDict[str, Answer] = OrderedDict()
        self._unsaved: list[tuple[str, str]] = []

    def load(self, answers: Sequence[tuple[str, str]]) -> None:
        """Take the answers the journal kept for the game resumed ((request key, answer JSON), oldest first)."""
        for key, answer in answers:
            ok, result, *said = json.loads(answer)  # kept before refusals had codes: [ok, result]
            self._answers[key] = (ok, result, said[0] if said else None)

    def clear(self) -> None:
        """Another game: what was answered in the last one means nothing in this one."""
        self._answers.clear()
        self._unsaved.clear()

    def get(self, key: str) -> Answer | None:
        return self._answers.get(key)

    def add(self, key: str, ok: bool, result: Any, said: dict[str, Any] | None = None) -> None:
        self._answers[key] = (ok, result, said)
        if len(self._answers) > KEEP_ANSWERS:
            self._answers.popitem(last=False)
        if self._persist:
            self._unsaved.append((key, json.dumps([ok, result, said])))

    def unsaved(self) -> list[tuple[str, str]]:
        """The answers not yet on disk ((request key, answer JSON)), for :meth:`BoardJournal.keep`."""
        return list(self._unsaved)

    def saved(self, count: int) -> None:
        """The first ``count`` of :meth:`unsaved` are on disk now."""
        del self._unsaved[:count]
