"""The commit window is measured in sensor time (issue 35): a held move is taken only once the
sensor board's own clock (its CHANGED and HEARTBEAT frames, in order) shows the board still for
the window, never because the loop got round to it late. On a loaded Pi the frames after a change
may wait in a starved reader while the loop's timer runs out: a sensor chattering at an empty legal
slot must still invent nothing."""

from __future__ import annotations

import time

from controller.service import Service
from firmware_bridge.link import SensorChanged, SensorTime
from tests.support.table import Table

COMMIT_MS = 200.0


def empty_legal_slot(table: Table) -> tuple[str, int] | None:
    """A Jeocinco placement's one channel, and the sensor that reads it (None: no placement now)."""
    state = table.state
    if state.current_player < 0:
        return None
    for action in state.legal_actions():
        changes = {c: v for c, v in state.apply(action).physical_view().items() if state.physical_view()[c] != v}
        if len(changes) == 1 and state.action_to_text(action).startswith("place "):
            channel = next(iter(changes))
            return channel, table.layout.sensor_of[channel]
    return None


def sensor_clock(table: Table) -> int:
    now: int | None = table.service.call(lambda: table.service.sensor_now)
    assert now is not None, "the sensor board has said no time yet"
    return now


def test_a_change_is_not_committed_until_the_boards_own_clock_has_passed_the_window() -> None:
    with Table("jeocinco", seed=2, commit_ms=COMMIT_MS) as table:
        for _ in range(20):  # the opening rolls and colours, up to the first placement
            table.idle()
            found = empty_legal_slot(table)
            if found is not None:
                break
            table.play(table.state.legal_actions()[0])
        assert found is not None
        channel, sensor = found
        moves = table.moves
        # The change arrives, stamped by the board; the frames after it are late (a starved reader).
        t = sensor_clock(table) + 60_000  # well ahead of every heartbeat the board sends meanwhile
        table.service.post(SensorChanged(sensor, 1, t, time.monotonic()))

        def overdue(service: Service) -> bool:  # the loop's own timer has run out for the held move
            return service.commit_due

        table.wait(overdue, "the loop's commit timer", loop=True)
        assert table.moves == moves, "committed on the loop's clock, not the board's"
        # The chatter ends before the board's clock reaches the window: nothing was there.
        table.service.post(SensorChanged(sensor, 0, t + 40, time.monotonic()))
        table.wait(lambda s: s.session.verdict.kind == "in_sync" and not s.commit_due and s.settle_at is None,
                   "the board back as it was", loop=True)
        assert table.moves == moves
        # A piece that stays: the board's clock passes the window, and the move is taken then.
        table.service.post(SensorChanged(sensor, 1, t + 100, time.monotonic()))
        table.wait(overdue, "the loop's commit timer", loop=True)
        assert table.moves == moves
        table.service.post(SensorTime(t + 100 + int(COMMIT_MS)))
        table.wait(lambda s: len(s.match.record.actions) > moves, "the move taken in sensor time")
        assert table.service.read(lambda s: channel in s.state.physical_view() and
                                  s.state.physical_view()[channel] == 1)
