"""Solving, uniqueness and counting with CP-SAT, behind one honest ``Result`` type.

Nothing here reports more than was proven: a search stopped by a time limit says
"unknown", a count stopped early says "at least N", and every grid handed back has
first passed ``satisfies``, which recomputes the clues from the cells.

Logic goes first (``nonocp.logic``): it fixes only cells every solution shares, so the
search starts from them without losing a solution. When logic fixes every cell, the grid
is the only solution and no model is built; a logic contradiction proves there is none.
What logic leaves open goes to a depth-first search over logic (``nonocp.logic.search``)
with a probe budget: it settles most puzzles that logic nearly solved faster than a model
can be built, and CP-SAT takes over, from the same known cells, where it gives up.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from ortools.sat.python import cp_model

from nonocp.logic import Deduction, deduce
from nonocp.logic.search import Found, search
from nonocp.models import CellModel, Known
from nonocp.models import automaton as automaton_model
from nonocp.puzzle import Grid, Puzzle, satisfies

ModelBuilder = Callable[[Puzzle, Known | None], CellModel]

PROBING_SECONDS = 5.0
"""The most time probing may take before search: it settles most real puzzles well within
this, and on huge stalled ones it would cost more than the search it saves."""

SEARCH_PROBES = 100
"""The probes (each tries both values of a cell) the depth-first search may spend before
CP-SAT takes over. Searches this small (about 10 ms) finish puzzles that logic left nearly
solved faster than CP-SAT can build and solve a model; beyond it CP-SAT is usually the
faster, several times over on the sparse tournament puzzles where probing fixes nothing
(benchmarks/search.py)."""


class Status(StrEnum):
    SOLVED = "solved"
    NONE = "none"
    UNKNOWN = "unknown"


class Uniqueness(StrEnum):
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    UNKNOWN = "unknown"
    NONE = "none"
    UNCHECKED = "unchecked"


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
            Uniqueness.UNCHECKED: "solved (uniqueness not checked)",
        }[self.uniqueness]


class Solutions(Protocol):
    """A lazy enumeration; after iteration it says whether it was exhaustive, and why not."""

    exact: bool
    stopped_by: str | None

    def __iter__(self) -> Iterator[Grid]: ...


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
    """A solver with the time left before ``deadline``, or None when none is left.

    Logic has already done the probing and the models are pure Boolean, so CP-SAT's own
    probing, linear relaxation, symmetry detection and clause inprocessing cost more than
    they prune: turning them off halves the median time on the tournament puzzles logic
    leaves open, and does not slow the survey, Gecode/R, jwilk or mikix puzzles.
    """
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.linearization_level = 0
    solver.parameters.symmetry_level = 0
    solver.parameters.use_sat_inprocessing = False
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        solver.parameters.max_time_in_seconds = left
    return solver


def deadline_after(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.perf_counter() + time_limit


def settled_by_logic(puzzle: Puzzle, deduction: Deduction | None) -> list[Grid] | None:
    """Every solution, when logic alone decided them (none, or its one complete grid);
    None when cells remain open for search."""
    if deduction is None:
        return None
    if deduction.contradiction:
        return []
    if deduction.grid is not None:
        return [checked(puzzle, deduction.grid)]
    return None


def logic_first(puzzle: Puzzle, deadline: float | None, logic: bool) -> Deduction | None:
    """What logic proves before search (None when logic is turned off).

    Probing gets at most half the time left, so that search always keeps the other half.
    """
    if not logic:
        return None
    probing = PROBING_SECONDS
    if deadline is not None:
        probing = min(probing, (deadline - time.perf_counter()) / 2)
    return deduce(puzzle, deadline, probing=probing)


def solve(
    puzzle: Puzzle,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
    logic: bool = True,
    prove_unique: bool = True,
    search_probes: int = SEARCH_PROBES,
) -> Result:
    """Logic first, then search for whatever it left open (see ``solve_from``)."""
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    deduction = logic_first(puzzle, deadline, logic)
    return _settle(puzzle, deduction, deadline, build, started, prove_unique, search_probes)


def solve_from(
    puzzle: Puzzle,
    deduction: Deduction | None,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
    prove_unique: bool = True,
    search_probes: int = SEARCH_PROBES,
) -> Result:
    """The verdict, starting from what ``deduce`` already proved (or from nothing).

    When logic settled the puzzle that is the answer; otherwise one solution is searched
    for, then (unless ``prove_unique`` is False) a second that differs from it on the
    cells logic left open: the uniqueness proof. The depth-first search tries first, with
    at most ``search_probes`` probes (0: CP-SAT only); CP-SAT finishes what it leaves.
    """
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    return _settle(puzzle, deduction, deadline, build, started, prove_unique, search_probes)


def _settle(
    puzzle: Puzzle,
    deduction: Deduction | None,
    deadline: float | None,
    build: ModelBuilder,
    started: float,
    prove_unique: bool,
    search_probes: int,
) -> Result:
    def result(status: Status, uniqueness: Uniqueness, *grids: Grid) -> Result:
        return Result(status, uniqueness, *grids, seconds=time.perf_counter() - started)

    if deduction is not None and deduction.contradiction:
        return result(Status.NONE, Uniqueness.NONE)
    if deduction is not None and deduction.grid is not None:
        return result(Status.SOLVED, Uniqueness.UNIQUE, checked(puzzle, deduction.grid))
    found = _depth_first(puzzle, deduction, deadline, prove_unique, search_probes)
    grids = [checked(puzzle, grid) for grid in found.solutions]
    if found.exhausted and not grids:
        return result(Status.NONE, Uniqueness.NONE)
    if grids and not prove_unique:
        return result(Status.SOLVED, Uniqueness.UNCHECKED, grids[0])
    if len(grids) == 2:
        return result(Status.SOLVED, Uniqueness.MULTIPLE, *grids)
    if found.exhausted:
        return result(Status.SOLVED, Uniqueness.UNIQUE, grids[0])
    cells = build(puzzle, None if deduction is None else deduction.known)
    first = grids[0] if grids else _search(puzzle, cells, deadline)
    if first is None:
        return result(Status.UNKNOWN, Uniqueness.UNKNOWN)
    if first is False:
        return result(Status.NONE, Uniqueness.NONE)
    if not prove_unique:
        return result(Status.SOLVED, Uniqueness.UNCHECKED, first)
    cells.forbid(first)
    second = _search(puzzle, cells, deadline)
    if second is None:
        return result(Status.SOLVED, Uniqueness.UNKNOWN, first)
    if second is False:
        return result(Status.SOLVED, Uniqueness.UNIQUE, first)
    return result(Status.SOLVED, Uniqueness.MULTIPLE, first, second)


def _depth_first(
    puzzle: Puzzle,
    deduction: Deduction | None,
    deadline: float | None,
    prove_unique: bool,
    probes: int,
) -> Found:
    """Up to the solutions the verdict needs (one, or two to refute uniqueness) from the
    depth-first search; nothing found and nothing exhausted when logic is off or the budget
    is 0, so that CP-SAT does it all."""
    if deduction is None or probes <= 0:
        return Found((), exhausted=False, probes=0)
    limit = 2 if prove_unique else 1
    return search(puzzle, deduction.known, limit=limit, probes=probes, deadline=deadline)


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
    """The distinct solutions of a puzzle: the one logic settled on, or those a CP-SAT search
    in a thread produces lazily from what logic fixed.

    CP-SAT can report the same assignment twice, so grids are deduplicated. After
    iteration, ``exact`` says whether the search was exhausted and ``stopped_by`` why not.
    """

    puzzle: Puzzle
    limit: int | None = None
    time_limit: float | None = None
    build: ModelBuilder = automaton_model.build
    logic: bool = True
    exact: bool = False
    stopped_by: str | None = None
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def __iter__(self) -> Iterator[Grid]:
        if self.limit == 0:
            self.stopped_by = "limit"
            return
        deadline = deadline_after(self.time_limit)
        deduction = logic_first(self.puzzle, deadline, self.logic)
        settled = settled_by_logic(self.puzzle, deduction)
        if settled is not None:
            yield from settled
            self.exact = True
            return
        cells = self.build(self.puzzle, None if deduction is None else deduction.known)
        solver = _solver(deadline)
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
    logic: bool = True,
) -> Enumeration:
    """Iterate over the distinct solutions (all of them, or up to ``limit``)."""
    return Enumeration(puzzle, limit, time_limit, build, logic)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder = automaton_model.build,
    logic: bool = True,
) -> Count:
    return count_all(solutions(puzzle, limit, time_limit, build, logic))


def tally(enumeration: Solutions, found: int, started: float) -> Count:
    """The count an iterated enumeration proved, given how many grids it yielded."""
    elapsed = time.perf_counter() - started
    return Count(found, enumeration.exact, enumeration.stopped_by, elapsed)


def count_all(enumeration: Solutions) -> Count:
    """Iterate an enumeration to its end, keeping only how many solutions it found."""
    started = time.perf_counter()
    return tally(enumeration, sum(1 for _ in enumeration), started)
