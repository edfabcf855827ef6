"""The magnitude optimizer: optima against brute force, both input styles, located errors,
ordered parallel output, one JSON document, resuming and refusing what cannot be resumed,
and real instances from the shared workload."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from nonocp.magnitude import Sense, Status, optimize
from nonocp.magnitude.bounds import fewest_cells, magnitudes, most_cells
from nonocp.magnitude.construct import construct
from nonocp.magnitude.files import Style, decode_grid, encode_grid, read_instances
from nonocp.puzzle import columns_of, runs

from conftest import HEART, run_cli

Instance = tuple[tuple[int, ...], tuple[int, ...]]


def counted(grid: Sequence[Sequence[int]] | None) -> Instance:
    """Magnitudes recomputed here, independently of the package's helpers, of a grid that
    must be there."""
    assert grid is not None
    return (
        tuple(len(runs(row)) for row in grid),
        tuple(len(runs(column)) for column in columns_of(grid)),
    )


@cache
def brute_force(height: int, width: int) -> dict[Instance, tuple[int, int]]:
    """Every instance of this size, with its fewest and most filled cells, by enumeration."""
    extremes: dict[Instance, tuple[int, int]] = {}
    for cells in product((0, 1), repeat=height * width):
        grid = [cells[i * width : (i + 1) * width] for i in range(height)]
        key = counted(grid)
        least, most = extremes.get(key, (height * width, 0))
        filled = sum(cells)
        extremes[key] = (min(least, filled), max(most, filled))
    return extremes


@pytest.mark.parametrize(("height", "width"), [(4, 4), (3, 5), (5, 3)])
@pytest.mark.parametrize("sense", list(Sense))
def test_proven_optimum_equals_brute_force(height: int, width: int, sense: Sense) -> None:
    extremes = brute_force(height, width)
    sample = random.Random(height * 10 + width).sample(sorted(extremes), 80)
    for rows, columns in sample:
        least, most = extremes[(rows, columns)]
        result = optimize(rows, columns, sense)
        assert result.status is Status.OPTIMAL
        assert result.filled == (least if sense is Sense.MIN else most)
        assert counted(result.grid) == (rows, columns)


def test_both_paths_are_exercised_by_small_instances() -> None:
    """Small grids often miss the bound, so the brute-force test covers the solver too."""
    extremes = brute_force(4, 4)
    missed = [key for key, (least, most) in extremes.items() if most < most_cells(*key)]
    assert missed
    result = optimize(*missed[0], "max")
    assert result.optimal and not result.by_construction
    assert result.filled is not None and result.filled < result.bound


def test_bounds_are_bounds() -> None:
    for (rows, columns), (least, most) in brute_force(4, 4).items():
        assert fewest_cells(rows, columns) <= least
        assert most <= most_cells(rows, columns)


def test_an_unreachable_bound_is_optimised_past() -> None:
    """An all-empty row weakens the upper bound (191 here); the optimum, 184, is what the
    reference integer program (CBC) proves too."""
    rows = (5, 3, 4, 4, 5, 3, 7, 5, 0, 3, 6, 4, 5, 4, 2, 4)
    columns = (6, 6, 4, 3, 4, 3, 3, 4, 4, 4, 5, 4, 5, 4, 5, 5)
    result = optimize(rows, columns, "max")
    assert (result.status, result.filled, result.bound) == (Status.OPTIMAL, 184, 191)
    assert counted(result.grid) == (rows, columns)


def test_no_grid_is_proven_infeasible() -> None:
    assert optimize((1, 0), (0, 0), "min").status is Status.INFEASIBLE
    assert optimize((3,), (1, 1, 1, 1), "max").status is Status.INFEASIBLE  # 3 runs in 4 cells


@pytest.mark.parametrize(
    ("rows", "columns", "options", "why"),
    [
        ((-1,), (1,), {}, "run counts are whole numbers from 0, not -1"),
        ((1.5,), (1,), {}, "run counts are whole numbers from 0, not 1.5"),
        ("11", "11", {}, "run counts are whole numbers from 0, not '1'"),
        ((True,), (1,), {}, "run counts are whole numbers from 0, not True"),
        ((1,), (1,), {"time_limit": math.nan}, "time limit nan: expected seconds from 0"),
        ((1,), (1,), {"known": ((0,),)}, "known: a grid with other run counts"),
        ((0,) * 3163, (0,) * 3162, {}, "3162x3163 is 10,001,406 cells; nonocp takes at most"),
    ],
)
def test_an_instance_that_is_not_one_is_refused(
    rows: tuple, columns: tuple, options: dict, why: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        optimize(rows, columns, "min", **options)


def test_base64_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(20):
        grid = tuple(tuple(int(rng.random() < 0.8) for _ in range(16)) for _ in range(16))
        text = encode_grid(grid)
        assert len(text) == 44
        assert decode_grid(text, "x", 1) == grid


def test_both_styles_give_the_same_instances(shared: Path, tmp_path: Path) -> None:
    grids = (shared / "magnitude" / "nonograms_b64.txt").read_text().splitlines()[:5]
    counts = (shared / "magnitude" / "magnitudes.txt").read_text().splitlines()[:10]
    (tmp_path / "grids.txt").write_text("\n".join(grids) + "\n")
    (tmp_path / "counts.txt").write_text("\n\n".join(counts))  # blank lines are allowed
    style_a, from_grids = read_instances(str(tmp_path / "grids.txt"))
    style_b, from_counts = read_instances(str(tmp_path / "counts.txt"))
    assert (style_a, style_b) == (Style.BASE64, Style.COUNTS)
    assert [(i.rows, i.columns) for i in from_grids] == [(i.rows, i.columns) for i in from_counts]
    assert from_grids[0].rows == counted(decode_grid(grids[0], "x", 1))[0]


def test_real_instances_reach_the_reference_optima(shared: Path) -> None:
    """The first three grids' optima, as the reference integer program (CBC) proves them."""
    lines = (shared / "magnitude" / "nonograms_b64.txt").read_text().split()
    known = {Sense.MIN: [52, 59, 50], Sense.MAX: [217, 206, 219]}
    for sense, optima in known.items():
        for line, optimum in zip(lines, optima, strict=False):
            rows, columns = counted(decode_grid(line, "x", 1))
            result = optimize(rows, columns, sense)
            assert (result.status, result.filled) == (Status.OPTIMAL, optimum)
            assert counted(result.grid) == (rows, columns)


