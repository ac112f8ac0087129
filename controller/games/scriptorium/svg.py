"""The names ``controller.display.render`` draws Scriptorium with, now in :mod:`.picture`."""

from controller.games.scriptorium.picture import BANDS, FILL, render_svg
from controller.games.scriptorium.picture import centre_of as _centre_of

__all__ = ["BANDS", "FILL", "_centre_of", "render_svg"]
