"""Random puzzles from random pictures, reproducible from a seed.

Puzzle ``i`` of a request uses seed ``seed + i``, so a benchmark spec such as
``random:30x30:0.5:seeds=1-200`` names the same puzzles on every machine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from nonocp.answers import Uniqueness
from nonocp.puzzle import MOST_CELLS, Puzzle, too_large


def random_puzzle(width: int, height: int, density: float, seed: int) -> Puzzle:
    """The puzzle of a random picture whose cells are filled with probability ``density``."""
    rng = random.Random(seed)
    grid = [[int(rng.random() < density) for _ in range(width)] for _ in range(height)]
    title = f"random {width}x{height} density {density:g} seed {seed}"
    return Puzzle.from_grid(grid, title=title)


def random_puzzles(width: int, height: int, density: float, seed: int) -> Iterator[Puzzle]:
    """The puzzles of successive seeds, without end: the caller takes as many as it needs."""
    for current in itertools.count(seed):
        yield random_puzzle(width, height, density, current)


def uniqueness(puzzle: Puzzle, time_limit: float | None) -> Uniqueness:
    """Whether the puzzle has one solution, as the engine proves it: ``UNKNOWN`` when the
    time limit came first, which a generator asked for unique puzzles must not keep."""
    from nonocp.engine import solve  # the engine's imports, only when uniqueness is asked

    return solve(puzzle, time_limit=time_limit).uniqueness


def parse_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` (or one number for a square) as ``(width, height)``."""
    width, _, height = text.lower().partition("x")
    parts = (width, height or width)
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT")
    digits = max(len(part.lstrip("0")) for part in parts)
    if digits > len(str(MOST_CELLS)):  # too many for int() to convert, perhaps
        raise ValueError(
            f"a side of {digits} digits is more than the {MOST_CELLS:,} cells nonocp solves"
        )
    size = (int(width), int(height or width))
    if min(size) < 1:
        raise ValueError(f"size {text!r} must be at least 1x1")
    why = too_large(*size)
    if why:
        raise ValueError(why)
    return size
