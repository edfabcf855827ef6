"""benchmarks/run.py --versus: another solver's program timed beside nonocp, its grid checked."""

from __future__ import annotations

import csv
import subprocess
import sys
import time
from pathlib import Path

import pytest
from external import GNU_TIME, grid_in, run_timed, verdict_of

from nonocp import load
from nonocp.formats import dumps
from nonocp.puzzle import Puzzle

from conftest import HEART, PUZZLES, REPO

HEART_GRID = tuple(tuple(int(mark == "#") for mark in row) for row in HEART)


def test_the_grid_is_found_among_other_lines() -> None:
    heart = load(PUZZLES / "heart.txt")
    output = "\n".join(["heart.nin 9x9 FOUND time=0.01", *HEART, "nodes=0"])
    assert grid_in(output, heart) == HEART_GRID
    assert verdict_of(output, heart, "first") == "solved"


def test_cells_may_be_spaced_and_drawn_as_digits() -> None:
    heart = load(PUZZLES / "heart.txt")
    digits = [" ".join("1" if mark == "#" else "0" for mark in row) for row in HEART]
    assert grid_in("\n".join(digits), heart) == HEART_GRID


def test_a_broken_or_missing_grid_is_no_solution() -> None:
    heart = load(PUZZLES / "heart.txt")
    interrupted = [*HEART[:4], "searching...", *HEART[4:]]
    assert grid_in("\n".join(interrupted), heart) is None
    assert verdict_of("TIMEOUT\n", heart, "first") == "unknown"
    upside_down = "\n".join(reversed(HEART))
    assert verdict_of(upside_down, heart, "validate") == "wrong grid"


def test_a_program_past_its_bound_is_killed(tmp_path: Path) -> None:
    """Killed itself, not only GNU time, which would leave it running on."""
    pid_file = tmp_path / "pid"
    sleeper = (
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    )
    _, seconds, _, killed = run_timed([sys.executable, "-c", sleeper], 1.0)
    assert killed
    assert seconds < 10
    assert not running(int(pid_file.read_text()))


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process, allowing a killed one a moment to be reaped."""
    for _ in range(50):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return False
        except FileNotFoundError:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.skipif(not GNU_TIME.exists(), reason="GNU time measures the peak memory")
def test_peak_memory_is_the_programs_own() -> None:
    """A child forked from this process starts as a copy of it; the figure must not
    count that copy, only what the program itself holds."""
    small = run_timed([sys.executable, "-c", "pass"], 30)
    large = run_timed(
        [sys.executable, "-c", "b = bytearray(300 * 2**20); b[::4096] = b'1' * len(b[::4096])"], 30
    )
    assert small[2] is not None and large[2] is not None
    assert small[2] < 60
    assert large[2] > 300


def test_in_validate_mode_the_verdict_is_the_programs_word_beside_a_grid() -> None:
    heart = load(PUZZLES / "heart.txt")
    answer = "\n".join(HEART)
    assert verdict_of(f"heart.nin 9x9 UNIQUE time=0.01\n{answer}", heart, "validate") == "unique"
    assert verdict_of(f"{answer}\nMultiple solutions", heart, "validate") == "multiple"
    assert verdict_of(f"{answer}\nnon-unique", heart, "validate") == "multiple"
    assert verdict_of(f"{answer}\nnot unique: 2 solutions", heart, "validate") == "multiple"
    assert verdict_of(f"{answer}\nNot  unique", heart, "validate") == "multiple"
    assert verdict_of(f"{answer}\nthe puzzle isn't unique", heart, "validate") == "multiple"
    assert verdict_of(f"{answer}\nTIMEOUT", heart, "validate") == "unknown"
    assert verdict_of("UNIQUE\n", heart, "validate") == "unknown"  # a claim without a grid


def fake_solver(tmp_path: Path, grid: list[str], says: str = "") -> Path:
    """A program that prints ``grid`` whatever the puzzle, as a solver prints its answer,
    after a status line ending in ``says``."""
    script = tmp_path / "fake-solver"
    lines = [f"#!{sys.executable}", "import sys", f"print('answer for', sys.argv[1], {says!r})"]
    script.write_text("\n".join([*lines, *(f"print({row!r})" for row in grid)]) + "\n")
    script.chmod(0o755)
    return script


def run_benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(REPO / "benchmarks" / "run.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)


def test_versus_times_another_program_and_checks_its_grid(tmp_path: Path) -> None:
    solver = fake_solver(tmp_path, HEART)
    results = tmp_path / "results.csv"
    run = run_benchmark(
        str(PUZZLES / "heart.txt"),
        str(PUZZLES / "house.txt"),
        "--mode",
        "first",
        "--time-limit",
        "20",
        "--csv",
        str(results),
        "--versus",
        f"{solver} {{file}} {{limit}}",
    )
    assert run.returncode == 0, run.stderr
    with results.open() as handle:
        verdicts = {(row["set"], row["solver"]): row["verdict"] for row in csv.DictReader(handle)}
    assert verdicts == {
        ("heart.txt", "nonocp"): "solved",
        ("heart.txt", "fake-solver"): "solved",
        ("house.txt", "nonocp"): "solved",
        ("house.txt", "fake-solver"): "unknown",  # house is not 9x9: no grid of its size
    }
    assert "fake-solver" in run.stdout
    assert "finished within" in run.stdout


def test_in_validate_mode_a_claim_unlike_nonocps_proof_is_named(tmp_path: Path) -> None:
    solver = fake_solver(tmp_path, HEART, says="MULTIPLE")
    results = tmp_path / "results.csv"
    run = run_benchmark(
        str(PUZZLES / "heart.txt"), "--csv", str(results), "--versus", f"{solver} {{file}}"
    )
    assert run.returncode == 0, run.stderr
    with results.open() as handle:
        verdicts = {row["solver"]: row["verdict"] for row in csv.DictReader(handle)}
    assert verdicts == {"nonocp": "unique", "fake-solver": "multiple"}
    assert "verdicts differ" in run.stdout


def test_versus_reads_no_count(tmp_path: Path) -> None:
    solver = fake_solver(tmp_path, HEART)
    run = run_benchmark(
        str(PUZZLES / "heart.txt"), "--mode", "count", "--versus", f"{solver} {{file}}"
    )
    assert run.returncode == 2
    assert "not a count" in run.stderr


def test_a_missing_program_is_named_before_anything_runs(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-solver"
    run = run_benchmark(
        str(PUZZLES / "heart.txt"), "--mode", "first", "--versus", f"{missing} {{file}}"
    )
    assert run.returncode == 2
    assert "no-such-solver" in run.stderr
    assert "Traceback" not in run.stderr


def test_versus_grids_are_compared_with_the_set_s_solution(tmp_path: Path) -> None:
    solver = fake_solver(tmp_path, HEART)
    heart = tmp_path / "heart.non"
    heart.write_text(dumps([Puzzle.from_grid(HEART_GRID)], "non"))  # its goal: the picture
    results = tmp_path / "results.csv"
    run = run_benchmark(
        str(heart), "--mode", "first", "--csv", str(results), "--versus", f"{solver} {{file}}"
    )
    assert run.returncode == 0, run.stderr
    with results.open() as handle:
        matches = {row["solver"]: row["stored_match"] for row in csv.DictReader(handle)}
    assert matches == {"nonocp": "True", "fake-solver": "True"}
