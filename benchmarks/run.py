"""Benchmark nonocp on puzzle sets, optionally side by side with the plain CP-SAT model.

    python benchmarks/run.py ../shared/puzzles/webpbn --mode validate --baseline
    python benchmarks/run.py ../shared/puzzles/taai/taai2011.txt --mode first
    python benchmarks/run.py random:30x30:0.5:seeds=1-200 --mode validate
    python benchmarks/run.py random:25x25:0.5-0.35:seeds=100000-100999 --mode first
    python benchmarks/run.py random:100x100:0.5:seeds=1-20 --mode first \
        --versus 'path/to/nonosolve -n 1 --timeout {limit} {file}'
    python benchmarks/run.py ../shared/puzzles/webpbn --mode validate \
        --versus 'path/to/nonosolve -n 2 --timeout {limit} {file}'

A set is a puzzle file (one or many puzzles), a folder of puzzle files, or a generator
spec ``random:WxH:DENSITY:seeds=A-B``, where DENSITY may fall from one value to another
over the seeds, as through a tournament set (``0.5-0.35``). Modes: ``validate`` (up to
two solutions: the survey's mode), ``first`` (first solution: the tournament mode),
``count``.

Each solver runs in its own worker process, so start-up is not counted, a runaway solve
can be killed, and peak memory is per solver and set. With ``--baseline`` the two workers
take turns puzzle by puzzle, so machine noise hits both alike; the ratio columns are the
other solver's time over nonocp's. ``--versus`` adds another solver's program in the same
turns, one process per puzzle, timed whole, its grid checked against the clues
(``external``), in validate mode its word on uniqueness set beside nonocp's proven
verdict (every puzzle where they differ is named). After the summary, a table counts
the puzzles each solver finished within 0.1, 1, 5, 10, 30, 60 ... seconds, up to the
time limit.
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

import external

# The engine imports OR-tools, PySAT and the compiled search only when line logic leaves
# work for them; importing them here keeps that one-off cost out of every timed solve (the
# other benchmarks import this module). Each nonocp worker also loads the compiled code
# before its first puzzle (``nonocp.logic.search.load``).
import nonocp.cpsat
import nonocp.logic.kernel
import nonocp.sat  # noqa: F401
from nonocp import formats
from nonocp.errors import NonocpError
from nonocp.formats import attach_solutions, load_all
from nonocp.generate import parse_size, random_puzzle
from nonocp.logic.search import load
from nonocp.pool import end_workers
from nonocp.puzzle import Grid, Puzzle, satisfies

MODES = ("validate", "first", "count")
GRACE = 30.0
"""Seconds a worker may overrun the time limit before it is killed."""


@dataclass(frozen=True)
class Outcome:
    verdict: str
    seconds: float
    matches_stored: bool | None = None


@dataclass(frozen=True)
class Set:
    name: str
    puzzles: list[tuple[str, Puzzle]]


Row = tuple[str, Puzzle, dict[str, Outcome]]
"""One puzzle's name, the puzzle, and each solver's outcome on it."""
SetResult = tuple[Set, list[Row], dict[str, float]]
"""A set, its rows, and each solver's peak memory in MiB."""
Run = Callable[[Puzzle, str, float], Outcome]


def load_set(spec: str) -> Set:
    if spec.startswith("random:"):
        return random_set(spec)
    path = Path(spec)
    if path.is_dir():
        files = formats.puzzle_files(path)
        return Set(path.name, [(p.name, q) for p in files for q in readable(p)])
    found = with_stored_solutions(path, load_all(path))
    if len(found) == 1:
        return Set(path.name, [(path.name, found[0])])
    return Set(path.name, [(formats.label(p, i), p) for i, p in enumerate(found, start=1)])


def readable(path: Path) -> list[Puzzle]:
    """The puzzles of one file of a folder, or none when it cannot be read: the file is
    named with the error's line and column and skipped, so one bad file in a folder does
    not end a benchmark of the rest (jwilk's set has one with trailing lines)."""
    try:
        return load_all(path)
    except NonocpError as error:
        print(f"skipping {error}", file=sys.stderr)
        return []


def solution_file(path: Path) -> Path:
    """Where a tournament set keeps its solutions: ``set.txt`` beside ``set.solution.txt``."""
    return path.with_name(f"{path.stem}.solution{path.suffix}")


def with_stored_solutions(path: Path, puzzles: list[Puzzle]) -> list[Puzzle]:
    companion = solution_file(path)
    return attach_solutions(puzzles, load_all(companion)) if companion.exists() else puzzles


