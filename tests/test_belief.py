"""Belief propagation: each line's messages against brute-force counting, and the beliefs
on a real puzzle, where they are the picture.

A line's message is exact by construction (it counts every arrangement), so it is
checked against enumerating the arrangements; the loopy rounds between lines are not
exact, so they are checked by what they are for: taking the search to a solution.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp import load, satisfies
from nonocp.logic import kernel
from nonocp.logic.belief import ROUNDS, _line, messages, refine
from nonocp.logic.search import search
from nonocp.puzzle import Puzzle, runs

from bruteforce import lines_with_runs
from conftest import PUZZLES

VALUE = {None: kernel.UNKNOWN, 1: kernel.FILLED, 0: kernel.EMPTY}


def weighted_share(
    clue: tuple[int, ...], known: list[int | None], chances: list[float], cell: int
) -> float | None:
    """How likely ``cell`` is filled, over the arrangements agreeing with ``known``, each
    weighted by ``chances`` on every other cell; None when no arrangement agrees."""
    filled = total = 0.0
    for line in lines_with_runs(clue, len(known)):
        if any(k is not None and k != v for k, v in zip(known, line, strict=True)):
            continue
        weight = 1.0
        for other, value in enumerate(line):
            if other != cell:
                weight *= chances[other] if value else 1.0 - chances[other]
        total += weight
        filled += weight * line[cell]
    return filled / total if total else None


Line = tuple[tuple[int, ...], list[int | None], list[float]]


@st.composite
def lines(draw: st.DrawFn) -> Line:
    """A clue from a random line, some of that line's cells known, and random chances."""
    picture = draw(st.lists(st.integers(0, 1), min_size=1, max_size=9))
    known = [draw(st.sampled_from([None, None, value])) for value in picture]
    chances = draw(st.lists(st.floats(0.05, 0.95), min_size=len(picture), max_size=len(picture)))
    return runs(tuple(picture)), known, chances


def line_message(
    clue: tuple[int, ...], known: list[int | None], chances: list[float]
) -> list[float]:
    n, states = len(known), 2 + sum(size + 1 for size in clue)  # with a sentinel state
    out = np.zeros(n)
    _line(
        np.array([VALUE[k] for k in known], np.int8),
        np.array(chances),
        np.array(clue, np.int64),
        out,
        np.zeros(states),
        np.full((n + 1, states), 7.0),  # left over from another line: only live states count
        np.full((n + 1, states), 7.0),
        np.zeros((n + 1, 2), np.int64),
        np.full((n + 1, 2), 7.0),
    )
    return out.tolist()


@settings(max_examples=300, deadline=None)
@given(lines())
def test_a_line_message_is_its_weighted_count_of_arrangements(line: Line) -> None:
    clue, known, chances = line
    message = line_message(clue, known, chances)
    for cell in (c for c, value in enumerate(known) if value is None):
        expected = weighted_share(clue, known, chances, cell)
        assert expected is not None  # the picture the clue came from agrees with `known`
        assert message[cell] == pytest.approx(min(max(expected, 1e-4), 1 - 1e-4), abs=1e-9)


def beliefs_from_nothing(grid: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """How likely each cell is filled, from messages that start knowing nothing."""
    arrays = kernel.arrays(puzzle)
    return refine(grid, arrays, messages(grid, arrays), ROUNDS)


def test_beliefs_are_certain_exactly_where_cells_are_known() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    found = search(puzzle, probes=0)
    grid = kernel.cells_of(puzzle, found.known)
    chances = beliefs_from_nothing(grid, puzzle)
    open_cells = grid == kernel.UNKNOWN
    assert open_cells.any()
    assert np.all((chances[open_cells] > 0) & (chances[open_cells] < 1))
    assert np.array_equal(chances[~open_cells], (grid[~open_cells] == kernel.FILLED) * 1.0)


def test_on_knotty_the_likelier_values_are_a_solution() -> None:
    """Knotty (40x40), which no solver of Wolter's survey finished: line logic and probing
    fix 79 of its 1,600 cells, and belief propagation guesses every other one right."""
    puzzle = load(PUZZLES / "webpbn" / "knotty.nin")
    found = search(puzzle, probes=0)
    grid = kernel.cells_of(puzzle, found.known)
    assert np.count_nonzero(grid == kernel.UNKNOWN) == 1521
    chances = beliefs_from_nothing(grid, puzzle)
    guess = (chances > 0.5).astype(int).reshape(puzzle.height, puzzle.width)
    assert satisfies(puzzle, tuple(map(tuple, guess.tolist())))
