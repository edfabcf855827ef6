"""Every model and engine agrees: block placements, known counts, brute force, verdicts.

Logic is turned off wherever the point is the model itself (with logic on, most puzzles
never reach a model); the full pipeline is checked once per backend as well.
"""

from __future__ import annotations

import itertools
import threading
import time
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp import load, mip
from nonocp.answers import Halt, Status, Uniqueness, one_by_one
from nonocp.backends import Backend, backend
from nonocp.blocks import place
from nonocp.clock import OutOfTime
from nonocp.cpsat import enumerate_solutions
from nonocp.engine import count as cpsat_count
from nonocp.errors import NonocpError
from nonocp.models import CellModel, ModelBuilder, ModelName, builder, cell_model
from nonocp.puzzle import Clue, Grid, Known, Puzzle, columns_of, runs

from bruteforce import lines_with_runs
from conftest import PUZZLES, drained, puzzle_of, random_grids

KNOWN_COUNTS = {path.stem: 1 for path in PUZZLES.glob("*.txt")} | {"nonunique": 43}
SLOW_FOR_THE_MIP = {"castle", "difficult", "p200"}
"""Without logic SCIP needs 5 s (difficult) to over a minute (p200) on these: skipped."""

BACKENDS = {
    **{f"cpsat/{name}": backend("cpsat", name) for name in ModelName},
    "mip": backend("mip"),
}


def brute_force_solutions(puzzle: Puzzle) -> set[Grid]:
    """Every solution: rows chosen one at a time from their candidate lines while every
    column stays a prefix of one of its own (``all_solutions`` is too slow at 6x6)."""
    prefixes = [
        {
            line[:depth]
            for line in lines_with_runs(c, puzzle.height)
            for depth in range(1, len(line) + 1)
        }
        for c in puzzle.columns
    ]
    found: set[Grid] = set()

    def extend(rows: tuple[tuple[int, ...], ...]) -> None:
        if len(rows) == puzzle.height:
            found.add(rows)
            return
        for row in lines_with_runs(puzzle.rows[len(rows)], puzzle.width):
            grown = (*rows, row)
            if all(column in prefixes[c] for c, column in enumerate(columns_of(grown))):
                extend(grown)

    extend(())
    return found


def expected_verdict(solutions: int) -> Uniqueness:
    return {0: Uniqueness.NONE, 1: Uniqueness.UNIQUE}.get(solutions, Uniqueness.MULTIPLE)


@st.composite
def lines_with_known_cells(draw: st.DrawFn) -> tuple[Clue, list[int | None]]:
    """A clue and a partly known line: often the clue of a random line, sometimes unrelated
    cells, so that contradictions occur too."""
    length = draw(st.integers(1, 9))
    picture = draw(st.lists(st.integers(0, 1), min_size=length, max_size=length))
    other = draw(st.lists(st.integers(0, 1), min_size=length, max_size=length))
    known = [
        draw(st.sampled_from((None, None, v))) for v in draw(st.sampled_from((picture, other)))
    ]
    return runs(picture), known


@settings(max_examples=400, deadline=None)
@given(lines_with_known_cells())
def test_placements_are_exactly_the_starts_of_consistent_lines(
    case: tuple[Clue, list[int | None]],
) -> None:
    c, known = case
    starts: list[set[int]] = [set() for _ in c]
    for line in lines_with_runs(c, len(known)):
        if all(k is None or k == v for k, v in zip(known, line, strict=True)):
            first_cells = [i for i, v in enumerate(line) if v and (i == 0 or not line[i - 1])]
            for block, cell in enumerate(first_cells):
                starts[block].add(cell)
    assert place(c, known).starts == tuple(tuple(sorted(s)) for s in starts)


def test_an_unknown_line_gives_each_block_its_whole_window() -> None:
    # 3,2 in 10 cells: block 1 from 0 (leftmost) to 4 (rightmost), block 2 from 4 to 8.
    assert place((3, 2), [None] * 10).starts == ((0, 1, 2, 3, 4), (4, 5, 6, 7, 8))


