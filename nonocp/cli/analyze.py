"""``nonocp analyze``: how far logic gets on puzzles, how hard that makes them, and
whether they are unique.

One puzzle is drawn as logic leaves it; many (several files, or a file holding many) get
a line each and a summary of their ratings, as a designer checking a collection needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from nonocp.answers import Uniqueness
from nonocp.backends import model_builder
from nonocp.cli.app import (
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
from nonocp.cli.output import Output, puzzle_json, result_json, seconds
from nonocp.logic import Deduction, Rating, Step
from nonocp.puzzle import Puzzle
from nonocp.render import plain

if TYPE_CHECKING:
    from nonocp.engine import Analysis

MEANING = {
    Rating.LINE: "line logic alone solves it",
    Rating.PROBE: "probing needed",
    Rating.SEARCH: "logic stalls; search needed",
    None: "logic stopped by the time limit",
}


@app.command()
def analyze(
    files: PuzzleFiles,
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
    jobs: Jobs = 1,
) -> None:
    """Rate puzzles (line, probe or search), show what logic fixes, and check uniqueness."""
    out = Output(plain=plain, as_json=as_json)
    work = solvable(work_of(files, format, index, name))
    one_puzzle_only(work, steps=steps)
    build = model_builder(model)
    from nonocp import engine  # here: the command line starts without it

    if work.single:
        (entry,) = work.entries
        analysis = engine.analyze(entry.puzzle, time_limit, build)
        if as_json:
            out.json({"puzzle": entry.label, **_json(entry, analysis, steps)})
        else:
            _print(out, entry, analysis, steps)
        ok = analysis.solved
    else:
        analyze_one = partial(engine.analyze, time_limit=time_limit, build=build)
        ok = _analyze_many(work, analyze_one, jobs, out) and bool(work.entries)
    raise typer.Exit(exit_status(work, ok))


def _analyze_many(
    work: Work, analyze_one: Callable[[Puzzle], Analysis], jobs: int, out: Output
) -> bool:
    """Analyze every puzzle of a batch on ``jobs`` processes, in order, then print a line
    for each and a summary."""
    work, analyses = answered(
        out,
        "analyzing",
        work,
        analyze_one,
        jobs,
        lambda entry, analysis: _summary_line(entry.heading, analysis),
    )
    print_batch(
        out,
        work,
        analyses,
        lambda entry, analysis: _json(entry, analysis, steps=False),
        _tally(analyses),
    )
    return all(analysis.solved for analysis in analyses)


def _print(out: Output, entry: Entry, analysis: Analysis, steps: bool) -> None:
    puzzle, deduction = entry.puzzle, analysis.deduction
    if steps:
        _print_steps(out, deduction.steps, deduction.broken)
        if deduction.by_probing and not deduction.contradiction:  # where a designer looks
            known = f"{deduction.by_line} of {puzzle.width * puzzle.height} cells known"
            out.line(f"line logic stalls here ({known}):")
            out.picture(puzzle, deduction.after_lines)
            out.line("after probing:")
    if not deduction.contradiction:
        out.picture(puzzle, deduction.known)
    out.line(f"rating: {_rating(analysis)}")
    if not deduction.contradiction:
        out.line(f"cells: {_cells(deduction)} (of {puzzle.width * puzzle.height})")
    out.line(f"{entry.heading}: {analysis.result.verdict} ({seconds(analysis.seconds)})")


def _summary_line(heading: str, analysis: Analysis) -> str:
    """One puzzle of a batch: its rating, the cells each stage fixed, and the verdict."""
    deduction = analysis.deduction
    rating = _rating_name(deduction.rating)
    cells = "" if deduction.contradiction else f"; {_cells(deduction)}"
    verdict = f"{analysis.result.verdict} ({seconds(analysis.seconds)})"
    return f"{heading}: {rating}{cells}; {verdict}"


def _cells(deduction: Deduction) -> str:
    return (
        f"{deduction.by_line} by line logic, {deduction.by_probing} by probing, "
        f"{deduction.unknown} left for search"
    )


def _tally(analyses: list[Analysis]) -> dict[str, Any]:
    ratings = Counter(_rating_name(analysis.deduction.rating) for analysis in analyses)
    return {
        "puzzles": len(analyses),
        **{name: ratings[name] for name in ("line", "probe", "search", "unrated")},
        **verdicts([analysis.result for analysis in analyses]),
        **timing([analysis.seconds for analysis in analyses]),
    }


def _rating_name(rating: Rating | None) -> str:
    return "unrated" if rating is None else rating.value


def _rating(analysis: Analysis) -> str:
    """The rating and what it means; where search is needed because the puzzle has several
    solutions, no reasoning could do better, and a designer must hear that first."""

    deduction = analysis.deduction
    rating = deduction.rating
    name = _rating_name(rating)
    if deduction.contradiction:
        reasoning = "probing" if rating is Rating.PROBE else "line logic"
        return f"{name} ({reasoning} proves no solution)"
    if rating is Rating.SEARCH and analysis.result.uniqueness is Uniqueness.MULTIPLE:
        return f"{name} (logic stalls: the puzzle is not unique, and no logic settles it)"
    return f"{name} ({MEANING[rating]})"


def _print_steps(out: Output, steps: tuple[Step, ...], broken: tuple[str, int] | None) -> None:
    """The line solves in order, cells numbered from 1 along each line as people count,
    and the line that then has no arrangement left, where line logic proves no solution."""
    if not steps and broken is None:
        out.line("line logic alone fixes no cell")
        return
    if out.plain:
        for number, step in enumerate(steps, start=1):
            out.line(f"{number}. {_named(step.axis, step.index)}: {_changes(step)}")
        if broken is not None:
            out.line(f"{len(steps) + 1}. {_named(*broken)}: {NO_ARRANGEMENT}")
        return
    table = Table(title="lines in the order logic solved them")
    for heading in ("step", "line", "filled", "empty"):
        table.add_column(heading, justify="right" if heading == "step" else "left")
    for number, step in enumerate(steps, start=1):
        line = _named(step.axis, step.index)
        table.add_row(str(number), line, _spans(step.filled), _spans(step.empty))
    if broken is not None:
        table.add_row(str(len(steps) + 1), _named(*broken), NO_ARRANGEMENT, "")
    out.console.print(table)


NO_ARRANGEMENT = "no arrangement of its clue fits: no solution"


def _named(axis: str, index: int) -> str:
    return f"{axis} {index + 1}"  # lines numbered from 1, as people count


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


def _json(entry: Entry, analysis: Analysis, steps: bool) -> dict[str, Any]:
    puzzle, deduction, rating = entry.puzzle, analysis.deduction, analysis.deduction.rating
    return {
        **puzzle_json(puzzle, entry.source),
        "rating": None if rating is None else rating.value,
        "contradiction": deduction.contradiction,
        "cells": {
            "total": puzzle.width * puzzle.height,
            "line": deduction.by_line,
            "probe": deduction.by_probing,
            "search": deduction.unknown,
        },
        "logic_grid": plain(deduction.known).splitlines(),
        **result_json(analysis.result),
        "steps": [_step_json(s) for s in deduction.steps] if steps else None,
        "line_logic_grid": plain(deduction.after_lines).splitlines() if steps else None,
        "no_arrangement": _broken_json(deduction.broken) if steps else None,
        "seconds": analysis.seconds,
    }


def _broken_json(broken: tuple[str, int] | None) -> dict[str, Any] | None:
    """The line no arrangement fits, where line logic proves no solution, as steps name it."""
    return None if broken is None else {"line": broken[0], "index": broken[1] + 1}


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "line": step.axis,
        "index": step.index + 1,
        "filled": [p + 1 for p in step.filled],
        "empty": [p + 1 for p in step.empty],
    }
