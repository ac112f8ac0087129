"""Contigo's picture, which lives with its engine (:mod:`controller.games.contigo.picture`): the
names the display draws it by."""

from controller.games.contigo.picture import FILL, channel_xy, render_svg

__all__ = ["FILL", "channel_xy", "render_svg"]