def test_order_cliques_exclude_exactly_the_clashing_pairs() -> None:
    placed = place((2, 1), [None] * 5)
    clashing = {
        frozenset({(0, a), (1, b)}) for a, b in itertools.product(*placed.starts) if b <= a + 2
    }
    covered = {
        frozenset(pair)
        for clique in placed.conflicts()
        for pair in itertools.combinations(clique, 2)
        if {pair[0][0], pair[1][0]} == {0, 1}
    }
    assert covered == clashing


@pytest.mark.parametrize("label", sorted(BACKENDS))
@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_known_counts_without_logic(label: str, name: str) -> None:
    if label == "mip" and name in SLOW_FOR_THE_MIP:
        pytest.skip("too slow for SCIP without logic; covered with logic below")
    total = BACKENDS[label].count(load(PUZZLES / f"{name}.txt"), logic=False)
    assert (total.count, total.exact) == (KNOWN_COUNTS[name], True)


@pytest.mark.parametrize("label", sorted(BACKENDS))
def test_known_counts_and_verdicts_with_logic(label: str) -> None:
    chosen = BACKENDS[label]
    for name, expected in KNOWN_COUNTS.items():
        puzzle = load(PUZZLES / f"{name}.txt")
        assert chosen.count(puzzle).count == expected, name
        assert chosen.solve(puzzle).uniqueness is expected_verdict(expected), name


@st.composite
def random_puzzles(draw: st.DrawFn) -> Puzzle:
    """Mostly the puzzle of a random picture; sometimes its rows with another picture's
    columns (same filled total), which often has no solution at all."""
    grid = draw(random_grids(max_side=6))
    puzzle = puzzle_of(grid)
    if draw(st.booleans()):
        return puzzle
    cells = sorted(v for row in grid for v in row)
    shuffled = draw(st.permutations(cells))
    width = len(grid[0])
    other = puzzle_of([shuffled[r * width : (r + 1) * width] for r in range(len(grid))])
    return Puzzle(rows=puzzle.rows, columns=other.columns)


def agrees(chosen: Backend, puzzle: Puzzle, expected: set[Grid]) -> None:
    assert set(chosen.solutions(puzzle, logic=False)) == expected
    result = chosen.solve(puzzle, logic=False)
    assert result.uniqueness is expected_verdict(len(expected))
    assert result.grid is None or result.grid in expected


@settings(max_examples=250, deadline=None)
@given(random_puzzles())
def test_every_backend_agrees_with_brute_force(puzzle: Puzzle) -> None:
    expected = brute_force_solutions(puzzle)
    for chosen in BACKENDS.values():
        agrees(chosen, puzzle, expected)


@st.composite
def puzzles_with_known_cells(draw: st.DrawFn) -> tuple[Puzzle, Known]:
    """A random puzzle and some cells revealed from a random picture (its own or not)."""
    grid = draw(random_grids(max_side=5))
    other = draw(st.permutations([v for row in grid for v in row]))
    width = len(grid[0])
    source = draw(
        st.sampled_from((grid, [other[r : r + width] for r in range(0, len(other), width)]))
    )
    known = [[draw(st.sampled_from((None, None, v))) for v in row] for row in source]
    return puzzle_of(grid), known


def matches(known: Known, grid: Grid) -> bool:
    cells = zip(itertools.chain(*known), itertools.chain(*grid), strict=True)
    return all(k in (None, v) for k, v in cells)


def mip_solutions(puzzle: Puzzle, known: Known) -> set[Grid]:
    model = mip.build(puzzle, known)
    search = partial(model.search, puzzle, None, Halt())
    grids, ending = drained(one_by_one(search, model.forbid, None))
    assert ending == (True, None) and len(grids) == len(set(grids))
    return set(grids)


def over(build: ModelBuilder, known: Known) -> ModelBuilder:
    """``build`` over the given known cells, whatever cells the engine passes (none,
    with logic off)."""

    def build_over_known(
        puzzle: Puzzle, _: Known | None = None, deadline: float | None = None
    ) -> CellModel:
        return build(puzzle, known, deadline)

    return build_over_known


@settings(max_examples=150, deadline=None)
@given(puzzles_with_known_cells())
def test_known_cells_are_honoured_by_every_model(case: tuple[Puzzle, Known]) -> None:
    puzzle, known = case
    expected = {grid for grid in brute_force_solutions(puzzle) if matches(known, grid)}
    for name in ModelName:
        total = cpsat_count(puzzle, build=over(builder(name), known), logic=False)
        assert (total.count, total.exact) == (len(expected), True), name
    assert mip_solutions(puzzle, known) == expected


