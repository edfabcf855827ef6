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
over the seeds, as through a tournament set (``0.5-0.35``). A tournament file's
solutions (``set.solution.txt`` beside ``set.txt``, in a folder too) are compared with
the grids found. Modes: ``validate`` (up to two solutions: the survey's mode), ``first``
(first solution: the tournament mode), ``count``.

Every set is read before anything is timed: a file that cannot be read, or a bad spec,
ends the run at once in one line (exit status 2); a set not found, or without puzzles,
is skipped with a note, as is an unreadable file inside a folder. Ctrl-C prints the
tables (and writes the CSV) of the puzzles done so far and exits with status 130.

Each solver runs in its own worker process, so start-up is not counted, a runaway solve
can be killed, and peak memory is per solver and set, and in the CSV per puzzle. With
``--baseline`` the two workers take turns puzzle by puzzle, so machine noise hits both
alike; the ratio columns are the other solver's time over nonocp's. ``--versus`` adds
another solver's program in the same turns, one process per puzzle, timed whole, its
grid checked against the clues (``external``), in validate mode its word on uniqueness
set beside nonocp's proven verdict (every puzzle where they differ is named). After the
summary, a table counts the puzzles each solver finished within 0.1, 1, 5, 10, 30,
60 ... seconds, up to the time limit.
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NoReturn, overload

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

import external

from nonocp import formats
from nonocp.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED
from nonocp.clock import LONGEST
from nonocp.errors import NonocpError
from nonocp.formats import attach_solutions, load_all, name_of
from nonocp.generate import parse_size, random_puzzle
from nonocp.pool import end_workers, leave_interrupts_to_the_parent
from nonocp.puzzle import Grid, Puzzle, satisfies

MODES = ("validate", "first", "count")
GRACE = 30.0
"""Seconds a worker may overrun the time limit before it is killed."""


@dataclass(frozen=True)
class Outcome:
    """How a solver ended on a puzzle; ``peak`` is its process's largest resident memory
    in MiB while on that puzzle (what its imports and earlier puzzles left held counts
    too), None where that could not be measured."""

    verdict: str
    seconds: float
    matches_stored: bool | None = None
    peak: float | None = None


@dataclass(frozen=True)
class Set:
    """Puzzles benchmarked together, each with the name tables give it; ``spec`` is the
    set as the command line gave it."""

    name: str
    puzzles: Sequence[tuple[str, Puzzle]]
    spec: str = ""


Row = tuple[str, Puzzle, dict[str, Outcome]]
"""One puzzle's name, the puzzle, and each solver's outcome on it."""


@dataclass
class SetRun:
    """A set, the rows of the puzzles run so far, and each solver's peak memory in MiB."""

    set: Set
    rows: list[Row] = field(default_factory=list)
    peaks: dict[str, float] = field(default_factory=dict)


Run = Callable[[Puzzle, str, float], Outcome]


def fail(message: str) -> NoReturn:
    """A bad argument, file or spec: one line and exit status 2, before anything is timed."""
    print(f"run.py: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def note(message: str) -> None:
    print(message, file=sys.stderr)


def load_sets(specs: list[str]) -> list[Set]:
    """Every set named, read before anything is timed, so that a bad file ends the run at
    once rather than after the sets before it have run; a set not found or holding no
    puzzle is skipped with a note (the shared sets may be absent)."""
    sets = []
    for spec in specs:
        if not spec.startswith("random:") and not Path(spec).exists():
            note(f"skipping {spec}: not found")
            continue
        try:
            found = load_set(spec)
        except NonocpError as error:
            fail(str(error))
        if not found.puzzles:
            note(f"skipping {spec}: no puzzles")
            continue
        check_stored(found)
        sets.append(found)
    if not sets:
        fail("no puzzles to run")
    return named_apart(sets)


def load_set(spec: str) -> Set:
    if spec.startswith("random:"):
        return random_set(spec)
    path = Path(spec)
    if path.is_dir():
        return folder_set(spec, path)
    return Set(path.name, named(with_stored_solutions(path, load_all(path)), path.name), spec)


def folder_set(spec: str, folder: Path) -> Set:
    """A folder's puzzles, each named by its file's path within the folder (and its label
    there, where the file holds several), with any tournament file's solutions."""
    puzzles = []
    for path in formats.puzzle_files(folder):
        within = path.relative_to(folder).as_posix()
        puzzles += named(readable(path), within, prefix=f"{within} ")
    return Set(folder.name, puzzles, spec)


def named(puzzles: list[Puzzle], file: str, prefix: str = "") -> list[tuple[str, Puzzle]]:
    """A file's puzzles with the names tables give them: the file's, or, where it holds
    several, each one's label within it (title, ``$n`` or ``#position``)."""
    if len(puzzles) == 1:
        return [(file, puzzles[0])]
    return [(f"{prefix}{formats.label(p, i)}", p) for i, p in enumerate(puzzles, start=1)]


def readable(path: Path) -> list[Puzzle]:
    """The puzzles of one file of a folder, or none when it (or its solution file) cannot
    be read: the file is named with the error's line and column and skipped, so one bad
    file in a folder does not end a benchmark of the rest (jwilk's set has one with
    trailing lines)."""
    try:
        return with_stored_solutions(path, load_all(path))
    except NonocpError as error:
        note(f"skipping {error}")
        return []


def solution_file(path: Path) -> Path:
    """Where a tournament set keeps its solutions: ``set.txt`` beside ``set.solution.txt``."""
    return path.with_name(f"{path.stem}.solution{path.suffix}")


def with_stored_solutions(path: Path, puzzles: list[Puzzle]) -> list[Puzzle]:
    """A tournament file's puzzles with the solutions beside it, noting those it lacks."""
    companion = solution_file(path)
    if not companion.exists():
        return puzzles
    paired = attach_solutions(puzzles, load_all(companion), name_of(companion))
    if missing := sum(p.solution is None for p in paired):
        note(f"{companion}: no solution to compare with for {missing} of {len(paired)} puzzles")
    return paired


def check_stored(s: Set) -> None:
    """Note a stored grid that breaks its clues: no solver can match it, and that is the
    set's error, not theirs."""
    if isinstance(s.puzzles, Drawn):  # generated pictures, right by construction
        return
    for name, puzzle in s.puzzles:
        if puzzle.solution is not None and not satisfies(puzzle, puzzle.solution):
            note(f"{s.spec} {name}: the set's solution breaks the clues")


def named_apart(sets: list[Set]) -> list[Set]:
    """Sets that tables would name alike (``t40.txt`` from two folders) named as given."""
    names = Counter(s.name for s in sets)
    return [replace(s, name=s.spec) if names[s.name] > 1 else s for s in sets]


SPEC = re.compile(
    r"random:(?P<size>[^:]+):(?P<low>[0-9.]+)(?:-(?P<high>[0-9.]+))?"
    r":seeds=(?P<first>[0-9]+)(?:-(?P<last>[0-9]+))?"
)


def random_set(spec: str) -> Set:
    """``random:WxH:DENSITY:seeds=A-B``; a density ``D1-D2`` goes from D1 at the first
    seed to D2 at the last in equal steps, as through a tournament set (0.5-0.35)."""
    want = "want random:WxH:D:seeds=A-B, D from 0 to 1 (or D1-D2), seeds from 0, A <= B"
    parts = SPEC.fullmatch(spec)
    if parts is None:
        raise NonocpError(f"bad generator spec {spec!r}: {want}")
    try:
        width, height = parse_size(parts["size"])
        low, high = float(parts["low"]), float(parts["high"] or parts["low"])
    except ValueError as error:
        raise NonocpError(f"bad generator spec {spec!r} ({error}): {want}") from None
    first, last = int(parts["first"]), int(parts["last"] or parts["first"])
    if not (0 <= low <= 1 and 0 <= high <= 1 and first <= last):
        raise NonocpError(f"bad generator spec {spec!r}: {want}")
    return Set(spec, Drawn(width, height, low, high, range(first, last + 1)), spec)


class Drawn(Sequence[tuple[str, Puzzle]]):
    """A generator spec's puzzles, each drawn when reached: a long range of seeds costs
    nothing up front."""

    def __init__(self, width: int, height: int, low: float, high: float, seeds: range) -> None:
        self.width, self.height, self.low, self.high, self.seeds = width, height, low, high, seeds

    def __len__(self) -> int:
        return len(self.seeds)

    @overload
    def __getitem__(self, index: int) -> tuple[str, Puzzle]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, Puzzle]]: ...
    def __getitem__(self, index: int | slice) -> tuple[str, Puzzle] | list[tuple[str, Puzzle]]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        seed = self.seeds[index]
        density = self.density(seed - self.seeds.start)
        return f"seed {seed}", random_puzzle(self.width, self.height, density, seed)

    def density(self, step: int) -> float:
        """The density at the ``step``th seed, in equal steps from ``low`` to ``high``."""
        return round(self.low + (self.high - self.low) * step / max(len(self) - 1, 1), 4)


