"""The automaton model: every row and column constrained by its clue's DFA (``add_automaton``)."""

from __future__ import annotations

from nonocp.automaton import compile_clue
from nonocp.clock import in_time
from nonocp.models import CellModel, cell_model
from nonocp.puzzle import Known, Puzzle, columns_of


def build(puzzle: Puzzle, known: Known | None = None, deadline: float | None = None) -> CellModel:
    cells = cell_model(puzzle.height, puzzle.width, known, deadline)
    lines = [
        *zip(puzzle.rows, cells.cells, strict=True),
        *zip(puzzle.columns, columns_of(cells.cells), strict=True),
    ]
    for clue, line in in_time(lines, deadline):
        dfa = compile_clue(clue)
        cells.model.add_automaton(line, dfa.start, sorted(dfa.accepting), dfa.transitions)
    return cells
