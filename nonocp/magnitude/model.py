"""The CP-SAT model for the few instances the constructions do not settle.

One Boolean per cell; a line's runs are counted by start literals (a cell filled whose
predecessor is empty), linked to the cells by linear inequalities so that the LP relaxation
sees them. A plain automaton per line would be correct too, but gives the relaxation
nothing to bound the cell count with.

The solver first decides whether the bound is reachable. Reaching it forces a shape (see
``construct``), and stating that shape as constraints turns a search that can take seconds
into one of a few tens of milliseconds. Only if that fails does the solver optimise over
the general model, with the bound excluded once it is proven unreachable.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING

from nonocp.clock import OutOfTime, in_time, interruptible, seconds_left, sooner
from nonocp.magnitude.bounds import Magnitudes, Sense, gaps
from nonocp.models.ortools_cp import cp_model
from nonocp.puzzle import Grid, columns_of

if TYPE_CHECKING:
    from ortools.sat.python.cp_model_helper import Literal

QUICK_SECONDS = 0.25
"""How long the search at the bound runs without presolve and LP (10 ms is typical)."""
Cells = list[list[cp_model.IntVar]]


@dataclass(frozen=True)
class Outcome:
    """What the solver established: a grid or none, and whether that is proven.

    ``proven`` with a grid means optimal; ``proven`` without one means no grid exists.
    """

    grid: Grid | None
    proven: bool


def solve(
    rows: Magnitudes, columns: Magnitudes, sense: Sense, bound: int, deadline: float | None
) -> Outcome:
    """Try the bound first, then optimise in what time is left, beyond the bound if it was
    proven out of reach. Building the models counts against the ``deadline``: a 300x300
    instance's takes seconds."""
    try:
        status, grid = _at_bound(rows, columns, sense, bound, deadline)
        if grid is not None:
            return Outcome(grid, proven=True)
        return _optimise(rows, columns, sense, bound, status == cp_model.INFEASIBLE, deadline)
    except OutOfTime:
        return Outcome(None, proven=False)


def _at_bound(
    rows: Magnitudes, columns: Magnitudes, sense: Sense, bound: int, deadline: float | None
) -> tuple[cp_model.CpSolverStatus, Grid | None]:
    """Search for a grid at the bound, with its shape stated, in at most half the time left
    once the model is built: first briefly without presolve and LP relaxation, then, if that
    settles nothing, with them.

    A grid at the bound, when there is one, is found in about 10 ms without them instead
    of about 50 ms with them; but proving there is none can take minutes without the
    relaxation and seconds with it.
    """
    model, cells = _model(rows, columns, deadline)
    _add_shape(model, cells, rows, columns, sense)
    model.add(sum(v for row in cells for v in row) == bound)
    left = seconds_left(deadline)
    halfway = None if left is None else time.perf_counter() + left / 2
    quick = _solver(sooner(halfway, QUICK_SECONDS))
    quick.parameters.cp_model_presolve = False
    quick.parameters.linearization_level = 0
    status = _solved(quick, model)
    solver = quick
    if status == cp_model.UNKNOWN and seconds_left(halfway) != 0:
        solver = _solver(halfway)
        status = _solved(solver, model)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return status, _grid(solver, cells) if found else None


def _optimise(
    rows: Magnitudes,
    columns: Magnitudes,
    sense: Sense,
    bound: int,
    beyond: bool,
    deadline: float | None,
) -> Outcome:
    """The general model with the objective, the bound excluded if ``beyond``."""
    model, cells = _model(rows, columns, deadline)
    total = sum(v for row in cells for v in row)
    if sense is Sense.MIN:
        model.add(total >= bound + beyond)
        model.minimize(total)
    else:
        model.add(total <= bound - beyond)
        model.maximize(total)
    solver = _solver(deadline)
    status = _solved(solver, model)
    if status == cp_model.INFEASIBLE:  # all that was cut off is proven empty: no grid exists
        return Outcome(None, proven=True)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(_grid(solver, cells), proven=status == cp_model.OPTIMAL)
    return Outcome(None, proven=False)


