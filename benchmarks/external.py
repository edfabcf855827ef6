"""Another solver, run as a program: what ``run.py --versus`` times beside nonocp.

A solver built from its own source is a command line with ``{file}`` where the puzzle
goes (written as a ``.nin`` file, the format most solvers read) and ``{limit}`` where its
time limit goes, for example ``'nonosolve -n 1 --timeout {limit} {file}'``. Each puzzle is
one process, timed whole (wall seconds, start-up included; its peak memory as GNU time
reports it). Solvers print their grids in many ways, so none is taken on trust: a
puzzle counts as solved only when the output holds a grid that satisfies the clues.

In validate mode the verdict is the program's word: ``unique`` or ``multiple`` printed
beside a grid that satisfies the clues (nonosolve prints one grid and says which, as most
solvers do). A word is a claim, not a proof, so ``run.py`` sets it beside nonocp's proven
verdict and names every puzzle where the two differ.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from nonocp.puzzle import Grid, Puzzle, satisfies

FILLED_MARKS = "#X1*█"
EMPTY_MARKS = ".0-_·"
"""How solvers draw a filled and an empty cell; white space between cells is ignored."""
MARKS = frozenset(FILLED_MARKS + EMPTY_MARKS)


def program_of(command: str) -> str:
    """The program a ``--versus`` command runs: its first word."""
    words = shlex.split(command)
    if not words:
        raise ValueError("an empty command")
    return words[0]


def label_of(command: str) -> str:
    """The name a ``--versus`` command's solver goes by in tables: its program's file name."""
    return Path(program_of(command)).name


def command_line(command: str, file: Path, time_limit: float) -> list[str]:
    """``command``'s words with the puzzle file and the time limit filled in."""
    return [word.format(file=file, limit=f"{time_limit:g}") for word in shlex.split(command)]


CLAIM = re.compile(
    r"(?<![\w-])(not[\s_-]+unique|isn'?t\s+unique|non-?unique|unique|multiple)\b", re.IGNORECASE
)
"""How a solver says whether its puzzle has one solution: the first of these words ("not
unique" is a claim of several)."""


def verdict_of(output: str, puzzle: Puzzle, mode: str) -> str:
    """wrong grid (one that breaks the clues), unknown (no grid); else, in first mode,
    solved, and in validate mode the program's claim, unique or multiple (unknown without
    one)."""
    grid = grid_in(output, puzzle)
    if grid is None:
        return "unknown"
    if not satisfies(puzzle, grid):
        return "wrong grid"
    if mode == "first":
        return "solved"
    claim = CLAIM.search(output)
    if claim is None:
        return "unknown"
    return "unique" if claim[1].lower() == "unique" else "multiple"


GNU_TIME = Path("/usr/bin/time")
"""GNU time, which reports the peak memory of the program it runs. Python cannot measure
it itself: a child forked from Python starts as a copy of it, and the kernel's peak
memory for the child counts that copy (over 200 MiB here) until the program is exec'd."""


def run_timed(argv: list[str], bound: float) -> tuple[str, float, float | None, bool]:
    """Run ``argv`` to its end or until ``bound`` seconds have passed: its standard
    output, wall seconds, peak memory in MiB (None without ``GNU_TIME``), and whether it
    had to be killed."""
    with tempfile.TemporaryFile("w+") as out, tempfile.NamedTemporaryFile("r") as peak:
        measured = [str(GNU_TIME), "-q", "-f", "%M", "-o", peak.name] if GNU_TIME.exists() else []
        started = time.perf_counter()
        process = subprocess.Popen(
            [*measured, *argv], stdout=out, stderr=subprocess.DEVNULL, start_new_session=True
        )
        killed = False
        try:
            process.wait(bound)
        except subprocess.TimeoutExpired:
            killed = True
        finally:  # past the bound, or Ctrl-C: its own session does not hear the terminal's
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)  # the program, not only GNU time
                process.wait()
        seconds = time.perf_counter() - started
        out.seek(0)
        kilobytes = peak.read().strip()
        return out.read(), seconds, int(kilobytes) / 1024 if kilobytes.isdigit() else None, killed


def grid_in(text: str, puzzle: Puzzle) -> Grid | None:
    """The first ``puzzle.height`` lines in a row of ``text`` that each draw one row of
    ``puzzle.width`` cells, as a grid; None when the text has none."""
    rows: list[tuple[int, ...]] = []
    for line in text.splitlines():
        row = cells_of(line, puzzle.width)
        if row is None:
            rows.clear()
            continue
        rows.append(row)
        if len(rows) == puzzle.height:
            return tuple(rows)
    return None


def cells_of(line: str, width: int) -> tuple[int, ...] | None:
    marks = "".join(line.split())
    if len(marks) != width or not MARKS.issuperset(marks):
        return None
    return tuple(int(m in FILLED_MARKS) for m in marks)
