"""Random puzzles from random pictures, reproducible from a seed.

Puzzle ``i`` of a request uses seed ``seed + i``, so a benchmark spec such as
``random:30x30:0.5:seeds=1-200`` names the same puzzles on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from nonocp.puzzle import Puzzle


def random_puzzle(width: int, height: int, density: float, seed: int) -> Puzzle:
    """The puzzle of a random picture whose cells are filled with probability ``density``."""
    rng = random.Random(seed)
    grid = [[int(rng.random() < density) for _ in range(width)] for _ in range(height)]
    title = f"random {width}x{height} density {density:g} seed {seed}"
    return Puzzle.from_grid(grid, title=title)


def random_puzzles(
    width: int, height: int, density: float, seed: int, count: int, unique: bool = False
) -> Iterator[Puzzle]:
    """``count`` puzzles from successive seeds; with ``unique``, only those with one solution.

    Uniqueness is decided by the engine without a time limit, so a kept puzzle is proven
    unique.
    """
    kept = 0
    current = seed
    while kept < count:
        puzzle = random_puzzle(width, height, density, current)
        current += 1
        if unique and not _is_unique(puzzle):
            continue
        kept += 1
        yield puzzle


def _is_unique(puzzle: Puzzle) -> bool:
    from nonocp.engine import Uniqueness, solve

    return solve(puzzle).uniqueness is Uniqueness.UNIQUE


def parse_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` (or one number for a square) as ``(width, height)``."""
    width, _, height = text.lower().partition("x")
    if not width.isdigit() or not (height or width).isdigit():
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT")
    size = (int(width), int(height or width))
    if min(size) < 1:
        raise ValueError(f"size {text!r} must be at least 1x1")
    return size
