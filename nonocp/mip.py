"""The block-start formulation as a mixed-integer program, solved by SCIP.

This is the classic integer-programming model of a nonogram, built from the same
placements as the CP-SAT block-start model (``nonocp.blocks``) through OR-tools' own
linear-solver wrapper, so it needs nothing beyond OR-tools. It has no objective: any
feasible point is a solution. Uniqueness and counting add, after each solution, the
linear cut "at least one free cell differs from it" and solve again, so a count costs
one MIP per solution; it is meant for small counts and as an independent cross-check.

Logic runs first, as in the CP-SAT engine, and the MIP only sees the cells it left open.
Results use the engine's ``Result`` and ``Count`` with the same honesty: a search the time
limit stops proves nothing, and every grid passes ``satisfies`` first.

SCIP runs with its default settings, LP relaxation included, so this stays a genuine MIP.
(With the LP turned off, ``lp/solvefreq = -1``, SCIP searches like a CP solver: without
logic that was about 5 times faster on the Gecode puzzles difficult and p200 but slower on
castle, as the relaxation of this zero-objective problem is degenerate and rarely prunes.)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ortools.linear_solver import pywraplp

from nonocp import engine
from nonocp.answers import (
    Count,
    Enumerating,
    Halt,
    Result,
    Searched,
    SolverBug,
    Status,
    Stop,
    Uniqueness,
    checked,
    one_by_one,
)
from nonocp.blocks import Placements, placements
from nonocp.clock import OutOfTime, in_time, interruptible, seconds_left
from nonocp.errors import NonocpError
from nonocp.logic.board import open_cells
from nonocp.puzzle import Grid, Known, Puzzle, columns_of

SOLVED = (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE)
NO_CTRL_C = "misc/catchctrlc = FALSE"
"""SCIP's own Ctrl-C handler, on by default, took the signal from Python for the whole
solve, printed "pressed CTRL-C 1 times" and carried on: on Knotty nonocp still ran 27 s
after Ctrl-C, to its time limit. Off, Ctrl-C reaches Python, which halts the solve."""


@dataclass
class Mip:
    """A SCIP model of a puzzle: its cell variables (fixed where known) and its free cells."""

    solver: pywraplp.Solver
    cells: list[list[pywraplp.Variable]]
    free: list[tuple[int, int]]

    def grid(self) -> Grid:
        return tuple(tuple(round(x.solution_value()) for x in row) for row in self.cells)

    def forbid(self, grid: Grid) -> None:
        """Exclude ``grid``: the free cells differ from it in at least one place.

        Summing ``x`` where the grid is empty and ``1 - x`` where it is filled counts the
        differing cells, so the cut reads ``sum >= 1`` with the constants moved right.
        """
        filled = sum(grid[r][c] for r, c in self.free)
        cut = self.solver.RowConstraint(1 - filled, self.solver.infinity())
        for r, c in self.free:
            cut.SetCoefficient(self.cells[r][c], -1 if grid[r][c] else 1)

    def search(self, puzzle: Puzzle, deadline: float | None, halt: Halt) -> Searched:
        """A checked solution, False when proven there is none, None when time ran out or
        ``halt`` stopped the solve (SCIP then ends abnormally)."""
        left = seconds_left(deadline)
        if left == 0 or not halt.admit(self.solver.InterruptSolve):
            return None
        if left is not None:
            self.solver.SetTimeLimit(max(1, int(left * 1000)))
        status = self.solver.Solve()
        if status in SOLVED:
            return checked(puzzle, self.grid())
        if status == pywraplp.Solver.INFEASIBLE:
            return False
        if status == pywraplp.Solver.NOT_SOLVED or halt.halted:
            return None
        raise SolverBug(f"SCIP stopped abnormally (MPSolver status {status})")


def build(puzzle: Puzzle, known: Known | None = None, deadline: float | None = None) -> Mip:
    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:
        raise NonocpError("this OR-tools build has no SCIP solver; use --engine cpsat")
    solver.SetSolverSpecificParametersAsString(NO_CTRL_C)
    cells = [
        [
            solver.IntVar(0, 1, f"x{r}_{c}")
            if known is None or known[r][c] is None
            else solver.IntVar(known[r][c], known[r][c], f"x{r}_{c}")
            for c in range(puzzle.width)
        ]
        for r in in_time(range(puzzle.height), deadline)
    ]
    free = open_cells(known, puzzle.height, puzzle.width)
    lines = zip([*cells, *columns_of(cells)], placements(puzzle, known), strict=True)
    for number, (line, placed) in enumerate(in_time(lines, deadline)):
        _add_line(solver, line, placed, f"l{number}")
    return Mip(solver, cells, free)


def _add_line(
    solver: pywraplp.Solver,
    line: Sequence[pywraplp.Variable],
    placed: Placements,
    name: str,
) -> None:
    """The line's constraints, written coefficient by coefficient so that an empty sum (a
    block with no feasible start) is still a constraint, an infeasible one."""
    start = {
        (block, cell): solver.BoolVar(f"{name}b{block}s{cell}")
        for group in placed.blocks()
        for block, cell in group
    }
    for group in placed.blocks():
        row = solver.RowConstraint(1, 1)
        for s in group:
            row.SetCoefficient(start[s], 1)
    for cell, covering in zip(line, placed.coverage(), strict=True):
        row = solver.RowConstraint(0, 0)
        row.SetCoefficient(cell, 1)
        for s in covering:
            row.SetCoefficient(start[s], -1)
    for clique in placed.conflicts():
        row = solver.RowConstraint(0, 1)
        for s in clique:
            row.SetCoefficient(start[s], 1)


class Enumeration(engine.Enumeration):
    """Distinct solutions, one MIP each: every solution found is cut off before the next.

    Logic goes first, as in the CP-SAT engine: the MIP is built with the cells it fixed,
    and is not built at all when logic settles the puzzle.
    """

    probes = 0

    def _the_rest(
        self, known: Known | None, deadline: float | None, earlier: tuple[Grid, ...]
    ) -> Enumerating:
        """One MIP per solution, each cutting off the ones found before it, each solved in
        a thread of its own (``clock.interruptible``) so that Ctrl-C stops it at once."""
        try:
            mip = build(self.puzzle, known, deadline)
        except OutOfTime:
            return False, Stop.TIME_LIMIT
        for solution in earlier:
            mip.forbid(solution)
        limit = engine.left_to_find(self.limit, earlier)
        halt = Halt()
        search = partial(interruptible, partial(mip.search, self.puzzle, deadline, halt), halt.halt)
        return (yield from one_by_one(search, mip.forbid, limit))


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    logic: bool = True,
) -> Enumeration:
    """Iterate over the distinct solutions (all of them, or up to ``limit``)."""
    return Enumeration(puzzle, limit=limit, time_limit=time_limit, logic=logic)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    logic: bool = True,
) -> Count:
    return engine.count_all(solutions(puzzle, limit, time_limit, logic))


def solve(
    puzzle: Puzzle,
    time_limit: float | None = None,
    logic: bool = True,
    prove_unique: bool = True,
) -> Result:
    """A solution and, unless ``prove_unique`` is False, whether it is the only one: the
    enumeration of at most two solutions (of one when uniqueness is not asked for, unless
    logic settles it anyway)."""
    started = time.perf_counter()
    enumeration = solutions(puzzle, 2 if prove_unique else 1, time_limit, logic)
    grids = list(enumeration)
    seconds = time.perf_counter() - started
    if len(grids) == 2:
        return Result(Status.SOLVED, Uniqueness.MULTIPLE, grids[0], grids[1], seconds=seconds)
    if grids:
        if enumeration.exact:
            proven = Uniqueness.UNIQUE
        else:
            proven = Uniqueness.UNKNOWN if prove_unique else Uniqueness.UNCHECKED
        return Result(Status.SOLVED, proven, grids[0], seconds=seconds)
    if enumeration.exact:
        return Result(Status.NONE, Uniqueness.NONE, seconds=seconds)
    return Result(Status.UNKNOWN, Uniqueness.UNKNOWN, seconds=seconds)
