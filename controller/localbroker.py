"""A private Mosquitto on a free loopback port: for the demo when no broker is configured, and for
the tests (which start and stop their own)."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from collections.abc import Iterable
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def mosquitto_binary() -> str:
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("mosquitto is not installed: the README's commands install it (apt-get install mosquitto)")


class Broker:
    """One mosquitto process with a generated configuration in ``workdir``.

    ``extra`` lines are appended to the configuration (listeners, ACLs, password files). The same
    port is reused across ``stop()``/``start()`` so clients can reconnect to a restarted broker.
    """

    def __init__(self, workdir: Path, extra: Iterable[str] = (), port: int | None = None,
                 anonymous: bool = True) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.conf = workdir / "mosquitto.conf"
        self.log = workdir / "mosquitto.log"
        lines = [
            f"user {getpass.getuser()}",
            f"listener {self.port} 127.0.0.1",
            f"allow_anonymous {'true' if anonymous else 'false'}",
            "persistence false",
            "set_tcp_nodelay true",
            f"log_dest file {self.log}",
            "log_type all",
            *extra,
        ]
        self.conf.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> Broker:
        # A session of its own: Ctrl-C at the terminal reaches its owner, which stops it last (the
        # demo's service still publishes "offline" through it), not the broker at the same moment.
        self.process = subprocess.Popen([mosquitto_binary(), "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                log = self.log.read_text() if self.log.exists() else ""
                raise RuntimeError(f"mosquitto exited: {err}\n{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout}s")

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM (Mosquitto then saves its persistence file), SIGKILL after ``timeout`` seconds."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""