def test_real_instances_the_construction_misses(shared: Path) -> None:
    """Grids 2768 and 471 of the shared file: the constructions miss them, the solver
    proves the bound reachable."""
    lines = (shared / "magnitude" / "nonograms_b64.txt").read_text().split()
    for number, sense in ((2768, Sense.MIN), (471, Sense.MAX)):
        rows, columns = counted(decode_grid(lines[number - 1], "x", number))
        result = optimize(rows, columns, sense)
        assert result.optimal and not result.by_construction
        assert result.filled == result.bound
        assert counted(result.grid) == (rows, columns)


GRID = "+3/vS3//Xt////9399nvrX2/93+n+v/0fz/vn/18+/8="
COUNTS = "1 2 1\n2 1 1 1 1\n\n0 0\n0 0 0\n"
"""A 3x5 instance and an all-empty 2x3 one."""


def test_cli_counts_style(tmp_path: Path) -> None:
    source = tmp_path / "small.txt"
    source.write_text(COUNTS)
    done = run_cli("magnitude", str(source), "--json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    first, second = summary["answers"]
    filled, status, *rows = first.split()
    grid = tuple(tuple(map(int, row)) for row in rows)
    instance = ((1, 2, 1), (2, 1, 1, 1, 1))
    fewest = brute_force(3, 5)[instance][0]
    assert (status, counted(grid)) == ("optimal", instance)
    assert int(filled) == sum(map(sum, grid)) == fewest
    assert second == "0 optimal 000 000"
    assert (summary["instances"], summary["filled"], summary["optimal"]) == (2, fewest, 2)
    assert done.stderr == ""  # no progress bar off a terminal, as in a batch


def test_cli_json_without_out_is_one_document(tmp_path: Path) -> None:
    """Standard output is then the summary with the answer lines, which are all it holds
    without --json."""
    source = tmp_path / "grids.txt"
    source.write_text(f"{GRID}\n{GRID}\n")
    plain = run_cli("magnitude", str(source), "--jobs", "1")
    done = run_cli("magnitude", str(source), "--json", "--jobs", "1")
    assert done.returncode == plain.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["answers"] == plain.stdout.splitlines()
    assert (summary["instances"], summary["optimal"], summary["filled"]) == (2, 2, 2 * 52)


def test_cli_exit_1_when_not_all_proven(tmp_path: Path) -> None:
    source = tmp_path / "impossible.txt"
    source.write_text("1 0\n0 0\n")
    done = run_cli("magnitude", str(source), "--jobs", "1")
    assert done.returncode == 1
    assert done.stdout == "infeasible\n"
    summary = "magnitude, minimised: instances 1, filled 0, optimal 0, by construction 0, "
    assert done.stderr.startswith(summary)  # one line of ASCII off a terminal, as a batch's
    assert done.stderr.endswith(" s\n") and ", infeasible 1, wall time " in done.stderr


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            f"{GRID}\n  {GRID[:10]}#{GRID[11:]}\n",
            "2:13",
            "expected a base64 character, found '#'",
        ),
        (f"{GRID[:-2]}\n", "1:1", "expected 44 base64 characters"),
        (f"{GRID[:-1]}A\n", "1:44", "expected '=' (the pad), found 'A'"),  # 264 bits
        (f"{GRID[:-2]}9=\n", "1:43", "'9' sets bits past the grid's 256"),
        ("\uff11 1\n1 1\n", "1:1", "expected a run count, found '\uff11'"),  # not ASCII
        ("1 2 x\n1 1 1\n", "1:5", "expected a run count, found 'x'"),
        ("1 2 1\n1 -1 1\n", "2:3", "run counts cannot be negative"),
        ("1 " + "9" * 4301 + "\n1 1\n", "1:3", "expected a number of at most 9 digits"),
        ("1 2 1\n1 1 1\n3 3\n", "4:1", "expected a line of column magnitudes after line 3"),
        ("# runs\n1 1\n1 1\n", "1:1", "expected a run count, found '#'"),  # not at the end
        ("1 1\n2 0 0\n", "2:1", "column 1 has 2 runs but 2 rows hold at most 1"),
        ("0 " * 3163 + "\n" + "0 " * 3162, "1:1", "3162x3163 is 10,001,406 cells; nonocp takes"),
    ],
)
def test_cli_bad_input_is_located(tmp_path: Path, text: str, where: str, message: str) -> None:
    source = tmp_path / "bad.txt"
    source.write_text(text)
    done = run_cli("magnitude", str(source))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"nonocp: {source}:{where}: {message}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_cli_an_out_file_that_cannot_be_looked_up_is_one_line(tmp_path: Path) -> None:
    source = tmp_path / "runs.txt"
    source.write_text("1 1\n1 1\n")
    too_long = "a" * 300
    done = run_cli("magnitude", str(source), "--out", too_long)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"nonocp: {too_long}: File name too long\n"


