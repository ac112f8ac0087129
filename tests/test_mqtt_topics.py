"""Issue 19.12 against a real Mosquitto: the retained ``info`` topic, a wall-clock ``time`` on every
event and state, the game clock in the state, and no stale retained topic after the players or the
game change (by ``new_game`` or a restart with another game)."""

from __future__ import annotations

import json
import time
from importlib import metadata
from pathlib import Path

from controller import schemas
from controller.config import Config
from controller.games import Game, get_game
from controller.journal import Journal
from controller.layouts import reference_layout
from controller.localbroker import Broker
from controller.mqtt import MqttBridge
from controller.service import Service
from firmware_bridge.firmware.arbitro_fw import FIRMWARE_VERSION
from firmware_bridge.protocol import PROTOCOL_VERSION
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels
from tests.support.mqttc import Listener
from tests.support.services import bridge_of, mqtt_service
from tests.support.table import Table


def retained(port: int, topics: list[str]) -> dict[str, bytes]:
    """What the broker keeps on ``topics`` (a fresh subscriber's retained messages), once it has
    handed them all out: the fence is a marker published (and so delivered) after them."""
    reader = Listener(port, [*topics, "fence/topics"])
    try:
        reader.client.publish("fence/topics", b"x", qos=1)
        reader.wait_for(lambda m: m[0] == "fence/topics")
        return {t: p for t, p, kept, _ in reader.messages if kept}
    finally:
        reader.close()


def test_info_names_the_versions_the_sensor_boards_firmware_the_game_and_its_layout(broker: Broker) -> None:
    with Table("contigo", seed=2, mqtt_port=broker.port) as table:
        bridge_of(table.service).flush()
        late = Listener(broker.port, ["arbitro/t-contigo/info"])
        try:
            info = json.loads(late.wait_for(lambda m: m[2] and m[0] == "arbitro/t-contigo/info")[1])
        finally:
            late.close()
    schemas.validator("info").validate(info)
    assert info["arbitro"] == metadata.version("arbitro") and info["protocol"] == PROTOCOL_VERSION
    assert info["sensor_board"]["firmware"].startswith(FIRMWARE_VERSION)
    kind = load_layout("contigo").board_kind
    assert info["sensor_board"]["protocol"] == PROTOCOL_VERSION and info["sensor_board"]["board_kind"] == kind
    assert (info["board"], info["game"], info["title"]) == ("t-contigo", "contigo", "Contigo")
    assert info["layout"] == {"file": None, "game": "contigo", "board_kind": kind}
    assert info["schema"] == schemas.load("state")["properties"]["schema"]["const"]


def test_every_event_and_state_carries_the_wall_clock_time_it_happened(toy_game: Game, broker: Broker) -> None:
    listener = Listener(broker.port, ["arbitro/tm/state", "arbitro/tm/events", "arbitro/tm/events/recent"])
    start = time.time()
    service = mqtt_service("toy", "tm", broker.port, seed=3)
    try:
        for command, args in (("roll", {}), ("choose", {"action": "b2"}), ("undo", {}), ("choose", {"action": "a1"})):
            assert listener.request("arbitro/tm", command, args)["ok"]
        listener.fence("arbitro/tm")
    finally:
        service.stop()
    end = time.time()
    events = listener.json_on("arbitro/tm/events")
    states = listener.json_on("arbitro/tm/state")
    assert len(events) >= 4 and len(states) >= 4
    for kind, items in (("event", events), ("state", states)):
        times = [item["time"] for item in items]
        assert all(start - 0.01 <= t <= end + 0.01 for t in times), (kind, times, start, end)
        assert times == sorted(times), kind
        for item in items:
            schemas.validator(kind).validate(item)
    # The window of recent events is exactly those events, with their times.
    window = json.loads(listener.wait_for(lambda m: m[0] == "arbitro/tm/events/recent" and
                                          json.loads(m[1])["events"][-1:] == events[-1:])[1])
    assert window["events"] == events[-len(window["events"]):]


