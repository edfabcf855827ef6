"""``nonocp generate``: random puzzles for benchmarks, tests and practice."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from nonocp.cli.app import app
from nonocp.errors import NonocpError


@app.command()
def generate(
    size: Annotated[str, typer.Option("--size", help="WIDTHxHEIGHT.")] = "30x30",
    density: Annotated[
        float, typer.Option("--density", min=0.0, max=1.0, help="Share of filled cells.")
    ] = 0.5,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first puzzle.")] = 1,
    count: Annotated[int, typer.Option("--count", min=1, help="How many puzzles.")] = 1,
    unique: Annotated[
        bool, typer.Option("--unique", help="Keep only puzzles with exactly one solution.")
    ] = False,
    to: Annotated[str, typer.Option("--to", help="Output format.")] = "json",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write to this file (default: standard output).")
    ] = None,
) -> None:
    """Generate random puzzles from random pictures (puzzle i uses seed + i)."""
    from nonocp.formats import STDIN, by_name, dumps, holding_many, write_file
    from nonocp.generate import parse_size, random_puzzles

    try:
        width, height = parse_size(size)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--size") from None
    if count > 1 and not by_name(to).holds_many:
        raise NonocpError(f"--to {to} holds one puzzle: use --count 1, or {holding_many()}")
    puzzles = list(random_puzzles(width, height, density, seed, count, unique))
    write_file(STDIN if out is None else out, dumps(puzzles, to))