def grids_file(shared: Path, tmp_path: Path, count: int) -> Path:
    lines = (shared / "magnitude" / "nonograms_b64.txt").read_text().splitlines()[:count]
    source = tmp_path / "grids.txt"
    source.write_text("\n".join(lines) + "\n")
    return source


def test_cli_parallel_output_is_ordered_and_checked(shared: Path, tmp_path: Path) -> None:
    source = grids_file(shared, tmp_path, 60)
    serial = run_cli("magnitude", str(source), "--maximize", "--jobs", "1")
    parallel = run_cli("magnitude", str(source), "--maximize", "--jobs", "2")
    assert serial.returncode == parallel.returncode == 0
    assert serial.stdout == parallel.stdout
    wanted = [i for i in read_instances(str(source))[1]]
    answers = [decode_grid(line, "out", n) for n, line in enumerate(serial.stdout.split(), 1)]
    assert [counted(g) for g in answers] == [(i.rows, i.columns) for i in wanted]
    assert [sum(map(sum, g)) for g in answers] == [most_cells(i.rows, i.columns) for i in wanted]


def test_cli_resumes_an_interrupted_run(shared: Path, tmp_path: Path) -> None:
    source = grids_file(shared, tmp_path, 12)
    out = tmp_path / "answers.txt"
    first = run_cli("magnitude", str(source), "--out", str(out), "--json")
    assert first.returncode == 0
    complete = out.read_text()
    lines = complete.splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + lines[5][:20])  # cut mid-line, as a crash would
    again = run_cli("magnitude", str(source), "--out", str(out), "--json")
    assert again.returncode == 0, again.stderr
    assert out.read_text() == complete
    summary = json.loads(again.stdout)
    assert (summary["resumed"], summary["instances"]) == (5, 12)
    assert summary["filled"] == json.loads(first.stdout)["filled"]


