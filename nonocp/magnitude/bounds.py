"""Magnitudes of a grid, and the bounds that prove a grid optimal without a solver.

A line's magnitude is its number of runs of filled cells. Both bounds below are met by
almost every random instance, so an instance whose constructed grid reaches its bound is
solved and proven at once; only the rest needs the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from nonocp.puzzle import columns_of, runs

Magnitudes = tuple[int, ...]


class Sense(StrEnum):
    MIN = "min"
    MAX = "max"


def magnitudes(grid: Sequence[Sequence[int]]) -> tuple[Magnitudes, Magnitudes]:
    """Row and column magnitudes, recomputed from the cells by ``nonocp.puzzle.runs``.

    This shares no code with the constructions or the solver model, which is what makes it
    the independent check every answer passes before it is returned.
    """
    return (
        tuple(len(runs(row)) for row in grid),
        tuple(len(runs(column)) for column in columns_of(grid)),
    )


def fewest_cells(rows: Magnitudes, columns: Magnitudes) -> int:
    """A lower bound on the filled cells: every run, of a row or of a column, needs a cell."""
    return max(sum(rows), sum(columns))


def gaps(magnitude: int) -> int:
    """Inner gaps a line with this magnitude must have: one between consecutive runs."""
    return max(magnitude - 1, 0)


def most_cells(rows: Magnitudes, columns: Magnitudes) -> int:
    """An upper bound on the filled cells, from the empty cells the gaps need.

    Every gap between two runs holds an empty cell away from the grid's border. Such a cell
    can stand for one row gap and one column gap at once, but a gap of a border row lies on
    the border of its column, so it stands for nothing else (and likewise for border
    columns). Hence the empty cells number at least the border lines' gaps plus the larger
    of the inner rows' and inner columns' gaps. An all-empty line (magnitude 0) empties its
    whole length, which the per-line count ``length - gaps`` below also covers.
    """
    height, width = len(rows), len(columns)
    per_line = min(
        sum(width - gaps(k) if k else 0 for k in rows),
        sum(height - gaps(k) if k else 0 for k in columns),
    )
    border_rows = {0, height - 1}
    border_columns = {0, width - 1}
    inner_rows = [gaps(k) for i, k in enumerate(rows) if i not in border_rows]
    inner_columns = [gaps(k) for j, k in enumerate(columns) if j not in border_columns]
    border = sum(gaps(rows[i]) for i in border_rows) + sum(gaps(columns[j]) for j in border_columns)
    return min(per_line, height * width - border - max(sum(inner_rows), sum(inner_columns)))


def bound(rows: Magnitudes, columns: Magnitudes, sense: Sense) -> int:
    return fewest_cells(rows, columns) if sense is Sense.MIN else most_cells(rows, columns)
