"""The depth-first probing search, compiled with numba: the hot loop of solving.

The pure-Python logic (``line.py``, ``board.py``) explains and rates a puzzle; this module
searches it, with the same exact reasoning on flat arrays that numba compiles to machine
code. A 25-cell line solve costs about 0.2 µs here (on machine words) against tens of µs
in Python, which is what makes probing every node of a search affordable. numba caches
the machine code beside this file: the first search after installing compiles it, once,
in about a minute on a 2-core machine. The cache is keyed on this file alone, and the code
compiled here includes ``belief``'s: after editing only that module, delete
``__pycache__`` here. numba compiles a function once more for each constant value another
compiled function passes it (its literal type), so the constants passed to ``_probe``,
``_assume`` and the belief refresh are made plain numbers first (``int(ROUNDS)``): their
copies had made that compile 73-85 s against 63-72 s (fresh compiles in turn on this
shared machine), and the search no faster.

A grid is one ``int8`` array of cells, row-major, each ``UNKNOWN``, ``FILLED`` or ``EMPTY``.
Lines ``0 .. height-1`` are the rows and ``height ..`` the columns; the clues of all lines
are one flat array cut by ``starts`` (line ``l`` owns ``clues[starts[l]:starts[l + 1]]``).
The arrays every step works in are allocated once per puzzle (``workspace``).

Every step fixes a cell only when all solutions below the current node share its value,
and both values of a branching cell are explored, so an exhausted search has found every
solution there is. A search that restarts (``_dive``) gives some run, sooner or later,
patience enough to finish (``_luby``), and never restarts after its first solution. A
run that starts near a failed run's deepest grid instead of at the root (``_repair``)
sees only part of the puzzle: only a search for one solution makes one, and its end is
not the search's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nonocp.answers import SolverBug
from nonocp.logic.belief import ROUNDS, Messages, messages, refine
from nonocp.logic.cells import EMPTY, FILLED, UNKNOWN, Arrays
from nonocp.puzzle import Cell, Grid, Known, Puzzle

EXHAUSTED, STOPPED, CONTRADICTION = 0, 1, -1
"""How a search or a probe ended."""

BROKEN = 2
"""How a search ends that met a complete grid breaking its clues (``_satisfies``): a bug."""

HALTED = -(1 << 62)
"""What ``_propagate`` returns when the search was stopped while it ran: below zero, like
a contradiction, so that no caller takes its half-propagated grid for a fixpoint, yet no
contradiction's ``-1 - line``, since it proves nothing."""

STORED = 1000
"""The most solutions one search hands back as grids; beyond it the count goes on."""

NO_CAP = -1
"""The solution limit or probe budget of a search that stops only when it is exhausted."""

Kept = tuple[np.ndarray, np.ndarray]
"""What a search keeps of the solutions it finds: the first ``STORED`` grids, and the
cells in which any solution differs from the first."""

Work = tuple[np.ndarray, ...]
"""The work arrays of one puzzle (``workspace``): line solves' tables, the dirty lines."""

Trials = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A probe's grids (``_probe``): the cell tried filled, tried empty, and the grid before."""


def run(
    puzzle: Puzzle,
    known: Known | None,
    limit: int | None,
    probes: int | None,
    counters: np.ndarray,
    dynamic: bool = False,
    restarts: int | None = None,
    margin: int | None = None,
    probing: bool = True,
    sweep: int = 0,
    probed: bool = False,
) -> tuple[list[Grid], bool, int, Known, set[Cell]]:
    """``search`` on a puzzle and its known cells, with grids in and out: the solutions
    stored (at most ``limit``, or ``STORED``), whether the search was exhausted, the
    solutions found, the cells proven at the root, and the cells in which some solution
    differs from the first (see ``search`` for ``counters``). Raises ``SolverBug`` when a
    solution breaks its clues."""
    shape = arrays(puzzle)
    grid = cells_of(puzzle, known)
    work = workspace(puzzle.height, puzzle.width, shape[3])
    stored = np.empty((min(limit or STORED, STORED), grid.shape[0]), np.int8)
    differing = np.zeros(grid.shape[0], np.bool_)
    count, ended = search(
        grid,
        shape,
        work,
        (stored, differing),
        NO_CAP if limit is None else limit,
        NO_CAP if probes is None else probes,
        counters,
        dynamic,
        -1 if restarts is None else restarts,
        REPAIR_MARGIN if margin is None else margin,
        probing,
        sweep,
        probed,
    )
    if ended == BROKEN:
        raise SolverBug("the compiled search found a grid that does not satisfy the clues")
    grids = [grid_of(cells, puzzle.width) for cells in stored[: min(count, len(stored))]]
    cells = {divmod(int(cell), puzzle.width) for cell in np.flatnonzero(differing)}
    return grids, ended == EXHAUSTED, int(count), _known(grid, puzzle.width), cells


def counters() -> np.ndarray:
    """A search's probe count and stop request (see ``search``)."""
    return np.zeros(2, np.int64)


def arrays(puzzle: Puzzle) -> Arrays:
    """``puzzle`` as the compiled code reads it (``Arrays``)."""
    lines = [*puzzle.rows, *puzzle.columns]
    starts = np.zeros(len(lines) + 1, np.int64)
    starts[1:] = np.cumsum([len(clue) for clue in lines])
    clues = np.array([n for clue in lines for n in clue], np.int64)
    return puzzle.height, puzzle.width, clues, starts


def cells_of(puzzle: Puzzle, known: Known | None) -> np.ndarray:
    """A grid of ``puzzle``'s cells, holding the ``known`` ones."""
    if not known:
        return np.full(puzzle.height * puzzle.width, UNKNOWN, np.int8)
    code = {None: UNKNOWN, 1: FILLED, 0: EMPTY}
    return np.array([code[value] for row in known for value in row], np.int8)


def grid_of(cells: np.ndarray, width: int) -> Grid:
    """A complete grid of cells as a ``Grid``."""
    filled = (cells == FILLED).astype(int).tolist()
    return tuple(tuple(filled[start : start + width]) for start in range(0, len(filled), width))


def _known(cells: np.ndarray, width: int) -> Known:
    values = [None if v == UNKNOWN else int(v == FILLED) for v in cells.tolist()]
    return [values[start : start + width] for start in range(0, len(values), width)]


@njit(cache=True)
def _words_for(n: int) -> int:
    """The machine words a line of ``n`` cells needs for its positions ``0 .. n + 1``."""
    return (n + 2 + 63) // 64


ROW_SCRATCH = 11
"""The bit sets ``_by_word_rows`` works in besides its prefixes and fits."""


def workspace(height: int, width: int, starts: np.ndarray) -> Work:
    """The work arrays of one puzzle: the lines waiting to be solved and a line solve's
    bit sets."""
    blocks = int(np.max(np.diff(starts)))
    words = _words_for(max(height, width))
    return (
        np.zeros(height + width, np.bool_),  # dirty: lines to solve again
        np.zeros((4, blocks + 1), np.uint64),  # words: prefixes and block fits, both ways
        np.zeros((4, blocks + 1, 2), np.uint64),  # the same on pairs of words
        np.zeros((4, blocks + 1, words), np.uint64),  # the same on rows of words
        np.zeros((ROW_SCRATCH, words), np.uint64),  # a solve on rows of words: its bit sets
    )


@njit(cache=True)
def _cell(height: int, width: int, line: int, position: int) -> int:
    if line < height:
        return line * width + position
    return position * width + line - height


WORD = 62
"""The longest line solved on machine words: positions 0 .. n + 1 must fit in 64 bits."""

PAIR = 126
"""The longest line solved on pairs of machine words (``_by_word_pairs``)."""

ONE = np.uint64(1)
NONE = np.uint64(0)

Pair = tuple[np.uint64, np.uint64]
"""A bit set on two machine words, ``(low, high)``, for lines of up to ``PAIR`` cells."""


