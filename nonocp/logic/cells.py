"""How the compiled search (``kernel``) and belief propagation (``belief``) write a cell
of a grid (one ``int8`` each) and read a puzzle, shared so that the two cannot disagree."""

import numpy as np

UNKNOWN, FILLED, EMPTY = 0, 1, 2

Arrays = tuple[int, int, np.ndarray, np.ndarray]
"""A puzzle as the compiled code reads it: height, width, the flat clues and their starts."""
