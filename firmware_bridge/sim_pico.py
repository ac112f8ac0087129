"""A simulated Pico for ``mpremote``: a flash filesystem, the firmware booting from it, and the REPL.

No MicroPython unix port is packaged for Debian, and mpremote needs a device that speaks the
raw REPL, so ``SimPico(fs_dir)`` plays the device on a pty (``url``):

- **boot**: if ``main.py`` is on its filesystem, it runs it as the Pico does -- the *copied*
  ``main.py``, ``arbitro_fw.py`` and ``board_config.py`` on CPython, with ``machine`` a
  ``SimMachine`` wired as that ``board_config`` says and USB CDC being the pty. The firmware
  turns Ctrl-C off (as on the Pico); a STOP frame ends it and the device falls to the REPL.
- **friendly REPL** (``>>>``): Ctrl-A enters the raw REPL, Ctrl-D soft-reboots (runs
  ``main.py`` again), Ctrl-B prints the banner. It does not evaluate typed lines.
- **raw REPL**: what mpremote drives: code up to Ctrl-D is run (``OK``, its output, ``\\x04``,
  the error text, ``\\x04``, ``>``), Ctrl-D on an empty buffer soft-reboots into the raw REPL
  (``main.py`` not run, as on MicroPython), raw-paste mode is declined (``R\\x00``), so mpremote
  falls back to plain raw REPL. The code sees ``open`` and ``os`` confined to ``fs_dir``, and a
  ``machine.reset()`` that reboots the device (running ``main.py``).

What a real Pico adds and this does not check: the USB device re-enumerating after a reset, the
Pico's memory, real flash wear and timing. The firmware itself runs under the real MicroPython
interpreter (its WebAssembly port) and through ``mpy-cross`` in ``tests/firmware_bridge/test_micropython.py``.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import importlib.util
import io
import os
import select
import threading
import time
import traceback
import tty
import types
from pathlib import Path
from typing import Any

from firmware_bridge.sim_machine import RealClock, SimMachine

BANNER = b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040 (simulated)\r\n" \
         b'Type "help()" for more information.\r\n>>> '
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"


class _Reset(Exception):
    """machine.reset() inside the raw REPL."""


class _PowerOff(Exception):
    """The simulated device is being closed: unwinds the firmware's loop."""


