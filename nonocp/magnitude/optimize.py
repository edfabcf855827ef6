"""``optimize``: one instance, construction first, the solver only when that falls short."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from nonocp.clock import deadline_after, seconds_left
from nonocp.magnitude.bounds import Magnitudes, Sense, bound, magnitudes
from nonocp.magnitude.construct import construct
from nonocp.puzzle import Grid, integers, too_large


class Status(StrEnum):
    OPTIMAL = "optimal"
    UNPROVEN = "unproven"
    """A grid with the right magnitudes, not proven optimal within the time limit."""
    INFEASIBLE = "infeasible"
    """Proven: no grid has these magnitudes."""
    UNKNOWN = "unknown"
    """No grid found and nothing proven within the time limit."""


@dataclass(frozen=True)
class Result:
    grid: Grid | None
    status: Status
    bound: int
    """The proven bound (lower when minimising, upper when maximising); a grid reaching it
    is optimal, and most do."""
    by_construction: bool

    @property
    def filled(self) -> int | None:
        return None if self.grid is None else sum(map(sum, self.grid))

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL


def optimize(
    row_runs: Iterable[int],
    col_runs: Iterable[int],
    sense: Sense | str = Sense.MIN,
    time_limit: float | None = None,
    known: Grid | None = None,
) -> Result:
    """A grid whose rows and columns have these run counts, with the fewest (``"min"``) or
    most (``"max"``) filled cells; ``time_limit`` bounds the seconds, construction included.
    ``known``, a grid with these run counts (a base64 instance's own picture), is the
    answer, unproven, where the solver finds none in time: an instance that has a grid
    is never answered without one."""
    rows, columns, goal = _checked_input(row_runs, col_runs, sense)
    if known is not None and magnitudes(known) != (rows, columns):
        raise ValueError("known: a grid with other run counts than the instance's")
    deadline = deadline_after(time_limit)
    target = bound(rows, columns, goal)
    if not _fits(rows, len(columns)) or not _fits(columns, len(rows)):
        return Result(None, Status.INFEASIBLE, target, by_construction=False)
    grid = construct(rows, columns, goal, deadline)
    if grid is not None:
        return _verified(Result(grid, Status.OPTIMAL, target, by_construction=True), rows, columns)
    searched, proven = _searched(rows, columns, goal, target, deadline)
    found = searched if searched is not None or proven else known
    if found is None:
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
    else:  # a grid at the bound is optimal, proven by the bound
        at_bound = sum(map(sum, found)) == target
        status = Status.OPTIMAL if proven or at_bound else Status.UNPROVEN
    return _verified(Result(found, status, target, by_construction=False), rows, columns)


def _searched(
    rows: Magnitudes, columns: Magnitudes, goal: Sense, target: int, deadline: float | None
) -> tuple[Grid | None, bool]:
    """The solver's grid, if any, and whether its answer is proven. ortools loads only for
    the instances that need it, and not once the construction has used up the time: then
    loading it (0.35 s) would only overrun the limit."""
    if seconds_left(deadline) == 0:
        return None, False
    from nonocp.magnitude import model

    outcome = model.solve(rows, columns, goal, target, deadline)
    return outcome.grid, outcome.proven


def _checked_input(
    row_runs: Iterable[int], col_runs: Iterable[int], sense: Sense | str
) -> tuple[Magnitudes, Magnitudes, Sense]:
    rows, columns = integers([row_runs, col_runs])
    if not rows or not columns:
        raise ValueError("a grid needs at least one row and one column")
    why = too_large(len(columns), len(rows))
    if why is not None:
        raise ValueError(why)
    wrong = next((k for k in (*rows, *columns) if type(k) is not int or k < 0), None)
    if wrong is not None:
        raise ValueError(f"run counts are whole numbers from 0, not {wrong!r}")
    return rows, columns, Sense(sense)


def _fits(runs: Magnitudes, length: int) -> bool:
    """Whether each line can hold its runs at all: a run and a gap take two cells."""
    return all(k <= (length + 1) // 2 for k in runs)


def _verified(result: Result, rows: Magnitudes, columns: Magnitudes) -> Result:
    """The result, once its grid is recomputed to have exactly the requested magnitudes."""
    if result.grid is not None and magnitudes(result.grid) != (rows, columns):
        raise RuntimeError(f"internal error: a grid with wrong magnitudes for {rows} / {columns}")
    return result
