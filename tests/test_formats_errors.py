"""Malformed files of every format: one line naming file, line, column and what was expected."""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp.errors import InputError, NonocpError
from nonocp.formats import (
    FORMATS,
    ZERO_BESIDE,
    Format,
    by_name,
    dumps,
    load,
    load_all,
    load_each,
)
from nonocp.puzzle import Puzzle

from conftest import PUZZLES, Picture, random_grids, run_cli

TAAI_2X2 = "$1\n1\n1\n1\n1\n"
"""One 2x2 TAAI puzzle: two column clues, then two row clues."""

DIGITS_ONLY = "expected a number of at most 9 digits"

MALFORMED = {
    # name: (file name, content, expected "line:column: message" after the file name)
    "nin-truncated": ("p.nin", "3 3\n1\n1\n", "4:1: expected more clue lines: the header says"),
    "nin-header-short": ("p.nin", "2 2\n1\n1\n1\n1\n1\n", "6:1: expected end of file"),
    "nin-bad-header": ("p.nin", "3 x\n1\n", "1:1: expected 'WIDTH HEIGHT', found '3 x'"),
    "nin-letter": ("p.nin", "2 2\n1\n1 a\n1\n1\n", "3:3: expected a number, found 'a'"),
    "nin-clue-too-long": ("p.nin", "2 2\n3\n1\n1\n1\n", "2:1: row clue 3 needs 3 cells"),
    "nin-empty": ("p.nin", "\n\n", "1:1: expected a puzzle, found an empty file"),
    "gecode-blank": ("p.txt", " \n\t\n", "1:1: expected a puzzle, found an empty file"),
    "non-truncated": (
        "p.non",
        "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n",
        "8:1: expected 2 column clue lines after 'columns' (line 6), found 1",
    ),
    "non-second-title": (  # the second would silently replace the first
        "p.non",
        'title "A"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n title "B"\n',
        "8:1: second title (the first is at line 1)",
    ),
    "non-second-goal": (
        "p.non",
        "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 1\ngoal 0\n",
        "8:1: second goal (the first is at line 7)",
    ),
    "non-too-many-rows": (
        "p.non",
        "width 2\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n",
        "6:1: expected a key such as columns or goal, found a clue line: 'rows' already has",
    ),
    "non-too-few-rows": (
        "p.non",
        "width 2\nheight 3\nrows\n1\n1\ncolumns\n1\n1\n",
        "6:1: expected 3 row clue lines after 'rows' (line 3), found 2",
    ),
    "non-letter": (
        "p.non",
        "width 2\nheight 2\nrows\n1\n1,,1\ncolumns\n1\n1\n",
        "5:3: expected a number, found ','",
    ),
    "non-missing-columns": ("p.non", "width 1\nheight 1\nrows\n1\n", "5:1: expected a 'columns'"),
    "non-size-after-rows": ("p.non", "rows\n1\n", "1:1: expected 'width N' and 'height N'"),
    "non-bad-width": ("p.non", "width two\n", "1:1: expected a number after width, found 'two'"),
    "non-goal-length": (
        "p.non",
        'width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "100"\n',
        "8:1: goal has 3 cells, expected 2",
    ),
    "non-goal-letter": (
        "p.non",
        'width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "1x"\n',
        "8:8: expected 0 or 1 in goal, found 'x'",
    ),
    "non-colour-letters": (
        "p.non",
        "width 2\nheight 1\nrows\n1r,1b\ncolumns\n1\n1\n",
        "4:2: colour puzzles are not supported (colour letter 'r')",
    ),
    "non-colour-key": (
        "p.non",
        "color r #ff0000\nwidth 1\nheight 1\n",
        "1:1: colour puzzles are not supported",
    ),
    "nonpack-second-puzzle": (
        "p.nonpack",
        "width 1\nheight 1\nrows\n1\ncolumns\n1\n====\nwidth 1\nheight 1\nrows\nx\n",
        "11:1: expected a number, found 'x'",
    ),
    "taai-block-with-24-rows": (
        "p.txt",
        "$1\n" + "1\n" * 50 + "$2\n" + "1\n" * 49 + "$3\n" + "1\n" * 50,
        "102:1: puzzle $2 ends after 49 lines: expected 25 column clues then 25 row clues",
    ),
    "taai-block-too-long": (
        "p.txt",
        TAAI_2X2 + "$2\n1\n1\n1\n1\n1\n" + TAAI_2X2.replace("$1", "$3"),
        "11:1: expected the next '$' line: puzzle $2 already has 2 column clues",
    ),
    "taai-odd-lines": ("p.txt", "$1\n1\n1\n1\n", "1:1: puzzle $1 has 3 clue lines"),
    "taai-letter": ("p.txt", "$1\n1\n1\t1x\n1\n1\n", "3:3: expected a number, found '1x'"),
    "taai-bad-marker": ("p.txt", TAAI_2X2 + "$x\n", "6:1: expected '$' and a puzzle number"),
    "taai-duplicate": ("p.txt", TAAI_2X2 + TAAI_2X2, "6:1: puzzle $1 appears twice"),
    "taai-crlf-clue-too-long": (
        "p.txt",
        "$1\r\n1\t1\r\n1\r\n1\r\n1\r\n",
        "2:1: column clue 1,1 needs 3 cells but a column has only 2",
    ),
    "taai-solution-cell": (
        "p.txt",
        "$1\n0\t1\n1\t2\n",
        "3:3: expected 0 or 1, found '2'",
    ),
    "taai-solution-cut-short": (
        "p.txt",
        "$1\n0\t1\n1\t0\n$2\n1\t0\n0\t1\n$3\n0\t1\n",
        "7:1: the picture of $3 is 2x1, the file's others 2x2",
    ),
    "taai-solution-ragged": (
        "p.txt",
        "$1\n0\t1\n1\t0\t1\n",
        "3:1: expected 2 cells like the first row of $1, found 3",
    ),
    "keen-no-blank-line": ("p.txt", "1\n1\n1\n1\n", "5:1: expected a blank line and then"),
    "keen-three-blocks": ("p.txt", "1\n\n1\n\n1\n", "5:1: expected end of file"),
    "keen-letter": ("p.txt", "1\n1 b\n\n2\n", "2:3: expected a number, found 'b'"),
    "keen-negative": ("p.txt", "1\n-1\n\n1\n", "2:1: block lengths cannot be negative"),
    "json-syntax": ("p.json", '{"rows": [[1]],\n "columns": [[1]', "2:17: invalid JSON"),
    "json-letter": (
        "p.json",
        '{"rows": [[1]], "columns": [["a"]]}',
        "1:30: columns[0][0]: expected a whole number >= 0",
    ),
    "json-missing-columns": (
        "p.json",
        '{"rows": [[1]]}',
        "1:1: top level: expected a 'columns' key",
    ),
    "json-no-rows": (  # consistent otherwise: nothing is too long, and nothing is filled
        "p.json",
        '{"rows": [], "columns": [[0]]}',
        "1:10: rows: expected a list of clues, found none: a puzzle has at least one row and",
    ),
    "json-misspelt-key": (
        "p.json",
        '{"rows": [], "colums": []}',
        "1:14: top level: unknown key 'colums'",
    ),
    "json-many-bad-solution": (
        "p.json",
        '{"puzzles": [{"rows": [[1]], "columns": [[1]], "solution": [[2]]}]}',
        "1:62: puzzles[0].solution[0][0]: expected 0 or 1, found 2",
    ),
    "xml-truncated": ("p.xml", "<puzzleset><puzzle>\n<clues", "2:1: invalid XML"),
    "xml-no-rows": (
        "p.xml",
        '<puzzleset><puzzle>\n<clues type="columns"><line><count>0</count></line></clues>\n'
        '<clues type="rows">\n</clues>\n</puzzle></puzzleset>\n',
        "3:1: expected a <line> for each of the rows: a puzzle has at least one row and one",
    ),
    "xml-letter": (
        "p.xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line>\n  <count>x</count></line></clues>\n'
        "</puzzle></puzzleset>\n",
        "3:3: expected a number in <count>, found 'x'",
    ),
    "xml-no-break-space": (  # not a blank around a number, as it would be to str.strip
        "p.xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line>\n  <count>&#160;1</count></line>'
        '</clues>\n<clues type="columns"><line><count>1</count></line></clues>\n'
        "</puzzle></puzzleset>\n",
        "3:3: expected a number in <count>, found '\\xa01'",
    ),
    "xml-comma-in-a-count": (  # one count's text is one number, however counts are joined
        "p.xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line>\n  <count>1,0</count></line>'
        '</clues>\n<clues type="columns"><line><count>1</count></line></clues>\n'
        "</puzzle></puzzleset>\n",
        "3:3: expected a number in <count>, found '1,0'",
    ),
    "xml-image-of-another-width": (  # written out as a .non goal, it would not read back
        "p.xml",
        '<puzzleset><puzzle>\n<clues type="columns"><line><count>1</count></line></clues>\n'
        '<clues type="rows"><line><count>1</count></line></clues>\n'
        "<solution><image>\n|X.|\n</image></solution></puzzle></puzzleset>\n",
        "5:1: expected 1 cell (the puzzle's width) in an image row, found 2",
    ),
    "json-long-number": (
        "p.json",
        '{"rows": [[1000000000]], "columns": [[1]]}',
        "1:12: rows[0][0]: expected a number of at most 9 digits",
    ),
    "json-solution-of-another-height": (
        "p.json",
        '{"rows": [[1]], "columns": [[1]], "solution": [[1], [0]]}',
        "1:47: solution: expected 1 row (the puzzle's height), found 2",
    ),
    "xml-missing-columns": (
        "p.xml",
        '<puzzleset>\n<puzzle><clues type="rows"><line/></clues></puzzle></puzzleset>',
        '2:1: expected one <clues type="columns">, found none',
    ),
    "xml-colour": (
        "p.xml",
        '<puzzleset><puzzle>\n<color name="red" char="r">f00</color></puzzle></puzzleset>',
        "2:1: colour puzzles are not supported (colour 'red')",
    ),
    "xml-bad-image": (
        "p.xml",
        '<puzzleset><puzzle><clues type="columns"><line><count>1</count></line></clues>\n'
        '<clues type="rows"><line><count>1</count></line></clues>\n'
        "<solution><image>\n|X|\n|#|\n</image></solution></puzzle></puzzleset>",
        "5:1: expected an image row",
    ),
    "xml-unknown-entity": ("p.xml", "<puzzleset>\n<title>&bogus;</title>", "2:8: unknown entity"),
    "non-holding-json": (
        "p.non",
        '{"rows": [[1]],\n "columns": [[1]]}\n',
        "3:1: expected a 'width' line (the file reads as json: --format json)",
    ),
    "nin-holding-keen": (
        "p.nin",
        "1\n1\n\n2\n",
        "1:1: expected 'WIDTH HEIGHT', found '1' (the file reads as keen: --format keen)",
    ),
    "inconsistent-taai-puzzle": (
        "p.txt",
        TAAI_2X2 + "$2\n2\n1\n1\n1\n",
        "7:1: the row clues fill 2 cells but the column clues fill 3 (the column clues start here)",
    ),
    # Found by fuzzing: numbers Python will not convert, sizes past any index, nesting past
    # the recursion limit, quoted line breaks, and blank lines that made a regular
    # expression's failure take exponential time (each case runs in milliseconds now).
    "keen-huge-number": ("p.txt", "9" * 4301 + "\n\n1\n", f"1:1: {DIGITS_ONLY}, found '99999"),
    "nin-huge-header": ("p.nin", "9" * 4301 + " 1\n", "1:1: expected 'WIDTH HEIGHT', found '999"),
    "non-huge-width": ("p.non", "width " + "9" * 4301, f"1:1: {DIGITS_ONLY} after width"),
    "non-height-past-any-index": (
        "p.non",
        "width 1\nheight 9223372036854775808\nrows\n",
        f"2:1: {DIGITS_ONLY} after height",
    ),
    "gecode-huge-number": ("p.txt", "row_rules\n" + "9" * 4301, f"2:1: {DIGITS_ONLY}, found '9"),
    "xml-huge-count": (
        "p.xml",
        "<puzzle><clues type='rows'><line><count>"
        + "9" * 4301
        + "</count></line></clues></puzzle>",
        f"1:34: {DIGITS_ONLY} in <count>",
    ),
    "json-huge-number": ("p.json", "9" * 4301, "1:1: invalid JSON: a number of over 4,300 digits"),
    "json-huge-number-after-long-digits-in-text": (
        "p.json",
        '{"title": "\\"' + "9" * 4301 + '",\n "rows": [[1.' + "9" * 4301 + "], [-" + "9" * 4301,
        "2:4319: invalid JSON: a number of over 4,300 digits",
    ),
    "json-nested-too-deeply": (
        "p.json",
        '{"rows": [[1]],\n "columns": ' + "[" * 1000,
        "2:1012: invalid JSON: nested too deeply (1001 levels here)",
    ),
    "json-line-break-in-a-key": (
        "p.json",
        '{"rows": [[0]], "columns": [[0]], "extra": {"a\\nb": 0}}',
        "1:53: extra.a\\nb: expected a string, found 0",
    ),
    "json-key-beside-puzzles": (
        "p.json",
        '{"puzzles": [], "colums": []}',
        "1:17: top level: unknown key 'colums' beside 'puzzles'",
    ),
    "json-lone-surrogate": (  # valid JSON, but no UTF-8 file can hold it
        "p.json",
        '{"rows": [[1]], "columns": [[1]], "title": "\\ud800"}',
        '1:44: title: expected text, found the character "\\ud800"',
    ),
    "json-nul-in-an-extra-key": (  # valid JSON, but no text file may hold it
        "p.json",
        '{"rows": [[1]], "columns": [[1]], "extra": {"a": "b", "a\\u0000": "b"}}',
        '1:55: extra: expected text in a key, found the character "\\u0000"',
    ),
    "non-lone-carriage-return": (  # a line break, as an editor shows it
        "p.non",
        "width 1\r2\n",
        "2:1: expected a key such as columns or goal, found a clue line",
    ),
    "non-goal-zero-width": (
        "p.non",
        "width 0\nheight 0\nrows\ncolumns\ngoal\n",
        "1:1: width 0: a puzzle has at least one row and one column",
    ),
    "nin-size-zero": ("p.nin", "3 0\n1\n", "1:1: size 3x0: a puzzle has at least one row"),
    "taai-no-clue-lines": ("p.txt", "$1\n$2\n", "1:1: puzzle $1 has no clue lines: a puzzle"),
    "non-goal-by-entity": (
        "p.non",
        "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal &#50;\n",
        "7:1: expected 0 or 1 in goal, found '2'",
    ),
    "nin-blank-lines-then-a-letter": (
        "p.nin",
        "1 25\n" + "  \n" * 24 + "x\n1\n",
        "26:1: expected a number",
    ),
    "non-blank-lines-then-a-letter": (
        "p.non",
        "width 1\nheight 25\nrows\n" + "  \n" * 24 + "x\ncolumns\n1\n",
        "28:1: expected a number, found 'x'",
    ),
    "taai-blank-lines-then-a-letter": (
        "p.txt",
        "$1\n" + "\t\t\n" * 24 + "x\n" + "\n" * 25,
        "26:1: expected a number, found 'x'",
    ),
    "gecode-sniffing-100000-lines": ("p.txt", "x" + "\n" * 100000, "1:1: expected end of line"),
    # a 0 beside other numbers is most likely a typo for 10, which dropping it would hide
    "nin-zero-beside": ("p.nin", "2 2\n1 0\n1\n1\n1\n", f"2:3: {ZERO_BESIDE}"),
    "non-zero-beside": (
        "p.non",
        "width 2\nheight 2\nrows\n1\n0,1\ncolumns\n1\n1\n",
        f"5:1: {ZERO_BESIDE}",
    ),
    "taai-zero-beside": ("p.txt", "$1\n1\n1\n1\t0\n1\n", f"4:3: {ZERO_BESIDE}"),
    "gecode-zero-beside": ("p.txt", "row_rules\n1, 0\ncol_rules\n1\n", f"2:1: {ZERO_BESIDE}"),
    "json-zero-beside": (
        "p.json",
        '{"rows": [[0, 1]], "columns": [[1]]}',
        f"1:12: rows[0][0]: {ZERO_BESIDE}",
    ),
    "webpbn-zero-beside": (
        "p.xml",
        '<puzzleset><puzzle><clues type="columns"><line><count>1</count></line></clues>'
        '<clues type="rows"><line><count>1</count><count>0</count></line></clues>'
        "</puzzle></puzzleset>",
        f"1:120: {ZERO_BESIDE}",  # the <count> of the 0
    ),
}