def test_cli_writes_to_a_file_it_cannot_resume_nor_cut(shared: Path, tmp_path: Path) -> None:
    done = run_cli("magnitude", str(grids_file(shared, tmp_path, 2)), "--out", "/dev/null")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("magnitude, minimised: instances 2, filled ")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_cli_names_an_out_file_it_cannot_write(shared: Path, tmp_path: Path) -> None:
    done = run_cli("magnitude", str(grids_file(shared, tmp_path, 2)), "--out", "/dev/full")
    assert (done.returncode, done.stderr) == (2, "nonocp: /dev/full: No space left on device\n")


def test_cli_refuses_to_resume_another_inputs_answers(shared: Path, tmp_path: Path) -> None:
    source = grids_file(shared, tmp_path, 3)
    out = tmp_path / "answers.txt"
    out.write_text(source.read_text().splitlines()[1] + "\n")  # grid 2 answering instance 1
    done = run_cli("magnitude", str(source), "--out", str(out))
    assert done.returncode == 2
    assert f"{out}:1:1: this grid does not answer instance 1" in done.stderr


def one_instance_file(tmp_path: Path, style: Style) -> Path:
    """GRID as an instance in either style: bounds 52 and 217, both met by construction."""
    source = tmp_path / f"{style}.txt"
    rows, columns = counted(decode_grid(GRID, "x", 1))
    counts = f"{' '.join(map(str, rows))}\n{' '.join(map(str, columns))}\n"
    source.write_text(f"{GRID}\n" if style is Style.BASE64 else counts)
    return source


@pytest.mark.parametrize("style", list(Style))
@pytest.mark.parametrize(
    ("written", "again", "filled", "extreme"),
    [("--minimize", "--maximize", 52, "fewest"), ("--maximize", "--minimize", 217, "most")],
)
def test_cli_refuses_to_resume_the_other_senses_answers(
    tmp_path: Path, style: Style, written: str, again: str, filled: int, extreme: str
) -> None:
    """Answers do not name their sense, but a grid at one sense's bound gives it away
    where the other sense's answer is a constructed grid at its own bound."""
    source = one_instance_file(tmp_path, style)
    out = tmp_path / "answers.txt"
    assert run_cli("magnitude", str(source), written, "--out", str(out)).returncode == 0
    held = out.read_bytes()
    done = run_cli("magnitude", str(source), again, "--out", str(out))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"nonocp: {out}:1:1: this grid has {filled} filled cells, the {extreme} instance 1 "
        f"can have: the file holds answers for {written}, not {again}\n"
    )
    assert out.read_bytes() == held


INPUT_GRID = "this grid has 210 filled cells where this run's answer to instance 1 has 52"
"""Why GRID itself, held where its answer should be, is refused."""
EMPTY = "A" * 43 + "="
"""The empty grid, whose magnitudes are not GRID's."""


