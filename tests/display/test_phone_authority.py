"""Who may move for a phone seat, against the shipped broker configuration (``deploy/mosquitto``, a
real Mosquitto) and the display server logged in as ``display``: only the page paired with the
seat, through the display, whose request carries the seat's secret. A spectator, another seat and
another board are each refused: by the display (no token, another's token), by the broker's ACL
(no account but the display's and the operator's sends ``play``; only the seat's own account and
the display read its secret) and by the service (a request without the secret, with another
seat's or another board's is refused, coded)."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from controller.display.server import RunningDisplay
from controller.service import Service
from tests.display.conftest import pair, start_display
from tests.display.test_seats import first_event
from tests.support.services import bridge_of, mqtt_service
from tests.test_mqtt_security import ACCOUNTS, BASE, BOARD, OTHER, OTHER_BASE, Secured, login, wait_log
from tests.test_mqtt_security import secured as secured  # the sample configuration's broker, shared fixture

PHONES = {"seats": ["phone", "phone"], "chance": "auto"}


def phone_service(port: int, board: str) -> Service:
    service = mqtt_service("contigo", board, port, seed=3, board=PHONES,
                           mqtt={"username": "arbitro", "password": ACCOUNTS["arbitro"]})
    assert bridge_of(service).flush(5)
    return service


@pytest.fixture(scope="module")
def boards(secured: Secured) -> Iterator[tuple[Service, Service]]:
    """Board ``board1`` and board ``table13``, each a Contigo game with both seats on phones."""
    here, there = phone_service(secured[0].port, BOARD), phone_service(secured[0].port, OTHER)
    yield here, there
    here.stop()
    there.stop()


@pytest.fixture(scope="module")
def display(secured: Secured, boards: tuple[Service, Service]) -> Iterator[RunningDisplay]:
    d = start_display(secured[0].port, username="display", password=ACCOUNTS["display"])
    yield d
    d.stop()


def secret(service: Service, seat: int) -> str:
    found: str = service.read(lambda s: s.private_state(seat)["secret"])
    return found


def post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any] | str]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def move_url(page: str) -> str:
    """Where a seat page (its address) posts its moves."""
    path, _, token = page.partition("?")
    return path.replace("/board/", "/api/board/", 1) + "/move?" + token


def first_move(service: Service) -> tuple[int, str]:
    """The seat to act, and a move it may play."""
    seat: int = service.read(lambda s: s.state.current_player)
    text: str = service.read(lambda s: s.private_state(seat)["moves"][0]["action"])
    return seat, text


def held_secret(display: RunningDisplay, board: str, seat: int) -> str | None:
    """The seat's secret as the display holds it (from ``player/<n>``)."""
    def read() -> str | None:
        model = display.display.boards.get(board)
        return None if model is None else model.secret(seat)
    held: str | None = display.call(read)
    return held


def new_game(port: int, service: Service, board: str, seed: int, display: RunningDisplay | None = None) -> None:
    """A new phone game on ``board``, asked by the operator; with ``display``: once the display
    has its seats' secrets."""
    desk = login(port, "operator", [], reply_topic=f"arbitro/{board}/response/desk-{uuid.uuid4().hex}")
    try:
        assert desk.request(f"arbitro/{board}", "new_game", {"seats": ["phone", "phone"], "seed": seed})["ok"]
    finally:
        desk.close()
    deadline = time.monotonic() + 10
    while display is not None and any(held_secret(display, board, p) != secret(service, p) for p in (0, 1)):
        assert time.monotonic() < deadline, f"the display never got {board}'s seats"
        time.sleep(0.02)  # poll interval


def test_only_the_page_paired_with_the_seat_moves_for_it_through_the_display(
        secured: Secured, display: RunningDisplay, boards: tuple[Service, Service]) -> None:
    here, there = boards
    new_game(secured[0].port, here, BOARD, 6, display)
    new_game(secured[0].port, there, OTHER, 6, display)
    me, move = first_move(here)
    mine, others, elsewhere = pair(display, BOARD, me), pair(display, BOARD, 1 - me), pair(display, OTHER, me)
    spectator = f"{display.url}api/board/{BOARD}/seat/{me}/move"  # a board page's: no token
    another_seat = move_url(mine).split("?")[0] + "?" + others.split("?")[1]
    another_board = move_url(mine).split("?")[0] + "?" + elsewhere.split("?")[1]
    for url in (spectator, another_seat, another_board):
        assert post(url, {"action": move})[0] == 403, url
    # The page gets its moves, never the secret: the display adds it to the request itself.
    sent = first_event(move_url(mine).replace("/move?", "/events?"), "seat")
    assert sent["private"]["moves"] and sent["xy"] and secret(here, me) not in json.dumps(sent)
    assert here.read(lambda s: s.expected) is None
    status, answer = post(move_url(others), {"action": move})  # the other seat's own page, out of turn
    assert status == 200 and isinstance(answer, dict)
    assert answer["ok"] is False and answer["code"] == "seat.not_your_turn"
    status, answer = post(move_url(mine), {"action": move})
    assert status == 200 and answer == {"command": "play", "ok": True, "result": {"action": move}}
    expected = here.read(lambda s: s.expected)
    assert expected is not None and (expected.player, expected.text) == (me, move)
    assert there.read(lambda s: s.expected) is None  # the other board's same seat: untouched


