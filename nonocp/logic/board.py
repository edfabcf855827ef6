"""A partly solved grid and the two ways logic extends it: propagation and probing.

Every row and every column is a line with two bit masks (cells known filled, cells known
empty); a cell therefore appears twice, once in its row and once in its column, and
``_learn`` keeps the two copies equal. Lines ``0 .. height-1`` are the rows (bit ``c`` is
column ``c``), lines ``height ..`` the columns (bit ``r`` is row ``r``).

Both procedures only ever add cells that hold in every solution consistent with what was
known, so a contradiction proves the puzzle has no solution.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from nonocp.clock import OutOfTime
from nonocp.logic.line import Masks, solve_line
from nonocp.puzzle import Clue, Known, Puzzle


def unknown_in(known: Known) -> int:
    """How many cells ``known`` leaves open."""
    return sum(row.count(None) for row in known)


def set_bits(mask: int) -> list[int]:
    """The positions of ``mask``'s set bits, lowest first.

    Read from its binary digits, in time linear in its length: taking the lowest bit off
    over and over costs a pass over the whole number each time, and on a line 3,000 cells
    long that made recording a solved line's cells 7 times slower."""
    return [i for i, bit in enumerate(_digits(mask, 0)) if bit == "1"]


def _digits(mask: int, width: int) -> str:
    """``mask``'s binary digits, lowest first, at least ``width`` of them."""
    return format(mask, f"0{width}b")[::-1]


def _values(filled: int, empty: int, width: int) -> list[int | None]:
    """A line's cells from its two masks: 1, 0, or None where neither says."""
    return [
        1 if f == "1" else 0 if e == "1" else None
        for f, e in zip(_digits(filled, width), _digits(empty, width), strict=True)
    ]


def open_cells(known: Known | None, height: int, width: int) -> list[tuple[int, int]]:
    """The cells ``known`` leaves open, row by row (every cell when nothing is known)."""
    return [
        (r, c) for r in range(height) for c in range(width) if known is None or known[r][c] is None
    ]


@dataclass(frozen=True)
class Fixed:
    """Cells one line solve added: bit masks along that line."""

    line: int
    filled: int
    empty: int


class Lines:
    """The puzzle's lines and a memo of their solutions.

    Probing solves the same line in the same state over and over (every probe starts from
    one board), so answers are remembered per line and state for the whole analysis.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.height = puzzle.height
        self.clues: list[Clue] = [*puzzle.rows, *puzzle.columns]
        self.lengths = [puzzle.width] * puzzle.height + [puzzle.height] * puzzle.width
        self.memo: dict[tuple[int, int, int], Masks | None] = {}

    def solve(self, line: int, filled: int, empty: int) -> Masks | None:
        key = (line, filled, empty)
        if key not in self.memo:
            self.memo[key] = solve_line(self.clues[line], self.lengths[line], filled, empty)
        return self.memo[key]

    def cross(self, line: int) -> tuple[int, int]:
        """The first crossing line's index, and the bit that ``line`` is in the crossing lines."""
        if line < self.height:
            return self.height, 1 << line
        return 0, 1 << (line - self.height)


