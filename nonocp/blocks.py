"""Clues as block placements: where each block of a line may start, and how starts interact.

The block-start formulation describes a line by one 0/1 variable per (block, first cell)
pair instead of by the clue's language. Three families of constraints make it exact:

- each block starts exactly once;
- a cell is filled exactly when one placed block covers it (a sum of starts, so blocks
  never overlap and an uncovered cell is empty);
- block k+1 starts at least one empty cell after block k ends.

The order is written as cliques rather than as the pairwise conflicts
``y[k, j] + y[k+1, j'] <= 1`` (for ``j' <= j + length(k)``): for each start ``t`` of block
k+1, "block k+1 starts at or before ``t``" and "block k starts at or after ``t - length(k)``"
exclude each other, so all those starts share one at-most-one. Given that each block starts
once, that clique says ``P(k+1, t) <= P(k, t - length(k) - 1)`` for the cumulative sums
``P(k, t) = sum of y[k, j] for j <= t``, the precedence ``start(k+1) > end(k)`` in its
strongest linear form; it implies every pairwise conflict, and CP-SAT propagates
at-most-ones directly.

Starts are restricted to those that occur in some placement of the whole line consistent
with the cells already known: for an unknown line, the window from the block's leftmost to
its rightmost placement; with known cells, whatever survives them. Both the CP-SAT model and
the MIP are built from these placements, so they share one formulation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from nonocp.puzzle import Clue, Known, Puzzle, columns_of

Start = tuple[int, int]
"""``(block, cell)``: the event "block ``block`` of this line starts at ``cell``"."""

KnownLine = Sequence[int | None]


@dataclass(frozen=True)
class Placements:
    """The feasible starts of every block of one line: per block, ascending cells."""

    clue: Clue
    length: int
    starts: tuple[tuple[int, ...], ...]

    def blocks(self) -> Iterator[list[Start]]:
        """Each block's starts: exactly one of each group holds."""
        for block, cells in enumerate(self.starts):
            yield [(block, cell) for cell in cells]

    def coverage(self) -> list[list[Start]]:
        """For each cell, the starts that would cover it: the cell is filled iff one holds."""
        covering: list[list[Start]] = [[] for _ in range(self.length)]
        for block, cells in enumerate(self.starts):
            for cell in cells:
                for covered in range(cell, cell + self.clue[block]):
                    covering[covered].append((block, cell))
        return covering

    def conflicts(self) -> Iterator[list[Start]]:
        """Cliques of starts that break the order of consecutive blocks: at most one holds.

        For each start ``t`` of block k+1: block k+1 at or before ``t`` excludes block k at
        or after ``t - length(k)``. A clique without any block-k start adds nothing beyond
        "exactly one start per block", so it is left out.
        """
        for block in range(len(self.starts) - 1):
            earlier, later = self.starts[block], self.starts[block + 1]
            for t in later:
                clashing = [(block, j) for j in earlier if j >= t - self.clue[block]]
                if clashing:
                    yield [(block + 1, j) for j in later if j <= t] + clashing


def place(c: Clue, known: KnownLine) -> Placements:
    """Every start of every block that some placement of the whole line consistent with
    ``known`` uses (all of them exact: a start is kept only if the line can be completed
    around it). A block with no start left means the known cells contradict the clue."""
    length = len(known)
    forward = _ready(c, known)
    backward = _ready(c[::-1], known[::-1])
    fits = _fits(known)
    last = len(c) - 1
    return Placements(
        c,
        length,
        tuple(
            tuple(
                cell
                for cell in range(length - size + 1)
                if fits(cell, size)
                and forward[block][cell]
                and backward[last - block][length - cell - size]
            )
            for block, size in enumerate(c)
        ),
    )


def _fits(known: KnownLine) -> Callable[[int, int], bool]:
    """Whether a block of ``size`` cells starting at ``cell`` avoids every known-empty cell."""
    empties = [0]
    for value in known:
        empties.append(empties[-1] + (value == 0))

    def fits(cell: int, size: int) -> bool:
        return empties[cell + size] == empties[cell]

    return fits


def _ready(c: Clue, known: KnownLine) -> list[list[bool]]:
    """``ready[k][s]``: blocks ``0..k-1`` fit before cell ``s`` with a gap left at ``s - 1``
    (or ``s`` is 0 and no block comes first), every known-filled cell before ``s`` covered.

    This is the left-to-right half of the placement test; running it on the reversed line
    and clue gives the right-to-left half.
    """
    length = len(known)
    fits = _fits(known)
    # done[k][p]: blocks 0..k-1 placed within cells 0..p-1, the cells after them empty.
    done = [[False] * (length + 1) for _ in c]
    ready = [[False] * (length + 1) for _ in c]
    for k in range(len(c)):
        for p in range(length + 1):
            idle = p > 0 and known[p - 1] != 1 and done[k][p - 1]
            start = p - c[k - 1] if k else -1
            ends_here = start >= 0 and fits(start, c[k - 1]) and ready[k - 1][start]
            done[k][p] = (k == 0 and p == 0) or idle or ends_here
            ready[k][p] = (k == 0) if p == 0 else (known[p - 1] != 1 and done[k][p - 1])
    return ready


def placements(puzzle: Puzzle, known: Known | None) -> Iterator[Placements]:
    """The placements of every row, then every column (the order of ``columns_of``), one
    line at a time."""
    grid = known if known is not None else [[None] * puzzle.width] * puzzle.height
    for clue, line in zip(puzzle.rows, grid, strict=True):
        yield place(clue, line)
    for clue, line in zip(puzzle.columns, columns_of(grid), strict=True):
        yield place(clue, line)
