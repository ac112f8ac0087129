"""The test infrastructure is real: a broker that relays, a pty that carries bytes, mock pins."""

from __future__ import annotations

import queue
from typing import Any

import paho.mqtt.client as mqtt
import serial
from gpiozero.pins.mock import MockFactory

from controller.localbroker import Broker


def _client(port: int, name: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
    c.connect("127.0.0.1", port)
    return c


def test_mosquitto_relays_a_retained_message(broker: Broker) -> None:
    pub = _client(broker.port, "pub")
    pub.loop_start()
    pub.publish("arbitro/test/state", b'{"hello": 1}', qos=1, retain=True).wait_for_publish(5)
    pub.loop_stop()
    pub.disconnect()

    got: queue.Queue[Any] = queue.Queue()
    sub = _client(broker.port, "sub")
    sub.on_message = lambda c, u, m: got.put((m.topic, m.payload, m.retain))
    sub.subscribe("arbitro/test/#", qos=1)
    sub.loop_start()
    try:
        assert got.get(timeout=5) == ("arbitro/test/state", b'{"hello": 1}', True)
    finally:
        sub.loop_stop()
        sub.disconnect()


def test_pty_carries_bytes_both_ways(pty_pair: tuple[int, str]) -> None:
    import os

    controller, path = pty_pair
    port = serial.Serial(path, timeout=2)
    try:
        os.write(controller, b"\x01\x02\x00")
        assert port.read(3) == b"\x01\x02\x00"
        port.write(b"ok")
        port.flush()
        assert os.read(controller, 2) == b"ok"
    finally:
        port.close()


def test_mock_pin_factory_drives_a_button(mock_pins: MockFactory) -> None:
    from gpiozero import Button

    pressed = []
    button = Button(17)
    button.when_pressed = lambda: pressed.append(True)
    button.pin.drive_low()
    assert button.is_pressed and pressed == [True]
    button.close()
