"""Which value each open cell likelier has, by belief propagation between rows and columns.

Line logic and probing fix only what every solution shares. When they stall the search
must guess, and a guess that agrees with a solution spares it refuting the other value.
Belief propagation (the sum-product algorithm on the grid's rows and columns) makes the
guess: every line weighs each of its arrangements by how likely its crossing lines hold
each cell, counts them all exactly, and tells each crossing line how likely the cell is
filled on its own account. A few rounds of these messages settle, on a picture puzzle,
close to the picture (on Knotty, on every open cell), and on a random tournament puzzle
they still take the search to a solution several times faster than a guess from probing.

A line counts its arrangements as paths through an automaton of its clue, the pattern of
``nonocp.automaton`` unrolled: a gap state before, between and after the blocks, and one
state per block cell, so clue ``3,2`` has states gap, 1, 2, 3, gap, 1, 2, gap. That is one
state more than ``automaton.compile_clue``'s minimal DFA (a gap of its own after the last
block), so that a state's kind alone says where each value leads, and the compiled code
(run with the search, ``kernel``) needs no transition table per line. Counts are
scaled at every position; only their ratios matter.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nonocp.logic.cells import EMPTY, FILLED, UNKNOWN, Arrays

ROUNDS = 30
"""The most rounds of messages from knowing nothing, each over the rows and then the
columns still moving: enough for the beliefs to settle on the puzzles measured (Knotty's
guess is exact from about 20)."""

SETTLED = 0.01
"""How far a message must move for the lines it reaches to send theirs again: smaller
moves would not change them enough to matter."""

CERTAIN = 1e-4
"""How close to 0 or 1 a message may come: a line that believed a cell certain would
leave no weight for any arrangement through the other value, and rounding would then
be all that decides."""

Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""The arrays a line's count works in (``_scratch``): gaps, ahead, behind, live, out, scales."""

Messages = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Scratch]
"""What ``messages`` makes: rows' and columns' messages, stale lines, grid heard, ``Scratch``."""


@njit(cache=True)
def _gaps(clue: np.ndarray, gaps: np.ndarray) -> int:
    """Fill ``gaps`` with 1 for each gap state of ``clue``'s automaton and 0 for each
    block cell, and one more gap, a sentinel past the last state that nothing reaches;
    the state count."""
    gaps[0] = 1.0
    state = 1
    for size in clue:
        gaps[state : state + size] = 0.0
        gaps[state + size] = 1.0
        state += size + 1
    gaps[state] = 1.0
    return state


@njit(cache=True)
def _weights(value: int, filled: float) -> tuple[float, float]:
    """The weights of a cell's two values: 0 for the one it cannot take."""
    if value == FILLED:
        return 0.0, 1.0
    if value == EMPTY:
        return 1.0, 0.0
    return 1.0 - filled, filled


