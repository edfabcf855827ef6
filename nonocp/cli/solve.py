"""``nonocp solve`` and ``nonocp count``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from nonocp.cli.app import FormatName, Json, Plain, TimeLimit, app
from nonocp.cli.output import Output, describe, grid_rows, grids_json, seconds
from nonocp.formats import load
from nonocp.render import ambiguous_cells, masked

PuzzleFile = Annotated[Path, typer.Argument(help="The puzzle file.", show_default=False)]

EXIT_SOLVED, EXIT_UNSOLVED = 0, 1


@app.command()
def solve(
    file: PuzzleFile,
    time_limit: TimeLimit = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
) -> None:
    """Solve a puzzle, draw the solution and prove whether it is unique."""
    from nonocp.engine import Status, solve

    puzzle = load(file, format)
    result = solve(puzzle, time_limit=time_limit)
    out = Output(plain=plain, as_json=as_json)
    if as_json:
        out.json(
            {
                "file": str(file),
                "size": puzzle.size,
                "status": result.status.value,
                "uniqueness": result.uniqueness.value,
                "verdict": result.verdict,
                "grid": grid_rows(result.grid),
                "other": grid_rows(result.other),
                "seconds": result.seconds,
            }
        )
    elif result.grid is not None:
        differing = ambiguous_cells([result.grid, result.other]) if result.other else set()
        out.picture(puzzle, result.grid, highlight=differing)
    out.line(f"{describe(puzzle, str(file))}: {result.verdict} ({seconds(result.seconds)})")
    raise typer.Exit(EXIT_SOLVED if result.status is Status.SOLVED else EXIT_UNSOLVED)


@app.command()
def count(
    file: PuzzleFile,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Stop counting after N solutions.")
    ] = None,
    show: Annotated[bool, typer.Option("--show", help="Draw every solution.")] = False,
    time_limit: TimeLimit = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
) -> None:
    """Count the solutions of a puzzle (exactly, or 'at least N' when stopped early)."""
    from nonocp.engine import Count, solutions

    puzzle = load(file, format)
    out = Output(plain=plain, as_json=as_json)
    started = time.perf_counter()
    enumeration = solutions(puzzle, limit=limit, time_limit=time_limit)
    grids = []
    for number, grid in enumerate(enumeration, start=1):
        grids.append(grid)
        if show:
            out.line(f"solution {number}:")
            out.picture(puzzle, grid)
    elapsed = time.perf_counter() - started
    total = Count(len(grids), enumeration.exact, enumeration.stopped_by, elapsed)
    differing = ambiguous_cells(grids)
    if show and len(grids) > 1:
        out.line(f"{len(differing)} cells differ between the solutions (shown as unknown):")
        out.picture(puzzle, masked(grids[0], differing))
    if as_json:
        out.json(
            {
                "file": str(file),
                "size": puzzle.size,
                "count": total.count,
                "exact": total.exact,
                "stopped_by": total.stopped_by,
                "grids": grids_json(grids) if show else None,
                "ambiguous_cells": sorted(differing),
                "seconds": total.seconds,
            }
        )
    out.line(f"{describe(puzzle, str(file))}: {total.text} ({seconds(total.seconds)})")
    unsolved = total.count == 0 or total.stopped_by == "time limit"
    raise typer.Exit(EXIT_UNSOLVED if unsolved else EXIT_SOLVED)
