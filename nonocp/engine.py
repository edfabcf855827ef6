"""Solving, uniqueness and counting, logic first and CP-SAT last, behind one honest ``Result``.

Nothing here reports more than was proven: a search stopped by a time limit says
"unknown", a count stopped early says "at least N", and every grid handed back has
first passed ``satisfies``, which recomputes the clues from the cells.

Line logic goes first (``nonocp.logic``): it fixes only cells every solution shares, so
the search starts from them without losing a solution. When it fixes every cell, the grid
is the only solution and nothing else is loaded; a contradiction proves there is none.
What it leaves open goes to the compiled depth-first search (``nonocp.logic.search``),
which probes the root, then searches within a probe budget: it settles most puzzles
outright. Where it gives up, CP-SAT takes over from the cells probing proved, racing the
search without a budget on a second core; looking for one solution of a large puzzle,
a second search races it instead (``_race``).

The CP-SAT side (solver settings, search, threaded enumeration) lives in ``nonocp.cpsat``,
imported only when logic and the depth-first search leave work for it: importing OR-tools
takes about a third of a second, far longer than solving a puzzle logic settles, so such
puzzles (most of the hand-made ones) never pay for it. This module keeps the result types
and the orchestration, and is cheap to import.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Protocol

from nonocp.logic import Deduction, deduce
from nonocp.logic.board import unknown_in
from nonocp.puzzle import Grid, Puzzle, satisfies

if TYPE_CHECKING:
    from nonocp.cpsat import Halt
    from nonocp.logic.search import Found, Stopper
    from nonocp.models import Known, ModelBuilder

SEARCH_PROBES = 40000
"""The probes (each tries both values of a cell, about 20 microseconds) the compiled
search may spend below its root before the race takes over, on a puzzle line logic
leaves with fewer than ``kernel.RESTART_CELLS`` open cells. Random 30x30 seeds 1-400,
validate mode: slowest 0.29 s against 3.66 s with 10,000 (seed 91, which the static
order solves in 31,354 probes and the race's dynamic search in 780,223), total 4.66 s
against 8.21 s; the three tournament sets 151.1 s against 150.8 s."""

LARGE_SEARCH_PROBES = 10000
"""The budget on larger puzzles, where the race's dynamic searches do better than the
static order: 40,000 slowed 9 of random 100x100 seeds 1-10, by a median 0.21 s (up
to 1.2 s), run back to back with 10,000."""

COUNT_PROBES = 20000
"""The same budget when enumerating: past it CP-SAT enumerates, from the probed root."""


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


def searched(
    puzzle: Puzzle, deadline: float | None, logic: bool, limit: int | None, probes: int | None
) -> Found | None:
    """Line logic, then the compiled search from what it proved; None when logic is off.

    Line logic runs first, in Python, because it settles most hand-made puzzles in a few
    milliseconds; only a puzzle it leaves open pays for loading the compiled search.
    """
    if not logic:
        return None
    return search_from(puzzle, deduce(puzzle, deadline, probing=0), deadline, limit, probes)


def search_from(
    puzzle: Puzzle,
    deduction: Deduction,
    deadline: float | None,
    limit: int | None,
    probes: int | None,
) -> Found:
    """The compiled search for up to ``limit`` solutions from what ``deduction`` proved,
    within ``probes`` (None: ``SEARCH_PROBES`` or, on a large puzzle,
    ``LARGE_SEARCH_PROBES``), or its answer when logic alone decided the puzzle."""
    from nonocp.logic.search import Found, search

    if deduction.contradiction or deduction.grid is not None:
        grids = () if deduction.grid is None else (deduction.grid,)
        return Found(grids, True, 0, len(grids), deduction.known)
    if probes is None:
        probes = LARGE_SEARCH_PROBES if _large(deduction.known) else SEARCH_PROBES
    return search(puzzle, deduction.known, limit=limit, probes=probes, deadline=deadline)


def solve(
    puzzle: Puzzle,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    logic: bool = True,
    prove_unique: bool = True,
    search_probes: int | None = None,
) -> Result:
    """Logic and the compiled search first, CP-SAT for whatever they leave open (see
    ``solve_from``); ``build`` makes the CP-SAT model, None meaning the automaton model."""
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    found = searched(puzzle, deadline, logic, _wanted(prove_unique), search_probes)
    return _settle(puzzle, found, deadline, build, started, prove_unique)


def solve_from(
    puzzle: Puzzle,
    deduction: Deduction | None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    prove_unique: bool = True,
    search_probes: int | None = None,
) -> Result:
    """The verdict, starting from what ``deduce`` already proved (or from nothing).

    When logic settled the puzzle that is the answer; otherwise one solution is searched
    for, then (unless ``prove_unique`` is False) a second that differs from it on the
    cells logic left open: the uniqueness proof. The compiled search tries first, with at
    most ``search_probes`` probes below its root (None: by size, see ``search_from``);
    the race finishes what it leaves.
    """
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    found = None
    if deduction is not None:
        found = search_from(puzzle, deduction, deadline, _wanted(prove_unique), search_probes)
    return _settle(puzzle, found, deadline, build, started, prove_unique)


def _wanted(prove_unique: bool) -> int:
    """The solutions a verdict needs: two refute uniqueness, one answers otherwise."""
    return 2 if prove_unique else 1


Verdict = tuple[Status, Uniqueness, tuple[Grid, ...]]
"""What a result says, without its timing: status, uniqueness and the grids shown."""

RACE = (
    len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
) > 1
"""Whether a puzzle the budgeted search leaves open is raced (see ``_race``): only where a
second core lets both sides run at full speed."""


def _settle(
    puzzle: Puzzle,
    found: Found | None,
    deadline: float | None,
    build: ModelBuilder | None,
    started: float,
    prove_unique: bool,
) -> Result:
    def result(verdict: Verdict) -> Result:
        status, uniqueness, grids = verdict
        return Result(status, uniqueness, *grids, seconds=time.perf_counter() - started)

    if found is None:
        return result(_by_cpsat(puzzle, None, None, deadline, build, prove_unique))
    verdict = _verdict_of(puzzle, found, prove_unique)
    if verdict is not None:
        return result(verdict)
    first = found.solutions[0] if found.solutions else None  # checked by _verdict_of
    if RACE:
        return result(_race(puzzle, found.known, first, deadline, build, prove_unique))
    if _unprobed_not_cpsat(found.known, prove_unique):
        return result(_by_unprobed_search(puzzle, found.known, deadline))
    return result(_by_cpsat(puzzle, found.known, first, deadline, build, prove_unique))


def _verdict_of(puzzle: Puzzle, found: Found, prove_unique: bool) -> Verdict | None:
    """The verdict a search's solutions prove, or None when the search stopped short."""
    grids = tuple(checked(puzzle, grid) for grid in found.solutions)
    if found.exhausted and not grids:
        return Status.NONE, Uniqueness.NONE, ()
    if grids and not prove_unique:
        return Status.SOLVED, Uniqueness.UNCHECKED, grids[:1]
    if len(grids) == 2:
        return Status.SOLVED, Uniqueness.MULTIPLE, grids
    if found.exhausted:
        return Status.SOLVED, Uniqueness.UNIQUE, grids
    return None


def _by_cpsat(
    puzzle: Puzzle,
    known: Known | None,
    first: Grid | None,
    deadline: float | None,
    build: ModelBuilder | None,
    prove_unique: bool,
    halt: Halt | None = None,
) -> Verdict:
    """CP-SAT's verdict from the ``known`` cells: a first solution (unless one is given),
    then, for uniqueness, a second that differs from it."""
    from nonocp import cpsat

    cells = cpsat.cells_for(puzzle, known, build)
    if first is None:
        first = cpsat.search(puzzle, cells, deadline, halt)
    if first is None:
        return Status.UNKNOWN, Uniqueness.UNKNOWN, ()
    if first is False:
        return Status.NONE, Uniqueness.NONE, ()
    if not prove_unique:
        return Status.SOLVED, Uniqueness.UNCHECKED, (first,)
    cells.exclude(first)
    second = cpsat.search(puzzle, cells, deadline, halt)
    if second is None:
        return Status.SOLVED, Uniqueness.UNKNOWN, (first,)
    if second is False:
        return Status.SOLVED, Uniqueness.UNIQUE, (first,)
    return Status.SOLVED, Uniqueness.MULTIPLE, (first, second)


def _race(
    puzzle: Puzzle,
    known: Known,
    first: Grid | None,
    deadline: float | None,
    build: ModelBuilder | None,
    prove_unique: bool,
) -> Verdict:
    """The compiled search without a probe budget against a rival in a thread; the first
    verdict wins and stops the other side.

    On the puzzles the budgeted search leaves open, run times are heavy-tailed and hardly
    related from one method to another: each is often many times faster than the other,
    so the race costs the faster of the two (the search runs without the GIL, CP-SAT in
    C++). This search refreshes its beliefs at every node: too slow per node for the
    budgeted search, which settles most puzzles in a few hundred probes, but far fewer
    nodes on those it leaves. The rival is CP-SAT, except in a search for one solution
    of a large puzzle (``_unprobed_not_cpsat``).
    """
    from nonocp.logic.search import Stopper, search

    stopper = Stopper()
    outcome: list[Verdict | BaseException] = []
    if _unprobed_not_cpsat(known, prove_unique):
        rival_stopper = Stopper()
        stop_rival = rival_stopper.stop
        by_rival = partial(_by_unprobed_search, puzzle, known, deadline, rival_stopper)
    else:
        from nonocp.cpsat import Halt

        halt = Halt()
        stop_rival = halt.halt
        by_rival = partial(_by_cpsat, puzzle, known, first, deadline, build, prove_unique, halt)

    def run_rival() -> None:
        try:
            outcome.append(by_rival())
        except BaseException as error:  # handed to the caller's thread
            outcome.append(error)
        stopper.stop()

    rival = threading.Thread(target=run_rival, name="nonocp-rival", daemon=True)
    rival.start()
    found = search(puzzle, known, _wanted(prove_unique), None, deadline, stopper, dynamic=True)
    verdict = _verdict_of(puzzle, found, prove_unique)
    while rival.is_alive():
        if verdict is not None:
            stop_rival()
        rival.join(0.01)
    if verdict is not None:
        return verdict
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _unprobed_not_cpsat(known: Known, prove_unique: bool) -> bool:
    """Whether the search without probing below the root takes CP-SAT's place, as the
    race's rival or, on one core, alone: looking for one solution of a puzzle with at
    least ``kernel.RESTART_CELLS`` open cells.

    There CP-SAT hardly ever answers (from the probed root of a random 100x100 puzzle,
    nothing in 60 s), and the two searches fail on different puzzles: alone, 60 s each,
    the search without probing solved random 100x100 seeds 63 and 76 in 4.1 and 9.0 s,
    where the race against CP-SAT took 56.7 s and gave "unknown", and it gave "unknown"
    on seeds 16, 23 and 37, which the probing search solves in 10-31 s. With it as the
    rival the race solved 74 of seeds 1-80 against 73, median 3.0 s against 7.3 s; on
    one core, alone, 7 of seeds 1-8 where CP-SAT alone solved none.
    """
    return not prove_unique and _large(known)


def _large(known: Known) -> bool:
    """Whether ``known`` leaves at least ``kernel.RESTART_CELLS`` cells open: where the
    dynamic search restarts, and the budget and the race's rival change."""
    from nonocp.logic.kernel import RESTART_CELLS

    return unknown_in(known) >= RESTART_CELLS


def _by_unprobed_search(
    puzzle: Puzzle, known: Known, deadline: float | None, stopper: Stopper | None = None
) -> Verdict:
    """The verdict of the dynamic search for one solution without probing below the root."""
    from nonocp.logic.search import search

    found = search(puzzle, known, 1, None, deadline, stopper, dynamic=True, probing=False)
    verdict = _verdict_of(puzzle, found, prove_unique=False)
    return verdict or (Status.UNKNOWN, Uniqueness.UNKNOWN, ())


@dataclass
class Enumeration:
    """The distinct solutions of a puzzle: those line logic and the compiled search find
    within ``COUNT_PROBES``, or else those a CP-SAT search (``nonocp.cpsat``) produces
    lazily from the cells probing fixed.

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
        ending = enumerated(
            self.puzzle, self.limit, self.time_limit, self.logic, COUNT_PROBES, self._by_cpsat
        )
        self.exact, self.stopped_by = yield from ending

    def _by_cpsat(self, known: Known | None, deadline: float | None) -> Enumerating:
        from nonocp import cpsat

        return cpsat.enumerate_solutions(self.puzzle, known, deadline, self.limit, self.build)


Ending = tuple[bool, str | None]
"""How an enumeration ended: whether it was exhaustive, and if not what stopped it."""

Enumerating = Generator[Grid, None, Ending]
"""Distinct, checked grids, then how the enumeration ended."""


def enumerated(
    puzzle: Puzzle,
    limit: int | None,
    time_limit: float | None,
    logic: bool,
    probes: int,
    rest: Callable[[Known | None, float | None], Enumerating],
) -> Enumerating:
    """The distinct solutions, up to ``limit``: those line logic and the compiled search
    find within ``probes`` when that is all of them (or all asked for), otherwise those
    ``rest`` produces from the cells probing proved, within the deadline. Every engine's
    enumeration starts here."""
    if limit == 0:
        return False, "limit"
    deadline = deadline_after(time_limit)
    found = searched(puzzle, deadline, logic, limit, probes)
    if found is not None and found.enough(limit):
        for grid in found.solutions:
            yield checked(puzzle, grid)
        return found.exhausted, None if found.exhausted else "limit"
    return (yield from rest(None if found is None else found.known, deadline))


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