@njit(cache=True)
def _line(
    values: np.ndarray,
    incoming: np.ndarray,
    clue: np.ndarray,
    out: np.ndarray,
    gaps: np.ndarray,
    ahead: np.ndarray,
    behind: np.ndarray,
    live: np.ndarray,
    scales: np.ndarray,
) -> None:
    """``out[i]``: how likely cell ``i`` is filled by this line's count of its
    arrangements, each weighted by ``incoming`` on every other cell.

    A state is reached from itself (a gap, by a blank) and from the state before it (a
    gap by a blank, a block cell by a filled cell), so each pass pulls every state from
    at most two. ``live[i]`` holds the lowest and highest state with a path to position
    ``i`` that can still finish the line in the cells left (from state ``s`` it takes
    ``states - 2 - s`` more): only the states between are visited there, a band a few
    blocks wide on a long line, where the whole automaton is tens of blocks long; only
    the band and its edges are cleared. The backward pass sums both values' paths
    through each cell as it goes.

    Which source a state pulls from is weighed by its gap flag (``gaps``, 1 or 0), not
    chosen by a branch: along a random line the kinds of the states follow its random
    block sizes, and the mispredicted branches cost about 40% of the time. Each weight is
    the product a branch would have chosen, times 1, plus the other one times 0, which
    adds exactly nothing, so the messages are the same to the last bit as branching, and
    a search takes the same path, faster. A random 100x100 picture's lines at the root:
    6.3 µs each against 10.4 µs branching. Reordering the products (the scale applied
    to the cell's weights rather than to the counts) took 5.3 µs, but rounded otherwise,
    and the search's paths moved with it: decimation gave up on Gettys, which then took
    3.0-3.4 s against 0.57 s.

    Along a long line the counts would underflow, and only their ratios matter, so each
    position's counts are scaled by one over their total (``scales``: the forward pass's
    in column 0, the backward pass's in column 1). The scale is applied as the counts are
    read, not stored: the same products as rescaling them in place, so the same
    messages, without a second pass over the band. A random 100x100 picture's lines at
    the root (every cell open): 11 µs each, against 19 µs rescaling in place (both still
    branching on the kind of state); Gettys' lines during decimation 3.9 µs against
    6.3 µs.
    """
    n = values.shape[0]
    states = _gaps(clue, gaps)
    last = states - 1
    ahead[0, : states + 1] = 0.0
    ahead[0, 0] = 1.0
    live[0, 0], live[0, 1] = 0, 0
    scales[0, 0] = 1.0
    for i in range(n):
        blank, filled = _weights(values[i], incoming[i])
        old, new, scale = ahead[i], ahead[i + 1], scales[i, 0]
        first = max(live[i, 0], states - 1 - (n - i))
        top = min(live[i, 1] + 1, last)
        new[max(first - 1, 0) : top + 2] = 0.0  # all the next position reads
        total = 0.0
        previous = old[first - 1] * scale if first > 0 else 0.0
        for state in range(first, top + 1):
            here = old[state] * scale
            gap = gaps[state]
            weight = gap * (blank * (here + previous)) + (1.0 - gap) * (filled * previous)
            previous = here
            new[state] = weight
            total += weight
        low, high = first, top
        while low <= high and new[low] == 0.0:
            low += 1
        while high >= low and new[high] == 0.0:
            high -= 1
        live[i + 1, 0], live[i + 1, 1] = (low, high) if low <= high else (states, -1)
        scales[i + 1, 0] = _scale(total)
    behind[n, : states + 1] = 0.0
    behind[n, last] = 1.0
    if states > 1:
        behind[n, last - 1] = 1.0
    scales[n, 1] = 1.0
    for i in range(n - 1, -1, -1):
        blank, filled = _weights(values[i], incoming[i])
        after, now, before = behind[i + 1], behind[i], ahead[i]
        scale_after, scale_before = scales[i + 1, 1], scales[i, 0]
        low, high = live[i, 0], live[i, 1]
        if i > 0:  # clear all the next position reads
            now[min(low, live[i - 1, 0]) : max(high, live[i - 1, 1]) + 2] = 0.0
        blank_paths, filled_paths, total = 0.0, 0.0, 0.0
        onward = after[low] * scale_after
        for state in range(low, high + 1):
            stay, onward = onward, after[state + 1] * scale_after
            gap = gaps[state + 1]
            by_blank = gaps[state] * stay + gap * onward
            by_fill = (1.0 - gap) * onward
            weight = blank * by_blank + filled * by_fill
            now[state] = weight
            total += weight
            reached = before[state] * scale_before
            blank_paths += reached * by_blank
            filled_paths += reached * by_fill
        scales[i, 1] = _scale(total)
        paths = blank_paths + filled_paths
        share = filled_paths / paths if paths > 0.0 else 0.5
        out[i] = min(max(share, CERTAIN), 1.0 - CERTAIN)


@njit(cache=True)
def _scale(total: float) -> float:
    """What a position's counts are multiplied by as they are read: one over their
    ``total``, or 1 where none is left."""
    return 1.0 / total if total > 0.0 else 1.0


@njit(cache=True)
def messages(grid: np.ndarray, puzzle: Arrays) -> Messages:
    """Messages that know nothing yet: every cell even, every line to be heard. They are
    what belief propagation carries from one call to the next: each row's and each
    column's message to every cell, the lines to be heard, the grid the messages were
    last brought up to date with, and the arrays a line's count works in (allocated
    once, not at every refresh of a search)."""
    height, width = puzzle[0], puzzle[1]
    even = np.full((height, width), 0.5)
    stale = np.ones(height + width, np.bool_)
    return even, even.copy(), stale, grid.copy(), _scratch(puzzle)


