"""What a clean move's path through the loop does not wait for (issue 23, ``bench.referee --stages``)."""

from __future__ import annotations

import gc
import json
import random
import threading

from controller.config import MqttConfig
from controller.localbroker import Broker
from controller.mqtt import MqttBridge
from controller.service import GC_BACKSTOP, GC_IDLE_AFTER
from tests.support.mqttc import Listener
from tests.support.table import Table


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


def test_a_state_is_written_to_the_broker_by_the_thread_that_publishes_it(broker: Broker) -> None:
    """A publish writes its packet to the broker's socket before it returns, in the loop's own
    thread: no other thread must wake up to write it (with paho's ``loop_start`` that wake was a
    quarter of a millisecond of every move told), and what is written arrives whole and in order."""
    listener = Listener(broker.port, ["arbitro/lp/state"])
    bridge = MqttBridge(MqttConfig(port=broker.port), "lp")
    writers: list[str] = []
    send = bridge.client._sock_send

    def sent_by(buf: bytes | bytearray) -> int:
        if b"arbitro/lp/state" in buf:
            writers.append(threading.current_thread().name)
        return send(buf)

    bridge.client._sock_send = sent_by  # type: ignore[method-assign]  # who writes: paho has no hook for it
    bridge.start()
    try:
        assert bridge.connected.wait(5)
        for n in range(1, 13):  # one at a time: paho holds back a 21st unacknowledged one (max_inflight)
            bridge.publish_state({"n": n, "board_view": {"pad": "x" * (97 * n)}})
            assert not bridge.client.want_write()  # nothing left for another thread to write
            listener.wait_for(lambda m, n=n: json.loads(m[1])["n"] == n)
        assert writers == [threading.current_thread().name] * 12
        assert [json.loads(m[1])["n"] for m in listener.messages][-12:] == list(range(1, 13))
    finally:
        bridge.stop()
        listener.close()


def test_garbage_is_collected_while_the_loop_idles_never_in_a_move() -> None:
    """Python collects the loop's garbage only where the loop asks, while it idles: no collection
    falls inside a move's step (a full one took 10-25 ms here), what the start made is frozen out
    of them, and what the moves left is collected once the loop is idle."""
    stray: list[str] = []
    collecting = threading.local()

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and threading.current_thread().name == "arbitro-loop" and not getattr(
                collecting, "on", False):
            stray.append(f"generation {info['generation']}")

    with Table("jeocinco", seed=3) as table:
        service = table.service
        collect = service._collect

        def asked() -> None:
            collecting.on = True
            try:
                collect()
            finally:
                collecting.on = False

        service._collect = asked  # type: ignore[method-assign]
        assert gc.get_freeze_count() > 0, "what the start made is not frozen out of collections"
        assert gc.get_threshold()[0] == GC_BACKSTOP
        gc.callbacks.append(watch)
        try:
            rng = random.Random(3)
            for _ in range(12):
                table.play(rng.choice(table.state.legal_actions()))
            table.wait(lambda s: s.collections > 0 and gc.get_count()[0] < GC_IDLE_AFTER,
                       "the idle loop to collect the moves' garbage", loop=True)
        finally:
            gc.callbacks.remove(watch)
    assert not stray, f"collections in the loop outside its idle ones: {stray}"
