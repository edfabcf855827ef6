"""Logic against brute force: the line solver, propagation, probing and the engine front end.

A wrong deduction would silently remove solutions, so every claim logic makes is checked
against enumeration: forced cells of a line against all its arrangements, fixed cells of
a puzzle against all its solutions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import cache
from itertools import product
from types import SimpleNamespace

import naive_logic as naive
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nonocp import count, load, solve
from nonocp.answers import Status, Uniqueness
from nonocp.clock import OutOfTime
from nonocp.engine import solve_from
from nonocp.errors import PuzzleError
from nonocp.logic import Rating, board, deduce, kernel, solve_line
from nonocp.logic.board import Board, set_bits
from nonocp.puzzle import Clue, Puzzle, runs

from bruteforce import all_solutions
from conftest import PUZZLES

Partial = tuple[int | None, ...]
Solver = Callable[[Clue, Partial], Partial | None]


@cache
def arrangements(length: int) -> dict[Clue, list[int]]:
    """Every line of ``length`` cells as a bit mask, grouped by its clue."""
    by_clue: dict[Clue, list[int]] = {}
    for mask in range(1 << length):
        by_clue.setdefault(runs(mask >> i & 1 for i in range(length)), []).append(mask)
    return by_clue


def masks(known: Partial) -> tuple[int, int]:
    """The filled and the empty cells of ``known`` as bit masks."""
    filled = sum(1 << i for i, v in enumerate(known) if v == 1)
    empty = sum(1 << i for i, v in enumerate(known) if v == 0)
    return filled, empty


def forced_by_enumeration(c: Clue, known: Partial) -> Partial | None:
    """The cells on which every arrangement agreeing with ``known`` agrees."""
    n = len(known)
    filled, empty = masks(known)
    lines = arrangements(n).get(c, [])
    matching = [line for line in lines if line & filled == filled and not line & empty]
    if not matching:
        return None
    every, some = (1 << n) - 1, 0
    for line in matching:
        every &= line
        some |= line
    return tuple(1 if every >> i & 1 else 0 if not some >> i & 1 else None for i in range(n))


def forced_by_solver(c: Clue, known: Partial) -> Partial | None:
    filled, empty = masks(known)
    solved = solve_line(c, len(known), filled, empty)
    if solved is None:
        return None
    now_filled, now_empty = solved
    assert now_filled & filled == filled and now_empty & empty == empty
    assert not now_filled & now_empty
    return tuple(
        1 if now_filled >> i & 1 else 0 if now_empty >> i & 1 else None for i in range(len(known))
    )


def compiled(solve_line: Callable[..., int]) -> Solver:
    """One of the compiled search's line solvers, on a puzzle of one row. Each clue's
    puzzle keeps its work arrays from one call to the next, as a search's puzzle does from
    one line to the next."""

    @cache
    def one_row(c: Clue, length: int) -> tuple[Puzzle, kernel.Arrays, kernel.Work]:
        puzzle = Puzzle(rows=(c,), columns=((),) * length)
        arrays = kernel.arrays(puzzle)
        return puzzle, arrays, kernel.workspace(1, length, arrays[3])

    def forced(c: Clue, known: Partial) -> Partial | None:
        puzzle, arrays, work = one_row(c, len(known))
        grid = kernel.cells_of(puzzle, [list(known)])
        if solve_line(grid, arrays, work, 0) < 0:
            return None
        return tuple(kernel._known(grid, len(known))[0])

    forced.__name__ = solve_line.__name__
    return forced


LINE_SOLVERS = [
    forced_by_solver,
    compiled(kernel._by_words),
    compiled(kernel._by_word_pairs),
    compiled(kernel._by_word_rows),
]


@pytest.mark.parametrize("forced", LINE_SOLVERS)
@pytest.mark.parametrize("length", range(1, 9))
def test_line_solver_on_every_clue_and_partial_line(forced: Solver, length: int) -> None:
    """Exhaustive: each of the 3**length partial lines, for every clue that fits the line,
    plus a clue that does not fit (one block too long)."""
    clues = [*arrangements(length), (length + 1,)]
    for c in clues:
        for known in product((None, 0, 1), repeat=length):
            assert forced(c, known) == forced_by_enumeration(c, known), (c, known)


@pytest.mark.parametrize("forced", LINE_SOLVERS)
@pytest.mark.parametrize("length", range(9, 13))
def test_line_solver_on_random_lines(forced: Solver, length: int) -> None:
    """Sampled: partial lines made from a random line (consistent with its own clue) and
    from independent random cells (often contradictory)."""
    rng = random.Random(length)
    for _ in range(1500):
        line = [int(rng.random() < rng.random()) for _ in range(length)]
        c = runs(line)
        kept = rng.random()
        known = tuple(v if rng.random() < kept else None for v in line)
        noise = tuple(rng.choice((None, None, 0, 1)) for _ in range(length))
        for partial in (known, noise):
            assert forced(c, partial) == forced_by_enumeration(c, partial)


@pytest.mark.parametrize(
    ("forced", "lengths"),
    [
        (compiled(kernel._by_word_pairs), (63, 64, 65, 66, 100, 125, 126)),
        (compiled(kernel._by_word_rows), (63, 100, 126, 127, 128, 190, 191, 200, 254, 255, 300)),
    ],
)
def test_long_line_solvers_agree_with_the_bit_set_solver(
    forced: Solver, lengths: tuple[int, ...]
) -> None:
    """Lines past one machine word, where shifts and carries cross from word to word,
    checked against the Python solver on unbounded integers (itself checked above)."""
    rng = random.Random(len(lengths))
    for _ in range(300):
        length = rng.choice(lengths)
        line = [int(rng.random() < rng.random()) for _ in range(length)]
        c = runs(line)
        kept = rng.random()
        known = tuple(v if rng.random() < kept else None for v in line)
        noise = tuple(rng.choice((None, None, None, None, 0, 1)) for _ in range(length))
        for partial in (known, noise, (None,) * length):
            assert forced(c, partial) == forced_by_solver(c, partial), (c, partial)


def test_a_line_longer_than_python_small_ints() -> None:
    # 100 cells, so shifts and carries cross machine-word boundaries. The clue needs 93
    # cells; with 7 to spare, each long block covers its last 38 cells wherever it goes.
    forced = forced_by_solver((45, 1, 45), (None,) * 100)
    assert forced == (None,) * 7 + (1,) * 38 + (None,) * 10 + (1,) * 38 + (None,) * 7
    assert forced_by_solver((101,), (None,) * 100) is None


def random_puzzle(rng: random.Random, max_side: int) -> Puzzle:
    """A random picture's clues, sometimes with one row clue replaced by another that fits
    its line: a mix of puzzles with one, several and no solutions."""
    height, width = rng.randint(2, max_side), rng.randint(2, max_side)
    density = rng.uniform(0.3, 0.7)
    grid = [[int(rng.random() < density) for _ in range(width)] for _ in range(height)]
    solved = Puzzle.from_grid(grid)
    rows = list(solved.rows)
    if rng.random() < 0.3:
        rows[rng.randrange(height)] = runs(rng.randint(0, 1) for _ in range(width))
    return Puzzle(tuple(rows), solved.columns)


@pytest.mark.parametrize("seed", range(4))
def test_logic_never_contradicts_a_solution(seed: int) -> None:
    """On random puzzles up to 6x6, with and without probing: every fixed cell has that
    value in every solution, a contradiction means there is none, and a completed grid
    is the only one."""
    rng = random.Random(seed)
    seen = dict.fromkeys(["no solution", "probing fixed cells", "probing contradicts"], 0)
    for _ in range(600):
        puzzle = random_puzzle(rng, 6)
        solutions = all_solutions(puzzle)
        line_only, full = deduce(puzzle, probing=0), deduce(puzzle)
        for deduction in (line_only, full):
            if deduction.contradiction:
                assert not solutions
                continue
            for grid in solutions:
                for row, known in zip(grid, deduction.known, strict=True):
                    assert all(k is None or k == v for v, k in zip(row, known, strict=True))
            if deduction.grid is not None:
                assert solutions == {deduction.grid}
        seen["no solution"] += not solutions
        seen["probing fixed cells"] += full.by_probing > 0
        seen["probing contradicts"] += full.contradiction and not line_only.contradiction
    assert min(seen.values()) >= 3, seen


@pytest.mark.parametrize("seed", range(2))
def test_fixpoints_equal_a_plain_implementation(seed: int) -> None:
    """Propagation and probing reach the same fixpoint as the plain sweep-and-probe in
    ``naive_logic`` (the fixpoint does not depend on the order lines are solved in)."""
    rng = random.Random(100 + seed)
    for _ in range(150):
        puzzle = random_puzzle(rng, 8)
        propagated = naive.propagate(puzzle, naive.blank(puzzle))
        line_only = deduce(puzzle, probing=0)
        if propagated is None:
            assert line_only.contradiction
            continue
        assert not line_only.contradiction and line_only.known == propagated
        probed = naive.probe(puzzle, propagated)
        full = deduce(puzzle)
        if probed is None:
            assert full.contradiction
        else:
            assert not full.contradiction and full.known == probed


@pytest.mark.parametrize("name", ["bear", "heart", "house", "p200", "soccer_player", "unknown"])
def test_propagation_fixpoint_on_the_gecode_puzzles(name: str) -> None:
    puzzle = load(PUZZLES / f"{name}.txt")
    assert deduce(puzzle, probing=0).known == naive.propagate(puzzle, naive.blank(puzzle))


@pytest.mark.parametrize("name", ["pinwheel", "unknown"])
def test_probing_fixpoint_on_the_gecode_puzzles(name: str) -> None:
    puzzle = load(PUZZLES / f"{name}.txt")
    root = naive.propagate(puzzle, naive.blank(puzzle))
    assert root is not None
    expected = naive.probe(puzzle, root)
    assert deduce(puzzle).known == expected


def test_ratings() -> None:
    line = load(PUZZLES / "heart.txt")
    probe = load(PUZZLES / "pinwheel.txt")
    stalled = load(PUZZLES / "nonunique.txt")
    assert (deduce(line).rating, deduce(line).by_probing) == (Rating.LINE, 0)
    assert deduce(probe).rating is Rating.PROBE and deduce(probe, probing=0).rating is None
    assert deduce(stalled).rating is Rating.SEARCH and deduce(stalled).unknown > 0


WIDE = Puzzle.from_grid([[1] * 139, [1, 0] * 69 + [1], [0] * 139])
"""A picture line logic settles whose rows are longer than two machine words."""


@pytest.mark.parametrize(
    "puzzle", [load(PUZZLES / "dragonfly.txt"), WIDE], ids=["dragonfly", "wide"]
)
def test_steps_replay_the_propagation(puzzle: Puzzle) -> None:
    """Applying the steps in order rebuilds the grid, each step fixing only unknown cells."""
    deduction = deduce(puzzle, probing=0)
    grid: list[list[int | None]] = [[None] * puzzle.width for _ in range(puzzle.height)]
    for step in deduction.steps:
        for value, positions in ((1, step.filled), (0, step.empty)):
            for p in positions:
                r, c = (step.index, p) if step.axis == "row" else (p, step.index)
                assert grid[r][c] is None
                grid[r][c] = value
    assert grid == deduction.known and deduction.grid is not None


@given(st.integers(min_value=0, max_value=2**300))
def test_set_bits_of_masks_short_and_long(mask: int) -> None:
    assert set_bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_a_probe_cut_short_by_the_deadline_is_no_contradiction() -> None:
    """A trial propagation the deadline stops proves nothing, so probing stops there
    rather than fix the cell's other value."""
    board = Board.blank(load(PUZZLES / "p200.txt"))
    with pytest.raises(OutOfTime):
        board.assume(0, 0, 1, deadline=0.0)
    assert board.probe(deadline=time.perf_counter() + 60) is True  # without one, it finishes


