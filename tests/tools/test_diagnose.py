"""`arbitro diagnose` on the simulated board: a stuck sensor, a dead one, a button never pressed,
LEDs walked one by one and by element, every finding by name."""

from __future__ import annotations

import io

import pytest
from gpiozero.pins.mock import MockFactory

from controller.cli import main
from controller.tools.board import BoardLink
from controller.tools.console import Prompt
from controller.tools.diagnose import Diagnosis
from firmware_bridge.sim import SimulatedBoard
from hardware.inputs import TableInputs
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels
from tests.tools.builder import Builder


def test_diagnosis_names_stuck_and_silent_channels_and_missing_inputs() -> None:
    layout = load_layout("scriptorium")
    inputs = TableInputs(layout, pin_factory=MockFactory())

    def press(p: Prompt) -> None:
        if p.channel != "undo":  # the undo button is not wired
            pin = inputs.buttons[p.channel].pin
            pin.drive_low()
            pin.drive_high()

    def turn(p: Prompt) -> None:
        device = inputs.rings[p.channel].device
        a, b = device.a.pin, device.b.pin
        a.drive_low(), b.drive_low(), a.drive_high(), b.drive_high()

    stuck, dead = layout.sensor_of["pos:inner:3"], layout.sensor_of["pos:outer:7"]
    with SimulatedBoard(layout.blocks, board_config=layout.board_config()) as sim:
        builder = Builder(sim, dict(layout.sensor_of), dead={dead, stuck}, answers=["", "", "y"],
                          actions={"press": press, "turn": turn})
        sim.set(stuck, 1)  # a sensor that always reads a magnet
        board = BoardLink(sim.url)
        board.start()
        strip = LedStrip(RecordingPixels(layout.led_count))
        try:
            report = Diagnosis(layout, board, strip, builder, inputs=inputs, pace=0, timeout=0.5).run()
        finally:
            board.close()
            inputs.close()
    assert report.problems == []  # the firmware is this layout's
    assert report.stuck == ["pos:inner:3=1"]
    assert report.silent == ["pos:inner:3", "pos:outer:7"]
    assert report.inputs_missing == ["button undo"]
    assert report.leds_ok is True and not report.ok
    assert "  pos:inner:0 = 1" in builder.said  # live, by name
    element = next(c for c, leds in layout.leds_of.items() if len(leds) > 1)
    leds = layout.leds_of[element]
    assert f"  {element}: LEDs {', '.join(map(str, leds[:-1]))} and {leds[-1]}" in builder.said
    assert builder.said[-1].startswith("diagnosis: stuck: pos:inner:3=1; silent: pos:inner:3, pos:outer:7")
    lit = [[i for i in range(strip.n) if f[3 * i: 3 * i + 3] != b"\0\0\0"] for f in strip.pixels.transmitted]
    assert lit[: strip.n] == [[i] for i in range(strip.n)]  # one by one
    by_element = [leds for leds in layout.leds_of.values() if leds]
    assert lit[strip.n: strip.n + len(by_element)] == by_element and lit[-1] == []


def test_cli_diagnose_refuses_a_board_flashed_for_another_layout(capsys: pytest.CaptureFixture[str]) -> None:
    layout = load_layout("contigo")
    with SimulatedBoard(layout.blocks, board_kind="something-else") as sim:
        stdin = io.StringIO("\n\nn\n")
        import sys

        old = sys.stdin
        sys.stdin = stdin
        try:
            code = main(["diagnose", "--layout", "contigo", "--url", sim.url, "--pace", "0", "--no-inputs"])
        finally:
            sys.stdin = old
    out = capsys.readouterr().out
    assert code == 1
    assert "the sensor board says it is 'something-else'" in out
    assert "sensor board: something-else, " in out and ", 36 piece and 28 count channels\n" in out
    assert "silent: pit:e-1, pit:e-2" in out and "sq:f6" in out  # nobody touched anything
