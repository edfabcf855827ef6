"""How the compiled search (``kernel``) and belief propagation (``belief``) write a cell
of a grid: one ``int8`` each, shared so that the two cannot disagree."""

UNKNOWN, FILLED, EMPTY = 0, 1, 2
