"""Every game's board as SVG, drawn from nothing but a public ``state`` message.

The game draws its board from the public ``board_view``, the ``targets`` the LEDs light for the
player to act shown its own way (``Game.picture``). Over that picture go the rings of the channels
of a ``violation`` (red) and of a ``setup`` (white dashed), where the picture places each channel
(``Game.channel_xy``, ``Game.mark_radius``). Nothing here tells one game from another.

The picture's words are said in the board's language (the state's ``language``), players named by
colour, else seat from 1; each carries its code and params (``base.svg_said``), so that a page says
them again in its own language, with the names it was given (``display.js``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from controller.games import BadPosition, get_game
from controller.games.base import NO_COLOUR_HEX, ChannelKind, MarkKind, Message, Phrase, Say, ring_marks, svg_said
from controller.i18n import LANGUAGES, People, saying

log = logging.getLogger("arbitro.display")

OVERLAY: tuple[MarkKind, ...] = ("setup", "violation")
"""The marks the display rings over a game's picture (the targets the picture shows itself)."""
NO_PICTURE = Phrase("display.no_picture", "no picture for the game {game}")
CANNOT_DRAW = Phrase("display.cannot_draw", "cannot draw this {game} position")


def board_svg(state: dict[str, Any]) -> str:
    """The board of a public ``state`` message, with its targets, violation and setup marked."""
    view = state.get("board_view") or {}
    marks = {"target": state.get("targets") or [],
             "violation": (state.get("violation") or {}).get("channels", []),
             "setup": (state.get("setup") or {}).get("channels", [])}
    language = str(state["language"]) if state.get("language") in LANGUAGES else "en"
    key: PictureKey = (str(state.get("game", "")), json.dumps(view, sort_keys=True),
                       tuple((k, tuple(v)) for k, v in marks.items()), language,
                       json.dumps(state.get("players") or [], sort_keys=True))
    return _cached_svg(key, view, marks)


PictureKey = tuple[str, str, tuple[tuple[str, tuple[str, ...]], ...], str, str]
"""A picture's game, its public view as JSON, its marks, its language and its players as JSON."""
_cache: dict[PictureKey, str] = {}  # the hall page and every open board page share one picture per state
PICTURES_KEPT = 32  # they ask for it within moments of each other: a few suffice (each is 8-24 KB)


def _cached_svg(key: PictureKey, view: dict[str, Any], marks: dict[str, list[str]]) -> str:
    svg = _cache.get(key)
    if svg is None:
        svg = _draw(key[0], view, marks, key[3], json.loads(key[4]))
        if len(_cache) >= PICTURES_KEPT:
            _cache.clear()
        _cache[key] = svg
    return svg


def _draw(name: str, view: dict[str, Any], marks: dict[str, list[str]], language: str,
          players: list[Any]) -> str:
    try:
        game = get_game(name)
    except KeyError:
        return message_svg(NO_PICTURE(game=repr(name)), saying(language))
    try:
        say = saying(language, People.of(players, language))
        picture = game.picture(view, marks["target"], say)
        overlay = [(kind, channel) for kind in OVERLAY for channel in marks[kind]]
        return ring_marks(picture, overlay, game.channel_xy, game.mark_radius, say)
    except (BadPosition, ValueError, KeyError, TypeError, IndexError) as exc:
        log.warning("cannot draw %s: %s", name, exc)  # what went wrong is the operator's: the page says only that
        return message_svg(CANNOT_DRAW(game=game.title), saying(language))


def channel_points(name: str, channels: Iterable[str]) -> dict[str, list[float]]:
    """Where each of ``channels`` sits in the game's picture (``Game.channel_xy``), those it places:
    the seat page puts its tap targets there."""
    try:
        game = get_game(name)
    except KeyError:
        return {}
    return {c: [xy[0], xy[1]] for c in channels if (xy := game.channel_xy(c)) is not None}


def counted_channels(name: str, options: dict[str, Any], num_players: int, channels: Iterable[str]) -> list[str]:
    """Those of ``channels`` that count (a pit's beads): tapping one again on the seat page adds one
    more, so a move that puts things there waits for its send button (docs/display.md)."""
    try:
        counting = {c.name for c in get_game(name).channels(options, num_players) if c.kind == ChannelKind.COUNT}
    except (KeyError, ValueError):
        return []
    return sorted(set(channels) & counting)


def action_faces(name: str, texts: Iterable[str]) -> dict[str, str]:
    """The moves among ``texts`` the game draws as what they are (``Game.action_face``): the seat
    page's buttons show the drawing beside the words."""
    try:
        game = get_game(name)
    except KeyError:
        return {}
    return {text: face for text in texts if (face := game.action_face(text)) is not None}


def player_colours(state: dict[str, Any]) -> list[str]:
    """Each player's colour as the pictures draw his pieces: the game's own (``players``, from
    ``State.player_info``), which every picture draws with (``base.COLOUR_HEX``)."""
    return [p.get("colour", NO_COLOUR_HEX) for p in state.get("players", [])]


def message_svg(message: Message, say: Say) -> str:
    """A picture saying ``message`` instead of a board (with its code, as a picture's words are)."""
    text = svg_said("text", message, say, 'x="10" y="35" font-size="14"')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 60" width="400" height="60" '
            f'font-family="sans-serif">{text}</svg>')
