"""``nonocp analyze`` through the installed command, on the Gecode/R puzzles.

Expected ratings are not taken from nonocp's logic: LINE means the plain propagation in
``naive_logic`` completes the grid, PROBE means it does not but analyze's grid is complete,
and either way the grid must be the unique solution CP-SAT finds without any logic.
"""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import naive_logic as naive
import pytest

from nonocp import load
from nonocp.answers import Uniqueness
from nonocp.engine import solve
from nonocp.logic import deduce

from conftest import PUZZLES, run_cli

RATINGS = {
    "bear": "line",
    "castle": "line",
    "crocodile": "line",
    "dragonfly": "line",
    "heart": "line",
    "house": "line",
    "simple": "line",
    "p200": "probe",
    "pinwheel": "probe",
    "soccer_player": "probe",
    "unknown": "probe",
    "difficult": "search",
    "nonunique": "search",
}


@pytest.fixture(scope="module")
def analyses() -> dict[str, dict]:
    """``nonocp analyze --json --steps`` on every puzzle, run a few at a time."""

    def analyze(name: str) -> dict:
        run = run_cli("analyze", str(PUZZLES / f"{name}.txt"), "--json", "--steps")
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    with ThreadPoolExecutor(4) as pool:
        return dict(zip(RATINGS, pool.map(analyze, RATINGS), strict=True))


@cache
def line_logic_completes(name: str) -> bool:
    puzzle = load(PUZZLES / f"{name}.txt")
    if name == "castle":  # 60x35: the plain sweep takes seconds; use nonocp's propagation
        return deduce(puzzle, probing=0).grid is not None
    grid = naive.propagate(puzzle, naive.blank(puzzle))
    return grid is not None and all(v is not None for row in grid for v in row)


def test_every_gecode_puzzle_is_rated() -> None:
    assert {p.stem for p in PUZZLES.glob("*.txt")} == set(RATINGS)


@pytest.mark.parametrize("name", sorted(RATINGS))
def test_rating_agrees_with_independent_facts(name: str, analyses: dict[str, dict]) -> None:
    analysis = analyses[name]
    plain = solve(load(PUZZLES / f"{name}.txt"), logic=False)
    unique = plain.uniqueness is Uniqueness.UNIQUE
    solution = ["".join("#" if v else "." for v in row) for row in plain.grid or ()]
    logic_complete = analysis["cells"]["search"] == 0
    if line_logic_completes(name):
        expected = "line"
    elif logic_complete:
        expected = "probe"
    else:
        expected = "search"
    assert analysis["rating"] == expected == RATINGS[name]
    assert analysis["uniqueness"] == plain.uniqueness.value
    if logic_complete:
        assert unique and analysis["logic_grid"] == solution == analysis["grid"]
    cells = analysis["cells"]
    assert cells["line"] + cells["probe"] + cells["search"] == cells["total"]
    assert (cells["probe"] == 0) == (expected == "line") or expected == "search"


def test_nonunique_puzzle_leaves_its_ambiguous_cells_open(analyses: dict[str, dict]) -> None:
    analysis = analyses["nonunique"]
    first, second = analysis["grid"], analysis["other"]
    assert analysis["uniqueness"] == "multiple" and first != second
    for logic_row, a, b in zip(analysis["logic_grid"], first, second, strict=True):
        for known, x, y in zip(logic_row, a, b, strict=True):
            assert known == "?" if x != y else known in ("?", x)


def test_stalled_grid_is_drawn_with_unknown_cells() -> None:
    run = run_cli("analyze", str(PUZZLES / "difficult.txt"), "--plain")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    picture = lines[:15]
    assert all(len(row) == 15 and set(row) <= set("#.?") for row in picture)
    assert sum(row.count("?") for row in picture) == 213
    assert "rating: search (logic stalls; search needed)" in lines
    assert "cells: 0 by line logic, 12 by probing, 213 left for search (of 225)" in lines
    assert lines[-1].startswith(f"{PUZZLES / 'difficult.txt'} 15x15: unique (")


def test_steps_list_lines_in_solving_order() -> None:
    run = run_cli("analyze", str(PUZZLES / "heart.txt"), "--plain", "--steps")
    assert run.returncode == 0
    steps = [line for line in run.stdout.splitlines() if line[:1].isdigit()]
    # Row 2's clue 4 4 fills 9 of its 9 cells with one gap: the only line settled at once.
    assert steps[0] == "1. row 2: filled 1-4, 6-9; empty 5"
    assert len(steps) == len(deduce(load(PUZZLES / "heart.txt")).steps)