def test_logic_cut_short_hands_on_no_unchecked_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """Logic stopped by its deadline may have fixed every cell of a puzzle without a
    solution before solving the line that refutes them: no solution to hand on, and the
    engine, going on from there, proves there is none."""
    puzzle = Puzzle.from_clues(
        [[1, 1], [1, 1], [2, 1, 1], [1, 1, 1]], [[1], [3], [], [2], [1], [1, 2], [1]]
    )
    assert deduce(puzzle).contradiction
    ticks = iter(range(1, 10**6))  # a clock that moves one tick each time it is read
    monkeypatch.setattr(board, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    cut = []
    for deadline in range(1, 200):
        ticks = iter(range(1, 10**6))
        deduction = deduce(puzzle, deadline=float(deadline))
        if deduction.rating is None and not deduction.contradiction and not deduction.unknown:
            cut.append(deduction)
    monkeypatch.undo()
    assert cut  # such a cut happens
    for deduction in cut:
        assert deduction.grid is None
        assert solve_from(puzzle, deduction).status is Status.NONE


def test_deadline_stops_logic_with_what_it_proved() -> None:
    deduction = deduce(load(PUZZLES / "p200.txt"), deadline=0.0)
    assert deduction.rating is None and not deduction.contradiction
    assert deduction.unknown == 625


@pytest.mark.parametrize("seed", range(2))
def test_engine_with_logic_agrees_with_brute_force(seed: int) -> None:
    """The engine starting from logic: 'none' exactly when there is no solution, and the
    count of every puzzle exact and equal to the enumeration."""
    rng = random.Random(200 + seed)
    for _ in range(120):
        puzzle = random_puzzle(rng, 5)
        expected = all_solutions(puzzle)
        if puzzle.problems():  # refused before any solving, as a file with them would be
            assert not expected
            with pytest.raises(PuzzleError):
                solve(puzzle)
            continue
        result = solve(puzzle)
        assert (result.status is Status.NONE) == (not expected)
        if expected:
            verdict = Uniqueness.UNIQUE if len(expected) == 1 else Uniqueness.MULTIPLE
            assert result.uniqueness is verdict and result.grid in expected
        total = count(puzzle)
        assert total.exact and total.count == len(expected)


def test_engine_answers_line_solvable_puzzles_without_search() -> None:
    def no_model(*_: object) -> None:
        raise AssertionError("a model was built for a puzzle logic completes")

    puzzle = load(PUZZLES / "dragonfly.txt")
    result = solve(puzzle, build=no_model)  # type: ignore[arg-type]
    assert (result.status, result.uniqueness) == (Status.SOLVED, Uniqueness.UNIQUE)
    assert result.grid == solve(puzzle, logic=False).grid
    assert count(puzzle, build=no_model).count == 1  # type: ignore[arg-type]