def ready_nonocp() -> float:
    """Load what nonocp's engine may need, so that no timed solve pays for it: OR-tools,
    PySAT and the compiled search (the engine imports them only when line logic leaves
    work for them). Seconds the compiled search took to load."""
    import nonocp.cpsat
    import nonocp.sat  # noqa: F401
    from nonocp.logic.search import load

    return load()


def ready_baseline() -> None:
    import baseline  # noqa: F401  (and OR-tools with it)


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
PEAK_CAPTION = "peak MiB: each solver's worker process at its largest, its imports included."
BOUND_CAPTION = (
    "A ratio marked >= is a least: the other solver did not finish (time limit, killed, no "
    "grid) puzzles nonocp finished; <= the reverse; ~ both. Ratios leave out the puzzles "
    "neither finished."
)


def stored_match(puzzle: Puzzle, grid: Grid | None) -> bool | None:
    """Whether a found grid is the solution the set carries (None: nothing to compare)."""
    if grid is None or puzzle.solution is None:
        return None
    assert satisfies(puzzle, grid), "a solver returned a grid that breaks the clues"
    return grid == puzzle.solution


def announce_search(console: Console) -> None:
    """Load the compiled search before anything is timed, saying how long that took."""
    console.print(f"compiled search ready in {ready_nonocp():.1f} s, not counted in any puzzle")


