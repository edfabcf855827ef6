"""The magnitude optimizer against the reference integer program, and full-file runs.

    python benchmarks/magnitude.py                  # 200 grids, both senses, side by side
    python benchmarks/magnitude.py --grids 50 --mip-solver SCIP
    python benchmarks/magnitude.py --solver-path    # also the grids the construction misses
    python benchmarks/magnitude.py --full           # all 50,000 grids minimised, via the CLI
    python benchmarks/magnitude.py --full --maximize

The reference is the integer program of the original challenge's solution: a Boolean per
cell; per line, with an empty cell imagined before and after it, a Boolean per pair of
neighbouring cells marks a run boundary (their XOR, by four inequalities), and the
boundaries number twice the line's magnitude. It is solved by CBC (the solver the original
used, here through OR-tools' linear solver wrapper, one thread) or by SCIP.

Side by side, both run in this process on the same grids (spread evenly over the file),
taking turns on each grid and alternating which goes first, so machine noise hits both
alike; times include building each model. Every grid's optimum must agree. ``--full`` runs
the installed ``nonocp magnitude`` command on the whole file, as a user would, times it
from the outside, and checks every answer line against its input grid again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from nonocp.magnitude import Sense, model, optimize
from nonocp.magnitude.bounds import Magnitudes, fewest_cells, magnitudes
from nonocp.magnitude.construct import construct
from nonocp.magnitude.files import decode_grid

GRIDS = Path(__file__).resolve().parents[2] / "shared" / "magnitude" / "nonograms_b64.txt"
console = Console()


def reference(rows: Magnitudes, columns: Magnitudes, sense: Sense, solver_name: str) -> int:
    """The proven optimum the XOR-boundary integer program finds."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver(solver_name)
    cells = [[solver.BoolVar("") for _ in columns] for _ in rows]
    lines = [*zip(cells, rows, strict=True), *zip(zip(*cells, strict=True), columns, strict=True)]
    for line, k in lines:
        padded = [0, *line, 0]
        boundaries = []
        for a, b in pairwise(padded):
            boundary = solver.BoolVar("")
            solver.Add(boundary >= a - b)
            solver.Add(boundary >= b - a)
            solver.Add(boundary <= a + b)
            solver.Add(boundary <= 2 - a - b)
            boundaries.append(boundary)
        solver.Add(solver.Sum(boundaries) == 2 * k)
    total = solver.Sum([v for row in cells for v in row])
    solver.Minimize(total) if sense is Sense.MIN else solver.Maximize(total)
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError(f"{solver_name} did not prove an optimum")
    return round(solver.Objective().Value())


def timed_nonocp(rows: Magnitudes, columns: Magnitudes, sense: Sense) -> tuple[float, int]:
    start = time.perf_counter()
    result = optimize(rows, columns, sense)
    seconds = time.perf_counter() - start
    if not result.optimal or result.filled is None:
        raise RuntimeError(f"nonocp did not prove {rows} / {columns} optimal")
    return seconds, result.filled


def timed_reference(
    rows: Magnitudes, columns: Magnitudes, sense: Sense, solver_name: str
) -> tuple[float, int]:
    start = time.perf_counter()
    filled = reference(rows, columns, sense, solver_name)
    return time.perf_counter() - start, filled


def both(
    index: int, rows: Magnitudes, columns: Magnitudes, sense: Sense, solver_name: str
) -> tuple[tuple[float, int], tuple[float, int]]:
    """Both programs on one grid, the reference going first on every other grid."""
    if index % 2:
        theirs = timed_reference(rows, columns, sense, solver_name)
        return timed_nonocp(rows, columns, sense), theirs
    ours = timed_nonocp(rows, columns, sense)
    return ours, timed_reference(rows, columns, sense, solver_name)


