"""Contigo (Frank Thibault, 1970): pawns moved by the bead counts of a ring of 28 pits.

The alignment game (2 or 4 players, straight or advanced L form, four-on-a-line or the five-in-a-row
variant) and the capture game (2 players, singles and a double). Rules and rulings:
``docs/rules/contigo.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.base import Channel, ChannelKind, Game, Message, Options, Say, in_english
from controller.games.contigo import picture, views, words
from controller.games.contigo.board import OPTIONS, PIT_NAMES, SQUARE_NAMES, TOTAL_BEADS, validate
from controller.games.contigo.state import ContigoState, new_state, state_from_text

__all__ = ["GAME", "ContigoGame", "ContigoState"]


class ContigoGame(Game):
    name = "contigo"
    title = "Contigo"
    picture_mm = 40 / 56  # the reference build: a square 40 mm
    min_players = 2
    max_players = 4
    option_schema = OPTIONS
    mark_radius = picture.MARK_RADIUS

    def check_players(self, num_players: int | None) -> int:
        # The count allowed depends on the game played (alignment 2 or 4, capture 2): check_variant
        # says which, in those words.
        n = self.players(None) if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int):
            raise ValueError(f"contigo: number of players must be a whole number, not {num_players!r}")
        return n

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        validate(options, num_players)

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> ContigoState:
        opts, n = self.resolve(options, num_players)
        return new_state(opts, n)

    def state_from_text(self, text: str) -> ContigoState:
        return state_from_text(self, text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        opts, n = self.resolve(options, num_players)
        top_code = 2 * n if opts["game"] == "capture" else 2 * n - 1
        return ([Channel(f"sq:{s}", ChannelKind.PIECE, top_code) for s in SQUARE_NAMES]
                + [Channel(f"pit:{p}", ChannelKind.COUNT, TOTAL_BEADS) for p in PIT_NAMES])

    def picture(self, public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
        """The board as an SVG drawn from ``public_view`` alone, the channels in ``marks`` ringed."""
        return picture.picture(public_view, marks, say)

    def channel_xy(self, name: str) -> tuple[float, float] | None:
        """Where channel ``name`` sits in :meth:`picture`'s coordinates (None: not a channel)."""
        return picture.channel_xy(name)

    def action_words(self, text: str, player: int | None) -> Message:
        return words.action_words(text, player)

    def notes(self, public_view: dict[str, Any]) -> list[Message]:
        return views.notes(public_view)

    def configurations(self) -> Sequence[tuple[dict[str, Any], int]]:
        return [
            (self.options({}), 2),
            (self.options({"form": "L"}), 2),
            (self.options({"win": "five"}), 2),
            (self.options({}), 4),
            (self.options({"form": "L"}), 4),
            (self.options({"rounds": 30}), 4),  # the sitting variant
            (self.options({"game": "capture"}), 2),
            (self.options({"game": "capture", "form": "L"}), 2),
            (self.options({"game": "capture", "spread": "one_way"}), 2),
        ]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        if opts["game"] == "capture":
            # who starts, then per turn a pawn move, pick-ups and drops (each at least one bead)
            return 1 + int(opts["turn_limit"]) * (1 + 2 * TOTAL_BEADS)
        # who starts, then two actions (pawn move, bead move) per turn, to the limit or the sitting's end
        rounds = int(opts["rounds"])
        return 1 + 2 * min(int(opts["turn_limit"]), rounds * n if rounds else int(opts["turn_limit"]))


GAME = ContigoGame()
