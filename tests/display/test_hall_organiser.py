"""Issue 38.5: a hall an organiser runs, in real Chromium over a real Mosquitto: live boards first,
filters by game and state, an offline board greyed then hidden after the configured time, and
``arbitro forget`` clearing every retained topic of a board (the display drops it too)."""

from __future__ import annotations

import csv
import io
import json
import urllib.error
import urllib.request
import uuid

import pytest
from playwright.sync_api import Page, expect

from controller.cli import main
from controller.localbroker import Broker
from controller.service import Service
from tests.display.conftest import start_display
from tests.support.mqttc import Listener
from tests.support.services import bridge_of, mqtt_service
from tests.support.waiting import wait_until


def board(game: str, board_id: str, port: int, **mqtt: object) -> Service:
    service = mqtt_service(game, board_id, port, seed=2, mqtt=dict(mqtt))
    assert bridge_of(service).flush()
    return service


def retained(port: int, topics: list[str]) -> set[str]:
    """The topics a new subscriber to ``topics`` is handed a retained message on."""
    marker = f"test/marker/{uuid.uuid4().hex}"
    viewer = Listener(port, [*topics, marker])
    try:
        viewer.client.publish(marker, b"x", qos=1)
        viewer.wait_for(lambda m: m[0] == marker)  # after the retained ones: one session, in order
        return {t for t, p, was_retained, _ in viewer.messages if was_retained and p}
    finally:
        viewer.close()


def order(page: Page) -> list[str]:
    boards: list[str] = page.locator("#boards .card:not([hidden])").evaluate_all(
        "cards => cards.map((c) => c.dataset.board)")
    return boards


def test_live_boards_come_first_and_the_hall_filters_by_game_and_state(broker: Broker, page: Page) -> None:
    display = start_display(broker.port)
    gone = board("contigo", "a-gone", broker.port)
    gone.stop()  # offline: last, though its name sorts first
    live = [board("serpientes", "b-snakes", broker.port), board("contigo", "c-contigo", broker.port)]
    try:
        page.goto(display.url)
        expect(page.locator("#boards .card")).to_have_count(3)
        expect(page.locator('.card[data-board="a-gone"]')).to_have_class("card offline")
        wait_until(lambda: order(page) == ["c-contigo", "b-snakes", "a-gone"], "live boards first, by game")
        page.select_option("#filter-game", "serpientes")
        wait_until(lambda: order(page) == ["b-snakes"], "only the Serpientes board")
        page.select_option("#filter-game", "")
        page.select_option("#filter-state", "offline")
        wait_until(lambda: order(page) == ["a-gone"], "only the offline board")
        page.select_option("#filter-state", "live")
        wait_until(lambda: order(page) == ["c-contigo", "b-snakes"], "only the live boards")
    finally:
        for service in live:
            service.stop()
        display.stop()


def test_an_offline_board_is_greyed_then_hidden_after_the_configured_time(broker: Broker, page: Page) -> None:
    display = start_display(broker.port, hide_after=1.5)
    service = board("contigo", "h1", broker.port)
    try:
        page.goto(display.url)
        card = page.locator('.card[data-board="h1"]')
        expect(card).to_be_visible()
        service.stop()
        expect(card).to_have_class("card offline")  # greyed at once
        expect(card).to_have_count(0, timeout=10_000)  # then gone from the hall
        assert display.call(lambda: "h1" not in display.display.hall.lines)
        page.reload()  # a page opened now does not list it either
        expect(page.locator("#empty")).to_be_visible()
        service = board("contigo", "h1", broker.port)  # back online: listed again
        expect(card).to_be_visible()
    finally:
        service.stop()
        display.stop()


def test_forget_leaves_no_retained_topic_of_the_board(broker: Broker, capsys: pytest.CaptureFixture[str]) -> None:
    display = start_display(broker.port)
    service = board("contigo", "f1", broker.port, homeassistant=True)
    names = Listener(broker.port, [])
    try:
        names.client.publish("arbitro/f1/names", b'["Ana","Luis"]', qos=1, retain=True).wait_for_publish(5)
        wait_until(lambda: display.call(lambda: "f1" in display.display.hall.lines), "the hall to list f1")
        mine = ["arbitro/f1/#", "homeassistant/+/arbitro_f1/+/config"]
        before = retained(broker.port, mine)
        assert {"arbitro/f1/state", "arbitro/f1/status", "arbitro/f1/info", "arbitro/f1/names",
                "arbitro/f1/events/recent", "arbitro/f1/player/0"} <= before
        assert any(t.startswith("homeassistant/") for t in before)

        assert main(["forget", "f1", "--broker", f"127.0.0.1:{broker.port}"]) == 1  # online: refused
        assert "board f1 is online" in capsys.readouterr().err
        service.stop()
        assert main(["forget", "f1", "--broker", f"127.0.0.1:{broker.port}"]) == 0
        out = capsys.readouterr().out
        assert f"{len(before)} retained topic(s) emptied" in out
        assert retained(broker.port, mine) == set()
        wait_until(lambda: display.call(lambda: "f1" not in display.display.boards), "the display to drop f1")
    finally:
        names.close()
        service.stop()
        display.stop()


