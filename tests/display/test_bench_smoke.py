"""A short run of ``bench.display`` (the figures themselves come from the full run, not from tests)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bench.display import public_states, run


def test_the_display_benchmark_runs_and_sees_every_message_drawn() -> None:
    # The bench drives its own Playwright (sync API). Once another test has opened the session's
    # browser, this thread has Playwright's event loop running and a second sync Playwright refuses
    # to start in it: the bench gets a thread of its own, as it has a process of its own when run.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(run, boards=3, seconds=1.5, pace=0.5, seed=2).result()
    assert result["messages"] >= 6 and result["drawn"] == result["messages"]
    assert result["peak_rss_mb"] > 10


def test_the_benchmark_publishes_states_as_the_service_does() -> None:
    from controller.schemas import validator

    check = validator("state")
    states = public_states("serpientes", "b", 5, seed=1)
    for s in states:
        check.validate(s)
        assert all("hand" not in snake for snake in s["board_view"]["snakes"])
