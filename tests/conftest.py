"""Shared fixtures: a real Mosquitto, real pseudo-terminals, gpiozero's mock pin factory."""

from __future__ import annotations

import contextlib
import os
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.games import Game
from controller.localbroker import Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A fresh Mosquitto on a free loopback port, stopped after the test."""
    b = Broker(tmp_path).start()
    yield b
    b.stop()


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    """A raw pseudo-terminal: (controller fd, path of the device end for pyserial)."""
    controller, device = os.openpty()
    tty.setraw(controller)
    tty.setraw(device)
    path = os.ttyname(device)
    yield controller, path
    for fd in (controller, device):
        with contextlib.suppress(OSError):
            os.close(fd)


@pytest.fixture
def mock_pins() -> Iterator[Any]:
    """gpiozero's own MockFactory, fresh for each test (pins would otherwise stay "in use")."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Game:
    """Registers the test-only noughts-and-crosses game as ``toy``."""
    from controller.games import registry

    monkeypatch.setitem(registry.ENGINES, "toy", "tests.support.toy")
    return registry.get_game("toy")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The random order's seed (pytest-randomly), also under ``-q``, which hides the header that
    names it: an order that made a test fail is repeated with ``-p randomly --randomly-seed=N``."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"tests ran in random order: repeat it with --randomly-seed={seed}")
