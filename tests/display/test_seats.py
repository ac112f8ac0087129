"""Private seat views: paired from the board page's QR code, a phone sees its own seat's hand and
nobody else's; a wrong token gets 403 and nothing else; a new code shuts the old phone out."""

from __future__ import annotations

import argparse
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from controller.display.server import RunningDisplay
from controller.localbroker import Broker
from tests.support.mqttc import Listener, Message
from tests.support.services import mqtt_service


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def first_event(url: str, name: str) -> dict[str, Any]:
    """The first SSE message called ``name`` on a stream."""
    with urllib.request.urlopen(url, timeout=5) as stream:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == name:
                data: dict[str, Any] = json.loads(line[6:])
                return data
    raise AssertionError(f"no {name} event")


def test_a_seat_page_shows_that_seats_hand_only_and_refuses_a_wrong_token(broker: Broker, display: RunningDisplay,
                                                                          page: Page) -> None:
    hands = Listener(broker.port, ["arbitro/s1/player/+"])
    service = mqtt_service("serpientes", "s1", broker.port, seed=5, board={"chance": "auto", "num_players": 3})
    try:
        def hand_of(n: int) -> Callable[[Message], object]:
            return lambda m: m[0] == f"arbitro/s1/player/{n}" and json.loads(m[1]).get("hand")

        private = {n: json.loads(hands.wait_for(hand_of(n))[1]) for n in range(3)}
        assert private[0]["hand"] and private[0] != private[1]

        # Pair seat 0 from the board page, as a player would, by its QR code's address.
        key = display.display.config.pair_key
        page.goto(f"{display.url}board/s1")  # a spectator's board page cannot pair a phone
        page.locator("#pairing summary").click()
        page.get_by_role("button", name="Seat 1").click()  # seat 0, counted from 1
        expect(page.locator("#seats .paired")).to_contain_text("operator's link")
        assert page.locator("#seats .seat-link").count() == 0
        assert get(f"{display.url}api/board/s1/pair/0")[0] == 403
        assert get(f"{display.url}api/board/s1/pair/0?key=wrong")[0] == 403
        page.goto(f"{display.url}board/s1?key={key}")  # the operator's link
        page.locator("#pairing summary").click()
        page.get_by_role("button", name="Seat 1").click()  # seat 0, counted from 1
        expect(page.locator("#seats .qr svg")).to_be_visible()
        url0 = page.locator("#seats .seat-link").get_attribute("href")
        assert url0 and "token=" in url0
        token0 = url0.split("token=")[1]
        url1 = json.loads(get(f"{display.url}api/board/s1/pair/1?key={key}")[1])["url"]

        phone = page.context.new_page()
        phone.goto(url0)
        expect(phone.locator("#hand li")).to_have_count(len(private[0]["hand"]))
        assert phone.locator("#hand li").all_inner_texts() == private[0]["hand"]
        # What the phone was sent is seat 0's view, and nothing of seat 1's.
        sent = first_event(f"{display.url}api/board/s1/seat/0/events?token={token0}", "seat")
        assert sent["private"] == private[0] and sent["seat"] == 0
        seat1 = first_event(url1.replace("/board/s1/seat/1?", "/api/board/s1/seat/1/events?"), "seat")
        assert seat1["private"] == private[1]

        # Wrong, missing or another seat's token: 403 and nothing else.
        for bad in (f"board/s1/seat/0?token={token0}x", "board/s1/seat/0", f"board/s1/seat/1?token={token0}",
                    f"api/board/s1/seat/1/events?token={token0}", f"api/board/s2/seat/0/events?token={token0}"):
            assert get(display.url + bad) == (403, b"forbidden"), bad

        # The public pages never carry a hand or a programmed sequence.
        public = first_event(f"{display.url}api/board/s1/events", "board")
        hall = first_event(f"{display.url}api/hall/events", "board")
        for text in (json.dumps(public), json.dumps(hall)):
            assert '"hand"' not in text and '"sequence"' not in text and '"private"' not in text

        # A new code for seat 0 shuts the paired phone out at once.
        page.get_by_role("button", name="new code").click()
        expect(phone.locator("#banner")).to_contain_text("replaced")
        assert get(url0)[0] == 403
        link = page.locator("#seats .seat-link")
        expect(link).not_to_have_attribute("href", url0)
        assert get(link.get_attribute("href") or "")[0] == 200
    finally:
        service.stop()
        hands.close()


@pytest.mark.parametrize("seat", ["7", "x"])
def test_pairing_a_seat_the_board_does_not_have_is_refused(broker: Broker, display: RunningDisplay, seat: str) -> None:
    service = mqtt_service("contigo", "c1", broker.port, seed=1)
    try:
        code, _ = get(f"{display.url}api/board/c1/pair/{seat}?key={display.display.config.pair_key}")
        assert code == 404
    finally:
        service.stop()


def test_a_pairing_code_has_the_specs_quiet_zone_and_warns_of_an_address_no_phone_reaches(
        broker: Broker, display: RunningDisplay) -> None:
    """Issue 38: opened on the Pi itself, the code would send phones to 127.0.0.1: the answer says
    so beside it; the QR code keeps the 4 modules of white around it the QR specification asks."""
    import segno

    from controller.display.seats import loopback

    service = mqtt_service("contigo", "q1", broker.port, seed=1)
    try:
        deadline = time.monotonic() + 10
        while get(f"{display.url}api/board/q1/pair/0?key={display.display.config.pair_key}")[0] != 200:
            assert time.monotonic() < deadline, "the display never saw board q1"
            time.sleep(0.02)  # poll interval
        answer = json.loads(get(f"{display.url}api/board/q1/pair/0?key={display.display.config.pair_key}")[1])
        assert loopback(answer["url"]) and "a phone cannot reach it" in answer["warning"]
        size = segno.make(answer["url"], error="m").symbol_size(scale=4, border=4)
        assert f'width="{size[0]}"' in answer["qr"] and f'height="{size[1]}"' in answer["qr"]
    finally:
        service.stop()
    assert not loopback("http://192.168.1.20:8080/board/q1") and loopback("http://localhost:8080/")


def test_a_public_url_that_is_no_address_is_one_line_at_start_up() -> None:
    from controller.display.cli import add_arguments, config_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for bad in ("notaurl", "ftp://pi:8080", "http://", "http://pi:8080/?x=1"):
        with pytest.raises(argparse.ArgumentTypeError, match="--public-url"):
            config_from(parser.parse_args(["--public-url", bad]))
    assert config_from(parser.parse_args(["--public-url", "http://192.168.1.20:8080"])).public_url
