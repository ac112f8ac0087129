"""A short run of ``bench.display`` (the figures themselves come from the full run, not from tests)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

from bench.display import STAGES, public_states, run


def test_the_display_benchmark_runs_and_sees_every_message_drawn() -> None:
    # The bench drives its own Playwright (sync API). Once another test has opened the session's
    # browser, this thread has Playwright's event loop running and a second sync Playwright refuses
    # to start in it: the bench gets a thread of its own, as it has a process of its own when run.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(run, boards=3, seconds=1.5, pace=0.5, seed=2).result()
    assert result["messages"] >= 6 and result["drawn"] == result["messages"]
    assert result["peak_rss_mb"] > 10


def test_the_display_benchmark_times_each_stage_of_a_line_in_order() -> None:
    """``--stages``: the display stamped by the bench; each step of a line is there, in order up to
    the line written (a stream may read it before the last stream is written: ``written`` is all
    of them)."""
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(run, boards=3, seconds=1.5, pace=0.5, seed=2, viewers=2, stages=True).result()
    at = result["stages"]
    steps = ["publish", *STAGES]
    for before, after in itertools.pairwise(steps):
        assert 0 <= at[f"{before}->{after} p50"] <= at[f"{before}->{after} p99"], (before, after, at)
    assert at["written->read p50"] <= at["written->read p99"] and at["written->read p99"] > -20, at
    assert at["ticks"] >= 3 and at["null process lag p50"] >= 0 and at["loop lag p50"] >= 0
    assert not result["sse_missed"]


def test_the_benchmark_publishes_states_as_the_service_does() -> None:
    from controller.schemas import validator

    check = validator("state")
    states = public_states("serpientes", "b", 5, seed=1)
    for s in states:
        check.validate(s)
        assert all("hand" not in snake for snake in s["board_view"]["snakes"])
