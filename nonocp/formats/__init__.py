"""Puzzle file formats: a registry of readers and writers, found by name, extension or content.

Each format lives in its own module and describes itself with a ``Format``; this module
reads files (bytes to text, with a located error for binary data), picks the format, and
helps with files that hold many puzzles: naming them, picking one, pairing them with a
separate file of solutions.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from nonocp.errors import InputError, NonocpError, PuzzleError, named_os_errors
from nonocp.puzzle import Puzzle

Reading = Puzzle | InputError
"""One puzzle of a file as its reader found it: the puzzle, or why it cannot be read."""

Reader = Callable[[str, str], Sequence[Reading]]
"""Parse a file's text (second argument: its name for error messages) into puzzles. A
file whose structure is broken raises the error; in a set of puzzles whose structure
holds (a tournament set's ``$n`` blocks, a pack's ``====`` parts, XML elements, JSON
items), a puzzle that cannot be read stands as its error in its place, so that one bad
puzzle of a thousand does not cost the other 999. (A tournament solution file, which a
set is checked against, is read whole or not at all.)"""

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


Part = TypeVar("Part")


def each(read_one: Callable[[Part], Puzzle], parts: Iterable[Part]) -> list[Reading]:
    """``read_one`` of each part of a file of many puzzles, or that part's error in its place."""
    readings: list[Reading] = []
    for part in parts:
        try:
            readings.append(read_one(part))
        except InputError as error:
            readings.append(error)
    return readings


Locate = Callable[[str, int, str], Exception]
"""The error, placed where a file writes the clue, of a clue's kind (``"row"`` or
``"column"``), its 0-based index and a message."""


def consistent(puzzle: Puzzle, located: Locate) -> Puzzle:
    """``puzzle``, unless its clues contradict each other before any solving: a clue too
    long for its line, or rows and columns that fill different numbers of cells. The
    error is placed by ``located``: at the clue too long, or where the column clues start
    (the file cannot say which side is wrong, but it can say where to look)."""
    for kind, index, why in puzzle.overlong():
        raise located(kind, index, f"{kind} {why}")
    imbalance = puzzle.imbalance()
    if imbalance and puzzle.columns:
        raise located("column", 0, f"{imbalance} (the column clues start here)")
    return puzzle


DIGITS = 9
"""The most digits a number in a puzzle file may have: no line of a puzzle has a billion
cells, and Python will not even convert a number of over 4,300 digits."""
NUMBER = rf"[0-9]{{1,{DIGITS}}}"
"""Such a number, in the readers' regular expressions."""
LONG_NUMBER = f"expected a number of at most {DIGITS} digits"
"""What an error says of a longer one."""
NOT_SUPPORTED = "colour puzzles are not supported"
"""What an error says of a colour puzzle, with what in the file shows it is one."""
NO_CELLS = "a puzzle has at least one row and one column"
"""What an error says of a size of 0 where a file states the size."""
ZERO_BESIDE = "a 0 beside other numbers (an empty line's clue is 0 alone)"
"""What an error says of a clue such as ``1 0``: most likely a typo (for ``10``), which
dropping the 0 would have hidden."""


def zero_beside(numbers: Sequence[int]) -> bool:
    return len(numbers) > 1 and 0 in numbers


def shown(text: str) -> str:
    """Text quoted from a file in an error message: in quotes, and cut short when long (a
    file with lone carriage returns for line breaks is one long line)."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}..."


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset, for located errors."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def number(puzzle: Puzzle, position: int) -> str:
    """The puzzle's number in its file: the ``$n`` of a TAAI set, else its 1-based position."""
    return dict(puzzle.extra).get("number", str(position))


def label(puzzle: Puzzle, position: int) -> str:
    """How messages and tables name a puzzle: its title, else ``$n`` or ``#position``."""
    if puzzle.title:
        return puzzle.title
    numbered = dict(puzzle.extra).get("number")
    return f"${numbered}" if numbered else f"#{position}"


def _registry() -> tuple[Format, ...]:
    """Every format, in the order content sniffing tries them (Gecode/R first, the fallback)."""
    from nonocp.formats import gecode, json, keen, nin, non, taai, webpbn

    return (
        gecode.FORMAT,
        non.PACK_FORMAT,
        non.FORMAT,
        nin.FORMAT,
        taai.SOLUTION_FORMAT,
        taai.FORMAT,
        keen.FORMAT,
        webpbn.FORMAT,
        json.FORMAT,
    )


