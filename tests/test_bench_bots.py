"""bench.bots: its intervals and verdicts, and a quick run that prints every kind of row."""

from __future__ import annotations

import random

import pytest

from bench.bots import VARIANTS, cells, elo, greedy, label, main, timing_row, verdict, wilson
from controller.games.registry import all_games


def test_the_wilson_interval_of_twenty_games_won_out_of_twenty() -> None:
    low, high = wilson(20, 20)
    assert low == pytest.approx(0.839, abs=0.001) and high == 1.0
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.299, abs=0.001) and high == pytest.approx(0.701, abs=0.001)


def test_a_verdict_says_whether_the_interval_decides_it() -> None:
    assert verdict(0.92, 0.97, 1.0, 0.9) == "pass"
    assert verdict(0.84, 1.0, 1.0, 0.9) == "pass (interval holds the target)"
    assert verdict(0.5, 0.7, 0.85, 0.9) == "FAIL"
    assert verdict(0.6, 0.8, 0.95, 0.9) == "FAIL (interval holds the target)"
    assert verdict(1.2, 1.5, 1.8, 2.0, above=False) == "pass"  # a mean rank: lower is better


def test_the_table_covers_every_game_at_every_player_count_its_engine_allows() -> None:
    covered = {(game, n) for game, _, n in VARIANTS}
    allowed = {(game.name, n) for game in all_games() for _, n in game.configurations()}
    assert allowed <= covered
    assert any(o.get("fast") for g, o, _ in VARIANTS if g == "jeocinco")


def test_a_quick_run_prints_strength_levels_endings_time_and_memory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--quick", "--game", "contigo", "--jobs", "1", "--versus", "medium,easy"]) == 0
    out = capsys.readouterr().out
    first = label(VARIANTS[0]) + " turn_limit=12"
    for figure in ("easy against random play", "hard against random play", "medium against easy",
                   "hard against hard, ended by the game's own ending"):
        assert f"{first}: {figure} |" in out
    assert "hard against medium" not in out  # --versus replaces the default pairs
    assert "contigo: hard decision CPU time (p50" in out and "contigo: memory of a hard decision" in out
    assert f"{first} medium | easy | 1 |" in out  # the ladder: a line per level and opponent, with its Elo


def test_a_run_continued_from_a_later_game_plays_the_games_of_one_longer_run() -> None:
    # --first-game: seeds and the measured seat go on where the first part stopped (3 players: the
    # seat goes round, so a part of 200 games must not start again at seat 0)
    variant = next(v for v in VARIANTS if v[0] == "serpientes" and v[2] == 3)
    whole, = cells([variant], [], 0, [("hard", "medium")], 7, 0)
    first, = cells([variant], [], 0, [("hard", "medium")], 4, 0)
    rest, = cells([variant], [], 0, [("hard", "medium")], 3, 0, first=4)
    assert [*first.tasks(), *rest.tasks()] == list(whole.tasks())
    assert first.seats(4) + rest.seats(3) == whole.seats(7)


def test_versus_takes_two_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--quick", "--versus", "hard"])
    assert "STRONGER,WEAKER" in capsys.readouterr().err


def test_a_99th_percentile_is_printed_from_two_hundred_decisions_and_judged_for_hard_only() -> None:
    assert "p99" not in timing_row("contigo", "hard", [0.01] * 199).split("|")[0]
    assert timing_row("contigo", "hard", [0.01] * 199).endswith("too few decisions")
    assert timing_row("contigo", "hard", [0.01] * 198 + [0.3, 0.3]).endswith("FAIL")
    assert timing_row("contigo", "hard", [0.01] * 199 + [0.3]).endswith("pass")  # the 99th of 200 is the 199th
    assert timing_row("contigo", "easy", [0.3] * 200).endswith("for the record")


def test_elo_is_zero_at_an_even_score_and_two_hundred_at_three_in_four() -> None:
    assert elo(0.5) == pytest.approx(0.0)
    assert elo(0.76) == pytest.approx(200, abs=1)
    assert elo(1.0) == elo(0.99)  # a clean sweep is clamped, not infinite


def test_a_quick_run_against_the_greedy_reference_counts_endings_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--quick", "--game", "contigo", "--jobs", "1", "--levels", "easy", "--against", "random,greedy",
                 "--versus-games", "0", "--endings", "0"]) == 0
    out = capsys.readouterr().out
    first = label(VARIANTS[0]) + " turn_limit=12"
    assert f"{first}: easy against the greedy reference |" in out and f"{first}: easy against random play |" in out
    assert "by the game's own end" in out and "at its limit" in out and "Elo" in out


def test_the_greedy_reference_takes_a_win_at_once() -> None:
    from tests.players.tactics import positions, wins

    for k, state in enumerate(positions("contigo", {}, 2, "win", 5, 100, 50)):
        me = state.current_player
        assert greedy("contigo", state, me, random.Random(k)) in wins(state)
