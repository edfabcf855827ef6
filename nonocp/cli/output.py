"""How commands print: a rich picture on a terminal, plain ASCII in pipes, or JSON."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Collection, Sequence
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn

from nonocp.answers import Result
from nonocp.puzzle import Cell, Grid, Known, Puzzle
from nonocp.render import picture, plain

UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Control characters, and the line breaks ``str.splitlines`` knows beyond them."""


def _escaped(found: re.Match[str]) -> str:
    return repr(found.group())[1:-1]  # \n, \x1b, \u2028


def progress_bar(*columns: str | ProgressColumn, **options: Any) -> Progress:
    """A rich progress bar on standard error, so that standard output holds only results,
    and shown only on a terminal (a log file would fill with its redraws)."""
    errors = Console(stderr=True)
    return Progress(*columns, console=errors, disable=not errors.is_terminal, **options)


class Output:
    """Where a command's results go, and in which style."""

    def __init__(self, *, plain: bool = False, as_json: bool = False) -> None:
        self.console = Console(highlight=False)
        self.plain = plain or not self.console.is_terminal
        self.as_json = as_json

    def picture(self, puzzle: Puzzle, cells: Known, highlight: Collection[Cell] = ()) -> None:
        if self.as_json:
            return
        if self.plain:
            print(plain(cells))
        else:
            self.console.print(
                picture(puzzle, cells, width=self.console.width, highlight=highlight)
            )

    def line(self, text: str) -> None:
        """One line, always, as written: control characters and line breaks a title
        brings are escaped (``\\n``), so that a script reading lines reads one per
        puzzle, and a title's brackets and colons are not rich markup or emoji codes."""
        if self.as_json:
            return
        text = UNPRINTABLE.sub(_escaped, text)
        if self.plain:
            print(text)
        else:
            self.console.print(text, markup=False, emoji=False, soft_wrap=True)

    def json(self, document: dict[str, Any]) -> None:
        json.dump(document, sys.stdout, indent=2)
        print()


def grid_rows(grid: Grid | None) -> list[str] | None:
    """A grid as JSON carries it: one string per row, ``#`` filled and ``.`` empty."""
    return None if grid is None else plain(grid).splitlines()


def seconds(value: float) -> str:
    return f"{value:.3f} s"


def describe(puzzle: Puzzle, source: str) -> str:
    """``file (title) WxH``: what a summary line calls the puzzle."""
    title = f" ({puzzle.title})" if puzzle.title else ""
    return f"{source}{title} {puzzle.size}"


def grids_json(grids: Sequence[Grid]) -> list[list[str] | None]:
    return [grid_rows(g) for g in grids]


def puzzle_json(puzzle: Puzzle, source: str) -> dict[str, Any]:
    """What every JSON document says first: which puzzle it is about."""
    return {"file": source, "title": puzzle.title, "size": puzzle.size}


def result_json(result: Result) -> dict[str, Any]:
    """A solving result as JSON: status, proven verdict, and the grids found."""
    return {
        "status": result.status.value,
        "uniqueness": result.uniqueness.value,
        "verdict": result.verdict,
        "grid": grid_rows(result.grid),
        "other": grid_rows(result.other),
    }