class SimPico:
    """See the module docstring. ``close()`` ends it; ``machine`` is the running firmware's sensors."""

    def __init__(self, fs_dir: Path | str) -> None:
        self.fs = Path(fs_dir).resolve()
        self.fs.mkdir(parents=True, exist_ok=True)
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        self.url = os.ttyname(self.slave)
        self.machine: SimMachine | None = None
        self.boots = 0
        self.closing = False
        self.running_firmware = False
        self._pending = bytearray()
        self._thread = threading.Thread(target=self._device, name="sim-pico", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.closing = True
        self._thread.join(timeout=5)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> SimPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the wire ---------------------------------------------------------------------------

    def _read(self, timeout: float = 0.01) -> bytes:
        if self.closing:
            raise _PowerOff
        if self._pending:
            data, self._pending = bytes(self._pending), bytearray()
            return data
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.master, 4096)
        except OSError:
            return b""

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view and not self.closing:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                select.select([], [self.master], [], 0.01)

    # -- the device -------------------------------------------------------------------------

    def _device(self) -> None:
        try:
            self._boot()
            self._repl()
        except _PowerOff:
            pass

    def _boot(self) -> None:
        """Reset: run main.py if there is one (until STOP), then the friendly REPL's banner."""
        self.boots += 1
        if (self.fs / "main.py").is_file():
            self._run_main()
        self._write(BANNER)

    def _load(self, name: str) -> types.ModuleType:
        spec = importlib.util.spec_from_file_location(name, self.fs / f"{name}.py")
        if spec is None or spec.loader is None:
            raise ImportError(name)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    def _run_main(self) -> None:
        pico = self
        try:
            fw = self._load("arbitro_fw")
            board_config = self._load("board_config")
            self.machine = SimMachine(fw.config_from(board_config))
        except Exception:
            self._write(traceback.format_exc().replace("\n", "\r\n").encode())
            return

        class Port:  # USB CDC: the pty
            def read(self) -> bytes:
                return pico._read(0)

            def write(self, data: bytes) -> None:
                pico._write(data)

        fw.UsbCdcPort = Port  # type: ignore[attr-defined]  # main.py's USB CDC: the pty
        clock = RealClock()
        modules = {"arbitro_fw": fw, "board_config": board_config, "machine": self.machine,
                   "time": clock, "micropython": types.SimpleNamespace(kbd_intr=lambda c: None)}
        self.running_firmware = True
        try:
            self._exec((self.fs / "main.py").read_text(), modules, {})
        except _PowerOff:
            raise
        except Exception:
            self._write(traceback.format_exc().replace("\n", "\r\n").encode())
        finally:
            self.running_firmware = False

    def _exec(self, code: str, modules: dict[str, Any], namespace: dict[str, Any]) -> None:
        real_import = builtins.__import__

        def imp(name: str, *args: Any, **kwargs: Any) -> Any:
            return modules[name] if name in modules else real_import(name, *args, **kwargs)

        namespace["__builtins__"] = {**vars(builtins), "__import__": imp, "open": self._open,
                                     "print": namespace.get("__print__", builtins.print)}
        namespace.setdefault("__name__", "__main__")
        exec(compile(code, "<stdin>", "exec"), namespace)

    def _repl(self) -> None:
        raw = False
        code = bytearray()
        namespace: dict[str, Any] = {}
        while True:
            data = self._read()
            for i, b in enumerate(data):
                if b == 0x01:  # Ctrl-A
                    self._write(RAW_PROMPT if raw else b"\r\n" + RAW_PROMPT)
                    raw, code, namespace = True, bytearray(), {}
                elif b == 0x02:  # Ctrl-B
                    raw = False
                    self._write(b"\r\n" + BANNER)
                elif b == 0x03:  # Ctrl-C
                    code = bytearray()
                    if not raw:
                        self._write(b"\r\n>>> ")
                elif b == 0x04:  # Ctrl-D
                    if raw and code:
                        self._write(b"OK")
                        if self._raw_exec(bytes(code), namespace):
                            self._pending += data[i + 1:]
                            return self._reboot_then_repl()
                        code = bytearray()
                    elif raw:
                        self._write(b"MPY: soft reboot\r\n" + RAW_PROMPT)
                        namespace = {}
                    else:
                        self._write(b"MPY: soft reboot\r\n")
                        self._pending += data[i + 1:]
                        return self._reboot_then_repl()
                elif b == 0x05 and raw and not code:  # raw-paste request: declined
                    self._pending += data[i + 1:]
                    follow = self._read(1.0)
                    while len(follow) < 2:
                        follow += self._read(1.0)
                    self._pending = bytearray(follow[2:]) + self._pending
                    self._write(b"R\x00")
                    break
                elif raw:
                    code.append(b)

    def _reboot_then_repl(self) -> None:
        self._boot()
        self._repl()

    def _raw_exec(self, code: bytes, namespace: dict[str, Any]) -> bool:
        """Run one raw-REPL command; True when it reset the device."""
        out = io.StringIO()

        def print_(*args: Any, sep: str = " ", end: str = "\n", file: Any = None) -> None:
            out.write(sep.join(str(a) for a in args) + end)

        namespace["__print__"] = print_
        shim_time = types.SimpleNamespace(sleep_ms=lambda ms: time.sleep(ms / 1000), sleep=time.sleep)
        modules = {"os": _FsOs(self), "machine": types.SimpleNamespace(reset=self._reset), "time": shim_time}
        err = ""
        try:
            self._exec(code.decode(), modules, namespace)
        except _Reset:
            return True
        except OSError as e:
            err = f"Traceback (most recent call last):\r\n  File \"<stdin>\"\r\nOSError: [Errno {e.errno}] " \
                  f"{errno.errorcode.get(e.errno or 0, '')}\r\n"
        except Exception as e:
            err = f"Traceback (most recent call last):\r\n  File \"<stdin>\"\r\n{type(e).__name__}: {e}\r\n"
        self._write(out.getvalue().replace("\n", "\r\n").encode() + b"\x04" + err.encode() + b"\x04>")
        return False

    def _reset(self) -> None:
        raise _Reset

    def path(self, p: str) -> Path:
        """A device path (``/main.py``, ``main.py``, ``""``) inside ``fs_dir``; nothing outside it."""
        target = (self.fs / p.lstrip("/")).resolve()
        if target != self.fs and self.fs not in target.parents:
            raise OSError(errno.EACCES, p)
        return target

    def _open(self, p: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        return open(self.path(p), mode, *args, **kwargs)


class _FsOs:
    """The part of MicroPython's ``os`` that mpremote's filesystem commands use, inside ``fs_dir``."""

    def __init__(self, pico: SimPico) -> None:
        self.p = pico.path

    def stat(self, p: str) -> os.stat_result:
        return os.stat(self.p(p))

    def ilistdir(self, p: str = "") -> list[tuple[str, int, int, int]]:
        return [(e.name, 0x4000 if e.is_dir() else 0x8000, 0, e.stat().st_size) for e in os.scandir(self.p(p))]

    def listdir(self, p: str = "") -> list[str]:
        return sorted(os.listdir(self.p(p)))

    def mkdir(self, p: str) -> None:
        os.mkdir(self.p(p))

    def rmdir(self, p: str) -> None:
        os.rmdir(self.p(p))

    def remove(self, p: str) -> None:
        os.remove(self.p(p))

    def rename(self, a: str, b: str) -> None:
        os.rename(self.p(a), self.p(b))

    def getcwd(self) -> str:
        return "/"

    def uname(self) -> tuple[str, ...]:
        return ("rp2", "rp2", "1.24.1", "v1.24.1", "Raspberry Pi Pico with RP2040 (simulated)")
