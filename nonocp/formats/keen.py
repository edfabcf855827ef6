"""Kyle Keen's plain format: row clues one per line, a blank line, then column clues.

The blank line is the only structure, so an empty clue must be written ``0``: a second
blank-separated block is an error rather than a guess about which lines were meant.
"""

from __future__ import annotations

from collections.abc import Sequence

from nonocp.errors import InputError
from nonocp.formats import Format
from nonocp.formats.lines import (
    Line,
    clued,
    end_of,
    is_blank,
    numbered_lines,
    spaced,
    strip_blank,
)
from nonocp.puzzle import Puzzle


def blocks(lines: list[Line]) -> list[list[Line]]:
    """The runs of non-blank lines, in order."""
    found: list[list[Line]] = [[]]
    for line in lines:
        if not is_blank(line):
            found[-1].append(line)
        elif found[-1]:
            found.append([])
    return [block for block in found if block]


def read(text: str, source: str) -> list[Puzzle]:
    lines = strip_blank(numbered_lines(text))
    parts = blocks(lines)
    if len(parts) < 2:
        raise InputError(
            source, end_of(lines), 1, "expected a blank line and then the column clues"
        )
    if len(parts) > 2:
        raise InputError(
            source,
            parts[2][0][0],
            1,
            "expected end of file: one blank line separates row clues from column clues "
            "(write 0 for an empty line)",
        )
    row_lines, column_lines = parts
    return [clued(source, row_lines, column_lines)]


def write(puzzles: Sequence[Puzzle]) -> str:
    (puzzle,) = puzzles
    lines = [*map(spaced, puzzle.rows), "", *map(spaced, puzzle.columns)]
    return "\n".join(lines) + "\n"


def looks_like(text: str) -> bool:
    """Clue lines from the first line on: no header, no ``$n``, no section names."""
    return text.lstrip()[:1].isdigit()


FORMAT = Format("keen", ("txt",), read, write, looks_like)
