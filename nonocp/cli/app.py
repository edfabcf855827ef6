"""The Typer application every command module registers on, and what commands share.

Commands stay thin: they load, call an engine, and hand the result to a renderer. Heavy
imports (ortools) happen inside the commands so that start-up stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from nonocp.backends import EngineName
from nonocp.clock import LONGEST
from nonocp.errors import NonocpError
from nonocp.formats import FORMATS
from nonocp.models import ModelName

app = typer.Typer(
    name="nonocp",
    help="Solve, count and check nonograms with constraint programming.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        print(f"nonocp {version('nonocp')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Solve, count and check nonograms with constraint programming."""


def from_zero_to(most: float, what: str) -> Callable[[float | None], float | None]:
    """The callback of an option that takes a number from 0 to ``most``, as ``what`` (a
    share, seconds): Typer's own range lets nan through, and rounds what it prints."""

    def checked(value: float | None) -> float | None:
        if value is not None and not 0 <= value <= most:
            shown = f"{value:.15g}"  # as given, not rounded into the range
            raise typer.BadParameter(f"{shown} is not {what} from 0 to {most:,.0f}")
        return value

    return checked


def time_limit_option(help: str) -> Any:
    """The ``--time-limit S`` option every command takes, with what it bounds."""
    seconds = from_zero_to(LONGEST, "a number of seconds")
    return typer.Option("--time-limit", callback=seconds, metavar="S", help=help)


TimeLimit = Annotated[
    float | None,
    time_limit_option(
        "Stop after S seconds (each puzzle of a batch); what is not proven by then is said to"
        " be unproven ('unknown'; a count, 'at least N')."
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
Plain = Annotated[
    bool,
    typer.Option("--plain", help="ASCII output ('#' and '.'); automatic when not a terminal."),
]
FORMAT_NAMES = ", ".join(fmt.name for fmt in FORMATS)
FormatName = Annotated[
    str | None,
    typer.Option(
        "--format",
        metavar="NAME",
        help=f"Read the files in this format (default: detect): {FORMAT_NAMES}.",
    ),
]
Engine = Annotated[
    EngineName,
    typer.Option(
        "--engine",
        help="cpsat (nonocp's engine: logic, its own search and Glucose; CP-SAT with --model)"
        " or mip (the block-start model as a MIP, SCIP).",
    ),
]
Model = Annotated[
    ModelName | None,
    typer.Option(
        "--model",
        help="Use CP-SAT with this model: clue automata (the fastest), block starts, or both."
        " Without it, solve and analyze race their own searches and Glucose, and count"
        " enumerates with Glucose.",
        show_default=False,
    ),
]
PuzzleFiles = Annotated[
    list[Path],
    typer.Argument(
        metavar="FILE",
        help="Puzzle files or folders, one or many (- reads standard input).",
        show_default=False,
        readable=False,  # reading reports it in one line, and a batch goes on past it
    ),
]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        min=1,
        help="Work on a batch's puzzles on N processes at once; in one, each puzzle's hard"
        " part races on every core.",
    ),
]
Index = Annotated[
    str | None,
    typer.Option(
        "--index",
        metavar="N",
        help="Only the Nth puzzle of the file (from 1), or several: 10-12, 3,7,10-12.",
    ),
]
Name = Annotated[
    str | None, typer.Option("--name", help="Only the puzzle with this title or number.")
]


def report(error: NonocpError) -> None:
    """A user's error as the command line reports it: one line on standard error."""
    print(f"nonocp: {error}", file=sys.stderr)
