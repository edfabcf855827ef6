"""Pictures of puzzles for the terminal (rich) and for pipes (plain ASCII).

A picture is drawn as a printed puzzle: column clues stacked above, row clues to the
left, two characters per cell (three where a column clue has two digits, so that clues
side by side stay apart) and a thin guide line every five cells. A puzzle too wide for
the terminal is drawn compactly instead: one character per cell and two grid rows per
text line (half blocks), so a 100x100 picture fits in 100 columns; one too wide even for
that is not drawn, and the line in its place says so.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.console import Group, RenderableType
from rich.text import Text

from nonocp.formats.lines import spaced
from nonocp.puzzle import Cell, Known, Puzzle

GUIDE = 5
FILLED, EMPTY, UNKNOWN = "█", "·", "░"
"""A cell's marks, repeated (filled, unknown) or padded on the left (empty) to its width."""
HIGHLIGHT_STYLE = "bold red"
UNKNOWN_STYLE = "yellow"
GUIDE_STYLE = "grey50"
CLUE_STYLE = "cyan"


def plain(cells: Known) -> str:
    """The grid in ASCII: ``#`` filled, ``.`` empty, ``?`` unknown; one line per row."""
    symbol = {1: "#", 0: ".", None: "?"}
    return "\n".join("".join(symbol[v] for v in row) for row in cells)


def full_width(puzzle: Puzzle) -> int:
    """Terminal columns the full picture needs."""
    cells = _cell_width(puzzle) * puzzle.width
    return _row_clue_width(puzzle) + 1 + cells + (puzzle.width - 1) // GUIDE


def _cell_width(puzzle: Puzzle) -> int:
    """Characters per cell: one more than the longest column clue number has digits."""
    return 1 + max((len(str(n)) for c in puzzle.columns for n in c), default=1)


def picture(
    puzzle: Puzzle,
    cells: Known,
    *,
    width: int,
    highlight: Collection[Cell] = (),
) -> RenderableType:
    """The picture for a terminal ``width`` columns wide; ``highlight`` marks cells in red."""
    if full_width(puzzle) <= width and _cell_width(puzzle) <= 3:
        return _full(puzzle, cells, highlight)
    if puzzle.width <= width:
        return _compact(cells, highlight)
    return Text(
        f"(a {puzzle.size} picture needs {puzzle.width} columns even drawn small, and the "
        f"terminal has {width}: widen it, or use --plain)",
        style=GUIDE_STYLE,
    )


def _row_clue_width(puzzle: Puzzle) -> int:
    return max((len(spaced(c)) for c in puzzle.rows), default=0)


def _full(puzzle: Puzzle, cells: Known, highlight: Collection[Cell]) -> RenderableType:
    margin, cell = _row_clue_width(puzzle) + 1, _cell_width(puzzle)
    lines = [*_column_clue_lines(puzzle, margin, cell)]
    for r, row in enumerate(cells):
        if r and r % GUIDE == 0:
            lines.append(_guide_line(puzzle.width, margin, cell))
        line = Text(spaced(puzzle.rows[r]).rjust(margin - 1) + " ")
        line.stylize(CLUE_STYLE)
        for c, value in enumerate(row):
            if c and c % GUIDE == 0:
                line.append("│", style=GUIDE_STYLE)
            line.append(*_cell(value, (r, c) in highlight, cell))
        lines.append(line)
    return Group(*lines)


def _cell(value: int | None, highlighted: bool, width: int) -> tuple[str, str | None]:
    if value is None:
        return UNKNOWN * width, UNKNOWN_STYLE
    text = FILLED * width if value else EMPTY.rjust(width)
    if highlighted:
        return text, HIGHLIGHT_STYLE
    return text, None if value else GUIDE_STYLE


def _column_clue_lines(puzzle: Puzzle, margin: int, cell: int) -> list[Text]:
    """Column clues stacked vertically, bottom-aligned just above the grid."""
    stacks = [[str(n) for n in c] or ["0"] for c in puzzle.columns]
    depth = max(map(len, stacks), default=0)
    lines = []
    for level in range(depth):
        line = Text(" " * margin)
        for c, stack in enumerate(stacks):
            if c and c % GUIDE == 0:
                line.append(" ")
            offset = level - (depth - len(stack))
            line.append(stack[offset].rjust(cell) if offset >= 0 else " " * cell, style=CLUE_STYLE)
        lines.append(line)
    return lines


def _guide_line(width: int, margin: int, cell: int) -> Text:
    segments = ["─" * cell * min(GUIDE, width - start) for start in range(0, width, GUIDE)]
    return Text(" " * margin + "┼".join(segments), style=GUIDE_STYLE)


HALF_BLOCKS = {(1, 1): "█", (1, 0): "▀", (0, 1): "▄", (0, 0): " "}


def _compact(cells: Known, highlight: Collection[Cell]) -> RenderableType:
    """Two grid rows per text line: each character is a cell above and a cell below."""
    lines = []
    for top in range(0, len(cells), 2):
        line = Text()
        for c, upper in enumerate(cells[top]):
            lower = cells[top + 1][c] if top + 1 < len(cells) else 0
            marked = (top, c) in highlight or (top + 1, c) in highlight
            if upper is None or lower is None:
                line.append(UNKNOWN, style=UNKNOWN_STYLE)
            else:
                line.append(HALF_BLOCKS[upper, lower], style=HIGHLIGHT_STYLE if marked else None)
        lines.append(line)
    return Group(*lines)


def masked(grid: Known, cells: Collection[Cell]) -> Known:
    """``grid`` with the given cells made unknown."""
    return [
        [None if (r, c) in cells else value for c, value in enumerate(row)]
        for r, row in enumerate(grid)
    ]
