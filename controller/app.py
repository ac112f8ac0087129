"""Wiring: the service built from a configuration, with real or simulated parts.

``build_service`` picks each part from the configuration; the service itself never knows which
one it has: a serial link to the sensor MCU or to the simulated board, a NeoPixel strip or the
recording strip, gpiozero on lgpio or on its mock pin factory, a broker or none.
"""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from adafruit_pixelbuf import PixelBuf

from controller.config import Config, ConfigError, check_pins
from controller.journal import Journal
from controller.journal_files import JournalPathError
from controller.mqtt import MqttBridge
from controller.ports import Link, Post
from controller.service import Service
from hardware.layout import Layout, load_layout
from hardware.leds import LedStrip, RecordingPixels, open_neopixel

if TYPE_CHECKING:
    from controller.sound import TableSound

log = logging.getLogger("arbitro")

ON_A_PI = "on a Raspberry Pi install the Pi extras (.venv/bin/pip install -e '.[pi]')"


class StartupError(RuntimeError):
    """A part of the hardware that cannot be opened here, saying what to do about it."""


def make_strip(config: Config, layout: Layout) -> LedStrip:
    """The strip for ``layout``, which can be opened again for another board's LED count."""
    def make(n: int) -> PixelBuf:
        if config.leds.backend != "neopixel":
            return RecordingPixels(n, brightness=config.leds.brightness, wire=config.leds.backend == "sim-wire")
        try:
            return open_neopixel(config.leds.pin, n, config.leds.brightness)
        except Exception as exc:  # Blinka says "Board not supported" off a Pi, the drivers fail variously on one
            why = str(exc) or type(exc).__name__
            raise StartupError(f"leds: cannot open the NeoPixel strip on {config.leds.pin}: {why}; {ON_A_PI}, "
                               f"elsewhere set leds.backend = \"sim\"") from exc

    return LedStrip(make(layout.led_count), make)


def make_inputs(config: Config, layout: Layout) -> Any:
    if not config.inputs.enabled:
        return None
    from hardware.inputs import TableInputs

    factory = None
    if config.inputs.pin_factory == "mock":
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    elif config.inputs.pin_factory:  # gpiozero reads this when it makes its default factory
        os.environ["GPIOZERO_PIN_FACTORY"] = config.inputs.pin_factory
    # gpiozero warns once per default factory it cannot load before it gives up: the first reason
    # goes into the one error line, or into the log when a later factory did load.
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            inputs = TableInputs(layout, hold_time=config.inputs.hold_time, pin_factory=factory)
        except Exception as exc:  # no pin factory (not a Pi, no lgpio), no access to /dev/gpiochip*, ...
            why = str(fallbacks[0].message).removeprefix("Falling back from ") if fallbacks else str(exc)
            raise StartupError(f"inputs: cannot open the Pi's GPIO ({why}); {ON_A_PI}, "
                               f"elsewhere set inputs.pin_factory = \"mock\" or inputs.enabled = false") from exc
    for w in fallbacks:
        log.warning("%s: %s", w.category.__name__, w.message)
    return inputs


def make_sound(config: Config) -> TableSound | None:
    """The buzzer and the voice the ``[sound]`` section asks for; None when both are off."""
    sound = config.sound
    if not sound.buzzer and sound.voice == "off":
        return None
    from controller.sound import TableSound  # imported only for a table that makes sounds
    from controller.voice import Voice
    from hardware.buzzer import Buzzer

    buzzer = None
    if sound.buzzer:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin) if config.inputs.pin_factory == "mock" else None
        if config.inputs.pin_factory not in ("", "mock"):  # gpiozero reads this when it makes its default factory
            os.environ["GPIOZERO_PIN_FACTORY"] = config.inputs.pin_factory
        try:
            buzzer = Buzzer(sound.pin, pin_factory=factory)
        except Exception as exc:  # no pin factory (not a Pi), no access to /dev/gpiochip*, ...
            raise StartupError(f"sound: cannot open the buzzer on GPIO{sound.pin} ({exc}); {ON_A_PI}, elsewhere "
                               f"set inputs.pin_factory = \"mock\" or sound.buzzer = false") from exc
    language = getattr(config.board, "language", "es")  # the board's language, Spanish unless it says otherwise
    return TableSound(buzzer, Voice(language) if sound.voice == "on" else None)


def link_factory(config: Config) -> Callable[[str, Post], Link]:
    from firmware_bridge.link import HostLink

    def make(url: str, post: Post) -> Link:
        return HostLink(url, post, heartbeat_timeout=config.sensors.heartbeat_timeout)

    return make


def build_service(config: Config, *, sensor_url: str | None = None, strip: LedStrip | None = None,
                  mqtt_client_id: str | None = None) -> Service:
    """The service for ``config``; ``sensor_url`` overrides ``sensors.url`` (the demo's simulated board)."""
    layout = load_layout(config.board.layout or config.board.game)
    check_pins(config, layout)
    if config.remote.peer and not config.remote.address:  # allowed, but only the other board's bridge links them
        log.warning("remote: peer %s has no address here: this board does not bridge to it, so the other "
                    "board's [remote] address must reach this board's broker (docs/remote.md)", config.remote.peer)
    if sensor_url is not None:
        config.sensors.url = sensor_url
    mqtt = MqttBridge(config.mqtt, config.board.id, client_id=mqtt_client_id,
                      language=config.board.language) if config.mqtt.enabled else None
    sim = None
    if config.sensors.url == "sim":  # a simulated board in this process, set up as the game starts
        from firmware_bridge.sim import SimulatedBoard

        sim = SimulatedBoard(layout.blocks, board_kind=layout.board_kind)
        config.sensors.url = sim.url
    links = None if config.sensors.url == "none" else link_factory(config)  # "none": buttons and MQTT only
    service = Service(config, strip or make_strip(config, layout), layout=layout, link_factory=links,
                      mqtt=mqtt, open_inputs=lambda: make_inputs(config, layout), journal=make_journal(config),
                      sound=make_sound(config))
    if sim is not None:
        view = service.session.state.physical_view()
        sim.set_many({sensor: view[channel] for channel, sensor in layout.sensor_of.items()})
        service.owned.append(sim)
    if service.journal is not None:  # closed as the service stops: SQLite folds its WAL into the file
        service.owned.append(service.journal)
    return service


def make_journal(config: Config) -> Journal | None:
    """The journal file: ``journal.path``, else ``$STATE_DIRECTORY/journal.sqlite`` (systemd's
    ``StateDirectory=``), else none (the demo, a laptop)."""
    path = config.journal.path
    if not path and os.environ.get("STATE_DIRECTORY"):
        path = os.path.join(os.environ["STATE_DIRECTORY"].split(":")[0], "journal.sqlite")
    if not path:
        return None
    try:
        return Journal(path)
    except (OSError, sqlite3.Error, JournalPathError) as exc:  # a device, a directory, a file that is no journal
        raise ConfigError(f"journal.path: cannot use {path} as the journal: {exc}") from exc


def run_forever(service: Service) -> int:
    """Run until SIGINT/SIGTERM; 1 when the service stopped itself on a fatal mismatch."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        service.start()
    except StartupError:  # the buttons and rings are opened as it starts: it says offline again
        service.stop()
        raise
    while not stop.wait(0.2):
        if not service.running():
            break
    service.stop()
    if service.fatal:
        log.error("stopped: %s", service.fatal)
        return 1
    return 0
