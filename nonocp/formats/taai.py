"""TAAI/TCGA/ICGA tournament sets and their solution files.

A set holds many puzzles, each a ``$n`` line, then the column clues, then the row clues,
one per line, numbers separated by TABs; an empty line is an empty clue. Nothing states
the size: tournament puzzles are 25x25, and a file whose puzzles all have ``2n`` lines
is read as n x n. A solution file gives, after each ``$n``, the rows of 0/1 cells.

Puzzles keep their ``$n`` as the ``number`` extra, which is how solutions pair up with
puzzles and how ``--name`` finds one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from nonocp.errors import InputError, NonocpError
from nonocp.formats import NO_CELLS, Format, Reading, each, label, number, shown
from nonocp.formats.lines import Line, clued, strip_blank
from nonocp.puzzle import Grid, Puzzle

MARKER = re.compile(r"\$(\d+)[ \t]*", re.ASCII)
CELLS_LINE = r"[ \t]*[01](?:[ \t]+[01])*[ \t]*"
CELLS = re.compile(CELLS_LINE)
CELL_ROWS = re.compile(f"{CELLS_LINE}(?:\n{CELLS_LINE})*")
CELL_TOKEN = re.compile(r"[^ \t]+")
"""What a row of cells holds between blanks: spaces and tabs, the only blanks it may have."""


@dataclass(frozen=True)
class Block:
    """The lines after one ``$n`` marker, up to the next."""

    number: str
    line: int
    body: list[str]

    @property
    def lines(self) -> list[Line]:
        return list(enumerate(self.body, start=self.line + 1))

    @property
    def after(self) -> int:
        """The line just past the block, where 'ends too early' errors point."""
        return self.line + len(self.body) + 1


def blocks(text: str, source: str) -> list[Block]:
    """The file cut at its ``$n`` lines: whole-line string operations, no per-line parsing."""
    texts = text.replace("\r\n", "\n").split("\n")
    if texts[-1] == "":
        texts.pop()
    starts = [i for i, line in enumerate(texts) if line.startswith("$")]
    before = texts[: starts[0]] if starts else texts
    stray = next((i for i, line in enumerate(before) if line.strip()), None)
    if stray is not None:
        raise InputError(source, stray + 1, 1, "expected '$1' (a puzzle number) first")
    if not starts:
        raise InputError(source, 1, 1, "expected '$1' (a puzzle number), found no puzzle")
    found: list[Block] = []
    seen: dict[str, int] = {}
    for start, end in zip(starts, [*starts[1:], len(texts)], strict=True):
        match = MARKER.fullmatch(texts[start])
        if not match:
            message = f"expected '$' and a puzzle number, found {shown(texts[start])}"
            raise InputError(source, start + 1, 1, message)
        if match[1] in seen:
            message = f"puzzle ${match[1]} appears twice (first at line {seen[match[1]]})"
            raise InputError(source, start + 1, 1, message)
        seen[match[1]] = start + 1
        found.append(Block(match[1], start + 1, texts[start + 1 : end]))
    return found


def read(text: str, source: str) -> list[Reading]:
    found = blocks(text, source)
    length = clue_lines(found)
    if not length:
        message = f"puzzle ${found[0].number} has no clue lines: {NO_CELLS}"
        raise InputError(source, found[0].line, 1, message)
    if length % 2:
        raise InputError(
            source,
            found[0].line,
            1,
            f"puzzle ${found[0].number} has {length} clue lines: expected an even number, "
            "the column clues then as many row clues",
        )
    return each(lambda block: puzzle(block, length // 2, source), found)


def clue_lines(found: list[Block]) -> int:
    """How many clue lines each puzzle of the set has: as many as most of them have. The
    blank lines ending a file (an editor's last newline) count only where the last puzzle
    needs them: alone in its file, as far as an even number of lines does."""
    *others, last = found
    if others:
        return Counter(len(block.body) for block in others).most_common(1)[0][0]
    blank = len(last.body) - len(strip_blank(last.lines))
    return len(last.body) - 1 if len(last.body) % 2 and blank else len(last.body)


def puzzle(block: Block, size: int, source: str) -> Puzzle:
    shape = f"{size} column clues then {size} row clues, like the file's other puzzles"
    lines = block.lines
    if len(lines) < 2 * size:
        raise InputError(
            source,
            block.after,
            1,
            f"puzzle ${block.number} ends after {len(lines)} lines: expected {shape}",
        )
    beyond = strip_blank(lines[2 * size :])  # blank lines between puzzles say nothing
    if beyond:
        raise InputError(
            source,
            beyond[0][0],
            1,
            f"expected the next '$' line: puzzle ${block.number} already has {shape}",
        )
    lines = lines[: 2 * size]
    column_lines, row_lines = lines[:size], lines[size:]
    return clued(source, row_lines, column_lines, extra=(("number", block.number),))


def cells(line: Line, source: str) -> tuple[int, ...]:
    if CELLS.fullmatch(line[1]):
        return tuple(map(int, line[1].split()))
    bad = next((m for m in CELL_TOKEN.finditer(line[1]) if m[0] not in ("0", "1")), None)
    column = bad.start() + 1 if bad else 1
    found = shown(bad[0]) if bad else "an empty line"
    raise InputError(source, line[0], column, f"expected 0 or 1, found {found}")


def grid(block: Block, source: str) -> Grid:
    """A solution block's rows; one regular expression checks them all in the common case."""
    lines = strip_blank(block.lines)
    if not lines:
        raise InputError(source, block.after, 1, f"expected the rows of ${block.number}")
    if CELL_ROWS.fullmatch("\n".join(text for _, text in lines)):
        rows = [tuple(map(int, text.split())) for _, text in lines]
        if len(set(map(len, rows))) == 1:
            return tuple(rows)
    rows = [cells(line, source) for line in lines]
    for line, row in zip(lines, rows, strict=True):
        if len(row) != len(rows[0]):
            raise InputError(
                source,
                line[0],
                1,
                f"expected {len(rows[0])} cells like the first row of ${block.number}, "
                f"found {len(row)}",
            )
    return tuple(rows)


def read_solutions(text: str, source: str) -> list[Puzzle]:
    """A solution file, as the puzzles its pictures define (each keeping its picture).
    Its pictures have one size, as its puzzles do: one of another is cut short."""
    found = blocks(text, source)
    grids = [grid(block, source) for block in found]
    size = Counter((len(g[0]), len(g)) for g in grids).most_common(1)[0][0]
    for block, picture in zip(found, grids, strict=True):
        if (len(picture[0]), len(picture)) != size:
            shape = f"{len(picture[0])}x{len(picture)}"
            message = (
                f"the picture of ${block.number} is {shape}, the file's others {size[0]}x{size[1]}"
            )
            raise InputError(source, block.line, 1, message)
    return [
        Puzzle.from_grid(picture, extra=(("number", block.number),))
        for block, picture in zip(found, grids, strict=True)
    ]


def tabbed(c: tuple[int, ...]) -> str:
    """A clue or a row of cells as TAAI files write it; an empty clue is an empty line."""
    return "\t".join(map(str, c))


def one_size(puzzle: Puzzle, position: int, first: Puzzle) -> None:
    """Refuse a puzzle of another size than the first: a TAAI file's puzzles, and its
    solutions, have one size, which is how a reader tells a cut-short one."""
    if puzzle.size != first.size:
        raise NonocpError(
            f"puzzle {label(puzzle, position)} is {puzzle.size}: a TAAI file holds puzzles "
            f"of one size (the first is {first.size})"
        )


def markers(puzzles: Sequence[Puzzle]) -> list[str]:
    """Each puzzle's ``$n``: its own number, unless some are not numbers or repeat (sets
    converted into one file, a number given in JSON), when all are numbered in order, so
    that the file reads back."""
    own = [number(p, position) for position, p in enumerate(puzzles, start=1)]
    if len(set(own)) < len(own) or not all(n.isascii() and n.isdigit() for n in own):
        own = [str(position) for position in range(1, len(puzzles) + 1)]
    return [f"${n}" for n in own]


def write(puzzles: Sequence[Puzzle]) -> str:
    lines: list[str] = []
    for position, (p, marker) in enumerate(zip(puzzles, markers(puzzles), strict=True), 1):
        if p.width != p.height:
            raise NonocpError(
                f"puzzle {label(p, position)} is {p.size}: a TAAI file holds square puzzles"
            )
        one_size(p, position, puzzles[0])
        lines.append(marker)
        lines.extend(map(tabbed, p.columns))
        lines.extend(map(tabbed, p.rows))
    return "\n".join(lines) + "\n"


def write_solutions(puzzles: Sequence[Puzzle]) -> str:
    lines: list[str] = []
    for position, (p, marker) in enumerate(zip(puzzles, markers(puzzles), strict=True), 1):
        if p.solution is None:
            raise NonocpError(f"puzzle {label(p, position)} has no stored solution to write")
        one_size(p, position, puzzles[0])
        lines.append(marker)
        lines.extend(map(tabbed, p.solution))
    return "\n".join(lines) + "\n"


def first_block(text: str) -> list[str] | None:
    """The lines of the first ``$n`` block (from the file's start), or None if none starts it."""
    lines = text[:20_000].lstrip().splitlines()
    if not lines or not MARKER.fullmatch(lines[0]):
        return None
    end = next((i for i, line in enumerate(lines[1:], 1) if line.startswith("$")), len(lines))
    return lines[1:end]


def looks_like_solutions(text: str) -> bool:
    """A ``$n`` line, then rows of 0/1 cells. A clue line never has a 0 beside other
    numbers; where the picture's first row is filled throughout, its rows make a square,
    which the 2n clue lines of an n x n puzzle, (n + 1) // 2 numbers at most, never do."""
    rows = [line.split() for line in first_block(text) or () if line.strip()]
    if not rows:
        return False
    if len(rows[0]) > 1 and "0" in rows[0]:
        return set(rows[0]) <= {"0", "1"}
    return all(len(row) == len(rows) and set(row) <= {"0", "1"} for row in rows)


def looks_like(text: str) -> bool:
    return first_block(text) is not None and not looks_like_solutions(text)


FORMAT = Format("taai", ("txt",), read, write, looks_like, holds_many=True)
SOLUTION_FORMAT = Format(
    "taai-solution",
    ("txt",),
    read_solutions,
    write_solutions,
    looks_like_solutions,
    holds_many=True,
)
