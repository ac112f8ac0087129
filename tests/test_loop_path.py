"""What a clean move's path through the loop does not wait for (issue 23, ``bench.referee --stages``)."""

from __future__ import annotations

import json
import threading

from controller.config import MqttConfig
from controller.localbroker import Broker
from controller.mqtt import MqttBridge
from tests.support.mqttc import Listener


def test_a_burst_of_events_starts_no_thread_and_its_window_still_follows(broker: Broker) -> None:
    """Publishing a move's events hands nothing to a new thread (the loop would wait for it to
    start before it publishes the state); ``events/recent`` still follows, once for the burst."""
    listener = Listener(broker.port, ["arbitro/lp/events/recent"])
    bridge = MqttBridge(MqttConfig(port=broker.port), "lp")
    bridge.start()
    try:
        assert bridge.connected.wait(5)
        running = set(threading.enumerate())
        for n in range(3):
            bridge.publish_events([{"type": "action", "game": "toy", "move": n}])
            assert set(threading.enumerate()) <= running, "a thread was started for the events"
        window = listener.wait_for(lambda m: len(json.loads(m[1])["events"]) == 3)
        assert [e["move"] for e in json.loads(window[1])["events"]] == [0, 1, 2]
        assert sum(1 for m in listener.messages if json.loads(m[1])["events"]) == 1  # one window for the burst
    finally:
        bridge.stop()
        listener.close()
