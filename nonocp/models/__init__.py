"""CP-SAT models of a puzzle: each builds a ``CellModel``, one Boolean per cell."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from nonocp.errors import NonocpError
from nonocp.puzzle import Grid, Puzzle

Known = Sequence[Sequence[int | None]]
"""A partly solved grid: 0 or 1 where a cell is known, None where it is not."""

Values = cp_model.CpSolver | cp_model.CpSolverSolutionCallback


@dataclass
class CellModel:
    """A CP-SAT model, its cell variables (constants where a cell was known), and the free cells."""

    model: cp_model.CpModel
    cells: list[list[cp_model.IntVar]]
    free: list[tuple[int, int]]

    def grid(self, values: Values) -> Grid:
        """The grid a solver (or a solution callback) assigned to the cells."""
        return tuple(tuple(int(values.boolean_value(v)) for v in row) for row in self.cells)

    def forbid(self, grid: Grid) -> None:
        """Exclude ``grid``: some free cell must take the other value (known cells cannot)."""
        differs = [self.cells[r][c].Not() if grid[r][c] else self.cells[r][c] for r, c in self.free]
        self.model.add_bool_or(differs)


def cell_model(height: int, width: int, known: Known | None) -> CellModel:
    """A model with one Boolean per cell; a known cell is a constant, never branched on."""
    model = cp_model.CpModel()
    free = [
        (r, c) for r in range(height) for c in range(width) if known is None or known[r][c] is None
    ]
    cells = [
        [
            model.new_bool_var(f"x{r}_{c}")
            if known is None or known[r][c] is None
            else model.new_constant(int(known[r][c]))  # type: ignore[arg-type]
            for c in range(width)
        ]
        for r in range(height)
    ]
    return CellModel(model, cells, free)


MODELS = ("automaton", "blocks", "both")
"""The models by name, as ``--model`` selects them; each is the module ``nonocp.models.<name>``."""


def builder(name: str) -> Callable[[Puzzle, Known | None], CellModel]:
    """The ``build`` function of the model called ``name`` (its module is imported on use)."""
    if name not in MODELS:
        raise NonocpError(f"unknown model {name!r} (known models: {', '.join(MODELS)})")
    return importlib.import_module(f"{__name__}.{name}").build
