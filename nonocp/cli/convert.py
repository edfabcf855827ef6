"""``nonocp convert``: write puzzles in another format, one file's or many files' at once
(a folder's puzzles into one ``.nonpack``, say)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from nonocp.cli.app import FORMAT_NAMES, FormatName, Index, Name, PuzzleFiles, app
from nonocp.cli.batch import Unreadable, exit_status, work_of
from nonocp.errors import NonocpError
from nonocp.formats import STDIN, dumps, format_to_write, write_file
from nonocp.words import counted

Target = Annotated[
    str,
    typer.Argument(metavar="OUT", help="The file to write, or - for standard output."),
]
To = Annotated[
    str | None,
    typer.Option(
        "--to",
        metavar="NAME",
        help=f"Write this format (default: from OUT's extension): {FORMAT_NAMES}.",
    ),
]


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
    fmt = format_to_write(out, to)
    refuse_overwriting(files, out)
    work = work_of(files, format, index, name)
    puzzles = [entry.puzzle for entry in work.entries]
    if puzzles:
        write_file(out, dumps(puzzles, fmt.name))
    if work.unreadable:  # each named already: say what the output holds without them
        where = "standard output" if out == STDIN else out
        wrote = (
            f"wrote {counted(len(puzzles), 'puzzle')} to {where}" if puzzles else "wrote nothing"
        )
        skipped = unread_phrase(work.unreadable)
        print(f"nonocp: {wrote}, without {skipped} that could not be read", file=sys.stderr)
    raise typer.Exit(exit_status(work, ok=True))


def unread_phrase(unreadable: list[Unreadable]) -> str:
    """What a conversion left out, files and single puzzles: ``the 1 file and the 2 puzzles``."""
    puzzles = sum(entry.one_puzzle for entry in unreadable)
    kinds = ((len(unreadable) - puzzles, "file"), (puzzles, "puzzle"))
    return " and ".join(f"the {counted(n, kind)}" for n, kind in kinds if n)


def refuse_overwriting(paths: list[Path], out: str) -> None:
    """Refuse to write over a file being converted (named, read from standard input, or
    inside a folder named, a tournament set's solutions among them, which are read beside
    their set): what it held, comments and all, would be gone with nothing to say so."""
    try:
        if out == STDIN or not Path(out).exists():
            return
    except OSError:  # an OUT that cannot even be looked at, writing will name the reason
        return
    for path in paths:
        with contextlib.suppress(OSError):  # and reading will, for a file given
            refuse_writing_over(path, out)


def refuse_writing_over(path: Path, out: str) -> None:
    target = Path(out)
    if str(path) == STDIN:
        if os.path.samestat(os.fstat(sys.stdin.fileno()), target.stat()):
            raise NonocpError(f"{out}: is standard input, being converted; write to another")
    elif path.is_dir():
        if target.resolve().is_relative_to(path.resolve()):
            raise NonocpError(f"{out}: is inside {path}, being converted; write elsewhere")
    elif path.exists() and path.samefile(target):
        raise NonocpError(f"{out}: is the file being converted; write to another")
