"""What each side of the engine's race costs alone, and what each race would cost.

    python benchmarks/portfolio.py ../shared/puzzles/taai/taai2011.txt
    python benchmarks/portfolio.py ../shared/puzzles/taai/icga2022.txt --cap 20 --csv out.csv
    python benchmarks/portfolio.py random:100x100:0.5:seeds=301-400 --sides search,sweep --cap 60

First mode (one solution), the tournament mode. For each puzzle: line logic and the
compiled search within the engine's probe budget, timed together ("budget"). On the
puzzles that budget leaves open, each candidate for the race (or those --sides names)
runs alone from the probed root, up to --cap seconds:

  search   the race's search: no budget, beliefs refreshed at every node, probing
  sweep    the same search with line logic alone below the root, sweeping
           ``engine.SWEEP_LINES`` lines deep (the rival on random pictures)
  sat      Glucose on ``nonocp.sat``'s formula (the rival on other puzzles)
  lp0      CP-SAT with the engine's parameters (no LP: ``cpsat.LINEARIZATION`` = 0)
  lp1      the same with ``linearization_level`` 1

A race of two sides costs about the faster of the two (each runs on its own core), so the
table adds, per strategy, the budget time of every puzzle and the smaller side time of the
open ones; a side that hit the cap counts as the cap. Those rows are an optimistic
estimate: a change that sped one side up alone has slowed the real race (the README's
CP-SAT hint), so a race is settled by timing the engine itself, as run.py does.
Puzzles are shared out to --jobs worker processes, each timing one side at a time, so the
sides never compete for a core.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import load_sets, progress_bar

from nonocp import answers, cpsat, engine, sat
from nonocp.logic.search import Found, search
from nonocp.puzzle import Puzzle

Times = dict[str, float]
"""One puzzle's seconds: "budget", and each side's when the budget left it open."""


def budget(puzzle: Puzzle) -> tuple[Times, Found]:
    started = time.perf_counter()
    found, _ = engine.searched(
        puzzle, None, True, 1, engine.SEARCH_PROBES, engine.LARGE_SEARCH_PROBES
    )
    assert found is not None
    return {"budget": time.perf_counter() - started}, found


Side = Callable[[Puzzle, Found, float], float | None]
"""A candidate for the race: its seconds to a checked solution from the probed root
within the cap, or None."""


def by_search(probing: bool, sweep: int) -> Side:
    """The search as the engine's race runs it (``engine._by_search``)."""

    def side(puzzle: Puzzle, found: Found, cap: float) -> float | None:
        started = time.perf_counter()
        deadline = started + cap
        alone = search(
            puzzle, found.known, 1, deadline=deadline, dynamic=True, probing=probing, sweep=sweep
        )
        if not alone.solutions:
            return None
        answers.checked(puzzle, alone.solutions[0])
        return time.perf_counter() - started

    return side


def by_sat(puzzle: Puzzle, found: Found, cap: float) -> float | None:
    started = time.perf_counter()
    grid = sat.Solving(puzzle, found.known, started + cap, answers.Halt()).search()  # checked
    return time.perf_counter() - started if grid else None


def by_cpsat(linearization: int) -> Side:
    def side(puzzle: Puzzle, found: Found, cap: float) -> float | None:
        cpsat.LINEARIZATION = linearization
        started = time.perf_counter()
        solving = cpsat.Solving(puzzle, found.known, None, started + cap, answers.Halt())
        grid = solving.search()  # checked against the clues
        return time.perf_counter() - started if grid else None

    return side


SIDE_RUNS: dict[str, Side] = {
    "search": by_search(probing=True, sweep=0),
    "sweep": by_search(probing=False, sweep=engine.SWEEP_LINES),
    "sat": by_sat,
    "lp0": by_cpsat(0),
    "lp1": by_cpsat(1),
}
SIDES = tuple(SIDE_RUNS)


