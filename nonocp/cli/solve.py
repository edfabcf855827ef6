"""``nonocp solve`` and ``nonocp count``.

Both take one file or many, each holding one puzzle or many: one puzzle is drawn with
its verdict or count; many (a tournament set, a ``.nonpack``, a folder's files) are
worked through in order under a progress bar and summed up in a table, in one process,
so a batch pays for start-up and loading the compiled search once. Both can also use
``--jobs`` processes; one is the default, so that each puzzle's seconds are its own
and its hard part races on every core, yet on two cores two processes finish a
tournament set of 1,000 puzzles in under three quarters of the time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from nonocp.answers import Count, Result, Solutions, Status, Stop, Uniqueness
from nonocp.backends import EngineName, backend
from nonocp.cli.app import (
    Engine,
    FormatName,
    Index,
    Jobs,
    Json,
    Model,
    Name,
    Plain,
    PuzzleFiles,
    TimeLimit,
    app,
)
from nonocp.cli.batch import (
    Entry,
    Work,
    answered,
    exit_status,
    one_puzzle_only,
    print_batch,
    solvable,
    timing,
    verdicts,
    work_of,
)
from nonocp.cli.output import (
    Output,
    grids_json,
    puzzle_json,
    result_json,
    seconds,
)
from nonocp.formats import attach_solutions, load_all, name_of
from nonocp.puzzle import Grid, Puzzle, ambiguous_cells, satisfies
from nonocp.render import masked


@app.command()
def solve(
    files: PuzzleFiles,
    time_limit: TimeLimit = None,
    first: Annotated[
        bool, typer.Option("--first", help="Stop at the first solution; skip the uniqueness proof.")
    ] = False,
    index: Index = None,
    name: Name = None,
    solutions: Annotated[
        Path | None,
        typer.Option(
            "--solutions",
            help="A file of solutions (e.g. TAAI) to --check against.",
            readable=False,
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Compare with the solution the file carries.")
    ] = False,
    engine: Engine = EngineName.CPSAT,
    model: Model = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
    jobs: Jobs = 1,
) -> None:
    """Solve puzzles, draw the solution and prove whether it is unique."""
    out = Output(plain=plain, as_json=as_json)
    solve_one = partial(backend(engine, model).solve, time_limit=time_limit, prove_unique=not first)
    work = solvable(work_of(files, format, index, name, solutions=solutions))
    if solutions is not None:
        work = _with_solutions(work, load_all(solutions), name_of(solutions))
        check = True
    answer_one = partial(_solved, solve_one, check)
    if work.single:
        ok = _solve_single(work.entries[0], answer_one, out)
    else:
        ok = _solve_many(work, answer_one, jobs, out, check) and bool(work.entries)
    raise typer.Exit(exit_status(work, ok))


def _with_solutions(work: Work, solved: list[Puzzle], source: str) -> Work:
    """The puzzles of one file with the pictures of a separate solution file."""
    puzzles = attach_solutions(
        [entry.puzzle for entry in work.entries],
        solved,
        source,
        [entry.position for entry in work.entries],
    )
    return work._replace(
        entries=[
            entry._replace(puzzle=puzzle)
            for entry, puzzle in zip(work.entries, puzzles, strict=True)
        ]
    )


class Stored(Enum):
    """How a found solution compares with the one the file carries: a word for JSON and
    the batch summary, and a sentence for people."""

    MATCHES = ("matched", "matches the stored solution")
    DIFFERS = (
        "differ",
        "differs from the stored solution (both satisfy the clues: the puzzle is not unique)",
    )
    MISMATCH = ("mismatched", "MISMATCH: the stored solution does not satisfy the clues")
    MISSING = ("unchecked", "no stored solution to compare with")

    def __init__(self, key: str, text: str) -> None:
        self.key, self.text = key, text


def stored_comparison(puzzle: Puzzle, result: Result) -> Stored | None:
    """How a found solution compares with the one the file carries; None if none was found."""
    if result.grid is None:
        return None
    if puzzle.solution is None:
        return Stored.MISSING
    if result.grid == puzzle.solution:
        return Stored.MATCHES
    if not satisfies(puzzle, puzzle.solution):
        return Stored.MISMATCH
    return Stored.DIFFERS


Answer = tuple[Result, Stored | None]
"""A puzzle's result, and how its solution compares with the stored one (with ``--check``)."""


