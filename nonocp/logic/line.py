"""The exact line solver: what all arrangements of a clue that fit a partly known line share.

A line of ``n`` cells is two bit masks, bit ``i`` standing for cell ``i``: the cells known
filled and the cells known empty. Arrangements are paths through a small automaton whose
states are "``j`` blocks placed, at position ``p``" (``p`` from 0 to ``n``), either *free*
(the next block may start at ``p``) or *just after block j* (the next cell must be a gap).
A set of positions for one ``j`` is an integer, so each step of the dynamic program moves
all ``n + 1`` positions at once with shifts, masks and additions: O(blocks x log length)
integer operations per line instead of O(length x blocks) Python steps.

A cell can be empty (filled) when some transition reading it as empty (filled) lies on an
accepting path, that is, starts at a state reachable from the left end and leads to one
from which the right end is reachable. Cells that cannot be empty are forced filled and
vice versa; when no path exists at all, the line contradicts what is known.
"""

from __future__ import annotations

from nonocp.puzzle import Clue

Masks = tuple[int, int]
"""``(filled, empty)``: the cells known filled and known empty, as bit masks."""


def solve_line(clue: Clue, length: int, filled: int, empty: int) -> Masks | None:
    """The known cells of the line once every forced cell is added, or None on contradiction."""
    full = (1 << length) - 1
    may_empty = full & ~filled
    may_fill = full & ~empty
    starts = {b: _run_starts(may_fill, b) for b in set(clue)}
    free_back, after_back = _backward(clue, length, may_empty, starts)
    if not free_back[0] & 1:
        return None
    # Forward: ``free`` holds the positions reachable with ``j`` blocks placed; a block
    # placement or an empty cell counts when it also leads on to the right end.
    free = _reach(1, may_empty)
    can_fill = 0
    can_empty = free & may_empty & (free_back[0] >> 1)
    for j, b in enumerate(clue, start=1):
        placed = free & starts[b] & (after_back[j] >> b)
        can_fill |= _spread(placed, b)
        ends = placed << b
        free = _reach((ends & may_empty) << 1, may_empty)
        can_empty |= (free | ends) & may_empty & (free_back[j] >> 1)
    return full & ~can_empty, full & ~can_fill


def _backward(
    clue: Clue, length: int, may_empty: int, starts: dict[int, int]
) -> tuple[list[int], list[int]]:
    """For each ``j``: the free positions, and the positions just after block ``j``, from
    which the rest of the line can hold blocks ``j+1..k``."""
    k = len(clue)
    strides = _strides(may_empty)
    free_back = [0] * (k + 1)
    after_back = [0] * (k + 1)
    free_back[k] = after_back[k] = _reach_back(1 << length, strides)
    for j in range(k - 1, -1, -1):
        b = clue[j]
        free_back[j] = _reach_back(starts[b] & (after_back[j + 1] >> b), strides)
        after_back[j] = may_empty & (free_back[j] >> 1)
    return free_back, after_back


def _reach(positions: int, passable: int) -> int:
    """Positions reachable from ``positions`` by stepping right over passable cells.

    Adding ``passable`` to the starting bits inside it carries each one to the end of its
    run of passable cells; the exclusive or with ``passable`` leaves the bits it crossed.
    """
    inside = positions & passable
    return positions | ((inside + passable) ^ passable)


def _strides(passable: int) -> list[tuple[int, int]]:
    """``(s, cells)`` for s = 1, 2, 4, ...: the cells that start ``s`` passable cells in a
    row, as long as any do. They depend on the line only, so each solve computes them once."""
    strides = []
    stride = 1
    while passable:
        strides.append((stride, passable))
        passable &= passable >> stride
        stride <<= 1
    return strides


def _reach_back(positions: int, strides: list[tuple[int, int]]) -> int:
    """Positions from which ``positions`` is reachable stepping right over passable cells.

    Carries only run upwards, so this doubles the stride instead: after the round with
    stride ``s``, every position within ``2s - 1`` passable steps is included.
    """
    for stride, cells in strides:
        positions |= cells & (positions >> stride)
    return positions


def _run_starts(cells: int, length: int) -> int:
    """Positions ``s`` where cells ``s .. s+length-1`` are all set (a block fits there)."""
    span = 1
    while span * 2 <= length:
        cells &= cells >> span
        span *= 2
    return cells & (cells >> (length - span))


def _spread(starts: int, length: int) -> int:
    """The cells covered by blocks of ``length`` placed at each of ``starts``."""
    span = 1
    while span * 2 <= length:
        starts |= starts << span
        span *= 2
    return starts | (starts << (length - span))
