"""The picture's old home, still read by ``controller.display.render`` (see ``picture``)."""

from controller.games.serpientes.picture import CELL, COLOURS, MARGIN, render_svg

__all__ = ["CELL", "COLOURS", "MARGIN", "render_svg"]
