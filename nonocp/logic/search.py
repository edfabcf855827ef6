"""Depth-first search over logic: what finishes a puzzle when propagation and probing stall.

Every node of the search is probed to its fixpoint, then branches on one unknown cell. The
cell is chosen from the probes themselves: trying a value fixes ``a`` cells when filled and
``b`` when empty, and the cell scoring highest on ``min(a, b) + 1.85 ln(1 + |a - b|)`` (the
rule of the LalaFrogKK tournament solver, Wu et al., IEEE TCIAIG 5(3), 2013) shrinks both
branches most, so the tree stays small. The empty value is tried first: most cells of a
sparse puzzle are empty.

Probing a node is what costs, so each probe is remembered with the lines its two trials
solved; a child inherits every record none of whose lines changed, and re-probes only the
cells near the decision that created it.

The search is exact. Probing and propagation only fix cells that hold in every solution
below the node, a grid is reported only when every cell is known and every line has passed
the line solver, and both values of a branching cell are explored unless a limit stops the
search: a search that ran out of nodes has found every solution there is.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field

from nonocp.logic.board import Board, Known
from nonocp.puzzle import Grid, Puzzle

Cell = tuple[int, int]


@dataclass(frozen=True)
class Found:
    """What a search found: ``solutions`` in the order found; ``exhausted`` when the whole
    search space was explored, so they are all the solutions there are. A search stopped by
    its solution limit, its probe budget or its deadline is not exhausted."""

    solutions: tuple[Grid, ...]
    exhausted: bool
    probes: int


@dataclass(frozen=True)
class Probe:
    """Cells fixed by trying each value of one cell, and the lines those trials solved: the
    record stays valid while none of them changes."""

    if_filled: int
    if_empty: int
    depends_on: int

    @property
    def score(self) -> float:
        a, b = self.if_filled, self.if_empty
        return min(a, b) + 1.85 * math.log1p(abs(a - b))


Records = dict[Cell, Probe]


class _Stopped(Exception):
    """The probe budget or the deadline ran out."""


@dataclass
class _Search:
    """The state of one search: its limits and what it found so far."""

    limit: int | None
    budget: int | None
    deadline: float | None
    solutions: dict[Grid, None] = field(default_factory=dict)
    probes: int = 0

    @property
    def done(self) -> bool:
        return self.limit is not None and len(self.solutions) >= self.limit

    def explore(self, root: Board) -> None:
        """Depth first from ``root``; each stacked decision is a parent node, its probe
        records, a cell and the value to give it."""
        records: Records = {}
        if self.settle(root, records):
            return
        stack = self.decisions(root, records)
        while stack and not self.done:
            parent, inherited, (row, column), value = stack.pop()
            child = parent.assume(row, column, value)
            if child is None:
                continue
            records = _still_valid(inherited, child._changed_lines(parent.filled, parent.empty))
            if not self.settle(child, records):
                stack.extend(self.decisions(child, records))

    def settle(self, board: Board, records: Records) -> bool:
        """Probe ``board`` to its fixpoint; True when that closes the node (a solution or a
        contradiction), False when it must branch."""
        if board.unknown and not self.probe(board, records):
            return True
        if not board.unknown:
            self.record(board)
        return self.done or not board.unknown

    def decisions(self, board: Board, records: Records) -> list[tuple[Board, Records, Cell, int]]:
        """The two branches on the best-scoring cell, the one to try first on top."""
        cell = max(board.unknown_cells(), key=lambda cell: records[cell].score)
        return [(board, records, cell, 1), (board, records, cell, 0)]

    def probe(self, board: Board, records: Records) -> bool:
        """Probe every unknown cell without a valid record until nothing more is fixed;
        False on a contradiction. Trials that complete the grid are solutions."""
        pending = deque(cell for cell in board.unknown_cells() if cell not in records)
        while pending and not self.done:
            row, column = cell = pending.popleft()
            if (board.filled[row] | board.empty[row]) >> column & 1:
                continue
            self.spend()
            if_filled = board.assume(row, column, 1)
            if_empty = board.assume(row, column, 0)
            for trial in (if_filled, if_empty):
                if trial is not None and not trial.unknown:
                    self.record(trial)
            if if_filled is None and if_empty is None:
                return False
            before = board.filled.copy(), board.empty.copy()
            if if_filled is None or if_empty is None:
                board._adopt(if_empty if if_filled is None else if_filled)
            else:
                agreed = board._agree(if_filled, if_empty)
                if agreed is None:
                    return False
                if not agreed:
                    gains = board.unknown - if_filled.unknown, board.unknown - if_empty.unknown
                    records[cell] = Probe(*gains, if_filled.solved | if_empty.solved)
                    continue
            changed = board._changed_lines(*before)
            for other in [other for other, probe in records.items() if probe.depends_on & changed]:
                del records[other]
                pending.append(other)
            pending.append(cell)
        return True

    def spend(self) -> None:
        self.probes += 1
        if self.budget is not None and self.probes > self.budget:
            raise _Stopped
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stopped

    def record(self, complete: Board) -> None:
        if not self.done:
            self.solutions[_grid(complete)] = None


def _grid(complete: Board) -> Grid:
    """The cells of a board with every cell known, read from its rows' filled masks."""
    width = len(complete.filled) - complete.lines.height
    rows = complete.filled[: complete.lines.height]
    return tuple(tuple(filled >> column & 1 for column in range(width)) for filled in rows)


def _still_valid(records: Records, changed: int) -> Records:
    return {cell: probe for cell, probe in records.items() if not probe.depends_on & changed}


def _board(puzzle: Puzzle, known: Known | None) -> Board:
    board = Board.blank(puzzle)
    for row, values in enumerate(known or ()):
        for column, value in enumerate(values):
            if value is not None:
                masks = board.filled if value else board.empty
                masks[row] |= 1 << column
                masks[puzzle.height + column] |= 1 << row
                board.unknown -= 1
    return board


def search(
    puzzle: Puzzle,
    known: Known | None = None,
    limit: int | None = 1,
    probes: int | None = None,
    deadline: float | None = None,
) -> Found:
    """Solutions of ``puzzle`` agreeing with ``known``, up to ``limit`` (None: all of them).

    ``probes`` caps the work (one probe tries both values of a cell), ``deadline`` (a
    ``time.perf_counter`` value) the time; either stops the search unexhausted, with the
    solutions found so far.
    """
    root = _board(puzzle, known)
    state = _Search(limit, probes, deadline)
    propagated = root.propagate(range(len(root.filled)), deadline=deadline)
    if propagated is False:
        return Found((), exhausted=True, probes=0)
    exhausted = False
    if propagated:
        try:
            state.explore(root)
            exhausted = not state.done
        except _Stopped:
            pass
    return Found(tuple(state.solutions), exhausted, state.probes)
