"""The players' language: what arbitro says, rendered at the edge in Spanish or English.

Engines, the referee and the session speak in :class:`~controller.games.base.Message` values (a
stable ``code``, its English template and its ``params``). Where something leaves for people — an
event or a state published on MQTT, a line on the terminal — :func:`say` renders it in the board's
language (``board.language``) from the gettext catalogues in ``controller/locale/`` (msgctxt = the
code, msgid = the English template; ``python -m controller.locale`` extracts and compiles them).

People, not indices: a player is named by his name, else by his colour ("rojo"), else by his seat
counted from 1 ("jugador 1"); :class:`People` holds those labels for one game.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

from controller.games.base import COLOUR_HEX, VOCABULARY, Message, Param, Phrase, PlayerInfo, Say
from controller.games.words import notation

LANGUAGES: Final = ("es", "en")
"""The languages arbitro speaks: Spanish (the players' and the seed texts'), English (the code's)."""
DOMAIN: Final = "arbitro"
LOCALE_DIR: Final = Path(__file__).with_name("locale")

# -- words said inside sentences: colours, parts, directions (params an engine gives in English)
WORDS: Final = (
    Phrase("word.red", "red"), Phrase("word.orange", "orange"), Phrase("word.yellow", "yellow"),
    Phrase("word.green", "green"), Phrase("word.blue", "blue"), Phrase("word.violet", "violet"),
    Phrase("word.brown", "brown"), Phrase("word.cyan", "cyan"), Phrase("word.white", "white"),
    Phrase("word.black", "black"), Phrase("word.purple", "purple"), Phrase("word.centre", "centre"),
    Phrase("word.inner", "inner"), Phrase("word.middle", "middle"), Phrase("word.outer", "outer"),
    Phrase("word.hub", "hub"), Phrase("word.left", "left"), Phrase("word.right", "right"),
    Phrase("word.straight", "straight"), Phrase("word.north", "north"), Phrase("word.east", "east"),
    Phrase("word.south", "south"), Phrase("word.west", "west"), Phrase("word.none", "none"),
    Phrase("word.yes", "yes"), Phrase("word.no", "no"), Phrase("word.die", "die"), Phrase("word.clock", "clock"),
    Phrase("word.disk_full", "disk full"), Phrase("word.read_only", "read-only"),
)
WORD_OF: Final = {p.template: p for p in WORDS}
PLAYER: Final = Phrase("word.player", "player {number}")
AND: Final = Phrase("word.and", "{items} and {last}")
NOBODY: Final = Phrase("word.nobody", "nobody")

_SEAT = re.compile(r"player (\d+)(?: \([A-Za-z]+\))?")
"""How engines name a seat in a param (``player 0``, ``player 0 (N)``): said as the person."""


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (``controller/locale/<language>/LC_MESSAGES/arbitro.mo``)."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalogue for language {language!r}: arbitro speaks {', '.join(LANGUAGES)}")
    return gettext.translation(DOMAIN, LOCALE_DIR, [language])


def template(code: str, english: str, language: str) -> str:
    """The template of ``code`` in ``language`` (``english`` where it has none, as in English)."""
    return catalogue(language).pgettext(code, english)


@dataclass(frozen=True)
class People:
    """How one game's players are named in one language, by seat index."""

    labels: tuple[str, ...]
    language: str = "en"

    @classmethod
    def of(cls, players: Sequence[PlayerInfo], language: str, names: Sequence[str] = ()) -> People:
        """A name given (a display's), else the colour of his pieces, else his seat from 1."""
        labels = []
        for p in players:
            i = p["index"]
            name = names[i].strip() if i < len(names) and names[i] else ""
            colour = colour_name(p["colour"])
            labels.append(name or (word(colour, language) if colour else seat(i, language)))
        return cls(tuple(labels), language)

    def __getitem__(self, index: int) -> str:
        return self.labels[index] if 0 <= index < len(self.labels) else seat(index, self.language)


def colour_name(hex_: str) -> str | None:
    """The English word of a player's colour (``#rrggbb``, ``State.player_info``): ``red``; None for a
    colour the game has not given yet (grey) or one no word names."""
    return _COLOUR_OF.get(hex_)


_COLOUR_OF: Final = {hex_: name for name, hex_ in COLOUR_HEX.items()}


def seat(index: int, language: str) -> str:
    """``jugador 1`` for seat 0: numbers shown to people start at 1."""
    return say(PLAYER(number=index + 1), language)


