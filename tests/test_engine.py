"""Solving and counting: known counts, brute-force agreement, honesty under time limits."""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Generator
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

import nonocp
from nonocp import count, engine, load, satisfies, solutions, solve
from nonocp.answers import Count, Ending, Halt, Status, Stop, Uniqueness
from nonocp.backends import backend
from nonocp.clock import deadline_after, stop_until_ended
from nonocp.engine import enumerated
from nonocp.errors import InputError, NonocpError, PuzzleError
from nonocp.formats import dumps
from nonocp.logic import Rating
from nonocp.models import ModelName, builder
from nonocp.puzzle import Grid, Known, Puzzle, ambiguous_cells

from bruteforce import all_solutions
from conftest import HEART, PUZZLES, drained, puzzle_of, random_grids

KNOWN_COUNTS = {path.stem: 1 for path in PUZZLES.glob("*.txt")} | {"nonunique": 43}


def as_text(grid: tuple[tuple[int, ...], ...]) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in grid]


def test_all_thirteen_gecode_puzzles_are_here() -> None:
    assert len(KNOWN_COUNTS) == 13


@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_known_counts(name: str) -> None:
    puzzle = load(PUZZLES / f"{name}.txt")
    total = count(puzzle)
    assert total.exact
    assert total.count == KNOWN_COUNTS[name]


@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_uniqueness_verdicts(name: str) -> None:
    result = solve(load(PUZZLES / f"{name}.txt"))
    assert result.status is Status.SOLVED
    expected = Uniqueness.UNIQUE if KNOWN_COUNTS[name] == 1 else Uniqueness.MULTIPLE
    assert result.uniqueness is expected
    assert result.grid is not None
    if result.other is not None:
        assert result.other != result.grid


def test_heart_picture() -> None:
    result = solve(load(PUZZLES / "heart.txt"))
    assert result.grid is not None
    assert as_text(result.grid) == HEART


def test_knotty_has_two_solutions_found_well_inside_a_minute() -> None:
    """Knotty was "unknown" at 60 s before the search's value order came from belief
    propagation; its two solutions are now found in about a second."""
    result = solve(load(PUZZLES / "webpbn" / "knotty.nin"), time_limit=60)
    assert result.uniqueness is Uniqueness.MULTIPLE
    assert result.grid is not None and result.other is not None
    assert result.grid != result.other


def test_faase_has_two_solutions_that_differ_in_four_cells() -> None:
    """Faase (80x95) was "unknown" at 60 s for every engine here until the race's search
    refreshed its beliefs at every node; it now finds both solutions in about 12 s. They
    differ in the four corners of a rectangle (rows 43 and 56, columns 45 and 47): each
    row moves a filled cell between the two columns, the smallest ambiguity there is."""
    result = solve(load(PUZZLES / "webpbn" / "faase.nin"), time_limit=120)
    assert result.uniqueness is Uniqueness.MULTIPLE
    assert result.grid is not None and result.other is not None
    cells = zip(sum(result.grid, ()), sum(result.other, ()), strict=True)
    assert sum(one != other for one, other in cells) == 4


def test_enumeration_yields_distinct_checked_grids() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    grids = list(solutions(puzzle))
    assert len(grids) == len(set(grids)) == 43
    assert all(satisfies(puzzle, g) for g in grids)


@pytest.mark.parametrize(
    ("rows", "columns", "why"),
    [
        ([[1], [1]], [[2], [1]], "the row clues fill 2 cells but the column clues fill 3"),
        ([[3]], [[1]], "clue 3 needs 3 cells but a row has only 1"),
        ([[1], [-1, 2]], [[1], [1], [1]], "row 2: block lengths are whole numbers from 1"),
        ([[0]], [[0]], "row 1: block lengths are whole numbers from 1, not (0,)"),
        ([[1.0]], [[1]], "row 1: block lengths are whole numbers from 1, not (1.0,)"),
        ([], [], "the puzzle has 0 rows and 0 columns"),
        ([], [[], []], "the puzzle has 0 rows and 2 columns"),
    ],
)
def test_the_api_refuses_clues_no_grid_can_satisfy_before_solving(
    rows: list[list[float]], columns: list[list[int]], why: str
) -> None:
    """As loading a file does: a puzzle built in Python is checked by every engine."""
    puzzle = Puzzle(rows=tuple(map(tuple, rows)), columns=tuple(map(tuple, columns)))  # type: ignore[arg-type]
    for attempt in (solve, count, lambda p: list(solutions(p)), backend("mip").count):
        with pytest.raises(PuzzleError, match=re.escape(why)):
            attempt(puzzle)