def timed(puzzle: Puzzle, cap: float, sides: tuple[str, ...]) -> Times:
    """The budget's time, and each side's (the cap where it found nothing) if it is open."""
    times, found = budget(puzzle)
    if found.solutions or found.exhausted:
        return times
    for side in sides:
        seconds = SIDE_RUNS[side](puzzle, found, cap)
        times[side] = cap if seconds is None else seconds
    return times


def warm_up() -> None:
    """Compile (or load) the search and import OR-tools before anything is timed."""
    from nonocp.generate import random_puzzle

    puzzle = random_puzzle(10, 10, 0.5, 1)
    search(puzzle, limit=1, probes=10)
    sat.Solving(puzzle, None, None, answers.Halt()).search()
    cpsat.Solving(puzzle, None, None, None, answers.Halt()).search()


STRATEGIES: dict[str, tuple[str, ...]] = {
    **{f"{side} alone": (side,) for side in SIDES},
    "race search | sat (engine)": ("search", "sat"),
    "race search | sweep (engine)": ("search", "sweep"),
    "race search | lp0": ("search", "lp0"),
    "race search | lp1": ("search", "lp1"),
    "race lp0 | lp1": ("lp0", "lp1"),
}
"""Each strategy's sides: a race of two costs about the faster of them. The engine races
search and sweep on random pictures (``engine._random_like``), search and sat elsewhere."""


def strategy_table(name: str, rows: list[Times], cap: float, sides: tuple[str, ...]) -> Table:
    open_rows = [t for t in rows if len(t) > 1]
    settled = sum(t["budget"] for t in rows)
    table = Table(
        title=f"{name}: {len(rows)} puzzles, {len(open_rows)} left open by the budget "
        f"(budget time, all puzzles: {settled:.1f} s)"
    )
    for column in ("strategy", "set total s", "open: median s", "open: max s", "at cap"):
        first = column == "strategy"
        table.add_column(column, justify="left" if first else "right", no_wrap=first)
    for label, needed in STRATEGIES.items():
        if not set(needed) <= set(sides):
            continue
        costs = [min(t[side] for side in needed) for t in open_rows] or [0.0]
        table.add_row(
            label,
            f"{settled + sum(costs):.1f}",
            f"{statistics.median(costs):.3f}",
            f"{max(costs):.2f}",
            str(sum(c >= cap for c in costs)),
        )
    return table


def write_csv(path: Path, names: list[str], rows: list[Times], sides: tuple[str, ...]) -> None:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["puzzle", "budget", *sides])
        for name, t in zip(names, rows, strict=True):
            writer.writerow([name, *(f"{t[k]:.6f}" if k in t else "" for k in ("budget", *sides))])


def side_names(text: str) -> tuple[str, ...]:
    """The sides a comma-separated --sides names, in the order given."""
    sides = tuple(text.split(","))
    unknown = [side for side in sides if side not in SIDE_RUNS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"no side {', '.join(unknown)}: choose from {', '.join(SIDES)}"
        )
    return sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set", help="a puzzle file, folder or random:WxH:D:seeds=A-B spec")
    parser.add_argument("--cap", type=float, default=20.0, help="seconds per side per puzzle")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--csv", type=Path, help="per-puzzle times")
    parser.add_argument(
        "--sides", type=side_names, default=SIDES, help=f"comma-separated, of {','.join(SIDES)}"
    )
    args = parser.parse_args()
    [chosen] = load_sets([args.set])  # a bad file or spec: one line, exit status 2
    names = [name for name, _ in chosen.puzzles]
    console = Console()
    with (
        ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool,
        progress_bar(console) as progress,
    ):
        task = progress.add_task(chosen.name, total=len(names))
        rows = []
        each = partial(timed, cap=args.cap, sides=args.sides)
        for times in pool.map(each, [p for _, p in chosen.puzzles]):
            rows.append(times)
            progress.advance(task)
    console.print(strategy_table(chosen.name, rows, args.cap, args.sides))
    if args.csv:
        write_csv(args.csv, names, rows, args.sides)


if __name__ == "__main__":
    main()
