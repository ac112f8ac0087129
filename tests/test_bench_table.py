"""The bench table's rows say what they are: a percentile with its p50 and sample count (and that
it is no p99 below 200 samples), a Pi column that scales CPU only, a floor for I/O, "not estimated"
for what depends on this machine's load."""

from __future__ import annotations

from bench.__main__ import MIN_SAMPLES, NOT_ESTIMATED, PI_FACTOR, Row, spread, table


def test_a_percentile_row_prints_p50_and_its_count() -> None:
    many = spread("x", "<= 3 ms", [i / 1e3 for i in range(1, MIN_SAMPLES + 1)], 3.0)
    assert many.n == MIN_SAMPLES and many.p50 == 101.0 and many.here == 199.0
    assert many.cells()[3] == f"p50 101.00 ms, n={MIN_SAMPLES}" and many.verdict == "FAIL"
    few = spread("x", "-", [0.001] * 40, None)
    assert "not a p99" in few.cells()[3]


def test_a_target_on_the_p50_is_judged_by_the_p50_not_the_p99() -> None:
    """Issue 39's 'a move told at once <= 3 ms p50': a slow tail does not fail it, a slow middle does."""
    tail = [0.002] * 190 + [0.050] * 10  # p50 2 ms, p99 50 ms
    assert spread("told", "p50 <= 3 ms", tail, None, p50_limit_ms=3.0).verdict == "pass"
    middle = [0.004] * 200
    assert spread("told", "p50 <= 3 ms", middle, None, p50_limit_ms=3.0).verdict == "FAIL"


def test_the_pi_column_scales_cpu_only() -> None:
    cpu = Row("cpu", "-", 2.0, "ms", None)
    assert cpu.cells()[4] == f"{2.0 * PI_FACTOR:.2f} ms"
    io = Row("io", "-", 9.0, "ms", None, floor=2.0, cpu_part=1.0, source="SD")
    assert io.cells()[4] == f">= {1.0 * PI_FACTOR + 2.0:.2f} ms" and io.cells()[5] == "SD"
    wall = Row("wall", "-", 900.0, "ms", None, pi_note=NOT_ESTIMATED)
    assert wall.cells()[4] == NOT_ESTIMATED
    assert "| wall | - | 900.00 ms | - | not estimated |" in table([wall])
