"""benchmarks/run.py's summaries: what their counts count."""

from __future__ import annotations

from run import Outcome, finished_within


def test_finished_within_counts_the_finished_puzzles_up_to_each_mark() -> None:
    outcomes = [
        Outcome("solved", 0.05),
        Outcome("unique", 3.0),
        Outcome("12", 12.0),  # a count
        Outcome("wrong grid", 0.5),
        Outcome("unknown", 60.0),
        Outcome("killed", 65.0),
    ]
    assert finished_within(outcomes, [0.1, 1.0, 5.0, 10.0, 30.0]) == [1, 1, 2, 2, 3]