def spread(count: int) -> list[tuple[Magnitudes, Magnitudes]]:
    """``count`` instances taken evenly across the file."""
    lines = GRIDS.read_text().split()
    step = max(1, len(lines) // count)
    return [magnitudes(decode_grid(line, str(GRIDS), 1)) for line in lines[::step][:count]]


def missed(sense: Sense) -> list[tuple[Magnitudes, Magnitudes]]:
    """The instances of the file the construction misses: nonocp's solver path."""
    found = []
    for number, line in enumerate(GRIDS.read_text().split(), start=1):
        rows, columns = magnitudes(decode_grid(line, str(GRIDS), number))
        if construct(rows, columns, sense) is None:
            found.append((rows, columns))
    return found


def compare(
    instances: list[tuple[Magnitudes, Magnitudes]], sense: Sense, solver_name: str, label: str
) -> list[str]:
    """One table row: both programs on every instance, the optima checked equal."""
    ours: list[float] = []
    theirs: list[float] = []
    filled = 0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=len(instances))
        for index, (rows, columns) in enumerate(instances):
            (t_ours, f_ours), (t_ref, f_ref) = both(index, rows, columns, sense, solver_name)
            if f_ours != f_ref:
                raise RuntimeError(f"optima differ on {rows} / {columns}: {f_ours} vs {f_ref}")
            ours.append(t_ours)
            theirs.append(t_ref)
            filled += f_ours
            progress.advance(task)
    return [
        label,
        f"{len(instances)}",
        f"{statistics.median(ours) * 1000:.2f} ms",
        f"{statistics.median(theirs) * 1000:.0f} ms",
        f"{statistics.median(theirs) / statistics.median(ours):,.0f}x",
        f"{sum(ours):.2f} s",
        f"{sum(theirs):.1f} s",
        f"{sum(theirs) / sum(ours):,.0f}x",
        f"{filled:,}",
    ]


def side_by_side(count: int, solver_name: str, solver_path: bool) -> None:
    instances = spread(count)
    reference(*instances[0], Sense.MIN, solver_name)  # load both solvers' libraries untimed
    model.solve(*instances[0], Sense.MIN, fewest_cells(*instances[0]), None)
    headings = ["", "grids", "nonocp median", f"{solver_name} median", "ratio of medians"]
    headings += ["nonocp total", f"{solver_name} total", "ratio of totals", "filled (both)"]
    table = Table(title=f"nonocp vs the XOR-boundary integer program ({solver_name})")
    for heading in headings:
        table.add_column(heading, justify="right")
    for sense in Sense:
        table.add_row(*compare(instances, sense, solver_name, f"{sense.value}imise"))
    if solver_path:
        for sense in Sense:
            label = f"{sense.value}imise, solver path"
            table.add_row(*compare(missed(sense), sense, solver_name, label))
    console.print(table)


def full(sense: Sense, jobs: int | None) -> None:
    command = shutil.which("nonocp") or str(Path(sys.executable).with_name("nonocp"))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "answers.txt"
        flag = "--minimize" if sense is Sense.MIN else "--maximize"
        args = [command, "magnitude", str(GRIDS), flag, "--out", str(out), "--json"]
        args += ["--jobs", str(jobs)] if jobs else []
        start = time.perf_counter()
        finished = subprocess.run(args, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        if finished.returncode not in (0, 1):
            raise RuntimeError(finished.stderr.strip())
        summary = json.loads(finished.stdout)
        checked = recheck(out)
    table = Table(title=f"nonocp magnitude {GRIDS.name} {flag}", show_header=False)
    for key in ("instances", "filled", "optimal", "by_construction", "by_solver", "unproven"):
        table.add_row(key.replace("_", " "), f"{summary[key]:,}")
    table.add_row("answers re-checked", f"{checked:,}")
    table.add_row("wall time (outside)", f"{wall:.1f} s")
    console.print(table)


def recheck(out: Path) -> int:
    """Answers whose grid has its input grid's magnitudes, recomputed here from scratch."""
    inputs = GRIDS.read_text().split()
    answers = out.read_text().split()
    if len(answers) != len(inputs):
        raise RuntimeError(f"{len(answers)} answers for {len(inputs)} grids")
    for number, (given, answer) in enumerate(zip(inputs, answers, strict=True), start=1):
        wanted = magnitudes(decode_grid(given, str(GRIDS), number))
        if magnitudes(decode_grid(answer, str(out), number)) != wanted:
            raise RuntimeError(f"answer {number} has the wrong magnitudes")
    return len(answers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grids", type=int, default=200, help="grids side by side")
    parser.add_argument("--mip-solver", default="CBC", choices=("CBC", "SCIP"))
    parser.add_argument(
        "--solver-path",
        action="store_true",
        help="also every grid of the file the construction misses (scans the file first)",
    )
    parser.add_argument("--full", action="store_true", help="the whole file through the CLI")
    parser.add_argument("--maximize", action="store_true", help="with --full: most cells")
    parser.add_argument("--jobs", type=int, help="with --full: worker processes")
    options = parser.parse_args()
    if not GRIDS.is_file():
        console.print(f"skipped: {GRIDS} is not present")
        return
    if options.full:
        full(Sense.MAX if options.maximize else Sense.MIN, options.jobs)
    else:
        side_by_side(options.grids, options.mip_solver, options.solver_path)


if __name__ == "__main__":
    main()