def word(english: str, language: str) -> str:
    """A word the catalogue knows (a colour, a part, a direction), in ``language``; else as it is."""
    phrase = WORD_OF.get(english)
    return english if phrase is None else template(phrase.code, phrase.template, language)


def listing(items: Sequence[str], language: str) -> str:
    """``a``, ``a y b``, ``a, b y c``; ``nadie`` for none."""
    if not items:
        return say(NOBODY(), language)
    if len(items) == 1:
        return items[0]
    return say(AND(items=", ".join(items[:-1]), last=items[-1]), language)


def say(message: Message, language: str, people: People | None = None) -> str:
    """``message`` in ``language``: its code's template there (the form for its ``count``, where it
    is said by a number), its params said there too."""
    if message.plural:
        count = int(str(message.params["count"]))
        text = catalogue(language).npgettext(message.code, message.template, message.plural, count)
    else:
        text = template(message.code, message.template, language)
    return text.format_map({k: _param(v, language, people) for k, v in message.params.items()})


def saying(language: str, people: People | None = None) -> Say:
    """:func:`say` in ``language`` as a picture's ``say`` (``State.render_text``, ``Game.picture``)."""
    return lambda message: say(message, language, people)


def _param(value: Param, language: str, people: People | None) -> str:
    if isinstance(value, Message):
        return say(value, language, people)
    if isinstance(value, tuple):
        return "; ".join(say(m, language, people) for m in value)
    seat_named = _SEAT.fullmatch(value)
    if seat_named:
        index = int(seat_named.group(1))
        return people[index] if people is not None else seat(index, language)
    return word(value, language)


def as_json(message: Message) -> dict[str, Any]:
    """A message's ``code`` and ``params`` for MQTT: nested messages as ``{code, params}``, clauses as lists."""
    return message.to_json()


def message_of(code: str, params: Mapping[str, Any]) -> Message:
    """The message a ``code`` and its params (as :func:`as_json` wrote them) stand for."""
    phrase = VOCABULARY.get(code)
    if phrase is None:
        raise KeyError(f"no phrase has the code {code!r}")
    return phrase(**{k: _param_of(v) for k, v in params.items()})


def _param_of(value: Any) -> Param:
    if isinstance(value, dict):
        return message_of(value["code"], value["params"])
    if isinstance(value, list):
        return tuple(message_of(v["code"], v["params"]) for v in value)
    return str(value)


# -- events: what each one says (an announcement or a refusal brings its own message) ---------------
NOTICE = Phrase("event.notice", "{message}")
"""A service notice told in plain text (the journal, the sensor board's wiring): for the operator."""
LINK_UP = Phrase("event.link_up", "the sensor board is connected")
LINK_DOWN = Phrase("event.link_down", "the sensor board is disconnected: {reason}")
TAKEBACK = Phrase("event.takeback", "taken back from the board: {actions}")
UNDO = Phrase("event.undo", "{action} undone")
RESOLVED = Phrase("event.resolved", "the board is right again")
WINS = Phrase("event.wins", "game over: {winners} wins")
WIN = Phrase("event.win", "game over: {winners} win")
NO_WINNER = Phrase("event.no_winner", "game over: nobody wins")
NEW_GAME = Phrase("event.new_game", "a new game of {game} for {count} players")
CHOICE = Phrase("event.choice", "choice {index} of {of}: {action}")
RESIGNS = Phrase("event.resign", "{player} resigns")


def event_message(event: Mapping[str, Any], people: People, language: str,
                  movers: Mapping[int, int | None] | None = None) -> Message:
    """What an event (as the session queued it) says, as a message; ``movers`` (move number -> who
    made it) says an undone move in words."""
    kind = event["type"]
    if event.get("code") in VOCABULARY:  # said by the referee, the table or the rules engine (an announcement)
        return message_of(event["code"], event.get("params", {}))
    if "code" in event:  # a code nobody declared (a game of the tests): its English, not lost
        return NOTICE(message=event.get("message", event.get("text", "")))
    if "message" in event:
        return NOTICE(message=event["message"])
    if kind == "link":
        return LINK_UP() if event.get("up") else LINK_DOWN(reason=event.get("reason", ""))
    if kind in ("action", "chance"):
        return event_words(event)
    if kind == "takeback":
        return TAKEBACK(actions=", ".join(event["actions"]))
    if kind == "undo":
        undone = event["move"] + 1  # the move taken back (chance steps after it go with it)
        if movers is not None and undone in movers:
            return UNDO(action=action_words(str(event.get("game", "")), str(event["action"]), movers[undone]))
        return UNDO(action=event["action"])
    if kind == "game_over":
        winners = [people[w] for w in event.get("winners", [])]
        phrase = NO_WINNER if not winners else WINS if len(winners) == 1 else WIN
        return phrase(winners=listing(winners, language))
    if kind == "new_game":
        from controller.games import get_game  # the registry imports every engine: only when asked

        return NEW_GAME(game=get_game(event["game"]).title, count=event["num_players"])
    if kind == "choice":
        return CHOICE(index=event["index"] + 1, of=event["of"], action=event_words(event))
    if kind == "resign":
        return RESIGNS(player=people[event["player"]])
    return RESOLVED()


