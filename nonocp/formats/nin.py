"""``.nin`` files (Jakub Wilk's solver and the webpbn survey): ``W H``, H row lines, W columns.

The header fixes how many clue lines follow, so a file with more or fewer lines than it
announces is an error at the first line that disagrees, rather than a puzzle silently
missing a line or gaining one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from nonocp.errors import InputError
from nonocp.formats import NO_CELLS, NUMBER, Format, shown
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

HEADER = re.compile(rf"[ \t]*({NUMBER})[ \t]+({NUMBER})[ \t]*", re.ASCII)


def size(header: Line, source: str) -> tuple[int, int]:
    match = HEADER.fullmatch(header[1])
    if not match:
        raise InputError(source, header[0], 1, f"expected 'WIDTH HEIGHT', found {shown(header[1])}")
    width, height = int(match[1]), int(match[2])
    if not width or not height:
        raise InputError(source, header[0], 1, f"size {width}x{height}: {NO_CELLS}")
    return width, height


def read(text: str, source: str) -> list[Puzzle]:
    """The header, then its W + H clue lines, a blank one an empty clue (the last one's
    too: blank lines past them are an editor's)."""
    lines = numbered_lines(text)
    header = next((line for line in lines if not is_blank(line)), None)
    if header is None:
        raise InputError(source, 1, 1, "expected 'WIDTH HEIGHT', found an empty file")
    width, height = size(header, source)
    body = lines[header[0] : header[0] + width + height]
    announced = f"the header says {width} columns and {height} rows ({width + height} lines)"
    if len(body) < width + height:
        raise InputError(
            source, end_of(lines), 1, f"expected more clue lines: {announced}, found {len(body)}"
        )
    beyond = strip_blank(lines[header[0] + width + height :])
    if beyond:
        raise InputError(source, beyond[0][0], 1, f"expected end of file: {announced}")
    row_lines, column_lines = body[:height], body[height:]
    return [clued(source, row_lines, column_lines)]


def write(puzzles: Sequence[Puzzle]) -> str:
    (puzzle,) = puzzles
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines.extend(map(spaced, puzzle.rows))
    lines.extend(map(spaced, puzzle.columns))
    return "\n".join(lines) + "\n"


def looks_like(text: str) -> bool:
    """A ``W H`` first line, then no blank line (which Keen's files have between their two
    blocks) or exactly W + H lines, blank ones being empty clues."""
    lines = strip_blank(numbered_lines(text))
    header = HEADER.fullmatch(lines[0][1]) if lines else None
    if header is None:
        return False
    announced = int(header[1]) + int(header[2])
    return not any(map(is_blank, lines)) or len(lines) - 1 == announced


FORMAT = Format("nin", ("nin",), read, write, looks_like)
