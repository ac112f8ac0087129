"""Each game's board as SVG, drawn from nothing but a public ``state`` message.

Jeocinco and Scriptorium have no hidden information: their ``board_view.position`` is the engine's
position text, so the engine rebuilds the state and its own renderer draws it. Serpientes' public
position hides the cards and does not parse back, so its renderer gets a small stand-in built from
``board_view`` (tokens, snakes, scores: all public). Contigo is drawn by ``contigo_svg``.

Over the picture go rings: the ``targets`` the LEDs light for the player to act (orange), the
channels of a ``violation`` (red) and of a ``setup`` (white dashed).
"""

from __future__ import annotations

import json
import logging
from html import escape
from typing import Any

from controller.display import contigo_svg
from controller.games import BadPosition, get_game

log = logging.getLogger("arbitro.display")

Point = tuple[float, float]


def board_svg(state: dict[str, Any]) -> str:
    """The board of a public ``state`` message, with its targets, violation and setup marked."""
    view = state.get("board_view") or {}
    marks = {"target": state.get("targets") or [],
             "violation": (state.get("violation") or {}).get("channels", []),
             "setup": (state.get("setup") or {}).get("channels", [])}
    key = (state.get("game", ""), _freeze(view), tuple((k, tuple(v)) for k, v in marks.items()))
    return _cached_svg(key, view, marks)


def _freeze(view: dict[str, Any]) -> str:
    # The position text (where there is one) names the whole picture; otherwise the view itself.
    position = view.get("position")
    if isinstance(position, str) and view.get("game") != "serpientes":
        return position
    return json.dumps(view, sort_keys=True)


_cache: dict[tuple, str] = {}  # the hall page and every open board page share one picture per state


def _cached_svg(key: tuple, view: dict[str, Any], marks: dict[str, list[str]]) -> str:
    svg = _cache.get(key)
    if svg is None:
        svg = _draw(key[0], view, marks)
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = svg
    return svg


def _draw(game: str, view: dict[str, Any], marks: dict[str, list[str]]) -> str:
    try:
        drawer = DRAWERS[game]
    except KeyError:
        return message_svg(f"no picture for the game {game!r}")
    try:
        svg, place = drawer(view, marks["target"])
    except (BadPosition, ValueError, KeyError, TypeError, IndexError) as exc:
        log.warning("cannot draw %s: %s", game, exc)
        return message_svg(f"cannot draw this {game} position ({exc})")
    rings = []
    radius = MARK_RADIUS.get(game, 11)
    for kind, colour, dash in (("target", "#ff8c00", ""), ("setup", "#ffffff", ' stroke-dasharray="4 3"'),
                               ("violation", "#e00000", "")):
        for channel in marks[kind]:
            if kind == "target" and channel.startswith(DRAWN_TARGETS.get(game, ())):
                continue  # the engine's renderer rings these itself
            xy = place(channel)
            if xy is not None:
                rings.append(f'<circle class="mark {kind}" cx="{xy[0]:.1f}" cy="{xy[1]:.1f}" r="{radius}" fill="none" '
                             f'stroke="{colour}" stroke-width="4"{dash}><title>{escape(kind)}: '
                             f'{escape(channel)}</title></circle>')
    return svg.replace("</svg>", "\n".join([*rings, "</svg>"])) if rings else svg


MARK_RADIUS = {"contigo": 25}  # around a whole pit or man, leaving its bead count readable
DRAWN_TARGETS = {"jeocinco": ("slot:",), "scriptorium": ("pos:", "hub")}


def player_colours(state: dict[str, Any]) -> list[str]:
    """Each player's colour as the picture draws his pieces (the LED colour where the game has none)."""
    view = state.get("board_view") or {}
    game = state.get("game")
    colours = [p.get("colour", "#888888") for p in state.get("players", [])]
    try:
        if game == "jeocinco":
            from controller.games.jeocinco import board as B
            from controller.games.jeocinco.svg import STRONG

            for p in view["players"]:
                if p.get("colour"):
                    colours[p["player"]] = STRONG[B.COLOURS.index(p["colour"])]
        elif game == "scriptorium":
            from controller.games.scriptorium.svg import FILL

            colours = [FILL.get(name, c) for name, c in zip(view["players"], colours, strict=False)]
        elif game == "serpientes":
            from controller.games.serpientes.svg import COLOURS

            colours = [COLOURS[i % len(COLOURS)] for i in range(len(colours))]
        elif game == "contigo":
            colours = [contigo_svg.FILL.get(name, c) for name, c in zip(view["players"], colours, strict=False)]
    except (KeyError, ValueError, TypeError, IndexError):
        pass  # an unexpected view: the LED colours still tell the players apart
    return colours


