"""The layouts meet the games: whether a board layout (``hardware.layout``) names every channel of
a game and reads each with the right kind of sensor, and the reference layouts, derived from the
games' channels (``python -m controller.layouts`` rewrites ``hardware/layouts/<game>.json``). The
hardware side knows no game; this is where the two are put together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.games import ChannelKind, Game, all_games
from hardware.layout import DEFAULT_BUTTONS, ENCODER_PINS, Layout, LayoutError

MCU_KINDS = {ChannelKind.PRESENCE: "presence", ChannelKind.COUNT: "count", ChannelKind.PIECE: "piece"}


def check_game(layout: Layout, game: Game, options: dict[str, Any] | None = None,
               num_players: int | None = None) -> None:
    """Refuse a layout that does not name every channel of the game, or names one it lacks."""
    if layout.game != game.name:
        raise LayoutError(f"the layout is for {layout.game!r}, not {game.name!r}")
    channels = game.channels(options, num_players)
    names = {c.name for c in channels}
    mapped = set(layout.sensor_of) | {e.channel for e in layout.encoders}
    missing, extra = sorted(names - mapped), sorted(mapped - names)
    if missing:
        raise LayoutError(f"the layout has no sensor for {len(missing)} channels of {game.name}: {missing[:5]}")
    if extra:
        raise LayoutError(f"the layout names {len(extra)} channels {game.name} does not have: {extra[:5]}")
    for c in channels:
        if c.kind == ChannelKind.OFFSET:
            if c.name in layout.sensor_of:
                raise LayoutError(f"{c.name} is read by an encoder, not a sensor")
            continue
        if c.name not in layout.sensor_of:
            raise LayoutError(f"{c.name} must be a sensor channel")
        kind = layout.kind_of_sensor(layout.sensor_of[c.name])
        if kind != MCU_KINDS[c.kind]:
            raise LayoutError(f"{c.name} is a {c.kind} channel but sensor {layout.sensor_of[c.name]} is {kind}")


def reference_layout(game: Game) -> Layout:
    """The reference board build: sensors and LEDs in the game's channel order, kinds in runs,
    encoders on fixed GPIO pairs with a ring of LEDs each, four status LEDs after the board's."""
    channels: dict[str, Any] = {}
    union: dict[str, Any] = {}
    for options, players in game.configurations():
        for c in game.channels(options, players):
            union.setdefault(c.name, c)
    blocks: list[list[Any]] = []
    sensor = led = 0
    rings = [c for c in union.values() if c.kind == ChannelKind.OFFSET]
    for c in union.values():
        if c.kind == ChannelKind.OFFSET:
            continue
        kind = MCU_KINDS[c.kind]
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1] += 1
        else:
            blocks.append([kind, 1])
        channels[c.name] = {"sensor": sensor, "leds": [led]}
        sensor += 1
        led += 1
    for c, (a, b) in zip(rings, ENCODER_PINS, strict=False):  # a ring of LEDs beside each encoder
        spaces = c.maximum + 1
        channels[c.name] = {"encoder": {"a": a, "b": b, "steps_per_space": 1, "spaces": spaces},
                            "leds": list(range(led, led + spaces))}
        led += spaces
    status = list(range(led, led + 4))
    return Layout.from_dict({"game": game.name, "board_kind": f"{game.name}-ref-1", "blocks": blocks,
                             "channels": channels, "status_leds": status, "led_count": led + 4,
                             "buttons": DEFAULT_BUTTONS})



def write_reference_layouts(directory: Path | None = None) -> list[Path]:
    """(Re)write ``hardware/layouts/<game>.json`` for every registered game."""
    directory = directory or Path(__file__).resolve().parents[1] / "hardware" / "layouts"
    written = []
    for game in all_games():
        path = directory / f"{game.name}.json"
        path.write_text(json.dumps(reference_layout(game).to_dict(), indent=1) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_reference_layouts():
        print(p)