@pytest.mark.parametrize(("name", "text", "expected"), MALFORMED.values(), ids=list(MALFORMED))
def test_malformed_files_give_one_located_line(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = tmp_path / name
    path.write_text(text, newline="")
    with pytest.raises(NonocpError) as caught:
        load_all(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:{expected}") or message.startswith(f"{path}: {expected}")


def test_a_number_past_the_digit_limit_python_was_started_with_is_placed() -> None:
    """The limit is a setting (``PYTHONINTMAXSTRDIGITS``), so the error finds the number
    by the limit in force and says what it is."""
    text = '{"title": "' + "1" * 700 + '",\n "rows": [[1]], "columns": [[' + "1" * 641 + "]]}"
    default = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        with pytest.raises(InputError) as caught:
            by_name("json").read(text, "p.json")
    finally:
        sys.set_int_max_str_digits(default)
    assert str(caught.value) == "p.json:2:30: invalid JSON: a number of over 640 digits"


def test_a_clue_nested_about_as_deep_as_json_may_go_is_refused_in_one_line() -> None:
    """Parsing and the error showing what was found both recurse, each as deep as the
    value: wherever the parser's limit falls (it depends on the caller's own depth), a
    value just short of it is refused in one line at a line and column, not with a
    RecursionError."""
    json_format = by_name("json")
    for depth in range(500, 1001):
        text = '{"rows": [[' + "[" * depth + "]" * depth + ']], "columns": [[1]]}'
        with pytest.raises(InputError) as caught:
            json_format.read(text, "p.json")
        assert re.match(r"p\.json:\d+:\d+: ", str(caught.value))


def test_errors_beside_a_value_nested_about_as_deep_as_json_may_go_are_placed() -> None:
    """Placing an error skips the values before it (and, for a key, after it), which
    recurses from deeper than reading the file did: a value that ``json`` read may be too
    deep to skip that way, and the errors beside it are still placed."""
    json_format = by_name("json")
    for depth in range(500, 1001):
        deep = '{"a": "]}", "b": ' + "[" * depth + "]" * depth + "}"
        bad = '{"rows": "bad", "columns": [[1]]}'
        text = f'[{{"rows": [[1]], "columns": [[1]], "x": {deep}}},\n {bad}]'
        try:
            readings = json_format.read(text, "p.json")
        except InputError as error:  # too deep to read at all, placed at its deepest
            assert "nested too deeply" in str(error)
            continue
        column = text.index('"bad"') - text.index("\n")
        assert str(readings[0]).startswith("p.json:1:36: [0]: unknown key 'x'")
        assert str(readings[1]).startswith(f"p.json:2:{column}: [1].rows: expected a list")


@pytest.mark.parametrize(
    "case",
    [
        "nin-header-short",
        "non-colour-letters",
        "taai-duplicate",
        "xml-letter",
        "non-holding-json",
        "keen-huge-number",
        "json-nested-too-deeply",
        "json-lone-surrogate",
    ],
)
def test_the_command_line_reports_bad_files_in_one_line_with_exit_2(
    tmp_path: Path, case: str
) -> None:
    name, text, expected = MALFORMED[case]
    path = tmp_path / name
    path.write_text(text, newline="")
    run = run_cli("convert", str(path), "-", "--to", "json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith(f"nonocp: {path}:{expected}")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.name != "taai-solution"], ids=lambda f: f.name
)
@pytest.mark.parametrize("kind", ["row", "column"])
def test_a_clue_too_long_for_its_line_is_reported_where_the_file_writes_it(
    tmp_path: Path, fmt: Format, kind: str
) -> None:
    heart = load(PUZZLES / "heart.txt")  # 9x9: a clue 5,4 needs 10 cells
    clues = (*getattr(heart, f"{kind}s")[:3], (5, 4), *getattr(heart, f"{kind}s")[4:])
    path = tmp_path / f"p.{fmt.extensions[0]}"
    changed = replace(heart, rows=clues) if kind == "row" else replace(heart, columns=clues)
    path.write_text(fmt.write([changed]))
    with pytest.raises(NonocpError) as caught:
        load_all(path, fmt.name)
    why = f"{kind} clue 5,4 needs 10 cells but a {kind} has only 9"
    path_in_json = rf"{kind}s\[3\]: " if fmt.name == "json" else ""
    where = re.fullmatch(
        rf"{re.escape(str(path))}:(\d+):\d+: {path_in_json}{why}", str(caught.value)
    )
    assert where, str(caught.value)
    written = path.read_text().splitlines()[int(where[1]) - 1]
    assert re.findall(r"\d+", written) == ["5", "4"]


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.name != "taai-solution"], ids=lambda f: f.name
)
def test_rows_and_columns_filling_different_cells_are_reported_where_the_columns_start(
    tmp_path: Path, fmt: Format
) -> None:
    heart = load(PUZZLES / "heart.txt")  # no clue of heart's is 1,1,1,1
    columns = ((1, 1, 1, 1), *heart.columns[1:])
    path = tmp_path / f"p.{fmt.extensions[0]}"
    path.write_text(fmt.write([replace(heart, columns=columns)]))
    with pytest.raises(NonocpError) as caught:
        load_all(path, fmt.name)
    rows, filled = sum(map(sum, heart.rows)), sum(map(sum, columns))
    why = f"the row clues fill {rows} cells but the column clues fill {filled}"
    why += " (the column clues start here)"
    path_in_json = r"columns\[0\]: " if fmt.name == "json" else ""
    at = rf"{re.escape(str(path))}:(\d+):(\d+): {path_in_json}{re.escape(why)}"
    where = re.fullmatch(at, str(caught.value))
    assert where, str(caught.value)
    written = path.read_text().splitlines()[int(where[1]) - 1]
    assert re.findall(r"\d+", written[int(where[2]) - 1 :]) == ["1", "1", "1", "1"]


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.holds_many and f.name != "taai-solution"], ids=lambda f: f.name
)
def test_a_bad_puzzle_of_many_stands_as_its_error_and_the_others_read(
    tmp_path: Path, fmt: Format
) -> None:
    heart = load(PUZZLES / "heart.txt")
    broken = replace(heart, rows=((5, 4), *heart.rows[1:]))
    path = tmp_path / f"p.{fmt.extensions[0]}"
    path.write_text(fmt.write([heart, broken, heart]))
    first, error, last = load_each(path, fmt.name)
    assert isinstance(first, Puzzle) and isinstance(last, Puzzle)
    assert first.rows == last.rows == heart.rows and first.columns == last.columns == heart.columns
    assert (
        isinstance(error, InputError)
        and "row clue 5,4 needs 10 cells but a row has" in error.message
    )
    assert error.line is not None or fmt.name == "json"  # JSON locates by path: puzzles[1]
    with pytest.raises(InputError) as caught:
        load_all(path, fmt.name)
    assert str(caught.value) == str(error)
    path.write_text(fmt.write([broken, broken]))
    with pytest.raises(InputError):  # no puzzle of it reads: the file is the error
        load_each(path, fmt.name)


