"""Decimation and the search near a solution: neither proves anything, so what each returns
is checked against brute force, and on the puzzles they are for they must find it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp import answers, engine, load, satisfies
from nonocp.answers import Status, Uniqueness
from nonocp.logic import search as searching
from nonocp.logic.decimation import decimate
from nonocp.logic.search import Stopper, other_nearby
from nonocp.puzzle import Puzzle

from bruteforce import all_solutions
from conftest import PUZZLES, Picture, mixed_puzzles, puzzle_of, random_grids


@st.composite
def pictures_with_known_cells(draw: st.DrawFn) -> tuple[Picture, list[list[int | None]]]:
    """A random picture and some of its cells, as known cells of its puzzle."""
    picture = draw(random_grids(max_side=6))
    width = len(picture[0])
    cells = len(picture) * width
    shown = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    known = [
        [value if shown[r * width + c] else None for c, value in enumerate(row)]
        for r, row in enumerate(picture)
    ]
    return picture, known


@settings(max_examples=300, deadline=None)
@given(mixed_puzzles())
def test_decimation_returns_only_solutions(puzzle: Puzzle) -> None:
    """Including on puzzles with none, where it must give up rather than cycle."""
    grid = decimate(puzzle, None)
    assert grid is None or grid in all_solutions(puzzle)


@settings(max_examples=200, deadline=None)
@given(pictures_with_known_cells())
def test_decimation_keeps_the_known_cells(case: tuple[Picture, list[list[int | None]]]) -> None:
    picture, known = case
    puzzle = puzzle_of(picture)
    grid = decimate(puzzle, known)
    assert grid is None or grid in all_solutions(puzzle)
    for row, values in enumerate(known):
        for column, value in enumerate(values):
            assert grid is None or value is None or grid[row][column] == value


@pytest.mark.parametrize("name", ["webpbn/knotty.nin", "webpbn/webpbn-36459-moss.non", "p200.txt"])
def test_decimation_solves_picture_puzzles_from_nothing(name: str) -> None:
    puzzle = load(PUZZLES / name)
    grid = decimate(puzzle, None)
    assert grid is not None and satisfies(puzzle, grid)


def test_a_stopped_decimation_returns_nothing() -> None:
    puzzle = load(PUZZLES / "webpbn" / "knotty.nin")
    stopper = Stopper()
    stopper.stop()
    assert decimate(puzzle, None, stopper=stopper) is None
    assert stopper.counters[0] == 0


@settings(max_examples=200, deadline=None)
@given(random_grids(max_side=6), st.integers(1, 4))
def test_another_solution_nearby_is_another_solution(grid: Picture, window: int) -> None:
    """A window holds another solution only where one exists, and with windows that
    cover the whole puzzle every other solution is within reach."""
    puzzle = puzzle_of(grid)
    expected = all_solutions(puzzle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(searching, "WINDOW", window)
        other = other_nearby(puzzle, None, grid)
        patch.setattr(searching, "WINDOW", 6)
        anywhere = other_nearby(puzzle, None, grid)
    assert other is None or (other != grid and other in expected)
    assert (anywhere is None) == (len(expected) == 1)


def test_another_solution_lies_near_knottys_first() -> None:
    puzzle = load(PUZZLES / "webpbn" / "knotty.nin")
    first = decimate(puzzle, None)
    assert first is not None
    other = other_nearby(puzzle, None, first)
    assert other is not None and other != first and satisfies(puzzle, other)
    differing = np.argwhere(np.array(first) != np.array(other))
    spread = differing.max(axis=0) - differing.min(axis=0)
    assert (spread < searching.WINDOW).all()


@pytest.mark.parametrize("halted", [False, True], ids=["running", "halted"])
def test_the_decimating_side_gives_two_solutions_or_none(halted: bool) -> None:
    puzzle = load(PUZZLES / "webpbn" / "knotty.nin")
    unknown = [[None] * puzzle.width for _ in puzzle.rows]
    left = engine.Left(puzzle, unknown, None, None, None, True)
    halt = answers.Halt()
    if halted:
        halt.halt()
    status, uniqueness, grids = engine._by_clause_learning(left, halt, decimating=True)
    if halted:
        assert (status, uniqueness, grids) == (Status.UNKNOWN, Uniqueness.UNKNOWN, ())
        return
    assert (status, uniqueness) == (Status.SOLVED, Uniqueness.MULTIPLE)
    first, second = grids
    assert first != second and satisfies(puzzle, first) and satisfies(puzzle, second)
