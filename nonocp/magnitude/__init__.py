"""Grids with given run counts per line ("magnitudes") and the fewest or most filled cells.

``optimize(row_runs, col_runs, sense)`` solves one instance; ``batch`` runs files of them
across processes. Most instances are settled by a construction that meets a proven bound;
the CP-SAT model in ``model`` handles the rest.
"""

from nonocp.magnitude.bounds import Sense
from nonocp.magnitude.optimize import Result, Status, optimize

__all__ = ["Result", "Sense", "Status", "optimize"]
