"""Waiting on a condition, the one way the tests wait (never a fixed sleep)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], what: str, timeout: float = 10.0, poll: float = 0.005) -> None:
    """Return once ``condition()`` is true; fail the test naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        time.sleep(poll)  # poll interval
