"""A computer player that raises while deciding: the service warns on MQTT (a coded event) and on
the status light, the game stays where it was, and a ``hint`` request asks the computer again."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from controller import players
from controller.ledview import AMBER
from controller.localbroker import Broker
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service


def crashing(*args: Any, **kwargs: Any) -> players.Decision:
    """A computer player that fails (a test double for a bug in a search)."""
    raise MemoryError("the search tree outgrew the machine")


def warned_on_the_status_light(service: Service, timeout: float = 10.0) -> bool:
    """The status bar's third LED blinks amber (the computer player could not decide)."""
    status = service.wiring.layout.status_leds[2]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = service.call(lambda: service.strip.last)
        if frame is not None and frame[status] == AMBER:
            return True
        time.sleep(0.01)  # poll interval: the light blinks at leds.blink_hz
    return False


def test_a_computer_that_raises_is_warned_about_and_asked_again(broker: Broker,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "decide", crashing)
    op = Listener(broker.port, ["arbitro/crash/events"])
    service = mqtt_service("contigo", "crash", broker.port, seed=4,
                           board={"seats": ["bot:easy", "bot:easy"], "chance": "auto"})
    try:
        found = op.wait_for(lambda m: json.loads(m[1])["type"] == "warning")
        warning = json.loads(found[1])
        assert warning["code"] == "table.computer_failed" and warning["params"]["error"] == "MemoryError"
        seat = service.read(lambda s: s.state.current_player)
        colour = service.read(lambda s: s.state.player_colour(seat))
        assert warning["text"] == (f"the computer player of {colour} could not decide (MemoryError): "
                                   "press next to ask it again")
        assert "outgrew" not in found[1].decode()  # what an exception says could tell what the seat holds
        assert warned_on_the_status_light(service)
        moves = service.read(lambda s: len(s.match.record.actions))
        assert service.read(lambda s: s.expected) is None
        monkeypatch.undo()  # the computer player works again
        answer = op.request("arbitro/crash", "hint", {})
        assert answer["ok"] and answer["result"] == {"player": seat}, answer
        expected = json.loads(op.wait_for(lambda m: json.loads(m[1])["type"] == "expected")[1])
        assert expected["move"] == moves and expected["player"] == seat
        assert not service.read(lambda s: s.scene().warning)
    finally:
        service.stop()
        op.close()
