"""A SIGKILL while a phone seat's move waits to be carried out: the service starts again showing
the same move (kept in the journal before it was shown), with a new secret for the seat: the old
one plays nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.test_crash_restart import Board


def test_a_sigkill_while_a_phone_move_is_pending_resumes_with_the_same_move_and_a_new_secret(
        tmp_path: Path, broker: Broker) -> None:
    board = Board(tmp_path, broker.port, "contigo", {}, 2, 7)
    board.config.write_text(board.config.read_text().replace("[sensors]", 'seats = ["phone", "phone"]\n'
                                                                          'chance = "auto"\n[sensors]'))
    events = f"{board.base}/events"
    phone = Listener(broker.port, [f"{board.base}/player/+"], reply_topic=f"{board.base}/response/phone")

    def expected(since: int) -> dict[str, Any]:
        found = board.op.wait_for(lambda m: m[0] == events and json.loads(m[1])["type"] == "expected", 30,
                                  since=since)
        event: dict[str, Any] = json.loads(found[1])
        return event

    def seat_view(seat: int, since: int) -> dict[str, Any]:
        topic = f"{board.base}/player/{seat}"
        view: dict[str, Any] = json.loads(phone.wait_for(lambda m: m[0] == topic and m[1], 30, since=since)[1])
        return view

    try:
        state = board.start()
        seat = state["turn"]
        view = seat_view(seat, 0)
        move = view["moves"][0]["action"]
        answer = phone.request(board.base, "play", {"id": "m1", "seat": seat, "secret": view["secret"], "action": move})
        assert answer["ok"], answer
        first = expected(0)
        assert (first["action"], first["player"], first["code"]) == (move, seat, "table.carry_out")
        board.kill()
        mark, seen = len(board.op.messages), len(phone.messages)
        board.start()
        again = expected(mark)
        assert (again["action"], again["move"], again["player"]) == (first["action"], first["move"], first["player"])
        renewed = seat_view(seat, seen)
        assert renewed["secret"] != view["secret"] and renewed["moves"] == []  # its move waits at the table
        old = phone.request(board.base, "play", {"id": "m2", "seat": seat, "secret": view["secret"], "action": move})
        assert old["ok"] is False and old["code"] == "seat.wrong_secret"
    finally:
        phone.close()
        board.close()