def test_the_service_refuses_a_play_without_the_seats_secret_or_with_another_seats_or_boards(
        secured: Secured, boards: tuple[Service, Service]) -> None:
    here, there = boards
    new_game(secured[0].port, here, BOARD, 4)
    sender = login(secured[0].port, "display", [], reply_topic=f"{BASE}/response/play")
    try:
        me, move = first_move(here)
        for given, code in ((None, "seat.no_secret"), (secret(here, 1 - me), "seat.wrong_secret"),
                            (secret(there, me), "seat.wrong_secret")):
            body = {"id": uuid.uuid4().hex, "seat": me, "action": move, **({"secret": given} if given else {})}
            answer = sender.request(BASE, "play", body)
            assert answer["ok"] is False and answer["code"] == code, answer
            assert answer["params"] == {"seat": f"player {me}"}, answer  # said as the person
            assert "only the phone paired with the seat plays it" in answer["error"]
        assert here.read(lambda s: s.expected) is None
        answer = sender.request(BASE, "play", {"id": uuid.uuid4().hex, "seat": me, "secret": secret(here, me),
                                               "action": move})
        assert answer["ok"] is True and answer["result"] == {"action": move}
    finally:
        sender.close()


def test_the_acl_keeps_a_seats_secret_and_the_play_request_from_every_other_account(
        secured: Secured, boards: tuple[Service, Service]) -> None:
    broker, port = secured[0], secured[0].port
    here, _ = boards
    new_game(port, here, BOARD, 5)
    mine = secret(here, 0)
    readers = {user: login(port, user, [f"{BASE}/player/0", f"{OTHER_BASE}/player/0"], client_id=f"{user}-{i}")
               for i, user in enumerate(("viewer", f"{BOARD}-player1", f"{OTHER}-player0", f"{BOARD}-player0"))}
    try:
        own = readers[f"{BOARD}-player0"].wait_for(lambda m: m[0] == f"{BASE}/player/0")
        assert json.loads(own[1])["secret"] == mine  # the seat's own account reads it
        desk = login(port, "operator", [f"{BASE}/events"], reply_topic=f"{BASE}/response/desk-{uuid.uuid4().hex}")
        try:
            desk.fence(BASE)
        finally:
            desk.close()
        for user in ("viewer", f"{BOARD}-player1", f"{OTHER}-player0"):
            assert not [t for t, p, *_ in readers[user].messages if mine.encode() in p], user
        # A spectator's, another seat's and another board's accounts may not even send a play request.
        for i, user in enumerate(("viewer", f"{BOARD}-player1", f"{OTHER}-player0", f"{BOARD}-player0")):
            client = readers[user]
            body = json.dumps({"id": f"stolen-{i}", "seat": 0, "secret": mine, "action": first_move(here)[1]})
            client.client.publish(f"{BASE}/request/play", body, qos=1)
            wait_log(broker, rf"Denied PUBLISH from {re.escape(user)}-{i} \(d0, q1, r0, m\d+, '{BASE}/request/play'")
        assert here.read(lambda s: s.expected) is None
    finally:
        for client in readers.values():
            client.close()


def test_a_takeback_across_a_seen_outcome_is_agreed_on_the_seats_phones_through_the_display(
        secured: Secured, display: RunningDisplay, boards: tuple[Service, Service]) -> None:
    """Issue 35: the undo of who starts (a chance outcome both phones have seen) waits for each
    phone seat's consent, which its page gives through the display (the seat's secret added there);
    a spectator's page cannot give it. The last consent makes the takeback, marked in the record."""
    here, _ = boards
    new_game(secured[0].port, here, BOARD, 7, display)
    seen = here.read(lambda s: s.match.public_log[-1])  # who starts: drawn, and seen by everyone
    desk = login(secured[0].port, "operator", [], reply_topic=f"arbitro/{BOARD}/response/desk-{uuid.uuid4().hex}")
    try:
        refused = desk.request(f"arbitro/{BOARD}", "undo", {})
    finally:
        desk.close()
    assert refused["ok"] is False and refused["code"] == "table.needs_consent", refused
    pages = [pair(display, BOARD, p) for p in (0, 1)]
    shown = first_event(move_url(pages[0]).replace("/move?", "/events?"), "seat")
    assert shown["private"]["takeback"]["move"] == seen
    spectator = f"{display.url}api/board/{BOARD}/seat/0/consent"
    assert post(spectator, {"agree": True})[0] == 403
    status, first = post(move_url(pages[0]).replace("/move?", "/consent?"), {"agree": True})
    assert status == 200 and first == {"command": "consent", "ok": True, "result": {"waiting": [1]}}, first
    status, last = post(move_url(pages[1]).replace("/move?", "/consent?"), {"agree": True})
    assert status == 200 and isinstance(last, dict) and last["ok"] and last["result"]["consent"] == [0, 1], last
    assert here.read(lambda s: s.match.record.takebacks)[-1]["consent"] == [0, 1]