def test_the_api_refuses_a_puzzle_too_large_to_solve_before_solving() -> None:
    """An empty 3163x3162 puzzle: consistent, and a cell over the most the engines take."""
    large = Puzzle(rows=((),) * 3162, columns=((),) * 3163)
    why = "3163x3162 is 10,001,406 cells; nonocp takes at most 10,000,000"
    attempts = (solve, count, nonocp.analyze, lambda p: list(solutions(p)), backend("mip").count)
    for attempt in attempts:
        with pytest.raises(NonocpError, match=re.escape(why)):
            attempt(large)


def test_clues_given_as_lists_are_tuples() -> None:
    puzzle = Puzzle(rows=[[1], [1]], columns=[[1], [1]])  # type: ignore[arg-type]
    assert puzzle.rows == ((1,), (1,))
    assert solve(puzzle).uniqueness is Uniqueness.MULTIPLE and count(puzzle).count == 2


def test_a_limit_must_be_a_count_and_a_time_limit_a_number() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    for limit in (-1, 2.5, True):
        with pytest.raises(ValueError, match="expected a whole number from 0"):
            count(puzzle, limit=limit)  # type: ignore[arg-type]
    for wrong in (math.nan, -1):
        with pytest.raises(ValueError, match=f"time limit {wrong}: expected seconds from 0"):
            solve(puzzle, time_limit=wrong)


def test_numpy_clues_and_grids_are_taken_as_python_ints() -> None:
    """What a researcher's own solver hands over: arrays, and numpy's integers and bools."""
    heart = load(PUZZLES / "heart.txt")
    grid = solve(heart).grid
    arrays = np.array(grid), np.zeros((9, 9), dtype=int)  # typed Grid, read as any rows
    assert grid is not None and satisfies(heart, arrays[0])  # type: ignore[arg-type]
    assert not satisfies(heart, arrays[1])  # type: ignore[arg-type]
    from_arrays = Puzzle.from_clues(np.array([[1], [1]]), [[np.int64(1)], [np.int8(1)]])
    assert from_arrays.rows == ((1,), (1,)) and type(from_arrays.rows[0][0]) is int
    assert count(from_arrays).count == 2
    assert Puzzle.from_grid(np.array(grid, dtype=bool)) == Puzzle.from_grid(grid)
    listed = Puzzle(rows=[(1,)], columns=[(1,)], solution=[[1]], extra={"id": "x"})  # type: ignore[arg-type]
    hash(listed)  # a puzzle given lists and a dict is made of tuples all the same
    assert listed.solution == ((1,),) and listed.extra == (("id", "x"),)


@pytest.mark.parametrize(
    ("grid", "why"),
    [
        (["#.", ".#"], "a grid's cells are 0 or 1"),  # text would read as all filled
        ([[2, 0]], "a grid's cells are 0 or 1"),
        ([[1, 0], [1]], "row 2 of the grid has 1 cell, row 1 2"),
    ],
)
def test_a_grid_of_other_cells_or_ragged_rows_is_refused(grid: list, why: str) -> None:
    with pytest.raises(PuzzleError, match=re.escape(why)):
        Puzzle.from_grid(grid)


def test_analyze_rates_a_puzzle_and_gives_the_verdict_from_where_logic_stops() -> None:
    analysis = nonocp.analyze(load(PUZZLES / "difficult.txt"), time_limit=60)
    assert analysis.deduction.rating is Rating.SEARCH and analysis.solved
    assert analysis.result.uniqueness is Uniqueness.UNIQUE
    assert nonocp.analyze(load(PUZZLES / "heart.txt")).deduction.rating is Rating.LINE


def test_a_file_that_cannot_be_read_is_an_input_error(tmp_path: Path) -> None:
    for path in (tmp_path / "none.non", tmp_path):
        with pytest.raises(InputError, match=f"^{re.escape(str(path))}: "):
            load(path)


