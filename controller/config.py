"""The service's configuration: one TOML file, every key with a default, every bad value refused.

``load_config(path)`` reads ``/etc/arbitro/config.toml`` (or any path); ``Config.from_dict`` does
the checking, so an unknown section or key, a wrong type or an out-of-range value stops the
service at start-up with a :class:`ConfigError` that names the key.
"""

from __future__ import annotations

import math
import re
import ssl
import tomllib
import unicodedata
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.layout import Layout


class ConfigError(ValueError):
    """A configuration that cannot be used, naming the key and what is wrong."""


def first_game() -> str:
    """The game a board plays unless told otherwise: the first of the registry's, by name."""
    from controller.games import game_names  # the registry, loaded once a board is configured

    return game_names()[0]


@dataclass
class BoardConfig:
    id: str = "board1"
    game: str = field(default_factory=first_game)
    num_players: int = 0  # 0: the game's fewest players
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)  # "table", "bot:<level>" or "phone", seat by seat; the rest: table
    seed: int = -1  # -1: a fresh chance secret per game; 0 or more: dice from this seed, predictable (tests, demos)
    layout: str = ""  # a layout file; empty: the reference layout of the game
    allow_takeback: bool = True
    chance: str = "button"  # "button": roll / MQTT resolve chance; "auto": at once
    language: str = "es"  # what players read on MQTT and the terminal: "es" (the players' and the rules') or "en"


@dataclass
class SensorsConfig:
    # a serial device, a pyserial URL, "sim": a simulated board in-process, "none": no sensor board
    # (moves come from the buttons and MQTT only)
    url: str = "/dev/arbitro-sensors"
    debounce_ms: float = 25.0
    # A move the hands could still carry on to another is recorded once the board has been still this
    # long (a hand slides over a slot in 5-100 ms); one nothing else could follow from, at once.
    commit_ms: float = 200.0
    heartbeat_timeout: float = 3.0


@dataclass
class LedsConfig:
    backend: str = "sim"  # "sim" | "sim-wire" (a sim taking a WS2812's wire time) | "neopixel"
    pin: str = "SPI"  # "SPI" (GPIO10, no root needed) or a board pin "D<n>"; D18 is Scriptorium's centre encoder
    brightness: float = 0.3
    blink_hz: float = 2.0
    # Each player's pattern beside his colour, seat by seat (repeated past the last): "steady", "slow",
    # "double", "triple" (blinks); []: all steady. For players who tell colours apart badly (issue 36).
    patterns: list[str] = field(default_factory=list)


@dataclass
class InputsConfig:
    enabled: bool = True
    pin_factory: str = ""  # "" = gpiozero's default (lgpio on a Pi); "mock" anywhere
    hold_time: float = 1.0


@dataclass
class MqttConfig:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 1883
    base_topic: str = "arbitro"
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_certs: str = ""  # CA bundle for the broker's certificate; empty: the system's
    certfile: str = ""  # client certificate (with keyfile) when the broker asks for one
    keyfile: str = ""
    keepalive: int = 30
    homeassistant: bool = False
    discovery_prefix: str = "homeassistant"
    display_url: str = ""  # the display as Home Assistant's users reach it: the board page is its configuration_url


@dataclass
class JournalConfig:
    path: str = ""  # "": $STATE_DIRECTORY/journal.sqlite under systemd, else no journal
    resume: bool = True  # after a power cut or crash, carry on with the board's last game (a finished one is shown)


@dataclass
class SoundConfig:
    buzzer: bool = False  # a buzzer on ``pin`` plays the table's cues (docs/build/README.md, "Sound")
    pin: int = 12  # its GPIO; on inputs.pin_factory's pins (a mock PWM pin with "mock")
    voice: str = "off"  # "on": announcements spoken by espeak-ng in the board's language


@dataclass
class RemoteConfig:
    """One game on two boards (``docs/remote.md``): the other board, and the bridge from this
    board's Mosquitto to its broker (``arbitro remote-bridge`` writes the stanza)."""

    peer: str = ""  # the other board's [board] id; "": no remote game
    address: str = ""  # host:port of the other board's broker (TLS); "": the other board bridges to this one
    username: str = ""  # this board's account on the other broker
    password: str = ""
    cafile: str = ""  # the CA of the other broker's certificate