@pytest.mark.parametrize(
    ("style", "held", "where", "why"),
    [
        (Style.BASE64, f"{GRID}\n", "1:1", INPUT_GRID),
        (Style.BASE64, GRID, "1:1", INPUT_GRID),
        (Style.BASE64, "\n".join(HEART), "1:1", "expected a base64 character, found '.'"),
        (Style.BASE64, "# Heart\n", "1:1", "expected a base64 character, found '#'"),
        (Style.BASE64, "{answer}\n{answer}\n", "2:1", "more lines than the input's instances"),
        (Style.COUNTS, "1 2 1\n2 1 1 1 1\n", "1:1", "expected '<filled> <status> <rows"),
        (Style.BASE64, f"{GRID} garbage", "1:46", "expected 'unproven'"),
        (Style.BASE64, f"{EMPTY} unpro", "1:1", "this grid does not answer instance 1"),
    ],
    ids=[
        "input",
        "input-without-newline",
        "puzzle",
        "commented-puzzle",
        "longer",
        "counts-input",
        "not-a-status",
        "cut-status-of-another-instance-s-grid",
    ],
)
def test_cli_refuses_to_overwrite_what_is_not_its_answers(
    tmp_path: Path, style: Style, held: str, where: str, why: str
) -> None:
    """The input itself (with or without its last newline), a puzzle, a longer run's
    answers: each is refused, left as it is, before anything is solved."""
    source = one_instance_file(tmp_path, style)
    fewest = optimize(*counted(decode_grid(GRID, "x", 1))).grid
    assert fewest is not None
    answer = encode_grid(fewest)
    out = tmp_path / "held.txt"
    out.write_text(held.format(answer=answer))
    kept = out.read_bytes()
    done = run_cli("magnitude", str(source), "--out", str(out))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"nonocp: {out}:{where}: {why}")
    assert done.stderr.endswith(": not an answer file of this run\n")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert out.read_bytes() == kept