def test_steps_end_where_line_logic_stalls_before_probing_goes_on() -> None:
    """A designer needs the grid where a solver working line by line gets stuck."""
    run = run_cli("analyze", str(PUZZLES / "soccer_player.txt"), "--plain", "--steps")
    lines = run.stdout.splitlines()
    at = lines.index("line logic stalls here (43 of 400 cells known):")
    stalled = lines[at + 1 : at + 21]  # 20 rows
    assert sum(len(row) - row.count("?") for row in stalled) == 43
    assert lines[at + 21] == "after probing:"
    assert "rating: probe (probing needed)" in lines
    steps = [line for line in lines[:at] if line[:1].isdigit()]
    fixed = sum(
        len(step.filled) + len(step.empty)
        for step in deduce(load(PUZZLES / "soccer_player.txt")).steps
    )
    assert len(steps) == 12 and fixed == 43  # the steps reach exactly that grid


def test_a_puzzle_not_unique_is_said_to_be_why_logic_stalls() -> None:
    run = run_cli("analyze", str(PUZZLES / "nonunique.txt"), "--plain")
    said = "rating: search (logic stalls: the puzzle is not unique, and no logic settles it)"
    assert said in run.stdout.splitlines()


def test_steps_in_json(analyses: dict[str, dict]) -> None:
    steps = analyses["simple"]["steps"]
    fixed = sum(len(s["filled"]) + len(s["empty"]) for s in steps)
    assert fixed == 20
    assert steps[0] == {"line": "row", "index": 2, "filled": [1, 3, 4], "empty": [2]}


def test_contradiction_means_no_solution(tmp_path: Path) -> None:
    # Every clue fits and the totals agree, yet rows 1 and 3 would need columns 1-2 and
    # column 2 is empty.
    puzzle = tmp_path / "none.txt"
    puzzle.write_text("row_rules\n2\n0\n2\ncol_rules\n1,1\n0\n1,1\n")
    run = run_cli("analyze", str(puzzle), "--plain")
    assert run.returncode == 1
    assert "rating: line (line logic proves no solution)" in run.stdout
    assert run.stdout.splitlines()[-1].startswith(f"{puzzle} 3x3: no solution (")
    steps = run_cli("analyze", str(puzzle), "--plain", "--steps").stdout.splitlines()
    *fixing, broken = [line for line in steps if line[:1].isdigit()]
    assert broken.endswith(": no arrangement of its clue fits: no solution")  # where to look
    assert broken.startswith(f"{len(fixing) + 1}. ") and fixing
    document = json.loads(run_cli("analyze", str(puzzle), "--json", "--steps").stdout)
    line, number = broken.split(": ")[0].split(". ")[1].split()
    assert document["no_arrangement"] == {"line": line, "index": int(number)}


def test_time_limit_gives_no_rating_and_no_verdict() -> None:
    run = run_cli("analyze", str(PUZZLES / "p200.txt"), "--json", "--time-limit", "0")
    analysis = json.loads(run.stdout)
    assert run.returncode == 1
    assert (analysis["rating"], analysis["uniqueness"]) == (None, "unknown")


def test_bad_input_is_one_located_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text("row_rules\n1,x\ncol_rules\n1\n")
    run = run_cli("analyze", str(broken))
    assert run.returncode == 2
    assert run.stderr.startswith(f"nonocp: {broken}:2:")
    assert len(run.stderr.splitlines()) == 1


def test_a_batch_rates_every_puzzle_as_one_file_at_a_time_does(analyses: dict[str, dict]) -> None:
    files = [str(PUZZLES / f"{name}.txt") for name in RATINGS]
    run = run_cli("analyze", *files, "--json")
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert document["files"] == files
    keys = ("file", "rating", "cells", "logic_grid", "uniqueness")
    assert [{key: p[key] for key in keys} for p in document["puzzles"]] == [
        {key: analyses[name][key] for key in keys} for name in RATINGS
    ]
    summary = document["summary"]
    assert {k: summary[k] for k in ("line", "probe", "search")} == Counter(RATINGS.values())
    assert (summary["puzzles"], summary["unrated"]) == (len(RATINGS), 0)
    assert (summary["unique"], summary["multiple"]) == (len(RATINGS) - 1, 1)


def test_a_batch_prints_a_line_for_each_puzzle_and_the_ratings_summed_up() -> None:
    files = [str(PUZZLES / "heart.txt"), str(PUZZLES / "difficult.txt")]
    run = run_cli("analyze", *files, "--plain")
    assert run.returncode == 0, run.stderr
    heart, difficult, summary = run.stdout.splitlines()
    assert heart.startswith(
        f"{files[0]} 9x9: line; 81 by line logic, 0 by probing, 0 left for search; unique ("
    )
    assert difficult.startswith(
        f"{files[1]} 15x15: search; 0 by line logic, 12 by probing, 213 left for search; unique ("
    )
    assert summary.startswith(
        "2 files: puzzles 2, line 1, probe 0, search 1, unrated 0,"
        " unique 2, multiple 0, none 0, unknown 0, total seconds "
    )