def _model(
    rows: Magnitudes, columns: Magnitudes, deadline: float | None
) -> tuple[cp_model.CpModel, Cells]:
    model = cp_model.CpModel()
    cells = [[model.new_bool_var("") for _ in columns] for _ in rows]
    lines = [*zip(cells, rows, strict=True), *zip(columns_of(cells), columns, strict=True)]
    for line, k in in_time(lines, deadline):
        _runs(model, line, k)
    return model, cells


def _runs(model: cp_model.CpModel, line: Sequence[cp_model.IntVar], k: int) -> None:
    """Exactly ``k`` runs, plus the cell counts that follow: a cell per run, and an empty
    cell away from the line's ends per gap (summed over lines, these give the relaxation
    the bounds of ``bounds``)."""
    starts = [line[0]]
    for before, cell in pairwise(line):
        start = model.new_bool_var("")
        model.add(start >= cell - before)
        model.add(start <= cell)
        model.add(start <= 1 - before)
        starts.append(start)
    model.add(sum(starts) == k)
    model.add(sum(line) >= k)
    model.add(sum(line[1:-1]) <= len(line[1:-1]) - gaps(k))
    if k == 0:
        model.add(sum(line) == 0)


def _add_shape(
    model: cp_model.CpModel, cells: Cells, rows: Magnitudes, columns: Magnitudes, sense: Sense
) -> None:
    """Constraints every grid meeting the bound satisfies, stated so the solver need not
    discover them (why they hold: ``bounds`` and ``construct``)."""
    if sense is Sense.MIN:
        _fewest_shape(model, cells, rows, columns)
    elif len(rows) >= 3 and len(columns) >= 3 and 0 not in rows and 0 not in columns:
        _most_shape(model, cells, rows, columns)


def _fewest_shape(
    model: cp_model.CpModel, cells: Cells, rows: Magnitudes, columns: Magnitudes
) -> None:
    """At the bound, the side with more runs has lone cells only, one per run."""
    if sum(rows) >= sum(columns):
        for row, k in zip(cells, rows, strict=True):
            _lone(model, row, k)
    if sum(columns) >= sum(rows):
        for column, k in zip(columns_of(cells), columns, strict=True):
            _lone(model, column, k)


def _most_shape(
    model: cp_model.CpModel, cells: Cells, rows: Magnitudes, columns: Magnitudes
) -> None:
    """At the bound: filled corners, each border line's gaps as lone empty cells, and the
    inner gaps of the side with more of them as lone empty cells too."""
    empty = [[v.Not() for v in row] for row in cells]
    by_column = columns_of(empty)
    height, width = len(rows), len(columns)
    for i in (0, height - 1):
        for j in (0, width - 1):
            model.add(cells[i][j] == 1)
    inner_rows = sum(gaps(k) for k in rows[1:-1])
    inner_columns = sum(gaps(k) for k in columns[1:-1])
    for i, k in enumerate(rows):
        if i in (0, height - 1) or inner_rows >= inner_columns:
            _lone(model, empty[i][1:-1], gaps(k))
    for j, k in enumerate(columns):
        if j in (0, width - 1) or inner_columns >= inner_rows:
            _lone(model, by_column[j][1:-1], gaps(k))


def _lone(model: cp_model.CpModel, literals: Sequence[Literal], count: int) -> None:
    """Exactly ``count`` of the literals true, no two of them consecutive."""
    model.add(sum(literals) == count)
    for a, b in pairwise(literals):
        model.add_bool_or([a.Not(), b.Not()])


def _solver(deadline: float | None) -> cp_model.CpSolver:
    """One worker (the batch runs one process per core). CP-SAT is kept from handling
    Ctrl-C itself: its handler replaces the batch workers' "ignore" and, once restored,
    leaves the next Ctrl-C to kill the worker outright, which breaks the process pool."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    left = seconds_left(deadline)
    if left is not None:
        solver.parameters.max_time_in_seconds = max(left, 1e-3)
    return solver


def _solved(solver: cp_model.CpSolver, model: cp_model.CpModel) -> cp_model.CpSolverStatus:
    """The search's status, Ctrl-C stopping it at once (see ``clock.interruptible``)."""
    return interruptible(partial(solver.solve, model), solver.stop_search)


def _grid(solver: cp_model.CpSolver, cells: Cells) -> Grid:
    return tuple(tuple(int(solver.boolean_value(v)) for v in row) for row in cells)
