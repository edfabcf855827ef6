"""What the line-based formats share: numbered lines, and clue lines read with located errors.

The plain-text formats (.non, .nin, TAAI, Kyle Keen's) all write one clue per line, so
they share one clue parser. A TAAI set has 50,000 clue lines, so ``parse_clues`` checks
a whole run of lines with one regular expression and converts them in bulk; only when
that fails does it go line by line, token by token, to say which line and column went
wrong and what was expected there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from nonocp.errors import InputError
from nonocp.formats import (
    DIGITS,
    LONG_NUMBER,
    NUMBER,
    ZERO_BESIDE,
    Locate,
    consistent,
    shown,
    zero_beside,
)
from nonocp.puzzle import Clue, Puzzle, clue

Line = tuple[int, str]
"""A line's 1-based number and its text without the line ending."""

SPACED_LINE = rf"[ \t]*(?:{NUMBER}(?:[ \t]+{NUMBER})*[ \t]*)?"
COMMAS_LINE = rf"[ \t]*(?:{NUMBER}(?:[ \t]*,[ \t]*{NUMBER})*[ \t]*)?"
"""A clue line; blanks at its end belong to the numbers' group, so that a blank line
matches one way only (two ways a line would make failing to match exponential)."""
SPACED = re.compile(SPACED_LINE, re.ASCII)
COMMAS = re.compile(COMMAS_LINE, re.ASCII)
SPACED_LINES = re.compile(f"{SPACED_LINE}(?:\n{SPACED_LINE})*", re.ASCII)
COMMAS_LINES = re.compile(f"{COMMAS_LINE}(?:\n{COMMAS_LINE})*", re.ASCII)
TOKEN = re.compile(r"[^\s,]+|,")


def numbered_lines(text: str) -> list[Line]:
    """The lines of ``text`` (LF or CRLF endings), numbered as editors and ``position`` count."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [(number, line.removesuffix("\r")) for number, line in enumerate(lines, start=1)]


def is_blank(line: Line) -> bool:
    return not line[1].strip()


def strip_blank(lines: list[Line]) -> list[Line]:
    """``lines`` without blank lines at either end, which no format gives a meaning."""
    start, end = 0, len(lines)
    while start < end and is_blank(lines[start]):
        start += 1
    while end > start and is_blank(lines[end - 1]):
        end -= 1
    return lines[start:end]


def end_of(lines: list[Line]) -> int:
    """The line number just past ``lines``, where 'the file ends too early' errors point."""
    return lines[-1][0] + 1 if lines else 1


def parse_clues(lines: Sequence[Line], source: str, commas: bool = False) -> list[Clue]:
    """Clue lines, numbers separated by commas (``.non``) or by spaces and tabs (the rest).

    A blank line and ``0`` both mean an empty line of the grid. Whether the clues fit
    their lines, the reader checks once it has the puzzle (``formats.consistent``, with
    ``at_lines`` saying where each clue is).
    """
    texts = [text for _, text in lines]
    if (COMMAS_LINES if commas else SPACED_LINES).fullmatch("\n".join(texts)):
        found = [tuple(map(int, text.replace(",", " ").split())) for text in texts]
        if not any(map(zero_beside, found)):
            return [clue(c) if 0 in c else c for c in found]
    return [checked_clue(line, source, commas) for line in lines]


def checked_clue(line: Line, source: str, commas: bool) -> Clue:
    """One clue line, or the located error that explains why it is not one."""
    number, text = line
    if not (COMMAS if commas else SPACED).fullmatch(text):
        raise InputError(source, number, *clue_error(text, commas))
    numbers = [(match.start() + 1, int(match.group())) for match in re.finditer("[0-9]+", text)]
    if zero_beside([n for _, n in numbers]):
        column = next(column for column, n in numbers if n == 0)
        raise InputError(source, number, column, ZERO_BESIDE)
    return clue(n for _, n in numbers)


def clued(
    source: str,
    row_lines: Sequence[Line],
    column_lines: Sequence[Line],
    extra: tuple[tuple[str, str], ...] = (),
) -> Puzzle:
    """The puzzle these clue lines write, checked before any solving (``consistent``),
    with an inconsistency placed at the line that writes it."""
    puzzle = Puzzle(
        rows=tuple(parse_clues(row_lines, source)),
        columns=tuple(parse_clues(column_lines, source)),
        extra=extra,
    )
    return consistent(puzzle, at_lines(source, row_lines, column_lines))


def at_lines(source: str, rows: Sequence[Line], columns: Sequence[Line]) -> Locate:
    """Where a line-based file writes each clue: the start of its line."""

    def located(kind: str, index: int, message: str) -> InputError:
        number, _ = (rows if kind == "row" else columns)[index]
        return InputError(source, number, 1, message)

    return located


def clue_error(text: str, commas: bool) -> tuple[int, str]:
    """The column of the first token that breaks the clue syntax, and what was expected."""
    want_number = True
    for match in TOKEN.finditer(text):
        token, column = match.group(), match.start() + 1
        if want_number and not (token.isascii() and token.isdigit()):
            if token.startswith("-") and token[1:].isdigit():
                return column, f"block lengths cannot be negative, found {shown(token)}"
            return column, f"expected a number, found {shown(token)}"
        if want_number and len(token) > DIGITS:
            return column, f"{LONG_NUMBER}, found {shown(token)}"
        if not want_number and token != ",":
            return column, f"expected ',' between numbers, found {shown(token)}"
        want_number = not want_number if commas else True
    if commas and text.rstrip().endswith(","):
        return len(text.rstrip()) + 1, "expected a number after ','"
    odd = re.search(r"[^ \t\d,]", text, re.ASCII)
    column = odd.start() + 1 if odd else 1
    return column, f"unexpected character {text[column - 1 : column]!r}"


def spaced(c: Clue) -> str:
    """A clue as the space-separated formats write it, ``0`` for an empty line."""
    return " ".join(map(str, c)) if c else "0"
