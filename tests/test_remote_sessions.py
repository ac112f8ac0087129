"""Two boards' sessions in a remote game, their messages carried in memory the way the service
sends them (``Teller._send_remote``: after each input, the new wires, then the status when it is
due); a board whose loop lags behind its queue."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from controller.config import Config
from controller.session import Session

OPTIONS = {"two_players": True, "tokens": 3, "max_rounds": 2}


def session(board: str, peer: str) -> Session:
    config = Config.from_dict({"board": {"id": board, "game": "serpientes", "num_players": 2, "options": OPTIONS,
                                         "chance": "auto"}, "remote": {"peer": peer}})
    s = Session(config.board, check_board=lambda *a: None, fresh_secret=lambda: board.encode() * 32, peer=peer)
    s.opened([])
    return s


class Courier:
    """What one board sends the other, in order: its new wires, then its status (as JSON travels)."""

    def __init__(self, sender: Session, link: str) -> None:
        self.sender, self.link = sender, link
        self.queue: deque[tuple[str, dict[str, Any]]] = deque()
        self.sent = 0

    def collect(self) -> None:
        s = self.sender
        assert s.remote is not None
        if not (s.wires or s.status_due):
            return
        messages = [("wire", w.to_json()) for w in s.wires] + [("status", {**s.remote.status(), "link": self.link})]
        s.wires, s.status_due = [], False
        self.queue += [(kind, json.loads(json.dumps(data))) for kind, data in messages]
        self.sent += len(messages)


def test_a_board_behind_its_queue_is_not_flooded_with_wires_it_already_has() -> None:
    """The host deals at once (the tokens, the first player, every hand: a burst of wires); the
    joining board's loop takes one message while the host's takes all it got. Each repeated wire
    used to send a status back, and each status made before the wires behind it in the queue asked
    for them all again: the messages grew without end and both loops stopped answering."""
    host, joiner = session("a", "b"), session("b", "a")
    ok, error = host.request("new_game", {"seats": ["table", "remote"], "num_players": 2, "options": OPTIONS}).answer \
        or (False, "")
    assert ok, error
    code = host.remote_view()["code"]  # type: ignore[index]
    ok, error = joiner.request("join", {"code": code}).answer or (False, "")
    assert ok, error
    to_joiner, to_host = Courier(host, "a:1"), Courier(joiner, "b:1")
    to_joiner.collect()
    to_host.collect()
    burst = len(host.match.record.actions)
    assert burst > 10 and host.remote is not None and joiner.remote is not None
    for _ in range(10 * burst):
        if not to_joiner.queue:
            break
        kind, data = to_joiner.queue.popleft()  # the joining board: one message a turn of the test
        joiner.remote_in(kind, data)
        to_host.collect()
        while to_host.queue:  # the host: everything at once
            kind, data = to_host.queue.popleft()
            host.remote_in(kind, data)
            to_joiner.collect()
    assert not to_joiner.queue, f"{len(to_joiner.queue)} messages still on their way after {10 * burst} turns"
    assert len(joiner.remote.log) == len(host.remote.log) == burst and joiner.remote.stopped is None
    # Bounded: each status of the joining board asks again for at most the wires of the burst.
    assert to_joiner.sent <= (1 + to_host.sent) * (burst + 1) and to_host.sent <= burst, (to_joiner.sent, to_host.sent)


def test_a_repeated_wire_changes_nothing_and_sends_nothing_back() -> None:
    host, joiner = session("a", "b"), session("b", "a")
    host.request("new_game", {"seats": ["table", "remote"], "num_players": 2, "options": OPTIONS})
    joiner.request("join", {"code": host.remote_view()["code"]})  # type: ignore[index]
    assert host.remote is not None and joiner.remote is not None
    first = host.remote.log[0].to_json()
    joiner.remote_in("wire", first)
    assert joiner.status_due and len(joiner.remote.log) == 1
    joiner.status_due = False
    outcome = joiner.remote_in("wire", first)
    assert not joiner.status_due and not joiner.wires and outcome.public is None
