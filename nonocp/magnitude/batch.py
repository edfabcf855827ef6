"""Files of instances: solved across processes, answered in input order, resumable.

Workers take instances in chunks of up to ``MOST_PER_CHUNK`` (a result is a few hundred
bytes, an instance well under a millisecond). Each worker imports ortools at most once,
on its first instance that needs the solver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nonocp.errors import InputError
from nonocp.magnitude.bounds import Sense, bound, magnitudes
from nonocp.magnitude.files import Instance, Style, answer_grid
from nonocp.magnitude.optimize import Result, Status, optimize
from nonocp.pool import in_order
from nonocp.puzzle import Grid

Task = tuple[Instance, Sense, float | None]
MOST_PER_CHUNK = 64


def results(
    instances: Sequence[Instance], sense: Sense, jobs: int, time_limit: float | None
) -> Iterator[Result]:
    """The results of ``instances`` in their order, computed by ``jobs`` processes."""
    tasks = [(instance, sense, time_limit) for instance in instances]
    return in_order(_solve, tasks, jobs, MOST_PER_CHUNK)


def _solve(task: Task) -> Result:
    instance, sense, time_limit = task
    return optimize(instance.rows, instance.columns, sense, time_limit)


def resume(out: Path, instances: Sequence[Instance], style: Style, sense: Sense) -> list[int]:
    """The filled counts of the answers at the start of ``out`` that can stand, after
    cutting the file after them.

    An answer stands if its grid has the instance's magnitudes (checked again) and meets
    the bound, which proves it optimal without the solver. The first answer that does not
    (an instance left unproven, an optimum short of the bound, which only the solver can
    prove again, or a line cut short when the run was interrupted) and everything after it
    are computed again. A grid with the wrong magnitudes means ``out`` answers another
    input: an error, not something to overwrite.
    """
    if not out.exists():
        return []
    lines = out.read_bytes().decode("utf-8", "replace").split("\n")[:-1]
    if len(lines) > len(instances):
        raise InputError(str(out), len(instances) + 1, 1, "more answers than instances")
    kept: list[int] = []
    for number, (line, instance) in enumerate(zip(lines, instances, strict=False), start=1):
        grid = answer_grid(line.strip(), style, str(out), number)
        if grid is None:
            break
        if not _answers(grid, instance):
            raise InputError(
                str(out), number, 1, f"this grid does not answer instance {number} of the input"
            )
        filled = sum(map(sum, grid))
        if filled != bound(instance.rows, instance.columns, sense):
            break
        kept.append(filled)
    with out.open("r+b") as file:
        file.truncate(sum(len(line.encode()) + 1 for line in lines[: len(kept)]))
    return kept


def _answers(grid: Grid, instance: Instance) -> bool:
    shape = len(grid) == len(instance.rows) and all(len(r) == len(instance.columns) for r in grid)
    return shape and magnitudes(grid) == (instance.rows, instance.columns)


@dataclass
class Summary:
    """What a run amounts to: the totals its closing line and JSON report."""

    sense: Sense
    instances: int = 0
    filled: int = 0
    resumed: int = 0
    by_construction: int = 0
    statuses: Counter[Status] = field(default_factory=Counter)

    def add(self, result: Result) -> None:
        self.instances += 1
        self.filled += result.filled or 0
        self.by_construction += result.by_construction
        self.statuses[result.status] += 1

    def add_resumed(self, filled: int) -> None:
        self.instances += 1
        self.resumed += 1
        self.filled += filled
        self.statuses[Status.OPTIMAL] += 1

    @property
    def optimal(self) -> int:
        return self.statuses[Status.OPTIMAL]

    def as_dict(self, seconds: float) -> dict[str, object]:
        return {
            "sense": self.sense.value,
            "instances": self.instances,
            "filled": self.filled,
            "optimal": self.optimal,
            "by_construction": self.by_construction,
            "by_solver": self.optimal - self.by_construction - self.resumed,
            "resumed": self.resumed,
            "unproven": self.statuses[Status.UNPROVEN],
            "infeasible": self.statuses[Status.INFEASIBLE],
            "unknown": self.statuses[Status.UNKNOWN],
            "seconds": round(seconds, 3),
        }
