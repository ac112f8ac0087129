"""A simulated sensor board: the real firmware, on CPython, behind a pty or a TCP port.

``SimulatedBoard(blocks)`` builds a firmware config for the reference pin plan (or takes the
``board_config`` values generated from a layout, as ``arbitro firmware flash`` writes them), a
``SimMachine`` (virtual sensors) and the unchanged ``arbitro_fw.Firmware``, and runs the
firmware's own ``run()`` loop on a thread. ``url`` is what to give ``HostLink``:

- ``transport="pty"``: a symlink ``<tmpdir>/ttyARBITRO`` to the pty's device end. The symlink
  is the stable name (like a udev ``SYMLINK+=``): ``unplug()`` closes the pty and removes the
  link, ``replug()`` makes a new pty and points the same link at it, so ``url`` never changes.
- ``transport="tcp"``: ``socket://127.0.0.1:PORT`` (``port=0`` picks a free one). One client at
  a time (a new one replaces the old); ``unplug()`` drops the client and stops listening,
  ``replug()`` listens again on the same port, so ``url`` never changes either.

While unplugged (or with no client) the firmware keeps scanning and its frames are dropped, as
a Pico's would be; ``replug(reboot=True)`` restarts it as a bus-powered Pico would, and
``reboot()`` restarts it in place (a watchdog reset). ``clock="manual"`` does not start the
thread: the caller drives time with ``advance(ms)`` (one firmware ``step()`` per scan period),
for deterministic tests.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import select
import shutil
import socket
import sys
import tempfile
import threading
import time
import tty
from typing import Any, TextIO

from firmware_bridge.firmware import arbitro_fw
from firmware_bridge.protocol import KINDS, MESSAGE_TYPES, RequestSnapshot, cobs_decode, encode
from firmware_bridge.sim_machine import ManualClock, RealClock, SimMachine


class _PtyPort:
    """The firmware's port on the controller end of a pty, published as a stable symlink."""

    def __init__(self, link_path: str) -> None:
        self.link_path = link_path
        self.lock = threading.Lock()
        self.master: int | None = None
        self.slave: int | None = None
        self.local = bytearray()
        self.dropped = 0
        self.plug()

    @property
    def url(self) -> str:
        return self.link_path

    def plug(self) -> None:
        with self.lock:
            master, slave = os.openpty()
            tty.setraw(master)
            tty.setraw(slave)
            os.set_blocking(master, False)
            tmp = self.link_path + ".new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.link_path)
            self.master, self.slave = master, slave

    def unplug(self) -> None:
        with self.lock:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)
            for fd in (self.master, self.slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.master = self.slave = None

    def read(self) -> bytes:
        with self.lock:
            local = bytes(self.local)
            self.local.clear()
            if self.master is None:
                return local
            try:
                return local + os.read(self.master, 4096)
            except OSError:  # EAGAIN: nothing to read
                return local

    def write(self, data: bytes) -> None:
        with self.lock:
            if self.master is None:
                self.dropped += 1
                return
            view = memoryview(data)
            deadline = time.monotonic() + 0.05
            while view:
                try:
                    view = view[os.write(self.master, view) :]
                except BlockingIOError:
                    # Nobody reading: drop a frame not yet started; finish one half written if we can.
                    if len(view) == len(data) or time.monotonic() > deadline:
                        self.dropped += 1
                        return
                    select.select([], [self.master], [], 0.005)
                except OSError:
                    self.dropped += 1
                    return

    def close(self) -> None:
        self.unplug()


class _TcpPort:
    """The firmware's port as a one-client TCP server on 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.lock = threading.Lock()
        self.port = port
        self.server: socket.socket | None = None
        self.client: socket.socket | None = None
        self.local = bytearray()
        self.dropped = 0
        self._acceptor: threading.Thread | None = None
        self.plug()

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def plug(self) -> None:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind(("127.0.0.1", self.port))
            server.listen(1)
        except OSError:  # the port is taken: the caller says so
            server.close()
            raise
        self.port = server.getsockname()[1]
        self.server = server
        self._acceptor = threading.Thread(target=self._accept, args=(server,), name="sim-tcp-accept", daemon=True)
        self._acceptor.start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            client.setblocking(False)
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                old, self.client = self.client, client
            if old is not None:
                old.close()

    def unplug(self) -> None:
        with self.lock:
            server, self.server = self.server, None
            client, self.client = self.client, None
        for s in (client, server):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
        if self._acceptor is not None:
            self._acceptor.join(timeout=2)

    def read(self) -> bytes:
        with self.lock:
            local = bytes(self.local)
            self.local.clear()
            client = self.client
            if client is None:
                return local
            try:
                data = client.recv(4096)
            except (BlockingIOError, InterruptedError):
                return local
            except OSError:
                data = b""
            if not data:  # the host closed its end
                client.close()
                self.client = None
            return local + data

    def write(self, data: bytes) -> None:
        with self.lock:
            if self.client is None:
                self.dropped += 1
                return
            try:
                self.client.sendall(data)
            except OSError as e:
                self.dropped += 1
                if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                    self.client.close()
                    self.client = None

    def close(self) -> None:
        self.unplug()


class _LossyWire:
    """What the firmware writes through: drops the frames ``lose`` asked for, passes the rest on."""

    def __init__(self, port: _PtyPort | _TcpPort) -> None:
        self.port = port
        self.lock = threading.Lock()
        self.to_lose: dict[int, int] = {}  # message type -> frames still to drop
        self.lost = 0

    def read(self) -> bytes:
        return self.port.read()

    def write(self, data: bytes) -> None:
        body = cobs_decode(data.strip(b"\x00")) if self.to_lose else None
        if body is not None and len(body) > 1:
            with self.lock:
                left = self.to_lose.get(body[1], 0)
                if left:
                    if left == 1:
                        del self.to_lose[body[1]]
                    else:
                        self.to_lose[body[1]] = left - 1
                    self.lost += 1
                    return
        self.port.write(data)


def parse_channels(spec: str) -> list[tuple[str, int]]:
    """``"presence:283,count:28"`` -> ``[("presence", 283), ("count", 28)]``; ValueError if malformed."""
    blocks = []
    for item in spec.split(","):
        kind, sep, count = item.strip().partition(":")
        if not sep or kind not in KINDS or not count.isdigit() or int(count) < 1:
            raise ValueError(f"bad channel block {item!r}: want KIND:COUNT, KIND one of {', '.join(KINDS)}")
        blocks.append((kind, int(count)))
    if not blocks:
        raise ValueError("no channel blocks")
    return blocks


class SimulatedBoard:
    """The firmware on a thread against virtual sensors, reachable at ``url`` (see the module docstring).

    ``blocks``: ``[(kind, count), ...]`` in channel order. ``set``/``set_many`` change what the
    sensors see (presence 0/1; count and piece 0..63); the firmware reports the change after
    ``debounce_scans`` scans of ``scan_ms``. ``values()`` is what the sensors see,
    ``reported()`` the firmware's debounced state. ``inject(data)`` writes raw bytes to the host
    between two frames; ``lose(name, frames)`` drops the next frames of one message type on their
    way to the host. Thread-safe for one controlling thread.
    """

    def __init__(
        self,
        blocks: list[tuple[str, int]],
        board_kind: str = "generic",
        transport: str = "pty",
        scan_ms: float = 1.0,
        debounce_scans: int = 3,
        *,
        port: int = 0,
        heartbeat_ms: int = 250,
        clock: str = "real",
        noise: int = 0,
        board_config: dict[str, Any] | None = None,
    ) -> None:
        if transport not in ("pty", "tcp"):
            raise ValueError(f"transport must be 'pty' or 'tcp', not {transport!r}")
        if clock not in ("real", "manual"):
            raise ValueError(f"clock must be 'real' or 'manual', not {clock!r}")
        self.blocks = [(kind, int(count)) for kind, count in blocks]
        self.config: dict[str, Any] = arbitro_fw.default_config(
            self.blocks, board_kind, round(scan_ms * 1000), debounce_scans, heartbeat_ms
        )
        if board_config is not None:  # exactly what the Pico would run (its own scan settings too)
            from firmware_bridge.boardconfig import as_module

            self.config = arbitro_fw.config_from(as_module(board_config))
            self.config["watchdog_ms"] = 0
            self.blocks = [(kind, int(count)) for kind, count in self.config["blocks"]]
        self.machine = SimMachine(self.config, noise=noise)
        self.clock = ManualClock() if clock == "manual" else RealClock()
        self._tmpdir: str | None = None
        self.port: _PtyPort | _TcpPort
        if transport == "pty":
            self._tmpdir = tempfile.mkdtemp(prefix="arbitro-sim-")
            self.port = _PtyPort(os.path.join(self._tmpdir, "ttyARBITRO"))
        else:
            self.port = _TcpPort(port)
        self.wire = _LossyWire(self.port)
        self._thread: threading.Thread | None = None
        self._closed = False
        self._boot()

    def _boot(self) -> None:
        """Start a fresh firmware (sequence 0, boot scan, HELLO), on a thread unless the clock is manual."""
        self.firmware = arbitro_fw.Firmware(self.config, self.machine, self.clock, self.wire)
        if isinstance(self.clock, ManualClock):
            self.firmware.send_hello()
        else:
            self._thread = threading.Thread(target=self.firmware.run, name="sim-firmware", daemon=True)
            self._thread.start()

    def _halt(self) -> None:
        self.firmware.running = False
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def url(self) -> str:
        """The pty symlink path or ``socket://127.0.0.1:PORT``; stable across unplug/replug."""
        return self.port.url

    @property
    def channels(self) -> int:
        """Number of channels."""
        n: int = self.firmware.n
        return n

    def set(self, channel: int, value: int) -> None:
        """Make sensor ``channel`` read ``value``."""
        self.machine.set(channel, value)

    def set_many(self, values: dict[int, int]) -> None:
        """``set`` several channels at once (reported in the same scan)."""
        self.machine.set_many(values)

    def set_raw(self, channel: int, reading: int) -> None:
        """Make analog ``channel``'s ADC read ``reading`` (0..65535; see ``SimMachine.set_raw``)."""
        self.machine.set_raw(channel, reading)

    def values(self) -> list[int]:
        """What the sensors see now, by channel."""
        return list(self.machine.values)

    def reported(self) -> list[int]:
        """The firmware's debounced (reported) values, by channel."""
        return list(self.firmware.stable)

    def wait_idle(self, timeout: float = 2.0) -> bool:
        """Wait until the firmware has reported every sensor's current value; False on timeout."""
        deadline = time.monotonic() + timeout
        while self.machine.values != self.firmware.stable:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    def advance(self, ms: float) -> None:
        """``clock="manual"`` only: run the firmware for ``ms`` of virtual time, one step per scan period."""
        if not isinstance(self.clock, ManualClock):
            raise RuntimeError("advance() needs clock='manual'")
        end = self.clock.now_us + round(ms * 1000)
        while self.clock.now_us + self.firmware.scan_us <= end:
            self.clock.advance_us(self.firmware.scan_us)
            self.firmware.step()

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the host, between two whole frames (for fault tests)."""
        self.port.write(data)

    def lose(self, name: str, frames: int = 1) -> None:
        """Drop the next ``frames`` frames of message ``name`` (``"Hello"``, ``"SnapshotPart"``...) the firmware sends.

        The firmware's sequence numbers still count them, as for a frame lost on the cable.
        """
        mtype = next(t for t, cls in MESSAGE_TYPES.items() if cls.__name__ == name)
        with self.wire.lock:
            self.wire.to_lose[mtype] = self.wire.to_lose.get(mtype, 0) + frames

    def send_snapshot(self) -> None:
        """Make the firmware send an unsolicited SNAPSHOT at its next step.

        Done by handing the firmware a REQUEST_SNAPSHOT frame as if the host had sent it, so the
        firmware's own thread sends it (sequence numbers stay in order).
        """
        with self.port.lock:
            self.port.local += encode(RequestSnapshot(), 0)

    def unplug(self) -> None:
        """Close the pty (removing its symlink) or the TCP server; the firmware keeps scanning."""
        self.port.unplug()

    def replug(self, reboot: bool = False) -> None:
        """Open a new pty at the same symlink, or listen again on the same TCP port.

        ``reboot=True`` also restarts the firmware, as a bus-powered Pico does when plugged in:
        sequence numbers start again at 0, unsent debounce state is lost, and it says HELLO.
        """
        if reboot:
            self._halt()
        self.port.plug()
        if reboot:
            self._boot()

    def reboot(self) -> None:
        """Restart the firmware without touching the port (a watchdog reset): HELLO, sequence 0."""
        self._halt()
        self._boot()

    def close(self) -> None:
        """Stop the firmware thread and close the port."""
        if self._closed:
            return
        self._closed = True
        self._halt()
        self.port.close()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_layout(path: str) -> tuple[str, list[tuple[str, int]]]:
    """``(board_kind, blocks)`` from a JSON layout ``{"board_kind": ..., "blocks": [["presence", 36], ...]}``."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    try:
        blocks = [(str(kind), int(count)) for kind, count in data["blocks"]]
        spec = ",".join(f"{kind}:{count}" for kind, count in blocks)
        return str(data.get("board_kind", "generic")), parse_channels(spec)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: bad layout ({e})") from e


CONSOLE_HELP = """commands (one per line; each answered "ok ..." or "error: ..."):
  set CH VALUE [CH VALUE ...]   change what sensors see (presence 0/1, count/piece 0..63);
                                CH is a number or, with --layout, a channel name (sq:c3)
  show                          print the channels that are not 0, as CH=VALUE
  snapshot                      make the board send a SNAPSHOT now
  wait                          wait until the firmware has reported every change
  unplug | replug               close / reopen the pty or TCP port (the URL stays the same)
  reboot                        restart the firmware (HELLO, sequence numbers from 0)
  help | quit"""


def run_console(board: SimulatedBoard, lines: TextIO, out: TextIO, names: dict[str, int] | None = None) -> int:
    """Execute console commands (``CONSOLE_HELP``) from ``lines`` until ``quit`` or end of input.

    ``names``: channel name -> sensor channel (a layout's ``sensor_of``), for ``set sq:c3 1``."""
    names = names or {}
    number_of = {c: n for n, c in sorted(names.items(), key=lambda item: item[1])}

    def channel(word: str) -> int:
        if word in names:
            return names[word]
        if not word.isdigit():
            raise ValueError(f"no channel {word!r}" + (" in the layout" if names else " (a number, or --layout)"))
        return int(word)

    for line in lines:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd == "quit":
                break
            if cmd == "set":
                if not args or len(args) % 2:
                    raise ValueError("set CH VALUE [CH VALUE ...]")
                board.set_many({channel(args[i]): int(args[i + 1]) for i in range(0, len(args), 2)})
                print("ok", file=out)
            elif cmd == "show":
                shown = " ".join(f"{number_of.get(ch, ch)}={v}" for ch, v in enumerate(board.values()) if v)
                print(f"ok {shown}".rstrip(), file=out)
            elif cmd == "snapshot":
                board.send_snapshot()
                print("ok", file=out)
            elif cmd == "wait":
                print("ok" if board.wait_idle() else "error: firmware still debouncing", file=out)
            elif cmd == "unplug":
                board.unplug()
                print("ok", file=out)
            elif cmd == "replug":
                board.replug()
                print("ok", file=out)
            elif cmd == "reboot":
                board.reboot()
                print("ok", file=out)
            elif cmd == "help":
                print(CONSOLE_HELP, file=out)
            else:
                raise ValueError(f"unknown command {cmd!r} (try help)")
        except ValueError as e:
            print(f"error: {e}", file=out)
        out.flush()
    return 0


def run_pico(fs_dir: str, lines: TextIO, out: TextIO) -> int:
    """``arbitro sim --pico [DIR]``: a simulated Pico (``sim_pico.SimPico``) to rehearse ``arbitro
    firmware flash`` on: prints its URL, keeps it until ``quit`` or the end of ``lines``. Its flash
    filesystem is ``fs_dir`` (kept), or a temporary directory removed at the end."""
    from firmware_bridge.sim_pico import SimPico

    directory = fs_dir or tempfile.mkdtemp(prefix="arbitro-pico-")
    try:
        with SimPico(directory) as pico:
            print(pico.url, flush=True, file=out)
            print(f"a simulated Pico; rehearse: arbitro firmware flash --layout GAME --url {pico.url} "
                  f"(its files land in {directory}); quit ends it", file=sys.stderr, flush=True)
            for line in lines:
                if line.strip() == "quit":
                    break
    finally:
        if not fs_dir:
            shutil.rmtree(directory, ignore_errors=True)
    return 0


def main(args: argparse.Namespace) -> int:
    """``arbitro sim``: start a board from ``--channels`` or ``--layout``, print its URL, run the
    console; with ``--pico``, a simulated Pico for ``arbitro firmware flash`` instead."""
    if getattr(args, "pico", None) is not None:
        return run_pico(args.pico, sys.stdin, sys.stdout)
    names: dict[str, int] = {}
    board_config: dict[str, Any] | None = None
    try:
        if args.layout:
            board_kind, blocks = load_layout(args.layout)
            names, board_config = _layout_names(args.layout)
        else:
            board_kind, blocks = args.board_kind, parse_channels(args.channels)
    except (OSError, ValueError) as e:
        print(f"arbitro sim: {e}", file=sys.stderr)
        return 2
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        print(f"arbitro sim: --tcp {args.tcp}: a TCP port is 0..65535 (0: any free one)", file=sys.stderr)
        return 2
    transport = "tcp" if args.tcp is not None else "pty"
    try:
        board = SimulatedBoard(blocks, board_kind, transport, scan_ms=args.scan_ms, debounce_scans=args.debounce,
                               port=args.tcp or 0, board_config=board_config)
    except OSError as e:  # the port is taken
        where = f"127.0.0.1:{args.tcp}" if transport == "tcp" else "a pseudo-terminal"
        print(f"arbitro sim: cannot serve on {where}: {e.strerror or e}", file=sys.stderr)
        return 1
    with board:
        print(board.url, flush=True)
        return run_console(board, sys.stdin, sys.stdout, names)


def _layout_names(path: str) -> tuple[dict[str, int], dict[str, Any] | None]:
    """A full board layout's channel names and firmware config (the firmware it would be flashed
    with); nothing for a file that only gives blocks (a bare ``{"board_kind", "blocks"}``)."""
    from hardware.layout import LayoutError
    from hardware.layout import load_layout as load_board_layout

    with open(path, encoding="utf-8") as f:
        if "channels" not in json.load(f):
            return {}, None
    try:
        layout = load_board_layout(path)
    except LayoutError as e:
        raise ValueError(str(e)) from e
    return dict(layout.sensor_of), layout.board_config()
