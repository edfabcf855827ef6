"""Grids that meet the bound exactly, built without a solver.

Meeting ``fewest_cells`` forces a simple shape: if the rows hold at least as many runs as
the columns, every row run is a single cell, so each row is a set of lone cells and each
column a set of vertical segments (transposed otherwise). Meeting ``most_cells`` forces the
same shape on the empty cells of the inner grid, once each border line's gaps are placed
as lone empty cells. So both senses reduce to one problem, "lone cells per row, segments per
column", which a randomised row-by-row greedy solves for 99.9% of the shared workload's
instances, in about half a millisecond each. When it fails, the solver decides (see ``model``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from nonocp.clock import OutOfTime, in_time
from nonocp.magnitude.bounds import Magnitudes, Sense, gaps
from nonocp.puzzle import Grid

Mask = list[list[bool]]
UNAVAILABLE = None
FORCED = 1000.0
"""Weight of a column whose last chance to start its remaining runs is this row."""

ATTEMPTS = 20


def construct(
    rows: Magnitudes, columns: Magnitudes, sense: Sense, deadline: float | None = None
) -> Grid | None:
    """A grid with these magnitudes meeting the sense's bound, or None if none was found
    before the ``deadline`` (a ``time.perf_counter`` value): a 300x300 instance takes
    seconds. The seed is fixed, so that a run and its resumption build the same grids."""
    rng = random.Random(0)
    try:
        if sense is Sense.MIN:
            return fewest(rows, columns, rng, deadline)
        return most(rows, columns, rng, deadline)
    except OutOfTime:
        return None


def fewest(
    rows: Magnitudes, columns: Magnitudes, rng: random.Random, deadline: float | None
) -> Grid | None:
    full = [[True] * len(columns) for _ in rows]
    cells = lone_cells_and_segments(list(rows), list(columns), full, rng, ATTEMPTS, deadline)
    return None if cells is None else _grid(cells)


def most(
    rows: Magnitudes, columns: Magnitudes, rng: random.Random, deadline: float | None
) -> Grid | None:
    """Place each border line's gaps as lone empty cells, then the inner grid's gaps."""
    height, width = len(rows), len(columns)
    if height < 3 or width < 3 or 0 in rows or 0 in columns:
        return None
    for _ in range(ATTEMPTS // 2):
        border = _border_gaps(rows, columns, rng)
        if border is None:
            return None
        empty, inner = border
        inner_gaps = lone_cells_and_segments(
            [gaps(k) for k in rows[1:-1]],
            [gaps(k) for k in columns[1:-1]],
            inner,
            rng,
            2,
            deadline,
        )
        if inner_gaps is not None:
            for i, row in enumerate(inner_gaps, start=1):
                empty[i][1:-1] = map(bool, row)
            return tuple(tuple(int(not cell) for cell in row) for row in empty)
    return None


def _border_gaps(
    rows: Magnitudes, columns: Magnitudes, rng: random.Random
) -> tuple[Mask, Mask] | None:
    """The empty cells of the border lines' gaps, and the inner cells still open.

    A border gap next to an inner cell would merge with it into a segment touching the
    border, so the inner cells beside border gaps are closed to the inner problem.
    """
    height, width = len(rows), len(columns)
    empty = [[False] * width for _ in range(height)]
    inner = [[True] * (width - 2) for _ in range(height - 2)]
    for i in (0, height - 1):
        places = _lone_places(gaps(rows[i]), [gaps(k) for k in columns], rng)
        if places is None:
            return None
        for j in places:
            empty[i][j] = True
            inner[min(i, height - 3)][j - 1] = False
    for j in (0, width - 1):
        places = _lone_places(gaps(columns[j]), [gaps(k) for k in rows], rng)
        if places is None:
            return None
        for i in places:
            empty[i][j] = True
            inner[i - 1][min(j, width - 3)] = False
    return empty, inner


def _lone_places(count: int, crossing_gaps: list[int], rng: random.Random) -> list[int] | None:
    """``count`` lone positions strictly inside a border line.

    Positions whose crossing line needs few gaps are preferred: the inner cell next to a
    border gap is lost to that crossing line.
    """
    weights: list[float | None] = [-float(g) + rng.random() / 2 for g in crossing_gaps]
    weights[0] = weights[-1] = UNAVAILABLE
    return _pick(weights, count)


def lone_cells_and_segments(
    across: list[int],
    down: list[int],
    allowed: Mask,
    rng: random.Random,
    attempts: int,
    deadline: float | None,
) -> list[list[int]] | None:
    """Cells on ``allowed`` with ``across[i]`` runs in row i and ``down[j]`` in column j,
    max(sum across, sum down) of them: lone cells along the side with more runs.

    Attempts alternate between filling top-down and bottom-up, because the greedy's
    mistakes pile up in its last rows, and the two directions put those rows elsewhere.
    """
    transposed = sum(across) < sum(down)
    if transposed:
        across, down = down, across
        allowed = [list(column) for column in zip(*allowed, strict=True)]
    for attempt in range(attempts):
        if attempt % 2:
            upside_down = _descend(across[::-1], down, allowed[::-1], rng, deadline)
            cells = None if upside_down is None else upside_down[::-1]
        else:
            cells = _descend(across, down, allowed, rng, deadline)
        if cells is not None:
            return [list(column) for column in zip(*cells, strict=True)] if transposed else cells
    return None


def _descend(
    across: Sequence[int],
    down: Sequence[int],
    allowed: Mask,
    rng: random.Random,
    deadline: float | None,
) -> list[list[int]] | None:
    """One greedy pass, row by row: row i takes ``across[i]`` lone cells.

    A cell either starts a run in its column (the cell above is empty and the column has
    runs left) or extends one (the cell above is filled). Extensions are the cells beyond
    one per run, ``surplus`` in all; they are spread over the rows in proportion to what is
    left, and preferably put in columns with no runs left, where they cost nothing.
    Columns with many runs left for the rows remaining go first.
    """
    height, width = len(across), len(down)
    runs_left = list(down)
    above = [False] * width
    cells = [[0] * width for _ in range(height)]
    cells_left = sum(across)
    for i in in_time(range(height), deadline):
        surplus = cells_left - sum(runs_left)
        if surplus < 0 or any(map(_too_late, runs_left, above, [height - i] * width)):
            return None
        pressure = surplus / cells_left if cells_left else 0.0
        weights: list[float | None] = [UNAVAILABLE] * width
        for j in range(width):
            if allowed[i][j]:
                weights[j] = _weight(i, height, runs_left[j], above[j], pressure, rng)
        chosen = _pick(weights, across[i])
        if chosen is None or sum(above[j] for j in chosen) > surplus:
            return None
        filled = [False] * width
        for j in chosen:
            cells[i][j] = 1
            filled[j] = True
            runs_left[j] -= not above[j]
        above = filled
        cells_left -= across[i]
    return cells if not any(runs_left) else None


def _weight(
    i: int, height: int, runs_left: int, above: bool, pressure: float, rng: random.Random
) -> float | None:
    """How much row i wants a cell in a column, None if it must not take one there."""
    last_start = height - 1 - 2 * (runs_left - 1)
    if above:
        if runs_left == 0:
            return 10.0 * pressure + rng.random()
        if last_start < i + 2:
            return UNAVAILABLE
        return 5.0 * pressure - 3.0 + rng.random()
    if runs_left == 0:
        return UNAVAILABLE
    rows_to_start = last_start - i + 1
    return 10.0 * runs_left / rows_to_start + rng.random() + (FORCED if rows_to_start == 1 else 0)


def _too_late(runs_left: int, above: bool, rows_left: int) -> bool:
    """Whether a column can no longer fit its remaining runs, a gap before each."""
    return 2 * runs_left - 1 + above > rows_left if runs_left else False


def _pick(weights: Sequence[float | None], count: int) -> list[int] | None:
    """The heaviest ``count`` pairwise non-adjacent positions, by dynamic programming."""
    size = len(weights)
    impossible = float("-inf")
    best = [[0.0] + [impossible] * count for _ in range(size + 2)]
    for j in range(size - 1, -1, -1):
        w = weights[j]
        for k in range(1, count + 1):
            skip = best[j + 1][k]
            take = impossible if w is None else best[j + 2][k - 1] + w
            best[j][k] = max(skip, take)
    if best[0][count] == impossible:
        return None
    chosen: list[int] = []
    j, k = 0, count
    while k:
        w = weights[j]
        if w is not None and best[j][k] == best[j + 2][k - 1] + w:
            chosen.append(j)
            j, k = j + 2, k - 1
        else:
            j += 1
    return chosen


def _grid(cells: list[list[int]]) -> Grid:
    return tuple(map(tuple, cells))