def peak_mib(pid: int) -> float:
    """A process's peak resident memory in MiB, read from outside, so also while it is busy
    (0 once it is gone, or where there is no ``/proc``)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    peak = next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")), "0")
    return int(peak) / 1024


def restart_peak(pid: int) -> bool:
    """Let a process's peak resident memory start again from what it holds now (Linux's
    ``clear_refs``), so that the next ``peak_mib`` is one puzzle's own, not the largest of
    every puzzle before it; False where that cannot be done."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


class Worker:
    """One solver in its own process; replaced when a run overruns and has to be killed,
    or when the process dies."""

    def __init__(self, run: Run, warm_up: Callable[[], object]) -> None:
        self.run = run
        self.warm_up = warm_up
        self.peak = 0.0
        self._start()

    def _start(self) -> None:
        spawn = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(
            1, mp_context=spawn, initializer=leave_interrupts_to_the_parent
        )
        try:
            self.pool.submit(self.warm_up).result()  # pay for start-up and loading up front
            self.pid = self.pool.submit(os.getpid).result()
            self.peak = max(self.peak, peak_mib(self.pid))  # before a puzzle restarts it
        except BaseException:  # Ctrl-C while it loads: no worker left behind to wait for
            self.abandon()
            raise

    def solve(self, puzzle: Puzzle, mode: str, time_limit: float) -> Outcome:
        measured = restart_peak(self.pid)
        started = time.perf_counter()
        future = self.pool.submit(self.run, puzzle, mode, time_limit)
        try:
            outcome = future.result(timeout=time_limit + GRACE)
        except FutureTimeout:
            outcome = Outcome("killed", time.perf_counter() - started)
        except BrokenProcessPool:  # its memory at the end is lost with it
            outcome = Outcome("died", time.perf_counter() - started)
        peak = peak_mib(self.pid)
        self.peak = max(self.peak, peak)
        outcome = replace(outcome, peak=peak if measured and peak else None)
        if outcome.verdict in ("killed", "died"):
            self.abandon()
            self._start()
        return outcome

    def close(self) -> float:
        """Shut the worker down; its peak memory in MiB."""
        self.pool.shutdown()
        return self.peak

    def abandon(self) -> float:
        """End the worker mid-task (a run killed, Ctrl-C); its peak memory so far in MiB."""
        end_workers(self.pool)
        self.pool.shutdown(cancel_futures=True)
        return self.peak


