"""Brute-force references the tests compare nonocp against: no solver, just enumeration."""

from __future__ import annotations

from functools import cache
from itertools import product

from nonocp.puzzle import Clue, Grid, Puzzle, columns_of, runs


@cache
def lines_with_runs(c: Clue, length: int) -> tuple[tuple[int, ...], ...]:
    """Every 0/1 line of ``length`` cells whose runs are ``c``, by exhaustive enumeration."""
    return tuple(line for line in product((0, 1), repeat=length) if runs(line) == c)


def all_solutions(puzzle: Puzzle) -> set[Grid]:
    """Every grid satisfying the puzzle: each row from its candidates, columns checked."""
    candidates = [lines_with_runs(c, puzzle.width) for c in puzzle.rows]
    return {
        grid
        for grid in product(*candidates)
        if tuple(map(runs, columns_of(grid))) == puzzle.columns
    }