def test_mip_time_limit_is_unknown_not_a_verdict() -> None:
    result = mip.solve(load(PUZZLES / "p200.txt"), time_limit=0.5, logic=False)
    assert (result.status, result.uniqueness, result.grid) == (
        Status.UNKNOWN,
        Uniqueness.UNKNOWN,
        None,
    )


@pytest.mark.parametrize("name", [*ModelName, "mip"])
def test_no_model_is_built_past_its_deadline(name: str) -> None:
    """Models are built in Python, line by line: before the builders read the clock, a
    random 200x200 puzzle's block-start model took 18 s to build under a 2 s limit."""
    build = mip.build if name == "mip" else builder(name)
    with pytest.raises(OutOfTime):
        build(load(PUZZLES / "p200.txt"), None, time.perf_counter())


def test_no_cell_is_made_past_the_deadline() -> None:
    """Cells are made row by row within it: nine million of them took 30 s and 3.7 GB."""
    with pytest.raises(OutOfTime):
        cell_model(3000, 3000, None, time.perf_counter())


def test_an_enumeration_out_of_time_while_building_ends_by_the_time_limit() -> None:
    puzzle = load(PUZZLES / "p200.txt")
    passed = time.perf_counter()
    for enumeration in (
        enumerate_solutions(puzzle, None, passed, None, builder("blocks")),
        mip.Enumeration(puzzle, time_limit=0.0, logic=False)._the_rest(None, passed, ()),
    ):
        with pytest.raises(StopIteration) as ended:
            next(enumeration)
        assert ended.value.value == (False, "time limit")


def test_a_halted_mip_solve_ends_at_once_proving_nothing() -> None:
    """SCIP, interrupted, ends abnormally: no solver bug, and no verdict. Without logic it
    takes over a minute on p200."""
    puzzle = load(PUZZLES / "p200.txt")
    model = mip.build(puzzle)
    halt = Halt()
    searched: list[object] = []
    solving = threading.Thread(target=lambda: searched.append(model.search(puzzle, None, halt)))
    solving.start()
    time.sleep(1)
    halt.halt()
    solving.join(10)
    assert searched == [None]
    assert model.search(puzzle, None, halt) is None  # a later solve does not start


def test_mip_count_limit_says_at_least() -> None:
    total = mip.count(load(PUZZLES / "nonunique.txt"), limit=5, logic=False)
    assert (total.count, total.exact, total.stopped_by) == (5, False, "limit")


def test_an_enumeration_s_options_are_named() -> None:
    """The MIP's enumeration is the engine's, less the model: given by place, its options
    would land one field off (a time limit taken for the model)."""
    with pytest.raises(TypeError):
        mip.Enumeration(load(PUZZLES / "heart.txt"), None, 5.0)  # type: ignore[call-arg]
    named = mip.Enumeration(load(PUZZLES / "heart.txt"), time_limit=5.0, logic=False)
    assert (named.time_limit, named.logic, named.build) == (5.0, False, None)


def test_mip_first_solution_without_uniqueness_proof() -> None:
    result = mip.solve(load(PUZZLES / "nonunique.txt"), logic=False, prove_unique=False)
    assert (result.status, result.uniqueness) == (Status.SOLVED, Uniqueness.UNCHECKED)


def test_mip_proves_no_solution() -> None:
    puzzle = Puzzle.from_clues([[2], [0], [2]], [[1, 1], [0], [1, 1]])
    result = mip.solve(puzzle, logic=False)
    assert (result.status, result.uniqueness) == (Status.NONE, Uniqueness.NONE)


def test_the_mip_takes_no_other_model() -> None:
    with pytest.raises(NonocpError, match="block-start model"):
        backend("mip", "automaton")


def test_unknown_model_and_engine_are_user_errors() -> None:
    with pytest.raises(NonocpError, match="known models: automaton, blocks, both"):
        backend("cpsat", "regex")
    with pytest.raises(NonocpError, match="known engines: cpsat, mip"):
        backend("gurobi")
