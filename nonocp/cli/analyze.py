"""``nonocp analyze``: how far logic gets on a puzzle, how hard that makes it, and whether
the puzzle is unique."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from nonocp.backends import model_builder
from nonocp.cli.app import (
    EXIT_SOLVED,
    EXIT_UNSOLVED,
    FormatName,
    Index,
    Json,
    Model,
    Name,
    Plain,
    PuzzleFile,
    TimeLimit,
    app,
    one_puzzle,
)
from nonocp.cli.output import Output, describe, puzzle_json, result_json, seconds
from nonocp.formats import name_of
from nonocp.logic import Deduction, Rating, Step, deduce
from nonocp.puzzle import Puzzle
from nonocp.render import plain

if TYPE_CHECKING:
    from nonocp.engine import Result

MEANING = {
    Rating.LINE: "line logic alone solves it",
    Rating.PROBE: "probing needed",
    Rating.SEARCH: "logic stalls; search needed",
    None: "logic stopped by the time limit",
}


@app.command()
def analyze(
    file: PuzzleFile,
    steps: Annotated[
        bool, typer.Option("--steps", help="List the lines in the order logic solved them.")
    ] = False,
    index: Index = None,
    name: Name = None,
    time_limit: TimeLimit = None,
    model: Model = None,
    as_json: Json = False,
    plain: Plain = False,
    format: FormatName = None,
) -> None:
    """Rate a puzzle (line, probe or search), show what logic fixes, and check uniqueness."""
    from nonocp.clock import deadline_after, seconds_left
    from nonocp.engine import Status, solve_from

    puzzle = one_puzzle(file, format, index, name)
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    deduction = deduce(puzzle, deadline)
    deduced = time.perf_counter() - started
    result = solve_from(puzzle, deduction, seconds_left(deadline), build=model_builder(model))
    elapsed = deduced + result.seconds  # not counting loading the search
    out = Output(plain=plain, as_json=as_json)
    if as_json:
        out.json(_json(puzzle, name_of(file), deduction, result, steps, elapsed))
    else:
        _print(out, puzzle, name_of(file), deduction, result, steps, elapsed)
    raise typer.Exit(EXIT_SOLVED if result.status is Status.SOLVED else EXIT_UNSOLVED)


def _print(
    out: Output,
    puzzle: Puzzle,
    source: str,
    deduction: Deduction,
    result: Result,
    steps: bool,
    elapsed: float,
) -> None:
    if steps:
        _print_steps(out, deduction.steps)
    if not deduction.contradiction:
        out.picture(puzzle, deduction.known)
    out.line(f"rating: {_rating(deduction)}")
    if not deduction.contradiction:
        out.line(
            f"cells: {deduction.by_line} by line logic, {deduction.by_probing} by probing, "
            f"{deduction.unknown} left for search (of {puzzle.width * puzzle.height})"
        )
    out.line(f"{describe(puzzle, source)}: {result.verdict} ({seconds(elapsed)})")


def _rating(deduction: Deduction) -> str:
    rating = deduction.rating
    name = "unknown" if rating is None else rating.value
    if deduction.contradiction:
        reasoning = "probing" if rating is Rating.PROBE else "line logic"
        return f"{name} ({reasoning} proves no solution)"
    return f"{name} ({MEANING[rating]})"


def _print_steps(out: Output, steps: tuple[Step, ...]) -> None:
    """The line solves in order, cells numbered from 1 along each line as people count."""
    if not steps:
        out.line("line logic alone fixes no cell")
        return
    if out.plain:
        for number, step in enumerate(steps, start=1):
            out.line(f"{number}. {step.axis} {step.index + 1}: {_changes(step)}")
        return
    table = Table(title="lines in the order logic solved them")
    for heading in ("step", "line", "filled", "empty"):
        table.add_column(heading, justify="right" if heading == "step" else "left")
    for number, step in enumerate(steps, start=1):
        table.add_row(
            str(number), f"{step.axis} {step.index + 1}", _spans(step.filled), _spans(step.empty)
        )
    out.console.print(table)


def _changes(step: Step) -> str:
    changes = (("filled", step.filled), ("empty", step.empty))
    return "; ".join(f"{kind} {_spans(cells)}" for kind, cells in changes if cells)


def _spans(positions: tuple[int, ...]) -> str:
    """0-based positions as 1-based ranges: ``(0, 1, 2, 5)`` is ``1-3, 6``."""
    spans: list[list[int]] = []
    for p in positions:
        if spans and spans[-1][1] == p - 1:
            spans[-1][1] = p
        else:
            spans.append([p, p])
    return ", ".join(f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in spans)


def _json(
    puzzle: Puzzle,
    source: str,
    deduction: Deduction,
    result: Result,
    steps: bool,
    elapsed: float,
) -> dict[str, Any]:
    rating = deduction.rating
    return {
        **puzzle_json(puzzle, source),
        "rating": None if rating is None else rating.value,
        "contradiction": deduction.contradiction,
        "cells": {
            "total": puzzle.width * puzzle.height,
            "line": deduction.by_line,
            "probe": deduction.by_probing,
            "search": deduction.unknown,
        },
        "logic_grid": plain(deduction.known).splitlines(),
        **result_json(result),
        "steps": [_step_json(s) for s in deduction.steps] if steps else None,
        "seconds": elapsed,
    }


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "line": step.axis,
        "index": step.index + 1,
        "filled": [p + 1 for p in step.filled],
        "empty": [p + 1 for p in step.empty],
    }