@njit(cache=True)
def _solve_line(grid: np.ndarray, puzzle: Arrays, work: Work, line: int) -> int:
    """Fix every cell of ``line`` that all its arrangements agree on, marking the lines
    crossing them dirty; the number fixed, or -1 when no arrangement fits what is known.
    Lines of up to ``WORD`` cells are solved on a machine word, up to ``PAIR`` on two, and
    longer ones on as many as they need."""
    height, width = puzzle[0], puzzle[1]
    n = width if line < height else height
    if n <= WORD:
        return _by_words(grid, puzzle, work, line)
    if n <= PAIR:
        return _by_word_pairs(grid, puzzle, work, line)
    return _by_word_rows(grid, puzzle, work, line)


@njit(cache=True)
def broken_lines(grid: np.ndarray, puzzle: Arrays, work: Work, broken: np.ndarray) -> int:
    """Mark in ``broken`` each line of the complete ``grid`` that breaks its clue; how
    many do. A line solve of a complete line fixes nothing, so it only judges."""
    for line in range(broken.shape[0]):
        broken[line] = _solve_line(grid, puzzle, work, line) < 0
    work[0][:] = False
    return int(np.sum(broken))


@njit(cache=True)
def _reach(seeds: np.uint64, passable: np.uint64) -> np.uint64:
    """The positions reachable rightwards from ``seeds`` through ``passable`` bits: from a
    seed on through the passable run it starts, and one past its end. Adding a seed to
    its run carries through the run and stops one past it, so one addition does it all."""
    return ((passable + (seeds & passable)) ^ passable) | seeds


@njit(cache=True)
def _starts(open_cells: np.uint64, passable: np.uint64, size: int) -> np.uint64:
    """Positions where a block of ``size`` fits: ``size`` open (not empty) cells, then a
    cell that is not filled."""
    fits = open_cells
    for shift in range(1, size):
        fits &= open_cells >> np.uint64(shift)
    return fits & (passable >> np.uint64(size))


@njit(cache=True)
def _prefixes(
    filled: np.uint64,
    empty: np.uint64,
    n: int,
    clues: np.ndarray,
    first: int,
    k: int,
    backwards: bool,
    out: np.ndarray,
    fits: np.ndarray,
) -> None:
    """``out[j]``: the positions ``i`` such that cells ``[0, i)`` can hold the first ``j``
    blocks with cell ``i - 1`` empty (bit ``i``; cell ``n`` is a virtual empty cell), and
    ``fits[j]`` where block ``j`` fits. The line is read from its end when ``backwards``,
    with the clue reversed."""
    cells = (ONE << np.uint64(n)) - ONE
    passable = (~filled & cells) | (ONE << np.uint64(n))
    open_cells = ~empty & cells
    out[0] = _reach(ONE, passable)
    for j in range(k):
        size = clues[first + (k - 1 - j if backwards else j)]
        fits[j] = _starts(open_cells, passable, size)
        out[j + 1] = _reach((out[j] & fits[j]) << np.uint64(size + 1), passable)


SWAPS = (
    (np.uint64(1), np.uint64(0x5555555555555555)),
    (np.uint64(2), np.uint64(0x3333333333333333)),
    (np.uint64(4), np.uint64(0x0F0F0F0F0F0F0F0F)),
    (np.uint64(8), np.uint64(0x00FF00FF00FF00FF)),
    (np.uint64(16), np.uint64(0x0000FFFF0000FFFF)),
    (np.uint64(32), np.uint64(0x00000000FFFFFFFF)),
)
"""Bit reversal of a 64-bit word: swap neighbouring bits, then pairs, nibbles, bytes, ..."""


@njit(cache=True)
def _mirror(word: np.uint64, n: int) -> np.uint64:
    """Bit ``i`` moved to bit ``n - 1 - i``, for bits ``0 .. n - 1``: the word reversed,
    then shifted down."""
    for width, low in SWAPS:
        word = ((word >> width) & low) | ((word & low) << width)
    return word >> np.uint64(64 - n)


@njit(cache=True)
def _by_words(grid: np.ndarray, puzzle: Arrays, work: Work, line: int) -> int:
    """The line solver on bit sets, one bit per position (see ``_prefixes``).

    Cell ``p`` can be empty when, for some ``j``, cells ``[0, p]`` hold ``j`` blocks ending
    in that empty cell and cells ``[p, n)`` hold the others, read backwards the same way;
    it can be filled when some block placement covering it has room on both sides.
    """
    height, width, clues, starts = puzzle
    dirty, words = work[0], work[1]
    n = width if line < height else height
    first, k = starts[line], starts[line + 1] - starts[line]
    filled, empty = np.uint64(0), np.uint64(0)
    for p in range(n):
        value = grid[_cell(height, width, line, p)]
        if value == FILLED:
            filled |= ONE << np.uint64(p)
        elif value == EMPTY:
            empty |= ONE << np.uint64(p)
    ahead, behind, fits = words[0], words[1], words[2]
    _prefixes(filled, empty, n, clues, first, k, False, ahead, fits)
    if not ahead[k] >> np.uint64(n + 1) & ONE:
        return -1
    _prefixes(_mirror(filled, n), _mirror(empty, n), n, clues, first, k, True, behind, words[3])
    # behind[j] at bit n + 1 - i, mirrored over n + 2 positions, lines up with ahead at i.
    can_empty = np.uint64(0)
    can_fill = np.uint64(0)
    after = _mirror(behind[k], n + 2)
    for j in range(k + 1):
        can_empty |= ahead[j] & after
        if j < k:
            size = clues[first + j]
            after = _mirror(behind[k - j - 1], n + 2)
            placed = ahead[j] & fits[j] & (after >> np.uint64(size + 1))
            for shift in range(size):
                can_fill |= placed << np.uint64(shift)
    cells = (ONE << np.uint64(n)) - ONE
    can_empty = (can_empty >> ONE) & cells
    unknown = ~(filled | empty) & cells
    if unknown & ~can_empty & ~can_fill:
        return -1
    now_filled = unknown & ~can_empty
    now_empty = unknown & ~can_fill
    fixed = 0
    for p in range(n):
        bit = ONE << np.uint64(p)
        if (now_filled | now_empty) & bit:
            grid[_cell(height, width, line, p)] = FILLED if now_filled & bit else EMPTY
            dirty[height + p if line < height else p] = True
            fixed += 1
    return fixed


@njit(cache=True)
def _by_word_pairs(grid: np.ndarray, puzzle: Arrays, work: Work, line: int) -> int:
    """``_by_words`` on bit sets of two words, ``(low, high)``, for lines of up to ``PAIR``
    cells: 1.6 µs on a random, partly known 100-cell line, against 4.5 µs on rows of
    words (``_by_word_rows``; ``python benchmarks/logic.py --section lines``)."""
    height, width, clues, starts = puzzle
    dirty, pairs = work[0], work[2]
    n = width if line < height else height
    first, k = starts[line], starts[line + 1] - starts[line]
    filled, empty = (NONE, NONE), (NONE, NONE)
    for p in range(n):
        value = grid[_cell(height, width, line, p)]
        if value == FILLED:
            filled = _pair_or(filled, _pair_bit(p))
        elif value == EMPTY:
            empty = _pair_or(empty, _pair_bit(p))
    ahead, behind = pairs[0], pairs[1]
    _pair_prefixes(filled, empty, n, clues, first, k, False, ahead, pairs[2])
    if not _pair_has(_pair_at(ahead, k), n + 1):
        return -1
    filled_back, empty_back = _pair_mirror(filled, n), _pair_mirror(empty, n)
    _pair_prefixes(filled_back, empty_back, n, clues, first, k, True, behind, pairs[3])
    can_empty, can_fill = (NONE, NONE), (NONE, NONE)
    after = _pair_mirror(_pair_at(behind, k), n + 2)
    for j in range(k + 1):
        can_empty = _pair_or(can_empty, _pair_and(_pair_at(ahead, j), after))
        if j < k:
            size = clues[first + j]
            after = _pair_mirror(_pair_at(behind, k - j - 1), n + 2)
            starts_here = _pair_and(_pair_at(ahead, j), _pair_at(pairs[2], j))
            placed = _pair_and(starts_here, _pair_down(after, size + 1))
            for shift in range(size):
                can_fill = _pair_or(can_fill, _pair_up(placed, shift))
    can_empty = _pair_down(can_empty, 1)
    fixed = 0
    for p in range(n):
        bit = _pair_bit(p)
        if _pair_meets(filled, bit) or _pair_meets(empty, bit):
            continue
        fill, blank = _pair_meets(can_fill, bit), _pair_meets(can_empty, bit)
        settled = _settle_cell(grid, puzzle, dirty, line, p, fill, blank)
        if settled < 0:
            return -1
        fixed += settled
    return fixed