def _solved(solve_one: Callable[[Puzzle], Result], check: bool, puzzle: Puzzle) -> Answer:
    """The puzzle's ``Answer``, both halves worked out where it is solved (in a worker
    process, in a batch), once."""
    result = solve_one(puzzle)
    return result, stored_comparison(puzzle, result) if check else None


def _settled(result: Result, comparison: Stored | None) -> bool:
    """Whether a puzzle counts as done: solved, and not against a stored solution that
    breaks its clues."""

    return result.status is Status.SOLVED and comparison is not Stored.MISMATCH


def _solve_single(entry: Entry, answer_one: Callable[[Puzzle], Answer], out: Output) -> bool:
    puzzle = entry.puzzle
    result, comparison = answer_one(puzzle)
    grid, other = result.grid, result.other
    differing = ambiguous_cells([grid, other]) if grid is not None and other is not None else set()
    if out.as_json:
        out.json({"puzzle": entry.label, **_result_json(entry, result, comparison)})
    elif grid is not None:
        out.picture(puzzle, grid, highlight=differing)
    out.line(f"{entry.heading}: {result.verdict} ({seconds(result.seconds)})")
    if differing:  # in words too: colour may not show, and a half-block cell holds two
        out.line(_differing_line(differing))
    if comparison is not None:
        out.line(comparison.text)
    return _settled(result, comparison)


SHOWN_CELLS = 20
"""The most differing cells plain output lists by row and column."""


def _differing_line(cells: set[tuple[int, int]]) -> str:
    """Where two solutions differ, as ``row:column`` from 1, the first ``SHOWN_CELLS``; a
    designer making the puzzle unique needs every cell some solution differs in, which
    ``count --show`` finds."""
    named = [f"{r + 1}:{c + 1}" for r, c in sorted(cells)]
    shown = " ".join(named[:SHOWN_CELLS])
    more = f" and {len(named) - SHOWN_CELLS} more" if len(named) > SHOWN_CELLS else ""
    return (
        f"two of its solutions differ at {len(named)} cells (row:column): {shown}{more}; "
        "others may differ elsewhere too (nonocp count --show marks every such cell)"
    )


def _result_json(entry: Entry, result: Result, comparison: Stored | None) -> dict:
    return {
        **puzzle_json(entry.puzzle, entry.source),
        **result_json(result),
        "stored_solution": None if comparison is None else comparison.text,
        "stored": None if comparison is None else comparison.key,
        "seconds": result.seconds,
    }


def _solve_many(
    work: Work, answer_one: Callable[[Puzzle], Answer], jobs: int, out: Output, check: bool
) -> bool:
    """Solve every puzzle of a batch on ``jobs`` processes, answers in order, then print
    the puzzles to be named (``_noteworthy``) and a summary."""
    work, answers = answered(out, "solving", work, answer_one, jobs, _noteworthy)
    results = [result for result, _ in answers]
    tally = _tally(results) | (_check_tally([stored for _, stored in answers]) if check else {})
    print_batch(out, work, answers, lambda entry, answer: _result_json(entry, *answer), tally)
    return all(_settled(*answer) for answer in answers)


def _noteworthy(entry: Entry, answer: Answer) -> str | None:
    """A batch's line for a puzzle its user must hear of by name: not solved, not unique
    (what a designer checking a collection looks for), or stored with a solution that
    breaks its clues. A solution that differs from the stored one is only counted: the
    puzzle is then proven not unique, and listed as such, unless ``--first`` said that
    uniqueness does not matter (most of a tournament set's puzzles would be listed)."""

    result, comparison = answer
    if comparison is Stored.MISMATCH:
        return f"{entry.heading}: {comparison.text}"
    if not _settled(*answer) or result.uniqueness is Uniqueness.MULTIPLE:
        return f"{entry.heading}: {result.verdict}"
    return None


def _tally(results: list[Result]) -> dict:
    return {
        "puzzles": len(results),
        "solved": sum(r.status is Status.SOLVED for r in results),
        **verdicts(results),
        **timing([r.seconds for r in results]),
    }


def _check_tally(comparisons: list[Stored | None]) -> dict:
    """How a checked batch's solutions compared with the stored ones; ``unchecked``: no
    stored solution, or no solution found, to compare."""
    compared = Counter(Stored.MISSING.key if c is None else c.key for c in comparisons)
    return {stored.key: compared[stored.key] for stored in Stored}


