"""``nonocp convert``: write puzzles in another format, one file's or many files' at once
(a folder's puzzles into one ``.nonpack``, say)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from nonocp.cli.app import FormatName, Index, Name, PuzzleFiles, app
from nonocp.cli.batch import exit_status, work_of
from nonocp.errors import NonocpError
from nonocp.formats import FORMATS, Format, by_extension, by_name, dumps

Target = Annotated[
    str,
    typer.Argument(metavar="OUT", help="The file to write, or - for standard output."),
]
To = Annotated[
    str | None,
    typer.Option("--to", help="Write this format (default: from OUT's extension)."),
]


def target_format(out: str, to: str | None) -> Format:
    """The format to write: named by ``--to``, else the one OUT's extension stands for."""
    if to is not None:
        return by_name(to)
    fmt = None if out == "-" else by_extension(out)
    if fmt is None:
        known = ", ".join(f.name for f in FORMATS)
        where = "standard output" if out == "-" else f"{out!r}"
        raise NonocpError(f"cannot tell which format to write to {where}: use --to ({known})")
    return fmt


@app.command()
def convert(
    files: PuzzleFiles,
    out: Target,
    to: To = None,
    format: FormatName = None,
    index: Index = None,
    name: Name = None,
) -> None:
    """Convert puzzles between formats: every format nonocp reads, it also writes."""
    fmt = target_format(out, to)
    work = work_of(files, format, index, name)
    text = dumps([entry.puzzle for entry in work.entries], fmt.name)
    if out == "-":
        sys.stdout.write(text)
    else:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as error:
            raise NonocpError(f"{out}: {error.strerror or 'cannot be written'}") from None
    raise typer.Exit(exit_status(work, ok=True))