@dataclass
class Config:
    board: BoardConfig = field(default_factory=BoardConfig)
    sensors: SensorsConfig = field(default_factory=SensorsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    inputs: InputsConfig = field(default_factory=InputsConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        sections = {f.name: f.type for f in fields(cls)}
        built: dict[str, Any] = {}
        for name, value in data.items():
            if name not in sections:
                raise ConfigError(f"unknown section [{name}] (known: {', '.join(sections)})")
            if not isinstance(value, dict):
                raise ConfigError(f"[{name}] must be a table")
            built[name] = _section(name, getattr(cls(), name).__class__, value)
        config = cls(**built)
        config.check()
        return config

    def check(self) -> None:
        from controller.games import game_names

        b = self.board
        if b.game not in game_names():
            raise ConfigError(f"board.game: unknown game {b.game!r} (known: {', '.join(game_names())})")
        check_topic_name("board.id", b.id, BOARD_ID_MAX, levels=False)
        if b.chance not in ("button", "auto"):
            raise ConfigError("board.chance: must be 'button' or 'auto'")
        if b.language not in ("es", "en"):
            raise ConfigError(f"board.language: must be 'es' (Spanish) or 'en' (English), not {b.language!r}")
        if not -1 <= b.seed < 2**63:  # new_game's seed has the same range
            raise ConfigError("board.seed: must be -1 (a fresh secret) or 0..2**63-1")
        _within("sensors.debounce_ms", self.sensors.debounce_ms, 0, 5000)
        _within("sensors.commit_ms", self.sensors.commit_ms, 0, 5000)
        if self.sensors.commit_ms < self.sensors.debounce_ms:
            raise ConfigError(f"sensors.commit_ms: must be at least sensors.debounce_ms ({self.sensors.debounce_ms}),"
                              f" got {self.sensors.commit_ms}")
        # The sensor board sends a heartbeat every 250 ms when idle: a shorter silence is no sign of trouble.
        _within("sensors.heartbeat_timeout", self.sensors.heartbeat_timeout, 0.5, 3600, low_ok=True)
        if self.leds.backend not in ("sim", "sim-wire", "neopixel"):
            raise ConfigError("leds.backend: must be 'sim', 'sim-wire' or 'neopixel'")
        led_gpios(self.leds.pin)
        _within("leds.brightness", self.leds.brightness, 0, 1, low_ok=True)
        _within("leds.blink_hz", self.leds.blink_hz, 0, 20)
        if self.leds.patterns:
            from controller.ledview import PATTERNS  # the LEDs' drawing, loaded only when patterns are asked for
            for pattern in self.leds.patterns:
                if pattern not in PATTERNS:
                    raise ConfigError(f"leds.patterns: each must be one of {', '.join(PATTERNS)}, not {pattern!r}")
        _within("inputs.hold_time", self.inputs.hold_time, 0, 60)
        if not self.mqtt.host:
            raise ConfigError("mqtt.host: must not be empty")
        if not 0 < self.mqtt.port < 65536:
            raise ConfigError("mqtt.port: must be 1..65535")
        if not 0 < self.mqtt.keepalive < 65536:  # MQTT sends it as 16 bits; paho fails on more
            raise ConfigError("mqtt.keepalive: must be 1..65535 seconds")
        check_topic_name("mqtt.base_topic", self.mqtt.base_topic, TOPIC_PREFIX_MAX)
        check_topic_name("mqtt.discovery_prefix", self.mqtt.discovery_prefix, TOPIC_PREFIX_MAX)
        if bool(self.mqtt.certfile) != bool(self.mqtt.keyfile) or (self.mqtt.certfile and not self.mqtt.tls):
            raise ConfigError("mqtt.certfile / mqtt.keyfile: give both, and only with mqtt.tls = true")
        if self.mqtt.tls:
            _check_tls_files(self.mqtt)
        if self.mqtt.display_url and not self.mqtt.display_url.startswith(("http://", "https://")):
            raise ConfigError(f"mqtt.display_url: must be an http:// or https:// address, got "
                              f"{self.mqtt.display_url!r}")
        if self.mqtt.password and not self.mqtt.username:
            raise ConfigError("mqtt.password: needs mqtt.username")
        if self.sound.voice not in ("off", "on"):
            raise ConfigError(f"sound.voice: must be 'off' or 'on', got {self.sound.voice!r}")
        if not 0 <= self.sound.pin <= 27:
            raise ConfigError(f"sound.pin: must be a GPIO on the Pi's header (0..27), got {self.sound.pin}")
        if self.remote.address:
            host, _, port = self.remote.address.rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536:
                raise ConfigError(f"remote.address: {self.remote.address!r} is not HOST:PORT of the other board's "
                                  "broker (for example table13.local:8883)")
        if self.remote.peer:
            check_topic_name("remote.peer", self.remote.peer, BOARD_ID_MAX, levels=False)
            if self.remote.peer == b.id:
                raise ConfigError("remote.peer: the other board's id, not this board's own")
        if self.inputs.pin_factory not in ("", "mock", "lgpio", "rpigpio", "pigpio", "native"):
            raise ConfigError("inputs.pin_factory: must be '', 'mock', 'lgpio', 'rpigpio', 'pigpio' or 'native'")
        from controller.games import get_game

        game = get_game(b.game)
        try:
            options = game.options(b.options)
            players = game.players(b.num_players)
            game.new_state(options, players)
        except ValueError as exc:
            raise ConfigError(f"board.options / board.num_players: {exc}") from exc
        from controller.seats import other_board, seats_for

        try:
            seats_for(b.seats, players)
        except ValueError as exc:
            raise ConfigError(f"board.{exc}") from exc
        if other_board(b.seats) and not self.remote.peer:
            raise ConfigError("board.seats: a remote seat needs the other board: set remote.peer")


def _within(key: str, value: float, low: float, high: float, *, low_ok: bool = False) -> None:
    """Refuse ``value`` outside (low, high] ([low, high] with ``low_ok``); NaN and inf too."""
    if not math.isfinite(value) or not (low <= value if low_ok else low < value) or value > high:
        raise ConfigError(f"{key}: must be {'from' if low_ok else 'above'} {low} and at most {high}, got {value}")


# MQTT allows topics of 65,535 bytes; names this short keep every topic, client id, display URL
# and hall label usable (the display refuses response topics over 256 characters too).
BOARD_ID_MAX = 64
TOPIC_PREFIX_MAX = 256


def check_topic_name(key: str, name: str, longest: int, *, levels: bool = True) -> None:
    """Refuse ``name`` as (part of) an MQTT topic name, naming ``key``: empty, too long, not UTF-8,
    a wildcard (``+``, ``#``), a control character (NUL included), an empty level (``a//b``,
    a leading or trailing ``/``), a leading ``$`` (the broker's own topics, which wildcard
    subscribers never see); and with ``levels=False`` (one level), any ``/``."""
    if not name:
        raise ConfigError(f"{key}: must not be empty")
    if len(name) > longest:
        raise ConfigError(f"{key}: must be at most {longest} characters, not {len(name)}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ConfigError(f"{key}: must be UTF-8 text ({exc.reason} at character {exc.start + 1})") from exc
    check_text(key, name)
    for ch in name:
        if ch in "+#":
            raise ConfigError(f"{key}: must not hold {ch!r} (an MQTT wildcard), got {name!r}")
        if ch == "/" and not levels:
            raise ConfigError(f"{key}: must not hold '/' (it is one level of the MQTT topics), got {name!r}")
    if "" in name.split("/"):
        raise ConfigError(f"{key}: must not have an empty level (a leading, trailing or double '/'), got {name!r}")
    if name.startswith("$"):
        raise ConfigError(f"{key}: must not start with '$' (the broker's own topics), got {name!r}")


def _check_tls_files(m: MqttConfig) -> None:
    """Load the TLS files as the MQTT client will, so that a missing or wrong one is refused at
    start-up naming its key (paho would raise in the middle of starting)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if m.ca_certs:
        try:
            context.load_verify_locations(m.ca_certs)
        except ssl.SSLError as exc:
            raise ConfigError(f"mqtt.ca_certs: {m.ca_certs} holds no CA certificate (PEM)") from exc
        except OSError as exc:
            raise ConfigError(f"mqtt.ca_certs: cannot read {m.ca_certs}: {exc.strerror}") from exc
    if m.certfile:
        for key, path in (("mqtt.certfile", m.certfile), ("mqtt.keyfile", m.keyfile)):
            try:
                Path(path).read_bytes()
            except OSError as exc:
                raise ConfigError(f"{key}: cannot read {path}: {exc.strerror}") from exc
        try:  # an empty password: a key that needs one is refused instead of prompting on a terminal
            context.load_cert_chain(m.certfile, m.keyfile, password=lambda: "")
        except OSError as exc:  # ssl.SSLError is one
            raise ConfigError(f"mqtt.certfile / mqtt.keyfile: {m.certfile} and {m.keyfile} are not a PEM "
                              f"certificate and its unencrypted private key") from exc


# The Pi's SPI0 pins, all taken once SPI is on (dtparam=spi=on): the SPI NeoPixel path uses them.
SPI0_PINS = {7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"}


def led_gpios(pin: str) -> dict[int, str]:
    """The GPIOs the LED strip takes for ``leds.pin``: "SPI" takes SPI0, "D<n>" takes GPIO n."""
    if pin.upper() == "SPI":
        return {gpio: f"SPI0 {role}" for gpio, role in SPI0_PINS.items()}
    match = re.fullmatch(r"D(\d+)", pin)
    if not match or int(match[1]) > 27:
        raise ConfigError(f"leds.pin: must be 'SPI' or a header pin 'D0'..'D27' (GPIO number), got {pin!r}")
    return {int(match[1]): "data"}


def check_pins(config: Config, layout: Layout) -> None:
    """Refuse two users of one GPIO: the LED strip (when it is a real one), the layout's buttons
    and ring encoders (when the inputs are on) and the buzzer (when it is on), naming both users."""
    users: dict[int, str] = {}
    where = f"in the {config.board.layout or config.board.game} layout"

    def claim(gpio: int, who: str) -> None:
        if not 0 <= gpio <= 27:
            raise ConfigError(f"{who}: GPIO{gpio} is not on the Pi's header (GPIO 0..27)")
        if gpio in users:
            raise ConfigError(f"GPIO{gpio} has two users: {users[gpio]} and {who}")
        users[gpio] = who

    if config.leds.backend == "neopixel":
        for gpio, role in led_gpios(config.leds.pin).items():
            claim(gpio, f"the LED strip (leds.pin = {config.leds.pin!r}, {role})")
    if config.inputs.enabled:
        for name, gpio in layout.buttons.items():
            claim(gpio, f"the {name} button {where}")
        for e in layout.encoders:
            claim(e.a, f"the {e.channel} encoder's pin a {where}")
            claim(e.b, f"the {e.channel} encoder's pin b {where}")
    if config.sound.buzzer:
        claim(config.sound.pin, f"the buzzer (sound.pin = {config.sound.pin})")


def _section(name: str, kind: type, values: dict[str, Any]) -> Any:
    known = {f.name: f for f in fields(kind)}
    defaults = kind()
    out = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"unknown key {name}.{key} (known: {', '.join(known)})")
        default = getattr(defaults, key)
        if isinstance(default, bool) != isinstance(value, bool) or (
            not isinstance(value, type(default)) and not (isinstance(default, float) and isinstance(value, int))
        ):
            raise ConfigError(f"{name}.{key}: expected {type(default).__name__}, got {value!r}")
        if key != "password":  # a password is the broker's business, whatever it holds
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str):
                    check_text(f"{name}.{key}", text)
        out[key] = float(value) if isinstance(default, float) else value
    return kind(**out)


def check_text(key: str, text: str) -> None:
    """Refuse a name or path holding a control character (C0 with NUL and newlines, DEL, C1), naming
    ``key``: no file, device or name the service uses has one, and one would reach SQLite, a log
    line or a topic as it is (a NUL in ``journal.path`` ended in a traceback)."""
    bad = next((ch for ch in text if unicodedata.category(ch) == "Cc"), None)
    if bad is not None:
        raise ConfigError(f"{key}: must not hold the control character U+{ord(bad):04X}, got {text!r}")


def load_config(path: str | Path | None) -> Config:
    """The configuration in ``path`` (all defaults when ``path`` is None)."""
    if path is None:
        return Config.from_dict({})
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:  # TOML files are UTF-8
        line = exc.object[:exc.start].count(b"\n") + 1
        byte = exc.object[exc.start]
        raise ConfigError(f"{path} is not UTF-8 text (line {line} holds the byte {byte:#04x})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    return Config.from_dict(data)
