"""benchmarks/run.py: its sets, what its tables count, and how it ends on bad input."""

from __future__ import annotations

import csv
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from run import (
    Drawn,
    Outcome,
    disagreements,
    finished_within,
    load_sets,
    peak_mib,
    random_set,
    ratio_text,
    restart_peak,
    set_ratios,
)

from nonocp.errors import NonocpError
from nonocp.formats import taai
from nonocp.generate import random_puzzle
from nonocp.puzzle import Puzzle

from conftest import PUZZLES, REPO

PUZZLE = Puzzle.from_clues([[1]], [[1]])


def test_finished_within_counts_the_finished_puzzles_up_to_each_mark() -> None:
    outcomes = [
        Outcome("solved", 0.05),
        Outcome("unique", 3.0),
        Outcome("12", 12.0),  # a count
        Outcome("wrong grid", 0.5),
        Outcome("unknown", 60.0),
        Outcome("killed", 65.0),
    ]
    assert finished_within(outcomes, [0.1, 1.0, 5.0, 10.0, 30.0]) == [1, 1, 2, 2, 3]


def test_a_ratio_is_marked_as_a_bound_where_one_side_did_not_finish() -> None:
    fast, slow, limit = Outcome("solved", 0.5), Outcome("solved", 2.0), Outcome("unknown", 10.0)
    assert ratio_text([(slow, fast)]) == "4.0x"
    assert ratio_text([(limit, fast)]) == ">=20.0x"  # theirs would have taken longer still
    assert ratio_text([(fast, limit)]) == "<=0.1x"
    assert ratio_text([(limit, fast), (fast, limit)]) == "~1.0x"
    assert ratio_text([(limit, limit)]) == "-"  # neither finished: nothing to compare
    assert ratio_text([(slow, fast), (limit, limit)]) == "4.0x"  # left out of a set's ratio
    assert ratio_text([(slow, Outcome("solved", 0.0))]) == "-"
    assert set_ratios([("p", PUZZLE, {"nonocp": limit, "other": limit})], "other") == ["-", "-"]


def test_verdicts_differ_among_the_solvers_that_finished() -> None:
    outcomes = {"nonocp": "unique", "baseline": "killed", "other": "multiple"}
    rows = [("p", PUZZLE, {k: Outcome(v, 1.0) for k, v in outcomes.items()})]
    assert disagreements(rows, list(outcomes)) == ["p: nonocp unique, other multiple"]


def test_a_generator_spec_draws_its_pictures_when_reached() -> None:
    drawn = random_set("random:6x4:0.5-0.3:seeds=7-9").puzzles
    assert isinstance(drawn, Drawn) and len(drawn) == 3
    assert [name for name, _ in drawn] == ["seed 7", "seed 8", "seed 9"]
    assert drawn[1][1] == random_puzzle(6, 4, 0.4, 8)  # the density falls in equal steps
    assert drawn[-1][1] == random_puzzle(6, 4, 0.3, 9)
    assert len(random_set("random:100x100:0.5:seeds=1-100000000").puzzles) == 100_000_000


@pytest.mark.parametrize(
    "spec",
    [
        "random:10x10:0.5:seeds=5-1",  # reversed
        "random:10x10:1.5:seeds=1-2",
        "random:10x10:-0.2:seeds=1-2",
        "random:10x10:0.5:seeds=x",
        "random:0x10:0.5:seeds=1",
        "random:10x10:0.5",
    ],
)
def test_a_bad_generator_spec_is_refused(spec: str) -> None:
    with pytest.raises(NonocpError, match="want random:WxH:D:seeds=A-B"):
        random_set(spec)


def tournament_file(folder: Path, pictures: list[tuple[tuple[int, ...], ...]]) -> Path:
    """A TAAI set of ``pictures`` with a solution file beside it covering the first."""
    folder.mkdir(parents=True, exist_ok=True)
    puzzles = [
        replace(Puzzle.from_grid(p), extra=(("number", str(n)),))
        for n, p in enumerate(pictures, start=1)
    ]
    (folder / "set.txt").write_text(taai.FORMAT.write(puzzles))
    (folder / "set.solution.txt").write_text(taai.SOLUTION_FORMAT.write(puzzles[:1]))
    return folder / "set.txt"