FORMATS: tuple[Format, ...] = _registry()


def by_name(name: str) -> Format:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    known = ", ".join(f.name for f in FORMATS)
    raise InputError(name, None, None, f"unknown format (known formats: {known})")


def with_extension(path: str | Path) -> list[Format]:
    suffix = Path(path).suffix.lower().lstrip(".")
    return [f for f in FORMATS if suffix in f.extensions]


def by_extension(path: str | Path) -> Format | None:
    """The format a file of this name is written in (the first, when several share it)."""
    return next(iter(with_extension(path)), None)


def puzzle_files(folder: Path) -> list[Path]:
    """The puzzle files under a folder, in order: every file whose extension names a
    format, but for a tournament set's solutions (``set.solution.txt``), which are not
    puzzles of their own."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file() and by_extension(path) and ".solution." not in path.name
    )


def detect(source: str, text: str) -> Format:
    """The format of a file: by its extension, failing that by what its text looks like.

    Several formats share ``.txt`` (Gecode/R, TAAI, Kyle Keen's), so the content decides
    among them; when nothing matches, the first candidate reads the file and its errors
    say what was expected.
    """
    candidates = with_extension(source)
    if len(candidates) == 1:
        return candidates[0]
    candidates = candidates or list(FORMATS)
    return next((f for f in candidates if f.looks_like(text)), candidates[0])


def decode(data: bytes, source: str) -> str:
    """A file's bytes as text, its lines ended by LF or CRLF; binary data is a located
    error rather than a traceback."""
    body = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = ended(body.decode("utf-8"))
    except UnicodeDecodeError as error:
        before = ended(body[: error.start].decode("utf-8", "replace"))
        where = position(before, len(before))
        byte = body[error.start : error.start + 1].hex()
        why = f"expected UTF-8 text, found the byte 0x{byte} (another encoding, or not text)"
        raise InputError(source, *where, why) from None
    if "\x00" in text:
        where = position(text, text.index("\x00"))
        raise InputError(source, *where, "not a text file (NUL byte)")
    return text


LONE_CR = re.compile("\r(?!\n)")


def ended(text: str) -> str:
    """``text`` with each line ended by a lone carriage return (the old Mac way) ended by
    LF instead, as editors show such lines; nonocp's writers escape a carriage return
    inside a title, so none is taken for a line's end."""
    return LONE_CR.sub("\n", text)


STDIN = "-"
"""The file name that stands for standard input, as in most command-line tools: puzzles
piped from ``nonocp generate`` or another program need no temporary file."""


def name_of(path: str | Path) -> str:
    """How errors and reports name a file: ``<stdin>`` for standard input."""
    return "<stdin>" if str(path) == STDIN else str(path)


def format_to_write(out: str | Path, to: str | None) -> Format:
    """The format to write OUT in: named by ``--to``, else the one OUT's extension stands
    for (the first, when several share it); standard output (``-``) needs ``--to``."""
    if to is not None:
        return by_name(to)
    fmt = None if str(out) == STDIN else by_extension(out)
    if fmt is None:
        known = ", ".join(f.name for f in FORMATS)
        where = "standard output" if str(out) == STDIN else f"{str(out)!r}"
        raise NonocpError(f"cannot tell which format to write to {where}: use --to ({known})")
    return fmt


LARGEST = 64 * 2**20
"""The most bytes a puzzle file may hold, hundreds of times the largest puzzle set here
(a TAAI set of 1,000 puzzles is 130 kB): past it the input is not puzzles, and a device
like ``/dev/zero`` would otherwise be read until memory ran out."""


def read_file(path: str | Path) -> str:
    """A file's text (standard input's for ``-``), binary data being a located error."""
    source = name_of(path)
    with named_os_errors(source, "cannot be read", reading=True):
        if str(path) == STDIN:
            data = sys.stdin.buffer.read(LARGEST + 1)
        else:
            with Path(path).open("rb") as file:
                data = file.read(LARGEST + 1)
    if len(data) > LARGEST:
        raise InputError(source, None, None, f"over {LARGEST // 2**20} MiB: not a puzzle file")
    return decode(data, source)


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to a file (standard output for ``-``), an error in one line."""
    if str(path) == STDIN:
        sys.stdout.write(text)
        return
    with named_os_errors(path, "cannot be written"):
        Path(path).write_text(text, encoding="utf-8")


def check_writable(path: str | Path) -> None:
    """Fail now, in one line, if ``path`` cannot be written (standard output always can),
    and leave it as it was: for a command that writes only after long work."""
    if str(path) == STDIN:
        return
    existed = os.path.lexists(path)
    with named_os_errors(path, "cannot be written"):
        Path(path).open("a").close()
        if not existed:
            Path(path).unlink()


def load_all(path: str | Path, format: str | None = None) -> list[Puzzle]:
    """Every puzzle in a file, each validated before it is returned; the first that
    cannot be read is the file's error."""
    puzzles = []
    for reading in load_each(path, format):
        if isinstance(reading, InputError):
            raise reading
        puzzles.append(reading)
    return puzzles


def load_each(path: str | Path, format: str | None = None) -> list[Reading]:
    """Every puzzle in a file, each validated before it is returned, or in the place of
    one that cannot be read, its error: a batch reports that one and goes on with the
    rest. Where no puzzle of the file reads, the first one's error is raised."""
    source = name_of(path)
    text = read_file(path)
    if not text.strip():  # else each format's grammar would say what it expected first
        raise InputError(source, 1, 1, "expected a puzzle, found an empty file")
    fmt = by_name(format) if format else detect(source, text)
    try:
        found = fmt.read(text, source)
        if not found:
            raise InputError(source, None, None, f"no puzzle found (read as {fmt.name})")
        readings = [validated(r, at, source, len(found)) for at, r in enumerate(found, start=1)]
        errors = [reading for reading in readings if isinstance(reading, InputError)]
        if len(errors) == len(readings):
            raise errors[0]
    except InputError as error:
        raise error if format else hinted(error, fmt, text) from None
    return readings


def validated(reading: Reading, at: int, source: str, held: int) -> Reading:
    """A puzzle read, or the error saying why its clues contradict each other should its
    reader have let a contradiction through: the readers place every one they find in the
    file (a clue too long, an empty side, totals that differ), and this keeps one they
    miss from reaching the solvers, which would stop a whole batch for it."""
    if isinstance(reading, InputError):
        return reading
    try:
        return reading.validate()
    except PuzzleError as error:
        if held > 1:
            name = f" in puzzle {label(reading, at)}"
        else:
            name = f" {reading.title!r}" if reading.title else ""
        return InputError(source, None, None, f"inconsistent clues{name}: {error}")


def hinted(error: InputError, fmt: Format, text: str) -> InputError:
    """``error`` with a hint when the file, read as its name says, reads as another format:
    a JSON file named ``.non`` otherwise fails only at its last line, for want of a width."""
    other = next((f for f in FORMATS if f is not fmt and reads(f, text, error.source)), None)
    if other is None:
        return error
    hint = f" (the file reads as {other.name}: --format {other.name})"
    return InputError(error.source, error.line, error.column, error.message + hint)


def reads(fmt: Format, text: str, source: str) -> bool:
    """Whether ``text`` looks like ``fmt`` and reads as consistent puzzles in it."""
    if not fmt.looks_like(text):
        return False
    try:
        readings = fmt.read(text, source)
    except NonocpError:
        return False
    return bool(readings) and all(
        isinstance(reading, Puzzle) and not reading.problems() for reading in readings
    )


def load(path: str | Path, format: str | None = None) -> Puzzle:
    """The one puzzle in a file. A file of several is refused rather than read as its
    first: a tournament set's first puzzle stands for none of the others."""
    puzzles = load_all(path, format)
    if len(puzzles) > 1:
        raise InputError(
            name_of(path), None, None, f"holds {len(puzzles)} puzzles: read them with load_all"
        )
    return puzzles[0]


def dumps(puzzles: Puzzle | Sequence[Puzzle], format: str) -> str:
    """Puzzles (or one) as a file of ``format`` holds them. Only puzzles that could be read
    back: none is no file, and clues no grid can satisfy are a ``PuzzleError``."""
    fmt = by_name(format)
    puzzles = [puzzles] if isinstance(puzzles, Puzzle) else puzzles
    if not puzzles:
        raise NonocpError("no puzzle to write")
    for puzzle in puzzles:
        puzzle.validate()
    if len(puzzles) > 1 and not fmt.holds_many:
        raise NonocpError(
            f"the {fmt.name} format holds one puzzle, not {len(puzzles)}: pick one "
            f"(--index or --name) or {holding_many()}"
        )
    return fmt.write(puzzles)


def holding_many() -> str:
    """The advice for many puzzles bound for a format that holds one."""
    return f"use a format that holds many ({', '.join(f.name for f in FORMATS if f.holds_many)})"


def select(
    readings: Sequence[Reading],
    index: str | None = None,
    name: str | None = None,
    source: str = "the file",
) -> list[Reading]:
    """The puzzles a command works on: all of them, those ``index`` picks, or the one
    ``name`` picks (a puzzle that could not be read, its error in its place).

    ``index`` counts from 1 as people do, and takes ranges and lists (``7``, ``10-12``,
    ``3,7,10-12``); ``name`` matches a title, a catalogue entry, a TAAI number (``17`` or
    ``$17``) or the label of an untitled puzzle (``#3``), ignoring case.
    """
    if index is not None and name is not None:
        raise NonocpError("pick a puzzle by --index or by --name, not both")
    if index is not None:
        return [readings[at - 1] for at in positions(index, len(readings), source)]
    if name is None:
        return list(readings)
    wanted = name.casefold().removeprefix("$")
    for position, reading in enumerate(readings, start=1):
        if wanted in names(reading, position):
            return [reading]
    read = [reading for reading in readings if isinstance(reading, Puzzle)]
    among = f" among the {len(read)} that could be read" if len(read) < len(readings) else ""
    raise NonocpError(f"{source} holds no puzzle named {name!r}{among}")


def names(reading: Reading, position: int) -> set[str]:
    """What ``--name`` may call a puzzle, folded: its title, catalogue entry, TAAI number
    and place (``#3``); one that could not be read, only its place."""
    if isinstance(reading, InputError):
        return {f"#{position}"}
    extra = dict(reading.extra)
    given = (reading.title, extra.get("catalogue"), extra.get("number"), f"#{position}")
    return {n.casefold().removeprefix("$") for n in given if n}


INDEX_PART = re.compile(rf" *0*({NUMBER}) *(?:- *0*({NUMBER}) *)?")
"""One item of ``--index``: ``7`` or ``10-12``, spaces allowed around the numbers, which
no file holds more than a billion of."""


def positions(index: str, total: int, source: str) -> list[int]:
    """The positions, from 1, that ``--index`` names, in its order, each once."""
    picked: dict[int, None] = {}
    for part in index.split(","):
        item = INDEX_PART.fullmatch(part)
        if item is None:
            raise NonocpError(
                f"--index {index!r}: expected N, N-M, or a list of them (3,7,10-12), "
                f"numbers of up to {DIGITS} digits"
            )
        low, high = int(item[1]), int(item[2] or item[1])
        if low > high:
            raise NonocpError(f"--index {index!r}: the range {part.strip()} runs backwards")
        if low < 1 or high > total:
            wrong = low if low < 1 else high
            raise NonocpError(f"{source}: there is no puzzle {wrong} (it holds {total})")
        picked.update(dict.fromkeys(range(low, high + 1)))
    return list(picked)


def attach_solutions(
    puzzles: Sequence[Puzzle],
    solved: Sequence[Puzzle],
    source: str = "the solution file",
    places: Sequence[int] | None = None,
) -> list[Puzzle]:
    """``puzzles`` with the pictures of ``solved`` (say, a TAAI solution file) as solutions.

    Puzzles pair up by number (a TAAI ``$n``, else the place in the file: ``places``
    where ``puzzles`` are some of a file's, not all in order), so a solution file covering
    only part of a set still lands on the right puzzles; a puzzle with no partner keeps
    what it had. A file with no pictures, or a picture of another size than its puzzle, is
    the wrong file, and is refused rather than reported as a mismatch.
    """
    grids = {number(p, i): p.solution for i, p in enumerate(solved, start=1) if p.solution}
    if not grids:
        raise NonocpError(f"{source}: holds no solutions")
    attached = []
    for i, puzzle in zip(places or range(1, len(puzzles) + 1), puzzles, strict=True):
        grid = grids.get(number(puzzle, i))
        if grid is not None and (len(grid[0]), len(grid)) != (puzzle.width, puzzle.height):
            raise NonocpError(
                f"{source}: the solution to puzzle {label(puzzle, i)} is "
                f"{len(grid[0])}x{len(grid)}, the puzzle {puzzle.size}"
            )
        attached.append(replace(puzzle, solution=grid or puzzle.solution))
    return attached
