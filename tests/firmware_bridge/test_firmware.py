"""The MicroPython firmware, run on CPython against the simulated machine and a manual clock."""

from __future__ import annotations

import ast
import binascii
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.firmware import arbitro_fw as fw
from firmware_bridge.sim_machine import ManualClock, SimMachine

FIRMWARE_DIR = Path(fw.__file__).parent


class MemoryPort:
    """The firmware's port in memory: ``inbox`` is what the host sent, ``decode()`` what the MCU sent."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.decoder = P.Decoder()

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outbox += data

    def decode(self) -> list[P.Message]:
        out = [msg for _, msg in self.decoder.feed(bytes(self.outbox))]
        self.outbox.clear()
        return out


class Rig:
    """Firmware + SimMachine + ManualClock + MemoryPort."""

    def __init__(self, blocks: list[tuple[str, int]], debounce: int = 3, **config: object) -> None:
        self.config = fw.default_config(blocks, "test", 1000, debounce, 250)
        self.config.update(config)
        self.machine = SimMachine(self.config)
        self.clock = ManualClock()
        self.port = MemoryPort()
        self.fw = fw.Firmware(self.config, self.machine, self.clock, self.port)

    def steps(self, n: int) -> list[P.Message]:
        for _ in range(n):
            self.clock.advance_us(self.fw.scan_us)
            self.fw.step()
        return self.port.decode()

    def changes(self, n: int) -> list[tuple[int, int]]:
        return [(m.channel, m.value) for m in self.steps(n) if isinstance(m, P.Changed)]


@given(st.binary(max_size=600))
def test_firmware_crc_equals_crc_hqx(data: bytes) -> None:
    assert fw.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.binary(max_size=800))
def test_firmware_cobs_matches_host(data: bytes) -> None:
    assert fw.cobs_encode(data) == P.cobs_encode(data)
    assert fw.cobs_decode(P.cobs_encode(data)) == data


def test_firmware_frames_equal_host_encoding() -> None:
    rig = Rig([("presence", 300), ("count", 20), ("piece", 4)])
    rig.machine.set(301, 9)
    rig.fw = fw.Firmware(rig.config, rig.machine, rig.clock, rig.port)
    rig.fw.send_hello()
    rig.fw.send_snapshot()
    rig.fw.send_error(fw.ERR_BAD_CONFIG, "nope")
    rig.fw.send(fw.T_CHANGED, fw.struct.pack(">HBI", 3, 1, 77))
    hello = P.Hello(1, "test", fw.FIRMWARE_VERSION, (("presence", 300), ("count", 20), ("piece", 4)), 1000, 3, 250)
    values = [0] * 324
    values[301] = 9
    expected = [hello, *P.split_snapshot(values, 0), P.Error(3, "nope"), P.Changed(3, 1, 77)]
    assert bytes(rig.port.outbox) == b"".join(P.encode(m, i) for i, m in enumerate(expected))


def test_boot_state_is_stable_without_changes() -> None:
    config = fw.default_config([("presence", 10), ("count", 3)], debounce_scans=1)
    machine = SimMachine(config)
    machine.set_many({2: 1, 11: 4})
    port = MemoryPort()
    firmware = fw.Firmware(config, machine, ManualClock(), port)
    assert list(firmware.stable) == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0]
    assert port.outbox == b""


@pytest.mark.parametrize("debounce", [1, 2, 3, 5])
def test_change_reported_after_n_stable_scans(debounce: int) -> None:
    rig = Rig([("presence", 16), ("count", 4)], debounce=debounce)
    rig.machine.set_many({9: 1, 17: 2})
    for _ in range(debounce - 1):
        assert rig.changes(1) == []
    assert sorted(rig.changes(1)) == [(9, 1), (17, 2)]
    assert rig.changes(10) == []


def test_bounce_back_cancels_a_change() -> None:
    rig = Rig([("presence", 8)], debounce=3)
    rig.machine.set(0, 1)
    assert rig.changes(2) == []
    rig.machine.set(0, 0)
    assert rig.changes(10) == []


def test_chatter_every_2ms_for_100ms_yields_one_change() -> None:
    rig = Rig([("presence", 283)], debounce=3)
    for i in range(50):
        rig.machine.set(100, (i + 1) % 2)
        assert rig.changes(2) == []
    rig.machine.set(100, 1)
    assert rig.changes(10) == [(100, 1)]


def test_presence_bit_order_and_polarity() -> None:
    for active_low in (True, False):
        rig = Rig([("presence", 20)], debounce=1, presence_active_low=active_low)
        rig.machine.set(0, 1)
        assert rig.machine.chain[0] == (0x7F if active_low else 0x80)
        rig.machine.set(19, 1)
        assert rig.changes(1) == [(0, 1), (19, 1)]


def test_analog_quantization_tolerates_noise() -> None:
    config = fw.default_config([("count", 40), ("piece", 8)], debounce_scans=2)
    machine = SimMachine(config, noise=400, seed=1)
    port = MemoryPort()
    firmware = fw.Firmware(config, machine, ManualClock(), port)
    machine.set_many({ch: (ch * 7) % 64 for ch in range(48)})
    for _ in range(50):
        firmware.step()
    assert list(firmware.stable) == [(ch * 7) % 64 for ch in range(48)]
    assert all(isinstance(m, P.Changed) for m in port.decode()[:-1])


def test_mixed_blocks_map_to_chain_and_mux_in_order() -> None:
    rig = Rig([("presence", 5), ("count", 17), ("presence", 5), ("piece", 3)], debounce=1)
    rig.machine.set_many({4: 1, 5: 3, 21: 6, 22: 1, 26: 1, 27: 2, 29: 8})
    assert sorted(rig.changes(1)) == [(4, 1), (5, 3), (21, 6), (22, 1), (26, 1), (27, 2), (29, 8)]
    assert rig.machine.presence_bit[22] == 5 and rig.machine.analog_input[27] == 17


def test_heartbeat_when_idle() -> None:
    rig = Rig([("presence", 4)])
    msgs = rig.steps(1000)
    beats = [m for m in msgs if isinstance(m, P.Heartbeat)]
    assert len(beats) == 4 and beats[-1].mcu_ms == 1000 and beats[-1].scans == 1000


def test_answers_request_snapshot_and_hello() -> None:
    rig = Rig([("presence", 300), ("count", 28)])
    rig.machine.set(5, 1)
    rig.steps(5)
    rig.port.inbox += P.encode(P.RequestSnapshot(), 0) + P.encode(P.RequestHello(), 1)
    msgs = rig.steps(1)
    parts = [m for m in msgs if isinstance(m, P.SnapshotPart)]
    assert [(p.part, p.parts, p.total) for p in parts] == [(0, 2, 328), (1, 2, 328)]
    values = b"".join(p.values for p in parts)
    assert values[5] == 1 and sum(values) == 1
    assert isinstance(msgs[-1], P.Hello) and msgs[-1].blocks == (("presence", 300), ("count", 28))


def test_configure_applies_and_answers_hello() -> None:
    rig = Rig([("presence", 8)])
    rig.port.inbox += P.encode(P.Configure(2000, 1, 100), 0)
    (hello,) = rig.steps(1)
    assert isinstance(hello, P.Hello) and (hello.scan_us, hello.debounce_scans, hello.heartbeat_ms) == (2000, 1, 100)
    rig.machine.set(3, 1)
    assert rig.changes(1) == [(3, 1)]
    rig.port.inbox += P.encode(P.Configure(50, 1, 0), 1)
    assert rig.steps(1) == [P.Error(fw.ERR_BAD_CONFIG, "scan_us 100..1000000, debounce_scans 1..255")]
    assert rig.fw.scan_us == 2000


def test_bad_and_unknown_frames_get_errors_and_garbage_is_survived() -> None:
    rig = Rig([("presence", 8)])
    bad = bytearray(P.encode(P.RequestHello(), 0))
    bad[3] ^= 1
    rig.port.inbox += b"\x00garbage" + bad + b"\x07" * 100 + b"\x00" + P.encode(P.Heartbeat(0, 0), 1)
    rig.port.inbox += P.encode(P.RequestHello(), 2)
    msgs = rig.steps(1)
    assert [type(m).__name__ for m in msgs] == ["Error", "Error", "Error", "Error", "Hello"]
    assert [m.code for m in msgs[:4] if isinstance(m, P.Error)] == [
        fw.ERR_BAD_FRAME, fw.ERR_BAD_FRAME, fw.ERR_BAD_FRAME, fw.ERR_UNKNOWN_TYPE]


def test_bytes_before_the_first_delimiter_after_boot_are_not_a_bad_frame() -> None:
    """What mpremote leaves on the line after its reset reaches the new firmware: no false ERROR."""
    rig = Rig([("presence", 8)])
    rig.port.inbox += b"\x04\x02raw REPL leftovers" + P.encode(P.RequestHello(), 0) + b"junk" + b"\x00"
    msgs = rig.steps(1)
    assert [type(m).__name__ for m in msgs] == ["Hello", "Error"]  # junk after a frame still is one


def test_too_many_analog_channels_is_a_clear_error() -> None:
    config = fw.default_config([("count", 16 * 13 + 1)])
    with pytest.raises(ValueError, match="multiplexers"):
        fw.Firmware(config, SimMachine(config), ManualClock(), MemoryPort())


def test_run_loop_keeps_the_scan_period_and_stops() -> None:
    rig = Rig([("presence", 8)])
    stop_after = 50

    def step() -> None:
        fw.Firmware.step(rig.fw)
        if rig.fw.scans >= stop_after:
            rig.fw.running = False

    rig.fw.step = step  # type: ignore[method-assign]
    rig.fw.run()
    assert rig.clock.now_us == 50 * 1000 and rig.fw.overruns == 0
    assert isinstance(rig.port.decode()[0], P.Hello)


def test_watchdog_is_fed() -> None:
    rig = Rig([("presence", 8)], watchdog_ms=2000)
    rig.steps(7)
    assert rig.machine.wdt_feeds == 7


MICROPYTHON_MISSING = {"dataclasses", "typing", "binascii", "__future__", "abc", "enum", "collections"}


@pytest.mark.parametrize("name", ["arbitro_fw.py", "main.py"])
def test_firmware_sources_stay_micropython_compatible(name: str) -> None:
    """No f-strings, annotations, walrus, match, or modules MicroPython lacks; imports are known ones."""
    tree = ast.parse((FIRMWARE_DIR / name).read_text())
    allowed = {"struct", "sys", "select", "micropython", "machine", "time", "arbitro_fw", "board_config"}
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr), f"f-string at line {node.lineno}"
        assert not isinstance(node, ast.AnnAssign | ast.NamedExpr | ast.Match), f"line {node.lineno}"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), node.name
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= allowed
        if isinstance(node, ast.ImportFrom):
            assert node.module in allowed and node.module not in MICROPYTHON_MISSING
    compile((FIRMWARE_DIR / name).read_text(), name, "exec")


class _Halt(Exception):
    pass


def test_pico_main_py_runs_on_cpython(monkeypatch: pytest.MonkeyPatch) -> None:
    """main.py as the Pico runs it: ``import machine, time, arbitro_fw``, USB CDC on stdin/stdout."""
    import os
    import runpy
    import sys
    import types

    from firmware_bridge.boardconfig import as_module
    from hardware.layout import load_layout

    layout = load_layout("contigo")
    board_config = as_module(layout.board_config())  # what `arbitro firmware flash` writes
    machine = SimMachine(fw.config_from(board_config))
    machine.set(3, P.piece_code(1))  # player 1 single piece on square 3
    clock = ManualClock()
    stdin_r, stdin_w = os.pipe()
    stdin = open(stdin_r, "rb", buffering=0)  # noqa: SIM115
    out = bytearray()
    sleeps = [0]

    def sleep_us(us: int) -> None:
        clock.advance_us(us)
        sleeps[0] += 1
        if sleeps[0] == 5:
            os.write(stdin_w, P.encode(P.RequestSnapshot(), 0))
        if sleeps[0] == 20:
            raise _Halt

    fake_time = types.SimpleNamespace(
        ticks_ms=clock.ticks_ms,
        ticks_us=clock.ticks_us,
        ticks_add=clock.ticks_add,
        ticks_diff=clock.ticks_diff,
        sleep_us=sleep_us,
    )
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "time", fake_time)
    monkeypatch.setitem(sys.modules, "arbitro_fw", fw)
    monkeypatch.setitem(sys.modules, "board_config", board_config)
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=lambda c: None))
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=stdin, fileno=stdin.fileno))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=types.SimpleNamespace(write=out.extend)))
    try:
        with pytest.raises(_Halt):
            runpy.run_path(str(FIRMWARE_DIR / "main.py"))
    finally:
        stdin.close()
        os.close(stdin_w)
    msgs = [m for _, m in P.Decoder().feed(bytes(out))]
    assert isinstance(msgs[0], P.Hello) and list(msgs[0].blocks) == layout.blocks
    layout.check_firmware(msgs[0])  # board kind and configuration id too
    assert msgs[0].scan_us == 2000
    snap = [m for m in msgs if isinstance(m, P.SnapshotPart)]
    assert len(snap) == 1 and snap[0].values[3] == 3 and snap[0].total == 64
    assert machine.wdt_feeds == 20
