"""``arbitro calibrate``: thresholds for the analog (``count`` / ``piece``) sensors, stored with the layout.

Linear hall sensors differ in their reading with nothing on them (the quiescent voltage varies
by a few per cent from part to part) far more than in how they respond to a magnet, so:

1. With the board cleared, every analog channel's empty reading is its **zero**.
2. On one channel of each kind (``--count-channel`` / ``--piece-channel``, default the first),
   the builder places each known bead count (1 .. ``max_count``) or piece (each code) in turn;
   each reading minus that channel's zero is the value's **level**.
3. Levels closer than ``min_gap`` ADC units are refused (the two would be mistaken for each other).

A misplaced piece does not end it: when the sensor does not move, or a level reads like one
already measured, the builder may retry that step (or keep it, or stop). Every measurement is
handed to ``save`` as it is taken (``arbitro calibrate`` keeps them in ``OUT.partial.json``), and
a run given them back (``resume``) starts where the last one stopped.

The layout's ``calibration`` then holds the zeros and levels; ``Layout.analog_cal()`` turns them
into per-channel thresholds, which ``arbitro firmware flash`` writes into ``board_config.py``.
Readings are taken in the firmware's raw mode (``read_u16() >> 8``), averaged over ``samples``
snapshots, and stored in ``read_u16`` units.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
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
NOT_SEEN = Phrase("tools.calibrate.not_seen", "{channel}'s sensor did not change: is it on {channel}? "
                  "[r]etry, or Enter to stop (what is measured is kept)")
ALIKE = Phrase("tools.calibrate.alike", "level {level} reads like {other} ({other_level}): misplaced? "
               "[r]etry this step, [k]eep it, or Enter to stop (what is measured is kept)")
RESUMING = Phrase("tools.calibrate.resuming", "resuming: {count} measurements kept from the last run")


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
                 samples: int = 3, min_gap: int = 512, timeout: float = 120.0,
                 resume: dict[str, Any] | None = None, save: Callable[[dict[str, Any]], object] | None = None) -> None:
        self.layout = layout
        self.board = board
        self.console = console
        self.max_count = max_count
        self.pieces = pieces or [1, 2, 3, 4]
        self.chosen = {"count": count_channel, "piece": piece_channel}
        self.samples = samples
        self.min_gap = min_gap
        self.timeout = timeout
        self.progress: dict[str, Any] = dict(resume or {})
        self.save = save or (lambda progress: None)

    def channels_of(self, kind: str) -> list[str]:
        return sorted((c for c, s in self.layout.sensor_of.items() if self.layout.kind_of_sensor(s) == kind),
                      key=lambda c: self.layout.sensor_of[c])

    def read(self, sensor: int) -> float:
        return sum(self.board.sync()[sensor] for _ in range(self.samples)) / self.samples

    def run(self) -> Layout:
        kinds = [k for k in ("count", "piece") if self.channels_of(k)]
        if not kinds:
            raise LayoutError("the layout has no count or piece channels: nothing to calibrate")
        kept = int("zero" in self.progress) + sum(len(self.progress[k]["levels"]) - 1 for k in kinds
                                                  if k in self.progress)
        if kept:
            self.console.say(self.console.words(RESUMING(count=kept)))
        self.board.set_raw(True)
        try:
            if "zero" not in self.progress:
                self.console.say(Prompt(self.console.words(CLEAR()), "clear"))
                self.console.ask(self.console.words(ENTER_WHEN_EMPTY()))
                totals = [0.0] * self.layout.sensor_count
                for _ in range(self.samples):
                    for s, v in enumerate(self.board.sync()[: self.layout.sensor_count]):
                        totals[s] += v
                self.progress["zero"] = {c: to_u16(totals[self.layout.sensor_of[c]] / self.samples)
                                         for k in kinds for c in self.channels_of(k)}
                self.save(self.progress)
            calibration: dict[str, Any] = {"zero": self.progress["zero"]}
            for kind in kinds:
                calibration[kind] = self.measure(kind, self.progress["zero"])
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

    def step(self, kind: str, value: int, channel: str, zero: int, levels: dict[str, int]) -> None:
        """Measure one value on ``channel`` into ``levels`` (and ``save``), unless the builder retries or quits."""
        sensor = self.layout.sensor_of[channel]
        self.console.say(Prompt(self.console.words(self.put(kind, value, channel)), "place", channel, value))
        # the reading must leave the empty level, then hold (``read`` averages several snapshots)
        if not self.board.wait(lambda v: abs(to_u16(v[sensor]) - zero) >= self.min_gap, self.timeout):
            self.decide(self.console.words(NOT_SEEN(channel=channel)))
            return
        self.console.ask(self.console.words(IN_PLACE()))
        level = to_u16(self.read(sensor)) - zero
        off = LEVEL_OFF_BEADS if kind == "count" else LEVEL_OFF
        self.console.say(Prompt(self.console.words(off(level=f"{level:+d}")), "lift", channel, 0))
        self.board.wait(lambda v: abs(to_u16(v[sensor]) - zero) < self.min_gap, self.timeout)
        other = next((v for v, lv in levels.items() if abs(lv - level) < self.min_gap), None)
        if other is not None and self.decide(self.console.words(ALIKE(
                level=f"{level:+d}", other=value_words(kind, int(other)), other_level=f"{levels[other]:+d}"))) != "k":
            return
        levels[str(value)] = level
        self.save(self.progress)

    def decide(self, question: str) -> str:
        """Ask retry / keep / quit: returns "r" or "k"; anything else (Enter, the end of the input)
        stops, raising ``LayoutError`` (every measurement so far was saved: a new run resumes)."""
        answer = self.console.ask(question).strip().lower()[:1]
        if answer not in ("r", "k"):
            raise LayoutError("calibration stopped; what was measured is kept: run it again to resume")
        return answer

    def measure(self, kind: str, zero: dict[str, int]) -> dict[str, Any]:
        channel = self.chosen[kind] or self.progress.get(kind, {}).get("channel") or self.channels_of(kind)[0]
        if channel not in zero:
            raise LayoutError(f"{channel} is not a {kind} channel of the layout")
        values = range(1, self.max_count + 1) if kind == "count" else self.pieces
        done = self.progress.setdefault(kind, {"channel": channel, "levels": {"0": 0}})
        if done["channel"] != channel:  # another channel asked for: its levels start afresh
            done.update(channel=channel, levels={"0": 0})
        levels: dict[str, int] = done["levels"]
        for value in values:
            while str(value) not in levels:
                self.step(kind, value, channel, zero[channel], levels)
        ordered = sorted(levels.items(), key=lambda item: item[1])
        for (a, la), (b, lb) in itertools.pairwise(ordered):
            if lb - la < self.min_gap:
                raise LayoutError(f"{kind} {a} and {b} read too alike on {channel} ({la:+d}, {lb:+d}): "
                                  f"stronger or stacked magnets, or a closer sensor, are needed")
        said = ", ".join(f"{value_words(kind, int(value))} {level:+d}" for value, level in levels.items())
        self.console.say(self.console.words(LEVELS(kind=kind, channel=channel, levels=said)))
        return {"channel": channel, "levels": levels}
