"""A first solution by belief propagation alone: decimation that takes back its doubts.

Where line logic leaves a picture puzzle's lines loosely tied, as on Gettys (99x59),
the depth-first search finds nothing in minutes and Glucose needs 1.5-2.7 s. Belief
propagation (``nonocp.logic.belief``) already knows most of the picture there; what
fails a search that follows it is the few wrong guesses among the first, which surface
hundreds of levels deeper. Decimation does not backtrack. It fixes the open cells the
beliefs are surest of, a few at a time, hears the lines again, and releases the fixed
cells the rest of the grid now supports least: a line leaves a cell's own value out of
the weights it counts for that cell (``belief.heard`` says where that falls short), so
a wrong guess shows as a fixed cell its row and column speak against. When every cell
is fixed and some lines break their clues, it releases their cells and goes on. This is
backtracking survey propagation (Marino, Parisi and Ricci-Tersenghi, 2016), with the
sum-product messages of lines in place of surveys.

It is incomplete: it either reaches a grid that satisfies every clue (which the engine
checks, as it checks every solution) or gives up after ``FULL_GRIDS`` complete grids,
which says nothing about whether a solution exists. Its compiled code takes in
``kernel``'s and ``belief``'s, which numba's cache of this file does not track (see
``kernel`` on clearing the cache after editing them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nonocp.clock import stopping_at
from nonocp.logic import kernel
from nonocp.logic.belief import ROUNDS, hear, heard, messages
from nonocp.logic.cells import EMPTY, FILLED, UNKNOWN, Arrays
from nonocp.logic.search import Stopper
from nonocp.puzzle import Grid, Known, Puzzle

STEP = 0.005
"""The share of the cells open at the start fixed at each step. On Gettys, 0.005 solves
it in 0.65 s and 0.0075 in 1.3 s; at 0.01 it gives up (``benchmarks/CHOICES.md``)."""

RELEASE = 0.8
"""The cells released at each step, as a share of those fixed: at 0.9 Gettys took 1.2 s,
at 0.7 decimation gave up on it."""

STEP_ROUNDS = 3
"""Rounds of messages after each step, over the lines whose cells changed and those the
changes then reach (as at each node of the dynamic search). With 3, decimation solved
three of Gettys, Marley, #16900 and Faase; with 5 or 2, two."""

FULL_GRIDS = 3
"""Complete grids with broken lines after which decimation gives up. In a first version
(in Python), each of the 6 settings that solved Gettys did so at its first or second
complete grid; those that failed went on through hundreds without a solution."""


def decimate(
    puzzle: Puzzle,
    known: Known | None,
    deadline: float | None = None,
    stopper: Stopper | None = None,
) -> Grid | None:
    """A grid satisfying every clue of ``puzzle`` and agreeing with ``known``, or None when
    decimation gave up, met ``deadline`` or was stopped by ``stopper``."""
    stopper = stopper or Stopper()
    grid = kernel.cells_of(puzzle, known)
    shape = kernel.arrays(puzzle)
    work = kernel.workspace(puzzle.height, puzzle.width, shape[3])
    with stopping_at(deadline, stopper.stop):
        settings = (STEP, RELEASE, STEP_ROUNDS, FULL_GRIDS)  # passed, not compiled in
        solved = _decimate(grid, shape, work, stopper.counters, settings)
    return kernel.grid_of(grid, puzzle.width) if solved else None


@njit(cache=True, nogil=True)
def _decimate(
    grid: np.ndarray,
    puzzle: Arrays,
    work: kernel.Work,
    counters: np.ndarray,
    settings: tuple[float, float, int, int],
) -> bool:
    """Decimate ``grid`` in place to a solution (True), or give up (False). Each step
    counts in ``counters[0]``; setting ``counters[1]`` stops it. ``settings``: ``STEP``,
    ``RELEASE``, ``STEP_ROUNDS`` and ``FULL_GRIDS``."""
    height, width = puzzle[0], puzzle[1]
    step, release, rounds, most_full = settings
    free = grid == UNKNOWN
    fixing = max(1, int(step * np.sum(free)))
    releasing = int(release * fixing)
    broken = np.zeros(height + width, np.bool_)
    sent = messages(grid, puzzle)
    hear(grid, puzzle, sent, int(ROUNDS))
    full_grids = 0
    while counters[1] == 0:
        counters[0] += 1
        hear(grid, puzzle, sent, rounds)
        support = heard(sent)  # an open cell's chance, a fixed cell's backing
        fixed = _fix_surest(grid, support, fixing)
        if not np.any(grid == UNKNOWN):
            if kernel.broken_lines(grid, puzzle, work, broken) == 0:
                return True
            full_grids += 1
            if full_grids == most_full:
                return False
            _release_lines(grid, free, broken, height, width)
        _release_least_supported(grid, free, fixed, support, releasing)
    return False


@njit(cache=True)
def _fix_surest(grid: np.ndarray, chances: np.ndarray, count: int) -> np.ndarray:
    """Fix the ``count`` open cells whose chances are furthest from even to their likelier
    value; the cells fixed."""
    open_cells = np.flatnonzero(grid == UNKNOWN)
    surest = open_cells[np.argsort(-np.abs(chances[open_cells] - 0.5))[:count]]
    for cell in surest:
        grid[cell] = FILLED if chances[cell] > 0.5 else EMPTY
    return surest


@njit(cache=True)
def _release_lines(
    grid: np.ndarray, free: np.ndarray, broken: np.ndarray, height: int, width: int
) -> None:
    """Reopen the cells decimation fixed in the ``broken`` lines."""
    for cell in range(grid.shape[0]):
        if free[cell] and (broken[cell // width] or broken[height + cell % width]):
            grid[cell] = UNKNOWN


@njit(cache=True)
def _release_least_supported(
    grid: np.ndarray, free: np.ndarray, fixed: np.ndarray, support: np.ndarray, count: int
) -> None:
    """Reopen the ``count`` cells fixed before this step whose value the rest of the
    grid (``support``: how likely it says each cell is filled) backs least."""
    kept = free & (grid != UNKNOWN)
    kept[fixed] = False
    held = np.flatnonzero(kept)
    backing = np.where(grid[held] == FILLED, support[held], 1.0 - support[held])
    for cell in held[np.argsort(backing)[:count]]:
        grid[cell] = UNKNOWN
