"""What games say to players: coded messages and the phrases that make them.

A :class:`Message` is a stable ``code`` with its ``params``; a :class:`Phrase` declares one kind of
message, once, in its game's vocabulary (:data:`VOCABULARY`, what the gettext catalogues
translate). Announcements (what a move made happen) and the way a picture says its words (``Say``)
are messages too. Part of the game API (``controller.games.base`` re-exports these names).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from html import escape
from typing import Any, Final, Literal, NotRequired, TypeAlias, TypedDict, TypeGuard, get_args

AnnouncementType = Literal["capture", "tower", "dispute", "bridge_lost", "crash", "ate", "sync", "aligned", "pin"]
ANNOUNCEMENTS: Final[tuple[AnnouncementType, ...]] = get_args(AnnouncementType)
"""The kinds of things ``State.announcements`` may report (each becomes an MQTT event type)."""


Param: TypeAlias = "str | Message | tuple[Message, ...]"
"""A message's param: a word or number in the game's notation, or what is said inside the message."""


@dataclass(frozen=True)
class Message:
    """Something said to players, as a stable ``code`` with its ``params``: a refusal, an
    announcement. Each param is already in the game's own notation (``g8``, ``C3N``, ``n-a``, a
    player's name), never an internal index; a param may itself be a message, or a tuple of them (the
    clauses of a violation, said joined by ``; ``). :attr:`text` is the English sentence, rendered
    from the code's template; a translation renders its own template of the same code
    (``controller.i18n``)."""

    code: str
    """``<game>.<what>`` (``jeocinco.slot_taken``) or ``game.<what>`` for what every game says."""
    template: str
    """The English sentence with ``{param}`` fields: what translations are keyed on."""
    params: Mapping[str, Param]
    plural: str = ""
    """The English sentence for a ``count`` other than 1, for a message said by a number (:class:`Plural`)."""

    @property
    def text(self) -> str:
        return self.english.format_map({k: said(v) for k, v in self.params.items()})

    @property
    def english(self) -> str:
        """The English template for this message's ``count`` (the singular unless it is a plural)."""
        return self.plural if self.plural and self.params.get("count") != "1" else self.template

    def to_json(self) -> dict[str, Any]:
        """The ``code`` and ``params`` (for MQTT, for a picture's words): inner messages as
        ``{code, params}``, clauses as lists."""
        return {"code": self.code, "params": {k: _param_json(v) for k, v in self.params.items()}}

    def __str__(self) -> str:
        return self.text


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple):
        return [m.to_json() for m in value]
    return value


def said(param: Param) -> str:
    """A param in English: itself, a message's text, the clauses of a tuple joined by ``; ``."""
    if isinstance(param, tuple):
        return "; ".join(m.text for m in param)
    return param.text if isinstance(param, Message) else param


VOCABULARY: Final[dict[str, Phrase]] = {}
"""Every :class:`Phrase` declared, by code (a code has one template): what the catalogues translate."""


@dataclass(frozen=True)
class Phrase:
    """A kind of :class:`Message`, declared once per game (a table of them is the game's
    vocabulary): ``SLOT_TAKEN = Phrase("jeocinco.slot_taken", "{slot} is taken")``, then
    ``SLOT_TAKEN(slot="C3N-C3E")`` is the message. Params are said as text, except messages and
    tuples of them, which stay messages (each translated in its turn)."""

    code: str
    template: str

    def __post_init__(self) -> None:
        known = VOCABULARY.setdefault(self.code, self)
        if known.template != self.template:
            raise ValueError(f"the code {self.code} is declared twice: {known.template!r} and {self.template!r}")

    def __call__(self, **params: object) -> Message:
        return Message(self.code, self.template,
                       {k: v if _is_said(v) else str(v) for k, v in params.items()})


@dataclass(frozen=True)
class Plural(Phrase):
    """A phrase said by a number, its ``count`` param: ``BEADS = Plural("contigo.beads", "{count}
    bead", "{count} beads")``. The catalogues hold its forms in each language (gettext's plurals)."""

    plural: str

    def __call__(self, **params: object) -> Message:
        return replace(super().__call__(**params), plural=self.plural)


def _is_said(value: object) -> TypeGuard[Message | tuple[Message, ...]]:
    return isinstance(value, Message) or (isinstance(value, tuple) and all(isinstance(m, Message) for m in value))


class Announcement(TypedDict):
    """Something a move made happen that players and displays want announced: ``text`` in English,
    and the same as a stable ``code`` with its ``params`` (:class:`Message`), for a display to say
    in its own language."""

    type: AnnouncementType
    player: int | None
    text: str
    code: NotRequired[str]
    params: NotRequired[dict[str, str]]


def announcement(kind: AnnouncementType, player: int | None, message: Message) -> Announcement:
    """An :class:`Announcement` of ``message`` (its text, code and params)."""
    return {"type": kind, "player": player, "text": message.text, "code": message.code,
            "params": {k: said(v) for k, v in message.params.items()}}



# --------------------------------------------------------------------------- pictures' words

Say: TypeAlias = Callable[[Message], str]
"""How a picture says its words: in a terminal's or a page's language, players named (the caller's
``controller.i18n.say``); in English (:func:`in_english`) where no caller says otherwise."""


def in_english(message: Message) -> str:
    """A message as :attr:`Message.text` says it."""
    return message.text


def svg_said(tag: str, message: Message, say: Say, attributes: str = "") -> str:
    """An SVG element (``text``, ``title``, ``tspan``) whose words are ``message`` said by ``say``,
    carrying its code and params (``data-code``, ``data-params``): a page re-says it in its own
    language and names."""
    params = json.dumps(message.to_json()["params"], ensure_ascii=False, separators=(",", ":"))
    params = escape(params, quote=False).replace("'", "&#39;")  # in single quotes: JSON's own stay short
    marked = f'data-code="{escape(message.code)}" data-params=\'{params}\''
    return f"<{tag} {attributes + ' ' if attributes else ''}{marked}>{escape(say(message))}</{tag}>"
