"""A referee service on MQTT alone: no sensor link, no GPIO, a recording LED strip."""

from __future__ import annotations

from typing import Any

from controller.config import Config
from controller.games import get_game
from controller.layouts import reference_layout
from controller.mqtt import MqttBridge
from controller.service import Service
from hardware.leds import LedStrip, RecordingPixels


def mqtt_service(game: str, board_id: str, port: int, *, seed: int, board: dict[str, Any] | None = None,
                 mqtt: dict[str, Any] | None = None) -> Service:
    """Start a service for ``game`` on board ``board_id`` against the broker on ``port``; returns once
    its bridge is connected (``service.mqtt``). ``board`` and ``mqtt`` add configuration keys."""
    config = Config.from_dict({"board": {"id": board_id, "game": game, "seed": seed, "language": "en",  # tests read it
                                         **(board or {})},
                               "inputs": {"enabled": False}, "mqtt": {"port": port, **(mqtt or {})}})
    layout = reference_layout(get_game(game))
    bridge = MqttBridge(config.mqtt, board_id, language=config.board.language)
    service = Service(config, LedStrip(RecordingPixels(layout.led_count)), layout=layout, mqtt=bridge)
    service.start()
    assert bridge.connected.wait(10), "the service could not connect to the broker"
    return service


def bridge_of(service: Service) -> MqttBridge:
    """The service's MQTT bridge (a service of :func:`mqtt_service` always has one)."""
    assert isinstance(service.mqtt, MqttBridge), "the service has no MQTT bridge"
    return service.mqtt
