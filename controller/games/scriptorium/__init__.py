"""Scriptorium: rotating rings, colour and number dice, the sync clock (see docs/rules/scriptorium.md).

The package, one module per question (imports flow one way): ``board`` (the layout's geometry),
``actions``, ``position`` (the frozen position, its text, its problems), ``rules``, ``views``,
``state`` (the game API over a position), ``picture`` (the SVG, from the public view).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.base import Channel, ChannelKind, Game, Message, Option, Options, Say, canonical, in_english
from controller.games.scriptorium import picture, views, words
from controller.games.scriptorium.board import CENTRE, ENCODER_CHANNELS, HUB, RINGS, SPACE_CHANNELS, N
from controller.games.scriptorium.position import (
    NOBODY,
    ROUND_LIMIT_MAX,
    SETUP_PHASES,
    Position,
    parse_offsets,
    position_from_text,
)
from controller.games.scriptorium.state import ScriptoriumState

OPTIONS = (
    Option("outer_line", "same", choices=("same", "either"),
           doc="the Outer ring meets the Middle by the Inner ring's line (same) or by either (the literal reading)"),
    Option("round_limit", 200, minimum=1, maximum=ROUND_LIMIT_MAX, doc="rounds before the game ends without a winner"),
    Option("start", "random", doc="'random' (the table sets the parts by chance) or four offsets like '0,3,5,7'"),
)


class ScriptoriumGame(Game):
    name = "scriptorium"
    title = "Scriptorium"
    picture_mm = 1.0  # the reference build: the outer ring 376 mm across
    min_players = 2
    max_players = 6

    option_schema = OPTIONS

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        start = options["start"]
        if start != "random" and parse_offsets(start) is None:
            raise ValueError(f"scriptorium: start must be 'random' or four offsets 0-11 like '0,3,5,7'"
                             f" (centre, inner, middle, outer), not {start!r}")

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> ScriptoriumState:
        opts, n = self.resolve(options, num_players)
        offsets = parse_offsets(opts["start"])
        # start=random: the table sets every part by chance first
        phase = SETUP_PHASES[0] if offsets is None else "first"
        return ScriptoriumState(Position(opts, n, phase, offsets or (0, 0, 0, 0), CENTRE, (HUB,) * n, (), NOBODY,
                                         NOBODY, 0, NOBODY, 0, NOBODY, NOBODY))

    def state_from_text(self, text: str) -> ScriptoriumState:
        return canonical(ScriptoriumState(position_from_text(text, self.resolve)), text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        _, n = self.resolve(options, num_players)
        chans = [Channel(name, ChannelKind.OFFSET, N - 1) for name in ENCODER_CHANNELS]
        chans += [Channel(SPACE_CHANNELS[r * N + p], ChannelKind.PRESENCE, 1) for r in RINGS for p in range(N)]
        chans.append(Channel("hub", ChannelKind.COUNT, n))
        return chans

    def picture(self, public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
        """The board as SVG, drawn from the public view alone, ``marks`` (the channels the LEDs
        light for the player to act) highlighted."""
        return picture.picture(public_view, marks, say)

    def channel_xy(self, name: str) -> tuple[float, float] | None:
        """Where a channel sits in :meth:`picture`'s coordinates (None: not drawn)."""
        return picture.channel_xy(name)

    def action_words(self, text: str, player: int | None) -> Message:
        return words.action_words(text, player)

    def notes(self, public_view: dict[str, Any]) -> list[Message]:
        return views.notes(public_view)

    def configurations(self) -> Sequence[tuple[dict[str, Any], int]]:
        base = self.default_options()
        return [
            *((dict(base), n) for n in range(2, 7)),
            ({**base, "outer_line": "either"}, 3),
            ({**base, "start": "0,3,5,8", "round_limit": 40}, 4),
        ]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        # setup (4 parts + who starts), then per round: every player rolls, moves, rolls the number
        # die and turns a circle (4 actions at most), and the clock turns once.
        rounds: int = opts["round_limit"]
        return 5 + rounds * (4 * n + 1)


GAME = ScriptoriumGame()

__all__ = ["GAME", "ScriptoriumGame", "ScriptoriumState"]