@app.command()
def count(
    files: PuzzleFiles,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Stop counting after N solutions.")
    ] = None,
    show: Annotated[bool, typer.Option("--show", help="Draw every solution.")] = False,
    index: Index = None,
    name: Name = None,
    time_limit: TimeLimit = None,
    engine: Engine = EngineName.CPSAT,
    model: Model = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
    jobs: Jobs = 1,
) -> None:
    """Count the solutions of puzzles (exactly, or 'at least N' when stopped early)."""
    out = Output(plain=plain, as_json=as_json)
    work = solvable(work_of(files, format, index, name))
    one_puzzle_only(work, show=show)
    chosen = backend(engine, model)
    count_one = partial(chosen.count, limit=limit, time_limit=time_limit)
    if work.single and show:
        solutions = partial(chosen.solutions, limit=limit, time_limit=time_limit)
        ok = _count_shown(work.entries[0], solutions, out)
    elif work.single:
        ok = _count_single(work.entries[0], count_one, out)
    else:
        ok = _count_many(work, count_one, jobs, out) and bool(work.entries)
    raise typer.Exit(exit_status(work, ok))


def _count_single(entry: Entry, count_one: Callable[[Puzzle], Count], out: Output) -> bool:
    total = count_one(entry.puzzle)
    _print_count(entry, total, None, out)
    return _answered(total)


def _count_shown(entry: Entry, solutions: Callable[[Puzzle], Solutions], out: Output) -> bool:
    """Count one puzzle's solutions drawing each, then the cells in which they differ."""
    from nonocp.engine import count_all

    puzzle = entry.puzzle
    grids: list[Grid] = []

    def draw(grid: Grid) -> None:
        grids.append(grid)
        out.line(f"solution {len(grids)}:")
        out.picture(puzzle, grid)

    total = count_all(solutions(puzzle), each=draw)
    if len(grids) > 1:
        among = (
            f"all {len(grids)} solutions" if total.exact else f"the {len(grids)} solutions found"
        )
        out.line(f"{len(total.differing)} cells differ among {among} (shown as unknown):")
        out.picture(puzzle, masked(grids[0], total.differing))
    _print_count(entry, total, grids, out)
    return _answered(total)


def _print_count(entry: Entry, total: Count, grids: list[Grid] | None, out: Output) -> None:
    """One puzzle's count, as JSON with the cells in which its solutions differ, and the
    ``grids`` drawn if any, or as a line."""
    if out.as_json:
        out.json(
            {
                "puzzle": entry.label,
                **puzzle_json(entry.puzzle, entry.source),
                **_count_json(total),
                "grids": None if grids is None else grids_json(grids),
                "ambiguous_cells": [[r + 1, c + 1] for r, c in sorted(total.differing)],
            }
        )
    out.line(_count_line(entry.heading, total))


def _count_many(work: Work, count_one: Callable[[Puzzle], Count], jobs: int, out: Output) -> bool:
    """Count every puzzle of a batch on ``jobs`` processes, counts in order, then print
    each count and a summary."""
    work, counts = answered(
        out,
        "counting",
        work,
        count_one,
        jobs,
        lambda entry, total: _count_line(entry.heading, total),
    )
    print_batch(
        out,
        work,
        counts,
        lambda entry, total: {**puzzle_json(entry.puzzle, entry.source), **_count_json(total)},
        _count_tally(counts),
    )
    return all(map(_answered, counts))


def _count_line(heading: str, total: Count) -> str:
    return f"{heading}: {total.text} ({seconds(total.seconds)})"


def _answered(total: Count) -> bool:
    """Whether a count found a solution and was not cut short by the time limit (a
    ``--limit`` is the user's own stop, and still an answer)."""
    return total.count > 0 and total.stopped_by is not Stop.TIME_LIMIT


def _count_json(total: Count) -> dict:
    return {
        "count": total.count,
        "exact": total.exact,
        "stopped_by": total.stopped_by,
        "seconds": total.seconds,
    }


def _count_tally(counts: list[Count]) -> dict:
    return {
        "puzzles": len(counts),
        "exact": sum(total.exact for total in counts),
        "unique": sum(total.exact and total.count == 1 for total in counts),
        "none": sum(total.exact and total.count == 0 for total in counts),
        "at_least": sum(not total.exact for total in counts),
        **timing([total.seconds for total in counts]),
    }
