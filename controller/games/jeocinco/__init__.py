"""Jeocinco: a Cairo-tiling board, dice, paths, disputes, towers and bridges (see docs/rules/jeocinco.md).

The package, one way down: ``board`` (geometry) ← ``actions`` ← ``position`` ← ``rules`` ←
``views`` ← ``state`` ← here; ``picture`` draws a public view from ``board`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.base import (
    BadPosition,
    Channel,
    ChannelKind,
    Game,
    Message,
    Option,
    Options,
    Phrase,
    Say,
    canonical,
    in_english,
)
from controller.games.jeocinco import board as B
from controller.games.jeocinco import picture, views, words
from controller.games.jeocinco.position import from_text, initial
from controller.games.jeocinco.rules import TIE_CAP, Facts
from controller.games.jeocinco.state import JeocincoState

BRIDGE_PLACE = Phrase("jeocinco.place.bridge", "the bridge from {a} to {b}")
"""A bridge as a place the table is told about ("a piece should not be at the bridge from ...")."""


class JeocincoGame(Game):
    name = "jeocinco"
    title = "Jeocinco"
    picture_mm = 0.6  # the reference build: a model unit 12 mm (20 picture units)
    min_players = 2
    max_players = 4
    option_schema = (
        Option("fast", False, doc="the fast game: two pieces per turn"),
        Option("max_rounds", 100, minimum=1, maximum=10_000, doc="rounds before the game ends on tower count"),
        Option("max_disputes_per_turn", 4, minimum=0, maximum=50, doc="disputes one turn may start"),
        Option("diagonal_bridges", True, doc="bridges across the slanted slots (the third family)"),
        Option("roll_order", False, doc="play in the order of the opening rolls, not round the table from the "
                                        "starter"),
        Option("own_turn_bridges", False, doc="bridges are laid only in their owner's own turn, not at any "
                                              "moment"),
    )

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> JeocincoState:
        opts, n = self.resolve(options, num_players)
        return JeocincoState(Facts(initial(opts, n)))

    def state_from_text(self, text: str) -> JeocincoState:
        position = from_text(text)
        try:
            self.resolve(position.options, position.players)
        except ValueError as e:
            raise BadPosition(f"not a Jeocinco position: {e}") from None
        return canonical(JeocincoState(Facts(position)), text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        out = [Channel(f"slot:{n}", ChannelKind.PRESENCE) for n in B.SLOT_NAMES]
        out += [Channel(f"tower:{n}", ChannelKind.PRESENCE) for n in B.PENT_NAMES]
        out += [Channel(f"bridge:{n}", ChannelKind.PRESENCE) for n in B.BRIDGE_NAMES]
        return out

    def picture(self, public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
        """The board of a public view as SVG, the target slots among ``marks`` highlighted, the other
        targets (towers, bridges) ringed."""
        return picture.picture(public_view, marks, say)

    def channel_xy(self, name: str) -> tuple[float, float] | None:
        """Where a channel sits in :meth:`picture` (None for a name that is not a channel)."""
        return picture.channel_xy(name)

    def action_words(self, text: str, player: int | None) -> Message:
        return words.action_words(text, player)

    def channel_label(self, channel: str) -> str | Message:
        """A slot or a pentagon by its name (``A1N-A1E``, ``C3N``); a bridge by the slots it joins, in words."""
        kind, name = channel.split(":", 1)
        return BRIDGE_PLACE(**B.bridge_ends(B.BRIDGE_NAMES.index(name))) if kind == "bridge" else name

    def action_face(self, text: str) -> str | None:
        return picture.action_face(text)

    def notes(self, public_view: dict[str, Any]) -> list[Message]:
        return views.notes(public_view)

    def configurations(self) -> list[tuple[dict[str, Any], int]]:
        # Three and four players with a shorter round limit, to keep the suite quick.
        short = {"max_rounds": 60}
        return [({}, 2), (short, 3), (short, 4),
                ({"fast": True}, 2), ({"fast": True, **short}, 3), ({"fast": True, **short}, 4),
                ({"diagonal_bridges": False, **short}, 2),
                ({"roll_order": True, **short}, 4), ({"own_turn_bridges": True, **short}, 3)]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        disputes: int = opts["max_disputes_per_turn"]
        pieces = 3 + disputes  # rolled pieces (at most 3) plus one extra piece per dispute
        per_turn = (1                         # the dice
                    + pieces * 2              # placements or disputes, each with a tower
                    + disputes * 2 * TIE_CAP  # roll-offs
                    + 2 + pieces + 1)         # bridges (two in hand plus one per tower) and done
        opening = n * (TIE_CAP + 1) + n
        # Bridges laid in other players' turns: each costs a tower, and a pentagon holds one tower.
        anytime = 0 if opts["own_turn_bridges"] else B.NUM_PENTS
        return opening + int(opts["max_rounds"]) * n * per_turn + anytime


GAME = JeocincoGame()

__all__ = ["GAME", "JeocincoGame", "JeocincoState"]
