"""``nonocp convert`` through the installed entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonocp.errors import NonocpError
from nonocp.formats import dumps, load_all
from nonocp.puzzle import Puzzle

from conftest import PUZZLES, run_cli

DANCER = """\
catalogue "webpbn.com #1"
title "Dancer"
by "Jan Wolter"
copyright "&copy; Copyright 2004 by Jan Wolter"
license CC-BY-3.0
width 5
height 10

rows
2
2,1
1,1
3
1,1
1,1
2
1,1
1,2
2

columns
2,1
2,1,3
7
1,3
2,1

goal "01100011010010101110101001010000110010100101111000"
"""

TWO_TAAI = "$16\n" + "1\n" * 4 + "$17\n" + "0\n1\n0\n1\n"


def test_converting_through_every_metadata_format_keeps_what_each_holds(tmp_path: Path) -> None:
    source = tmp_path / "dancer.non"
    source.write_text(DANCER)
    (original,) = load_all(source)
    chain = ["dancer.json", "dancer.xml", "dancer.nonpack"]
    previous = source
    for name in chain:
        run = run_cli("convert", str(previous), str(tmp_path / name))
        assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
        previous = tmp_path / name
    (json_copy,) = load_all(tmp_path / "dancer.json")
    (last,) = load_all(previous)
    assert json_copy == original
    # webpbn XML has no place for a licence or a catalogue entry; the rest survives
    assert (last.rows, last.columns, last.solution) == (
        original.rows,
        original.columns,
        original.solution,
    )
    assert (last.title, last.author, last.copyright) == ("Dancer", "Jan Wolter", original.copyright)
    assert original.copyright == "© Copyright 2004 by Jan Wolter"


def test_standard_output_with_to_and_one_puzzle_picked_by_name(tmp_path: Path) -> None:
    source = tmp_path / "set.txt"
    source.write_text(TWO_TAAI)
    run = run_cli("convert", str(source), "-", "--to", "nin", "--name", "17")
    assert run.returncode == 0
    assert run.stdout == "2 2\n0\n1\n0\n1\n"
    by_index = run_cli("convert", str(source), "-", "--to", "nin", "--index", "2")
    assert by_index.stdout == run.stdout


def test_the_heart_converts_to_the_txt_formats_and_is_recognised(tmp_path: Path) -> None:
    (heart,) = load_all(PUZZLES / "heart.txt")
    for name in ("taai", "keen"):
        out = tmp_path / name / "heart.txt"
        out.parent.mkdir()
        run = run_cli("convert", str(PUZZLES / "heart.txt"), str(out), "--to", name)
        assert run.returncode == 0, run.stderr
        assert out.read_text() == dumps([heart], name)
        (again,) = load_all(out)
        assert (again.rows, again.columns) == (heart.rows, heart.columns)


def test_format_option_reads_an_unknown_extension(tmp_path: Path) -> None:
    source = tmp_path / "puzzle.dat"
    source.write_text("1\n\n1\n")
    run = run_cli("convert", str(source), "-", "--format", "keen", "--to", "nin")
    assert (run.returncode, run.stdout) == (0, "1 1\n1\n1\n")


def test_usage_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    source = tmp_path / "set.txt"
    source.write_text(TWO_TAAI)
    cases = {
        ("convert", str(source), str(tmp_path / "out.nin")): "the nin format holds one puzzle",
        ("convert", str(source), str(tmp_path / "out.bin")): "cannot tell which format",
        ("convert", str(source), "-"): "cannot tell which format to write to standard output",
        ("convert", str(source), "-", "--to", "png"): "unknown format",
        ("convert", str(source), str(tmp_path / "no" / "dir.json")): "No such file or directory",
        ("convert", str(source), "-", "--to", "json", "--index", "3"): "there is no puzzle 3",
    }
    for args, message in cases.items():
        run = run_cli(*args)
        assert run.returncode == 2, args
        assert run.stderr.startswith("nonocp: ") and message in run.stderr, run.stderr
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_several_files_and_a_folder_become_one_file_of_many_puzzles(tmp_path: Path) -> None:
    names = ("heart", "bear", "nonunique")
    files = [PUZZLES / f"{name}.txt" for name in names]
    originals = [puzzle for file in files for puzzle in load_all(file)]
    pack = tmp_path / "three.nonpack"
    run = run_cli("convert", *map(str, files), str(pack))
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    assert [(p.rows, p.columns) for p in load_all(pack)] == [(p.rows, p.columns) for p in originals]
    folder = tmp_path / "folder"
    folder.mkdir()
    for file in files:
        (folder / file.name).write_text(file.read_text())
    bad = folder / "zz-bad.nin"
    bad.write_text("2 2\n1\n1 x\n1\n1\n")
    out = tmp_path / "folder.json"
    run = run_cli("convert", str(folder), str(out))
    assert run.returncode == 2  # for the file it could not read, named on standard error
    assert run.stderr.splitlines() == [
        f"nonocp: {bad}:3:3: expected a number, found 'x'",
        f"nonocp: wrote 3 puzzles to {out}, without the 1 file that could not be read",
    ]
    in_name_order = [originals[i] for i in (1, 0, 2)]  # bear, heart, nonunique
    assert [(p.rows, p.columns) for p in load_all(out)] == [
        (p.rows, p.columns) for p in in_name_order
    ]


def test_a_taai_file_refuses_a_puzzle_not_square_or_not_the_first_s_size() -> None:
    wide, small, large = (Puzzle.from_grid(g) for g in ([[1, 0]], [[1]], [[1, 0], [0, 1]]))
    with pytest.raises(NonocpError, match=r"^puzzle #1 is 2x1: a TAAI file holds square puzzles$"):
        dumps([wide], "taai")
    with pytest.raises(NonocpError, match=r"puzzle #2 is 2x2: .* one size \(the first is 1x1\)"):
        dumps([small, large], "taai")