class Board:
    """What is known about every cell, and how many cells are still unknown.

    ``solved`` marks (bit ``i`` for line ``i``) every line this board's propagations have
    solved: for a probe's trial board, the lines its outcome depends on. ``broken`` is the
    line a propagation found no arrangement for, when it found a contradiction.
    """

    def __init__(self, lines: Lines, filled: list[int], empty: list[int], unknown: int) -> None:
        self.lines = lines
        self.filled = filled
        self.empty = empty
        self.unknown = unknown
        self.solved = 0
        self.broken: int | None = None

    @classmethod
    def blank(cls, puzzle: Puzzle) -> Board:
        count = len(puzzle.rows) + len(puzzle.columns)
        return cls(Lines(puzzle), [0] * count, [0] * count, puzzle.height * puzzle.width)

    def copy(self) -> Board:
        return Board(self.lines, self.filled.copy(), self.empty.copy(), self.unknown)

    def known(self) -> Known:
        """The grid with None for unknown cells."""
        width = len(self.filled) - self.lines.height
        return [_values(self.filled[r], self.empty[r], width) for r in range(self.lines.height)]

    def unknown_cells(self) -> list[tuple[int, int]]:
        """``(row, column)`` of every unknown cell, row by row."""
        width = len(self.filled) - self.lines.height
        return [
            (r, c)
            for r in range(self.lines.height)
            for c, bit in enumerate(_digits(self.filled[r] | self.empty[r], width))
            if bit == "0"
        ]

    def propagate(
        self,
        pending: Iterable[int],
        steps: list[Fixed] | None = None,
        deadline: float | None = None,
    ) -> bool | None:
        """Solve lines from a queue until none changes.

        Returns False on a contradiction, True when stable, None when ``deadline`` (a
        ``time.perf_counter`` value) passed first. A line that gains cells queues the lines
        crossing it there; ``steps`` receives each line solve that added cells, in order.
        """
        queue = deque(dict.fromkeys(pending))
        queued = set(queue)
        while queue:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            line = queue.popleft()
            queued.discard(line)
            self.solved |= 1 << line
            filled, empty = self.filled[line], self.empty[line]
            solved = self.lines.solve(line, filled, empty)
            if solved is None:
                self.broken = line
                return False
            new_filled, new_empty = solved[0] & ~filled, solved[1] & ~empty
            if not (new_filled | new_empty):
                continue
            if steps is not None:
                steps.append(Fixed(line, new_filled, new_empty))
            for crossing in self._learn(line, new_filled, new_empty):
                if crossing not in queued:
                    queued.add(crossing)
                    queue.append(crossing)
        return True

    def _learn(self, line: int, new_filled: int, new_empty: int) -> list[int]:
        """Record cells newly known along ``line``, in it and in the lines crossing it;
        return those crossing lines."""
        self.filled[line] |= new_filled
        self.empty[line] |= new_empty
        self.unknown -= (new_filled | new_empty).bit_count()
        first, bit = self.lines.cross(line)
        touched = []
        for cells, masks in ((new_filled, self.filled), (new_empty, self.empty)):
            for position in set_bits(cells):
                masks[first + position] |= bit
                touched.append(first + position)
        return touched

    def assume(
        self, row: int, column: int, value: int, deadline: float | None = None
    ) -> Board | None:
        """A copy with one more cell set and propagated, or None if that contradicts;
        ``OutOfTime`` when ``deadline`` passes first (a trial cut short proves nothing)."""
        trial = self.copy()
        masks = trial.filled if value else trial.empty
        masks[row] |= 1 << column
        masks[self.lines.height + column] |= 1 << row
        trial.unknown -= 1
        outcome = trial.propagate((row, self.lines.height + column), None, deadline)
        return trial if _completed(outcome) else None

    def probe(self, deadline: float | None = None) -> bool | None:
        """Probe unknown cells until no probe can add anything.

        A probe's outcome depends only on the lines its two propagations solved: while
        none of those changes, probing the cell again would repeat it step by step. So a
        cell that yielded nothing waits until one of its lines changes, and the fixpoint
        is reached without re-probing the whole grid after each success.

        Returns False on a contradiction, True at the fixpoint, None when ``deadline`` (a
        ``time.perf_counter`` value) passed first, even within a probe: one probe of a
        random 1000x1000 puzzle runs for many seconds. Cells fixed so far are kept either
        way.
        """
        pending = deque(self.unknown_cells())
        waiting: dict[tuple[int, int], int] = {}
        while pending:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            row, column = cell = pending.popleft()
            if (self.filled[row] | self.empty[row]) >> column & 1:
                continue
            before = self.filled.copy(), self.empty.copy()
            try:
                outcome, depends_on = self._probe_cell(row, column, deadline)
            except OutOfTime:
                return None
            if outcome is None:
                return False
            if not outcome:
                waiting[cell] = depends_on
                continue
            changed = self._changed_lines(*before)
            woken = [other for other, lines in waiting.items() if lines & changed]
            for other in woken:
                del waiting[other]
            pending.extend(woken)
            pending.append(cell)
        return True

    def _probe_cell(self, row: int, column: int, deadline: float | None) -> tuple[bool | None, int]:
        """Try both values of one cell: whether cells were fixed (None on a contradiction),
        and the lines the two trials solved."""
        if_filled = self.assume(row, column, 1, deadline)
        if_empty = self.assume(row, column, 0, deadline)
        if if_filled is None or if_empty is None:
            survivor = if_filled or if_empty
            if survivor is None:
                return None, 0
            self._adopt(survivor)
            return True, 0
        return self._agree(if_filled, if_empty, deadline), if_filled.solved | if_empty.solved

    def _changed_lines(self, filled: list[int], empty: list[int]) -> int:
        """The lines (as bits) whose cells differ from the given masks."""
        changed = 0
        for line, (was_filled, was_empty) in enumerate(zip(filled, empty, strict=True)):
            if self.filled[line] != was_filled or self.empty[line] != was_empty:
                changed |= 1 << line
        return changed

    def _adopt(self, other: Board) -> None:
        self.filled, self.empty, self.unknown = other.filled, other.empty, other.unknown

    def _agree(self, one: Board, other: Board, deadline: float | None) -> bool | None:
        """Fix the cells both outcomes of a probe agree on; None if that contradicts."""
        touched: list[int] = []
        for line in range(self.lines.height):
            new_filled = one.filled[line] & other.filled[line] & ~self.filled[line]
            new_empty = one.empty[line] & other.empty[line] & ~self.empty[line]
            if new_filled | new_empty:
                touched.append(line)
                touched.extend(self._learn(line, new_filled, new_empty))
        if not touched:
            return False
        return True if _completed(self.propagate(touched, None, deadline)) else None


def _completed(outcome: bool | None) -> bool:
    """A propagation's outcome, True or False, or ``OutOfTime`` when its deadline cut it
    short: by then its cells are sound, but neither a fixpoint nor a contradiction."""
    if outcome is None:
        raise OutOfTime
    return outcome
