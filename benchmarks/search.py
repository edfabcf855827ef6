"""The depth-first search against CP-SAT on what logic leaves open.

    python benchmarks/search.py                          # TAAI samples, then the survey
    python benchmarks/search.py --every 10 --last 100 --time-limit 20
    python benchmarks/search.py --skip-survey --sets ../shared/puzzles/taai/taai2011.txt

TAAI sets, first mode, on a sample: every Nth puzzle (an unbiased sample of the set, so N
times its total estimates the whole set) and the last M (the sparse end, where logic fixes
nothing). Three ways, puzzle by puzzle in this process, so machine noise hits all alike:

  search   line logic, then the compiled search alone, with no budget but --search-limit
  engine   nonocp's default: line logic, the search within its probe budget, CP-SAT next
  cp-sat   line logic, the search probing its root only, then CP-SAT

Line logic runs once per puzzle and its time is added to each. "gave up" counts the puzzles on
which the engine's search ran out of budget and CP-SAT took over (the search is
deterministic, so that is where the search alone needed more probes than the budget).
Every solution is checked against the clues (not against the stored solution: a sparse
puzzle has many).

Survey puzzles (../shared/puzzles/webpbn), validate mode (up to two solutions): engine and
CP-SAT alone, with their verdicts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import announce_search, progress_bar

from nonocp import engine
from nonocp.formats import load, load_all, puzzle_files
from nonocp.logic import Deduction, deduce
from nonocp.logic.search import search
from nonocp.puzzle import Grid, Puzzle, satisfies

SHARED = Path(__file__).resolve().parents[2] / "shared" / "puzzles"
TAAI = [SHARED / "taai" / f"{name}.txt" for name in ("taai2011", "tcga2016", "icga2022")]
WAYS = ("search", "engine", "cp-sat")


@dataclass(frozen=True)
class Run:
    verdict: str
    seconds: float
    grid: Grid | None = None


def first_by_search(puzzle: Puzzle, deduction: Deduction, time_limit: float) -> tuple[Run, int]:
    """The search alone, and the probes it needed."""
    started = time.perf_counter()
    found = search(puzzle, deduction.known, deadline=started + time_limit)
    seconds = time.perf_counter() - started
    if found.solutions:
        return Run("solved", seconds, found.solutions[0]), found.probes
    return Run("none" if found.exhausted else "unknown", seconds), found.probes


def by_engine(
    puzzle: Puzzle, deduction: Deduction, time_limit: float, prove_unique: bool, probes: int
) -> Run:
    result = engine.solve_from(
        puzzle, deduction, time_limit, prove_unique=prove_unique, search_probes=probes
    )
    verdict = result.uniqueness.value if prove_unique else result.status.value
    return Run(verdict, result.seconds, result.grid)


def timed_deduce(puzzle: Puzzle) -> tuple[Deduction, float]:
    """Line logic, as the engine runs it before the compiled search (which probes)."""
    started = time.perf_counter()
    deduction = deduce(puzzle, probing=0)
    return deduction, time.perf_counter() - started


def sample(count: int, every: int, last: int) -> list[int]:
    return sorted(set(range(0, count, every)) | set(range(max(count - last, 0), count)))


def check(puzzle: Puzzle, run: Run) -> None:
    assert run.grid is None or satisfies(puzzle, run.grid), "a grid breaks the clues"


def taai_set(path: Path, args: argparse.Namespace, console: Console) -> Table:
    puzzles = load_all(path)
    chosen = sample(len(puzzles), args.every, args.last)
    times: dict[str, dict[int, float]] = {way: {} for way in WAYS}
    unsolved = dict.fromkeys(WAYS, 0)
    gave_up = 0
    with progress_bar(console) as bar:
        task = bar.add_task(path.stem, total=len(chosen))
        for index in chosen:
            puzzle = puzzles[index]
            deduction, logic = timed_deduce(puzzle)
            searched, probes = first_by_search(puzzle, deduction, args.search_limit)
            runs = {
                "search": searched,
                "engine": by_engine(puzzle, deduction, args.time_limit, False, args.probes),
                "cp-sat": by_engine(puzzle, deduction, args.time_limit, False, 0),
            }
            for way, run in runs.items():
                check(puzzle, run)
                times[way][index] = logic + run.seconds
                unsolved[way] += run.verdict != "solved" and deduction.grid is None
            gave_up += deduction.grid is None and (searched.grid is None or probes > args.probes)
            bar.advance(task)
    return taai_table(path.stem, chosen, times, unsolved, gave_up, args)


def taai_table(
    name: str,
    chosen: list[int],
    times: dict[str, dict[int, float]],
    unsolved: dict[str, int],
    gave_up: int,
    args: argparse.Namespace,
) -> Table:
    spread = [i for i in chosen if i % args.every == 0]
    tail = [i for i in chosen if i >= max(chosen) + 1 - args.last]
    table = Table(title=f"{name}: first mode, seconds including logic")
    headings = ("way", "unsolved", "sample s", "median", "max", "tail s", "median", "set s")
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "way" else "right")
    for way in WAYS:
        spread_times = [times[way][i] for i in spread]
        tail_times = [times[way][i] for i in tail]
        table.add_row(
            way,
            str(unsolved[way]),
            f"{sum(spread_times):.2f}",
            f"{statistics.median(spread_times):.3f}",
            f"{max(spread_times):.2f}",
            f"{sum(tail_times):.2f}",
            f"{statistics.median(tail_times):.3f}",
            f"{sum(spread_times) * args.every:.0f}",
        )
    table.caption = (
        f"sample: every {args.every}th puzzle; tail: the last {args.last}; set: estimated "
        f"total for the whole set ({args.every} x sample). The engine's search gave up "
        f"(CP-SAT took over) on {gave_up} of {len(chosen)}."
    )
    return table


def survey(args: argparse.Namespace, console: Console) -> Table:
    files = puzzle_files(SHARED / "webpbn")
    table = Table(title=f"survey puzzles, validate mode, time limit {args.time_limit:g} s")
    for heading in ("puzzle", "size", "logic s", "engine", "s", "cp-sat", "s", "ratio"):
        table.add_column(heading, justify="right" if heading.endswith("s") else "left")
    with progress_bar(console) as bar:
        task = bar.add_task("survey", total=len(files))
        for path in files:
            puzzle = load(path)
            deduction, logic = timed_deduce(puzzle)
            ours = by_engine(puzzle, deduction, args.time_limit, True, args.probes)
            theirs = by_engine(puzzle, deduction, args.time_limit, True, 0)
            for run in (ours, theirs):
                check(puzzle, run)
            table.add_row(
                path.stem,
                puzzle.size,
                f"{logic:.3f}",
                ours.verdict,
                f"{logic + ours.seconds:.3f}",
                theirs.verdict,
                f"{logic + theirs.seconds:.3f}",
                f"{(logic + theirs.seconds) / (logic + ours.seconds):.1f}x",
            )
            bar.advance(task)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", type=Path, default=TAAI, help="TAAI set files")
    parser.add_argument("--every", type=int, default=10, help="sample every Nth puzzle")
    parser.add_argument("--last", type=int, default=100, help="and the last M puzzles")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument(
        "--search-limit", type=float, default=10.0, help="seconds per puzzle, search alone"
    )
    parser.add_argument("--probes", type=int, default=engine.SEARCH_PROBES, help="search budget")
    parser.add_argument("--skip-taai", action="store_true")
    parser.add_argument("--skip-survey", action="store_true")
    args = parser.parse_args()

    console = Console()
    if not SHARED.is_dir():
        console.print(f"[yellow]skipping: {SHARED} not found[/]")
        return
    announce_search(console)
    sections: list[Callable[[], Table]] = []
    if not args.skip_taai:
        sections += [partial(taai_set, path, args, console) for path in args.sets]
    if not args.skip_survey:
        sections.append(lambda: survey(args, console))
    for section in sections:
        console.print(section())


if __name__ == "__main__":
    main()
