"""The Gecode/R reader: every variant found in the wild, and located errors for bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonocp.errors import InputError
from nonocp.formats import load

from conftest import PUZZLES, run_cli

HEART_ROWS = ((2, 2), (4, 4), (1, 3, 1), (2, 1, 2), (1, 1), (2, 2), (2, 2), (3,), (1,))


def write(tmp_path: Path, text: str | bytes, name: str = "p.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, newline="")
    else:
        path.write_bytes(text)
    return path


def test_heart_loads_with_its_clues() -> None:
    heart = load(PUZZLES / "heart.txt")
    assert heart.rows == HEART_ROWS
    assert heart.size == "9x9"


@pytest.mark.parametrize(
    "text",
    [
        "row_rules\n1\n1,1\ncol_rules\n2\n0\n1\n",
        "row_rules   \n1,\n1, 1,\n\ncol_rules\n2,\n0\n1,\n",
        "row_rules:\n1\n1,1\n\ncol_rules:\n2\n0\n1\n",
        "# comment\n% another\nrow_rules # trailing\n1\n\n  \n1 , 1\ncol_rules\n2\n0\n1",
        "row_rules\r\n1\r\n1,1\r\n\r\ncol_rules\r\n2\r\n0\r\n1\r\n",
        "col_rules\n2\n0\n1\nrow_rules\n1\n1,1\n",
        "\n\n   \nrow_rules\n\n1\n   \n1,1,\n\n\ncol_rules\n\n2\n0,\n1\n\n\n",
        "row_rules\n1\n1,1\ncol_rules\n2\n\t0\n1\n",
    ],
    ids=[
        "plain",
        "spaces-and-trailing-commas",
        "colons",
        "comments-blank-lines-no-final-newline",
        "crlf",
        "columns-first",
        "blank-lines-inside-sections",
        "tab-indent",
    ],
)
def test_accepted_variants(tmp_path: Path, text: str) -> None:
    puzzle = load(write(tmp_path, text))
    assert puzzle.rows == ((1,), (1, 1))
    assert puzzle.columns == ((2,), (), (1,))


def test_every_shared_gecoder_file_matches_the_copy_in_puzzles(shared: Path) -> None:
    for original in sorted((shared / "puzzles" / "gecoder").glob("*.txt")):
        copy = PUZZLES / original.name.removeprefix("nonogram_")
        assert load(original) == load(copy)


MALFORMED: dict[str, tuple[str | bytes, str]] = {
    "missing-columns": ("row_rules\n1\n", "3:1: missing col_rules section"),
    "missing-rows": ("col_rules\n1\n", "missing row_rules section"),
    "letter-in-clue": ("row_rules\n1,x\ncol_rules\n1\n", "2:3: expected"),
    "negative-number": ("row_rules\n-1\ncol_rules\n1\n", "2:1: block lengths cannot be negative"),
    "clue-too-long": ("row_rules\n 1,1\ncol_rules\n1\n1\n", "2:2: row clue 1,1 needs 3 cells"),
    "unequal-totals": ("row_rules\n1\ncol_rules\n1\n1\n", "4:1: the row clues fill 1 cell but"),
    "no-rows": ("row_rules\ncol_rules\n0\n", "1:1: row_rules section has no clues: a puzzle"),
    "no-columns": ("row_rules\n0\n\n col_rules\n", "4:2: col_rules section has no clues"),
    "empty-file": ("", "1:1: expected"),
    "only-comments": ("# nothing here\n", "expected"),
    "binary-garbage": (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "1:1: expected UTF-8 text, found"),
    "bom-then-latin-1": (
        b"\xef\xbb\xbfrow_rules\n1 \xe9\n",
        "2:3: expected UTF-8 text, found the byte 0xe9",
    ),
    "latin-1": (
        b"row_rules\n1\ncol_rules\n1\n# caf\xe9\n",
        "5:6: expected UTF-8 text, found the byte 0xe9",
    ),
    "double-section": ("row_rules\n1\nrow_rules\n1\ncol_rules\n1\n", "3:1: second row_rules"),
    "unknown-header": ("rows\n1\ncol_rules\n1\n", "1:1: expected"),
    "number-then-text": ("row_rules\n1 2\ncol_rules\n1\n", "2:3: expected"),
    "semicolon": ("row_rules\n1;1\ncol_rules\n1\n", "2:2: expected"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_file_is_one_located_line_exit_2(tmp_path: Path, name: str) -> None:
    text, expected = MALFORMED[name]
    path = write(tmp_path, text)
    with pytest.raises(InputError) as error:
        load(path)
    assert expected in str(error.value)
    assert str(error.value).startswith(str(path))


@pytest.mark.parametrize("name", ["letter-in-clue", "unequal-totals", "binary-garbage"])
def test_malformed_file_through_the_cli(tmp_path: Path, name: str) -> None:
    text, expected = MALFORMED[name]
    path = write(tmp_path, text)
    for command in ("solve", "count"):
        run = run_cli(command, str(path))
        assert run.returncode == 2
        assert run.stderr.count("\n") == 1, run.stderr
        assert expected in run.stderr
        assert "Traceback" not in run.stderr
