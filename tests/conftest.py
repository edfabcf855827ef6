from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from nonocp.answers import Ending, Enumerating
from nonocp.formats import non
from nonocp.puzzle import Grid, Puzzle

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
SHARED = REPO.parent / "shared"

HEART = """\
.##...##.
####.####
#..###..#
##..#..##
.#.....#.
.##...##.
..##.##..
...###...
....#....""".splitlines()
"""The heart from the Gecode/R examples, as `--plain` draws it."""


def nonocp_command() -> list[str]:
    """The installed console script: tests run the real entry point, as users do."""
    script = shutil.which("nonocp") or str(Path(sys.executable).with_name("nonocp"))
    return [script]


def run_cli(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    """nonocp run with ``args``; ``options`` as ``subprocess.run`` takes them (``input``,
    ``stdin``, ``cwd``)."""
    return subprocess.run(
        [*nonocp_command(), *args], capture_output=True, text=True, timeout=300, **options
    )


Picture = tuple[tuple[int, ...], ...]
"""A random picture's cells, 1 for filled."""


@st.composite
def random_grids(draw: st.DrawFn, max_side: int = 5) -> Picture:
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    cells = draw(st.lists(st.integers(0, 1), min_size=width * height, max_size=width * height))
    return tuple(tuple(cells[r * width : (r + 1) * width]) for r in range(height))


def puzzle_of(grid: Sequence[Sequence[int]]) -> Puzzle:
    """The puzzle a random picture defines, without keeping the picture as its solution."""
    solved = Puzzle.from_grid(grid)
    return Puzzle(rows=solved.rows, columns=solved.columns)


def drained(enumeration: Enumerating) -> tuple[list[Grid], Ending]:
    """The grids an enumeration yields, and how it ended."""
    grids = []
    while True:
        try:
            grids.append(next(enumeration))
        except StopIteration as ended:
            return grids, ended.value


def pack_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a ``.nonpack``'s text, every one of which must read."""
    readings = non.read(text, "<pack>")
    puzzles = [reading for reading in readings if isinstance(reading, Puzzle)]
    assert len(puzzles) == len(readings), readings
    return puzzles


@st.composite
def mixed_puzzles(draw: st.DrawFn) -> Puzzle:
    """The rows of one random picture with the columns of the same cells shuffled: the
    totals agree, so the clues pass the checks made before solving, yet there is often no
    solution at all, sometimes several."""
    one = draw(random_grids(max_side=6))
    width = len(one[0])
    cells = draw(st.permutations([cell for row in one for cell in row]))
    other = tuple(tuple(cells[at : at + width]) for at in range(0, len(cells), width))
    return Puzzle(rows=puzzle_of(one).rows, columns=puzzle_of(other).columns)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The compiled search, compiled before any test runs nonocp in a process of its own.
    The first process to need it after installing compiles it (about a minute and a half)
    and says so on standard error, where tests of a process's output would meet it or not
    depending on which tests ran before them (a Ctrl-C test run first failed on that line).
    This hook runs before pytest-xdist starts its workers, so they load numba's cache
    instead of each compiling it."""
    from nonocp.logic.search import load

    load()


@pytest.fixture
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
