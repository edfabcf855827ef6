"""Compare the models and engines side by side: which is fastest for each mode.

    python benchmarks/models.py
    python benchmarks/models.py --modes validate --logic off --sets gecode random
    python benchmarks/models.py --sets taai --taai 20 --repeats 3 \
        --backends cpsat/automaton cpsat/blocks

Backends: CP-SAT with the automaton, block-start and combined models, and the block-start
MIP solved by SCIP. Sets: the 13 Gecode/R puzzles in ``puzzles/``, the survey puzzles and
a slice of the taai2011 tournament set (first and last N) from ``../shared``, skipped when
that folder is absent, and random 20x20 puzzles of density 0.5. Modes: ``first`` (one
solution), ``validate`` (up to two: the uniqueness proof), ``count`` (up to ``--count-limit``).

Runs are interleaved: for each puzzle and repeat, every backend runs once, in an order that
rotates, so machine noise hits all of them alike. A puzzle's time is its median over the
repeats; a run the time limit stops counts as the full limit. The ratio columns divide a
backend's time by the first backend's (the automaton model unless ``--backends`` says
otherwise; above 1: slower). With ``--logic on`` (the default, what users get) logic runs
first and models only see what it leaves open; ``off`` measures the models alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Set, announce_search, load_set, progress_bar

from nonocp.backends import Backend, backend
from nonocp.formats import load
from nonocp.models import ModelName
from nonocp.puzzle import Puzzle

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "puzzles"
SETS = ("gecode", "survey", "taai", "random")
MODES = ("first", "validate", "count")
BACKENDS = (*(f"cpsat/{m}" for m in ModelName), "mip")


@dataclass(frozen=True)
class Outcome:
    verdict: str
    seconds: float
    finished: bool


Runner = Callable[[Backend, Puzzle, argparse.Namespace], Outcome]


def run_first(chosen: Backend, puzzle: Puzzle, options: argparse.Namespace) -> Outcome:
    result = chosen.solve(
        puzzle, time_limit=options.time_limit, logic=options.logic == "on", prove_unique=False
    )
    return Outcome(result.status.value, result.seconds, result.status.value != "unknown")


def run_validate(chosen: Backend, puzzle: Puzzle, options: argparse.Namespace) -> Outcome:
    result = chosen.solve(puzzle, time_limit=options.time_limit, logic=options.logic == "on")
    return Outcome(result.uniqueness.value, result.seconds, result.uniqueness.value != "unknown")


def run_count(chosen: Backend, puzzle: Puzzle, options: argparse.Namespace) -> Outcome:
    total = chosen.count(
        puzzle, options.count_limit, options.time_limit, logic=options.logic == "on"
    )
    done = total.exact or total.stopped_by == "limit"
    return Outcome(str(total.count) if total.exact else f">={total.count}", total.seconds, done)


RUNNERS: dict[str, Runner] = {"first": run_first, "validate": run_validate, "count": run_count}


def backends(labels: list[str]) -> dict[str, Backend]:
    """``cpsat/<model>`` or ``mip``, by label, in the order given."""
    return {label: backend(*label.split("/")) for label in labels}


def chosen_sets(names: list[str], taai: int, randoms: int, console: Console) -> list[Set]:
    found: list[Set] = []
    for name in names:
        if name == "gecode":
            files = sorted((REPO / "puzzles").glob("*.txt"))
            found.append(Set("gecode", [(p.stem, load(p)) for p in files]))
        elif name == "random":
            found.append(load_set(f"random:20x20:0.5:seeds=1-{randoms}"))
        elif not SHARED.is_dir():
            console.print(f"[yellow]skipping {name}: {SHARED} is not present[/]")
        elif name == "survey":
            found.append(Set("survey", load_set(str(SHARED / "webpbn")).puzzles))
        else:
            puzzles = load_set(str(SHARED / "taai" / "taai2011.txt")).puzzles
            ends = [*puzzles[:taai], *puzzles[len(puzzles) - taai :]]  # none for --taai 0
            found.append(Set(f"taai2011 first+last {taai}", ends))
    return found


@dataclass
class Measured:
    """Per puzzle and backend: every run's outcome, over the repeats."""

    set: Set
    mode: str
    runs: dict[str, list[list[Outcome]]]

    def seconds(self, label: str) -> list[float]:
        return [statistics.median(o.seconds for o in outcomes) for outcomes in self.runs[label]]

    def finished(self, label: str) -> int:
        return sum(all(o.finished for o in outcomes) for outcomes in self.runs[label])

    def disagreements(self) -> list[str]:
        """Puzzles where backends that all finished reached different verdicts."""
        differing = []
        for index, (name, _) in enumerate(self.set.puzzles):
            verdicts = {
                label: outcomes[index][0].verdict
                for label, outcomes in self.runs.items()
                if all(o.finished for o in outcomes[index])
            }
            if len(set(verdicts.values())) > 1:
                differing.append(f"{self.set.name} {self.mode} {name}: {verdicts}")
        return differing


