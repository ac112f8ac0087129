"""``arbitro calibrate``: thresholds for the analog (``count`` / ``piece``) sensors, stored with the layout.

Linear hall sensors differ in their reading with nothing on them (the quiescent voltage varies
by a few per cent from part to part) far more than in how they respond to a magnet, so:

1. With the board cleared, every analog channel's empty reading is its **zero**.
2. On one channel of each kind (``--count-channel`` / ``--piece-channel``, default the first),
   the builder places each known bead count (1 .. ``max_count``) or piece (each code) in turn;
   each reading minus that channel's zero is the value's **level**.
3. Levels closer than ``min_gap`` ADC units are refused (the two would be mistaken for each other).

The layout's ``calibration`` then holds the zeros and levels; ``Layout.analog_cal()`` turns them
into per-channel thresholds, which ``arbitro firmware flash`` writes into ``board_config.py``.
Readings are taken in the firmware's raw mode (``read_u16() >> 8``), averaged over ``samples``
snapshots, and stored in ``read_u16`` units.
"""

from __future__ import annotations

import itertools
from typing import Any

from controller.games.base import Message, Phrase
from controller.tools.board import BoardLink
from controller.tools.console import CLEAR, ENTER_WHEN_EMPTY, Console, Prompt
from firmware_bridge.protocol import piece_of
from hardware.layout import Layout, LayoutError

PUT_BEADS = Phrase("tools.calibrate.put_beads", "put {count} beads in {channel}")
PUT_BEAD = Phrase("tools.calibrate.put_bead", "put 1 bead in {channel}")
PUT_PIECE = Phrase("tools.calibrate.put_piece", "put player {number}'s single piece on {channel}")
PUT_DOUBLE = Phrase("tools.calibrate.put_double", "put player {number}'s double piece on {channel}")
IN_PLACE = Phrase("tools.calibrate.in_place", "Press Enter when it is in place.")
LEVEL_OFF = Phrase("tools.calibrate.level_off", "  level {level}; take it off")
LEVEL_OFF_BEADS = Phrase("tools.calibrate.level_off_beads", "  level {level}; take them off")
LEVELS = Phrase("tools.calibrate.levels", "{kind} levels on {channel} (each reading less the empty one): {levels}")


def to_u16(raw8: float) -> int:
    """A raw-mode reading (``read_u16() >> 8``) back in ``read_u16`` units (the middle of its step)."""
    return round(raw8 * 256 + 128)


def piece_words(code: int) -> str:
    player, double = piece_of(code) or (0, False)
    return f"player {player + 1}'s {'double' if double else 'single'} piece"


def value_words(kind: str, value: int) -> str:
    """What a ``count`` or ``piece`` channel's value means on the board: ``2 beads``, ``no piece``."""
    if kind == "count":
        return f"{value} bead{'' if value == 1 else 's'}"
    return piece_words(value) if value else "no piece"


class Calibration:
    """See the module docstring; ``run()`` returns the layout with its new ``calibration``."""

    def __init__(self, layout: Layout, board: BoardLink, console: Console, *, max_count: int = 8,
                 pieces: list[int] | None = None, count_channel: str = "", piece_channel: str = "",
                 samples: int = 3, min_gap: int = 512, timeout: float = 120.0) -> None:
        self.layout = layout
        self.board = board
        self.console = console
        self.max_count = max_count
        self.pieces = pieces or [1, 2, 3, 4]
        self.chosen = {"count": count_channel, "piece": piece_channel}
        self.samples = samples
        self.min_gap = min_gap
        self.timeout = timeout

    def channels_of(self, kind: str) -> list[str]:
        return sorted((c for c, s in self.layout.sensor_of.items() if self.layout.kind_of_sensor(s) == kind),
                      key=lambda c: self.layout.sensor_of[c])

    def read(self, sensor: int) -> float:
        return sum(self.board.sync()[sensor] for _ in range(self.samples)) / self.samples

    def run(self) -> Layout:
        kinds = [k for k in ("count", "piece") if self.channels_of(k)]
        if not kinds:
            raise LayoutError("the layout has no count or piece channels: nothing to calibrate")
        self.board.set_raw(True)
        try:
            self.console.say(Prompt(self.console.words(CLEAR()), "clear"))
            self.console.ask(self.console.words(ENTER_WHEN_EMPTY()))
            totals = [0.0] * self.layout.sensor_count
            for _ in range(self.samples):
                for s, v in enumerate(self.board.sync()[: self.layout.sensor_count]):
                    totals[s] += v
            zero = {c: to_u16(totals[self.layout.sensor_of[c]] / self.samples)
                    for k in kinds for c in self.channels_of(k)}
            calibration: dict[str, Any] = {"zero": zero}
            for kind in kinds:
                calibration[kind] = self.measure(kind, zero)
        finally:
            self.board.set_raw(False)
        data = self.layout.to_dict()
        data["calibration"] = calibration
        return Layout.from_dict(data)

    @staticmethod
    def put(kind: str, value: int, channel: str) -> Message:
        """What the builder is asked to put on ``channel``: ``value`` beads, or the piece of code ``value``."""
        if kind == "count":
            return PUT_BEAD(channel=channel) if value == 1 else PUT_BEADS(count=value, channel=channel)
        player, double = piece_of(value) or (0, False)
        return (PUT_DOUBLE if double else PUT_PIECE)(number=player + 1, channel=channel)

    def measure(self, kind: str, zero: dict[str, int]) -> dict[str, Any]:
        channel = self.chosen[kind] or self.channels_of(kind)[0]
        if channel not in zero:
            raise LayoutError(f"{channel} is not a {kind} channel of the layout")
        sensor = self.layout.sensor_of[channel]
        values = range(1, self.max_count + 1) if kind == "count" else self.pieces
        levels = {"0": 0}
        for value in values:
            what = f"{value} bead{'s' if value > 1 else ''} in" if kind == "count" else f"{piece_words(value)} on"
            self.console.say(Prompt(self.console.words(self.put(kind, value, channel)), "place", channel, value))
            # the reading must leave the empty level, then hold (``read`` averages several snapshots)
            if not self.board.wait(lambda v: abs(to_u16(v[sensor]) - zero[channel]) >= self.min_gap, self.timeout):
                raise LayoutError(f"{channel}'s sensor did not change for {what.rsplit(' ', 1)[0]}")
            self.console.ask(self.console.words(IN_PLACE()))
            levels[str(value)] = to_u16(self.read(sensor)) - zero[channel]
            off = LEVEL_OFF_BEADS if kind == "count" else LEVEL_OFF
            self.console.say(Prompt(self.console.words(off(level=f"{levels[str(value)]:+d}")), "lift", channel, 0))
            self.board.wait(lambda v: abs(to_u16(v[sensor]) - zero[channel]) < self.min_gap, self.timeout)
        ordered = sorted(levels.items(), key=lambda item: item[1])
        for (a, la), (b, lb) in itertools.pairwise(ordered):
            if lb - la < self.min_gap:
                raise LayoutError(f"{kind} {a} and {b} read too alike on {channel} ({la:+d}, {lb:+d}): "
                                  f"stronger or stacked magnets, or a closer sensor, are needed")
        said = ", ".join(f"{value_words(kind, int(value))} {level:+d}" for value, level in levels.items())
        self.console.say(self.console.words(LEVELS(kind=kind, channel=channel, levels=said)))
        return {"channel": channel, "levels": levels}