def test_an_enumeration_kept_but_not_read_pauses() -> None:
    """Ten rows and columns of clue 1: 10! solutions, which CP-SAT would otherwise go on
    finding, and queueing, for as long as the enumeration is kept."""
    kept = iter(solutions(Puzzle.from_clues([[1]] * 10, [[1]] * 10), logic=False))
    next(kept)
    time.sleep(0.5)  # the queue fills, and the search pauses
    started = time.process_time()
    time.sleep(1)
    assert time.process_time() - started < 0.3  # a search still running would take ~1 s
    kept.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("seconds", [math.inf, 1e10])
def test_a_time_limit_too_long_to_wait_for_is_none(
    monkeypatch: pytest.MonkeyPatch, seconds: float
) -> None:
    failed: list[object] = []
    monkeypatch.setattr(threading, "excepthook", failed.append)  # a timer thread's error
    puzzle = load(PUZZLES / "nonunique.txt")
    assert solve(puzzle, time_limit=seconds).uniqueness is Uniqueness.MULTIPLE
    assert count(puzzle, time_limit=seconds).count == 43
    assert failed == []


def test_a_count_says_where_the_solutions_differ() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    total = count(puzzle)
    assert total.differing == ambiguous_cells(list(solutions(puzzle)))
    assert len(total.differing) > 0
    assert count(load(PUZZLES / "heart.txt")).differing == set()


def test_count_limit_says_at_least() -> None:
    total = count(load(PUZZLES / "nonunique.txt"), limit=5)
    assert (total.count, total.exact, total.stopped_by) == (5, False, "limit")
    assert total.text == "at least 5 solutions (limit)"
    assert count(load(PUZZLES / "nonunique.txt"), limit=1).text == "at least 1 solution (limit)"


def test_an_enumeration_goes_on_from_what_the_search_found() -> None:
    """The search's budget of 100 probes finds 27 of nonunique's 43 solutions; the rest
    is told them, so it looks for the others, and if it finds none in time the count
    still holds the 27."""
    puzzle = load(PUZZLES / "nonunique.txt")
    told: list[tuple[Grid, ...]] = []

    def out_of_time(
        known: Known | None, deadline: float | None, earlier: tuple[Grid, ...]
    ) -> Generator[Grid, None, Ending]:
        told.append(earlier)
        return False, Stop.TIME_LIMIT
        yield  # a generator that yields nothing

    grids = list(enumerated(puzzle, None, None, True, 100, out_of_time))
    assert len(told) == 1 and told[0] == tuple(grids)
    assert 0 < len(grids) == len(set(grids)) < 43
    assert all(satisfies(puzzle, grid) for grid in grids)


