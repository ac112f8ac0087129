"""A short run of ``bench.display`` (the figures themselves come from the full run, not from tests)."""

from __future__ import annotations

from bench.display import public_states, run


def test_the_display_benchmark_runs_and_sees_every_message_drawn():
    result = run(boards=3, seconds=1.5, pace=0.5, seed=2)
    assert result["messages"] >= 6 and result["drawn"] == result["messages"]
    assert result["peak_rss_mb"] > 10


def test_the_benchmark_publishes_states_as_the_service_does():
    from controller.schemas import validator

    check = validator("state")
    states = public_states("serpientes", "b", 5, seed=1)
    for s in states:
        check.validate(s)
        assert all("hand" not in snake for snake in s["board_view"]["snakes"])
