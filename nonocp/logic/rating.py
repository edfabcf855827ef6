"""How far logic alone gets on a puzzle, and how hard that makes it.

The rating names the weakest reasoning that settles the puzzle (completes the grid, or
proves it has no solution): line logic, probing, or neither, in which case search must
finish the job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from nonocp.clock import sooner
from nonocp.logic.board import Board, Fixed, set_bits, unknown_in
from nonocp.puzzle import Grid, Known, Puzzle


class Rating(StrEnum):
    LINE = "line"
    PROBE = "probe"
    SEARCH = "search"


@dataclass(frozen=True)
class Step:
    """One line solve that fixed cells: 0-based line ``index`` and positions along it."""

    axis: str
    index: int
    filled: tuple[int, ...]
    empty: tuple[int, ...]


@dataclass(frozen=True)
class Deduction:
    """What logic proved about a puzzle.

    Every solution agrees with ``known`` wherever it is not None; ``contradiction`` means
    there is no solution. ``rating`` is None when logic stopped at its deadline or ran out
    of probing time. ``steps`` are the line solves of the first
    propagation, in order.
    """

    known: Known
    contradiction: bool
    rating: Rating | None
    by_line: int
    by_probing: int
    steps: tuple[Step, ...]
    after_lines: Known
    """The grid as line logic alone left it, before probing: where a solver working line
    by line stalls."""
    broken: tuple[str, int] | None = None
    """Where line logic alone proves there is no solution: the line (``"row"`` or
    ``"column"``, 0-based index) no arrangement of its clue fits once the steps are made."""

    @property
    def unknown(self) -> int:
        return unknown_in(self.known)

    @property
    def grid(self) -> Grid | None:
        """The solution, when logic fixed every cell (it is then the only one) and ran to
        its end: stopped by its deadline, it may have fixed the last cell before solving
        the line that refutes them all."""
        if self.contradiction or self.rating is None or self.unknown:
            return None
        return tuple(tuple(v for v in row if v is not None) for row in self.known)


def deduce(puzzle: Puzzle, deadline: float | None = None, probing: float = math.inf) -> Deduction:
    """Propagate every line, then probe what is left for at most ``probing`` seconds.

    Logic stops at ``deadline`` (a ``time.perf_counter`` value) with what it has proven.
    """
    board = Board.blank(puzzle)
    cells = board.unknown
    fixed: list[Fixed] = []
    outcome = board.propagate(range(len(board.filled)), fixed, deadline)
    by_line, after_lines = cells - board.unknown, board.known()
    broken = _line(puzzle, board.broken) if outcome is False and board.broken is not None else None
    rating: Rating | None = None if outcome is None else Rating.LINE
    if outcome and board.unknown:
        outcome = board.probe(sooner(deadline, probing))
        settled = outcome is False or not board.unknown
        rating = None if outcome is None else Rating.PROBE if settled else Rating.SEARCH
    return Deduction(
        known=board.known(),
        contradiction=outcome is False,
        rating=rating,
        by_line=by_line,
        by_probing=cells - board.unknown - by_line,
        steps=tuple(_step(puzzle, f) for f in fixed),
        after_lines=after_lines,
        broken=broken,
    )


def _step(puzzle: Puzzle, fixed: Fixed) -> Step:
    return Step(
        *_line(puzzle, fixed.line), tuple(set_bits(fixed.filled)), tuple(set_bits(fixed.empty))
    )


def _line(puzzle: Puzzle, line: int) -> tuple[str, int]:
    """A board's line number as ``("row", index)`` or ``("column", index)``."""
    return ("row", line) if line < puzzle.height else ("column", line - puzzle.height)