def test_no_other_format_is_suggested_for_a_file_read_as_the_user_asked(tmp_path: Path) -> None:
    path = tmp_path / "p.non"
    path.write_text('{"rows": [[1]], "columns": [[1]]}\n')
    with pytest.raises(NonocpError) as caught:
        load_all(path, "non")
    assert str(caught.value) == f"{path}:2:1: expected a 'width' line"


Edit = tuple[str, int, str]
"""A typing slip: delete, insert or replace at a position (taken modulo the text's length)
with a character puzzle files are made of."""

EDITS = st.lists(
    st.tuples(
        st.sampled_from(["delete", "insert", "replace"]),
        st.integers(0, 10_000),
        st.sampled_from(list('0123456789 ,\n#.-x[]{}":$')),
    ),
    min_size=1,
    max_size=3,
)


def damaged(text: str, edits: list[Edit]) -> str:
    for kind, at, character in edits:
        at %= len(text) + 1
        kept = at + (kind != "insert")
        text = text[:at] + ("" if kind == "delete" else character) + text[kept:]
    return text


@settings(max_examples=300, deadline=None)
@given(grid=random_grids(max_side=6), fmt=st.sampled_from(FORMATS), edits=EDITS)
def test_a_damaged_file_of_any_format_loads_consistent_puzzles_or_fails_in_one_line(
    grid: Picture, fmt: Format, edits: list[Edit]
) -> None:
    try:
        text = dumps([Puzzle.from_grid(grid, title="t")], fmt.name)
    except NonocpError:  # a TAAI file holds square puzzles only
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"p.{fmt.extensions[0]}"
        path.write_text(damaged(text, edits), newline="")
        for forced in (None, fmt.name):
            try:
                puzzles = load_all(path, forced)
            except NonocpError as error:
                assert str(error).startswith(f"{path}:") and "\n" not in str(error)
            else:
                assert not [p.problems() for p in puzzles if p.problems()]


