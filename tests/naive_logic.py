"""A deliberately plain line solver, propagation and probing for the tests to compare with.

It shares nothing with ``nonocp.logic``: lines are lists of None/0/1, a cell is fixed when
only one of its two values leaves the line feasible, and propagation sweeps the lines
until a sweep changes nothing. Slow, but each step is easy to check by eye.
"""

from __future__ import annotations

from functools import cache

from nonocp.puzzle import Clue, Puzzle

Cells = list[list[int | None]]


def feasible(c: Clue, cells: tuple[int | None, ...]) -> bool:
    """Whether some line with runs ``c`` agrees with every known cell."""
    n = len(cells)
    zeros_before = [0]
    for value in cells:
        zeros_before.append(zeros_before[-1] + (value == 0))

    def block_fits(start: int, length: int) -> bool:
        """A block may cover cells start..end-1 and be followed by a gap (or the end)."""
        end = start + length
        if end > n or zeros_before[end] != zeros_before[start]:
            return False
        return end == n or cells[end] != 1

    @cache
    def rest_fits(i: int, j: int) -> bool:
        """Cells i.. can hold blocks j.. (nothing else filled)."""
        if i >= n:
            return j == len(c)
        if cells[i] != 1 and rest_fits(i + 1, j):
            return True
        return j < len(c) and block_fits(i, c[j]) and rest_fits(i + c[j] + 1, j + 1)

    return rest_fits(0, 0)


def solve_line(c: Clue, cells: list[int | None]) -> list[int | None] | None:
    """The line with every forced cell set, or None if no line fits."""
    if not feasible(c, tuple(cells)):
        return None
    solved = list(cells)
    for i, value in enumerate(cells):
        if value is None:
            fits = [v for v in (0, 1) if feasible(c, (*cells[:i], v, *cells[i + 1 :]))]
            if len(fits) == 1:
                solved[i] = fits[0]
    return solved


def propagate(puzzle: Puzzle, grid: Cells) -> Cells | None:
    """Sweep the rows, then the columns, until a sweep changes nothing; None on a
    contradiction. A sweep skips lines none of whose cells changed since they were solved."""
    grid = [list(row) for row in grid]
    rows, columns = set(range(puzzle.height)), set(range(puzzle.width))
    while rows or columns:
        for r in sorted(rows):
            solved = solve_line(puzzle.rows[r], grid[r])
            if solved is None:
                return None
            columns.update(col for col, v in enumerate(solved) if v != grid[r][col])
            grid[r] = solved
        rows = set()
        for col in sorted(columns):
            solved = solve_line(puzzle.columns[col], [row[col] for row in grid])
            if solved is None:
                return None
            for r, value in enumerate(solved):
                if grid[r][col] != value:
                    rows.add(r)
                    grid[r][col] = value
        columns = set()
    return grid


def probe(puzzle: Puzzle, grid: Cells) -> Cells | None:
    """Probe every unknown cell (both values, each propagated) until nothing changes."""
    changed = True
    while changed:
        changed = False
        for r in range(puzzle.height):
            for col in range(puzzle.width):
                if grid[r][col] is not None:
                    continue
                outcomes = [propagate(puzzle, _with(grid, r, col, v)) for v in (0, 1)]
                survivors = [g for g in outcomes if g is not None]
                if not survivors:
                    return None
                merged = survivors[0] if len(survivors) == 1 else _agreement(*survivors)
                if merged != grid:
                    propagated = propagate(puzzle, merged)
                    if propagated is None:
                        return None
                    grid, changed = propagated, True
    return grid


def _with(grid: Cells, r: int, col: int, value: int) -> Cells:
    copy = [list(row) for row in grid]
    copy[r][col] = value
    return copy


def _agreement(one: Cells, other: Cells) -> Cells:
    return [
        [a if a == b else None for a, b in zip(x, y, strict=True)]
        for x, y in zip(one, other, strict=True)
    ]


def blank(puzzle: Puzzle) -> Cells:
    return [[None] * puzzle.width for _ in range(puzzle.height)]
