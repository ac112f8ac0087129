"""The names ``controller/display/render.py`` draws Jeocinco with, from before the picture moved to
:mod:`controller.games.jeocinco.picture` (they go once the display draws every game alike)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.jeocinco import picture
from controller.games.jeocinco.picture import STRONG
from controller.games.jeocinco.picture import to_picture as _xy

if TYPE_CHECKING:
    from controller.games.jeocinco.state import JeocincoState

__all__ = ["STRONG", "_xy", "render_svg"]


def render_svg(state: JeocincoState, highlight: tuple[str, ...] = ()) -> str:
    return picture.render_svg(state.position, highlight)