def message_svg(text: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 60" width="400" height="60" '
            f'font-family="sans-serif"><text x="10" y="35" font-size="14">{escape(text)}</text></svg>')


# -- per game: (svg, where a channel sits) --------------------------------------------------------

def _contigo(view: dict[str, Any], targets: list[str]) -> tuple[str, Any]:
    return contigo_svg.render_svg(view), contigo_svg.channel_xy


def _jeocinco(view: dict[str, Any], targets: list[str]) -> tuple[str, Any]:
    from controller.games.jeocinco import board as B
    from controller.games.jeocinco import svg

    state = _parse("jeocinco", view["position"])
    slots = tuple(t.removeprefix("slot:") for t in targets if t.startswith("slot:"))

    def place(channel: str) -> Point | None:
        kind, _, name = channel.partition(":")
        if kind == "slot" and name in B.SLOT_INDEX:
            (ax, ay), (bx, by) = B.SLOT_ENDS[B.SLOT_INDEX[name]]
            return svg._xy((ax + bx) / 2, (ay + by) / 2)
        if kind == "tower" and name in B.PENT_NAMES:
            return svg._xy(*B.PENT_CENTRES[B.PENT_NAMES.index(name)])
        if kind == "bridge" and name in B.BRIDGE_NAMES:
            (px, py), (qx, qy) = B.BRIDGE_POINTS[B.BRIDGE_NAMES.index(name)]
            return svg._xy((px + qx) / 2, (py + qy) / 2)
        return None

    return svg.render_svg(state, highlight=slots), place


def _scriptorium(view: dict[str, Any], targets: list[str]) -> tuple[str, Any]:
    from controller.games.scriptorium import board as B
    from controller.games.scriptorium import svg

    state = _parse("scriptorium", view["position"])
    parts = {name: i for i, name in enumerate(B.PART_NAMES)}

    def place(channel: str) -> Point | None:
        kind, _, rest = channel.partition(":")
        if channel == "hub":
            return (0.0, 0.0)
        if kind == "pos":
            part, _, p = rest.partition(":")
            if part in parts and p.isdigit() and int(p) < B.N:
                return svg._centre_of(parts[part] * B.N + int(p))
        if kind == "enc" and rest in parts:  # a ring to turn: mark it at the top
            lo, hi = svg.BANDS[parts[rest]]
            return (0.0, -(lo + hi) / 2)
        return None

    return svg.render_svg(state), place


class _SerpientesView:
    """What ``serpientes.svg.render_svg`` reads of a state, from the public ``board_view``."""

    def __init__(self, view: dict[str, Any]) -> None:
        from controller.games.serpientes import board as B

        def node(name: str) -> int:
            return (int(name[1:]) - 1) * B.SIZE + B.COLUMNS.index(name[0])

        self._view = view
        self.num_players = len(view["snakes"])
        self.tokens = {node(t) for t in view["tokens"]}
        self._snakes = [[node(n) for n in s["intersections"]] for s in view["snakes"]]
        self.turn_player = view["turn_player"]
        self.phase = view["phase"]

    def snake(self, p: int) -> list[int]:
        return self._snakes[p]

    def sticks(self, p: int) -> int:
        return int(self._view["snakes"][p]["sticks"])

    def scores(self) -> list[float]:
        return list(self._view["scores"])

    def public_view(self) -> dict[str, Any]:
        return self._view


def _serpientes(view: dict[str, Any], targets: list[str]) -> tuple[str, Any]:
    from controller.games.serpientes import svg

    def place(channel: str) -> Point | None:
        kind, *rest = channel.split(":")
        if kind == "pt" and len(rest) == 2:
            r, c = map(int, rest)
            return svg.MARGIN + c * svg.CELL, svg.MARGIN + r * svg.CELL
        if kind == "edge" and len(rest) == 3:  # edge:h:r:c joins (r,c)-(r,c+1); edge:v:r:c joins (r,c)-(r+1,c)
            r, c = int(rest[1]), int(rest[2])
            dx, dy = (0.5, 0.0) if rest[0] == "h" else (0.0, 0.5)
            return svg.MARGIN + (c + dx) * svg.CELL, svg.MARGIN + (r + dy) * svg.CELL
        return None

    return svg.render_svg(_SerpientesView(view)), place


DRAWERS = {"contigo": _contigo, "jeocinco": _jeocinco, "scriptorium": _scriptorium, "serpientes": _serpientes}


def _parse(game: str, position: str) -> Any:
    return get_game(game).state_from_text(position)