def random_set(spec: str) -> Set:
    """``random:WxH:DENSITY:seeds=A-B``; a density ``D1-D2`` goes from D1 at the first
    seed to D2 at the last in equal steps, as through a tournament set (0.5-0.35)."""
    try:
        _, size, density, seeds = spec.split(":")
        first, _, last = seeds.removeprefix("seeds=").partition("-")
        width, height = parse_size(size)
        numbers = range(int(first), int(last or first) + 1)
        puzzles = [
            random_puzzle(width, height, d, s)
            for d, s in zip(densities(density, len(numbers)), numbers, strict=True)
        ]
    except ValueError as error:
        raise SystemExit(
            f"bad generator spec {spec!r} ({error}); want random:WxH:D:seeds=A-B"
        ) from None
    return Set(spec, [(f"seed {s}", p) for s, p in zip(numbers, puzzles, strict=True)])


def densities(text: str, count: int) -> list[float]:
    """``count`` densities: ``D`` each time, or ``D1-D2`` in equal steps from D1 to D2."""
    start, _, end = text.partition("-")
    low, high = float(start), float(end or start)
    return [round(low + (high - low) * i / max(count - 1, 1), 4) for i in range(count)]


def run_nonocp(puzzle: Puzzle, mode: str, time_limit: float) -> Outcome:
    import nonocp.engine as engine

    started = time.perf_counter()
    if mode == "count":
        total = engine.count(puzzle, time_limit=time_limit)
        verdict = str(total.count) if total.exact else f">={total.count}"
        return Outcome(verdict, time.perf_counter() - started)
    result = engine.solve(puzzle, time_limit=time_limit, prove_unique=mode == "validate")
    elapsed = time.perf_counter() - started
    verdict = result.uniqueness.value if mode == "validate" else result.status.value
    return Outcome(verdict, elapsed, stored_match(puzzle, result.grid))


def run_baseline(puzzle: Puzzle, mode: str, time_limit: float) -> Outcome:
    import baseline

    started = time.perf_counter()
    verdict, grid = baseline.run(puzzle, mode, time_limit)
    return Outcome(verdict, time.perf_counter() - started, stored_match(puzzle, grid))


STORED_CAPTION = (
    "Every grid found satisfies its clues (checked). = set's solution: those equal to the "
    "solution the set carries (a tournament file's, a generated picture); a puzzle with "
    "several solutions may be solved by another."
)


def carries_solutions(s: Set) -> bool:
    return any(puzzle.solution is not None for _, puzzle in s.puzzles)


def stored_match(puzzle: Puzzle, grid: Grid | None) -> bool | None:
    """Whether a found grid is the solution the set carries (None: nothing to compare)."""
    if grid is None or puzzle.solution is None:
        return None
    assert satisfies(puzzle, grid), "a solver returned a grid that breaks the clues"
    return grid == puzzle.solution


def announce_search(console: Console) -> None:
    """Load the compiled search before anything is timed, saying how long that took."""
    console.print(f"compiled search ready in {load():.1f} s, not counted in any puzzle")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Worker:
    """One solver in its own process; replaced when a run overruns and has to be killed."""

    def __init__(self, run: Run, warm_up: Callable[[], object] = time.perf_counter) -> None:
        self.run = run
        self.warm_up = warm_up
        self.peak = 0.0
        self._start()

    def _start(self) -> None:
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.pool.submit(self.warm_up).result()  # pay for start-up and loading up front

    def solve(self, puzzle: Puzzle, mode: str, time_limit: float) -> Outcome:
        future = self.pool.submit(self.run, puzzle, mode, time_limit)
        try:
            return future.result(timeout=time_limit + GRACE)
        except (FutureTimeout, BrokenProcessPool):
            self.restart()
            return Outcome("killed", time_limit + GRACE)

    def restart(self) -> None:
        self.peak = max(self.peak, self.measure_peak())
        end_workers(self.pool)
        self.pool.shutdown(cancel_futures=True)
        self._start()

    def measure_peak(self) -> float:
        try:
            return self.pool.submit(peak_mib).result(timeout=5)
        except Exception:
            return 0.0

    def close(self) -> float:
        """Shut the worker down; its peak memory in MiB."""
        self.peak = max(self.peak, self.measure_peak())
        self.pool.shutdown()
        return self.peak


