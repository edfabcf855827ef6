"""How fast logic is, and what it changes in front of CP-SAT.

    python benchmarks/logic.py                      # every section
    python benchmarks/logic.py --section taai --taai-every 1

Sections:
  shared    line-solvable puzzles among ../shared/puzzles (webpbn, jwilk, gecoder, ...):
            propagation alone, median per puzzle (target: under 20 ms)
  hundred   line-solvable 100x100 random pictures (target: under 0.5 s)
  taai      probing on the 25x25 tournament puzzles (target: under 0.2 s each), with
            every fixed cell checked against the stored solution
  engine    solve and count on puzzles/*.txt with CP-SAT alone and with logic in front
  lines     the compiled line solvers, microseconds a line by its length: the one the
            search uses at that length beside the one on rows of words, which fits any

Each time is the median of --repeat runs in this process; the engine section alternates
the two variants run by run, so machine noise hits both alike. Sections that need
../shared are skipped when it is absent.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from numba import njit
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import progress_bar, with_stored_solutions

from nonocp import answers, engine
from nonocp.errors import NonocpError
from nonocp.formats import load, load_all, puzzle_files
from nonocp.generate import random_puzzle
from nonocp.logic import Deduction, Rating, deduce, kernel
from nonocp.puzzle import Puzzle, runs

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "puzzles"
SECTIONS = ("shared", "hundred", "taai", "engine", "lines")
LINE_LENGTHS = (25, 62, 100, 126, 127, 150, 200, 300)
LINES_TIMED = 2000
HUNDRED_DENSITIES = (0.65, 0.7, 0.75)


def timed(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median seconds of ``repeat`` runs, and the last run's value."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def shared_sets(root: Path) -> dict[str, list[tuple[str, Puzzle]]]:
    """Every readable puzzle under each folder but the tournament sets, by folder."""
    sets: dict[str, list[tuple[str, Puzzle]]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "taai"):
        for path in puzzle_files(folder):
            try:
                puzzles = load_all(path)
            except NonocpError:
                continue
            sets.setdefault(folder.name, []).extend((path.name, p) for p in puzzles)
    return sets


def line_solving(root: Path, repeat: int, console: Console) -> None:
    """Propagation alone on every shared puzzle; times of those it completes."""
    sets = shared_sets(root)
    summary = Table(title="line-solvable puzzles in ../shared: propagation alone")
    for heading in ("set", "puzzles", "line-solvable", "median ms", "p90 ms", "max ms"):
        summary.add_column(heading, justify="left" if heading == "set" else "right")
    detail = Table(title="webpbn survey puzzles: rating and logic times")
    for heading in ("puzzle", "size", "rating", "propagation ms", "with probing ms", "left"):
        detail.add_column(heading, justify="left" if heading == "puzzle" else "right")
    everything: list[float] = []
    with progress_bar(console) as bar:
        for name, puzzles in sets.items():
            task = bar.add_task(name, total=len(puzzles))
            times = []
            for file, puzzle in puzzles:
                seconds, deduction = timed(partial(deduce, puzzle, probing=0), repeat)
                if deduction.rating is Rating.LINE and not deduction.contradiction:
                    times.append(seconds)
                if name == "webpbn":
                    label = puzzle.title or Path(file).stem
                    detail.add_row(label, puzzle.size, *_rated(puzzle, seconds, repeat))
                bar.advance(task)
            everything.extend(times)
            summary.add_row(name, str(len(puzzles)), str(len(times)), *_spread(times))
    summary.add_row(
        "all", str(sum(map(len, sets.values()))), str(len(everything)), *_spread(everything)
    )
    console.print(summary)
    console.print(detail)


def _rated(puzzle: Puzzle, line_seconds: float, repeat: int) -> list[str]:
    seconds, deduction = timed(lambda: deduce(puzzle), repeat)
    rating = "?" if deduction.rating is None else deduction.rating.value
    return [rating, ms(line_seconds), ms(seconds), str(deduction.unknown)]


def _spread(times: list[float]) -> list[str]:
    if not times:
        return ["-", "-", "-"]
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return [ms(statistics.median(ordered)), ms(p90), ms(ordered[-1])]


def hundred(repeat: int, console: Console) -> None:
    """The first line-solvable 100x100 random picture at a few densities."""
    table = Table(title="line-solvable 100x100 random pictures: propagation alone")
    for heading in ("density", "seed", "line solves that fixed cells", "ms"):
        table.add_column(heading, justify="right")
    for density in HUNDRED_DENSITIES:
        seed, puzzle, deduction = _first_line_solvable(density)
        seconds, _ = timed(partial(deduce, puzzle, probing=0), repeat)
        table.add_row(f"{density:g}", str(seed), str(len(deduction.steps)), ms(seconds))
    console.print(table)


def _first_line_solvable(density: float) -> tuple[int, Puzzle, Deduction]:
    seed = 1
    while True:
        puzzle = random_puzzle(100, 100, density, seed)
        deduction = deduce(puzzle, probing=0)
        if deduction.grid is not None:
            return seed, puzzle, deduction
        seed += 1


def taai(root: Path, every: int, repeat: int, console: Console) -> None:
    """Probing on every ``every``-th puzzle of each tournament set."""
    table = Table(title=f"probing on 25x25 tournament puzzles (every {every}th puzzle)")
    headings = ("set", "puzzles", "line", "probe", "search", "median ms", "p90 ms", "max ms")
    for heading in (*headings, "under 0.2 s", "wrong cells"):
        table.add_column(heading, justify="left" if heading == "set" else "right")
    files = puzzle_files(root / "taai")
    with progress_bar(console) as bar:
        for path in files:
            puzzles = with_stored_solutions(path, load_all(path))[::every]
            task = bar.add_task(path.stem, total=len(puzzles))
            times, ratings, wrong = [], Counter[str](), 0
            for puzzle in puzzles:
                seconds, deduction = timed(partial(deduce, puzzle), repeat)
                times.append(seconds)
                ratings[str(deduction.rating)] += 1
                wrong += _disagreements(deduction, puzzle)
                bar.advance(task)
            under = sum(t < 0.2 for t in times)
            table.add_row(
                path.stem,
                str(len(puzzles)),
                *(str(ratings[r]) for r in Rating),
                *_spread(times),
                f"{under}/{len(times)}",
                str(wrong),
            )
    console.print(table)


def _disagreements(deduction: Deduction, puzzle: Puzzle) -> int:
    """Cells logic fixed to a value other than the stored solution's (must be 0)."""
    if puzzle.solution is None:
        return 0
    if deduction.contradiction:
        return puzzle.width * puzzle.height
    return sum(
        known is not None and known != value
        for row, stored in zip(deduction.known, puzzle.solution, strict=True)
        for known, value in zip(row, stored, strict=True)
    )