@njit(cache=True)
def _settle_cell(
    grid: np.ndarray, puzzle: Arrays, dirty: np.ndarray, line: int, p: int, fill: bool, blank: bool
) -> int:
    """What a line solve learnt of its open cell ``p`` from whether it ``fill``s in some
    arrangement and is ``blank`` in some: -1 when in none, 0 when in both, 1 when in one,
    which it then takes, the line crossing it marked dirty."""
    if fill == blank:
        return 0 if fill else -1
    height, width = puzzle[0], puzzle[1]
    grid[_cell(height, width, line, p)] = FILLED if fill else EMPTY
    dirty[height + p if line < height else p] = True
    return 1


@njit(cache=True)
def _pair_bit(position: int) -> Pair:
    if position < 64:
        return ONE << np.uint64(position), NONE
    return NONE, ONE << np.uint64(position - 64)


@njit(cache=True)
def _pair_or(a: Pair, b: Pair) -> Pair:
    return a[0] | b[0], a[1] | b[1]


@njit(cache=True)
def _pair_and(a: Pair, b: Pair) -> Pair:
    return a[0] & b[0], a[1] & b[1]


@njit(cache=True)
def _pair_meets(a: Pair, b: Pair) -> bool:
    return bool((a[0] & b[0]) | (a[1] & b[1]))


@njit(cache=True)
def _pair_has(a: Pair, position: int) -> bool:
    return _pair_meets(a, _pair_bit(position))


@njit(cache=True)
def _pair_at(table: np.ndarray, row: int) -> Pair:
    return table[row, 0], table[row, 1]


@njit(cache=True)
def _pair_up(a: Pair, shift: int) -> Pair:
    """``a`` moved ``shift`` positions up: the high word takes the low word's top bits."""
    if shift == 0:
        return a
    if shift >= 64:
        return NONE, a[0] << np.uint64(shift - 64)
    by = np.uint64(shift)
    return a[0] << by, (a[1] << by) | (a[0] >> (np.uint64(64) - by))


@njit(cache=True)
def _pair_down(a: Pair, shift: int) -> Pair:
    """``a`` moved ``shift`` positions down: the low word takes the high word's low bits."""
    if shift == 0:
        return a
    if shift >= 64:
        return a[1] >> np.uint64(shift - 64), NONE
    by = np.uint64(shift)
    return (a[0] >> by) | (a[1] << (np.uint64(64) - by)), a[1] >> by


@njit(cache=True)
def _pair_mirror(a: Pair, n: int) -> Pair:
    """``_mirror`` on a pair: both words reversed and swapped, then moved down."""
    return _pair_down((_mirror(a[1], 64), _mirror(a[0], 64)), 128 - n)


@njit(cache=True)
def _pair_reach(seeds: Pair, passable: Pair) -> Pair:
    """``_reach`` on a pair: the low word's addition carries into the high word's."""
    low = passable[0] + (seeds[0] & passable[0])
    carry = ONE if low < passable[0] else NONE
    high = passable[1] + (seeds[1] & passable[1]) + carry
    return (low ^ passable[0]) | seeds[0], (high ^ passable[1]) | seeds[1]


@njit(cache=True)
def _pair_prefixes(
    filled: Pair,
    empty: Pair,
    n: int,
    clues: np.ndarray,
    first: int,
    k: int,
    backwards: bool,
    out: np.ndarray,
    fits: np.ndarray,
) -> None:
    """``_prefixes`` on pairs, the rows of ``out`` and ``fits`` holding (low, high)."""
    cells = _pair_down((~NONE, ~NONE), 128 - n)
    passable = _pair_or(_pair_and((~filled[0], ~filled[1]), cells), _pair_bit(n))
    open_cells = _pair_and((~empty[0], ~empty[1]), cells)
    out[0, 0], out[0, 1] = _pair_reach((ONE, NONE), passable)
    for j in range(k):
        size = clues[first + (k - 1 - j if backwards else j)]
        fit = _pair_down(passable, size)
        for shift in range(size):
            fit = _pair_and(fit, _pair_down(open_cells, shift))
        fits[j, 0], fits[j, 1] = fit
        seeds = _pair_up(_pair_and(_pair_at(out, j), fit), size + 1)
        out[j + 1, 0], out[j + 1, 1] = _pair_reach(seeds, passable)


@njit(cache=True)
def _by_word_rows(grid: np.ndarray, puzzle: Arrays, work: Work, line: int) -> int:
    """``_by_words`` on bit sets of as many words as the line needs, each a row of words,
    lowest first, for lines longer than ``PAIR``: 7.3 µs on a random, partly known
    150-cell line, against 37 µs on the tables of positions and blocks it replaced, which
    cost a step per block at each position (``python benchmarks/logic.py --section
    lines``)."""
    height, width, clues, starts = puzzle
    dirty, rows = work[0], work[3]
    n = width if line < height else height
    first, k = starts[line], starts[line + 1] - starts[line]
    words = _words_for(n)
    ahead, behind = rows[0, :, :words], rows[1, :, :words]
    fits, back_fits = rows[2, :, :words], rows[3, :, :words]
    scratch = work[4][:, :words]
    filled, empty, back_filled, back_empty, after, placed, can_empty, can_fill = scratch[:8]
    filled[:], empty[:] = NONE, NONE
    for p in range(n):
        value = grid[_cell(height, width, line, p)]
        if value == FILLED:
            _row_set(filled, p)
        elif value == EMPTY:
            _row_set(empty, p)
    _row_prefixes(filled, empty, n, clues, first, k, False, ahead, fits, scratch[8:])
    if not _row_has(ahead[k], n + 1):
        return -1
    _row_mirror(filled, n, back_filled)
    _row_mirror(empty, n, back_empty)
    _row_prefixes(back_filled, back_empty, n, clues, first, k, True, behind, back_fits, scratch[8:])
    can_empty[:], can_fill[:] = NONE, NONE
    _row_mirror(behind[k], n + 2, after)
    for j in range(k + 1):
        for at in range(words):
            can_empty[at] |= ahead[j, at] & after[at]
        if j < k:
            size = clues[first + j]
            _row_mirror(behind[k - j - 1], n + 2, after)
            _row_down(after, size + 1, placed)
            for at in range(words):
                placed[at] &= ahead[j, at] & fits[j, at]
            for _ in range(size):
                for at in range(words):
                    can_fill[at] |= placed[at]
                _row_up(placed, 1, placed)
    _row_down(can_empty, 1, can_empty)
    fixed = 0
    for p in range(n):
        if _row_has(filled, p) or _row_has(empty, p):
            continue
        fill, blank = _row_has(can_fill, p), _row_has(can_empty, p)
        settled = _settle_cell(grid, puzzle, dirty, line, p, fill, blank)
        if settled < 0:
            return -1
        fixed += settled
    return fixed


