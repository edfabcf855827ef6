"""``nonocp solve`` and ``nonocp count``.

``solve`` takes one file or many, each holding one puzzle or many: one puzzle is drawn
with its verdict; many (a tournament set, a ``.nonpack``, a folder's files) are solved in
order under a progress bar and summed up in a table, in one process, so a batch pays for
start-up and loading the compiled search once, or in ``--jobs`` processes. One process
is the default, so that each puzzle's seconds are its own and its hard part races on
every core; on two cores, two processes finish a tournament set of 1,000 puzzles in under
three quarters of the time.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from nonocp.backends import EngineName, backend
from nonocp.cli.app import (
    EXIT_BAD_INPUT,
    EXIT_SOLVED,
    EXIT_UNSOLVED,
    Engine,
    FormatName,
    Index,
    Json,
    Model,
    Name,
    Plain,
    PuzzleFile,
    PuzzleFiles,
    TimeLimit,
    app,
    chosen_puzzles,
    one_puzzle,
    report,
)
from nonocp.cli.output import (
    Output,
    describe,
    grids_json,
    puzzle_json,
    result_json,
    seconds,
)
from nonocp.errors import NonocpError
from nonocp.formats import attach_solutions, label, load_all, name_of
from nonocp.pool import in_order
from nonocp.puzzle import Puzzle, satisfies
from nonocp.render import ambiguous_cells, masked

if TYPE_CHECKING:
    from nonocp.engine import Result


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
        typer.Option("--solutions", help="A file of solutions (e.g. TAAI) to --check against."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Compare with the solution the file carries.")
    ] = False,
    engine: Engine = EngineName.CPSAT,
    model: Model = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=1,
            help="Solve a batch's puzzles on N processes at once; in one, each puzzle's hard"
            " part races on every core.",
        ),
    ] = 1,
) -> None:
    """Solve puzzles, draw the solution and prove whether it is unique."""
    out = Output(plain=plain, as_json=as_json)
    solve_one = partial(backend(engine, model).solve, time_limit=time_limit, prove_unique=not first)
    if len(files) > 1:
        if (index, name, solutions) != (None, None, None):
            raise NonocpError("--index, --name and --solutions take one puzzle file, not several")
        batches, unreadable = _readable(files, format)
        given = [name_of(file) for file in files]
        ok = bool(batches) and _solve_many(batches, solve_one, jobs, out, check, given)
        raise typer.Exit(EXIT_BAD_INPUT if unreadable else EXIT_SOLVED if ok else EXIT_UNSOLVED)
    (file,) = files
    source, puzzles = name_of(file), chosen_puzzles(file, format, index, name)
    if solutions is not None:
        puzzles = attach_solutions(puzzles, load_all(solutions))
        check = True
    if len(puzzles) == 1:
        ok = _solve_single(puzzles[0], source, solve_one, out, check)
    else:
        ok = _solve_many([(source, puzzles)], solve_one, jobs, out, check)
    raise typer.Exit(EXIT_SOLVED if ok else EXIT_UNSOLVED)


def _readable(files: list[Path], format: str | None) -> tuple[list[Batch], int]:
    """The puzzles of each file that reads, and how many do not: a batch goes on past a
    bad file, as compilers and grep do, reporting it at once and exiting with status 2."""
    batches: list[Batch] = []
    unreadable = 0
    for file in files:
        try:
            batches.append((name_of(file), load_all(file, format)))
        except NonocpError as error:
            report(error)
            unreadable += 1
    return batches, unreadable


def stored_comparison(puzzle: Puzzle, result: Result) -> str | None:
    """How a found solution compares with the one the file carries; None if nothing to say."""
    if puzzle.solution is None or result.grid is None:
        return None
    if result.grid == puzzle.solution:
        return "matches the stored solution"
    if not satisfies(puzzle, puzzle.solution):
        return "MISMATCH: the stored solution does not satisfy the clues"
    return "differs from the stored solution (both satisfy the clues: the puzzle is not unique)"


def _settled(result: Result, comparison: str | None) -> bool:
    """Whether a puzzle counts as done: solved, and not against a stored solution that
    breaks its clues."""
    from nonocp.engine import Status

    return result.status is Status.SOLVED and not (comparison or "").startswith("MISMATCH")


def _solve_single(
    puzzle: Puzzle, source: str, solve_one: Callable[[Puzzle], Result], out: Output, check: bool
) -> bool:
    result = solve_one(puzzle)
    comparison = stored_comparison(puzzle, result) if check else None
    if out.as_json:
        out.json(_result_json(puzzle, source, result, comparison))
    elif result.grid is not None:
        differing = ambiguous_cells([result.grid, result.other]) if result.other else set()
        out.picture(puzzle, result.grid, highlight=differing)
    out.line(f"{describe(puzzle, source)}: {result.verdict} ({seconds(result.seconds)})")
    if comparison:
        out.line(comparison)
    return _settled(result, comparison)


def _result_json(puzzle: Puzzle, source: str, result: Result, comparison: str | None) -> dict:
    return {
        **puzzle_json(puzzle, source),
        **result_json(result),
        "stored_solution": comparison,
        "seconds": result.seconds,
    }


Batch = tuple[str, list[Puzzle]]
"""One file's name and the puzzles to solve from it."""


