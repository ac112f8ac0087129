"""`arbitro calibrate` against the simulated board with modelled hall sensors: per-sensor zeros
differ, bead levels are not linear, pieces are told apart by polarity and stacking."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from controller.tools.board import BoardLink
from controller.tools.calibrate import Calibration
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import Layout, LayoutError, load_layout
from tests.tools.builder import Builder

PIECE_LEVELS = {0: 0, 1: 5000, 2: 9000, 3: -5000, 4: -9000}  # N up, two N, S up, two S


def zero(sensor: int) -> int:
    return 30000 + (sensor * 677) % 3000  # quiescent readings spread over ~5 %


def reading(layout: Layout, sensor: int, value: int) -> int:
    """What a linear hall sensor under ``value`` beads (or piece ``value``) reads."""
    if layout.kind_of_sensor(sensor) == "count":
        return zero(sensor) + round(9000 * (1 - 0.75**value))  # each bead adds less
    return zero(sensor) + PIECE_LEVELS[value]


def calibrate(layout: Layout, sim: SimulatedBoard, builder: Builder | None = None,
              **kwargs: object) -> tuple[Layout, Builder]:
    builder = builder or Builder(sim, dict(layout.sensor_of), place=lambda s, v: sim.set_raw(s, reading(layout, s, v)))
    board = BoardLink(sim.url)
    board.start()
    try:
        return Calibration(layout, board, builder, timeout=5, **kwargs).run(), builder  # type: ignore[arg-type]
    finally:
        board.close()


def test_calibrated_firmware_reads_every_sensor_right() -> None:
    layout = load_layout("contigo")
    with SimulatedBoard(layout.blocks, board_config=layout.board_config()) as sim:
        for sensor in range(layout.sensor_count):
            sim.set_raw(sensor, reading(layout, sensor, 0) + 4000)  # left on: the builder clears it
        calibrated, builder = calibrate(layout, sim, max_count=5, pieces=[1, 2, 3, 4])
        assert not sim.firmware.raw_mode  # back to values
    cal = calibrated.calibration
    assert cal["count"]["channel"] == "pit:nw" and cal["piece"]["channel"] == "sq:a1"  # the first ones
    assert cal["zero"]["pit:s-c"] - zero(layout.sensor_of["pit:s-c"]) in range(-256, 257)
    assert any("put 3 beads in pit:nw" in line for line in builder.said)
    levels = {line.split(" (")[0]: line.split(": ", 1)[1] for line in builder.said if " levels on " in line}
    assert levels.keys() == {"count levels on pit:nw", "piece levels on sq:a1"}, builder.said
    assert levels["count levels on pit:nw"].startswith("0 beads +0, 1 bead +")
    assert levels["piece levels on sq:a1"].startswith("no piece +0, player 1's single piece +")
    assert calibrated.board_config()["CONFIG_ID"] != layout.board_config()["CONFIG_ID"]
    assert Layout.from_dict(calibrated.to_dict()).calibration == cal  # stored with the layout

    # The firmware flashed with the new layout reads beads and pieces on every other sensor too.
    with SimulatedBoard(calibrated.blocks, board_config=calibrated.board_config()) as sim:
        placed = {"pit:s-c": 4, "pit:e-2": 1, "pit:w-6": 5, "pit:nw": 0, "sq:c3": 3, "sq:f6": 2, "sq:b5": 4}
        for c, v in placed.items():
            sim.set_raw(calibrated.sensor_of[c], reading(layout, calibrated.sensor_of[c], v))
        assert sim.wait_idle()
        assert {c: sim.reported()[calibrated.sensor_of[c]] for c in placed} == placed
    # while the plain quantization of the same readings is nonsense
    assert (reading(layout, layout.sensor_of["pit:s-c"], 4) + 512) >> 10 != 4


def test_pieces_that_read_alike_are_refused() -> None:
    layout = load_layout("contigo")
    PIECE_LEVELS[2] = 5200  # a double that reads like a single: too weak a second magnet
    try:
        with SimulatedBoard(layout.blocks) as sim, pytest.raises(LayoutError, match="piece 1 and 2 read too alike"):
            builder = Builder(sim, dict(layout.sensor_of), place=lambda s, v: sim.set_raw(s, reading(layout, s, v)),
                              reply=lambda q: "k" if "reads like" in q else None)  # the builder keeps it
            calibrate(layout, sim, builder, max_count=2, pieces=[1, 2])
    finally:
        PIECE_LEVELS[2] = 9000


class Clumsy(Builder):
    """Puts the 3 beads in the wrong pit first, then 1 bead where 4 belong; retries when asked,
    unless ``stops`` (then Enter: stop)."""

    def __init__(self, layout: Layout, sim: SimulatedBoard, stops: bool = False) -> None:
        super().__init__(sim, dict(layout.sensor_of), place=self.hands, reply=self.decide)
        self.layout = layout
        self.mistakes = {3: "wrong pit", 4: "one bead"}
        self.stops = stops
        self.asked: list[str] = []

    def hands(self, sensor: int, value: int) -> None:
        mistake = self.mistakes.pop(value, None) if sensor == self.layout.sensor_of["pit:nw"] else None
        if mistake == "wrong pit":
            sensor = self.layout.sensor_of["pit:ne"]
        self.sim.set_raw(sensor, reading(self.layout, sensor, 1 if mistake == "one bead" else value))

    def decide(self, question: str) -> str | None:
        if "did not change" in question or "reads like" in question:
            self.asked.append(question)
            for sensor in self.wiring.values():  # takes everything off before trying again
                self.sim.set_raw(sensor, reading(self.layout, sensor, 0))
            return "" if self.stops else "r"
        return None


def test_a_misplaced_piece_is_retried_and_nothing_measured_is_lost() -> None:
    layout = load_layout("contigo")
    with SimulatedBoard(layout.blocks) as sim:
        builder = Clumsy(layout, sim)
        start = time.monotonic()
        board = BoardLink(sim.url)
        board.start()
        try:
            calibrated = Calibration(layout, board, builder, max_count=5, pieces=[1, 3], timeout=0.5).run()
        finally:
            board.close()
    assert time.monotonic() - start < 20
    assert builder.asked[0] == "pit:nw's sensor did not change: is it on pit:nw? [r]etry, or Enter to stop " \
                               "(what is measured is kept)"
    assert builder.asked[1].startswith("level +") and " reads like 1 bead (+" in builder.asked[1]
    levels = calibrated.calibration["count"]["levels"]
    assert list(levels) == ["0", "1", "2", "3", "4", "5"]
    sensor = layout.sensor_of["pit:nw"]  # each level as the sensor reads the right count, not the mistakes
    assert all(abs(levels[str(v)] - (reading(layout, sensor, v) - zero(sensor))) < 300 for v in range(6))


def test_calibrate_stopped_resumes_where_it_stopped() -> None:
    layout = load_layout("contigo")
    saved: list[dict[str, Any]] = []
    with SimulatedBoard(layout.blocks) as sim:
        first = Clumsy(layout, sim, stops=True)
        first.mistakes = {2: "wrong pit"}
        board = BoardLink(sim.url)
        board.start()
        try:
            with pytest.raises(LayoutError, match="what was measured is kept"):
                Calibration(layout, board, first, max_count=3, pieces=[1, 3], timeout=0.5,
                            save=lambda p: saved.append(json.loads(json.dumps(p)))).run()
            assert list(saved[-1]["count"]["levels"]) == ["0", "1"]  # the zeros and 1 bead kept
            second = Clumsy(layout, sim)
            second.mistakes.clear()
            calibrated = Calibration(layout, board, second, max_count=3, pieces=[1, 3], timeout=2,
                                     resume=saved[-1]).run()
        finally:
            board.close()
    assert second.said[0] == "resuming: 2 measurements kept from the last run"
    assert not any("Clear the board" in line or "put 1 bead" in line for line in second.said)
    assert list(calibrated.calibration["count"]["levels"]) == ["0", "1", "2", "3"]
    assert calibrated.calibration["zero"] == saved[-1]["zero"]