def test_the_csv_standings_of_a_short_event_match_the_games_played(broker: Broker, page: Page) -> None:
    display = start_display(broker.port)
    boards = {"e1": ["Ana", "Luis"], "e2": ["Eva", "Ana"]}
    services = {b: board("contigo", b, broker.port) for b in boards}
    desk = Listener(broker.port, [f"arbitro/{b}/state" for b in boards])
    played: list[tuple[list[str], dict[str, object]]] = []  # each game's players and final state
    try:
        for b, people in boards.items():
            desk.client.publish(f"arbitro/{b}/names", json.dumps(people), qos=1, retain=True).wait_for_publish(5)
            wait_until(lambda b=b, p=people: display.call(  # type: ignore[misc]
                lambda: b in display.display.boards and display.display.boards[b].names == p), f"{b}'s names")
        for b, resigning in (("e1", 0), ("e1", 1), ("e2", 1)):
            if played and played[-1][1].get("board") == b:
                assert desk.request(f"arbitro/{b}", "new_game", {})["ok"]
            assert desk.request(f"arbitro/{b}", "resign", {"player": resigning})["ok"]
            final = desk.latest_state(f"arbitro/{b}", where=lambda s: bool(s["over"]))
            played.append((boards[b], final))
            desk.messages.clear()
        wait_until(lambda: display.call(lambda: len(display.display.results.games)) == 3, "the display's 3 results")
        expected: dict[str, dict[str, float]] = {}
        for people, final in played:
            for seat, name in enumerate(people):
                row = expected.setdefault(name, {"games": 0, "wins": 0, "points": 0.0})
                row["games"] += 1
                row["wins"] += seat in final["winners"]  # type: ignore[operator]
                row["points"] += final["scores"][seat]  # type: ignore[index]
        with urllib.request.urlopen(f"{display.url}standings.csv", timeout=5) as answer:
            assert answer.headers["Content-Type"].startswith("text/csv")
            standings = list(csv.DictReader(io.StringIO(answer.read().decode())))
        assert {r["player"]: {"games": int(r["games"]), "wins": int(r["wins"]), "points": float(r["points"])}
                for r in standings} == expected
        assert [r["rank"] for r in standings] == ["1", "2", "3"]
        assert standings[0]["player"] == max(expected, key=lambda n: (expected[n]["wins"], expected[n]["points"]))
        with urllib.request.urlopen(f"{display.url}results.csv", timeout=5) as answer:
            rows = list(csv.DictReader(io.StringIO(answer.read().decode())))
        assert [(r["board"], r["player"], r["won"]) for r in rows] == [
            (b, name, str(seat in final["winners"]))  # type: ignore[operator]
            for (people, final), b in zip(played, ("e1", "e1", "e2"), strict=True) for seat, name in enumerate(people)]
        page.goto(f"{display.url}results")
        expect(page.locator("#standings tbody tr")).to_have_count(3)
        expect(page.locator("#games tbody tr")).to_have_count(6)
    finally:
        desk.close()
        for service in services.values():
            service.stop()
        display.stop()


def test_every_write_of_the_hall_needs_the_operators_key(broker: Broker) -> None:
    """Every POST the display serves (and the pairing GET, which hands out a seat's token) is refused
    without the operator's key and works with it; a seat's own routes take the seat's token instead
    (tests/display/test_seats.py)."""
    display = start_display(broker.port)
    service = board("contigo", "k1", broker.port)
    bodies = {"names": b'["Ana", "Luis"]'}
    try:
        wait_until(lambda: display.call(lambda: "k1" in display.display.boards and
                                        display.display.boards["k1"].seats() >= 2), "the display to have k1")
        keyed = []
        for route in display.display.app().router.routes():
            path = route.resource.canonical if route.resource is not None else ""
            if route.method not in ("POST", "GET") or "/seat/" in path:
                continue
            if route.method == "GET" and "/pair/" not in path:
                continue
            if path == "/api/replay":  # replays the record the viewer sends: writes nothing, for anyone
                continue
            keyed.append((route.method, path))
            url = display.url + path.lstrip("/").replace("{board}", "k1").replace("{seat}", "1")
            body = next((b for name, b in bodies.items() if path.endswith(name)), b"")
            for key, refused in (("", True), ("?key=wrong", True), (f"?key={display.display.config.pair_key}", False)):
                request = urllib.request.Request(url + key, data=body if route.method == "POST" else None,
                                                 method=route.method)
                try:
                    with urllib.request.urlopen(request, timeout=5) as answer:
                        status = answer.status
                except urllib.error.HTTPError as exc:
                    status = exc.code
                assert (status == 403) == refused and (refused or status == 200), (route.method, path, key, status)
        assert sorted(keyed) == [("GET", "/api/board/{board}/pair/{seat}"), ("POST", "/api/board/{board}/names"),
                                 ("POST", "/api/board/{board}/pair/{seat}")]
    finally:
        service.stop()
        display.stop()