class Entry(NamedTuple):
    """One puzzle of a batch: its file, its label there (``$17``, a title, ``#3``), and
    what messages call it."""

    source: str
    label: str
    called: str
    puzzle: Puzzle


def _entries(batches: list[Batch], several: bool) -> list[Entry]:
    """Every puzzle of ``batches``, called by its label, or among ``several`` files by its
    file's name, with the label too when that file holds many."""
    entries = []
    for source, puzzles in batches:
        for position, puzzle in enumerate(puzzles, start=1):
            labelled = label(puzzle, position)
            called = source if len(puzzles) == 1 else f"{source} {labelled}"
            entries.append(Entry(source, labelled, called if several else labelled, puzzle))
    return entries


def _solve_many(
    batches: list[Batch],
    solve_one: Callable[[Puzzle], Result],
    jobs: int,
    out: Output,
    check: bool,
    files: list[str] | None = None,
) -> bool:
    """Solve every puzzle of ``batches`` on ``jobs`` processes, answers in order, then
    print the puzzles not solved and a summary, for one file's puzzles or for the
    ``files`` given together."""
    entries = _entries(batches, several=files is not None)
    title = batches[0][0] if files is None else f"{len(files)} files"
    results: list[Result] = []
    comparisons: list[str | None] = []
    problems: list[str] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    progress = Progress(
        *columns,
        TimeRemainingColumn(),
        console=out.errors,
        transient=True,
        disable=not out.errors.is_terminal,
    )
    with progress:
        task = progress.add_task(f"solving {title}", total=len(entries))
        puzzles = [entry.puzzle for entry in entries]
        for entry, result in zip(entries, in_order(solve_one, puzzles, jobs), strict=True):
            results.append(result)
            comparison = stored_comparison(entry.puzzle, result) if check else None
            comparisons.append(comparison)
            if not _settled(result, comparison):
                problems.append(f"{entry.called}: {comparison or result.verdict}")
            progress.advance(task)
    if out.as_json:
        documents = [
            {"puzzle": entry.label, **_result_json(entry.puzzle, entry.source, result, compared)}
            for entry, result, compared in zip(entries, results, comparisons, strict=True)
        ]
        given = {"file": title} if files is None else {"files": files}
        out.json({**given, "puzzles": documents, "summary": _tally(results)})
    else:
        for problem in problems:
            out.line(problem)
        if out.plain:
            out.line(_summary_text(title, results))
        else:
            out.console.print(_summary_table(title, results))
    return not problems


def _tally(results: list[Result]) -> dict:
    verdicts = Counter(r.uniqueness.value for r in results)
    times = [r.seconds for r in results]
    return {
        "puzzles": len(results),
        "solved": sum(r.status.value == "solved" for r in results),
        "unique": verdicts["unique"],
        "multiple": verdicts["multiple"],
        "none": verdicts["none"],
        "unknown": verdicts["unknown"],
        "total_seconds": sum(times),
        "median_seconds": statistics.median(times),
    }


def _summary_table(source: str, results: list[Result]) -> Table:
    tally = _tally(results)
    table = Table(title=source)
    for heading in tally:
        table.add_column(heading.replace("_", " "), justify="right")
    table.add_row(*(f"{v:.3f}" if isinstance(v, float) else str(v) for v in tally.values()))
    return table


def _summary_text(source: str, results: list[Result]) -> str:
    tally = _tally(results)
    return f"{source}: " + ", ".join(
        f"{k.replace('_', ' ')} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
        for k, v in tally.items()
    )


@app.command()
def count(
    file: PuzzleFile,
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
) -> None:
    """Count the solutions of a puzzle (exactly, or 'at least N' when stopped early)."""
    from nonocp.engine import tally

    puzzle = one_puzzle(file, format, index, name)
    solutions = backend(engine, model).solutions
    out = Output(plain=plain, as_json=as_json)
    started = time.perf_counter()
    enumeration = solutions(puzzle, limit=limit, time_limit=time_limit)
    grids = []
    for number, grid in enumerate(enumeration, start=1):
        grids.append(grid)
        if show:
            out.line(f"solution {number}:")
            out.picture(puzzle, grid)
    total = tally(enumeration, len(grids), started)
    differing = ambiguous_cells(grids)
    if show and len(grids) > 1:
        out.line(f"{len(differing)} cells differ between the solutions (shown as unknown):")
        out.picture(puzzle, masked(grids[0], differing))
    if as_json:
        out.json(
            {
                **puzzle_json(puzzle, name_of(file)),
                "count": total.count,
                "exact": total.exact,
                "stopped_by": total.stopped_by,
                "grids": grids_json(grids) if show else None,
                "ambiguous_cells": sorted(differing),
                "seconds": total.seconds,
            }
        )
    out.line(f"{describe(puzzle, name_of(file))}: {total.text} ({seconds(total.seconds)})")
    unsolved = total.count == 0 or total.stopped_by == "time limit"
    raise typer.Exit(EXIT_UNSOLVED if unsolved else EXIT_SOLVED)
