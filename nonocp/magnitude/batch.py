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

from nonocp.errors import InputError, named_os_errors
from nonocp.magnitude.bounds import Sense, bound, magnitudes
from nonocp.magnitude.construct import construct
from nonocp.magnitude.files import Instance, Style, answer_grid, answer_start
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
    return optimize(instance.rows, instance.columns, sense, time_limit, instance.picture)


def resume(out: Path, instances: Sequence[Instance], style: Style, sense: Sense) -> list[int]:
    """The filled counts of the answers at the start of ``out`` that can stand, after
    cutting the file after them.

    An answer stands if its grid has the instance's magnitudes (checked again) and meets
    the bound, which proves it optimal without the solver. The first answer that does not
    (an instance left unproven, an optimum short of the bound, which only the solver can
    prove again, or a line cut short when the run was interrupted) and everything after it
    are computed again. Every line is checked before anything is cut: one that this run
    cannot have written (see ``_standing``) means ``out`` holds something else, an error,
    not something to overwrite.
    """
    path = str(out)
    with named_os_errors(path, "cannot be written"):  # a name too long to look up, say
        if not out.is_file():  # nothing to resume, nor to cut: a new file, /dev/null, a pipe
            return []
    with named_os_errors(path, "cannot be read", reading=True):
        text = out.read_bytes().decode("utf-8", "replace")
    *lines, tail = text.split("\n")
    standing = [
        _standing(line.strip(), number, instance, style, sense, path)
        for number, (line, instance) in enumerate(zip(lines, instances, strict=False), start=1)
    ]
    if tail and len(lines) < len(instances):
        _check_cut(tail.strip(), len(lines) + 1, instances[len(lines)], style, sense, path)
    if len(lines) + bool(tail) > len(instances):
        why = f"more lines than the input's instances ({len(instances)})"
        raise _foreign(path, len(instances) + 1, 1, why)
    kept = _until_none(standing)
    with (
        named_os_errors(path, "cannot be cut after its answers that stand"),
        out.open("r+b") as file,
    ):
        file.truncate(sum(len(line.encode()) + 1 for line in lines[: len(kept)]))
    return kept


def _standing(
    text: str, number: int, instance: Instance, style: Style, sense: Sense, path: str
) -> int | None:
    """The filled count of an answer line that stands, None for one to compute again, or
    an error for a line this run cannot have written.

    Such a line is not an answer line, or a grid without the instance's magnitudes, or a
    grid claimed optimal off the bound of an instance that the construction settles: this
    run answers those with the construction's grid, at the bound, or, out of time, as
    unproven. Answers do not say which sense they are for, so a run of the other sense
    shows only there, in a grid that meets the other sense's bound; an instance left to
    the solver gives nothing away.
    """
    try:
        grid = answer_grid(text, style, path, number)
    except InputError as error:
        raise _foreign(path, error.line, error.column, error.message) from None
    if grid is None:
        return None
    if not _answers(grid, instance):
        raise _foreign(path, number, 1, f"this grid does not answer instance {number} of the input")
    filled = sum(map(sum, grid))
    if filled == bound(instance.rows, instance.columns, sense):
        return filled
    unproven = Status.UNPROVEN.value in text.split()
    if not unproven and construct(instance.rows, instance.columns, sense) is not None:
        raise _off_bound(path, number, filled, instance, sense)
    return None


def _check_cut(
    text: str, number: int, instance: Instance, style: Style, sense: Sense, path: str
) -> None:
    """A last line without its newline is computed again, but must be the start of an
    answer (the run was interrupted while writing it) or a whole one that lost its newline.
    A base64 grid whose status word was cut must still answer its instance: the word was
    'unproven', the only one a base64 grid is followed by."""
    if not answer_start(text, style):
        _standing(text, number, instance, style, sense, path)
    elif style is Style.BASE64 and " " in text:
        grid = text.partition(" ")[0]
        _standing(f"{grid} {Status.UNPROVEN.value}", number, instance, style, sense, path)


def _until_none(standing: list[int | None]) -> list[int]:
    kept = []
    for filled in standing:
        if filled is None:
            break
        kept.append(filled)
    return kept


def _off_bound(path: str, number: int, filled: int, instance: Instance, sense: Sense) -> InputError:
    """The error for a grid off the bound of an instance the construction settles, naming
    the other sense when the grid meets its bound."""
    other = Sense.MAX if sense is Sense.MIN else Sense.MIN
    if filled == bound(instance.rows, instance.columns, other):
        extreme = "fewest" if other is Sense.MIN else "most"
        why = (
            f"this grid has {filled} filled cells, the {extreme} instance {number} can have: "
            f"the file holds answers for {_option(other)}, not {_option(sense)}"
        )
        return InputError(path, number, 1, why)
    target = bound(instance.rows, instance.columns, sense)
    why = (
        f"this grid has {filled} filled cells where this run's answer to instance {number} "
        f"has {target}"
    )
    return _foreign(path, number, 1, why)


def _foreign(path: str, line: int | None, column: int | None, why: str) -> InputError:
    return InputError(path, line, column, f"{why}: not an answer file of this run")


def _option(sense: Sense) -> str:
    return f"--{sense.value}imize"


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

    def as_dict(self, seconds: float) -> dict[str, str | int | float]:
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
