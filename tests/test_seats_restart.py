"""A SIGKILL while a computer player's move waits to be carried out: the service starts again
showing the same move (the decision is in the journal before it is shown)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.localbroker import Broker
from tests.test_crash_restart import Board


def test_a_sigkill_while_a_computers_move_is_pending_resumes_with_the_same_move(tmp_path: Path, broker: Broker) -> None:
    board = Board(tmp_path, broker.port, "contigo", {}, 2, 7)
    board.config.write_text(board.config.read_text().replace("[sensors]", 'seats = ["bot:easy"]\nchance = "auto"\n'
                                                                          "[sensors]"))
    events = f"{board.base}/events"

    def expected(since: int) -> dict[str, Any]:
        found = board.op.wait_for(lambda m: m[0] == events and json.loads(m[1])["type"] == "expected", 60,
                                  since=since)
        event: dict[str, Any] = json.loads(found[1])
        return event

    try:
        state = board.start()
        assert [p["seat"] for p in state["players"]] == ["bot:easy", "table"]
        first = expected(0)
        board.kill()
        kept = Journal(board.journal).decision(1, first["move"])  # told only once it was on disk
        assert kept is not None and kept.player == first["player"]
        mark = len(board.op.messages)
        board.start()
        again = expected(mark)
        assert (again["action"], again["move"], again["player"]) == (first["action"], first["move"], first["player"])
        board.log.flush()
        assert f"the computer's move {kept.text} waits to be carried out" in (tmp_path / "service.log").read_text()
    finally:
        board.close()
