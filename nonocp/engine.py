"""Solving, uniqueness and counting, logic first and CP-SAT last, behind one honest ``Result``.

Nothing here reports more than was proven: a search stopped by a time limit says
"unknown", a count stopped early says "at least N", and every grid handed back has
first passed ``satisfies``, which recomputes the clues from the cells.

Logic goes first (``nonocp.logic``): it fixes only cells every solution shares, so the
search starts from them without losing a solution. When logic fixes every cell, the grid
is the only solution and no model is built; a logic contradiction proves there is none.
What logic leaves open goes to a depth-first search over logic (``nonocp.logic.search``)
with a probe budget: it settles most puzzles that logic nearly solved faster than a model
can be built, and CP-SAT takes over, from the same known cells, where it gives up.

The CP-SAT side (solver settings, search, threaded enumeration) lives in ``nonocp.cpsat``,
imported only when logic and the depth-first search leave work for it: importing OR-tools
takes about a third of a second, far longer than solving a puzzle logic settles, so such
puzzles (most of the hand-made ones) never pay for it. This module keeps the result types
and the orchestration, and is cheap to import.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from nonocp.logic import Deduction, deduce
from nonocp.logic.search import Found, search
from nonocp.puzzle import Grid, Puzzle, satisfies

if TYPE_CHECKING:
    from nonocp.models import ModelBuilder

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
    build: ModelBuilder | None = None,
    logic: bool = True,
    prove_unique: bool = True,
    search_probes: int = SEARCH_PROBES,
) -> Result:
    """Logic first, then search for whatever it left open (see ``solve_from``); ``build``
    makes the CP-SAT model, None meaning the automaton model."""
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    deduction = logic_first(puzzle, deadline, logic)
    return _settle(puzzle, deduction, deadline, build, started, prove_unique, search_probes)


def solve_from(
    puzzle: Puzzle,
    deduction: Deduction | None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
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
    build: ModelBuilder | None,
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
    from nonocp import cpsat

    cells = cpsat.cells_for(puzzle, None if deduction is None else deduction.known, build)
    first = grids[0] if grids else cpsat.search(puzzle, cells, deadline)
    if first is None:
        return result(Status.UNKNOWN, Uniqueness.UNKNOWN)
    if first is False:
        return result(Status.NONE, Uniqueness.NONE)
    if not prove_unique:
        return result(Status.SOLVED, Uniqueness.UNCHECKED, first)
    cells.forbid(first)
    second = cpsat.search(puzzle, cells, deadline)
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


@dataclass
class Enumeration:
    """The distinct solutions of a puzzle: the one logic settled on, or those a CP-SAT search
    (``nonocp.cpsat``) produces lazily from what logic fixed.

    After iteration, ``exact`` says whether the search was exhausted and ``stopped_by`` why
    not.
    """

    puzzle: Puzzle
    limit: int | None = None
    time_limit: float | None = None
    build: ModelBuilder | None = None
    logic: bool = True
    exact: bool = False
    stopped_by: str | None = None

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
        from nonocp import cpsat

        known = None if deduction is None else deduction.known
        ending = cpsat.enumerate_solutions(self.puzzle, known, deadline, self.limit, self.build)
        self.exact, self.stopped_by = yield from ending


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    logic: bool = True,
) -> Enumeration:
    """Iterate over the distinct solutions (all of them, or up to ``limit``)."""
    return Enumeration(puzzle, limit, time_limit, build, logic)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
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
