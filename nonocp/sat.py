"""The puzzle as a SAT formula over block starts, for a CDCL solver (Glucose, via PySAT).

Where line logic, probing and the depth-first search stall on a puzzle whose lines barely
constrain one another (Thing, Gettys), what finishes it is learning from conflicts: the
search and CP-SAT both gave no answer on Gettys in 60 s, where Glucose on this formula,
from the cells probing proved, finds both solutions in 1.5-2.7 s (CP-SAT on an earlier
form of these clauses needed over 100 s).

Each block's start is order-encoded over the starts its line's placements allow
(``nonocp.blocks.place``): one variable per start but the last says "the block starts at
or before here", so the variables along a block form a ladder (each implies the next).
Three families of clauses make the formula exact:

- the ladder: "at or before s" implies "at or before s'" for the next allowed start s';
- the order: block k+1 at or before t implies block k at or before ``t - length(k) - 1``;
- the cells: block k covers cell c when it starts at or before c but not at or before
  ``c - length(k)``, and c lies in the gap after block k when block k starts at or before
  ``c - length(k)`` but block k+1 does not start at or before c (before the first block
  and after the last likewise); a covered cell is filled, a cell in a gap empty.

With the blocks in order every cell is covered or in a gap, so the cells need no further
variable, and each cell's clauses have three literals. A filled cell after block k's end
makes block k+1 start at or before it at once, by unit propagation; the encoding before
(a variable for each block covering each cell, and the cell filled only if one of them
held) said as much only once every other block had been ruled out, and Glucose took 2.1
times as long on Thing and 5.9 times on Gettys (medians over seven clause orders, in
``benchmarks/CHOICES.md``).

Glucose runs in its incremental mode (Audemard, Lagniez and Simon, SAT 2013), made for
a series of solves, as uniqueness asks for: alone from the probed root, Thing's first
solution took a median 0.40 s against 0.80 s over five clause orders, the 94 tcga2016
puzzles the probe budget leaves 75.0 s against 81.7 s over two, and Gettys and Sierp
the same (``benchmarks/CHOICES.md``).

Enumerating (``engine._others``), each solution found is excluded by a clause over the
open cells only (``Solving.exclude``). That outpaces CP-SAT's enumeration where the
compiled search hands solutions over to a solver: in 10 s from the probed root, 10,689
against 7,162 on random 25x25 seed 9 at density 0.45, 469 against 215 on random 60x60
seed 1 at density 0.2, and 122 against 27 in 30 s on random 150x150 seed 1 at density
0.1, where CP-SAT's model took 1.6 GB (0.7 GB here).

Cell (r, c) is variable ``r * width + c + 1``, so a model reads back as a grid directly.
Importing PySAT takes about 40 ms, but the engine still imports this module only when
the depth-first search leaves the puzzle open.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from pysat.solvers import Glucose4

from nonocp.answers import Halt, Searched, checked
from nonocp.blocks import Placements, placements
from nonocp.clock import seconds_left, stopping_at
from nonocp.logic.board import open_cells
from nonocp.puzzle import Grid, Known, Puzzle

Literal = int | bool
"""A variable (negative: its negation), or a constant where the placements decide it."""

Clause = list[int]


@dataclass
class Formula:
    """The clauses of a puzzle and the count of variables they use (cells come first)."""

    variables: int
    clauses: list[Clause] = field(default_factory=list)

    def new(self) -> int:
        self.variables += 1
        return self.variables

    def add(self, *literals: Literal) -> None:
        """The clause of ``literals``, with constants folded away: a true one drops the
        clause, a false one drops out of it."""
        clause: Clause = []
        for v in literals:
            if v is True:
                return
            if v is not False:
                clause.append(v)
        self.clauses.append(clause)


def cell(width: int, row: int, column: int) -> int:
    return row * width + column + 1


def literal(width: int, row: int, column: int, filled: int) -> int:
    """The literal saying cell (row, column) is ``filled`` (1) or empty (0)."""
    return cell(width, row, column) if filled else -cell(width, row, column)


def formula(puzzle: Puzzle, known: Known | None) -> Formula:
    """The clauses of ``puzzle`` with the ``known`` cells fixed."""
    f = Formula(puzzle.width * puzzle.height)
    for _ in _lines_added(f, puzzle, known):
        pass
    return f


def _lines_added(f: Formula, puzzle: Puzzle, known: Known | None) -> Iterator[None]:
    """Add the clauses of each line of ``puzzle`` to ``f``, then the ``known`` cells as
    units, pausing after each line: a caller may give up between lines."""
    width, height = puzzle.width, puzzle.height
    lines = [[cell(width, r, c) for c in range(width)] for r in range(height)]
    lines += [[cell(width, r, c) for r in range(height)] for c in range(width)]
    for line, placed in zip(lines, placements(puzzle, known), strict=True):
        _add_line(f, line, placed)
        yield
    for r, values in enumerate(known or ()):
        for c, value in enumerate(values):
            if value is not None:
                f.clauses.append([literal(width, r, c, value)])


def _add_line(f: Formula, line: Sequence[int], placed: Placements) -> None:
    """The ladders of the line's blocks, their order, and its cells: each one covered by
    a block or lying in the gap between two (or before the first, or after the last).
    The cells' clauses are added only where their literals are not all decided."""
    clue, starts = placed.clue, placed.starts
    if not all(starts):  # the known cells leave a block nowhere to start
        f.clauses.append([])
        return
    begun = [_ladder(f, block_starts) for block_starts in starts]
    for block in range(len(clue) - 1):
        for t in starts[block + 1]:
            f.add(_negated(begun[block + 1](t)), begun[block](t - clue[block] - 1))
    for block, size in enumerate(clue):
        for c in range(starts[block][0], starts[block][-1] + size):
            f.add(_negated(begun[block](c)), begun[block](c - size), line[c])
    last = len(clue) - 1
    for block in range(-1, last + 1):  # the gap after the block (-1: before the first)
        after = 0 if block < 0 else starts[block][0] + clue[block]
        before = len(line) if block == last else starts[block + 1][-1]
        for c in range(after, before):
            ended = True if block < 0 else begun[block](c - clue[block])
            next_begun = False if block == last else begun[block + 1](c)
            f.add(_negated(ended), next_begun, -line[c])