class WallClock:
    """The wall clock the service stamps with, moved by the test (``now``)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def clocked_service(game: str, port: int, clock: WallClock, journal: Journal | None = None) -> Service:
    config = Config.from_dict({"board": {"id": "ck", "game": game, "seed": 4}, "inputs": {"enabled": False},
                               "mqtt": {"port": port}})
    layout = reference_layout(get_game(game))
    service = Service(config, LedStrip(RecordingPixels(layout.led_count)), layout=layout, journal=journal,
                      mqtt=MqttBridge(config.mqtt, "ck"), wall_clock=clock)
    service.start()
    assert bridge_of(service).connected.wait(10)
    return service


def test_the_state_carries_the_game_clock_and_each_players_time(toy_game: Game, broker: Broker) -> None:
    clock = WallClock(1000.0)
    service = clocked_service("toy", broker.port, clock)
    op = Listener(broker.port, [])
    try:
        first = op.request("arbitro/ck", "state", {})["result"]
        assert first["time"] == 1000.0
        assert first["clock"] == {"started_at": 1000.0, "counted_from": "start", "elapsed": 0.0, "used": [0.0, 0.0],
                                  "turn_started_at": None, "ended_at": None}  # who starts is still to draw
        clock.now = 1002.0
        mover = int(op.request("arbitro/ck", "roll", {})["result"]["outcome"][-1])
        clock.now = 1030.0  # the first player thinks for 28 s
        assert op.request("arbitro/ck", "choose", {"action": "b2"})["ok"]
        clock.now = 1035.0
        state = op.request("arbitro/ck", "state", {})["result"]
        assert state["time"] == 1030.0  # nothing changed since: the state keeps its time
        used = [0.0, 0.0]
        used[mover] = 28.0
        assert state["clock"] == {"started_at": 1000.0, "counted_from": "start", "elapsed": 30.0, "used": used,
                                  "turn_started_at": 1030.0, "ended_at": None}
        retained_state = json.loads(retained(broker.port, ["arbitro/ck/state"])["arbitro/ck/state"])
        assert retained_state == state  # the same stamps on the topic as in the answer
    finally:
        op.close()
        service.stop()


def test_a_resumed_games_clock_counts_from_the_restart_and_says_so(broker: Broker, tmp_path: Path) -> None:
    clock = WallClock(1000.0)
    journal = Journal(tmp_path / "journal.sqlite")
    service = clocked_service("contigo", broker.port, clock, journal)
    op = Listener(broker.port, [])
    try:
        clock.now = 1010.0
        assert op.request("arbitro/ck", "roll", {})["ok"]
    finally:
        op.close()
        service.stop()
    clock.now = 2000.0
    service = clocked_service("contigo", broker.port, clock, journal)
    try:
        resumed = service.call(service.public_state)
        assert resumed["moves"] == 1 and resumed["clock"]["started_at"] == 2000.0
        assert resumed["clock"]["counted_from"] == "resume"
    finally:
        service.stop()
        journal.close()


def test_no_retained_topic_is_left_stale_when_players_or_the_game_change(broker: Broker) -> None:
    base = "arbitro/st"
    players = [f"{base}/player/{n}" for n in range(6)]
    service = mqtt_service("serpientes", "st", broker.port, seed=6, board={"num_players": 5, "chance": "auto"})
    try:
        assert bridge_of(service).flush()
        kept = retained(broker.port, players)
        assert all(json.loads(kept[t])["hand"] for t in players[:5]) and players[5] not in kept
        op = Listener(broker.port, [])
        try:
            assert op.request(base, "new_game", {"num_players": 3})["ok"]
        finally:
            op.close()
        assert bridge_of(service).flush()
        kept = retained(broker.port, players)
        assert sorted(kept) == players[:3], sorted(kept)  # seats 3 and 4 emptied
    finally:
        service.stop()
    # A restart with another game: whatever the earlier run left on seats it has not got is emptied.
    service = mqtt_service("contigo", "st", broker.port, seed=6)
    try:
        assert bridge_of(service).flush()
        kept = retained(broker.port, [*players, f"{base}/state", f"{base}/events/recent", f"{base}/info"])
        assert sorted(t for t in kept if "/player/" in t) == players[:2]
        assert all("hand" not in json.loads(kept[t]) for t in players[:2])  # Contigo's views: nothing of a hand
        assert json.loads(kept[f"{base}/state"])["game"] == "contigo"
        assert json.loads(kept[f"{base}/info"])["game"] == "contigo"
        recent = json.loads(kept[f"{base}/events/recent"])  # this run's window, not the last run's events
        assert recent["run"] == bridge_of(service).run and all(e["game"] == "contigo" for e in recent["events"])
    finally:
        service.stop()