@settings(max_examples=100, deadline=None)
@given(
    grid=random_grids(max_side=4),
    indent=st.sampled_from([None, 0, 2, "\t"]),
    place=st.tuples(st.integers(0, 2), st.sampled_from(["rows", "columns"]), st.integers(0, 3)),
)
def test_a_json_error_names_the_line_and_column_of_the_value_at_fault(
    grid: Picture, indent: int | str | None, place: tuple[int, str, int]
) -> None:
    """Whatever the layout, the line and column are where the bad value is written, in
    the puzzle of several that holds it (the others read), with its path."""
    puzzle = Puzzle.from_grid(grid)
    items: list[dict[str, Any]] = [
        {
            "title": "t",
            "rows": list(map(list, puzzle.rows)),
            "columns": list(map(list, puzzle.columns)),
        }
        for _ in range(3)
    ]
    which, kind, index = place
    index %= len(items[which][kind])
    items[which][kind][index] = [-7]
    text = json.dumps({"puzzles": items}, indent=indent)
    readings = by_name("json").read(text, "p.json")
    (error,) = [r for r in readings if isinstance(r, InputError)]
    said = f"puzzles[{which}].{kind}[{index}][0]: expected a whole number >= 0, found -7"
    assert error.message == said and error.line is not None and error.column is not None
    assert text.splitlines()[error.line - 1][error.column - 1 :].startswith("-7")