@pytest.mark.parametrize("limit", [None, 30])
def test_the_solver_enumerates_on_past_the_search_without_counting_its_grids_twice(
    monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    monkeypatch.setattr(engine, "COUNT_PROBES", 100)
    grids = list(solutions(load(PUZZLES / "nonunique.txt"), limit=limit))
    assert len(grids) == len(set(grids)) == (limit or 43)


def test_where_the_budget_finds_no_solution_the_race_finds_the_first_ones() -> None:
    """CP-SAT finds none of Faase's solutions in minutes; the race finds both."""
    total = count(load(PUZZLES / "webpbn" / "faase.nin"), limit=2, time_limit=120)
    assert (total.count, total.exact, total.stopped_by) == (2, False, "limit")


@pytest.mark.parametrize(("name", "expected"), [("nonunique", 43), ("difficult", 1)])
def test_a_count_from_the_race_on_is_exact(
    monkeypatch: pytest.MonkeyPatch, name: str, expected: int
) -> None:
    """With no probes to spend, the race proves a unique puzzle unique, or finds two
    solutions of another, and CP-SAT counts the rest."""
    monkeypatch.setattr(engine, "COUNT_PROBES", 0)
    grids = list(solutions(load(PUZZLES / f"{name}.txt")))
    assert len(grids) == len(set(grids)) == expected
    total = count(load(PUZZLES / f"{name}.txt"))
    assert (total.count, total.exact) == (expected, True)


def test_no_solution_is_proven() -> None:
    # Totals agree and every clue fits, yet no grid exists: the two filled cells of the
    # rows would have to share a column.
    puzzle = Puzzle.from_clues([[2], [0], [2]], [[1, 1], [0], [1, 1]])
    assert puzzle.problems() == []
    result = solve(puzzle)
    assert (result.status, result.uniqueness, result.grid) == (Status.NONE, Uniqueness.NONE, None)
    assert count(puzzle).count == 0 and count(puzzle).exact


def test_time_limit_yields_unknown_never_a_verdict() -> None:
    result = solve(load(PUZZLES / "castle.txt"), time_limit=1e-9)
    assert result.status is Status.UNKNOWN
    assert result.uniqueness is Uniqueness.UNKNOWN
    total = count(load(PUZZLES / "nonunique.txt"), time_limit=1e-9)
    assert not total.exact


def test_no_search_starts_once_logic_has_used_the_time_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # Setting a search up on a 3000x3000 puzzle took seconds past the limit.
    def started(*_: object, **__: object) -> None:
        raise AssertionError("a search started after the deadline")

    monkeypatch.setattr(nonocp.logic.search, "load", started)
    monkeypatch.setattr(nonocp.logic.search, "search", started)
    monkeypatch.setattr(engine, "_race", started)
    puzzle = load(PUZZLES / "castle.txt")
    assert solve(puzzle, time_limit=1e-9).status is Status.UNKNOWN
    assert not count(puzzle, time_limit=1e-9).exact


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        ((0, 1), (Status.SOLVED, Uniqueness.MULTIPLE, 0, 1)),
        ((0, 0), (Status.SOLVED, Uniqueness.UNKNOWN, 0, None)),
        ((None, 1), (Status.SOLVED, Uniqueness.UNKNOWN, 1, None)),
        ((None, None), (Status.UNKNOWN, Uniqueness.UNKNOWN, None, None)),
    ],
)
def test_a_race_stopped_short_pools_its_sides_solutions(
    monkeypatch: pytest.MonkeyPatch,
    held: tuple[int | None, int | None],
    expected: tuple[Status, Uniqueness, int | None, int | None],
) -> None:
    """Two sides stopped by the deadline, each holding one solution, refute uniqueness
    when their solutions differ; one solution, held once or twice, proves nothing."""
    puzzle = load(PUZZLES / "nonunique.txt")
    grids = list(solutions(puzzle, limit=2))

    def stopped_short(index: int | None) -> engine.Verdict:
        if index is None:
            return Status.UNKNOWN, Uniqueness.UNKNOWN, ()
        return Status.SOLVED, Uniqueness.UNKNOWN, (grids[index],)

    def sides(_: engine.Left) -> list[engine.Side[engine.Verdict]]:
        return [engine.Side(partial(stopped_short, i), lambda: None) for i in held]

    monkeypatch.setattr(engine, "_sides", sides)
    result = solve(puzzle, search_probes=0)  # the budgeted search finds none here
    status, uniqueness, grid, other = expected
    assert (result.status, result.uniqueness) == (status, uniqueness)
    assert result.grid == (None if grid is None else grids[grid])
    assert result.other == (None if other is None else grids[other])


@settings(max_examples=300, deadline=None)
@given(random_grids(max_side=5))
def test_counts_agree_with_brute_force(grid: tuple[tuple[int, ...], ...]) -> None:
    puzzle = puzzle_of(grid)
    expected = all_solutions(puzzle)
    assert set(solutions(puzzle)) == expected
    verdict = solve(puzzle).uniqueness
    assert verdict is (Uniqueness.UNIQUE if len(expected) == 1 else Uniqueness.MULTIPLE)
    total = count(puzzle)
    assert (total.count, total.exact) == (len(expected), True)
    assert total.differing == ambiguous_cells(sorted(expected))


@settings(max_examples=100, deadline=None)
@given(random_grids(max_side=5))
def test_a_count_from_the_race_on_agrees_with_brute_force(
    grid: tuple[tuple[int, ...], ...],
) -> None:
    """With no probes to spend, the search without a budget and the enumeration race to
    count; whichever wins, the count and the cells the solutions differ in are right."""
    puzzle = puzzle_of(grid)
    expected = all_solutions(puzzle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "COUNT_PROBES", 0)
        total = count(puzzle)
    assert (total.count, total.exact) == (len(expected), True)
    assert total.differing == ambiguous_cells(sorted(expected))


def rooks(n: int) -> Puzzle:
    """An n x n puzzle whose every clue is 1: its solutions are the n! permutations."""
    return Puzzle.from_clues([[1]] * n, [[1]] * n)