@njit(cache=True)
def _row_set(row: np.ndarray, position: int) -> None:
    row[position // 64] |= ONE << np.uint64(position % 64)


@njit(cache=True)
def _row_has(row: np.ndarray, position: int) -> bool:
    return bool(row[position // 64] >> np.uint64(position % 64) & ONE)


@njit(cache=True)
def _row_up(row: np.ndarray, shift: int, out: np.ndarray) -> None:
    """``out``: ``row`` moved ``shift`` positions up, the bits past its last word dropped.
    Each word is read before it is written, so ``out`` may be ``row``."""
    whole, part = shift // 64, np.uint64(shift % 64)
    for at in range(row.shape[0] - 1, -1, -1):
        word = NONE
        if at >= whole:
            word = row[at - whole] << part
            if part and at > whole:
                word |= row[at - whole - 1] >> (np.uint64(64) - part)
        out[at] = word


@njit(cache=True)
def _row_down(row: np.ndarray, shift: int, out: np.ndarray) -> None:
    """``out``: ``row`` moved ``shift`` positions down; ``out`` may be ``row``."""
    whole, part, words = shift // 64, np.uint64(shift % 64), row.shape[0]
    for at in range(words):
        word = NONE
        if at + whole < words:
            word = row[at + whole] >> part
            if part and at + whole + 1 < words:
                word |= row[at + whole + 1] << (np.uint64(64) - part)
        out[at] = word


@njit(cache=True)
def _row_mirror(row: np.ndarray, n: int, out: np.ndarray) -> None:
    """``_mirror`` on a row of words: the words reversed in order and each in its bits,
    then moved down; ``out`` may be ``row``."""
    words = row.shape[0]
    for at in range((words + 1) // 2):
        low, high = row[at], row[words - 1 - at]
        out[at], out[words - 1 - at] = _mirror(high, 64), _mirror(low, 64)
    _row_down(out, 64 * words - n, out)


@njit(cache=True)
def _row_reach(seeds: np.ndarray, passable: np.ndarray, out: np.ndarray) -> None:
    """``_reach`` on rows of words, each word's addition carrying into the next."""
    carry = NONE
    for at in range(seeds.shape[0]):
        seed, through = seeds[at], passable[at]
        total = through + (seed & through)
        summed = total + carry
        carry = ONE if total < through or summed < total else NONE
        out[at] = (summed ^ through) | seed


@njit(cache=True)
def _row_prefixes(
    filled: np.ndarray,
    empty: np.ndarray,
    n: int,
    clues: np.ndarray,
    first: int,
    k: int,
    backwards: bool,
    out: np.ndarray,
    fits: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """``_prefixes`` on rows of words, ``out`` and ``fits`` holding one row per block."""
    passable, open_cells, seeds = scratch[0], scratch[1], scratch[2]
    words = filled.shape[0]
    for at in range(words):
        bits = min(max(n - 64 * at, 0), 64)
        cells = ~NONE if bits == 64 else (ONE << np.uint64(bits)) - ONE
        passable[at] = ~filled[at] & cells
        open_cells[at] = ~empty[at] & cells
    _row_set(passable, n)
    seeds[:] = NONE
    seeds[0] = ONE
    _row_reach(seeds, passable, out[0])
    for j in range(k):
        size = clues[first + (k - 1 - j if backwards else j)]
        fit = fits[j]
        _row_down(passable, size, fit)
        for shift in range(size):
            _row_down(open_cells, shift, seeds)
            for at in range(words):
                fit[at] &= seeds[at]
        for at in range(words):
            seeds[at] = out[j, at] & fit[at]
        _row_up(seeds, size + 1, seeds)
        _row_reach(seeds, passable, out[j + 1])


@njit(cache=True)
def _propagate(grid: np.ndarray, puzzle: Arrays, work: Work, counters: np.ndarray) -> int:
    """Solve the dirty lines, and the lines crossing every cell they fix, to a fixpoint;
    the number of cells fixed, ``-1 - line`` for the line found contradictory, or
    ``HALTED`` once another thread has asked the search to stop (``counters[1]``). Leaves
    no line dirty.

    The stop request is read before each line: one probe of a random 1000x1000 puzzle at
    density 0.8 propagated for 53 s, and a search that read it only between probes had
    overrun a 5 s time limit by that much."""
    dirty = work[0]
    fixed = 0
    busy = True
    while busy:
        busy = False
        for line in range(dirty.shape[0]):
            if dirty[line]:
                if counters[1]:
                    dirty[:] = False
                    return HALTED
                dirty[line] = False
                got = _solve_line(grid, puzzle, work, line)
                if got < 0:
                    dirty[:] = False
                    return -1 - line
                fixed += got
                busy = True
    return fixed


@njit(cache=True)
def _assume(
    grid: np.ndarray,
    trial: np.ndarray,
    cell: int,
    value: int,
    puzzle: Arrays,
    work: Work,
    counters: np.ndarray,
) -> int:
    """``trial`` becomes ``grid`` with ``cell`` set to ``value`` and propagated; the cells
    that fixed besides ``cell``, ``-1 - line`` for the line found contradictory, or
    ``HALTED``."""
    height, width = puzzle[0], puzzle[1]
    trial[:] = grid
    trial[cell] = value
    work[0][cell // width] = True
    work[0][height + cell % width] = True
    return _propagate(trial, puzzle, work, counters)


@njit(cache=True)
def _touch(before: np.ndarray, after: np.ndarray, todo: np.ndarray, puzzle: Arrays) -> None:
    """Mark for probing every unknown cell of ``after`` in a row or column where ``after``
    differs from ``before``: there a probe's outcome most likely changed. A change can
    also reach a probe further off, through a chain of lines, so what probing leaves is
    not always its fixpoint: a second pass over Gettys' probed root fixes 5 more cells."""
    for cell in range(before.shape[0]):
        if before[cell] != after[cell]:
            _near(after, cell, todo, puzzle)


@njit(cache=True)
def _near(grid: np.ndarray, cell: int, todo: np.ndarray, puzzle: Arrays) -> None:
    """Mark for probing the unknown cells in ``cell``'s row and column."""
    height, width = puzzle[0], puzzle[1]
    row, column = cell // width, cell % width
    for c in range(width):
        if grid[row * width + c] == UNKNOWN:
            todo[row * width + c] = True
    for r in range(height):
        if grid[r * width + column] == UNKNOWN:
            todo[r * width + column] = True


@njit(cache=True)
def _spend(counters: np.ndarray, budget: int) -> bool:
    """Count one probe; True when the probe budget is spent or another thread asked the
    search to stop (a deadline's timer among them: see ``nonocp.logic.search``)."""
    counters[0] += 1
    return bool(counters[1]) or (budget >= 0 and counters[0] > budget)


@njit(cache=True)
def _probe(
    grid: np.ndarray,
    scores: np.ndarray,
    todo: np.ndarray,
    puzzle: Arrays,
    work: Work,
    trials: Trials,
    counters: np.ndarray,
    budget: int,
    overwritten: Overwritten,
) -> int:
    """Try both values of every cell marked ``todo`` until nothing more is fixed.

    A value that leads to a contradiction fixes the other; cells both values fix alike are
    fixed. ``scores`` keeps, per cell, how evenly and how much its two trials fixed (the
    LalaFrogKK rule, Wu et al., IEEE TCIAIG 5(3), 2013: ``min(a, b) + 1.85 ln(1 + |a - b|)``)
    for choosing where to branch; the scores it replaces are noted in ``overwritten``.
    EXHAUSTED when probing is done, CONTRADICTION, or STOPPED.
    """
    if_filled, if_empty, before = trials
    busy = True
    while busy:
        busy = False
        for cell in range(grid.shape[0]):
            if not todo[cell] or grid[cell] != UNKNOWN:
                continue
            todo[cell] = False
            if _spend(counters, budget):
                return STOPPED
            a = _assume(grid, if_filled, cell, int(FILLED), puzzle, work, counters)
            b = _assume(grid, if_empty, cell, int(EMPTY), puzzle, work, counters)
            if a == HALTED or b == HALTED:
                return STOPPED
            if a < 0 and b < 0:
                return CONTRADICTION
            if a < 0 or b < 0:
                kept = if_empty if a < 0 else if_filled
                _touch(grid, kept, todo, puzzle)
                grid[:] = kept
            else:
                _rescore(scores, cell, min(a, b) + 1.85 * np.log1p(abs(a - b)), overwritten)
                if not _agree(grid, if_filled, if_empty, before, puzzle, work):
                    continue
                fixed = _propagate(grid, puzzle, work, counters)
                if fixed < 0:
                    return STOPPED if fixed == HALTED else CONTRADICTION
                _touch(before, grid, todo, puzzle)
            busy = True
    return EXHAUSTED


Overwritten = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""The scores a probe replaced, each cell's first one only: the cells, their scores before,
which cells are among them, and how many are (one number, in an array)."""


@njit(cache=True)
def _overwritten(cells: int) -> Overwritten:
    return (
        np.empty(cells, np.int64),
        np.empty(cells, np.float32),
        np.zeros(cells, np.bool_),
        np.zeros(1, np.int64),
    )


@njit(cache=True)
def _rescore(scores: np.ndarray, cell: int, score: float, overwritten: Overwritten) -> None:
    cells, before, noted, count = overwritten
    if not noted[cell]:
        noted[cell] = True
        cells[count[0]] = cell
        before[count[0]] = scores[cell]
        count[0] += 1
    scores[cell] = score


@njit(cache=True)
def _noted(
    overwritten: Overwritten, undo: tuple[np.ndarray, np.ndarray], undone: int, keep: bool
) -> tuple[tuple[np.ndarray, np.ndarray], int]:
    """Move what a probe ``overwritten`` onto the ``undo`` trail of scores (the first
    ``undone`` of it held) if ``keep``, emptying it for the next probe; returns the trail,
    grown if need be, and its length."""
    cells, before, noted, count = overwritten
    trail_cells, trail_scores = undo
    if keep:
        trail_cells = _grown(trail_cells, undone + count[0])
        trail_scores = _grown(trail_scores, undone + count[0])
    for at in range(count[0]):
        noted[cells[at]] = False
        if keep:
            trail_cells[undone] = cells[at]
            trail_scores[undone] = before[at]
            undone += 1
    count[0] = 0
    return (trail_cells, trail_scores), undone


@njit(cache=True)
def _rescored(
    scores: np.ndarray, undo: tuple[np.ndarray, np.ndarray], undone: int, mark: int
) -> int:
    """Put back the scores the trail ``undo`` replaced since it was ``mark`` long, latest
    first; returns ``mark``."""
    cells, before = undo
    for at in range(undone - 1, mark - 1, -1):
        scores[cells[at]] = before[at]
    return mark


@njit(cache=True)
def _agree(
    grid: np.ndarray,
    one: np.ndarray,
    other: np.ndarray,
    before: np.ndarray,
    puzzle: Arrays,
    work: Work,
) -> bool:
    """Fix the unknown cells that ``one`` and ``other`` give the same value, marking their
    lines dirty; True when there were any, ``before`` then holding ``grid`` as it was.
    Most probes agree on nothing, so a first pass only looks: written without branches it
    compiles to vector instructions, 1 µs on 10,000 cells against 11 µs for the loop that
    fixes them."""
    if not _any_agree(grid, one, other):
        return False
    height, width = puzzle[0], puzzle[1]
    dirty = work[0]
    before[:] = grid
    for cell in range(grid.shape[0]):
        if _agrees(grid[cell], one[cell], other[cell]):
            grid[cell] = one[cell]
            dirty[cell // width] = True
            dirty[height + cell % width] = True
    return True


@njit(cache=True)
def _any_agree(grid: np.ndarray, one: np.ndarray, other: np.ndarray) -> bool:
    agree = False
    for cell in range(grid.shape[0]):
        agree |= _agrees(grid[cell], one[cell], other[cell])
    return agree


@njit(cache=True)
def _agrees(value: int, one: int, other: int) -> bool:
    """Whether an unknown cell takes the same value in both trials (no branches, so the
    loop in ``_any_agree`` stays vectorised)."""
    return (value == UNKNOWN) & (one != UNKNOWN) & (one == other)


NODE_ROUNDS = 5
"""Rounds of messages at each node of a search that refreshes its beliefs. One left a
random 100x100 puzzle's search thrashing deep in a subtree without a solution; on Faase
and random 100x100 seeds 1-5 (40 s each), 2 rounds found Faase's solutions in 14.7 s and
two of the five, 3 rounds in 10 s and three, 5 in 6.7 s and four, 10 in 15.5 s and four."""


@njit(cache=True)
def _judge(
    grid: np.ndarray,
    puzzle: Arrays,
    sent: Messages,
    rounds: int,
    likelier: np.ndarray,
    sureness: np.ndarray,
) -> None:
    """Per open cell, the value belief propagation finds likelier, and how sure it is
    (the distance of its chance from even); nothing is computed when no cell is open."""
    if not np.any(grid == UNKNOWN):
        return
    chances = refine(grid, puzzle, sent, rounds)
    for cell in range(grid.shape[0]):
        likelier[cell] = FILLED if chances[cell] > 0.5 else EMPTY
        sureness[cell] = abs(chances[cell] - 0.5)


RESTART_FAILS = 10
"""Failed children the dynamic search meets before it first starts over from its root,
and the unit of its later runs' patience (``_luby``). On random 100x100 puzzles a wrong
early decision shows only hundreds of levels below it, where backtracking one level at a
time never gets back to it: without restarts 7 of seeds 1-30 found nothing in 60 s, with
restarts after 10 failures (each later run then allowed 1.5 times as many, noise 0.3) 3
of them. After 5 failures (noise 0.1) it was 3 as well, the other four each found more
slowly. Luby's sequence later replaced growing by half (``benchmarks/CHOICES.md``)."""


@njit(cache=True)
def _luby(run: int) -> int:
    """The ``run``-th term (from 1) of Luby, Sinclair and Zuckerman's sequence 1, 1, 2, 1,
    1, 2, 4, 1, ...: the patience of each run, in units of the first one's.

    Its runs are mostly short, so a search whose runs either walk to a solution or
    thrash tries many of them, and some are as long as any tree needs, so the search stays
    exact. Of the 33 random 100x100 seeds (1-300) the race left unknown at 60 s while each
    run was allowed half as much again as the run before, it solved 13 with this sequence;
    of seeds 1-40 it lost one, 27 (``benchmarks/CHOICES.md``).
    """
    while True:
        power = 1  # the block of length 2^power - 1 that ``run`` falls in
        while (1 << power) - 1 < run:
            power += 1
        if run == (1 << power) - 1:
            return 1 << (power - 1)
        run -= (1 << (power - 1)) - 1  # inside the block, which starts the sequence over


RESTART_NOISE = 0.3
"""How far, at most, a restarted run scales each cell's sureness at random (by up to
``1 + noise``) to choose where to branch: without it every run would retrace the last.
The search seeds its generator, so a run is the same every time. Of the seven random
100x100 seeds (1-30) the search without restarts leaves at 60 s, noise 0.1 solved three
and 0.3 four."""

CONFLICT_STEP, CONFLICT_STEP_FLOOR, CONFLICT_STEP_DECREASE = 0.4, 0.06, 1e-6
"""How far a line's conflict score moves towards its reward when it fails: 0.4 of the
way at first and again after each restart, 1e-6 less at each failure down to 0.06, as
in Habet and Terrioux's conflict history search (CHS, Journal of Heuristics 2021)."""

CONFLICT_FADE = 0.995
"""What a line's conflict score keeps at a restart for each failure since it last
failed (CHS's smoothing): the knot a search fails in now outweighs the ones it left."""

RESTART_CELLS = 2000
"""The open cells at the root from which the dynamic search restarts (when ``search`` is
not told). Below, a node costs microseconds and clause learning, racing it (Glucose,
CP-SAT before it), covers the heavy tail: on the 24 slowest tournament puzzles restarts
after 10 failures took 18.5 s where the search without them took 6.7 s (leaving out the
three neither solves in 20 s)."""


@njit(cache=True)
def _patience(grid: np.ndarray, dynamic: bool, restarts: int) -> float:
    """The failures before a search's first restart: ``restarts`` when given (>= 0;
    0: never), otherwise ``RESTART_FAILS`` for a dynamic search of a large puzzle."""
    if restarts >= 0:
        return float(restarts)
    if dynamic and np.sum(grid == UNKNOWN) >= RESTART_CELLS:
        return float(RESTART_FAILS)
    return 0.0


REPAIR_OPEN = 0.1
"""The share of cells at most still open at a run's deepest node for the next run to
start there instead of at the root (``_repair``)."""

REPAIR_MARGIN = 5
"""How far around each open cell of that deepest grid a repair reopens the cells (when
``search`` is not told)."""


@njit(cache=True)
def _nearly_done(grid: np.ndarray) -> bool:
    return np.sum(grid == UNKNOWN) <= REPAIR_OPEN * grid.shape[0]


@njit(cache=True)
def _repair(
    start: tuple[np.ndarray, np.ndarray, np.ndarray],
    margin: int,
    puzzle: Arrays,
    work: Work,
    trials: Trials,
    counters: np.ndarray,
) -> int:
    """Of ``start``, the deepest grid of a run, a run's first grid and its cells' scores:
    the first grid becomes ``deepest`` with every cell within ``margin`` rows and columns
    of an open one reopened, then propagated and probed: CONTRADICTION, STOPPED,
    or EXHAUSTED when a run may search it.

    A run that fails with few cells left open has most of a solution: its contradiction
    lies in the knots where cells stayed open, caused by decisions around them. Random
    100x100 seed 37's first run failed with 449 cells open; searched to its end, that
    grid with the cells within 5 of them reopened held a solution (2.3 s), within 2 or 3
    none. Seed 23 (572 open): a solution within 5 (18 s), none within 3, and none found
    within 8 in 20 s. No run from the root solved either seed in 60 s.
    """
    deepest, first, scores = start
    height, width = puzzle[0], puzzle[1]
    near_open = _near_open(deepest.reshape(height, width), margin).ravel()
    first[:] = deepest
    first[near_open] = UNKNOWN
    return _settle(first, scores, puzzle, work, trials, counters, True)


@njit(cache=True)
def _settle(
    grid: np.ndarray,
    scores: np.ndarray,
    puzzle: Arrays,
    work: Work,
    trials: Trials,
    counters: np.ndarray,
    probe: bool,
) -> int:
    """Propagate every line of a run's first grid and, if ``probe``, probe every open
    cell, without a probe budget: CONTRADICTION, STOPPED, or EXHAUSTED when a run may
    search it."""
    work[0][:] = True
    fixed = _propagate(grid, puzzle, work, counters)
    if fixed < 0:
        return STOPPED if fixed == HALTED else CONTRADICTION
    if not probe:
        return EXHAUSTED
    todo = np.ones(grid.shape[0], np.bool_)
    overwritten = _overwritten(grid.shape[0])
    return _probe(grid, scores, todo, puzzle, work, trials, counters, int(NO_CAP), overwritten)


@njit(cache=True)
def _near_open(cells: np.ndarray, margin: int) -> np.ndarray:
    """Which cells lie within ``margin`` rows and columns of an open one: the open cells
    spread along their rows, then those along their columns."""
    height, width = cells.shape
    along_rows = np.zeros((height, width), np.bool_)
    for row in range(height):
        for column in range(width):
            if cells[row, column] == UNKNOWN:
                along_rows[row, max(column - margin, 0) : column + margin + 1] = True
    near = np.zeros((height, width), np.bool_)
    for row in range(height):
        for column in range(width):
            if along_rows[row, column]:
                near[max(row - margin, 0) : row + margin + 1, column] = True
    return near


@njit(cache=True)
def _first_open(cells: np.ndarray, direction: int) -> int:
    """How many lines from the edge a sweep in ``direction`` starts at (0 the top, 1 the
    bottom, 2 the left, 3 the right) the first line of ``cells`` (the grid as rows) with
    an open cell lies; -1 when every cell is known."""
    height, width = cells.shape
    across, along = (height, width) if direction < 2 else (width, height)
    for k in range(across):
        line = k if direction % 2 == 0 else across - 1 - k
        for at in range(along):
            value = cells[line, at] if direction < 2 else cells[at, line]
            if value == UNKNOWN:
                return k
    return -1


@njit(cache=True)
def _band(cells: np.ndarray, sweep: tuple[int, int]) -> tuple[int, int, int, int]:
    """The rows and the columns (the first of each, and the one past the last) a sweep
    branches in: ``sweep`` is its direction (-1: anywhere, the whole grid) and its depth,
    in lines from its first line with an open cell."""
    height, width = cells.shape
    direction, lines = sweep
    if direction < 0:
        return 0, height, 0, width
    first = _first_open(cells, direction)
    if first < 0:
        return 0, 0, 0, 0
    end = first + lines
    if direction == 0:
        return first, min(end, height), 0, width
    if direction == 1:
        return max(height - end, 0), height - first, 0, width
    if direction == 2:
        return 0, height, first, min(end, width)
    return 0, height, max(width - end, 0), width - first


@njit(cache=True)
def _branch_cell(
    grid: np.ndarray,
    scores: np.ndarray,
    noise: float,
    sweep: tuple[int, int],
    puzzle: Arrays,
    conflicts: np.ndarray,
) -> int:
    """The unknown cell scoring highest, each score first scaled by a random factor
    between 1 and ``1 + noise``, then by one plus the ``conflicts`` scores of its row and
    column over the highest any line has (``_dive``), within the band of ``sweep`` (its
    direction and depth in lines; direction -1: anywhere); -1 when the grid is complete.

    Only the band's cells are visited, row by row, with no division by the width: a
    sparse picture's search goes a level deeper for nearly every cell, and on random
    150x150 seed 1 at density 0.1 the search without probing then took 4.1 s to a
    solution against 4.7 s visiting every cell, on the same path."""
    height, width = puzzle[0], puzzle[1]
    top, bottom, left, right = _band(grid.reshape(height, width), sweep)
    most = 1e-9 + np.max(conflicts)
    best, best_score = -1, -1.0
    for row in range(top, bottom):
        for column in range(left, right):
            cell = row * width + column
            if grid[cell] != UNKNOWN:
                continue
            score = scores[cell] * (1.0 + noise * np.random.random()) if noise > 0 else scores[cell]
            score *= 1.0 + (conflicts[row] + conflicts[height + column]) / most
            if score > best_score:
                best, best_score = cell, score
    return best


History = tuple[np.ndarray, np.ndarray, np.ndarray]
"""The lines' conflict history (CHS, see ``_dive``): each line's score, the failure at
which it last failed, and the search's failures so far with its current step (``_history``)."""


@njit(cache=True)
def _history(lines: int) -> History:
    return np.zeros(lines), np.zeros(lines), np.array([0.0, CONFLICT_STEP])


@njit(cache=True)
def _conflict(history: History, line: int) -> None:
    """Line ``line`` was found contradictory, the search's next failure: its score moves
    the step of the way towards one over the failures since it last failed, plus one
    (CHS), so a line failing often and lately scores highest; the step shrinks."""
    conflicts, last, clock = history
    clock[0] += 1.0
    failure, step = clock[0], clock[1]
    conflicts[line] += step * (1.0 / (failure - last[line] + 1.0) - conflicts[line])
    last[line] = failure
    clock[1] = max(CONFLICT_STEP_FLOOR, step - CONFLICT_STEP_DECREASE)


@njit(cache=True)
def _faded(history: History) -> None:
    """At a restart, each line's conflict score fades by how long ago it last failed, and
    the step is whole again."""
    conflicts, last, clock = history
    for line in range(conflicts.shape[0]):
        conflicts[line] *= CONFLICT_FADE ** (clock[0] - last[line])
    clock[1] = CONFLICT_STEP


Levels = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Per level of a run (``_dive``): the trail's length as the level was left downwards, the
score trail's length as its probe began, the cell it branches on, how many of its values
were tried, and the value tried first."""


@njit(cache=True)
def _levels(start: np.ndarray) -> Levels:
    """Room for every level of a run from the grid ``start``: each level below it fixes a
    cell. A repair's grid may hold more open cells than the root, if it reopened cells the
    root had fixed that its probing does not fix again."""
    levels = np.sum(start == UNKNOWN) + 1
    return (
        np.empty(levels, np.int64),
        np.empty(levels, np.int64),
        np.empty(levels, np.int64),
        np.zeros(levels, np.int8),
        np.zeros(levels, np.int8),
    )


@njit(cache=True)
def _grown(stack: np.ndarray, at: int) -> np.ndarray:
    """``stack`` with room at index ``at``, doubled when full."""
    if at < stack.shape[0]:
        return stack
    bigger = np.empty((2 * stack.shape[0], *stack.shape[1:]), stack.dtype)
    bigger[: stack.shape[0]] = stack
    return bigger


@njit(cache=True, nogil=True)
def search(
    grid: np.ndarray,
    puzzle: Arrays,
    work: Work,
    solutions: Kept,
    limit: int,
    budget: int,
    counters: np.ndarray,
    dynamic: bool,
    restarts: int,
    margin: int,
    probing: bool,
    sweep: int,
    probed: bool,
) -> tuple[int, int]:
    """Depth-first search from ``grid`` for up to ``limit`` solutions (``NO_CAP``: all of them),
    each checked against its clues (``_satisfies``) and kept in ``solutions``.

    The root is propagated and probed in place (only propagated where it was ``probed``
    already): ``grid`` ends holding what was proven for every solution, whatever the
    outcome. ``budget`` caps the probes below the root (``NO_CAP``: no cap; 0: the root only).
    ``counters[0]`` counts the probes spent; another thread stops the search by setting
    ``counters[1]``, a deadline's timer among them.
    The search runs without the GIL and never takes it: reading the clock from compiled
    code does, and while another thread held it (Glucose's formula being built in Python)
    a search that read the clock every 64 probes waited for it each time, random 60x60
    seed 16 taking 0.41 s against 0.12 s to its solution. ``dynamic`` chooses the search's
    order (see ``_dive``), ``restarts`` the failures before its first restart (-1: see
    ``_patience``), ``margin`` how far a repair reopens (``_repair``), ``probing``
    whether the nodes below the root are probed and ``sweep`` how many lines deep a
    sweeping search branches (0: anywhere; see ``_dive``). Returns the solutions found,
    and EXHAUSTED, STOPPED or BROKEN.
    """
    cells = grid.shape[0]
    scores = np.zeros(cells, np.float32)
    trials = (np.empty(cells, np.int8), np.empty(cells, np.int8), np.empty(cells, np.int8))
    if counters[1]:
        return 0, STOPPED
    ended = _settle(grid, scores, puzzle, work, trials, counters, not probed)
    if ended != EXHAUSTED:
        return 0, EXHAUSTED if ended == CONTRADICTION else STOPPED
    if budget == 0 and np.any(grid == UNKNOWN):
        return 0, STOPPED  # the root only: a dive would hear the lines, then stop at once
    if budget >= 0:
        budget += counters[0]
    root = (grid, scores)
    order = (dynamic, _patience(grid, dynamic, restarts), margin, probing, sweep)
    return _dive(root, puzzle, work, trials, counters, solutions, limit, budget, order)


@njit(cache=True)
def _dive(
    root: tuple[np.ndarray, np.ndarray],
    puzzle: Arrays,
    work: Work,
    trials: Trials,
    counters: np.ndarray,
    solutions: Kept,
    limit: int,
    budget: int,
    order: tuple[bool, float, int, bool, int],
) -> tuple[int, int]:
    """One depth-first search below the settled ``root`` (its grid and the cells' scores);
    the solutions found, and EXHAUSTED, STOPPED or BROKEN (see ``search``).

    Every node is probed (the cells in the branching cell's row and column: a decision's
    consequences are densest there; without ``probing``, line logic alone follows a
    decision) and split on one cell, trying first the value belief propagation finds
    likelier. The static search splits on the best-scoring cell, with the beliefs of the
    root: on the tournament puzzles that order finds a first solution with several times
    fewer probes than trying first the value whose probe fixed fewer cells, this search's
    order before it. The ``dynamic`` search refreshes the beliefs at every node
    (``NODE_ROUNDS``) and splits on the cell they are surest of: slower per node, but on
    large puzzles with loose lines (Faase, random 100x100) it often walks to a solution
    without backtracking where the static order thrashes, and it takes most hard tournament
    puzzles several times faster. The static order still wins on some (tcga2016 #382, random
    30x30 seed 91), which is why the budgeted search keeps it.

    A dynamic node reached on the likelier value, where that value fixed no cell but its
    own, keeps the beliefs its cell was chosen by (``quiet``): one cell going the way
    they expected hardly moves them. On a sparse picture nearly every node is such a node
    (20,133 of 21,066 on random 150x150 seed 1 at density 0.1), and the search without
    probing took 14.1 s to a solution refreshing them at each against 4.7 s. On random
    100x100 puzzles at density 0.5 (first mode, 30 s each, untuned seeds 2521-2620) the
    race then solved 95 against 93, a median puzzle in 0.89 of the time.

    The path from the root is one grid and the trail of the cells fixed below the root,
    reopened on the way back up (``_down``, ``_up``); the probes' scores are one array
    too, and the static order, which reads them, keeps the scores each probe replaced on
    a trail of their own, put back on the way up (``_noted``, ``_rescored``). With a grid
    and scores per level, a sparse picture's search, a level deeper for nearly every
    cell, had taken 3.5 GB on random 150x150 puzzles at density 0.1 and 11 GB at 200x200;
    with scores per level, counting one of those 150x150 puzzles had taken 518 MB after
    30 s and was growing (178 MB now).

    ``order`` is ``dynamic``, the failures before the first restart (0: none), how far a
    repair reopens (see below), ``probing`` and ``sweep``. Until it finds a solution, a
    search that meets that many failures starts over from the root, with the patience
    ``_luby`` gives the next run and some noise in where it branches (``RESTART_FAILS``);
    it keeps its beliefs. Once it has a solution it runs on to the end, so it never finds
    one twice.

    A search that ``sweep``s branches only within that many lines of the first line with
    an open cell, from the top in its first run, then from the bottom, the left and the
    right in turn. Branching anywhere, the surest cells lie along the four edges of a
    random picture, so the search closes in on its middle from every side, and the last
    open region must fit all four at once: on random 100x100 seed 22 every run stalls
    with about 3,000 cells open there. A sweep leaves one side open, and each run meets
    the puzzle from another side. Alone (60 s each), the search without probing solved
    35 of random 100x100 seeds 1-40 sweeping 10 lines deep against 34 branching anywhere
    (seeds 4 and 27 gained, 9 lost), median 1.99 s against 2.02 s (ad-hoc script);
    neither solved seed 22.

    Without probing, a decision that line logic refutes counts against the line found
    contradictory, and the search prefers the cells of the lines that failed most often
    and most lately (``_branch_cell``), in every later run too: conflict-directed
    weighting, on top of the beliefs. A stalled random picture fails again and again in
    the same knot of lines, which a run otherwise reaches last, when the cells around it
    leave no room; weighted, the next runs decide the knot early. Counting each line's
    failures (Boussemart et al.'s dom/wdeg, ECAI 2004), the search alone (60 s each)
    solved 10 of 28 random 100x100 seeds the race had left unknown at 60 s against 3
    unweighted, and the same 27 of seeds 1-30, 132.6 s against 170.2 s in all. Scoring
    them by their conflict history instead (``_conflict``, ``_faded``: Habet and
    Terrioux's CHS), the race solved 185 of 200 untuned seeds (1321-1520) against 182,
    losing none, in 658 s against 762 s over the 182 both solve. The probing search keeps
    its order: weighted by the lines its decisions and its probes found contradictory, it
    solved 1 of 26 such seeds (30 s each) against none unweighted.

    Looking for one solution (``limit`` 1), a search whose run from the root failed with
    few cells open (``REPAIR_OPEN``) runs next from that run's deepest grid, reopened
    around its open cells (``_repair``), with messages of its own and without noise, to
    its end or until it has spent as many probes as the run before it; then the runs from
    the root go on. Capped at the restart patience instead, a repair rarely got through
    its part: on random 100x100 seed 23 none succeeded in 60 s.
    """
    grid, scores = root
    dynamic, patience, margin, probing, sweep = order
    cells = grid.shape[0]
    sent = messages(grid, puzzle)
    beliefs = sent  # the messages a run refreshes: a repair's are its own
    likelier = np.full(cells, EMPTY, np.int8)
    sureness = np.zeros(cells, np.float32)
    _judge(grid, puzzle, sent, int(ROUNDS), likelier, sureness)
    history = _history(puzzle[0] + puzzle[1])
    todo = np.zeros(cells, np.bool_)
    marks, rescoring, chosen, tried, first = _levels(grid)
    current, child = grid.copy(), np.empty_like(grid)
    trail = np.empty(cells, np.int64)  # the cells fixed below the root, in order
    kept = 0  # how much of the trail holds
    path = (current, trail, marks)
    overwritten = _overwritten(cells)
    undo = (np.empty(cells, np.int64), np.empty(cells, np.float32))  # scores replaced below
    undone = 0  # how much of ``undo`` holds
    found, depth, fresh = 0, 0, True
    fails, noise, runs, unit = 0, 0.0, 0, patience
    np.random.seed(0)
    may_repair = limit == 1 and patience > 0
    deepest, reached = grid.copy(), -1
    repairing, began, ends = False, counters[0], counters[0]
    while True:
        over = counters[0] > ends if repairing else 0 < patience <= fails
        if depth < 0:
            if not repairing:
                break
            over = True  # no solution near the last run's deepest grid
        if over and found == 0:
            runs += 1
            depth, kept, fails, fresh = 0, 0, 0, True
            patience = unit * _luby(runs + 1)
            undone = _rescored(scores, undo, undone, 0)
            _faded(history)
            beliefs, noise = sent, RESTART_NOISE
            repairing = may_repair and not repairing and _nearly_done(deepest)
            if repairing:
                ended = _repair((deepest, current, scores), margin, puzzle, work, trials, counters)
                if ended == STOPPED:
                    return found, STOPPED
                repairing = ended == EXHAUSTED
            if repairing:
                if np.sum(current == UNKNOWN) >= chosen.shape[0]:  # it reopened a root cell
                    marks, rescoring, chosen, tried, first = _levels(current)
                    path = (current, trail, marks)
                ends = 2 * counters[0] - began  # as many probes as the run before
                beliefs, noise = messages(current, puzzle), 0.0
                _judge(current, puzzle, beliefs, int(ROUNDS), likelier, sureness)
            else:
                current[:] = grid
            began, reached = counters[0], -1
        if fresh:
            fresh = False
            if may_repair and depth > reached:
                reached = depth
                deepest[:] = current
            quiet = depth > 0 and tried[depth - 1] == 1 and kept - marks[depth - 1] == 1
            if dynamic and not quiet:
                _judge(current, puzzle, beliefs, int(NODE_ROUNDS), likelier, sureness)
            band = (runs % 4 if sweep > 0 else -1, sweep)
            cell = _branch_cell(
                current, sureness if dynamic else scores, noise, band, puzzle, history[0]
            )
            if cell < 0:
                if not _satisfies(current, puzzle):
                    return found, BROKEN
                _keep(current, solutions, found)
                found += 1
                if found == limit and (depth > 0 or repairing):
                    return found, STOPPED
                depth, kept, undone = _up(path, depth, kept, scores, undo, undone, rescoring)
                continue
            chosen[depth] = cell
            tried[depth] = 0
        if tried[depth] == 2:
            depth, kept, undone = _up(path, depth, kept, scores, undo, undone, rescoring)
            continue
        tried[depth] += 1
        if tried[depth] == 1:
            first[depth] = likelier[chosen[depth]]  # the second try must be the other value
        value = first[depth] if tried[depth] == 1 else FILLED + EMPTY - first[depth]
        failed = _assume(current, child, chosen[depth], value, puzzle, work, counters)
        if failed == HALTED:
            return found, STOPPED
        if failed < 0:
            fails += 1
            if not probing:
                _conflict(history, -1 - failed)
            continue
        rescoring[depth] = undone
        if probing:
            todo[:] = False
            _near(child, chosen[depth], todo, puzzle)
            ended = _probe(child, scores, todo, puzzle, work, trials, counters, budget, overwritten)
            undo, undone = _noted(overwritten, undo, undone, not dynamic)  # dynamic: no use
        else:  # a node counts as one probe
            ended = STOPPED if _spend(counters, budget) else EXHAUSTED
        if ended == STOPPED:
            return found, STOPPED
        if ended == EXHAUSTED:
            marks[depth] = kept
            kept = _down(current, child, trail, kept)
            depth += 1
            fresh = True
        else:
            fails += 1
            undone = _rescored(scores, undo, undone, rescoring[depth])
    return found, EXHAUSTED


@njit(cache=True)
def _satisfies(grid: np.ndarray, puzzle: Arrays) -> bool:
    """Whether every line's runs in the complete ``grid``, counted afresh, are its clue.
    It shares nothing with the line solvers that found the grid, so a count of grids
    that never reach Python is checked as independently as a printed solution is."""
    height, width, clues, starts = puzzle
    for line in range(height + width):
        n = width if line < height else height
        block, run = starts[line], 0
        for position in range(n + 1):
            if position < n and grid[_cell(height, width, line, position)] == FILLED:
                run += 1
            elif run > 0:
                if block == starts[line + 1] or clues[block] != run:
                    return False
                block, run = block + 1, 0
        if block != starts[line + 1]:
            return False
    return True


@njit(cache=True)
def _keep(grid: np.ndarray, kept: Kept, found: int) -> None:
    """Keep the ``found``-th solution (from 0): its grid while there is room, and the
    cells in which it differs from the first."""
    solutions, differing = kept
    if found < solutions.shape[0]:
        solutions[found] = grid
    if found > 0:
        for cell in range(grid.shape[0]):
            differing[cell] |= grid[cell] != solutions[0, cell]


@njit(cache=True)
def _down(current: np.ndarray, child: np.ndarray, trail: np.ndarray, kept: int) -> int:
    """``current`` becomes ``child``, a node below it: the cells ``child`` fixed go on the
    trail (the first ``kept`` of it held); returns how much of it holds then."""
    for cell in range(current.shape[0]):
        if current[cell] != child[cell]:
            current[cell] = child[cell]
            trail[kept] = cell
            kept += 1
    return kept


@njit(cache=True)
def _up(
    path: tuple[np.ndarray, np.ndarray, np.ndarray],
    depth: int,
    kept: int,
    scores: np.ndarray,
    undo: tuple[np.ndarray, np.ndarray],
    undone: int,
    rescoring: np.ndarray,
) -> tuple[int, int, int]:
    """Back from level ``depth`` to its parent: the cells fixed on the way down reopen
    and the scores its probe replaced are put back (``_rescored``, from the mark each
    level's probe left in ``rescoring``). ``path`` is the grid, the trail (``kept`` of it
    held) and the trail's length as each level was left. Returns the parent's depth and
    the lengths of the two trails (at the root, -1 and the trails as they are)."""
    if depth == 0:
        return -1, kept, undone
    current, trail, marks = path
    for at in range(marks[depth - 1], kept):
        current[trail[at]] = UNKNOWN
    parent = depth - 1
    return parent, marks[parent], _rescored(scores, undo, undone, rescoring[parent])
