"""Board layouts: which sensor channel and which LEDs belong to each logical channel of a game.

A layout is a JSON file (``hardware/layouts/<game>.json`` for the reference board build; an
operator points ``layout`` in the configuration at their own file for a board wired otherwise)::

    {
      "game": "contigo",
      "board_kind": "contigo-ref-1",
      "blocks": [["piece", 36], ["count", 28]],      # the sensor MCU's channels, as HELLO reports them
      "channels": {"sq:a1": {"sensor": 0, "leds": [0]}, ...,
                   "enc:inner": {"encoder": {"a": 17, "b": 18, "steps_per_space": 2}, "leds": [...]}},
      "status_leds": [64, 65, 66, 67],               # a bar showing turn, chance, violations
      "led_count": 68,
      "buttons": {"roll": 5, "confirm": 6, "undo": 13, "next": 19},
      "firmware": {"scan_us": 2000},                 # optional: the Pico's settings (FIRMWARE_DEFAULTS)
      "calibration": {...}                           # optional: from ``arbitro calibrate`` (see below)
    }

``calibration`` holds what ``arbitro calibrate`` measured on the analog (``count``/``piece``)
sensors, in ADC units of ``read_u16()`` (0..65535)::

    {"zero": {"pit:n-a": 32800, ...},                 # each analog channel's reading with nothing on it
     "count": {"channel": "pit:n-a", "levels": {"0": 0, "1": 2100, "2": 3900, ...}},
     "piece": {"channel": "sq:a1", "levels": {"0": 0, "1": 6000, "2": 11000, "3": -6000, ...}}}

``levels`` are each value's reading minus the empty reading, measured on one channel of the
kind; every channel of that kind gets its own zero plus those levels, cut half way between
neighbouring levels (``analog_cal``). The firmware applies the thresholds (``board_config``); a
pit holding more beads than the highest count level reads as that count (``sensing_max``).

Logical channels come from the game (``Game.channels``); sensor channels are the MCU's flat index.
Offset channels (Scriptorium's ring encoders) are read on the Pi's GPIO, not by the MCU.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

# The MCU's channel kinds, as the wire protocol names them.

DEFAULT_BUTTONS = {"roll": 5, "confirm": 6, "undo": 13, "next": 19}
ENCODER_PINS = [(17, 18), (22, 23), (24, 25), (26, 27)]
# The Pico's settings unless the layout's "firmware" says otherwise; more than 32 analog inputs
# take about 0.8 ms to read on MicroPython, hence the longer scan period then.
FIRMWARE_DEFAULTS = {"scan_us": 1000, "debounce_scans": 3, "heartbeat_ms": 250, "watchdog_ms": 2000}


class LayoutError(ValueError):
    """A layout that does not fit the game, the MCU or itself."""


@dataclass(frozen=True)
class Encoder:
    channel: str
    a: int
    b: int
    steps_per_space: int
    spaces: int


@dataclass
class Layout:
    game: str
    board_kind: str
    blocks: list[tuple[str, int]]
    sensor_of: dict[str, int]
    leds_of: dict[str, list[int]]
    encoders: list[Encoder]
    status_leds: list[int]
    led_count: int
    buttons: dict[str, int]
    firmware: dict[str, int] = field(default_factory=dict)
    calibration: dict[str, Any] = field(default_factory=dict)
    channel_of: dict[int, str] = field(init=False)

    def __post_init__(self) -> None:
        self.channel_of = {s: c for c, s in self.sensor_of.items()}

    @property
    def sensor_count(self) -> int:
        return sum(n for _, n in self.blocks)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Layout:
        try:
            sensor_of, leds_of, encoders = {}, {}, []
            for name, spec in data["channels"].items():
                leds_of[name] = [int(i) for i in spec.get("leds", [])]
                if "sensor" in spec:
                    sensor_of[name] = int(spec["sensor"])
                elif "encoder" in spec:
                    e = spec["encoder"]
                    encoders.append(Encoder(name, int(e["a"]), int(e["b"]), int(e.get("steps_per_space", 1)),
                                            int(e.get("spaces", 12))))
                else:
                    raise LayoutError(f"channel {name} has neither a sensor nor an encoder")
            layout = cls(
                game=str(data["game"]),
                board_kind=str(data.get("board_kind", data["game"])),
                blocks=[(str(k), int(n)) for k, n in data["blocks"]],
                sensor_of=sensor_of,
                leds_of=leds_of,
                encoders=encoders,
                status_leds=[int(i) for i in data.get("status_leds", [])],
                led_count=int(data["led_count"]),
                buttons={str(k): int(v) for k, v in data.get("buttons", DEFAULT_BUTTONS).items()},
                firmware={str(k): int(v) for k, v in data.get("firmware", {}).items()},
                calibration=dict(data.get("calibration", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, LayoutError):
                raise
            raise LayoutError(f"malformed layout: {exc!r}") from exc
        layout.check_itself()
        return layout

    def to_dict(self) -> dict[str, Any]:
        channels: dict[str, Any] = {}
        for name, sensor in self.sensor_of.items():
            channels[name] = {"sensor": sensor, "leds": self.leds_of.get(name, [])}
        for e in self.encoders:
            channels[e.channel] = {"encoder": {"a": e.a, "b": e.b, "steps_per_space": e.steps_per_space,
                                               "spaces": e.spaces}, "leds": self.leds_of.get(e.channel, [])}
        out = {"game": self.game, "board_kind": self.board_kind, "blocks": [list(b) for b in self.blocks],
               "channels": channels, "status_leds": self.status_leds, "led_count": self.led_count,
               "buttons": self.buttons}
        if self.firmware:
            out["firmware"] = self.firmware
        if self.calibration:
            out["calibration"] = self.calibration
        return out

    # -- the sensor firmware's view of the layout ------------------------------------------------

    def analog_channels(self) -> list[str]:
        """The layout's count and piece channels in the order of the MCU's analog inputs (sensor order)."""
        analog = [s for s in range(self.sensor_count) if self.kind_of_sensor(s) != "presence"]
        return [self.channel_of.get(s, "") for s in analog]

    def analog_cal(self) -> list[tuple[tuple[int, ...], tuple[int, ...]] | None]:
        """Per analog input: (ascending thresholds on read_u16, the value of each band), or None
        (the firmware's plain quantization) for an input whose kind was never calibrated."""
        cal = self.calibration
        zeros = {str(k): int(v) for k, v in cal.get("zero", {}).items()}
        out: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = []
        for s, name in zip((s for s in range(self.sensor_count) if self.kind_of_sensor(s) != "presence"),
                           self.analog_channels(), strict=True):
            kind = cal.get(self.kind_of_sensor(s))
            if not kind or name not in zeros:
                out.append(None)
                continue
            points = sorted((zeros[name] + int(delta), int(value)) for value, delta in kind["levels"].items())
            thresholds = tuple(max(0, min(65535, (a + b + 1) // 2)) for (a, _), (b, _) in itertools.pairwise(points))
            out.append((thresholds, tuple(v for _, v in points)))
        return out

    def sensing_max(self) -> dict[str, int]:
        """The highest count each ``count`` channel can read (``controller.saturation``): a pit
        holding more reads as the highest count calibrated; none for an uncalibrated layout."""
        levels = self.calibration.get("count", {}).get("levels", {})
        zeros = self.calibration.get("zero", {})
        if not levels:
            return {}
        top = max(int(value) for value in levels)
        return {name: top for name, s in self.sensor_of.items() if self.kind_of_sensor(s) == "count" and name in zeros}

    def board_config(self) -> dict[str, Any]:
        """The firmware's ``board_config`` names for this layout (``firmware_bridge.boardconfig``).

        CONFIG_ID is a digest of everything else: the firmware reports it in HELLO, so a board
        flashed from another layout (or before a new calibration) is told apart (``check_firmware``).
        """
        settings = {**FIRMWARE_DEFAULTS, **self.firmware}
        if "scan_us" not in self.firmware and len(self.analog_channels()) > 32:
            settings["scan_us"] = 2000
        values: dict[str, Any] = {
            "BOARD_KIND": self.board_kind,
            "BLOCKS": [(k, n) for k, n in self.blocks],
            "SCAN_US": settings["scan_us"],
            "DEBOUNCE_SCANS": settings["debounce_scans"],
            "HEARTBEAT_MS": settings["heartbeat_ms"],
            "WATCHDOG_MS": settings["watchdog_ms"],
            "ANALOG_CAL": self.analog_cal(),
        }
        digest = hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()
        values["CONFIG_ID"] = digest[:12]
        return values

    def check_firmware(self, hello: Any) -> None:
        """Refuse a sensor board whose HELLO (``firmware_bridge.protocol.Hello``) is not this layout's
        firmware: other blocks, another board kind, or another configuration id (another layout or
        calibration flashed). ``arbitro firmware flash --layout`` makes them agree."""
        self.check_hello(hello.blocks)
        if hello.board_kind != self.board_kind:
            raise LayoutError(f"the sensor board says it is {hello.board_kind!r}, "
                              f"the layout is for {self.board_kind!r}")
        want = self.board_config()["CONFIG_ID"]
        have = hello.firmware.partition(" cfg ")[2]
        if have != want:
            raise LayoutError(f"the sensor board runs configuration {have or '(none)'!r}, this layout's is {want!r}: "
                              f"flash it with `arbitro firmware flash --layout FILE`")

    def check_itself(self) -> None:
        n = self.sensor_count
        bad = sorted(c for c, s in self.sensor_of.items() if not 0 <= s < n)
        if bad:
            raise LayoutError(f"channels {bad[:5]} name sensors outside 0..{n - 1}")
        if len(self.channel_of) != len(self.sensor_of):
            raise LayoutError("two channels share one sensor")
        leds = [i for ls in self.leds_of.values() for i in ls] + self.status_leds
        out = sorted({i for i in leds if not 0 <= i < self.led_count})
        if out:
            raise LayoutError(f"LED indices {out[:5]} outside the strip of {self.led_count}")

    def kind_of_sensor(self, sensor: int) -> str:
        start = 0
        for kind, count in self.blocks:
            if sensor < start + count:
                return kind
            start += count
        raise LayoutError(f"sensor {sensor} outside the layout's {self.sensor_count}")

    def check_hello(self, blocks: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> None:
        """Refuse a sensor board whose HELLO reports other channel blocks than the layout's."""
        theirs = [(str(k), int(n)) for k, n in blocks]
        if theirs != self.blocks:
            raise LayoutError(f"the sensor board reports {channel_blocks(theirs)}, "
                              f"the layout expects {channel_blocks(self.blocks)}")


def load_layout(source: str | Path) -> Layout:
    """A layout from a file path, or the reference layout shipped for a game name."""
    path = Path(source)
    if path.suffix == ".json" or path.exists():
        try:
            return Layout.from_dict(json.loads(path.read_text()))
        except (OSError, json.JSONDecodeError) as exc:
            raise LayoutError(f"cannot read layout {path}: {exc}") from exc
    shipped = resources.files("hardware.layouts") / f"{source}.json"
    if not shipped.is_file():
        raise LayoutError(f"no layout file {source!r} and no reference layout for a game of that name")
    return Layout.from_dict(json.loads(shipped.read_text()))


def channel_blocks(blocks: Iterable[tuple[str, int]]) -> str:
    """A sensor board's channel blocks (HELLO's ``(kind, count)`` pairs), in words: ``36 piece and
    28 count channels``."""
    said = [f"{count} {kind}" for kind, count in blocks]
    listed = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}" if said else "no"
    return f"{listed} channels"
