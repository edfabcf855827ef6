"""The plain CP-SAT model nonocp is measured against.

One Boolean per cell, one ``add_automaton`` per row and column, default parameters and
one worker; uniqueness by a second solve with a clause over every cell. This is the
design the project started from, kept deliberately naive: the ratio to it is what the
speed work bought.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from nonocp.automaton import compile_clue
from nonocp.puzzle import Grid, Puzzle, columns_of, satisfies


def _model(puzzle: Puzzle) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    model = cp_model.CpModel()
    cells = [[model.new_bool_var("") for _ in range(puzzle.width)] for _ in range(puzzle.height)]
    for clue, line in [
        *zip(puzzle.rows, cells, strict=True),
        *zip(puzzle.columns, columns_of(cells), strict=True),
    ]:
        dfa = compile_clue(clue)
        model.add_automaton(line, dfa.start, sorted(dfa.accepting), dfa.transitions)
    return model, cells


def _solver(deadline: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 1e-3)
    return solver


def _grid(solver: cp_model.CpSolver, cells: list[list[cp_model.IntVar]]) -> Grid:
    return tuple(tuple(int(solver.boolean_value(v)) for v in row) for row in cells)


def run(puzzle: Puzzle, mode: str, time_limit: float) -> tuple[str, Grid | None]:
    """The verdict the plain model reaches in ``mode`` (validate, first or count)."""
    deadline = time.perf_counter() + time_limit
    model, cells = _model(puzzle)
    if mode == "count":
        return _count(model, cells, puzzle, deadline), None
    solver = _solver(deadline)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return "none", None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown", None
    first = _grid(solver, cells)
    assert satisfies(puzzle, first)
    if mode == "first":
        return "solved", first
    model.add_bool_or(
        [
            v.Not() if value else v
            for row, line in zip(cells, first, strict=True)
            for v, value in zip(row, line, strict=True)
        ]
    )
    second = _solver(deadline).solve(model)
    found = (cp_model.OPTIMAL, cp_model.FEASIBLE)
    verdict = (
        "unique" if second == cp_model.INFEASIBLE else "multiple" if second in found else "unknown"
    )
    return verdict, first


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, cells: list[list[cp_model.IntVar]]) -> None:
        super().__init__()
        self.cells = cells
        self.seen: set[Grid] = set()

    def on_solution_callback(self) -> None:
        self.seen.add(tuple(tuple(int(self.boolean_value(v)) for v in r) for r in self.cells))


def _count(
    model: cp_model.CpModel, cells: list[list[cp_model.IntVar]], puzzle: Puzzle, deadline: float
) -> str:
    solver = _solver(deadline)
    solver.parameters.enumerate_all_solutions = True
    counter = _Counter(cells)
    status = solver.solve(model, counter)
    exact = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return f"{len(counter.seen)}" if exact else f">={len(counter.seen)}"
