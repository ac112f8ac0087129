"""systemd's notify protocol (``Type=notify``, ``WatchdogSec=``), without a library.

``notify("READY=1")`` sends one datagram to ``$NOTIFY_SOCKET``; it does nothing when systemd did not
start us. ``watchdog_interval()`` is half of ``$WATCHDOG_USEC`` (when it is meant for this process),
the period at which the service's loop pings ``WATCHDOG=1``: a loop that stops turning gets the
service restarted.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``, ``STOPPING=1``) to systemd."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return False
    if path.startswith("@"):  # an abstract socket
        path = "\0" + path[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(path)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings, or None when no watchdog is asked for."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2e6
    except ValueError:
        return None


class Watchdog:
    """Pings ``WATCHDOG=1`` every :func:`watchdog_interval` while the loop turns (nothing without one)."""

    def __init__(self, now: float) -> None:
        self.interval = watchdog_interval()
        self.due: float | None = now if self.interval else None

    def tick(self, now: float) -> None:
        if self.interval is not None and self.due is not None and now >= self.due:
            notify("WATCHDOG=1")
            self.due = now + self.interval