class Versus:
    """Another solver's program (``external``), run once per puzzle, with the workers'
    ``solve``, ``close`` and ``abandon`` so that it takes its turn beside them."""

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
        if killed:
            return Outcome("killed", seconds, peak=peak)
        verdict = external.verdict_of(output, puzzle, mode)
        grid = external.grid_in(output, puzzle) if verdict in FINISHED else None  # checked
        return Outcome(verdict, seconds, stored_match(puzzle, grid), peak)

    def close(self) -> float:
        """Remove its puzzle file; the largest process's peak memory in MiB."""
        self.folder.cleanup()
        return self.peak

    abandon = close  # ``external.run_timed`` has already ended a program interrupted


def progress_bar(console: Console) -> Progress:
    """The progress bar every benchmark shows while it runs: task, bar, count, time."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    return Progress(*columns, TimeElapsedColumn(), console=console, transient=True)


def start_solvers(with_baseline: bool, versus: list[str]) -> Iterator[tuple[str, Worker | Versus]]:
    yield "nonocp", Worker(run_nonocp, ready_nonocp)
    if with_baseline:
        yield "baseline", Worker(run_baseline, ready_baseline)
    for command in versus:
        other = Versus(command)
        yield other.label, other


def benchmark(
    set_run: SetRun,
    mode: str,
    time_limit: float,
    with_baseline: bool,
    versus: list[str],
    console: Console,
) -> None:
    """Run every solver on a set's puzzles in turn, filling ``set_run``'s rows as it goes and
    its peaks at the end, so that after Ctrl-C the puzzles run so far still count."""
    solvers: dict[str, Worker | Versus] = {}
    try:
        solvers.update(start_solvers(with_baseline, versus))
        with progress_bar(console) as progress:
            task = progress.add_task(set_run.set.name, total=len(set_run.set.puzzles))
            for name, puzzle in set_run.set.puzzles:
                outcomes = {
                    label: w.solve(puzzle, mode, time_limit) for label, w in solvers.items()
                }
                for label, outcome in outcomes.items():
                    if outcome.verdict == "died":
                        note(
                            f"{label}'s worker died on {set_run.set.name} {name} after "
                            f"{outcome.seconds:.1f} s; its memory then is not counted"
                        )
                set_run.rows.append((name, puzzle, outcomes))
                progress.advance(task)
    except KeyboardInterrupt:
        set_run.peaks = {label: w.abandon() for label, w in solvers.items()}
        raise
    set_run.peaks = {label: w.close() for label, w in solvers.items()}


FINISHED = {"unique", "multiple", "none", "solved"}


def finished(o: Outcome) -> bool:
    return o.verdict in FINISHED or o.verdict.isdigit()


def compares_stored(rows: list[Row]) -> bool:
    return any(o.matches_stored is not None for _, _, outcomes in rows for o in outcomes.values())


def per_puzzle_table(set_run: SetRun, labels: list[str]) -> Table:
    stored = compares_stored(set_run.rows)
    table = Table(title=f"{set_run.set.name}: per puzzle")
    table.add_column("puzzle")
    table.add_column("size")
    for label in labels:
        table.add_column(f"{label} verdict")
        table.add_column(f"{label} s", justify="right")
        if stored:
            table.add_column(f"{label} = set's")
    for label in labels[1:]:
        table.add_column(f"{label} / nonocp", justify="right")
    for name, puzzle, outcomes in set_run.rows:
        cells = [name, puzzle.size]
        for label in labels:
            o = outcomes[label]
            cells += [o.verdict, f"{o.seconds:.3f}"]
            if stored:
                cells.append({True: "yes", False: "no", None: ""}[o.matches_stored])
        for label in labels[1:]:
            cells.append(ratio_text([(outcomes[label], outcomes["nonocp"])]))
        table.add_row(*cells)
    return table


def bound_mark(pairs: list[tuple[Outcome, Outcome]]) -> str:
    """How a ratio over ``pairs`` (theirs, nonocp's) is a bound: ``>=`` where the other
    solver did not finish puzzles nonocp finished (its time there is a least), ``<=`` the
    reverse, ``~`` both, nothing where every puzzle was finished by both."""
    theirs_short = any(finished(ours) and not finished(theirs) for theirs, ours in pairs)
    ours_short = any(finished(theirs) and not finished(ours) for theirs, ours in pairs)
    return {(False, False): "", (True, False): ">=", (False, True): "<=", (True, True): "~"}[
        theirs_short, ours_short
    ]


def compared(pairs: list[tuple[Outcome, Outcome]]) -> list[tuple[Outcome, Outcome]]:
    """The pairs a ratio can speak of: those one side or the other finished."""
    return [(theirs, ours) for theirs, ours in pairs if finished(theirs) or finished(ours)]


def ratio_text(pairs: list[tuple[Outcome, Outcome]]) -> str:
    """The other solver's time over nonocp's on ``pairs`` (theirs, nonocp's), marked as a
    bound (``bound_mark``); ``-`` where neither finished any, or nonocp took no time."""
    counted = compared(pairs)
    ours = sum(o.seconds for _, o in counted)
    if ours <= 0:
        return "-"
    return f"{bound_mark(counted)}{sum(t.seconds for t, _ in counted) / ours:.1f}x"


def summary_row(set_run: SetRun, label: str) -> list[str]:
    outcomes = [o[label] for _, _, o in set_run.rows]
    times = [o.seconds for o in outcomes]
    stored = [o.matches_stored for o in outcomes if o.matches_stored is not None]
    peak = set_run.peaks.get(label, 0.0)
    return [
        set_run.set.name,
        label,
        f"{sum(map(finished, outcomes))}/{len(outcomes)}",
        f"{sum(times):.2f}",
        f"{statistics.median(times):.4f}",
        f"{max(times):.3f}",
        f"{peak:.0f}" if peak else "-",
        f"{sum(stored)}/{len(stored)}" if stored else "-",
    ]


def set_ratios(rows: list[Row], label: str) -> list[str]:
    """The other solver's time over nonocp's on a set: in all, and the median over its
    puzzles, each marked as a bound where one side did not finish."""
    counted = compared([(o[label], o["nonocp"]) for _, _, o in rows])
    each = [theirs.seconds / ours.seconds for theirs, ours in counted if ours.seconds > 0]
    if not each:
        return ["-", "-"]
    return [ratio_text(counted), f"{bound_mark(counted)}{statistics.median(each):.1f}x"]


def summary_table(runs: list[SetRun], labels: list[str], mode: str, time_limit: float) -> Table:
    rows = [row for set_run in runs for row in set_run.rows]
    pairs = [[(o[label], o["nonocp"])] for _, _, o in rows for label in labels[1:]]
    bounded = any(map(bound_mark, pairs))
    captions = [
        STORED_CAPTION if compares_stored(rows) else "",
        PEAK_CAPTION,
        BOUND_CAPTION if bounded else "",
    ]
    summary = Table(
        title=f"mode {mode}, time limit {time_limit:g} s per puzzle",
        caption=" ".join(caption for caption in captions if caption),
    )
    headings = ("set", "solver", "finished", "total s", "median s", "max s", "peak MiB")
    for heading in (*headings, "= set's solution"):
        summary.add_column(heading, justify="left" if heading in ("set", "solver") else "right")
    if len(labels) > 1:
        summary.add_column("/ nonocp, total", justify="right")
        summary.add_column("/ nonocp, median", justify="right")
    for set_run in runs:
        for label in labels:
            row = summary_row(set_run, label)
            if len(labels) > 1:
                row += set_ratios(set_run.rows, label) if label != "nonocp" else ["", ""]
            summary.add_row(*row)
    return summary


MARKS = (0.1, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)
"""The times the "finished within" table counts at, those under the time limit."""


def finished_within(outcomes: list[Outcome], marks: list[float]) -> list[int]:
    """How many of ``outcomes`` finished within each of ``marks`` seconds. Where a set's
    times are heavy-tailed (random 100x100 pictures), the tail's shape says what a
    median and a maximum hide: whether more time would have finished more."""
    done = [o.seconds for o in outcomes if finished(o)]
    return [sum(seconds <= mark for seconds in done) for mark in marks]


def within_table(runs: list[SetRun], labels: list[str], time_limit: float) -> Table:
    marks = [mark for mark in MARKS if mark < time_limit]
    table = Table(title="finished within")
    table.add_column("set")
    table.add_column("solver")
    for mark in marks:
        table.add_column(f"{mark:g} s", justify="right")
    table.add_column(f"{time_limit:g} s (limit)", justify="right")
    for set_run in runs:
        for label in labels:
            outcomes = [o[label] for _, _, o in set_run.rows]
            counts = finished_within(outcomes, [*marks, math.inf])  # the last: all finished
            table.add_row(set_run.set.name, label, *map(str, counts))
    return table


def disagreements(rows: list[Row], labels: list[str]) -> list[str]:
    """Puzzles where solvers that finished reached different verdicts (those that did not
    finish have nothing to disagree with)."""
    found = []
    for name, _, outcomes in rows:
        verdicts = {label: outcomes[label].verdict for label in labels if finished(outcomes[label])}
        if len(set(verdicts.values())) > 1:
            found.append(f"{name}: " + ", ".join(f"{k} {v}" for k, v in verdicts.items()))
    return found


def write_csv(path: Path, runs: list[SetRun], labels: list[str]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["set", "puzzle", "size", "solver", "verdict", "seconds", "stored_match", "peak_mib"]
        )
        for set_run in runs:
            for name, puzzle, outcomes in set_run.rows:
                for label in labels:
                    o = outcomes[label]
                    writer.writerow(
                        [
                            set_run.set.name,
                            name,
                            puzzle.size,
                            label,
                            o.verdict,
                            f"{o.seconds:.6f}",
                            o.matches_stored,
                            "" if o.peak is None else f"{o.peak:.1f}",
                        ]
                    )


def seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= LONGEST:  # NaN too
        raise argparse.ArgumentTypeError(
            f"{text} is not a number of seconds above 0 and at most {LONGEST:,.0f}"
        )
    return value


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="files, folders or random:WxH:D:seeds=A-B")
    parser.add_argument("--mode", choices=MODES, default="validate")
    parser.add_argument("--time-limit", type=seconds, default=60.0, help="seconds per puzzle")
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
    if args.versus and args.mode == "count":
        fail("--versus reads a grid and a claim of uniqueness, not a count")
    try:
        programs = [external.program_of(command) for command in args.versus]
    except ValueError as error:  # shlex: an unclosed quote
        fail(f"--versus: {error}")
    args.others = [external.label_of(command) for command in args.versus]
    if len(set(args.others)) < len(args.others) or {"nonocp", "baseline"} & set(args.others):
        fail("each --versus program needs a name of its own")
    for program in programs:
        if shutil.which(program) is None:
            fail(f"--versus: no program {program!r}")
    if args.csv:
        try:
            formats.check_writable(args.csv)  # before the run, which may take hours
        except NonocpError as error:
            fail(str(error))
    return args


def main() -> None:
    args = arguments()
    sets = load_sets(args.sets)
    console = Console(width=None if sys.stdout.isatty() else 160)
    labels = ["nonocp", *(["baseline"] if args.baseline else []), *args.others]
    announce_search(console)
    runs, interrupted = run_sets(sets, args, labels, console)
    runs = [set_run for set_run in runs if set_run.rows]
    if runs:
        console.print(summary_table(runs, labels, args.mode, args.time_limit))
        console.print(within_table(runs, labels, args.time_limit))
    if args.csv:
        write_csv(args.csv, runs, labels)
    if interrupted:
        ran = sum(len(set_run.rows) for set_run in runs)
        note(f"interrupted: the tables hold the {ran} puzzles run before Ctrl-C")
        raise SystemExit(EXIT_INTERRUPTED)


def run_sets(
    sets: list[Set], args: argparse.Namespace, labels: list[str], console: Console
) -> tuple[list[SetRun], bool]:
    """Every set in turn, each reported as it ends, and whether Ctrl-C cut the run short:
    the sets run until then, the last perhaps in part, still count."""
    runs: list[SetRun] = []
    reported = 0
    try:
        for s in sets:
            runs.append(SetRun(s))
            benchmark(runs[-1], args.mode, args.time_limit, args.baseline, args.versus, console)
            report_set(runs[-1], labels, args.per_puzzle, console)
            reported += 1
    except KeyboardInterrupt:
        if reported < len(runs):
            report_set(runs[-1], labels, args.per_puzzle, console)
        return runs, True
    return runs, False


def report_set(set_run: SetRun, labels: list[str], per_puzzle: bool, console: Console) -> None:
    """What is printed after each set: its rows, if asked for, and where verdicts differ."""
    if per_puzzle and set_run.rows:
        console.print(per_puzzle_table(set_run, labels))
    for line in disagreements(set_run.rows, labels):
        console.print(f"[red]verdicts differ[/] {line}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # while loading, or a second Ctrl-C while the tables print
        raise SystemExit(EXIT_INTERRUPTED) from None