def _ladder(f: Formula, starts: Sequence[int]) -> Callable[[int], Literal]:
    """The block's "starts at or before p" as a literal of ``f``, for any cell p."""
    rungs = [f.new() for _ in starts[:-1]]
    for lower, upper in pairwise(rungs):
        f.clauses.append([-lower, upper])

    def at_or_before(p: int) -> Literal:
        below = bisect_right(starts, p)  # the starts at or before p
        if below == 0:
            return False
        if below == len(starts):
            return True
        return rungs[below - 1]

    return at_or_before


def _negated(literal: Literal) -> Literal:
    return not literal if isinstance(literal, bool) else -literal


class Solving:
    """Glucose over one puzzle's formula (``engine.Solving``): solutions one after another,
    each differing from those before on the cells left open."""

    def __init__(
        self, puzzle: Puzzle, known: Known | None, deadline: float | None, halt: Halt
    ) -> None:
        self.puzzle = puzzle
        self.known = known
        self.free = open_cells(known, puzzle.height, puzzle.width)
        self.excluded: list[Clause] = []
        self.solver: Glucose4 | None = None
        self.deadline = deadline
        self.halt = halt

    def _built(self) -> Glucose4 | None:
        """Glucose over the formula, or None when halted while the formula was being built.
        Building is Python (0.4 s for Gettys, 1.7 s for a random 100x100 puzzle), and a
        race waits for every side it stops to end: it need not wait for a whole build."""
        abandoned = threading.Event()
        if not self.halt.admit(abandoned.set):
            return None
        f = Formula(self.puzzle.width * self.puzzle.height)
        for _ in _lines_added(f, self.puzzle, self.known):
            if abandoned.is_set():
                return None
        return Glucose4(bootstrap_with=f.clauses + self.excluded, incr=True)

    def search(self) -> Searched:
        if self.solver is None and seconds_left(self.deadline) != 0:
            self.solver = self._built()
        left = seconds_left(self.deadline)
        if self.solver is None or left == 0 or not self.halt.admit(self.solver.interrupt):
            return None
        with stopping_at(self.deadline, self.solver.interrupt):
            satisfiable = self.solver.solve_limited(expect_interrupt=True)
        if satisfiable is None:
            self.solver.clear_interrupt()
            return None
        if not satisfiable:
            return False
        filled = {v for v in self.solver.get_model() if v > 0}
        width = self.puzzle.width
        grid = tuple(
            tuple(int(cell(width, r, c) in filled) for c in range(width))
            for r in range(self.puzzle.height)
        )
        return checked(self.puzzle, grid)

    def exclude(self, grid: Grid) -> None:
        width = self.puzzle.width
        clause = [literal(width, r, c, 1 - grid[r][c]) for r, c in self.free]
        if self.solver is None:
            self.excluded.append(clause)
        else:
            self.solver.add_clause(clause)