def measure(
    s: Set,
    mode: str,
    chosen: dict[str, Backend],
    options: argparse.Namespace,
    progress: Progress,
) -> Measured:
    labels = list(chosen)
    runs: dict[str, list[list[Outcome]]] = {label: [] for label in labels}
    task = progress.add_task(f"{s.name} {mode}", total=len(s.puzzles) * options.repeats)
    turn = 0
    for _, puzzle in s.puzzles:
        outcomes: dict[str, list[Outcome]] = {label: [] for label in labels}
        for _ in range(options.repeats):
            order = labels[turn % len(labels) :] + labels[: turn % len(labels)]
            turn += 1
            for label in order:
                outcomes[label].append(RUNNERS[mode](chosen[label], puzzle, options))
            progress.advance(task)
        for label in labels:
            runs[label].append(outcomes[label])
    return Measured(s, mode, runs)


def ratio(ours: float, reference: float) -> float:
    return ours / max(reference, 1e-6)


def table(results: list[Measured], labels: list[str], options: argparse.Namespace) -> Table:
    title = (
        f"logic {options.logic}, time limit {options.time_limit:g} s, "
        f"median of {options.repeats} interleaved run(s) per puzzle"
    )
    out = Table(title=title)
    for heading in ("set", "mode", "backend", "finished", "total s", "median s", "max s"):
        out.add_column(
            heading, justify="left" if heading in ("set", "mode", "backend") else "right"
        )
    out.add_column("total ratio", justify="right")
    out.add_column("median ratio", justify="right")
    for measured in results:
        reference = measured.seconds(labels[0])
        totals = {label: sum(measured.seconds(label)) for label in labels}
        fastest = min(totals, key=totals.__getitem__)
        for label in labels:
            times = measured.seconds(label)
            per_puzzle = [ratio(t, r) for t, r in zip(times, reference, strict=True)]
            out.add_row(
                measured.set.name,
                measured.mode,
                f"[bold]{label}[/]" if label == fastest else label,
                f"{measured.finished(label)}/{len(times)}",
                f"{totals[label]:.2f}",
                f"{statistics.median(times):.4f}",
                f"{max(times):.3f}",
                f"{ratio(totals[label], totals[labels[0]]):.2f}x",
                f"{statistics.median(per_puzzle):.2f}x",
            )
        out.add_section()
    return out


def per_puzzle(measured: Measured, labels: list[str]) -> Table:
    out = Table(title=f"{measured.set.name}, {measured.mode}: per puzzle (verdict, median s)")
    out.add_column("puzzle")
    out.add_column("size")
    for label in labels:
        out.add_column(label, justify="right")
    columns = [measured.seconds(label) for label in labels]
    for index, (name, puzzle) in enumerate(measured.set.puzzles):
        cells = [
            f"{measured.runs[label][index][0].verdict} {times[index]:.3f}"
            for label, times in zip(labels, columns, strict=True)
        ]
        out.add_row(name, puzzle.size, *cells)
    return out


def fastest_per_mode(results: list[Measured], labels: list[str]) -> Table:
    """All sets together: each mode's total time per backend, the fastest in bold."""
    out = Table(title="all sets: total seconds per mode (fastest in bold)")
    out.add_column("mode")
    for label in labels:
        out.add_column(label, justify="right")
    for mode in dict.fromkeys(m.mode for m in results):
        totals = {
            label: sum(sum(m.seconds(label)) for m in results if m.mode == mode) for label in labels
        }
        fastest = min(totals, key=totals.__getitem__)
        cells = [
            f"[bold]{t:.2f}[/]" if label == fastest else f"{t:.2f}" for label, t in totals.items()
        ]
        out.add_row(mode, *cells)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument(
        "--backends", nargs="+", choices=BACKENDS, default=list(BACKENDS), help="first: reference"
    )
    parser.add_argument("--logic", choices=("on", "off"), default="on")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per puzzle")
    parser.add_argument("--repeats", type=int, default=1, help="runs per puzzle and backend")
    parser.add_argument("--taai", type=int, default=10, help="first and last N of taai2011")
    parser.add_argument("--random", type=int, default=20, help="random 20x20 puzzles")
    parser.add_argument("--count-limit", type=int, default=100, help="count mode stops here")
    parser.add_argument("--per-puzzle", action="store_true", help="a table row per puzzle too")
    options = parser.parse_args()

    console = Console()
    chosen = backends(options.backends)
    announce_search(console)
    labels = list(chosen)
    results: list[Measured] = []
    with progress_bar(console) as progress:
        for s in chosen_sets(options.sets, options.taai, options.random, console):
            for mode in options.modes:
                results.append(measure(s, mode, chosen, options, progress))
    for measured in results:
        if options.per_puzzle:
            console.print(per_puzzle(measured, labels))
        for line in measured.disagreements():
            console.print(f"[red]verdicts differ[/] {line}")
    console.print(table(results, labels, options))
    console.print(fastest_per_mode(results, labels))


if __name__ == "__main__":
    main()