class Versus:
    """Another solver's program (``external``), run once per puzzle, with the workers'
    ``solve`` and ``close`` so that it takes its turn beside them."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.label = external.label_of(command)
        self.peak = 0.0
        self.folder = tempfile.TemporaryDirectory(prefix="nonocp-versus-")

    def solve(self, puzzle: Puzzle, mode: str, time_limit: float) -> Outcome:
        file = Path(self.folder.name) / "puzzle.nin"
        file.write_text(formats.dumps([puzzle], "nin"))
        argv = external.command_line(self.command, file, time_limit)
        output, seconds, peak, killed = external.run_timed(argv, time_limit + GRACE)
        self.peak = max(self.peak, peak or 0.0)
        return Outcome("killed" if killed else external.verdict_of(output, puzzle, mode), seconds)

    def close(self) -> float:
        """Remove its puzzle file; the largest process's peak memory in MiB."""
        self.folder.cleanup()
        return self.peak


def progress_bar(console: Console) -> Progress:
    """The progress bar every benchmark shows while it runs: task, bar, count, time."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    return Progress(*columns, TimeElapsedColumn(), console=console, transient=True)


def benchmark(
    s: Set, mode: str, time_limit: float, with_baseline: bool, versus: list[str], console: Console
) -> tuple[list[Row], dict[str, float]]:
    solvers: dict[str, Worker | Versus] = {"nonocp": Worker(run_nonocp, load)}
    if with_baseline:
        solvers["baseline"] = Worker(run_baseline)
    for command in versus:
        other = Versus(command)
        solvers[other.label] = other
    rows: list[Row] = []
    with progress_bar(console) as progress:
        task = progress.add_task(s.name, total=len(s.puzzles))
        for name, puzzle in s.puzzles:
            outcomes = {label: w.solve(puzzle, mode, time_limit) for label, w in solvers.items()}
            rows.append((name, puzzle, outcomes))
            progress.advance(task)
    peaks = {label: w.close() for label, w in solvers.items()}
    return rows, peaks


FINISHED = {"unique", "multiple", "none", "solved"}


def finished(o: Outcome) -> bool:
    return o.verdict in FINISHED or o.verdict.isdigit()


def per_puzzle_table(s: Set, rows: list[Row], labels: list[str]) -> Table:
    table = Table(title=f"{s.name}: per puzzle")
    table.add_column("puzzle")
    table.add_column("size")
    for label in labels:
        table.add_column(f"{label} verdict")
        table.add_column(f"{label} s", justify="right")
    for label in labels[1:]:
        table.add_column(f"{label} / nonocp", justify="right")
    for name, puzzle, outcomes in rows:
        cells = [name, puzzle.size]
        for label in labels:
            cells += [outcomes[label].verdict, f"{outcomes[label].seconds:.3f}"]
        for label in labels[1:]:
            cells.append(f"{ratio(outcomes[label], outcomes['nonocp']):.1f}x")
        table.add_row(*cells)
    return table


def ratio(theirs: Outcome, ours: Outcome) -> float:
    return theirs.seconds / max(ours.seconds, 1e-6)


def summary_row(s: Set, label: str, rows: list[Row], peak: float) -> list[str]:
    outcomes = [o[label] for _, _, o in rows]
    times = [o.seconds for o in outcomes]
    stored = [o.matches_stored for o in outcomes if o.matches_stored is not None]
    return [
        s.name,
        label,
        f"{sum(map(finished, outcomes))}/{len(outcomes)}",
        f"{sum(times):.2f}",
        f"{statistics.median(times):.4f}",
        f"{max(times):.3f}",
        f"{peak:.0f}",
        f"{sum(stored)}/{len(stored)}" if stored else "-",
    ]


MARKS = (0.1, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)
"""The times the "finished within" table counts at, those under the time limit."""


def finished_within(outcomes: list[Outcome], marks: list[float]) -> list[int]:
    """How many of ``outcomes`` finished within each of ``marks`` seconds. Where a set's
    times are heavy-tailed (random 100x100 pictures), the tail's shape says what a
    median and a maximum hide: whether more time would have finished more."""
    done = [o.seconds for o in outcomes if finished(o)]
    return [sum(seconds <= mark for seconds in done) for mark in marks]


def within_table(results: list[SetResult], labels: list[str], time_limit: float) -> Table:
    marks = [mark for mark in MARKS if mark < time_limit]
    table = Table(title="finished within")
    table.add_column("set")
    table.add_column("solver")
    for mark in marks:
        table.add_column(f"{mark:g} s", justify="right")
    table.add_column(f"{time_limit:g} s (limit)", justify="right")
    for s, rows, _ in results:
        for label in labels:
            outcomes = [o[label] for _, _, o in rows]
            counts = finished_within(outcomes, [*marks, math.inf])  # the last: all finished
            table.add_row(s.name, label, *map(str, counts))
    return table


def disagreements(rows: list[Row], labels: list[str]) -> list[str]:
    """Puzzles where two solvers that both finished reached different verdicts."""
    if len(labels) < 2:
        return []
    return [
        f"{name}: " + ", ".join(f"{label} {o[label].verdict}" for label in labels)
        for name, _, o in rows
        if all(finished(o[label]) for label in labels)
        and len({o[label].verdict for label in labels}) > 1
    ]


def write_csv(path: Path, results: list[SetResult], labels: list[str]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["set", "puzzle", "size", "solver", "verdict", "seconds", "stored_match"])
        for s, rows, _ in results:
            for name, puzzle, outcomes in rows:
                for label in labels:
                    o = outcomes[label]
                    writer.writerow(
                        [
                            s.name,
                            name,
                            puzzle.size,
                            label,
                            o.verdict,
                            f"{o.seconds:.6f}",
                            o.matches_stored,
                        ]
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="files, folders or random:WxH:D:seeds=A-B")
    parser.add_argument("--mode", choices=MODES, default="validate")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument("--baseline", action="store_true", help="also run the plain model")
    parser.add_argument(
        "--versus",
        action="append",
        default=[],
        metavar="COMMAND",
        help="also run another solver's program, once per puzzle, in first or validate "
        "mode: {file} stands for the puzzle (a .nin file), {limit} for the time limit",
    )
    parser.add_argument("--per-puzzle", action="store_true", help="print a row per puzzle")
    parser.add_argument("--csv", type=Path, help="write every result to this CSV file")
    args = parser.parse_args()
    programs = [external.program_of(command) for command in args.versus]
    others = [external.label_of(command) for command in args.versus]
    if args.versus and args.mode == "count":
        parser.error("--versus reads a grid and a claim of uniqueness, not a count")
    if len(set(others)) < len(others) or {"nonocp", "baseline"} & set(others):
        parser.error("each --versus program needs a name of its own")
    for program in programs:
        if shutil.which(program) is None:
            parser.error(f"--versus: no program {program!r}")

    console = Console(width=None if sys.stdout.isatty() else 160)
    announce_search(console)
    labels = ["nonocp", *(["baseline"] if args.baseline else []), *others]
    results: list[SetResult] = []
    for spec in args.sets:
        if not spec.startswith("random:") and not Path(spec).exists():
            console.print(f"[yellow]skipping {spec}: not found[/]")
            continue
        s = load_set(spec)
        rows, peaks = benchmark(s, args.mode, args.time_limit, args.baseline, args.versus, console)
        results.append((s, rows, peaks))
        if args.per_puzzle:
            console.print(per_puzzle_table(s, rows, labels))
        for line in disagreements(rows, labels):
            console.print(f"[red]verdicts differ[/] {line}")

    summary = Table(
        title=f"mode {args.mode}, time limit {args.time_limit:g} s per puzzle",
        caption=STORED_CAPTION if any(carries_solutions(s) for s, _, _ in results) else None,
    )
    for heading in (
        "set",
        "solver",
        "finished",
        "total s",
        "median s",
        "max s",
        "peak MiB",
        "= set's solution",
    ):
        summary.add_column(heading, justify="left" if heading in ("set", "solver") else "right")
    if len(labels) > 1:
        summary.add_column("/ nonocp, total", justify="right")
        summary.add_column("/ nonocp, median", justify="right")
    for s, rows, peaks in results:
        for label in labels:
            row = summary_row(s, label, rows, peaks[label])
            if len(labels) > 1:
                row += set_ratios(rows, label) if label != "nonocp" else ["", ""]
            summary.add_row(*row)
    console.print(summary)
    console.print(within_table(results, labels, args.time_limit))
    if args.csv:
        write_csv(args.csv, results, labels)


def set_ratios(rows: list[Row], label: str) -> list[str]:
    """How many times nonocp's time ``label`` took on the set, in all and per puzzle."""
    ours = sum(o["nonocp"].seconds for _, _, o in rows)
    theirs = sum(o[label].seconds for _, _, o in rows)
    per_puzzle = [ratio(o[label], o["nonocp"]) for _, _, o in rows]
    return [f"{theirs / max(ours, 1e-6):.1f}x", f"{statistics.median(per_puzzle):.1f}x"]


if __name__ == "__main__":
    main()
