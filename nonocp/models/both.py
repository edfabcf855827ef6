"""Both models at once: the clue automata and the block starts constrain the same cells.

The automata give CP-SAT its strong line propagation; the start variables add a branching
vocabulary (where a block goes) and a linear relaxation the automata lack.
"""

from __future__ import annotations

from nonocp.models import CellModel, automaton, blocks
from nonocp.puzzle import Known, Puzzle


def build(puzzle: Puzzle, known: Known | None = None, deadline: float | None = None) -> CellModel:
    cells = automaton.build(puzzle, known, deadline)
    blocks.add_starts(cells, puzzle, known, deadline)
    return cells
