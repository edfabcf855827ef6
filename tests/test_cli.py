"""The command line through the installed entry point, as a user runs it."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from nonocp.engine import solutions
from nonocp.formats import load, load_all, non, taai
from nonocp.generate import random_puzzle
from nonocp.magnitude.bounds import magnitudes
from nonocp.puzzle import Puzzle, ambiguous_cells

from bruteforce import all_solutions
from conftest import (
    HEART,
    PUZZLES,
    Picture,
    nonocp_command,
    pack_puzzles,
    puzzle_of,
    run_cli,
)

RUN_MAIN_THEN_REPORT = """
import json, resource, sys
from nonocp.cli import main
sys.argv = ["nonocp", *sys.argv[1:]]
try:
    main()
except SystemExit as exit:
    code = exit.code
heavy = {"ortools", "numba", "numpy", "pydantic"}
print(json.dumps({
    "code": code,
    "heavy": sorted({name.split(".")[0] for name in sys.modules} & heavy),
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
}))
"""
"""Runs the real entry point in this interpreter, then prints, as a line of JSON, its exit
code, which of OR-tools, numba, numpy and pydantic (which typer 0.29 imports) it imported,
and its peak memory in MiB (Linux counts ``ru_maxrss`` in KiB)."""

INSTALLED = [sys.executable, "-P"]
"""Python running the installed nonocp: with ``-c`` it would otherwise import the source tree
from the working directory, and numba keeps its cache by the file compiled, so on a fresh
install the search was compiled a second time there (94 s of the sparse picture's test)."""


def run_main(*args: str, timeout: float) -> tuple[list[str], dict[str, Any]]:
    """The lines nonocp printed with ``args``, run by ``RUN_MAIN_THEN_REPORT``, and the
    report that follows them."""
    ran = subprocess.run(
        [*INSTALLED, "-c", RUN_MAIN_THEN_REPORT, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert ran.returncode == 0, ran.stderr
    *printed, report = ran.stdout.splitlines()
    return printed, json.loads(report)


def test_solve_heart_plain_prints_the_picture_and_unique() -> None:
    run = run_cli("solve", str(PUZZLES / "heart.txt"), "--plain")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[:9] == HEART
    assert lines[9].endswith(")") and ": unique (" in lines[9]


@pytest.mark.parametrize(
    "command", [["solve"], ["solve", "--model", "blocks"], ["count"], ["analyze"]]
)
def test_a_puzzle_line_logic_settles_never_imports_the_solvers(command: list[str]) -> None:
    """Importing OR-tools or the compiled search takes longer than solving such a puzzle,
    so it must not happen; nor pydantic, which typer 0.29 imports (0.14 s more)."""
    _, report = run_main(*command, str(PUZZLES / "heart.txt"), "--plain", timeout=60)
    assert (report["code"], report["heavy"]) == (0, [])


def test_output_to_a_pipe_is_plain_without_asking() -> None:
    run = run_cli("solve", str(PUZZLES / "heart.txt"))
    assert run.stdout.splitlines()[:9] == HEART


def test_count_nonunique_is_43_and_json_agrees() -> None:
    run = run_cli("count", str(PUZZLES / "nonunique.txt"))
    assert run.returncode == 0
    assert "43 solutions" in run.stdout
    document = json.loads(run_cli("count", str(PUZZLES / "nonunique.txt"), "--json").stdout)
    assert (document["count"], document["exact"]) == (43, True)
    everywhere = ambiguous_cells(list(solutions(load(PUZZLES / "nonunique.txt"))))
    assert document["ambiguous_cells"] == [[r + 1, c + 1] for r, c in sorted(everywhere)]


def test_count_show_draws_each_solution_and_the_ambiguous_cells() -> None:
    run = run_cli("count", str(PUZZLES / "nonunique.txt"), "--show", "--limit", "2", "--plain")
    assert run.returncode == 0
    assert run.stdout.count("solution ") == 2
    assert "4 cells differ among the 2 solutions found (shown as unknown):" in run.stdout
    assert "?" in run.stdout
    assert "at least 2 solutions (limit)" in run.stdout
    args = ["count", str(PUZZLES / "nonunique.txt"), "--show", "--limit", "3", "--json"]
    document = json.loads(run_cli(*args).stdout)
    first, *others = document["grids"]
    differing = {
        (r + 1, c + 1)  # counted from 1, as plain output's row:column
        for r, row in enumerate(first)
        for c, cell in enumerate(row)
        if any(other[r][c] != cell for other in others)
    }
    assert document["ambiguous_cells"] == [list(cell) for cell in sorted(differing)]


def test_solve_json_for_a_puzzle_with_several_solutions() -> None:
    run = run_cli("solve", str(PUZZLES / "nonunique.txt"), "--json")
    document = json.loads(run.stdout)
    assert run.returncode == 0
    assert document["status"] == "solved"
    assert document["uniqueness"] == "multiple"
    assert document["verdict"] == "not unique: at least 2 solutions"
    assert document["grid"] != document["other"]


def test_plain_output_lists_where_two_solutions_differ() -> None:
    """The colours that show them on a terminal are lost in plain output."""
    run = run_cli("solve", str(PUZZLES / "nonunique.txt"), "--plain")
    *_, verdict, differing = run.stdout.splitlines()
    assert verdict.startswith(f"{PUZZLES / 'nonunique.txt'} 11x15: not unique: at least 2 ")
    assert differing.startswith(
        "two of its solutions differ at 4 cells (row:column): 4:8 4:11 5:8 5:11; "
    )


def test_time_limit_is_reported_as_unknown_with_exit_1() -> None:
    run = run_cli("solve", str(PUZZLES / "castle.txt"), "--time-limit", "0", "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["uniqueness"] == "unknown"


def test_usage_errors_are_one_line_with_exit_2() -> None:
    heart = str(PUZZLES / "heart.txt")
    for args, said in [
        (["solve"], "Missing argument 'FILE'."),
        (["solve", heart, "--limit", "3"], "No such option: --limit"),
        (["frob"], "No such command 'frob'."),
        (["generate", "--size", "0"], "Invalid value for --size: size '0' must be at least 1x1"),
        (["generate", "--size", "\u00b2x3"], "Invalid value for --size: size '\u00b2x3' is not "),
        (["generate", "--size", "3163x3162"], "Invalid value for --size: 3163x3162 is 10,001,406"),
        (["generate", "--size", "9" * 5000], "Invalid value for --size: a side of 5000 digits "),
        (["generate", "--seed", "-5"], "Invalid value for '--seed': "),  # would draw seed 5's
        (["generate", "--density", "nan"], "Invalid value for '--density': nan is not a share"),
        (["generate", "--density", "1.5"], "Invalid value for '--density': 1.5 is not a share"),
        (["magnitude"], "Missing argument 'FILE'."),
    ]:
        run = run_cli(*args)
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr.startswith(f"nonocp: {said}") and run.stderr.count("\n") == 1
    convert = run_cli("convert", heart)  # "FILE" is what Typer says, and OUT is missing
    usage = r" \(usage: nonocp convert \[OPTIONS\] \{FILE\}(\.\.\.)? \{OUT\}\)\n$"
    assert re.search(usage, convert.stderr)  # typer 0.29 marks FILE repeated, 0.28 does not
    for limit, shown in [
        ("inf", "inf"),
        ("nan", "nan"),
        ("1e10", "10000000000"),
        ("100000001", "100000001"),
        ("-1", "-1"),
    ]:
        run = run_cli("solve", heart, "--time-limit", limit)
        assert run.returncode == 2
        said = f"Invalid value for '--time-limit': {shown} is not a number of seconds from 0 to"
        assert run.stderr.startswith(f"nonocp: {said} 100,000,000 (usage: nonocp solve ")
    bare = run_cli()
    assert (bare.returncode, bare.stderr) == (2, "") and "Commands" in bare.stdout
    missing = run_cli("solve", "no/such/file.txt")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "nonocp: no/such/file.txt: No such file or directory"
    too_long = "a" * 300 + ".json"  # a name the system refuses even to look up
    for command in [("convert", heart, too_long), ("convert", too_long, "-", "--to", "json")]:
        run = run_cli(*command)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert run.stderr == f"nonocp: {too_long}: File name too long\n"


def test_a_puzzle_piped_from_generate_is_solved_from_standard_input() -> None:
    made = run_cli("generate", "--size", "7x6", "--seed", "5", "--to", "nin")
    run = run_cli("solve", "-", "--plain", input=made.stdout)
    assert run.returncode == 0, run.stderr
    *picture, verdict = run.stdout.splitlines()
    assert len(picture) == 6 and all(len(row) == 7 for row in picture)
    assert verdict.startswith("<stdin> 7x6: ")


def test_bad_input_on_standard_input_is_named_stdin() -> None:
    run = run_cli("solve", "-", input="3 3\n1\n1 x\n1\n1\n1\n1\n")
    assert run.returncode == 2
    assert run.stderr == "nonocp: <stdin>:3:3: expected a number, found 'x'\n"


def test_several_files_are_solved_in_one_run_and_summed_up() -> None:
    files = [str(PUZZLES / "heart.txt"), str(PUZZLES / "nonunique.txt")]
    run = run_cli("solve", *files, "--plain")
    assert run.returncode == 0, run.stderr
    named, summary = run.stdout.splitlines()  # the progress bar stays off standard output
    assert named == f"{files[1]} 11x15: not unique: at least 2 solutions"  # a designer's find
    assert summary.startswith("2 files: puzzles 2, solved 2, unique 1, multiple 1, none 0, ")
    document = json.loads(run_cli("solve", *files, "--json").stdout)
    assert document["files"] == files
    assert [p["file"] for p in document["puzzles"]] == files
    assert [p["uniqueness"] for p in document["puzzles"]] == ["unique", "multiple"]


@pytest.mark.parametrize(
    ("command", "verdict"), [("solve", "uniqueness"), ("count", "count"), ("analyze", "uniqueness")]
)
def test_a_batch_on_two_processes_answers_as_one_process_does_in_order(
    command: str, verdict: str
) -> None:
    files = sorted(str(file) for file in PUZZLES.glob("*.txt"))
    answers = []
    for jobs in ("1", "2"):
        run = run_cli(command, *files, "--json", "--jobs", jobs)
        assert run.returncode == 0, run.stderr
        document = json.loads(run.stdout)
        answers.append([without_timing(p) for p in document["puzzles"]])
    one, two = answers
    assert [p["file"] for p in two] == files
    several = [p["file"] for p in two if p[verdict] not in ("unique", 1)]
    assert several == [str(PUZZLES / "nonunique.txt")]  # the rest are unique
    assert two == one


def without_timing(document: dict) -> dict:
    return {key: value for key, value in document.items() if "seconds" not in key}


@pytest.fixture(scope="module")
def stalling(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Random 100x100 seed 22: no method here settles it within minutes."""
    puzzle = tmp_path_factory.mktemp("stalling") / "r22.non"
    made = run_cli("generate", "--size", "100x100", "--seed", "22", "--to", "non")
    puzzle.write_text(made.stdout)
    return puzzle


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["solve", "{p}", "--first"], ""),  # the searches' race
        (["solve", "{p}", "--model", "blocks"], ""),  # CP-SAT in the race
        (["count", "{p}"], ""),  # the search counting beside Glucose
        (["count", str(PUZZLES / "webpbn" / "knotty.nin"), "--show"], ""),  # Glucose's
        (["solve", str(PUZZLES / "webpbn" / "knotty.nin"), "--engine", "mip"], ""),  # SCIP's
        (["solve", "{p}", "{p}", "--jobs", "2"], "interrupted after 0 of 2 puzzles\n"),  # workers
    ],
)
def test_ctrl_c_stops_every_process_at_once_with_status_130(
    stalling: Path, command: list[str], said: str
) -> None:
    returncode, output, errors, gone = after_ctrl_c([arg.format(p=stalling) for arg in command])
    assert (returncode, errors) == (130, said)
    assert "CTRL-C" not in output  # no solver's own handler took it
    assert gone  # the workers too


def test_ctrl_c_stops_the_probing_of_a_large_puzzle_s_root_at_once(tmp_path: Path) -> None:
    """Probing a random 500x500 puzzle's root takes minutes, and the search doing it had
    held the main thread: Ctrl-C waited for the time limit."""
    puzzle = tmp_path / "r500.non"
    made = run_cli("generate", "--size", "500x500", "--seed", "1", "--to", "non")
    puzzle.write_text(made.stdout)
    returncode, _, errors, gone = after_ctrl_c(["solve", str(puzzle), "--time-limit", "60"])
    assert (returncode, errors, gone) == (130, "", True)


def test_a_sparse_picture_is_solved_in_little_memory(tmp_path: Path) -> None:
    """The search goes a level deeper for nearly every cell of a sparse picture (about
    20,000 levels on this one): it keeps one grid and the trail of its changes, where a
    grid per level had taken 3.5 GB and a 200x200 one 11 GB."""
    puzzle = tmp_path / "sparse.non"
    made = run_cli("generate", "--size", "150x150", "--density", "0.1", "--to", "non")
    puzzle.write_text(made.stdout)
    args = ["solve", str(puzzle), "--first", "--plain", "--time-limit", "120"]
    printed, report = run_main(*args, timeout=300)
    assert report["code"] == 0 and "solved" in printed[-1]
    assert report["peak_mib"] < 1024


@pytest.fixture(scope="module")
def most_cells_for_minutes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The most filled cells for a random 80x80 picture's magnitudes (seed 5): the
    construction falls short and CP-SAT runs for minutes."""
    picture = random_puzzle(80, 80, 0.5, 5).solution
    assert picture is not None
    rows, columns = magnitudes(picture)
    instance = tmp_path_factory.mktemp("magnitude") / "m80.txt"
    instance.write_text(f"{' '.join(map(str, rows))}\n{' '.join(map(str, columns))}\n")
    return instance


def test_ctrl_c_stops_the_magnitude_solver_at_once(most_cells_for_minutes: Path) -> None:
    """CP-SAT had run in the main thread, where neither Ctrl-C nor ``timeout``'s SIGTERM
    reached Python until it returned."""
    args = ["magnitude", str(most_cells_for_minutes), "--maximize"]
    returncode, output, errors, gone = after_ctrl_c(args)
    assert (returncode, output, errors, gone) == (130, "", "interrupted after 0 instances\n", True)


def test_ctrl_c_as_the_solver_s_thread_starts_leaves_nothing_running(
    most_cells_for_minutes: Path,
) -> None:
    """A Ctrl-C that lands in ``Thread.start`` had left CP-SAT running, unstopped, in its
    thread, and tearing the interpreter down under it aborted the process (status -6,
    "terminate called without an active exception")."""
    args = ["magnitude", str(most_cells_for_minutes), "--maximize"]
    said = "interrupted after 0 instances\n"
    assert ctrl_c_in(CTRL_C_AS_A_THREAD_STARTS, "nonocp-interruptible", args) == (130, said)


def test_generate_ctrl_c_says_how_far_its_sifting_for_unique_puzzles_got() -> None:
    args = ["generate", "--size", "8x8", "--unique", "--count", "999", "--time-limit", "1e-9"]
    args += ["--to", "nonpack"]
    returncode, output, errors, gone = after_ctrl_c(args)  # next to nothing proven in 1 ns
    assert (returncode, gone) == (130, True)
    said = re.fullmatch(
        r"interrupted: kept (\d+) unique of (\d+) tried \(seeds 1-\2\), of 999 asked for; "
        r"(\d+) not proven either way in 1e-09 s, not kept\n",
        errors,
    )
    assert said is not None
    kept, tried, unknown = map(int, said.groups())
    assert unknown > 0 and kept + unknown <= tried
    written = pack_puzzles(output) if kept else []
    assert len(written) == kept and all(len(all_solutions(p)) == 1 for p in written)


def test_sigterm_is_ctrl_c_and_a_batch_s_lines_come_as_each_puzzle_is_answered(
    stalling: Path,
) -> None:
    args = ["solve", str(PUZZLES / "nonunique.txt"), str(stalling), "--plain", "--jobs", "2"]
    returncode, output, errors, gone = after_ctrl_c(args, signal.SIGTERM, after_a_line=True)
    assert (returncode, errors, gone) == (130, "interrupted after 1 of 2 puzzles\n", True)
    named, summary = output.splitlines()
    assert named == f"{PUZZLES / 'nonunique.txt'} 11x15: not unique: at least 2 solutions"
    assert summary.startswith("2 files: puzzles 1, solved 1, unique 0, multiple 1, ")


def test_a_json_batch_cut_short_before_its_first_answer_is_still_one_document(
    stalling: Path,
) -> None:
    args = ["solve", str(stalling), str(PUZZLES / "heart.txt"), "--json"]
    returncode, output, errors, gone = after_ctrl_c(args)
    assert (returncode, errors, gone) == (130, "interrupted after 0 of 2 puzzles\n", True)
    document = json.loads(output)
    assert (document["interrupted"], document["puzzles"]) == (True, [])
    assert document["summary"]["puzzles"] == 0 and document["summary"]["median_seconds"] is None


# Seconds by which a batch has answered heart.txt (under 1 s on an idle machine, start-up
# included) even with the tests' other workers loading both cores.
SLOW_FIRST_ANSWER = 10


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_a_batch_prints_what_was_answered_before_it(stalling: Path, jobs: str) -> None:
    args = ["count", str(PUZZLES / "heart.txt"), str(stalling), "--json", "--jobs", jobs]
    returncode, output, errors, gone = after_ctrl_c(args, seconds=SLOW_FIRST_ANSWER)
    assert (returncode, errors, gone) == (130, "interrupted after 1 of 2 puzzles\n", True)
    document = json.loads(output)
    assert document["interrupted"] is True
    assert [p["count"] for p in document["puzzles"]] == [1]
    assert document["summary"]["puzzles"] == 1


def after_ctrl_c(
    args: list[str], sent: int = signal.SIGINT, after_a_line: bool = False, seconds: float = 3
) -> tuple[int, str, str, bool]:
    """nonocp run with ``args`` and sent Ctrl-C ``seconds`` in, past start-up and into the
    solving (or SIGTERM, to the program alone, as ``timeout`` and schedulers send it): its
    exit status, standard output and error, and whether its whole process group was gone
    within 5 s of it. ``after_a_line`` waits, too, for the first line of standard output,
    which must come within 30 s, while nonocp runs: with the tests' other workers loading
    both cores, a batch's first answer had not always come within 3 s. A JSON batch prints
    nothing until it ends, so a test that needs its first answer in waits longer instead."""
    process = subprocess.Popen(
        [*nonocp_command(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
        preexec_fn=heeding_ctrl_c,
    )
    try:
        time.sleep(seconds)
        first = ""
        if after_a_line:
            assert process.stdout is not None
            assert select.select([process.stdout], [], [], 30)[0], "no line within 30 s"
            first = process.stdout.readline()
        if sent == signal.SIGINT:
            os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole group
        else:
            process.send_signal(sent)
        output, errors = process.communicate(timeout=30)
        output = first + output
        for _ in range(50):
            if not group_alive(process.pid):
                break
            time.sleep(0.1)
        return process.returncode, output, errors, not group_alive(process.pid)
    finally:
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


CTRL_C_WHILE_IMPORTING = """
import os, signal, sys
from importlib.abc import MetaPathFinder

module = sys.argv[1]

class CtrlC(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == module:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
from nonocp.cli import main
sys.argv = ["nonocp", *sys.argv[2:]]
main()
"""
"""The real entry point, sent a real SIGINT just as the named module starts to load."""


@pytest.mark.parametrize("module", ["nonocp.formats", "typer", "ortools"])
def test_ctrl_c_while_the_commands_load_exits_130_without_a_traceback(module: str) -> None:
    """The MIP engine imports OR-tools even for a puzzle line logic settles."""
    args = ["solve", str(PUZZLES / "heart.txt"), "--engine", "mip"]
    assert ctrl_c_in(CTRL_C_WHILE_IMPORTING, module, args) == (130, "")


def test_ctrl_c_while_cp_sat_initialises_ends_the_command_as_any_ctrl_c(tmp_path: Path) -> None:
    """CP-SAT's compiled module imports another as it initialises, and pybind11 had turned
    a Ctrl-C there into ``ImportError``: a traceback and status 1. A 4x4 grid whose last
    row and column have a run each, the others none: the constructions miss its most
    filled cells (one), so the solver loads."""
    instance = tmp_path / "m4.txt"
    instance.write_text("0 0 0 1\n0 0 0 1\n")
    args = ["magnitude", str(instance), "--maximize"]
    said = "interrupted after 0 instances\n"
    module = "ortools.util.python.sorted_interval_list"
    assert ctrl_c_in(CTRL_C_WHILE_IMPORTING, module, args) == (130, said)


CTRL_C_AS_A_THREAD_STARTS = """
import os, signal, sys, threading

name = sys.argv[1]
start = threading.Thread.start

def start_then_ctrl_c(thread):
    start(thread)
    if thread.name == name:
        os.kill(os.getpid(), signal.SIGINT)

threading.Thread.start = start_then_ctrl_c
from nonocp.cli import main
sys.argv = ["nonocp", *sys.argv[2:]]
main()
"""
"""The real entry point, sent a real SIGINT once the named thread has started: the
``KeyboardInterrupt`` comes out of ``Thread.start`` in its caller."""


def ctrl_c_in(script: str, where: str, args: list[str]) -> tuple[int, str]:
    """The exit status and standard error of ``nonocp args`` run by ``script``, which
    sends Ctrl-C ``where`` it says."""
    run = subprocess.run(
        [*INSTALLED, "-c", script, where, *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=heeding_ctrl_c,
    )
    return run.returncode, run.stderr


def heeding_ctrl_c() -> None:
    """In the child, before it runs: SIGINT's default action, as in a terminal's
    foreground job, even where the tests themselves run with SIGINT ignored (a shell's
    background job), which the child would inherit and Python then keep."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_batch_names_each_puzzle_it_could_not_settle_and_exits_1() -> None:
    files = [str(PUZZLES / "heart.txt"), str(PUZZLES / "castle.txt")]
    run = run_cli("solve", *files, "--plain", "--time-limit", "0")
    assert run.returncode == 1
    *problems, summary = run.stdout.splitlines()
    assert problems == [
        f"{file} {size}: unknown: time limit"
        for file, size in zip(files, ("9x9", "60x35"), strict=True)
    ]
    assert summary.startswith("2 files: puzzles 2, solved 0, unique 0, multiple 0, none 0, ")


def test_a_batch_reports_a_bad_file_solves_the_rest_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.nin"
    bad.write_text("2 2\n1\n1 x\n1\n1\n")
    run = run_cli("solve", str(bad), str(PUZZLES / "heart.txt"), "--plain")
    assert run.returncode == 2
    assert run.stderr == f"nonocp: {bad}:3:3: expected a number, found 'x'\n"
    (summary,) = run.stdout.splitlines()
    assert summary.startswith("2 files: puzzles 1, solved 1, unique 1, ")
    nothing = run_cli("solve", str(bad), str(bad), "--plain")
    assert (nothing.returncode, nothing.stderr.count("\n")) == (2, 2)
    assert nothing.stdout.startswith("2 files: puzzles 0, solved 0, ")  # a summary all the same
    as_json = run_cli("count", str(bad), str(PUZZLES / "heart.txt"), "--json")
    assert as_json.returncode == 2
    document = json.loads(as_json.stdout)
    assert document["unreadable"] == [f"{bad}:3:3: expected a number, found 'x'"]
    assert [p["count"] for p in document["puzzles"]] == [1]


def test_a_puzzle_too_large_to_solve_is_refused_before_solving(tmp_path: Path) -> None:
    large = tmp_path / "large.nin"  # empty: no clue is too long, nothing adds up wrong
    large.write_text("3163 3162\n" + "0\n" * (3163 + 3162))
    said = "3163x3162 is 10,001,406 cells; nonocp takes at most 10,000,000\n"
    for command in ("solve", "count", "analyze"):
        run = run_cli(command, str(large))
        assert (run.returncode, run.stdout, run.stderr) == (2, "", f"nonocp: {large}: {said}")
    batch = run_cli("solve", str(large), str(PUZZLES / "heart.txt"), "--json")
    assert batch.returncode == 2 and batch.stderr == f"nonocp: {large} (#1): {said}"
    document = json.loads(batch.stdout)
    assert document["too_large"] == [f"{large} (#1): {said.rstrip()}"]
    assert document["unreadable"] == []  # the file reads: convert takes it
    assert [p["uniqueness"] for p in document["puzzles"]] == ["unique"]
    pair = tmp_path / "pair.json"  # one file: the puzzle left is a batch's, not drawn alone
    converted = run_cli("convert", str(large), str(PUZZLES / "heart.txt"), str(pair))
    assert converted.returncode == 0  # only solving needs the cells
    alone = run_cli("solve", str(pair), "--plain")
    assert alone.returncode == 2 and alone.stderr == f"nonocp: {pair} (#1): {said}"
    assert alone.stdout.startswith(f"{pair}: puzzles 1, solved 1, unique 1,")  # no drawing


@pytest.mark.parametrize(
    ("command", "option"),
    [
        ("solve", ["--index", "1"]),
        ("solve", ["--name", "x"]),
        ("solve", ["--solutions", str(PUZZLES / "heart.txt")]),
        ("count", ["--index", "1"]),
        ("analyze", ["--name", "x"]),
    ],
)
def test_picking_one_puzzle_needs_one_file(command: str, option: list[str]) -> None:
    run = run_cli(command, str(PUZZLES / "heart.txt"), str(PUZZLES / "castle.txt"), *option)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"nonocp: {option[0]} takes one puzzle file, not several\n"


@pytest.mark.parametrize(("command", "option"), [("count", "--show"), ("analyze", "--steps")])
def test_showing_one_puzzle_in_detail_needs_one_puzzle(command: str, option: str) -> None:
    run = run_cli(command, str(PUZZLES / "heart.txt"), str(PUZZLES / "castle.txt"), option)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"nonocp: {option} shows one puzzle: pick one with --index N or --name, from one file\n"
    )


def tournament_set(tmp_path: Path, pictures: list[Picture]) -> tuple[Path, Path]:
    """A TAAI set of ``pictures`` and its solution file."""
    puzzles = [
        replace(Puzzle.from_grid(p), extra=(("number", str(n)),))
        for n, p in enumerate(pictures, start=1)
    ]
    clues, solutions = tmp_path / "set.txt", tmp_path / "set.solution.txt"
    clues.write_text(taai.FORMAT.write(puzzles))
    solutions.write_text(taai.SOLUTION_FORMAT.write(puzzles))
    return clues, solutions


PICTURES: list[Picture] = [
    ((1, 0, 1), (0, 1, 0), (1, 0, 1)),
    ((0, 1, 0), (1, 1, 1), (0, 1, 0)),
    ((1, 1, 1), (1, 0, 0), (1, 1, 0)),
    ((1, 1, 0), (0, 1, 1), (0, 0, 1)),  # not unique: ((0, 1, 1), (0, 1, 1), (1, 0, 0)) too
]


def test_a_tournament_set_is_checked_against_its_solution_file(tmp_path: Path) -> None:
    clues, solutions = tournament_set(tmp_path, PICTURES)
    run = run_cli("solve", str(clues), "--first", "--solutions", str(solutions), "--json")
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert document["file"] == str(clues)
    assert [p["puzzle"] for p in document["puzzles"]] == ["$1", "$2", "$3", "$4"]
    assert document["summary"]["solved"] == 4
    stored = [p["stored_solution"] for p in document["puzzles"]]
    assert stored[:3] == ["matches the stored solution"] * 3
    assert [p["stored"] for p in document["puzzles"]][:3] == ["matched"] * 3  # for scripts
    assert stored[3] in ("matches the stored solution", STORED_DIFFERS)
    checked = ("matched", "differ", "mismatched", "unchecked")
    assert {key: document["summary"][key] for key in checked} == {
        "matched": 3 + (stored[3] != STORED_DIFFERS),
        "differ": int(stored[3] == STORED_DIFFERS),
        "mismatched": 0,
        "unchecked": 0,
    }


STORED_DIFFERS = (
    "differs from the stored solution (both satisfy the clues: the puzzle is not unique)"
)


def test_a_solution_that_breaks_its_clues_is_a_mismatch_named_by_number(tmp_path: Path) -> None:
    clues, _ = tournament_set(tmp_path, PICTURES)
    (tmp_path / "other").mkdir()
    _, wrong = tournament_set(tmp_path / "other", [PICTURES[1], PICTURES[1], *PICTURES[2:]])
    run = run_cli("solve", str(clues), "--solutions", str(wrong), "--plain")
    assert run.returncode == 1
    *problems, summary = run.stdout.splitlines()
    assert problems == [
        "$1 3x3: MISMATCH: the stored solution does not satisfy the clues",
        "$4 3x3: not unique: at least 2 solutions",  # named, as every such puzzle of a batch
    ]
    assert summary.startswith(f"{clues}: puzzles 4, solved 4, ")
    assert summary.endswith(", mismatched 1, unchecked 0")


def test_count_takes_a_set_and_counts_each_puzzle_as_brute_force_does(tmp_path: Path) -> None:
    clues, _ = tournament_set(tmp_path, PICTURES)
    run = run_cli("count", str(clues), "--json")
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert document["file"] == str(clues)
    counts = [len(all_solutions(puzzle_of(picture))) for picture in PICTURES]
    assert [(p["puzzle"], p["count"], p["exact"]) for p in document["puzzles"]] == [
        (f"${number}", count, True) for number, count in enumerate(counts, start=1)
    ]
    summary = document["summary"]
    assert (summary["puzzles"], summary["exact"], summary["at_least"]) == (4, 4, 0)
    assert summary["unique"] == counts.count(1) == 3


def test_count_several_files_prints_each_count_and_a_summary() -> None:
    files = [str(PUZZLES / "heart.txt"), str(PUZZLES / "nonunique.txt")]
    run = run_cli("count", *files, "--plain")
    assert run.returncode == 0, run.stderr
    heart, nonunique, summary = run.stdout.splitlines()
    assert heart.startswith(f"{files[0]} 9x9: 1 solution (")
    assert nonunique.startswith(f"{files[1]} 11x15: 43 solutions (")
    assert summary.startswith("2 files: puzzles 2, exact 2, unique 1, none 0, at least 0, ")
    limited = run_cli("count", *files, "--plain", "--limit", "2")
    assert limited.returncode == 0  # a limit the user sets still answers
    assert "11x15: at least 2 solutions (limit) (" in limited.stdout


def test_a_count_batch_cut_short_exits_1_and_a_bad_file_exits_2(tmp_path: Path) -> None:
    files = [str(PUZZLES / "heart.txt"), str(PUZZLES / "castle.txt")]
    run = run_cli("count", *files, "--plain", "--time-limit", "0")
    assert run.returncode == 1
    heart, castle, summary = run.stdout.splitlines()
    assert heart.startswith(f"{files[0]} 9x9: at least 0 solutions (time limit) (")
    assert castle.startswith(f"{files[1]} 60x35: at least 0 solutions (time limit) (")
    assert summary.startswith("2 files: puzzles 2, exact 0, unique 0, none 0, at least 2, ")
    bad = tmp_path / "bad.nin"
    bad.write_text("2 2\n1\n1 x\n1\n1\n")
    run = run_cli("count", str(bad), files[0], "--plain")
    assert run.returncode == 2
    assert run.stderr == f"nonocp: {bad}:3:3: expected a number, found 'x'\n"
    assert run.stdout.splitlines()[0].startswith(f"{files[0]} 9x9: 1 solution (")


def test_a_folder_is_a_batch_of_the_puzzle_files_under_it(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    (folder / "inner").mkdir(parents=True)
    (folder / "heart.txt").write_text((PUZZLES / "heart.txt").read_text())
    (folder / "inner" / "nonunique.txt").write_text((PUZZLES / "nonunique.txt").read_text())
    (folder / "heart.solution.txt").write_text("not read: a tournament set's solutions\n")
    (folder / "notes.md").write_text("not read: no format has this extension\n")
    run = run_cli("count", str(folder), "--plain")
    assert run.returncode == 0, run.stderr
    heart, nonunique, summary = run.stdout.splitlines()
    assert heart.startswith(f"{folder / 'heart.txt'} 9x9: 1 solution (")
    assert nonunique.startswith(f"{folder / 'inner' / 'nonunique.txt'} 11x15: 43 solutions (")
    assert summary.startswith("2 files: puzzles 2, exact 2, unique 1, ")
    solutions = str(folder / "heart.solution.txt")
    run = run_cli("solve", str(folder), "--solutions", solutions)  # two files, once expanded
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "nonocp: --solutions takes one puzzle file, not several\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    run = run_cli("solve", str(empty))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"nonocp: {empty}: no puzzle files in this folder\n"
    run = run_cli("solve", str(empty), str(PUZZLES / "heart.txt"), "--json")  # goes on past it
    assert (run.returncode, run.stderr) == (2, f"nonocp: {empty}: no puzzle files in this folder\n")
    document = json.loads(run.stdout)
    assert document["unreadable"] == [f"{empty}: no puzzle files in this folder"]
    assert [p["uniqueness"] for p in document["puzzles"]] == ["unique"]


def unprivileged() -> list[str]:
    """A command prefix under which file permissions hold even for root, who reads any
    file; the test is skipped where there is no such prefix."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root reads every file, and setpriv is not here to drop that")
    dropped = "-dac_override,-dac_read_search"
    return [setpriv, f"--bounding-set={dropped}", f"--inh-caps={dropped}", "--"]


def test_a_file_that_cannot_be_read_is_one_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    locked, shut = tmp_path / "locked.txt", tmp_path / "shut"
    locked.write_text((PUZZLES / "heart.txt").read_text())
    shut.mkdir()
    (shut / "heart.txt").write_text((PUZZLES / "heart.txt").read_text())
    locked.chmod(0)
    shut.chmod(0)
    try:
        prefix = [*unprivileged(), *nonocp_command()]
        for args, message in [
            ([locked], f"{locked}: Permission denied"),
            ([shut / "heart.txt"], f"{shut / 'heart.txt'}: Permission denied"),
            ([shut], f"{shut}: Permission denied"),
        ]:
            command = [*prefix, "solve", *map(str, args)]
            run = subprocess.run(command, capture_output=True, text=True)
            assert (run.returncode, run.stderr) == (2, f"nonocp: {message}\n")
        both = [*prefix, "solve", str(locked), str(PUZZLES / "heart.txt"), "--plain"]
        run = subprocess.run(both, capture_output=True, text=True)
        assert (run.returncode, run.stderr) == (2, f"nonocp: {locked}: Permission denied\n")
        assert run.stdout.startswith("2 files: puzzles 1, solved 1, unique 1, ")
    finally:
        shut.chmod(0o755)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs a device that never ends")
def test_input_that_never_ends_is_refused_once_past_any_puzzle_files_size() -> None:
    run = run_cli("solve", "/dev/zero")
    assert run.returncode == 2
    assert run.stderr == "nonocp: /dev/zero: over 64 MiB: not a puzzle file\n"


def test_generate_names_a_file_it_cannot_write_and_a_format_too_small_up_front(
    tmp_path: Path,
) -> None:
    nowhere = tmp_path / "no" / "such.json"
    run = run_cli("generate", "--out", str(nowhere))
    assert (run.returncode, run.stderr) == (2, f"nonocp: {nowhere}: No such file or directory\n")
    run = run_cli("generate", "--count", "2", "--to", "nin", "--unique")
    assert run.returncode == 2
    assert run.stderr.startswith("nonocp: --to nin holds one puzzle: use --count 1, or ")


def test_generate_unique_keeps_exactly_the_puzzles_with_one_solution() -> None:
    run = run_cli("generate", "--size", "5x4", "--count", "4", "--unique", "--to", "nonpack")
    said = re.fullmatch(r"kept 4 unique of (\d+) tried \(seeds 1-\1\)\n", run.stderr)
    assert run.returncode == 0 and said is not None
    tried = [random_puzzle(5, 4, 0.5, seed) for seed in range(1, int(said[1]) + 1)]
    unique = [p for p in tried if len(all_solutions(p)) == 1]
    assert len(unique) == 4 and len(all_solutions(tried[-1])) == 1
    assert pack_puzzles(run.stdout) == unique


def test_convert_never_writes_over_the_file_it_converts(tmp_path: Path) -> None:
    heart = tmp_path / "heart.txt"
    heart.write_text((PUZZLES / "heart.txt").read_text())
    for out in (str(heart), f"{tmp_path}/./heart.txt"):
        run = run_cli("convert", str(heart), out, "--to", "json")
        assert run.returncode == 2
        assert run.stderr == f"nonocp: {out}: is the file being converted; write to another\n"
    assert heart.read_text() == (PUZZLES / "heart.txt").read_text()


def test_convert_never_writes_over_a_file_of_the_folder_it_converts(tmp_path: Path) -> None:
    shutil.copy(PUZZLES / "heart.txt", tmp_path)
    pack = tmp_path / "all.nonpack"
    assert run_cli("convert", str(tmp_path), str(pack)).returncode == 0  # not yet among them
    written = pack.read_text()
    run = run_cli("convert", str(tmp_path), str(pack))
    assert run.returncode == 2
    assert run.stderr == f"nonocp: {pack}: is inside {tmp_path}, being converted; write elsewhere\n"
    assert pack.read_text() == written
    solutions = tmp_path / "set.solution.txt"  # not a puzzle file, but a set's solutions
    solutions.write_text("kept")
    assert run_cli("convert", str(tmp_path), str(solutions), "--to", "taai").returncode == 2
    assert solutions.read_text() == "kept"
    heart = tmp_path / "heart.txt"
    with heart.open() as given:  # the file itself as standard input: < heart.txt
        run = run_cli("convert", "-", str(heart), "--to", "non", stdin=given)
    assert (run.returncode, run.stderr) == (
        2,
        f"nonocp: {heart}: is standard input, being converted; write to another\n",
    )
    assert heart.read_text() == (PUZZLES / "heart.txt").read_text()


def test_a_solution_file_of_other_puzzles_or_of_none_is_refused(tmp_path: Path) -> None:
    clues, solutions = tournament_set(tmp_path, PICTURES)
    heart = str(PUZZLES / "heart.txt")
    run = run_cli("solve", heart, "--solutions", str(solutions))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"nonocp: {solutions}: the solution to puzzle #1 is 3x3, the puzzle 9x9\n"
    run = run_cli("solve", str(clues), "--solutions", heart)
    assert (run.returncode, run.stderr) == (2, f"nonocp: {heart}: holds no solutions\n")


def test_check_says_when_there_is_no_stored_solution() -> None:
    run = run_cli("solve", str(PUZZLES / "heart.txt"), "--check", "--plain")
    assert run.returncode == 0
    assert run.stdout.splitlines()[-1] == "no stored solution to compare with"


def test_a_puzzle_picked_from_a_set_is_called_by_its_number(tmp_path: Path) -> None:
    clues, _ = tournament_set(tmp_path, PICTURES)
    run = run_cli("solve", str(clues), "--name", "2", "--plain")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith(f"{clues} ($2) 3x3: unique (")
    counted = run_cli("count", str(clues), "--index", "3", "--json")
    document = json.loads(counted.stdout)
    assert (document["puzzle"], document["title"]) == ("$3", None)  # no title made up
    both = run_cli("solve", str(clues), "--index", "3", "--name", "2")
    assert both.returncode == 2
    assert both.stderr == "nonocp: pick a puzzle by --index or by --name, not both\n"


def test_index_picks_a_batch_of_a_set_in_the_order_given(tmp_path: Path) -> None:
    clues, _ = tournament_set(tmp_path, PICTURES)
    run = run_cli("count", str(clues), "--index", "3,1-2", "--json")
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    assert [p["puzzle"] for p in document["puzzles"]] == ["$3", "$1", "$2"]
    counts = [len(all_solutions(Puzzle.from_grid(PICTURES[at]))) for at in (2, 0, 1)]
    assert [p["count"] for p in document["puzzles"]] == counts


def test_a_batch_line_names_a_titled_puzzle_once(tmp_path: Path) -> None:
    pack = tmp_path / "two.nonpack"
    titled = [replace(puzzle_of(p), title=f"P{n}") for n, p in enumerate(PICTURES[:2])]
    pack.write_text(non.write(titled))
    run = run_cli("analyze", str(pack), "--plain")
    assert [line.split(":")[0] for line in run.stdout.splitlines()[:2]] == ["P0 3x3", "P1 3x3"]
    one = tmp_path / "one.non"
    one.write_text(non.write([replace(puzzle_of(PICTURES[2]), title="P2")]))
    run = run_cli("count", str(pack), str(one), "--plain")
    assert [line.split(":")[0] for line in run.stdout.splitlines()[:3]] == [
        f"{pack} (P0) 3x3",
        f"{pack} (P1) 3x3",
        f"{one} (P2) 3x3",
    ]


def test_picks_keep_their_places_in_the_file(tmp_path: Path) -> None:
    """Untitled puzzles picked out of order are labelled, and paired with their stored
    solutions, by their places in the file, not in the pick."""
    pack = tmp_path / "three.nonpack"
    assert run_cli("generate", "--size", "4x3", "--count", "3", "--out", str(pack)).returncode == 0
    untitled = [replace(p, title=None) for p in pack_puzzles(pack.read_text())]
    pack.write_text(non.write(untitled))
    run = run_cli("count", str(pack), "--index", "3,1", "--json")
    assert [p["puzzle"] for p in json.loads(run.stdout)["puzzles"]] == ["#3", "#1"]
    for picked in (["--index", "3,2"], ["--index", "3"], ["--name", "#2"]):
        run = run_cli("solve", str(pack), *picked, "--solutions", str(pack), "--plain")
        assert "MISMATCH" not in run.stdout and run.returncode == 0, run.stdout + run.stderr
    converted = run_cli("convert", str(pack), "-", "--to", "non", "--index", "2")
    assert converted.returncode == 0 and "title" not in converted.stdout


def test_generate_writes_out_s_format_and_checks_out_before_the_proofs(tmp_path: Path) -> None:
    nin = tmp_path / "one.nin"
    assert run_cli("generate", "--size", "4x3", "--out", str(nin)).returncode == 0
    assert run_cli("solve", str(nin), "--plain").returncode == 0  # .nin, not JSON
    run = run_cli("generate", "--count", "2", "--out", str(nin))
    assert run.stderr.startswith(f"nonocp: {nin} (nin) holds one puzzle: use --count 1, or ")
    nowhere = tmp_path / "no" / "such.nonpack"
    run = run_cli("generate", "--size", "99x99", "--unique", "--out", str(nowhere))
    assert (run.returncode, run.stderr) == (2, f"nonocp: {nowhere}: No such file or directory\n")
    run = run_cli("generate", "--size", "5x5", "--unique", "--out", "-", cwd=tmp_path)
    assert json.loads(run.stdout)["title"].startswith("random 5x5 density 0.5 seed ")
    assert not (tmp_path / "-").exists()
    run = run_cli("generate", "--unique", "--time-limit", "0")
    assert (run.returncode, run.stderr) == (
        2,
        "nonocp: --time-limit 0 leaves no time to prove a puzzle unique\n",
    )


def test_a_pack_reports_its_bad_puzzle_and_solves_the_others(tmp_path: Path) -> None:
    """One puzzle of a tournament set that cannot be read (a clue too long for its line)
    is reported where the file writes it, and costs none of the others."""
    heart = load(PUZZLES / "heart.txt")
    broken = replace(heart, columns=((5, 4), *heart.columns[1:]))
    pack = tmp_path / "set.txt"
    pack.write_text(taai.write([heart, broken, heart]))
    error = f"nonocp: {pack}:21:1: column clue 5,4 needs 10 cells but a column has only 9\n"
    run = run_cli("solve", str(pack), "--plain")
    assert (run.returncode, run.stderr) == (2, error)
    assert run.stdout.splitlines()[-1].startswith(f"{pack}: puzzles 2, solved 2, unique 2, ")
    as_json = json.loads(run_cli("count", str(pack), "--json").stdout)
    assert [p["puzzle"] for p in as_json["puzzles"]] == ["$1", "$3"]
    assert as_json["unreadable"] == [error.removeprefix("nonocp: ").rstrip()]
    picked = run_cli("solve", str(pack), "--index", "3", "--plain")
    assert (picked.returncode, picked.stderr) == (0, "")
    for bad in (["--index", "2"], ["--name", "#2"], ["--index", "1-2"]):
        assert run_cli("solve", str(pack), *bad, "--plain").stderr == error
    unnamed = run_cli("solve", str(pack), "--name", "$2").stderr
    assert unnamed == f"nonocp: {pack} holds no puzzle named '$2' among the 2 that could be read\n"
    pack.write_text(taai.write([heart, broken, broken]))  # one puzzle left: still a batch
    lone = json.loads(run_cli("count", str(pack), "--json").stdout)
    assert [p["puzzle"] for p in lone["puzzles"]] == ["$1"] and len(lone["unreadable"]) == 2
    pack.write_text(taai.write([heart, broken, heart]))
    kept = tmp_path / "kept.txt"
    converted = run_cli("convert", str(pack), str(kept), "--to", "taai")
    assert converted.stderr.splitlines()[-1] == (
        f"nonocp: wrote 2 puzzles to {kept}, without the 1 puzzle that could not be read"
    )
    assert [p.extra for p in load_all(kept)] == [(("number", "1"),), (("number", "3"),)]


def test_version() -> None:
    run = run_cli("--version")
    assert run.returncode == 0
    assert run.stdout.startswith("nonocp ") and run.stdout.count("\n") == 1


def test_convert_says_what_it_wrote_without_the_files_it_could_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(PUZZLES / "heart.txt", folder)
    (folder / "broken.non").write_text("width 2\n")
    pack = tmp_path / "all.nonpack"
    run = run_cli("convert", str(folder), str(pack))
    assert run.returncode == 2
    named, said = run.stderr.splitlines()
    assert named.startswith(f"nonocp: {folder / 'broken.non'}:")
    assert said == f"nonocp: wrote 1 puzzle to {pack}, without the 1 file that could not be read"
    assert len(pack_puzzles(pack.read_text())) == 1


def test_a_title_is_printed_as_written_on_one_line_even_on_a_terminal(tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    title = "a [/] :smile: b\nc\x1b[31m\u2028"  # markup, an emoji code, line breaks, ESC
    odd.write_text(json.dumps({"title": title, "rows": [[1]], "columns": [[1]]}))
    terminal = {**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": "200"}
    run = run_cli("solve", str(odd), env=terminal)  # "[/]" is rich markup, and was read so
    assert run.returncode == 0, run.stderr
    shown = "a [/] :smile: b\\nc\\x1b[31m\\u2028"
    assert f"{odd} ({shown}) 1x1: unique (" in run.stdout
    batch = run_cli("count", str(odd), str(odd), "--plain").stdout.splitlines()
    assert batch[0].startswith(f"{odd} ({shown}) 1x1: 1 solution (") and len(batch) == 3


def test_a_batch_s_lines_go_to_standard_output_while_its_progress_bar_is_on_a_terminal(
    tmp_path: Path,
) -> None:
    """Lines printed while rich's bar is live went to its console, standard error."""
    terminal, _ = pty.openpty()
    files = [str(PUZZLES / "nonunique.txt"), str(PUZZLES / "heart.txt")]
    env = {**os.environ, "TTY_COMPATIBLE": "1"}
    run = subprocess.run(
        [*nonocp_command(), "solve", *files, "--plain"],
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env,
        text=True,
        timeout=300,
        check=False,
    )
    os.close(terminal)
    named, summary = run.stdout.splitlines()
    assert named.startswith(f"{files[0]} 11x15: not unique") and summary.startswith("2 files: ")
