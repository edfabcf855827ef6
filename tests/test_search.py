"""The depth-first search against brute force, and the engine's verdicts when it hands over.

A complete search that missed a branch would call a puzzle unique that is not, so every
claim is checked against enumeration: the solutions found, their number under a limit,
and whether the search says it explored everything.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp import answers, engine, load, satisfies, solve
from nonocp.answers import Status, Uniqueness
from nonocp.generate import random_puzzle
from nonocp.logic import deduce, kernel
from nonocp.logic import search as searching
from nonocp.logic.search import Stopper, search
from nonocp.models import builder
from nonocp.puzzle import Puzzle

from bruteforce import all_solutions
from conftest import PUZZLES, Picture, mixed_puzzles, puzzle_of, random_grids

ORDERS = pytest.mark.parametrize(
    ("dynamic", "restarts", "probing", "sweep"),
    [
        (False, 0, True, 0),
        (True, 0, True, 0),
        (True, 1, True, 0),
        (True, 1, False, 0),
        (True, 1, False, 2),
    ],
    ids=["static", "dynamic", "restarting", "unprobed", "sweeping"],
)
"""Both orders of the search (beliefs of the root, or refreshed at every node), the
dynamic order starting over after 1, 1, 2, 1, 1, 2, 4, ... failures (``kernel._luby``),
that order with line logic alone below the root (the race's second search), and that
search branching within two lines of its first open one, from each side in turn."""


def luby(run: int) -> int:
    """Luby, Sinclair and Zuckerman's definition: 2^(k-1) at run 2^k - 1, and within
    the block before that the sequence again from its start."""
    power = run.bit_length()
    if run == (1 << power) - 1:
        return 1 << (power - 1)
    return luby(run - (1 << (power - 1)) + 1)


def test_restart_patience_follows_luby_sequence() -> None:
    start = (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8)
    assert tuple(kernel._luby(run) for run in range(1, 16)) == start
    assert all(kernel._luby(run) == luby(run) for run in range(1, 5000))


@ORDERS
@settings(max_examples=300, deadline=None)
@given(random_grids(max_side=6))
def test_complete_search_finds_exactly_the_solutions(
    dynamic: bool, restarts: int, probing: bool, sweep: int, grid: Picture
) -> None:
    puzzle = puzzle_of(grid)
    found = search(
        puzzle, limit=None, dynamic=dynamic, restarts=restarts, probing=probing, sweep=sweep
    )
    assert found.exhausted
    assert len(found.solutions) == len(set(found.solutions))
    assert set(found.solutions) == all_solutions(puzzle)


@ORDERS
@settings(max_examples=200, deadline=None)
@given(mixed_puzzles())
def test_search_proves_there_is_no_solution(
    dynamic: bool, restarts: int, probing: bool, sweep: int, puzzle: Puzzle
) -> None:
    expected = all_solutions(puzzle)
    found = search(
        puzzle, limit=None, dynamic=dynamic, restarts=restarts, probing=probing, sweep=sweep
    )
    assert found.exhausted
    assert set(found.solutions) == expected


@ORDERS
@settings(max_examples=300, deadline=None)
@given(random_grids(max_side=6), st.integers(1, 3))
def test_limit_stops_at_that_many_solutions(
    dynamic: bool, restarts: int, probing: bool, sweep: int, grid: Picture, limit: int
) -> None:
    puzzle = puzzle_of(grid)
    expected = all_solutions(puzzle)
    found = search(
        puzzle, limit=limit, dynamic=dynamic, restarts=restarts, probing=probing, sweep=sweep
    )
    assert len(found.solutions) == min(limit, len(expected))
    assert set(found.solutions) <= expected
    if len(expected) < limit:
        assert found.exhausted
    if found.exhausted:
        assert found.count == len(expected)


@settings(max_examples=200, deadline=None)
@given(random_grids(max_side=6))
def test_a_root_only_search_answers_only_what_probing_the_root_settles(grid: Picture) -> None:
    """With ``probes=0`` the root is propagated and probed and nothing below it searched:
    a solution comes back, and the search is exhausted, exactly when probing settled
    every cell; what it proved holds in every solution either way."""
    puzzle = puzzle_of(grid)
    expected = all_solutions(puzzle)
    found = search(puzzle, limit=2, probes=0)
    known = found.known
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    assert all(known[r][c] in (None, s[r][c]) for s in expected for r, c in cells)
    if all(known[r][c] is not None for r, c in cells):
        assert found.exhausted and set(found.solutions) == expected
    else:
        assert not found.exhausted and found.solutions == ()


@pytest.mark.parametrize("probing", [True, False], ids=["probed", "unprobed"])
@pytest.mark.parametrize("seed", [25, 26, 62, 79, 124, 134, 157, 176])
def test_a_restarting_search_for_one_solution_finds_one(seed: int, probing: bool) -> None:
    """Sparse random 25x25 puzzles on which a search for one solution, restarting at
    every failure, fails in some runs. On seed 134 it also starts a run near the last
    run's deepest grid, reopening the cells next to its open ones (``kernel._repair``),
    and that run finds nothing: it saw only part of the puzzle, so its end must not
    pass for the end of the search."""
    puzzle = random_puzzle(25, 25, 0.38, seed)
    found = search(puzzle, limit=1, dynamic=True, restarts=1, margin=1, probing=probing)
    assert len(found.solutions) == 1
    assert satisfies(puzzle, found.solutions[0])
    assert not found.exhausted


@settings(max_examples=200, deadline=None)
@given(mixed_puzzles(), st.sampled_from([0, 1, 5]))
def test_what_the_root_proved_holds_in_every_solution(puzzle: Puzzle, probes: int) -> None:
    found = search(puzzle, limit=None, probes=probes)
    for grid in all_solutions(puzzle):
        for row, values in zip(grid, found.known, strict=True):
            assert all(v is None or v == cell for cell, v in zip(row, values, strict=True))


@settings(max_examples=100, deadline=None)
@given(random_grids(max_side=6))
def test_search_from_what_logic_proved(grid: Picture) -> None:
    puzzle = puzzle_of(grid)
    found = search(puzzle, deduce(puzzle).known, limit=None)
    assert set(found.solutions) == all_solutions(puzzle)


@settings(max_examples=100, deadline=None)
@given(random_grids(max_side=6), st.booleans())
def test_a_search_told_its_root_is_probed_probes_nothing_there(
    grid: Picture, probing: bool
) -> None:
    """The race's searches start from the root the budgeted search probed: told so, a
    search only propagates it (a root-only search then spends no probe), and still finds
    exactly the solutions."""
    puzzle = puzzle_of(grid)
    root = search(puzzle, limit=None, probes=0).known
    assert search(puzzle, root, limit=None, probes=0, probed=True).probes == 0
    found = search(puzzle, root, limit=None, dynamic=True, probing=probing, probed=True)
    assert found.exhausted
    assert set(found.solutions) == all_solutions(puzzle)


@ORDERS
def test_every_solution_of_a_puzzle_with_many(
    dynamic: bool, restarts: int, probing: bool, sweep: int
) -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    found = search(
        puzzle, limit=None, dynamic=dynamic, restarts=restarts, probing=probing, sweep=sweep
    )
    assert found.exhausted
    assert len(set(found.solutions)) == 43
    assert all(satisfies(puzzle, grid) for grid in found.solutions)


@pytest.mark.parametrize("probing", [True, False], ids=["probed", "unprobed"])
def test_another_thread_stops_the_search(probing: bool) -> None:
    """A search with far more work than time stops when asked, well before its deadline."""
    puzzle = random_puzzle(30, 30, 0.5, seed=91)
    stopper = Stopper()
    threading.Timer(0.2, stopper.stop).start()
    started = time.perf_counter()
    found = search(puzzle, limit=None, deadline=started + 60, stopper=stopper, probing=probing)
    assert not found.exhausted
    assert time.perf_counter() - started < 30


@pytest.mark.parametrize("probing", [True, False], ids=["probed", "unprobed"])
def test_the_deadline_stops_a_running_search(probing: bool) -> None:
    """The compiled search reads no clock: a timer stops it at its deadline."""
    puzzle = random_puzzle(30, 30, 0.5, seed=91)
    started = time.perf_counter()
    found = search(puzzle, limit=None, deadline=started + 0.2, probing=probing)
    assert not found.exhausted
    assert time.perf_counter() - started < 30


def test_a_search_stopped_while_it_propagates_proves_nothing() -> None:
    """The stop request is read within a propagation (one probe of a large puzzle can
    run for a minute), and a propagation it cuts short is no contradiction."""
    puzzle = Puzzle.from_clues([[2], [0], [2]], [[1, 1], [0], [1, 1]])  # line logic refutes it
    shape = kernel.arrays(puzzle)
    work = kernel.workspace(puzzle.height, puzzle.width, shape[3])
    cells = puzzle.height * puzzle.width
    trials = (np.empty(cells, np.int8), np.empty(cells, np.int8), np.empty(cells, np.int8))

    def settled(stop: int) -> int:
        counters = kernel.counters()
        counters[1] = stop
        grid, scores = kernel.cells_of(puzzle, None), np.zeros(cells, np.float32)
        return int(kernel._settle(grid, scores, shape, work, trials, counters, True))

    assert settled(0) == kernel.CONTRADICTION
    assert settled(1) == kernel.STOPPED
    assert not work[0].any()  # no line left dirty for the next propagation


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5])
def test_a_search_stopped_while_it_probes_claims_nothing_false(delay: float) -> None:
    """Stopped inside one of its root's probes (probing this puzzle's root takes seconds),
    the search says it is not exhausted, and what it proved holds in the picture."""
    puzzle = random_puzzle(200, 200, 0.6, seed=1)
    picture = puzzle.solution
    assert picture is not None
    stopper = Stopper()
    threading.Timer(delay, stopper.stop).start()
    found = search(puzzle, limit=1, stopper=stopper)
    assert found.solutions or not found.exhausted
    assert all(
        value is None or value == cell
        for known_row, row in zip(found.known, picture, strict=True)
        for value, cell in zip(known_row, row, strict=True)
    )


def slow_load(seconds: float, calls: list[float]) -> Callable[[], float]:
    """A stand-in for loading the compiled search that takes ``seconds``, as compiling it
    does once after installing, noting each call in ``calls``."""

    def loading() -> float:
        time.sleep(seconds)
        calls.append(seconds)
        return seconds

    return loading


@pytest.mark.parametrize("via", ["solve", "solve_from", "count"])
def test_loading_the_search_is_left_out_of_the_time_limit(
    via: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 s limit outlives a 1.5 s load: the puzzle (43 solutions, which line logic leaves
    open) is settled, and the time reported is the solving alone."""
    puzzle = load(PUZZLES / "nonunique.txt")
    searching.load()
    calls: list[float] = []
    monkeypatch.setattr(searching, "load", slow_load(1.5, calls))
    if via == "count":
        total = engine.count(puzzle, time_limit=1.0)
        assert (total.count, total.exact) == (43, True)
        assert total.seconds < 1.0
    else:
        if via == "solve":
            result = solve(puzzle, time_limit=1.0)
        else:
            result = engine.solve_from(puzzle, deduce(puzzle), time_limit=1.0)
        assert (result.status, result.uniqueness) == (Status.SOLVED, Uniqueness.MULTIPLE)
        assert result.seconds < 1.0
    assert calls == [1.5]  # loaded before searching, not inside the timed search


