"""Solving, uniqueness and counting with CP-SAT, behind one honest ``Result`` type.

Nothing here reports more than was proven: a search stopped by a time limit says
"unknown", a count stopped early says "at least N", and every grid handed back has
first passed ``satisfies``, which recomputes the clues from the cells.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from ortools.sat.python import cp_model

from nonocp.models import CellModel, Known
from nonocp.models import automaton as automaton_model
from nonocp.puzzle import Grid, Puzzle, satisfies

ModelBuilder = Callable[[Puzzle, Known | None], CellModel]


class Status(StrEnum):
    SOLVED = "solved"
    NONE = "none"
    UNKNOWN = "unknown"


class Uniqueness(StrEnum):
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNKNOWN = "unknown"
    NONE = "none"


class SolverBug(RuntimeError):
    """A solver produced a grid that breaks the clues: a bug in nonocp, never a user error."""


@dataclass(frozen=True)
class Result:
    """What solving found and what was proven about it.

    ``other`` is a second solution when one was found, so callers can show where two
    solutions differ.
    """

    status: Status
    uniqueness: Uniqueness
    grid: Grid | None = None
    other: Grid | None = None
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        return {
            Uniqueness.UNIQUE: "unique",
            Uniqueness.MULTIPLE: "not unique: at least 2 solutions",
            Uniqueness.NONE: "no solution",
            Uniqueness.UNKNOWN: "unknown: time limit",
        }[self.uniqueness]


@dataclass(frozen=True)
class Count:
    """How many solutions there are, exactly when ``exact``, otherwise at least ``count``."""

    count: int
    exact: bool
    stopped_by: str | None = None
    seconds: float = 0.0

    @property
    def text(self) -> str:
        if self.exact:
            return f"{self.count} solution" + ("" if self.count == 1 else "s")
        return f"at least {self.count} solutions ({self.stopped_by})"


def checked(puzzle: Puzzle, grid: Grid) -> Grid:
    if not satisfies(puzzle, grid):
        raise SolverBug("the solver returned a grid that does not satisfy the clues")
    return grid


def _solver(deadline: float | None, workers: int = 1) -> cp_model.CpSolver | None:
    """A solver with the time left before ``deadline``, or None when none is left."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        solver.parameters.max_time_in_seconds = left
    return solver


def _deadline(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.perf_counter() + time_limit


def solve(
    puzzle: Puzzle,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
) -> Result:
    """One solution, then a search for a second that differs from it: the uniqueness proof."""
    started = time.perf_counter()
    deadline = _deadline(time_limit)
    cells = build(puzzle, None)

    def result(status: Status, uniqueness: Uniqueness, *grids: Grid) -> Result:
        return Result(status, uniqueness, *grids, seconds=time.perf_counter() - started)

    first = _search(puzzle, cells, deadline)
    if first is None:
        return result(Status.UNKNOWN, Uniqueness.UNKNOWN)
    if first is False:
        return result(Status.NONE, Uniqueness.NONE)
    cells.forbid(first)
    second = _search(puzzle, cells, deadline)
    if second is None:
        return result(Status.SOLVED, Uniqueness.UNKNOWN, first)
    if second is False:
        return result(Status.SOLVED, Uniqueness.UNIQUE, first)
    return result(Status.SOLVED, Uniqueness.MULTIPLE, first, second)


def _search(puzzle: Puzzle, cells: CellModel, deadline: float | None) -> Grid | bool | None:
    """A checked solution, False when proven there is none, None when time ran out."""
    solver = _solver(deadline)
    if solver is None:
        return None
    status = solver.solve(cells.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return checked(puzzle, cells.grid(solver))
    if status == cp_model.INFEASIBLE:
        return False
    return None


@dataclass
class Enumeration:
    """The distinct solutions of a puzzle, produced lazily by a CP-SAT search in a thread.

    CP-SAT can report the same assignment twice, so grids are deduplicated. After
    iteration, ``exact`` says whether the search was exhausted and ``stopped_by`` why not.
    """

    puzzle: Puzzle
    limit: int | None = None
    time_limit: float | None = None
    build: ModelBuilder = automaton_model.build
    exact: bool = False
    stopped_by: str | None = None
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def __iter__(self) -> Iterator[Grid]:
        if self.limit == 0:
            self.stopped_by = "limit"
            return
        cells = self.build(self.puzzle, None)
        solver = _solver(_deadline(self.time_limit))
        if solver is None:
            self.stopped_by = "time limit"
            return
        solver.parameters.enumerate_all_solutions = True
        found: queue.SimpleQueue[Grid | None] = queue.SimpleQueue()
        callback = _Collector(self, cells, found)
        status_box: list[cp_model.CpSolverStatus] = []

        def run() -> None:
            try:
                status_box.append(solver.solve(cells.model, callback))
            finally:
                found.put(None)

        thread = threading.Thread(target=run, name="nonocp-enumeration", daemon=True)
        thread.start()
        try:
            while (grid := found.get()) is not None:
                yield grid
        finally:
            self._stop.set()
            solver.stop_search()
            thread.join()
        if callback.error is not None:
            raise callback.error
        self._conclude(status_box[0], callback.count)

    def _conclude(self, status: cp_model.CpSolverStatus, count: int) -> None:
        if self.limit is not None and count >= self.limit:
            self.stopped_by = "limit"
        elif status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            self.exact = True
        else:
            self.stopped_by = "time limit"


class _Collector(cp_model.CpSolverSolutionCallback):
    """Hands each new, checked grid to the consumer; stops at the limit or when asked."""

    def __init__(self, owner: Enumeration, cells: CellModel, found: queue.SimpleQueue) -> None:
        super().__init__()
        self.owner = owner
        self.cells = cells
        self.found = found
        self.seen: set[Grid] = set()
        self.count = 0
        self.error: Exception | None = None

    def on_solution_callback(self) -> None:
        if self.owner._stop.is_set():
            self.stop_search()
            return
        grid = self.cells.grid(self)
        if grid in self.seen:
            return
        try:
            checked(self.owner.puzzle, grid)
        except SolverBug as error:
            self.error = error
            self.stop_search()
            return
        self.seen.add(grid)
        self.count += 1
        self.found.put(grid)
        if self.owner.limit is not None and self.count >= self.owner.limit:
            self.stop_search()


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
) -> Enumeration:
    """Iterate over the distinct solutions (all of them, or up to ``limit``)."""
    return Enumeration(puzzle, limit, time_limit, build)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
) -> Count:
    started = time.perf_counter()
    enumeration = solutions(puzzle, limit, time_limit, build)
    total = sum(1 for _ in enumeration)
    return Count(total, enumeration.exact, enumeration.stopped_by, time.perf_counter() - started)