CROSS = ((0, 1, 0), (1, 1, 1), (0, 1, 0))
CORNER = ((1, 1, 0), (1, 0, 0), (0, 0, 0))


def test_a_folder_pairs_a_tournament_file_with_its_solutions_and_names_each_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament_file(tmp_path / "sets" / "a", [CROSS, CORNER])
    tournament_file(tmp_path / "elsewhere" / "a", [CROSS])
    (tmp_path / "empty").mkdir()
    sets = load_sets([str(tmp_path / "sets"), str(tmp_path / "empty"), str(tmp_path / "none")])
    assert [s.name for s in sets] == ["sets"]
    [(first, cross), (second, corner)] = sets[0].puzzles
    assert (first, second) == ("a/set.txt $1", "a/set.txt $2")
    assert cross.solution == CROSS and corner.solution is None
    said = capsys.readouterr().err
    assert "no solution to compare with for 1 of 2 puzzles" in said
    assert f"skipping {tmp_path / 'empty'}: no puzzles" in said
    assert f"skipping {tmp_path / 'none'}: not found" in said
    empty_solutions = tmp_path / "sets" / "b" / "set.solution.txt"
    tournament_file(empty_solutions.parent, [CROSS])
    empty_solutions.write_text((empty_solutions.parent / "set.txt").read_text())  # clues only
    load_sets([str(tmp_path / "sets")])
    assert f"skipping {empty_solutions}: holds no solutions" in capsys.readouterr().err
    twins = [str(tmp_path / where / "a" / "set.txt") for where in ("sets", "elsewhere")]
    assert [s.name for s in load_sets(twins)] == twins  # "set.txt" would name both


def run_benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(REPO / "benchmarks" / "run.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)


def test_bad_sets_and_options_end_the_run_in_one_line_before_anything_runs(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken.non"
    broken.write_text("width 2\nheight 1\nrows\n1\ncolumns\n1\n")
    heart = str(PUZZLES / "heart.txt")
    for args, said in [
        ([str(tmp_path / "nothing")], "no puzzles to run"),
        ([heart, str(broken)], f"{broken}:"),
        ([heart, "random:3x3:2:seeds=1"], "bad generator spec"),
        ([heart, "--csv", str(tmp_path / "no" / "such.csv")], "such.csv"),
        ([heart, "--versus", "'unclosed {file}"], "--versus: No closing quotation"),
        ([heart, "--versus", ""], "--versus: an empty command"),
    ]:
        run = run_benchmark(*args)
        assert run.returncode == 2, (args, run.stderr)
        *_, last = run.stderr.splitlines()
        assert last.startswith("run.py: ") and said in last and "Traceback" not in run.stderr
        assert run.stdout == ""  # nothing was run


def test_a_set_s_solutions_are_compared_puzzle_by_puzzle(tmp_path: Path) -> None:
    tournament_file(tmp_path / "t", [CROSS, CORNER])
    results = tmp_path / "results.csv"
    run = run_benchmark(
        str(tmp_path / "t"), "--mode", "first", "--per-puzzle", "--csv", str(results)
    )
    assert run.returncode == 0, run.stderr
    with results.open() as handle:
        rows = list(csv.DictReader(handle))
    matches = {row["puzzle"]: row["stored_match"] for row in rows}
    assert matches == {"set.txt $1": "True", "set.txt $2": ""}  # nothing to compare
    assert "nonocp = set's" in run.stdout
    if Path("/proc/self/clear_refs").exists():  # each puzzle's peak: the worker's imports
        assert all(20 < float(row["peak_mib"]) < 1024 for row in rows)


ALLOCATES_THEN_FREES = """
import sys
held = bytearray(200 * 2**20)
held[::4096] = b"x" * len(held[::4096])  # touched, so resident
del held
print("freed", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="Linux's /proc only")
def test_a_peak_restarted_between_puzzles_forgets_the_puzzles_before() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", ALLOCATES_THEN_FREES],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stdout.readline() == "freed\n"
        before = peak_mib(process.pid)
        assert restart_peak(process.pid)
        after = peak_mib(process.pid)
        process.communicate("")
    assert before > 200 > 100 > after > 0
    assert not restart_peak(process.pid) and peak_mib(process.pid) == 0.0  # gone