def front_end(repeat: int, console: Console) -> None:
    """solve and count on the Gecode/R puzzles, CP-SAT alone and with logic first."""
    table = Table(title="engine on puzzles/*.txt: CP-SAT alone vs logic first (ms)")
    headings = ("puzzle", "size", "rating", "solve alone", "solve logic", "count alone")
    for heading in (*headings, "count logic", "verdict"):
        table.add_column(heading, justify="left" if heading == "puzzle" else "right")
    totals = Counter[str]()
    for path in sorted((REPO / "puzzles").glob("*.txt")):
        puzzle = load(path)
        times: dict[str, list[float]] = {}
        last: dict[str, answers.Result | answers.Count] = {}  # with logic, as the CLI runs
        for _ in range(repeat):
            for logic in (False, True):
                for kind, run in (("solve", engine.solve), ("count", engine.count)):
                    started = time.perf_counter()
                    last[kind] = run(puzzle, logic=logic)
                    key = f"{kind} {'logic' if logic else 'alone'}"
                    times.setdefault(key, []).append(time.perf_counter() - started)
        medians = {key: statistics.median(values) for key, values in times.items()}
        totals.update(medians)
        rating = deduce(puzzle).rating
        solved, counted = last["solve"], last["count"]
        assert isinstance(solved, answers.Result) and isinstance(counted, answers.Count)
        order = ("solve alone", "solve logic", "count alone", "count logic")
        table.add_row(
            path.stem,
            puzzle.size,
            str(rating),
            *(ms(medians[k]) for k in order),
            f"{solved.verdict}, {counted.text}",
        )
    order = ("solve alone", "solve logic", "count alone", "count logic")
    table.add_row("total", "", "", *(ms(totals[k]) for k in order), "")
    console.print(table)


