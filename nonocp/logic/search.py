"""Depth-first search over logic: what finishes a puzzle when line logic stalls.

The root is propagated and probed; then every node of the search is probed and split on
one unknown cell, chosen from the probes themselves (the LalaFrogKK rule, see
``kernel._probe``), trying first the value belief propagation at the root found likelier
(``nonocp.logic.belief``); or, in the dynamic order, split on the cell the beliefs,
refreshed at every node, are surest of, starting over now and then on large puzzles
until it finds a solution. The search runs compiled (``nonocp.logic.kernel``, which
imports numba and numpy), so this module, which only names its answer, stays cheap to
import.

The search is exact: a grid is reported only when every line has passed the line solver,
and a search that was not stopped by a limit has found every solution there is.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from nonocp.clock import stopping_at
from nonocp.logic.board import open_cells
from nonocp.puzzle import Cell, Grid, Known, Puzzle


@dataclass(frozen=True)
class Found:
    """What a search found: ``solutions`` in the order found (at most ``kernel.STORED``) of
    the ``count`` it found; ``exhausted`` when the whole search space was explored, so
    there are no others. A search stopped by its solution limit, its probe budget or its
    deadline is not exhausted. ``known`` is what was proven at the root (propagation and
    probing, or propagation alone from a root ``probed`` already), for every solution:
    where another solver should start. ``differing`` holds the cells in which any of the
    ``count`` solutions differs from the first, each of them checked against the clues
    (``kernel._satisfies``), stored or not."""

    solutions: tuple[Grid, ...]
    exhausted: bool
    probes: int
    count: int
    known: Known
    differing: frozenset[Cell] = frozenset()

    def enough(self, limit: int | None) -> bool:
        """True when ``solutions`` answer a request for ``limit`` (None: all) solutions:
        all there are, or as many as asked for."""
        if self.count != len(self.solutions):
            return False
        return self.exhausted or (limit is not None and self.count >= limit)


class Stopper:
    """Lets another thread stop a running search: the search sees ``stop()`` at its next
    probe and returns, unexhausted, with what it found."""

    def __init__(self) -> None:
        from nonocp.logic import kernel

        self.counters = kernel.counters()

    def stop(self) -> None:
        self.counters[1] = 1


def search(
    puzzle: Puzzle,
    known: Known | None = None,
    limit: int | None = 1,
    probes: int | None = None,
    deadline: float | None = None,
    stopper: Stopper | None = None,
    dynamic: bool = False,
    restarts: int | None = None,
    margin: int | None = None,
    probing: bool = True,
    sweep: int = 0,
    probed: bool = False,
) -> Found:
    """Solutions of ``puzzle`` agreeing with ``known``, up to ``limit`` (None: all of them).

    ``probes`` caps the work below the root (one probe tries both values of a cell; 0
    only propagates and probes the root), ``deadline`` (a ``time.perf_counter`` value) the
    time (a timer thread stops the search then); either stops the search unexhausted,
    with the solutions found so far, as does ``stopper``. The search runs without the
    GIL, so other threads run meanwhile.
    ``dynamic`` refreshes the beliefs that order the search at every node (see
    ``kernel._dive``): for large puzzles, where the root's beliefs go stale. ``restarts``
    is how many failures a search meets before it first starts over (0: never; None: the
    kernel chooses, restarting only a dynamic search of a large puzzle). A search for one
    solution that restarts may start a run near the last run's deepest grid instead,
    reopening the cells within ``margin`` of its open ones (None: ``kernel.REPAIR_MARGIN``).
    Without ``probing`` the nodes below the root get line logic only: many times cheaper
    per node, and on large puzzles its runs fail elsewhere than the probing search's.
    With ``sweep`` lines (0: anywhere), the search branches only that many lines
    deep from its first line with an open cell, from another side of the grid in each
    run (``kernel._dive``). ``probed`` says that ``known`` is a root probed already (the
    budgeted search's): it is propagated, not probed again, so the root's probe scores,
    which only the static order reads, stay zero; the engine passes it to dynamic
    searches only.
    """
    from nonocp.logic import kernel

    stopper = stopper or Stopper()
    with stopping_at(deadline, stopper.stop):
        grids, exhausted, count, root, differing = kernel.run(
            puzzle,
            known,
            limit,
            probes,
            stopper.counters,
            dynamic,
            restarts,
            margin,
            probing,
            sweep,
            probed,
        )
    probes = int(stopper.counters[0])
    return Found(tuple(grids), exhausted, probes, count, root, frozenset(differing))


WINDOW = 16
"""The side of the square windows ``other_nearby`` reopens one at a time, each overlapping
the last by half. Gettys' two solutions differ in 42-52 cells spread over the picture,
in several patches each of which could change alone: with a solution fixed outside, the
third 16x16 window already held another (12x12: the fourth, 8x8: the 18th), found in
milliseconds, where Glucose, told to avoid the first, takes 1.7-2.5 s."""


def other_nearby(
    puzzle: Puzzle,
    known: Known | None,
    grid: Grid,
    deadline: float | None = None,
    stopper: Stopper | None = None,
) -> Grid | None:
    """A solution of ``puzzle`` other than ``grid`` that differs from it within one window
    (``WINDOW``) of the cells ``known`` leaves open; None when no window holds one, which
    proves nothing, or when stopped.

    Two solutions of a picture puzzle often differ in small patches, any one of which
    can change alone, and a search with the rest of the grid fixed settles a window at
    once, where a search of the whole puzzle for a solution other than ``grid`` must first
    find its way back near it."""
    stopper = stopper or Stopper()
    free = set(open_cells(known, puzzle.height, puzzle.width))
    for rows, columns in _windows(puzzle.height, puzzle.width):
        reopened = [
            [
                None if row in rows and column in columns and (row, column) in free else value
                for column, value in enumerate(values)
            ]
            for row, values in enumerate(grid)
        ]
        found = search(puzzle, reopened, limit=2, deadline=deadline, stopper=stopper)
        others = [other for other in found.solutions if other != grid]
        if others:
            return others[0]
        if stopper.counters[1]:
            return None
    return None


def _windows(height: int, width: int) -> list[tuple[range, range]]:
    """The rows and columns of each window, row by row of windows, covering the grid."""
    return [(rows, columns) for rows in _spans(height) for columns in _spans(width)]


def _spans(size: int) -> list[range]:
    last = max(size - WINDOW, 0)
    starts = [*range(0, last, max(WINDOW // 2, 1)), last]
    return [range(start, min(start + WINDOW, size)) for start in starts]


COMPILING = 10.0
"""Seconds after which loading the compiled search says it is compiling: loading numba's
cached machine code takes about a second, and more than two with four processes loading it
on two cores (at 2 s, batches run beside the tests said they were compiling); compiling it
(the first search after installing, or once the cache beside the package is gone) takes
a minute or more."""

COMPILING_NOTICE = (
    "compiling the search, once after installing: about a minute, left out of time limits and times"
)

_loaded = threading.Event()
_log = logging.getLogger(__name__)


def load() -> float:
    """Load the compiled search and decimation, compiling them when numba has no cache of
    them; the seconds this call took, 0 once they are loaded.

    The engine leaves those seconds out of every time limit and reported time: on a fresh
    install, a 5 s limit used to pass in the compile, the first puzzle needing the search
    answering "unknown" after 38 s. When loading is slow it says so (a warning on
    ``nonocp.logic.search``, which the command line prints), since nothing else shows.
    """
    if _loaded.is_set():
        return 0.0
    started = time.perf_counter()
    notice = threading.Timer(COMPILING, _log.warning, [COMPILING_NOTICE])
    notice.daemon = True
    notice.start()
    try:
        from nonocp.logic.decimation import decimate

        diagonal = Puzzle.from_grid(((1, 0), (0, 1)))
        search(diagonal, limit=None)
        decimate(diagonal, None)
    finally:
        notice.cancel()
    _loaded.set()
    return time.perf_counter() - started