@njit(cache=True)
def refine(grid: np.ndarray, puzzle: Arrays, sent: Messages, rounds: int) -> np.ndarray:
    """Per cell of ``grid``, how likely it is filled: 1 or 0 where known, else the row's
    and the column's messages combined, after ``hear``'s ``rounds`` rounds or fewer."""
    hear(grid, puzzle, sent, rounds)
    chances = heard(sent)
    for cell in range(grid.shape[0]):
        if grid[cell] != UNKNOWN:
            chances[cell] = 1.0 if grid[cell] == FILLED else 0.0
    return chances


@njit(cache=True)
def hear(grid: np.ndarray, puzzle: Arrays, sent: Messages, rounds: int) -> None:
    """Bring ``sent`` (see ``messages``) up to date with ``grid``, in place, in ``rounds``
    rounds or fewer (``heard`` combines the messages). The first round hears the
    lines whose cells changed since the last call; each later one, the lines whose
    incoming messages moved by more than ``SETTLED``: the others would send nearly what
    they sent. So in a search, where a node differs from the last in a few lines, a
    refresh costs a few lines, not the grid. Messages still moving when the rounds run
    out are left as they are: on Faase, where half the lines never settle, carrying them
    into the next call made every refresh chase them, and the search found no solution in
    60 s, against both solutions in 13 s without."""
    height, width, clues, starts = puzzle
    by_row, by_column, stale, seen, scratch = sent
    for cell in range(grid.shape[0]):
        if grid[cell] != seen[cell]:
            stale[cell // width] = True
            stale[height + cell % width] = True
    seen[:] = grid
    cells = grid.reshape(height, width)
    for _ in range(rounds):
        if not stale.any():
            break
        for row in range(height):
            if stale[row]:
                stale[row] = False
                clue = clues[starts[row] : starts[row + 1]]
                _send(cells[row], by_column[row], clue, by_row[row], stale[height:], scratch)
        for column in range(width):
            if stale[height + column]:
                stale[height + column] = False
                clue = clues[starts[height + column] : starts[height + column + 1]]
                incoming = by_row[:, column]
                _send(cells[:, column], incoming, clue, by_column[:, column], stale, scratch)
    stale[:] = False


@njit(cache=True)
def heard(sent: Messages) -> np.ndarray:
    """Per cell, how likely its row's and its column's messages say it is filled. A line
    leaves a cell's own value out of the weights it counts for that cell, but its count
    still visits only the states the known cells let it reach: for a known cell, where
    its value decides where a block lies, its lines speak for that value; elsewhere
    this is what the rest of the grid says of it (``nonocp.logic.decimation``)."""
    by_row, by_column = sent[0], sent[1]
    filled = by_row * by_column
    return (filled / (filled + (1.0 - by_row) * (1.0 - by_column))).ravel()


@njit(cache=True)
def _scratch(puzzle: Arrays) -> Scratch:
    """The arrays ``_line`` works in, for the longest line and the longest automaton
    (with room for a sentinel state past its last)."""
    height, width, clues, starts = puzzle
    n = max(height, width)
    most = 2
    for line in range(height + width):
        most = max(most, 2 + np.sum(clues[starts[line] : starts[line + 1]] + 1))
    return (
        np.zeros(most),
        np.zeros((n + 1, most)),
        np.zeros((n + 1, most)),
        np.zeros((n + 1, 2), np.int64),
        np.zeros(n),
        np.ones((n + 1, 2)),
    )


@njit(cache=True)
def _send(
    values: np.ndarray,
    incoming: np.ndarray,
    clue: np.ndarray,
    message: np.ndarray,
    crossing: np.ndarray,
    scratch: Scratch,
) -> None:
    """A line's new ``message``, marking stale the ``crossing`` lines it moved by more
    than ``SETTLED``."""
    gaps, ahead, behind, live, out, scales = scratch
    n = values.shape[0]
    _line(values, incoming, clue, out[:n], gaps, ahead, behind, live, scales)
    for i in range(n):
        if abs(message[i] - out[i]) > SETTLED:
            crossing[i] = True
        message[i] = out[i]
