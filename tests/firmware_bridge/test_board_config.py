"""The firmware's generated board configuration: calibration thresholds, raw mode, STOP, channel names."""

from __future__ import annotations

import io

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.boardconfig import as_module, render
from firmware_bridge.firmware import arbitro_fw as fw
from firmware_bridge.sim import SimulatedBoard, run_console
from hardware.layout import Layout, load_layout
from tests.firmware_bridge.test_firmware import Rig

CAL = ((20000, 30000, 40000), (3, 0, 1, 2))  # a piece reads low (3) or high: thresholds between levels


def test_calibrated_inputs_map_readings_through_their_bands() -> None:
    rig = Rig([("presence", 2), ("piece", 2)], debounce=1, analog_cal=[CAL, None])
    rig.steps(1)
    for reading, value in [(10000, 3), (20000, 0), (29999, 0), (35000, 1), (65535, 2)]:
        rig.machine.set_raw(2, reading)
        rig.machine.set_raw(3, reading)
        rig.steps(2)
        assert rig.fw.stable[2] == value  # calibrated
        assert rig.fw.stable[3] == min(63, (reading + 512) >> 10)  # plain quantization


def test_raw_mode_reports_bare_readings_and_hello_comes_first() -> None:
    rig = Rig([("presence", 2), ("count", 1)], debounce=1, analog_cal=[CAL])
    rig.machine.set_raw(2, 35000)
    rig.steps(2)
    assert rig.fw.stable[2] == 1
    rig.port.inbox += P.encode(P.SetRaw(1), 0)
    msgs = rig.steps(1)
    assert isinstance(msgs[0], P.Hello) and rig.fw.stable[2] == 35000 >> 8  # at once, no CHANGED needed
    assert not any(isinstance(m, P.Changed) for m in msgs)
    rig.port.inbox += P.encode(P.SetRaw(0), 1)
    rig.steps(1)
    assert rig.fw.stable[2] == 1


def test_stop_ends_the_loop() -> None:
    rig = Rig([("presence", 2)])
    rig.port.inbox += P.encode(P.Stop(), 0)
    rig.steps(1)
    assert rig.fw.running is False


def test_generated_config_is_the_layouts_and_micropython_literals_only() -> None:
    data = load_layout("contigo").to_dict()
    data["calibration"] = {"zero": {"pit:nw": 32000, "sq:a1": 31000},
                           "count": {"channel": "pit:nw", "levels": {"0": 0, "1": 3000, "2": 5000}},
                           "piece": {"channel": "sq:a1", "levels": {"0": 0, "1": 6000, "3": -6000}}}
    layout = Layout.from_dict(data)
    values = layout.board_config()
    source = render(values, "mine.json")
    assert "from mine.json" in source and "f'" not in source
    config = fw.config_from(as_module(values))
    assert config["blocks"] == [("piece", 36), ("count", 28)] and config["scan_us"] == 2000
    cal = config["analog_cal"]
    assert cal[0] == ((28000, 34000), (3, 0, 1))  # sq:a1: zero 31000, levels -6000 / 0 / +6000
    assert cal[36] == ((33500, 36000), (0, 1, 2))  # pit:nw
    assert cal[1] is None and cal[37] is None  # no zero measured: plain quantization
    with SimulatedBoard(layout.blocks, board_config=values) as sim:
        sim.set(layout.sensor_of["pit:nw"], 2)  # the sim reads the middle of the band
        sim.set(layout.sensor_of["sq:a1"], 3)
        assert sim.wait_idle()
        with pytest.raises(ValueError, match="calibrated"):
            sim.set(layout.sensor_of["pit:nw"], 5)


def test_console_takes_channel_names_from_the_layout() -> None:
    layout = load_layout("contigo")
    out = io.StringIO()
    with SimulatedBoard(layout.blocks) as sim:
        run_console(sim, io.StringIO("set sq:c3 1 pit:nw 2\nwait\nshow\nset sq:z9 1\n"), out, dict(layout.sensor_of))
        assert sim.values()[layout.sensor_of["sq:c3"]] == 1
    lines = out.getvalue().splitlines()
    assert lines[:3] == ["ok", "ok", "ok sq:c3=1 pit:nw=2"]
    assert lines[3].startswith("error: no channel 'sq:z9' in the layout")
