"""The block-start model: each block of each line starts at exactly one cell of its window.

The formulation (and why the order is written as cliques) is in ``nonocp.blocks``; this
module states it in CP-SAT over the shared cell variables.
"""

from __future__ import annotations

from collections.abc import Sequence

from nonocp.blocks import Placements, placements
from nonocp.clock import in_time
from nonocp.models import CellModel, cell_model
from nonocp.models.ortools_cp import cp_model
from nonocp.puzzle import Known, Puzzle, columns_of


def build(puzzle: Puzzle, known: Known | None = None, deadline: float | None = None) -> CellModel:
    cells = cell_model(puzzle.height, puzzle.width, known, deadline)
    add_starts(cells, puzzle, known, deadline)
    return cells


def add_starts(
    cells: CellModel, puzzle: Puzzle, known: Known | None, deadline: float | None
) -> None:
    """Constrain every line of ``cells`` by block-start variables channelled to its cells."""
    lines = zip([*cells.cells, *columns_of(cells.cells)], placements(puzzle, known), strict=True)
    for number, (line, placed) in enumerate(in_time(lines, deadline)):
        _add_line(cells.model, line, placed, f"l{number}")


def _add_line(
    model: cp_model.CpModel, line: Sequence[cp_model.IntVar], placed: Placements, name: str
) -> None:
    start = {
        (block, cell): model.new_bool_var(f"{name}b{block}s{cell}")
        for group in placed.blocks()
        for block, cell in group
    }
    for group in placed.blocks():
        model.add_exactly_one(start[s] for s in group)
    for cell, covering in zip(line, placed.coverage(), strict=True):
        model.add(cell == sum(start[s] for s in covering))
    for clique in placed.conflicts():
        model.add_at_most_one(start[s] for s in clique)
