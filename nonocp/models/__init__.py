"""CP-SAT models of a puzzle: each builds a ``CellModel``, one Boolean per cell.

Importing this package (for ``builder``) does not import OR-tools, which takes
about a third of a second: ``cp_model`` is imported when a model is first built, that is
only with ``--model``, to count or without logic, and then only for cells logic leaves
open (see ``nonocp.engine``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Protocol

from nonocp.clock import in_time
from nonocp.errors import NonocpError
from nonocp.logic.board import open_cells
from nonocp.puzzle import Grid, Known, Puzzle

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

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
        """Some free cell must differ from ``grid`` (known cells cannot)."""
        differs = [self.cells[r][c].Not() if grid[r][c] else self.cells[r][c] for r, c in self.free]
        self.model.add_bool_or(differs)

    def exclude(self, grid: Grid) -> None:
        """Look for a solution other than ``grid``, starting the search from it.

        The hint is there because a second solution usually differs from the first in a
        few cells only: it takes the solver straight to that neighbourhood (a random 30x30
        puzzle's second solution: 3.5 s without it, 0.15 s with it).
        """
        self.forbid(grid)
        for r, c in self.free:
            self.model.add_hint(self.cells[r][c], grid[r][c])


def cell_model(height: int, width: int, known: Known | None, deadline: float | None) -> CellModel:
    """A model with one Boolean per cell; a known cell is a constant, never branched on.
    Built row by row within ``deadline`` (``clock.in_time``): counting a 3000x3000
    puzzle's solutions with a limit of 0.3 s had taken 32 s and 3.7 GB."""
    from nonocp.models.ortools_cp import cp_model

    model = cp_model.CpModel()
    free = open_cells(known, height, width)
    cells = [
        [
            model.new_bool_var(f"x{r}_{c}")
            if known is None or known[r][c] is None
            else model.new_constant(int(known[r][c]))  # type: ignore[arg-type]
            for c in range(width)
        ]
        for r in in_time(range(height), deadline)
    ]
    return CellModel(model, cells, free)


class ModelBuilder(Protocol):
    """A model's ``build``: the model of a puzzle with the cells ``Known`` fixed (or none),
    abandoned with ``clock.OutOfTime`` once ``deadline`` passes."""

    def __call__(
        self, puzzle: Puzzle, known: Known | None = None, deadline: float | None = None, /
    ) -> CellModel: ...


class ModelName(StrEnum):
    """The models by name, as ``--model`` selects them; each is the module
    ``nonocp.models.<name>``."""

    AUTOMATON = "automaton"
    BLOCKS = "blocks"
    BOTH = "both"


def builder(name: str) -> ModelBuilder:
    """The ``build`` function of the model called ``name``.

    The name is checked now, but the model's module (which may import OR-tools) only when
    a model is built, so choosing a model costs nothing when logic settles the puzzle. A
    partial, not a closure, so that a batch's worker processes can be handed it.
    """
    if name not in set(ModelName):
        raise NonocpError(f"unknown model {name!r} (known models: {', '.join(ModelName)})")
    return partial(_build, name)


def _build(
    name: str, puzzle: Puzzle, known: Known | None = None, deadline: float | None = None
) -> CellModel:
    return importlib.import_module(f"{__name__}.{name}").build(puzzle, known, deadline)
