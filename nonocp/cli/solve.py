"""``nonocp solve`` and ``nonocp count``.

``solve`` takes files holding one puzzle or many: one puzzle is drawn with its verdict;
many (a tournament set, a ``.nonpack``) are solved in order under a progress bar and
summed up in a table.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from nonocp.backends import EngineName, backend
from nonocp.cli.app import (
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
    TimeLimit,
    app,
    chosen_puzzles,
    one_puzzle,
)
from nonocp.cli.output import (
    Output,
    describe,
    grids_json,
    puzzle_json,
    result_json,
    seconds,
)
from nonocp.formats import attach_solutions, label, load_all, name_of
from nonocp.puzzle import Puzzle, satisfies
from nonocp.render import ambiguous_cells, masked

if TYPE_CHECKING:
    from nonocp.engine import Result


@app.command()
def solve(
    file: PuzzleFile,
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
) -> None:
    """Solve puzzles, draw the solution and prove whether it is unique."""
    puzzles = chosen_puzzles(file, format, index, name)
    if solutions is not None:
        puzzles = attach_solutions(puzzles, load_all(solutions))
        check = True
    out = Output(plain=plain, as_json=as_json)
    solve_one = _solver(backend(engine, model).solve, time_limit, prove_unique=not first)
    if len(puzzles) == 1:
        ok = _solve_single(puzzles[0], name_of(file), solve_one, out, check)
    else:
        ok = _solve_many(puzzles, name_of(file), solve_one, out, check)
    raise typer.Exit(EXIT_SOLVED if ok else EXIT_UNSOLVED)


def _solver(solve, time_limit: float | None, prove_unique: bool):
    def solve_one(puzzle: Puzzle) -> Result:
        return solve(puzzle, time_limit=time_limit, prove_unique=prove_unique)

    return solve_one


def stored_comparison(puzzle: Puzzle, result: Result) -> str | None:
    """How a found solution compares with the one the file carries; None if nothing to say."""
    if puzzle.solution is None or result.grid is None:
        return None
    if result.grid == puzzle.solution:
        return "matches the stored solution"
    if not satisfies(puzzle, puzzle.solution):
        return "MISMATCH: the stored solution does not satisfy the clues"
    return "differs from the stored solution (both satisfy the clues: the puzzle is not unique)"


def _solve_single(puzzle: Puzzle, source: str, solve_one, out: Output, check: bool) -> bool:
    from nonocp.engine import Status

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
    return result.status is Status.SOLVED and not (comparison or "").startswith("MISMATCH")


def _result_json(puzzle: Puzzle, source: str, result: Result, comparison: str | None) -> dict:
    return {
        **puzzle_json(puzzle, source),
        **result_json(result),
        "stored_solution": comparison,
        "seconds": result.seconds,
    }


def _solve_many(puzzles: list[Puzzle], source: str, solve_one, out: Output, check: bool) -> bool:
    from nonocp.engine import Status

    results: list[Result] = []
    problems: list[str] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    progress = Progress(*columns, TimeRemainingColumn(), console=out.console, transient=True)
    with progress:
        task = progress.add_task(f"solving {source}", total=len(puzzles))
        for position, puzzle in enumerate(puzzles, start=1):
            result = solve_one(puzzle)
            results.append(result)
            comparison = stored_comparison(puzzle, result) if check else None
            if result.status is not Status.SOLVED or (comparison or "").startswith("MISMATCH"):
                problems.append(f"{label(puzzle, position)}: {comparison or result.verdict}")
            progress.advance(task)
    if out.as_json:
        documents = [
            _result_json(p, source, r, None) for p, r in zip(puzzles, results, strict=True)
        ]
        out.json({"file": source, "puzzles": documents, "summary": _tally(results)})
    else:
        for problem in problems:
            out.line(problem)
        if out.plain:
            out.line(_summary_text(source, results))
        else:
            out.console.print(_summary_table(source, results))
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
