"""The one puzzle type every part of nonocp passes around, and its consistency checks.

A clue is a tuple of block lengths; the empty tuple is an all-empty line (files write it
``0``). A grid is a tuple of rows of 0/1 ints. Both are plain immutable values so that
puzzles can be hashed, compared, sent to worker processes and written back out unchanged.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, SupportsIndex, TypeVar

from nonocp.errors import PuzzleError
from nonocp.words import counted

Clue = tuple[int, ...]
Line = tuple[int, ...]
Grid = tuple[Line, ...]
Known = Sequence[Sequence[int | None]]
"""A partly solved grid: 0 or 1 where a cell is known, None where it is not."""
Cell = tuple[int, int]
"""A cell's row and column, from 0."""
Value = TypeVar("Value")


def clue(numbers: Iterable[int]) -> Clue:
    """Normalise a clue as files write it: zeros (the ``0`` of an empty line) are dropped."""
    return tuple(n for n in numbers if n != 0)


def integers(lines: Iterable[Iterable[Any]]) -> tuple[tuple[int, ...], ...]:
    """Lines of numbers as tuples, each integer a Python ``int`` (numpy's too) but for a
    bool, which stays as it is, as does anything else, for ``Puzzle.problems`` to name."""
    found: tuple[tuple[int, ...], ...] = tuple(map(tuple, lines))
    if set(map(type, chain.from_iterable(found))) <= {int}:  # nearly always: files make ints
        return found
    return tuple(tuple(map(_integer, line)) for line in found)


def _integer(n: Any) -> Any:
    """A number given of another type as a Python one: a numpy scalar as its ``item()``,
    another integer type by ``operator.index``; a bool stays a bool."""
    if hasattr(n, "item") and hasattr(n, "dtype"):
        n = n.item()
    return n if isinstance(n, bool) or not hasattr(n, "__index__") else operator.index(n)


def runs(line: Iterable[int]) -> Clue:
    """The clue a line of 0/1 cells satisfies: the lengths of its runs of filled cells."""
    lengths: list[int] = []
    previous = 0
    for cell in line:
        if cell:
            if previous:
                lengths[-1] += 1
            else:
                lengths.append(1)
        previous = cell
    return tuple(lengths)


def columns_of(grid: Sequence[Sequence[Value]]) -> tuple[tuple[Value, ...], ...]:
    """The grid read column by column (of cells, clues' partial knowledge or model variables)."""
    return tuple(zip(*grid, strict=True)) if len(grid) else ()  # a numpy array has no truth


