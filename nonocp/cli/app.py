"""The Typer application every command module registers on, and what commands share.

Commands stay thin: they load, call an engine, and hand the result to a renderer. Heavy
imports (ortools) happen inside the commands so that start-up stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from nonocp.backends import EngineName, ModelName
from nonocp.errors import NonocpError
from nonocp.formats import load_all, name_of, select
from nonocp.puzzle import Puzzle

app = typer.Typer(
    name="nonocp",
    help="Solve, count and check nonograms with constraint programming.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

TimeLimit = Annotated[
    float | None,
    typer.Option("--time-limit", min=0.0, help="Stop after S seconds; the answer is 'unknown'."),
]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
Plain = Annotated[
    bool,
    typer.Option("--plain", help="ASCII output ('#' and '.'); automatic when not a terminal."),
]
FormatName = Annotated[
    str | None, typer.Option("--format", help="Read the file in this format (default: detect).")
]
Engine = Annotated[
    EngineName,
    typer.Option("--engine", help="cpsat (CP-SAT) or mip (the block-start model as a MIP, SCIP)."),
]
Model = Annotated[
    ModelName | None,
    typer.Option(
        "--model",
        help="CP-SAT model: clue automata (default, the fastest), block starts, or both.",
        show_default=False,
    ),
]
PuzzleFiles = Annotated[
    list[Path],
    typer.Argument(
        metavar="FILE",
        help="Puzzle files or folders, one or many (- reads standard input).",
        show_default=False,
    ),
]
Index = Annotated[
    int | None, typer.Option("--index", min=1, help="Only the Nth puzzle of the file (from 1).")
]
Name = Annotated[
    str | None, typer.Option("--name", help="Only the puzzle with this title or number.")
]

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_BAD_INPUT = 0, 1, 2


def report(error: NonocpError) -> None:
    """A user's error as the command line reports it: one line on standard error."""
    print(f"nonocp: {error}", file=sys.stderr)


def chosen_puzzles(
    file: Path, format: str | None, index: int | None, name: str | None
) -> list[Puzzle]:
    """The puzzles of a file a command works on: all, or the one ``--index``/``--name`` picks."""
    return select(load_all(file, format), index, name, source=name_of(file))