@pytest.mark.parametrize("probes", [0, 100, engine.COUNT_PROBES])
def test_the_search_counts_past_the_grids_it_hands_over(
    monkeypatch: pytest.MonkeyPatch, probes: int
) -> None:
    """7! = 5,040 solutions, more than the search stores: counted exactly whether the
    budgeted search, or the search without a budget racing CP-SAT, finishes the count."""
    monkeypatch.setattr(engine, "COUNT_PROBES", probes)
    total = count(rooks(7), time_limit=60)
    assert (total.count, total.exact, total.stopped_by) == (math.factorial(7), True, None)
    assert total.differing == {(r, c) for r in range(7) for c in range(7)}
    limited = count(rooks(7), limit=2000)
    assert (limited.count, limited.exact, limited.stopped_by) == (2000, False, "limit")


def test_glucose_enumerates_all_but_the_earlier_solutions_up_to_its_limit_or_deadline() -> None:
    puzzle = load(PUZZLES / "nonunique.txt")
    known: Known = [[None] * puzzle.width for _ in range(puzzle.height)]
    every = sorted(solutions(puzzle))
    earlier = tuple(every[:10])

    def others(deadline: float | None, wanted: int | None) -> tuple[list[Grid], Ending]:
        return drained(engine._others(puzzle, known, deadline, wanted, None, earlier, Halt()))

    rest, ending = others(None, None)
    assert (sorted(rest), ending) == (every[10:], (True, None))
    some, ending = others(None, 5)
    assert len(set(some) - set(earlier)) == 5 and ending == (False, "limit")
    assert others(time.perf_counter() - 1, None) == ([], (False, "time limit"))


@pytest.mark.parametrize("model", [None, "automaton"])
def test_the_solver_counting_beside_the_search_stops_keeping_solutions_past_its_share(
    monkeypatch: pytest.MonkeyPatch, model: ModelName | None
) -> None:
    """Past ``KEPT_CELLS`` the solver's side of a count keeps the count it has and waits
    until the race, or the deadline, ends; unchecked, it would count all 5,040."""
    monkeypatch.setattr(engine, "KEPT_CELLS", 3 * 49)  # three solutions of rooks(7)
    puzzle, build = rooks(7), None if model is None else builder(model)
    known: Known = [[None] * 7 for _ in range(7)]
    counted: list[Count] = []
    halt = Halt()

    def counting() -> None:
        counted.append(engine._count_enumerated(puzzle, known, (), None, None, build, halt))

    side = threading.Thread(target=counting)
    side.start()
    side.join(0.5)
    assert side.is_alive() and not counted
    halt.halt()
    side.join(10)
    late = engine._count_enumerated(puzzle, known, (), None, deadline_after(0.2), build, Halt())
    for total in [*counted, late]:
        assert (total.count, total.exact, total.stopped_by) == (3, False, "time limit")


def test_the_package_loads_one_puzzle_names_its_errors_and_refuses_a_set_as_one(
    tmp_path: Path,
) -> None:
    import nonocp  # the package's own names, as the README's API uses them

    assert nonocp.load(PUZZLES / "heart.txt").size == "9x9"
    pack = tmp_path / "two.nonpack"
    pack.write_text(dumps([Puzzle.from_clues([[1]], [[1]])] * 2, "nonpack"))
    with pytest.raises(nonocp.InputError, match="holds 2 puzzles: read them with load_all"):
        nonocp.load(pack)
    assert len(nonocp.load_all(pack)) == 2
    assert issubclass(nonocp.PuzzleError, nonocp.NonocpError)
    assert issubclass(nonocp.InputError, nonocp.NonocpError)


def test_a_stop_is_sent_again_until_a_solver_that_missed_it_has_ended() -> None:
    """A solver hears no stop sent before its search begins (CP-SAT's does not)."""
    sent, listening, heard = threading.Event(), threading.Event(), threading.Event()
    stops: list[bool] = []

    def search() -> None:
        sent.wait()  # its model still being built when the first stop comes
        listening.set()
        heard.wait()

    def stop() -> None:
        stops.append(listening.is_set())
        if listening.is_set():
            heard.set()
        sent.set()

    thread = threading.Thread(target=search)
    thread.start()
    stop_until_ended(stop, [thread])
    assert not thread.is_alive() and stops[0] is False and stops[-1] is True


def test_stopping_gives_up_on_a_thread_that_heeds_no_stop_once_told_to() -> None:
    never = threading.Event()
    thread = threading.Thread(target=never.wait, daemon=True)
    thread.start()
    stop_until_ended(lambda: None, [thread], deadline_after(0.05))
    assert thread.is_alive()
    never.set()
    thread.join()