def min_length(c: Clue) -> int:
    """The fewest cells a line needs to hold clue ``c``: its blocks and one gap between each."""
    return sum(c) + len(c) - 1 if c else 0


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: row and column clues, and what its file said about it.

    ``solution`` is the intended picture when the file carries one (a ``.non`` goal, a
    tournament solution file); it is metadata to compare against, never trusted as an answer.
    ``extra`` keeps other keys a format stores (catalogue numbers and the like) in order.
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    license: str | None = None
    solution: Grid | None = None
    extra: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        """Clues and the solution as tuples of Python ints, whatever sequences and integers
        they were given as (lists, numpy arrays): grids, which are such tuples, are compared
        with them, and a puzzle is hashed."""
        object.__setattr__(self, "rows", integers(self.rows))
        object.__setattr__(self, "columns", integers(self.columns))
        if self.solution is not None:
            object.__setattr__(self, "solution", integers(self.solution))
        pairs = self.extra.items() if isinstance(self.extra, Mapping) else self.extra
        object.__setattr__(self, "extra", tuple(map(tuple, pairs)))

    @classmethod
    def from_clues(
        cls,
        rows: Iterable[Iterable[SupportsIndex]],
        columns: Iterable[Iterable[SupportsIndex]],
        **metadata: object,
    ) -> Puzzle:
        """Build a puzzle from any iterables of integers (numpy arrays too), normalising
        zeros away."""
        return cls(
            rows=tuple(map(clue, integers(rows))),
            columns=tuple(map(clue, integers(columns))),
            **metadata,  # type: ignore[arg-type]
        )

    @classmethod
    def from_grid(cls, grid: Iterable[Iterable[SupportsIndex]], **metadata: object) -> Puzzle:
        """The puzzle whose intended picture is ``grid``, of 0/1 cells (kept as its
        solution). Anything else is refused: text such as ``"#."`` would read as all filled."""
        given = integers(grid)
        if any(not isinstance(cell, int) or cell not in (0, 1) for row in given for cell in row):
            raise PuzzleError("a grid's cells are 0 or 1 (or False and True)")
        cells = tuple(tuple(map(int, row)) for row in given)
        for number, row in enumerate(cells, start=1):
            if len(row) != len(cells[0]):
                raise PuzzleError(
                    f"row {number} of the grid has {counted(len(row), 'cell')}, "
                    f"row 1 {len(cells[0])}"
                )
        return cls(
            rows=tuple(runs(r) for r in cells),
            columns=tuple(runs(c) for c in columns_of(cells)),
            solution=cells,
            **metadata,  # type: ignore[arg-type]
        )

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> str:
        """``WIDTHxHEIGHT``, as puzzle sites and benchmarks write it."""
        return f"{self.width}x{self.height}"

    def kinds(self) -> tuple[tuple[str, tuple[Clue, ...], int], ...]:
        """Rows and columns alike: each kind's name, its clues, and how long its lines are."""
        return (("row", self.rows, self.width), ("column", self.columns, self.height))

    def problems(self) -> list[str]:
        """Every reason visible without solving why no grid can satisfy these clues."""
        found: list[str] = []
        if not self.rows or not self.columns:
            found.append(
                f"the puzzle has {counted(self.height, 'row')} and {counted(self.width, 'column')}"
            )
        for kind, clues, _ in self.kinds():
            for index, c in enumerate(clues, start=1):
                if not all(type(n) is int and n > 0 for n in c):  # an empty line is (), not (0,)
                    found.append(f"{kind} {index}: block lengths are whole numbers from 1, not {c}")
        if found:  # what follows adds the numbers up
            return found
        found += [f"{kind} {index + 1}: {why}" for kind, index, why in self.overlong()]
        imbalance = self.imbalance()
        if imbalance:
            found.append(imbalance)
        return found

    def overlong(self) -> Iterator[tuple[str, int, str]]:
        """Each clue too long for its line: ``"row"`` or ``"column"``, its 0-based index,
        and why (``too_long``). Readers locate these in their files, where the line and
        column of the clue say more than its index."""
        for kind, clues, length in self.kinds():
            for index, c in enumerate(clues):
                why = too_long(c, kind, length)
                if why:
                    yield kind, index, why

    def imbalance(self) -> str | None:
        """Why the rows and the columns cannot paint the same picture: they fill different
        numbers of cells. None when they fill as many."""
        row_total = sum(map(sum, self.rows))
        column_total = sum(map(sum, self.columns))
        if row_total == column_total:
            return None
        return (
            f"the row clues fill {counted(row_total, 'cell')} but the column clues fill "
            f"{column_total}"
        )

    def validate(self) -> Puzzle:
        """Raise ``PuzzleError`` naming the first inconsistency; return the puzzle if none."""
        found = self.problems()
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            raise PuzzleError(found[0] + more)
        return self


MOST_CELLS = 10_000_000
"""The largest puzzle nonocp solves or generates, and magnitude instance it optimises, a
3162x3162 square. Solving holds about 65 bytes a cell (an empty 3000x3000 puzzle peaks
near 600 MB), and the Python steps around the solvers, which no time limit interrupts,
grow with the cells: an empty 30000x30000 puzzle given ``--time-limit 20`` had not
answered after a minute, and held 3.3 GB."""


def too_large(width: int, height: int) -> str | None:
    """Why nonocp will not solve or generate a puzzle this size; None if it will."""
    cells = width * height
    if cells <= MOST_CELLS:
        return None
    return f"{width}x{height} is {cells:,} cells; nonocp takes at most {MOST_CELLS:,}"


def too_long(c: Clue, kind: str, length: int) -> str | None:
    """Why clue ``c`` cannot fit a ``kind`` of line ``length`` cells long; None if it fits."""
    if min_length(c) <= length:
        return None
    needs = counted(min_length(c), "cell")
    return f"clue {format_clue(c)} needs {needs} but a {kind} has only {length}"


def format_clue(c: Clue) -> str:
    """A clue as people write it: ``3,2``, or ``0`` for an empty line."""
    return ",".join(map(str, c)) if c else "0"


def satisfies(puzzle: Puzzle, grid: Grid) -> bool:
    """Whether ``grid`` has the puzzle's shape and every line's runs equal its clue.

    This recomputes the clues from the cells and shares nothing with the solvers, so it is
    the independent check every printed solution passes first.
    """
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return False
    if any(cell not in (0, 1) for row in grid for cell in row):
        return False
    return tuple(map(runs, grid)) == puzzle.rows and (
        tuple(map(runs, columns_of(grid))) == puzzle.columns
    )


def ambiguous_cells(grids: Sequence[Known]) -> set[Cell]:
    """The cells whose value differs between some of the given solutions."""
    if not grids:
        return set()
    first = grids[0]
    return {
        (r, c)
        for r, row in enumerate(first)
        for c, value in enumerate(row)
        if any(g[r][c] != value for g in grids[1:])
    }
