"""`arbitro diagnose` on the simulated board: a stuck sensor, a dead one, a button never pressed,
LEDs chased one by one, a dead LED found by bisection, LEDs by element, every finding by name
and every stuck or silent channel located by chip, input and Pico pin."""

from __future__ import annotations

import io
import math

import pytest
from gpiozero.pins.mock import MockFactory

from controller.cli import main
from controller.tools.board import BoardLink
from controller.tools.console import Prompt
from controller.tools.diagnose import Diagnosis, where
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
        strip = LedStrip(RecordingPixels(layout.led_count))
        builder = Builder(sim, dict(layout.sensor_of), dead={dead, stuck}, answers=["", "", "y"],
                          actions={"press": press, "turn": turn}, strip=strip)
        sim.set(stuck, 1)  # a sensor that always reads a magnet
        board = BoardLink(sim.url)
        board.start()
        try:
            report = Diagnosis(layout, board, strip, builder, inputs=inputs, pace=0, timeout=0.5).run()
        finally:
            board.close()
            inputs.close()
    assert report.problems == []  # the firmware is this layout's
    assert report.stuck == ["pos:inner:3=1"]
    assert report.silent == ["pos:inner:3", "pos:outer:7"]
    # pos:inner:3 is presence channel 3: the first chip's input E; pos:outer:7 is the fourth chip's A
    assert report.where == {"pos:inner:3": "shift register 1, input E, Pico GP12",
                            "pos:outer:7": "shift register 4, input A, Pico GP12"}
    assert "  silent: pos:outer:7: shift register 4, input A, Pico GP12" in builder.said
    assert report.inputs_missing == ["button undo"]
    assert report.leds_ok is True and not report.ok
    assert "  pos:inner:0 = 1" in builder.said  # live, by name
    element = next(c for c, leds in layout.leds_of.items() if len(leds) > 1)
    leds = layout.leds_of[element]
    assert f"  {element}: LEDs {', '.join(map(str, leds[:-1]))} and {leds[-1]}" in builder.said
    assert builder.said[-1].startswith("diagnosis: stuck: pos:inner:3=1 (shift register 1, input E, Pico GP12); "
                                       "silent: pos:inner:3 (shift register 1, input E, Pico GP12), pos:outer:7 (")
    lit = [[i for i in range(strip.n) if f[3 * i: 3 * i + 3] != b"\0\0\0"] for f in strip.pixels.transmitted]
    assert lit[: strip.n] == [[i] for i in range(strip.n)]  # the chase, one by one
    assert lit[strip.n] == list(range(strip.n)) and report.led_questions == 1 and report.dead_led is None
    by_element = [leds for leds in layout.leds_of.values() if leds]
    assert lit[strip.n + 1: strip.n + 1 + len(by_element)] == by_element and lit[-1] == []


def led_test(layout_name: str, dead: set[int]) -> tuple[Diagnosis, Builder]:
    layout = load_layout(layout_name)
    with SimulatedBoard(layout.blocks, board_config=layout.board_config()) as sim:
        strip = LedStrip(RecordingPixels(layout.led_count))
        builder = Builder(sim, dict(layout.sensor_of), answers=["y"], strip=strip, dead_leds=dead)
        board = BoardLink(sim.url)
        board.start()
        try:
            diagnosis = Diagnosis(layout, board, strip, builder, pace=0)
            diagnosis.check_leds()
        finally:
            board.close()
    return diagnosis, builder


@pytest.mark.parametrize("dead", [0, 1, 17, 40, 63, 66, 67])
def test_the_led_test_bisects_to_the_first_dead_led(dead: int) -> None:
    """A planted dead LED (and another one after it) is named, with its element, in at most
    ceil(log2 N) + 1 yes/no questions; the chase printed every index as it lit."""
    diagnosis, builder = led_test("contigo", {dead, 67} if dead < 67 else {dead})
    layout, report = diagnosis.layout, diagnosis.report
    assert report.dead_led == dead
    assert report.led_questions <= math.ceil(math.log2(layout.led_count)) + 1 == 8
    under = [name for name, leds in layout.leds_of.items() if dead in leds]
    place = ", ".join(under) if under else "status bar"
    assert f"  first dead LED: {dead} ({place}); the data line breaks there or the LED itself is dead" in builder.said
    assert [line for line in builder.said if line.startswith("  LED ")] == [
        f"  LED {i} ({diagnosis.led_place(i)})" for i in range(layout.led_count)]
    assert not report.ok and f"first dead LED: {dead} (" in "; ".join(diagnosis.summary())


def test_where_locates_analog_channels_by_mux_input_and_enable_pin() -> None:
    contigo = load_layout("contigo")  # 36 piece then 28 count channels: four multiplexers, enables GP6..GP9
    assert where(contigo, contigo.sensor_of["pit:e-1"]) == "mux 4, input 1, Pico GP9"
    assert where(contigo, 0) == "mux 1, input 0, Pico GP6" and where(contigo, 31) == "mux 2, input 15, Pico GP7"


def test_cli_diagnose_refuses_a_board_flashed_for_another_layout(capsys: pytest.CaptureFixture[str]) -> None:
    layout = load_layout("contigo")
    with SimulatedBoard(layout.blocks, board_kind="something-else") as sim:
        stdin = io.StringIO("\n\ny\ny\n")
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
    # nobody touched anything; where it is wired, said in the board's language (the default: Spanish)
    assert "  silent: pit:e-1: multiplexor 4, entrada 1, Pico GP9\n" in out and "sq:f6" in out
