"""What solving answers, in the types every engine and solver hands back, and the checks
behind them: a verdict (``Result``), a count (``Count``), an enumeration's ending, and
``checked``, which every grid passes before it is answered.

They live apart from ``nonocp.engine``, which orchestrates the solvers, so that the
solvers it imports (``nonocp.sat``, ``nonocp.cpsat``) can share them without importing
it; the MIP engine (``nonocp.mip``), a peer of the engine, builds on both.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, Protocol

from nonocp.puzzle import Cell, Grid, Puzzle, ambiguous_cells, satisfies
from nonocp.words import counted


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


class Stop(StrEnum):
    """What stopped a count or an enumeration short of the end."""

    LIMIT = "limit"
    """The number of solutions asked for was reached."""
    TIME_LIMIT = "time limit"


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
    stopped_by: Stop | None
    loading: float  # seconds spent loading the compiled search, which no time counts

    def __iter__(self) -> Iterator[Grid]: ...


@dataclass(frozen=True)
class Count:
    """How many solutions there are, exactly when ``exact``, otherwise at least ``count``;
    ``differing`` holds the cells in which any of the solutions counted differs from the
    first (all of them: the cells a unique picture would need settled)."""

    count: int
    exact: bool
    stopped_by: Stop | None = None
    seconds: float = 0.0
    differing: frozenset[Cell] = frozenset()

    @property
    def text(self) -> str:
        solutions = counted(self.count, "solution")
        return solutions if self.exact else f"at least {solutions} ({self.stopped_by})"


@dataclass
class Tally:
    """Solutions counted one at a time (``add``): how many, and the cells in which any
    differs from the first."""

    count: int = 0
    first: Grid | None = None
    differing: set[Cell] = field(default_factory=set)

    @classmethod
    def of(cls, grids: Iterable[Grid]) -> Tally:
        tally = cls()
        for grid in grids:
            tally.add(grid)
        return tally

    def add(self, grid: Grid) -> None:
        if self.first is None:
            self.first = grid
        else:
            self.differing |= ambiguous_cells((self.first, grid))
        self.count += 1

    def total(self, exact: bool, stopped_by: Stop | None, seconds: float = 0.0) -> Count:
        return Count(self.count, exact, stopped_by, seconds, frozenset(self.differing))


def checked(puzzle: Puzzle, grid: Grid) -> Grid:
    """``grid``, once ``satisfies`` has recomputed the clues from its cells: no solver's
    grid is answered unchecked."""
    if not satisfies(puzzle, grid):
        raise SolverBug("the solver returned a grid that does not satisfy the clues")
    return grid


Searched = Grid | Literal[False] | None
"""What one search for a solution ends with: a checked solution, False when proven there
is none, None when stopped (by the deadline or a ``Halt``)."""


class Halt:
    """Stops, from another thread, the solves one thread runs: the current one and every
    later one. Each solve registers how it is stopped (``admit``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._halted = False
        self._stop: Callable[[], None] | None = None

    def admit(self, stop: Callable[[], None]) -> bool:
        """Register ``stop`` as what stops the solve now starting; False when halted
        already, and the solve must not start."""
        with self._lock:
            self._stop = stop
            return not self._halted

    @property
    def halted(self) -> bool:
        """Whether ``halt`` was called: a solve that ends abnormally was stopped, then."""
        return self._halted

    def halt(self) -> None:
        """Stop the running solve. A solve that is only starting may miss it, so callers
        repeat this until the solving thread has ended."""
        with self._lock:
            self._halted = True
            stop = self._stop
        if stop is not None:
            stop()


Ending = tuple[bool, Stop | None]
"""How an enumeration ended: whether it was exhaustive, and if not what stopped it."""

Enumerating = Generator[Grid, None, Ending]
"""Distinct, checked grids, then how the enumeration ended."""


def one_by_one(
    search: Callable[[], Searched], exclude: Callable[[Grid], None], limit: int | None
) -> Enumerating:
    """Solutions one ``search`` at a time, each excluded before the next, up to ``limit``:
    how a solver with no enumeration of its own enumerates (Glucose, the MIP)."""
    found = 0
    while limit is None or found < limit:
        grid = search()
        if grid is None:
            return False, Stop.TIME_LIMIT
        if grid is False:
            return True, None
        yield grid
        found += 1
        exclude(grid)
    return False, Stop.LIMIT
