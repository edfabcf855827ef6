"""Puzzle file formats: a registry of readers and writers, found by name, extension or content.

Each format lives in its own module and describes itself with a ``Format``; this module
reads files (bytes to text, with a located error for binary data) and picks the format.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from nonocp.errors import InputError, PuzzleError
from nonocp.puzzle import Puzzle

Reader = Callable[[str, str], list[Puzzle]]
"""Parse a file's text (second argument: its name for error messages) into puzzles."""

Writer = Callable[[Sequence[Puzzle]], str]
"""Write puzzles as one file's text; formats holding one puzzle accept exactly one."""


@dataclass(frozen=True)
class Format:
    """A file format nonocp can read and write."""

    name: str
    extensions: tuple[str, ...]
    read: Reader
    write: Writer
    looks_like: Callable[[str], bool]
    holds_many: bool = False


def _registry() -> tuple[Format, ...]:
    from nonocp.formats import gecode

    return (gecode.FORMAT,)


FORMATS: tuple[Format, ...] = _registry()


def by_name(name: str) -> Format:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    known = ", ".join(f.name for f in FORMATS)
    raise InputError(name, None, None, f"unknown format (known formats: {known})")


def by_extension(path: str | Path) -> Format | None:
    suffix = Path(path).suffix.lower().lstrip(".")
    return next((f for f in FORMATS if suffix in f.extensions), None)


def detect(source: str, text: str) -> Format:
    """The format of a file: by its extension, failing that by what its text looks like."""
    return by_extension(source) or next(
        (f for f in FORMATS if f.looks_like(text)),
        FORMATS[0],
    )


def decode(data: bytes, source: str) -> str:
    """A file's bytes as text; binary data is a located error rather than a traceback."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8", "replace")
        where = position(before, len(before))
        raise InputError(source, *where, "not a text file (invalid UTF-8)") from None
    if "\x00" in text:
        where = position(text, text.index("\x00"))
        raise InputError(source, *where, "not a text file (NUL byte)")
    return text


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset, for located errors."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def read_file(path: str | Path) -> str:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputError(source, None, None, error.strerror or "cannot be read") from None
    return decode(data, source)


def load_all(path: str | Path, format: str | None = None) -> list[Puzzle]:
    """Every puzzle in a file, each validated before it is returned."""
    source = str(path)
    text = read_file(path)
    fmt = by_name(format) if format else detect(source, text)
    puzzles = fmt.read(text, source)
    if not puzzles:
        raise InputError(source, None, None, f"no puzzle found (read as {fmt.name})")
    for puzzle in puzzles:
        try:
            puzzle.validate()
        except PuzzleError as error:
            name = f" {puzzle.title!r}" if puzzle.title else ""
            raise InputError(source, None, None, f"inconsistent clues{name}: {error}") from None
    return puzzles


def load(path: str | Path, format: str | None = None) -> Puzzle:
    """The one puzzle in a file (the first, for files that hold several)."""
    return load_all(path, format)[0]


def dumps(puzzles: Sequence[Puzzle], format: str) -> str:
    fmt = by_name(format)
    if len(puzzles) > 1 and not fmt.holds_many:
        raise InputError(format, None, None, f"the {fmt.name} format holds one puzzle")
    return fmt.write(puzzles)