def test_cli_recomputes_an_unproven_answer_but_checks_the_lines_after_it(
    shared: Path, tmp_path: Path
) -> None:
    """Grid 471 of the shared file, maximised, is left to the solver: a grid short of the
    bound there may be an unproven answer, computed again (to the same optimum, if not the
    same grid: the solver's first, quick search is cut by the clock). An answer after it
    that meets the other sense's bound still gives the file away."""
    grid_471 = (shared / "magnitude" / "nonograms_b64.txt").read_text().splitlines()[470]
    source = tmp_path / "grids.txt"
    source.write_text(f"{grid_471}\n{GRID}\n")
    out, minimised = tmp_path / "answers.txt", tmp_path / "min.txt"
    assert run_cli("magnitude", str(source), "--maximize", "--out", str(out)).returncode == 0
    assert run_cli("magnitude", str(source), "--minimize", "--out", str(minimised)).returncode == 0
    complete = out.read_text()
    out.write_text(f"{grid_471}\n{complete.splitlines()[1]}\n")  # the input grid: 'unproven'
    again = run_cli("magnitude", str(source), "--maximize", "--out", str(out), "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["resumed"] == 0
    recomputed, kept = out.read_text().splitlines()
    assert kept == complete.splitlines()[1]
    optimum = decode_grid(complete.splitlines()[0], "answer", 1)
    answer = decode_grid(recomputed, "answer", 1)
    assert magnitudes(answer) == magnitudes(optimum)
    assert (
        sum(map(sum, answer))
        == sum(map(sum, optimum))
        > sum(map(sum, decode_grid(grid_471, "input", 1)))
    )
    held = f"{grid_471}\n{minimised.read_text().splitlines()[1]}\n"
    out.write_text(held)
    refused = run_cli("magnitude", str(source), "--maximize", "--out", str(out))
    assert refused.returncode == 2
    assert f"{out}:2:1: this grid has 52 filled cells, the fewest instance 2" in refused.stderr
    assert out.read_text() == held


HARD = "A/ALwAv0AAAAACPcI/wD/AP8CvwLvAt8A/wD/AP8A2w="
"""A grid whose most filled cells take the solver well over a tenth of a second."""


def test_a_base64_answer_not_proven_says_so_and_falls_back_on_the_instance_s_own_grid(
    tmp_path: Path,
) -> None:
    source = tmp_path / "hard.txt"
    source.write_text(f"{HARD}\n")
    args = ("magnitude", str(source), "--maximize", "--time-limit", "0.01", "--jobs", "1")
    done = run_cli(*args)
    assert done.returncode == 1  # not proven optimal
    grid, status = done.stdout.split()
    assert status == "unproven"  # never a bare grid, which would read as optimal
    decoded = decode_grid(grid, "answer", 1)
    assert magnitudes(decoded) == magnitudes(decode_grid(HARD, "input", 1))
    assert optimize(*magnitudes(decoded), "max", time_limit=0.0, known=decoded).grid == decoded


def test_cli_resumes_after_unproven_base64_answers_and_one_cut_in_its_status(
    tmp_path: Path,
) -> None:
    source, out = tmp_path / "hard.txt", tmp_path / "answers.txt"
    source.write_text(f"{HARD}\n{HARD}\n")
    out.write_text(f"{HARD} unproven\n{HARD} unpro")  # an unproven answer is worked again
    args = ("magnitude", str(source), "--maximize", "--time-limit", "0.01", "--jobs", "1")
    again = run_cli(*args, "--out", str(out))
    assert again.returncode == 1, again.stderr
    assert [line.split()[1] for line in out.read_text().splitlines()] == ["unproven"] * 2


def test_a_time_limit_counts_the_construction_too() -> None:
    """The construction takes seconds on a 300x300 instance, so a time limit bounds it as it
    does the solver: with no time, an instance it settles is unknown, or unproven with its
    own picture."""
    picture = decode_grid(GRID, "input", 1)
    rows, columns = magnitudes(picture)
    assert optimize(rows, columns, "min").by_construction
    assert optimize(rows, columns, "min", time_limit=0.0).status is Status.UNKNOWN
    assert sum(map(sum, picture)) > fewest_cells(rows, columns)
    fallback = optimize(rows, columns, "min", time_limit=0.0, known=picture)
    assert (fallback.grid, fallback.status) == (picture, Status.UNPROVEN)


NO_TIME_THEN_REPORT = f"""
import sys
from nonocp.magnitude import optimize
from nonocp.magnitude.bounds import magnitudes
from nonocp.magnitude.files import decode_grid
rows, columns = magnitudes(decode_grid({GRID!r}, "input", 1))
print(optimize(rows, columns, "max", time_limit=0.0).status, "ortools" in sys.modules)
"""


def test_no_time_left_after_the_construction_leaves_ortools_unloaded() -> None:
    """Loading ortools takes about 0.35 s, by which an instance out of time would only
    overrun its limit."""
    ran = subprocess.run(
        [sys.executable, "-c", NO_TIME_THEN_REPORT], capture_output=True, text=True, timeout=120
    )
    assert ran.stdout.split() == ["unknown", "False"], ran.stderr


def test_cli_resumes_after_answers_out_of_time_that_the_construction_settles(
    tmp_path: Path,
) -> None:
    """With no time even for the construction, an instance it settles is answered with
    its own picture, unproven (cut short in its status word, the second time): a run
    with time computes those again instead of refusing the file as another run's."""
    source, out = tmp_path / "grids.txt", tmp_path / "answers.txt"
    source.write_text(f"{GRID}\n{GRID}\n")
    hurried = run_cli("magnitude", str(source), "--time-limit", "0", "--out", str(out))
    assert hurried.returncode == 1, hurried.stderr
    assert out.read_text() == f"{GRID} unproven\n" * 2
    out.write_text(f"{GRID} unproven\n{GRID} unpro")
    again = run_cli("magnitude", str(source), "--out", str(out))
    assert again.returncode == 0, again.stderr
    optimum = optimize(*magnitudes(decode_grid(GRID, "input", 1)), "min").grid
    assert optimum is not None
    assert out.read_text() == f"{encode_grid(optimum)}\n" * 2


def test_a_fallback_grid_at_the_bound_is_optimal() -> None:
    """The bound proves a grid that meets it optimal, whoever found it."""
    picture = decode_grid("qqoEVFKoqUUSKKlVVKoJVKSIQkQgKlVVoKhVVCqqVVU=", "input", 1)
    rows, columns = magnitudes(picture)
    assert sum(map(sum, picture)) == fewest_cells(rows, columns)
    assert construct(rows, columns, Sense.MIN) is None  # the solver's, then, or the fallback
    found = optimize(rows, columns, "min", time_limit=0.0, known=picture)
    assert (found.grid, found.status) == (picture, Status.OPTIMAL)