def compiled_lines(repeat: int, console: Console) -> None:
    """Each compiled line solver on random lines of each length, partly known as in a
    search: microseconds a line, the median of ``repeat`` passes over the same lines."""
    table = Table(title=f"compiled line solvers: µs a line ({LINES_TIMED} random lines each)")
    for heading in ("cells", "the search's solver", "µs", "on rows of words µs", "ratio"):
        table.add_column(heading, justify="left" if "solver" in heading else "right")
    for length in LINE_LENGTHS:
        lines = _partly_known_lines(length)
        solver = "words" if length <= kernel.WORD else "pairs" if length <= kernel.PAIR else "rows"
        searched = _line_microseconds(kernel._solve_line, lines, repeat)
        rows = _line_microseconds(kernel._by_word_rows, lines, repeat)
        table.add_row(
            str(length), solver, f"{searched:.2f}", f"{rows:.2f}", f"{rows / searched:.2f}"
        )
    console.print(table)


def _partly_known_lines(length: int) -> tuple[Puzzle, list[list[int | None]]]:
    """``LINES_TIMED`` random lines of ``length`` cells as the rows of one puzzle, each
    with a random share of its cells known: the clues and the known cells."""
    rng = random.Random(length)
    clues, known = [], []
    for _ in range(LINES_TIMED):
        line = [int(rng.random() < 0.5) for _ in range(length)]
        kept = rng.random()
        clues.append(runs(line))
        known.append([v if rng.random() < kept else None for v in line])
    return Puzzle(rows=tuple(clues), columns=((),) * length), known


def _line_microseconds(
    solve: Callable[..., int], lines: tuple[Puzzle, list[list[int | None]]], repeat: int
) -> float:
    puzzle, known = lines
    arrays = kernel.arrays(puzzle)
    work = kernel.workspace(puzzle.height, puzzle.width, arrays[3])
    start = kernel.cells_of(puzzle, known)
    grid = start.copy()
    _solve_each_row(solve, grid, arrays, work)  # compiles
    times = []
    for _ in range(repeat):
        grid[:] = start
        started = time.perf_counter()
        _solve_each_row(solve, grid, arrays, work)
        times.append(time.perf_counter() - started)
    return statistics.median(times) / puzzle.height * 1e6


@njit
def _solve_each_row(solve: Callable[..., int], grid: Any, arrays: Any, work: Any) -> None:
    for line in range(arrays[0]):
        solve(grid, arrays, work, line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", choices=SECTIONS, action="append", help="run only these")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (median)")
    parser.add_argument("--taai-every", type=int, default=10, help="probe every Nth puzzle")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared puzzle folder")
    args = parser.parse_args()
    console = Console()
    sections = args.section or SECTIONS
    needs_shared = {"shared", "taai"} & set(sections)
    if needs_shared and not args.shared.is_dir():
        console.print(f"skipping {', '.join(sorted(needs_shared))}: {args.shared} not found")
    if "shared" in sections and args.shared.is_dir():
        line_solving(args.shared, args.repeat, console)
    if "hundred" in sections:
        hundred(args.repeat, console)
    if "taai" in sections and args.shared.is_dir():
        taai(args.shared, args.taai_every, args.repeat, console)
    if "engine" in sections:
        front_end(args.repeat, console)
    if "lines" in sections:
        compiled_lines(max(args.repeat, 5), console)


if __name__ == "__main__":
    main()
