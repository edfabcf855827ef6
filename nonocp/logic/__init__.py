"""Logic solving: an exact line solver, propagation, probing and a difficulty rating.

Everything here is a proof step: a cell is fixed only when every solution has that
value, so the searches and solvers after it start from what logic fixed without losing
a solution.
"""

from nonocp.logic.line import solve_line
from nonocp.logic.rating import Deduction, Rating, Step, deduce

__all__ = ["Deduction", "Rating", "Step", "deduce", "solve_line"]
