"""``nonocp generate``: random puzzles for benchmarks, tests and practice."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from nonocp.answers import Uniqueness
from nonocp.cli import EXIT_INTERRUPTED
from nonocp.cli.app import FORMAT_NAMES, app, from_zero_to, time_limit_option
from nonocp.cli.output import progress_bar
from nonocp.errors import NonocpError

if TYPE_CHECKING:
    from nonocp.puzzle import Puzzle


@app.command()
def generate(
    size: Annotated[str, typer.Option("--size", help="WIDTHxHEIGHT.")] = "30x30",
    density: Annotated[
        float,
        typer.Option(
            "--density",
            callback=from_zero_to(1, "a share"),
            help="Share of filled cells, from 0 to 1.",
        ),
    ] = 0.5,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the first puzzle.")] = 1,
    count: Annotated[int, typer.Option("--count", min=1, help="How many puzzles.")] = 1,
    unique: Annotated[
        bool, typer.Option("--unique", help="Keep only puzzles proven to have one solution.")
    ] = False,
    time_limit: Annotated[
        float | None,
        time_limit_option(
            "With --unique, at most S seconds to prove each puzzle unique; one not proven by "
            "then is not kept."
        ),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="NAME",
            help=f"Output format (default: --out's extension, else json): {FORMAT_NAMES}.",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write to this file (default: standard output).")
    ] = None,
) -> None:
    """Generate random puzzles from random pictures (puzzle i uses seed + i)."""
    from nonocp.formats import (
        STDIN,
        check_writable,
        dumps,
        format_to_write,
        holding_many,
        write_file,
    )
    from nonocp.generate import parse_size, random_puzzles

    try:
        width, height = parse_size(size)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--size") from None
    target = STDIN if out is None else out
    fmt = format_to_write(target, "json" if to is None and str(target) == STDIN else to)
    if count > 1 and not fmt.holds_many:
        given = f"--to {to}" if to else f"{out} ({fmt.name})"
        raise NonocpError(f"{given} holds one puzzle: use --count 1, or {holding_many()}")
    if time_limit is not None and not unique:
        raise NonocpError("--time-limit bounds the proofs of --unique: give both or neither")
    if time_limit == 0:
        raise NonocpError("--time-limit 0 leaves no time to prove a puzzle unique")
    pictures = random_puzzles(width, height, density, seed)
    if not unique:
        write_file(target, dumps(list(islice(pictures, count)), fmt.name))
        return
    check_writable(target)  # before the proofs, which may take hours
    sifted = _sift(pictures, count, time_limit)
    if sifted.kept:
        write_file(target, dumps(sifted.kept, fmt.name))
    print(sifted.summary(seed, count, time_limit), file=sys.stderr)
    if sifted.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


@dataclass
class Sifted:
    """What sifting random puzzles for unique ones gave: the puzzles proven unique, how
    many were tried, how many of those the time limit left unknown, and whether Ctrl-C
    stopped it first."""

    kept: list[Puzzle] = field(default_factory=list)
    tried: int = 0
    unknown: int = 0
    interrupted: bool = False

    def summary(self, seed: int, count: int, time_limit: float | None) -> str:
        """One line saying what was kept and from which seeds, for reproducing it."""
        line = f"kept {len(self.kept)} unique of {self.tried} tried"
        if self.tried:
            last = seed + self.tried - 1
            line += f" (seed {seed})" if last == seed else f" (seeds {seed}-{last})"
        if self.interrupted:
            line = f"interrupted: {line}, of {count} asked for"
        if self.unknown:
            line += f"; {self.unknown} not proven either way in {time_limit:g} s, not kept"
        return line


def _sift(pictures: Iterator[Puzzle], count: int, time_limit: float | None) -> Sifted:
    """The first ``count`` puzzles proven unique, under a progress bar on standard error
    (a large puzzle may take long to prove, and unique ones may be rare); after Ctrl-C,
    those kept so far."""
    from nonocp.generate import uniqueness

    sifted = Sifted()
    columns = (
        TextColumn("unique puzzles"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tried]} tried, {task.fields[unknown]} not proven either way"),
        TimeElapsedColumn(),
    )
    with progress_bar(*columns, transient=True) as bar:
        task = bar.add_task("", total=count, tried=0, unknown=0)
        try:
            while len(sifted.kept) < count:
                puzzle = next(pictures)
                verdict = uniqueness(puzzle, time_limit)
                sifted.tried += 1
                if verdict is Uniqueness.UNIQUE:
                    sifted.kept.append(puzzle)
                elif verdict is Uniqueness.UNKNOWN:
                    sifted.unknown += 1
                bar.update(
                    task, completed=len(sifted.kept), tried=sifted.tried, unknown=sifted.unknown
                )
        except KeyboardInterrupt:
            sifted.interrupted = True
    return sifted