WITH_AN_ACTION: Final = ("action", "chance", "expected", "hint", "choice")
"""The events about one action (its notation in ``action``, or ``outcome`` for chance): said in words too."""


@lru_cache(maxsize=64)
def action_words(game: str, text: str, player: int | None) -> Message:
    """The public action ``text`` of ``game`` in words (``Game.action_words``): ``player``'s move, or
    None for a chance outcome; the notation itself for a game the registry does not know. Kept for
    the last few: a move told is said by its event, its words and the state's last action (a game's
    words depend on the text and the player alone; a message is a frozen value)."""
    from controller.games import get_game  # the registry imports every engine: only when asked

    try:
        return get_game(game).action_words(text, player)
    except KeyError:
        return notation(text, player)


def _about(event: Mapping[str, Any]) -> tuple[str, str, int | None]:
    """The game, the action's text and its mover (None: chance) of an event about one action."""
    if event["type"] == "chance":
        return str(event.get("game", "")), str(event["outcome"]), None
    player = event.get("player")
    return str(event.get("game", "")), str(event["action"]), player if isinstance(player, int) else None


def event_words(event: Mapping[str, Any]) -> Message:
    """What an event about one action (:data:`WITH_AN_ACTION`) says of it, in words."""
    return action_words(*_about(event))


def said_json(message: Message, language: str, people: People | None) -> dict[str, Any]:
    """A message for MQTT: its ``code`` and ``params`` (for a display to say in its language) and
    its ``text`` in ``language``."""
    return {**as_json(message), "text": say(message, language, people)}


@lru_cache(maxsize=64)
def said_words(game: str, text: str, player: int | None, language: str, people: People) -> dict[str, Any]:
    """:func:`action_words` as :func:`said_json` publishes them: worked out once for a move's event
    and again for the state that tells it as its last action (one dict for both: not to be changed)."""
    return said_json(action_words(game, text, player), language, people)


def speak_event(event: Mapping[str, Any], people: People, language: str,
                movers: Mapping[int, int | None] | None = None) -> dict[str, Any]:
    """An event as published: its ``text`` in ``language``, with the ``code`` and ``params`` it
    was said from (a display renders them in its own); a ``message`` it had is that text. An event
    about one action also says it in words, beside its notation: ``action_words``."""
    message = event_message(event, people, language, movers)
    words = said_words(*_about(event), language, people) \
        if event["type"] in WITH_AN_ACTION and ("action" in event or "outcome" in event) else None
    if words is not None and message is event_words(event):  # an action's event says its words: said once
        out = {**event, **words}
        text = words["text"]
    else:
        text = say(message, language, people)
        out = {**event, "text": text, **as_json(message)}
    if "message" in event:
        out["message"] = text
    if words is not None:
        out["action_words"] = words
    return out


def speak_state(state: Mapping[str, Any], people: People, language: str,
                movers: Mapping[int, int | None] | None = None) -> dict[str, Any]:
    """A public state as published: its players named as people (their names, else colours, else seats
    from 1, in ``language``), what its violation, set-up and notes say, in ``language``
    (with code and params); its ``last_action`` in words too (``last_action_words``), where
    ``movers`` (move number -> who made it, None: chance) tells who made it."""
    out = {**state, "language": language}
    if "players" in state:  # named as every text names them; a page says the colour in its own language
        out["players"] = [{**p, "name": people[p["index"]], "colour_name": colour_name(p["colour"])}
                          for p in state["players"]]
    last, moves = state.get("last_action"), state.get("moves")
    if last is not None and movers is not None and isinstance(moves, int) and moves in movers:
        out["last_action_words"] = said_words(str(state.get("game", "")), str(last), movers[moves], language, people)
    for key in ("violation", "setup"):
        marked = state.get(key)
        if marked is not None and "code" in marked:
            out[key] = {**marked, "message": say(message_of(marked["code"], marked["params"]), language, people)}
    out["notes"] = [{**note, "message": say(message_of(note["code"], note["params"]), language, people)}
                    for note in state.get("notes", [])]
    return out
