"""The Typer application every command module registers on, and what commands share.

Commands stay thin: they load, call an engine, and hand the result to a renderer. Heavy
imports (ortools) happen inside the commands so that start-up stays fast.
"""

from __future__ import annotations

from typing import Annotated

import typer

from nonocp.backends import EngineName, ModelName

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
        help="CP-SAT model: clue automata, block starts, or both (default: the fastest).",
        show_default=False,
    ),
]
