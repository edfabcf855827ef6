"""The SAT formula against brute force: a wrong clause would lose solutions or invent them,
and the race would then report a wrong verdict."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Glucose4

from nonocp import load, sat
from nonocp.answers import Halt, one_by_one
from nonocp.generate import random_puzzle
from nonocp.puzzle import Grid, Known, Puzzle
from nonocp.sat import Solving

from bruteforce import all_solutions
from conftest import PUZZLES, drained, mixed_puzzles, puzzle_of, random_grids


def every_solution(puzzle: Puzzle, known: Known | None) -> set[Grid]:
    """What the formula admits, one solution at a time, each excluded before the next."""
    solving = Solving(puzzle, known, None, Halt())
    grids, ending = drained(one_by_one(solving.search, solving.exclude, None))
    assert ending == (True, None) and len(grids) == len(set(grids))
    return set(grids)


def agreeing(grids: set[Grid], known: Known) -> set[Grid]:
    return {
        g
        for g in grids
        if all(v is None or v == g[r][c] for r, row in enumerate(known) for c, v in enumerate(row))
    }


@settings(max_examples=300, deadline=None)
@given(st.one_of(random_grids(max_side=5).map(puzzle_of), mixed_puzzles()))
def test_the_formula_has_exactly_the_solutions(puzzle: Puzzle) -> None:
    assert every_solution(puzzle, None) == all_solutions(puzzle)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_known_cells_keep_exactly_the_solutions_that_agree(data: st.DataObject) -> None:
    """Known cells fix variables and narrow the placements; cells that contradict the
    clues leave no solution."""
    puzzle = puzzle_of(data.draw(random_grids(max_side=5)))
    cells = st.sampled_from([None, None, 0, 1])
    known = [[data.draw(cells) for _ in range(puzzle.width)] for _ in range(puzzle.height)]
    assert every_solution(puzzle, known) == agreeing(all_solutions(puzzle), known)


def test_a_filled_cell_places_the_next_block_by_unit_propagation() -> None:
    """A filled cell past one block's end makes the next block start at or before it, by
    unit propagation alone (the module's cover and gap clauses): from two filled cells it
    settles this whole grid, where the encoding before (a variable for each block that
    might cover each cell) settled four cells beyond the empty columns."""
    empty, one = (), (1,)
    columns = (one, one, one, one, empty, one, one, one, one, empty, one, empty)
    puzzle = Puzzle(rows=((2, 1, 1, 1), (2, 1, 1)), columns=columns)
    f = sat.formula(puzzle, None)
    cells = puzzle.width * puzzle.height
    filled = [sat.literal(puzzle.width, 0, 3, 1), sat.literal(puzzle.width, 1, 7, 1)]
    consistent, implied = Glucose4(bootstrap_with=f.clauses).propagate(assumptions=filled)
    units = {clause[0] for clause in f.clauses if len(clause) == 1}
    settled = {v for v in {*implied, *units} if abs(v) <= cells}
    (solution,) = [g for g in all_solutions(puzzle) if g[0][3] == g[1][7] == 1]
    width = puzzle.width
    assert consistent
    assert settled == {
        sat.literal(width, r, c, value)
        for r, row in enumerate(solution)
        for c, value in enumerate(row)
    }


def test_a_halted_or_late_solve_gives_no_answer() -> None:
    puzzle = load(PUZZLES / "difficult.txt")
    halt = Halt()
    halt.halt()
    assert Solving(puzzle, None, None, halt).search() is None
    assert Solving(puzzle, None, time.perf_counter() - 1, Halt()).search() is None


def test_a_halt_while_building_gives_up_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Halted after the first line, the solve neither finishes the formula nor starts
    Glucose; an exclusion made before the build still counts once it is built."""
    puzzle = load(PUZZLES / "nonunique.txt")
    halt = Halt()
    lines_added = sat._lines_added
    built: list[int] = []

    def halted_after_one(f: sat.Formula, puzzle: Puzzle, known: Known | None) -> Iterator[None]:
        for step in lines_added(f, puzzle, known):
            built.append(1)
            halt.halt()
            yield step

    monkeypatch.setattr(sat, "_lines_added", halted_after_one)
    solving = Solving(puzzle, None, None, halt)
    assert solving.search() is None
    assert solving.solver is None and len(built) == 1
    monkeypatch.setattr(sat, "_lines_added", lines_added)
    first = Solving(puzzle, None, None, Halt()).search()
    assert isinstance(first, tuple)
    again = Solving(puzzle, None, None, Halt())
    again.exclude(first)
    assert again.search() not in (first, None, False)


def test_a_halt_stops_a_running_solve() -> None:
    """A solve with far more work than time returns soon after another thread halts it."""
    puzzle = random_puzzle(100, 100, 0.5, seed=22)
    halt = Halt()
    solving = Solving(puzzle, None, time.perf_counter() + 120, halt)
    threading.Timer(0.5, halt.halt).start()
    started = time.perf_counter()
    assert solving.search() is None
    assert time.perf_counter() - started < 30