@pytest.mark.parametrize("loading", [0.3, 0.0], ids=["slow", "fast"])
def test_loading_says_so_only_when_slow(
    loading: float, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(searching, "_loaded", threading.Event())
    monkeypatch.setattr(searching, "COMPILING", 0.1)
    monkeypatch.setattr(searching, "search", lambda *_, **__: time.sleep(loading))
    with caplog.at_level(logging.WARNING, logger="nonocp.logic.search"):
        assert searching.load() >= loading
        assert searching.load() == 0.0
        time.sleep(0.2)  # a notice wrongly left pending would come by now
    assert (searching.COMPILING_NOTICE in caplog.text) == (loading > 0)


def test_a_halted_cpsat_search_gives_no_answer() -> None:
    from nonocp import cpsat

    puzzle = load(PUZZLES / "difficult.txt")
    halt = answers.Halt()
    halt.halt()
    assert cpsat.Solving(puzzle, None, None, None, halt).search() is None


def test_budget_and_deadline_stop_the_search_unexhausted() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    assert search(puzzle, limit=None, probes=3) == search(puzzle, limit=None, probes=3)
    stopped = search(puzzle, limit=None, probes=3)
    assert not stopped.exhausted
    assert len(stopped.solutions) < 43
    late = search(puzzle, limit=None, deadline=time.perf_counter() - 1)
    assert (late.solutions, late.exhausted) == ((), False)


@pytest.mark.parametrize("model", [None, "automaton"], ids=["sat", "cpsat"])
@settings(max_examples=150, deadline=None)
@given(mixed_puzzles(), st.sampled_from([0, 1, 1000]))
def test_engine_verdicts_whoever_finishes(model: str | None, puzzle: Puzzle, probes: int) -> None:
    """The verdict is the same whether the search settles the puzzle or hands over to
    the race of the search without a budget and the solver (Glucose, or CP-SAT when a
    model is chosen), with its first solution after one probe or with none after root
    probing."""
    expected = all_solutions(puzzle)
    build = None if model is None else builder(model)
    result = solve(puzzle, search_probes=probes, build=build)
    first = solve(puzzle, search_probes=probes, prove_unique=False, build=build)
    uniqueness = {0: Uniqueness.NONE, 1: Uniqueness.UNIQUE}.get(len(expected), Uniqueness.MULTIPLE)
    assert result.uniqueness is uniqueness
    assert {result.grid, result.other} - {None} <= expected
    assert first.status is (Status.SOLVED if expected else Status.NONE)
    assert first.grid is None or first.grid in expected


@pytest.mark.parametrize("sweep", [0, 1], ids=["anywhere", "sweeping"])
@settings(max_examples=150, deadline=None)
@given(mixed_puzzles(), st.booleans())
def test_the_races_second_search_is_exact(sweep: int, puzzle: Puzzle, prove_unique: bool) -> None:
    """The search without probing that races on a large puzzle (``engine._sides``):
    a solution or proof of none, and for uniqueness two solutions or a proof of one."""
    expected = all_solutions(puzzle)
    unknown = [[None] * puzzle.width for _ in puzzle.rows]
    left = engine.Left(puzzle, unknown, None, None, None, prove_unique)
    verdict = engine._by_search(left, Stopper(), probing=False, sweep=sweep)
    status, uniqueness, grids = verdict
    assert status is (Status.SOLVED if expected else Status.NONE)
    assert set(grids) <= expected
    assert len(grids) == min(len(expected), 2 if prove_unique else 1)
    if prove_unique and len(expected) == 1:
        assert uniqueness is Uniqueness.UNIQUE


@pytest.mark.parametrize(
    ("direction", "expected"),
    [(-1, (3, 3)), (0, (2, 6)), (1, (5, 6)), (2, (5, 1)), (3, (5, 6))],
    ids=["anywhere", "from the top", "from the bottom", "from the left", "from the right"],
)
def test_a_sweep_branches_within_its_band(direction: int, expected: tuple[int, int]) -> None:
    """A 6x8 grid with its top row and right column known, every cell scoring its index
    but (3, 3), which scores highest: a sweep two lines deep branches on the best cell of
    the two lines after the known ones, or of the first two from the other sides."""
    from nonocp.logic import kernel

    puzzle = random_puzzle(8, 6, 0.5, seed=1)
    grid = np.full((6, 8), kernel.UNKNOWN, np.int8)
    grid[0, :] = grid[:, 7] = kernel.EMPTY
    scores = np.arange(48, dtype=np.float32)
    scores[3 * 8 + 3] = 100.0
    shape = kernel.arrays(puzzle)
    conflicts = np.zeros(6 + 8)
    cell = kernel._branch_cell(grid.ravel(), scores, 0.0, (direction, 2), shape, conflicts)
    assert divmod(cell, 8) == expected


@pytest.mark.parametrize(
    ("row_score", "column_score", "expected"),
    [
        (0.0, 0.0, (0, 0)),
        (0.1, 0.0, (5, 7)),
        (0.001, 0.0, (5, 7)),
        (0.1, 0.02, (5, 7)),
        (0.1, 0.03, (0, 0)),
    ],
)
def test_the_cells_of_lines_with_the_highest_conflict_scores_come_first(
    row_score: float, column_score: float, expected: tuple[int, int]
) -> None:
    """(0, 0) scores 0.4 and (5, 7) 0.25 before their lines' conflict scores, row 5's R
    and column 0's C, scale them: (0, 0) by 1 + C / R and (5, 7) by 2, so (5, 7) comes
    first once row 5 has failed at all, unless column 0's score is over a quarter of R."""
    from nonocp.logic import kernel

    puzzle = random_puzzle(8, 6, 0.5, seed=1)
    grid = np.full(48, kernel.UNKNOWN, np.int8)
    scores = np.zeros(48, np.float32)
    scores[0], scores[47] = 0.4, 0.25
    conflicts = np.zeros(6 + 8)
    conflicts[5], conflicts[6] = row_score, column_score
    cell = kernel._branch_cell(grid, scores, 0.0, (-1, 0), kernel.arrays(puzzle), conflicts)
    assert divmod(cell, 8) == expected


def test_a_line_s_conflict_score_moves_towards_how_lately_it_failed() -> None:
    """After 4 failures, a line that last failed at failure 4 and fails at the next, 5,
    earns 1 / (5 - 4 + 1); one that last failed at 1 and fails at 6 earns 1 / 6. Each
    score moves the step of the way, a step that shrinks by 1e-6 at each failure down to
    0.06. A restart fades each score by 0.995 per failure since its line last failed,
    and makes the step whole again."""
    from nonocp.logic import kernel

    history = (np.array([0.2, 0.2]), np.array([4.0, 1.0]), np.array([4.0, 0.4]))
    kernel._conflict(history, 0)
    kernel._conflict(history, 1)
    conflicts, last, clock = history
    expected = [0.2 + 0.4 * (1 / 2 - 0.2), 0.2 + (0.4 - 1e-6) * (1 / 6 - 0.2)]
    assert conflicts == pytest.approx(expected, rel=1e-12)
    assert list(last) == [5.0, 6.0]
    assert clock == pytest.approx([6.0, 0.4 - 2e-6], rel=1e-12)
    history = (np.array([1.0, 1.0]), np.array([10.0, 0.0]), np.array([10.0, 0.06]))
    kernel._conflict(history, 0)
    assert history[2][1] == 0.06
    kernel._faded(history)
    assert history[0] == pytest.approx([1.0 + 0.06 * (0.5 - 1.0), 0.995**11])
    assert history[2][1] == kernel.CONFLICT_STEP


def test_a_stopped_second_search_says_unknown() -> None:
    puzzle = random_puzzle(30, 30, 0.5, seed=91)
    unknown = [[None] * puzzle.width for _ in puzzle.rows]
    stopper = Stopper()
    stopper.stop()
    left = engine.Left(puzzle, unknown, None, None, None, True)
    verdict = engine._by_search(left, stopper, probing=False, sweep=0)
    assert verdict == (Status.UNKNOWN, Uniqueness.UNKNOWN, ())


def test_on_one_core_a_small_puzzle_still_races() -> None:
    """On one core a small puzzle's two sides (the search without a budget and Glucose)
    share it, where a large random picture's probing search waits for a second core and
    the sweeping search runs alone."""
    puzzle = load(PUZZLES / "heart.txt")
    unknown = [[None] * puzzle.width for _ in puzzle.rows]
    left = engine.Left(puzzle, unknown, None, None, None, False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RACE", False)
        small = engine._sides(left)
        patch.setattr(kernel, "RESTART_CELLS", 0)
        patch.setattr(engine, "RANDOM_OPEN", 0.0)
        large = engine._sides(left)
    assert (len(small), len(large)) == (2, 1)


@pytest.mark.parametrize("random_like", [True, False], ids=["random-like", "picture"])
@pytest.mark.parametrize("race", [True, False], ids=["raced", "one core"])
@settings(max_examples=50, deadline=None)
@given(mixed_puzzles())
def test_large_puzzles_race_a_second_search(race: bool, random_like: bool, puzzle: Puzzle) -> None:
    """With every puzzle counting as large, the search without probing races the probing
    search (a root that settled almost nothing) or Glucose (one that settled part of the
    picture), and runs alone on one core in the first case: whichever finishes, its
    verdict holds."""
    from nonocp.logic import kernel

    expected = all_solutions(puzzle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "RESTART_CELLS", 0)
        patch.setattr(engine, "RANDOM_OPEN", 0.0 if random_like else 1.5)
        patch.setattr(engine, "RACE", race)
        first = solve(puzzle, search_probes=0, prove_unique=False)
        result = solve(puzzle, search_probes=0)
    assert first.status is (Status.SOLVED if expected else Status.NONE)
    assert first.grid is None or first.grid in expected
    uniqueness = {0: Uniqueness.NONE, 1: Uniqueness.UNIQUE}.get(len(expected), Uniqueness.MULTIPLE)
    assert result.uniqueness is uniqueness
    assert {result.grid, result.other} - {None} <= expected


@pytest.mark.parametrize(
    ("name", "probes", "uniqueness"),
    [
        # The budgets: none, spent before the first solution, spent after the first
        # (CP-SAT then only looks for a second), and enough for the whole search.
        ("nonunique", 0, Uniqueness.MULTIPLE),
        ("nonunique", 10, Uniqueness.MULTIPLE),
        ("nonunique", 64, Uniqueness.MULTIPLE),
        ("nonunique", 1000, Uniqueness.MULTIPLE),
        ("difficult", 0, Uniqueness.UNIQUE),
        ("difficult", 100, Uniqueness.UNIQUE),
        ("difficult", 500, Uniqueness.UNIQUE),
        ("difficult", 1000, Uniqueness.UNIQUE),
    ],
)
def test_engine_verdict_whatever_the_budget(name: str, probes: int, uniqueness: Uniqueness) -> None:
    puzzle = load(PUZZLES / f"{name}.txt")
    result = solve(puzzle, search_probes=probes)
    assert result.uniqueness is uniqueness
    assert result.grid is not None and satisfies(puzzle, result.grid)
    assert result.other is None or (result.other != result.grid and satisfies(puzzle, result.other))


@pytest.mark.parametrize("large", [True, False], ids=["large", "small"])
def test_a_large_puzzle_goes_to_the_race_without_a_budget(large: bool) -> None:
    """Where line logic leaves a large puzzle open, the budgeted search only probes the
    root (``LARGE_SEARCH_PROBES``); the verdict is the race's."""
    from nonocp.logic import kernel

    puzzle = load(PUZZLES / "nonunique.txt")
    budgets: list[int | None] = []
    real = searching.search

    def spy(*args: object, **kwargs: object) -> searching.Found:
        if args[0] is puzzle:
            budgets.append(kwargs.get("probes"))  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "RESTART_CELLS", 0 if large else 10**9)
        patch.setattr(searching, "search", spy)
        result = solve(puzzle)
    assert budgets[0] == (engine.LARGE_SEARCH_PROBES if large else engine.SEARCH_PROBES)
    assert result.uniqueness is Uniqueness.MULTIPLE


@settings(max_examples=200, deadline=None)
@given(random_grids(max_side=6), random_grids(max_side=6))
def test_the_compiled_check_of_a_solution_agrees_with_satisfies(
    picture: Picture, other: Picture
) -> None:
    """The check every counted grid passes in compiled code, against the one every printed
    grid passes: for a picture's own puzzle, and for another picture of the same size."""
    puzzle = puzzle_of(picture)
    for grid in (picture, other):
        if (len(grid), len(grid[0])) == (puzzle.height, puzzle.width):
            cells = kernel.cells_of(puzzle, grid)
            assert kernel._satisfies(cells, kernel.arrays(puzzle)) == satisfies(puzzle, grid)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 9), st.floats(0, 100, width=32)), max_size=15),
        min_size=1,
        max_size=12,
    ),
    st.integers(0, 11),
)
def test_backtracking_puts_back_every_score_the_probes_below_replaced(
    probes: list[list[tuple[int, float]]], jump: int
) -> None:
    """The static order keeps one array of scores: each level's probe notes what it
    replaces on the undo trail, and going back to a level, one level at a time or many at
    once (a restart), restores the array as it was there."""
    scores = np.arange(10, dtype=np.float32)
    overwritten = kernel._overwritten(10)
    undo, undone = (np.empty(10, np.int64), np.empty(10, np.float32)), 0
    marks, before = [], []
    for writes in probes:
        marks.append(undone)
        before.append(scores.copy())
        for cell, score in writes:
            kernel._rescore(scores, cell, score, overwritten)
        undo, undone = kernel._noted(overwritten, undo, undone, True)
    level = min(jump, len(probes) - 1)
    undone = kernel._rescored(scores, undo, undone, marks[level])
    assert np.array_equal(scores, before[level])
    for mark, expected in zip(reversed(marks[:level]), reversed(before[:level]), strict=True):
        undone = kernel._rescored(scores, undo, undone, mark)
        assert np.array_equal(scores, expected)
