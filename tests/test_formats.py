"""Every puzzle format: the shared sets load right, and every writer round-trips with its reader.

The shared sets are checked against facts found without nonocp's readers: the size a
file states, the sum of the numbers on its clue lines, the solutions stored beside the
puzzles (``goal`` strings, TAAI solution files) and the same puzzles in another format.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonocp.errors import NonocpError, PuzzleError
from nonocp.formats import (
    FORMATS,
    Format,
    attach_solutions,
    by_name,
    check_writable,
    detect,
    dumps,
    load,
    load_all,
    number,
    positions,
    read_file,
    select,
)
from nonocp.formats.webpbn import EXTRA_TAGS
from nonocp.puzzle import Puzzle, satisfies

from conftest import HEART, PUZZLES, SHARED, random_grids

SETS = SHARED / "puzzles"
TAAI_SETS = ("taai2011", "tcga2016", "icga2022")
TRAILING_GARBAGE = "jwilk/data142.nin"
"""The one shared file nonocp refuses: after its 45 clue lines it repeats them, headers
glued to clues ("425 20"), so its header disagrees with its lines."""


def shared_files() -> list[str]:
    if not SETS.is_dir():
        return []
    return sorted(
        str(p.relative_to(SETS))
        for p in SETS.rglob("*")
        if p.is_file() and p.suffix in (".non", ".nin", ".txt")
    )


@cache
def loaded(name: str) -> list[Puzzle]:
    return load_all(SETS / name)


def stated_size(name: str, text: str) -> str | None:
    """The size a file states in its own words: a .nin header, .non width and height."""
    if name.endswith(".nin"):
        width, height = text.split()[:2]
        return f"{width}x{height}"
    if name.endswith(".non"):
        wide = re.search(r"^width (\d+)", text, re.MULTILINE)
        high = re.search(r"^height (\d+)", text, re.MULTILINE)
        assert wide and high
        return f"{wide[1]}x{high[1]}"
    return "25x25" if name.startswith("taai/") else None


def clue_line_total(name: str, text: str) -> int:
    """The sum of every number on lines holding only numbers (a .nin's first is its size)."""
    lines = text.splitlines()[1:] if name.endswith(".nin") else text.splitlines()
    return sum(
        int(n)
        for line in lines
        if re.fullmatch(r"[\d,\s]*", line)
        for n in re.findall(r"\d+", line)
    )


@pytest.mark.parametrize("name", [n for n in shared_files() if n != TRAILING_GARBAGE])
def test_every_shared_file_loads_with_its_size_and_clue_totals(name: str) -> None:
    text = read_file(SETS / name)
    puzzles = loaded(name)
    size = stated_size(name, text)
    if size:
        assert {p.size for p in puzzles} == {size}
    if name.startswith("taai/"):
        assert len(puzzles) == text.count("$") == 1000
    both_ways = sum(sum(map(sum, p.rows)) + sum(map(sum, p.columns)) for p in puzzles)
    cells_or_clues = clue_line_total(name, text)
    # A solution file's numbers are its filled cells, which the rows and columns each count.
    factor = 2 if name.endswith(".solution.txt") else 1
    assert both_ways == factor * cells_or_clues


def test_the_file_with_trailing_garbage_is_refused_where_it_starts(shared: Path) -> None:
    with pytest.raises(NonocpError, match=r"data142\.nin:47:1: expected end of file"):
        load_all(SETS / TRAILING_GARBAGE)


EXPECTED_FORMAT = {
    "gecoder": "gecode",
    "jwilk": "nin",
    "keen": "keen",
    "mikix": "non",
    "webpbn": None,  # .non and .nin: by extension
}


@pytest.mark.parametrize("name", shared_files())
def test_detection_picks_the_format_each_set_is_written_in(name: str) -> None:
    folder = name.split("/")[0]
    expected = EXPECTED_FORMAT.get(folder) or name.rsplit(".", 1)[-1]
    if folder == "taai":
        expected = "taai-solution" if name.endswith(".solution.txt") else "taai"
    assert detect(name, read_file(SETS / name)).name == expected


@pytest.mark.parametrize("set_name", TAAI_SETS)
def test_taai_solution_files_solve_their_puzzles(shared: Path, set_name: str) -> None:
    puzzles = loaded(f"taai/{set_name}.txt")
    checked = attach_solutions(puzzles, loaded(f"taai/{set_name}.solution.txt"))
    assert [number(p, i) for i, p in enumerate(checked, 1)] == [str(n) for n in range(1, 1001)]
    assert all(p.solution is not None and satisfies(p, p.solution) for p in checked)


def test_every_goal_satisfies_its_clues(shared: Path) -> None:
    names = [n for n in shared_files() if n.endswith(".non")]
    assert len([n for n in names if n.startswith("mikix/")]) == 39
    for name in names:
        (puzzle,) = loaded(name)
        assert puzzle.solution is not None and satisfies(puzzle, puzzle.solution), name


@pytest.mark.parametrize(
    ("keen", "webpbn"),
    [
        ("cat6.txt", "webpbn-00006-cat.non"),
        ("edge23.txt", "webpbn-00023-edge.non"),
        ("knot16.txt", "webpbn-00016-knot.non"),
        ("swing529.txt", "webpbn-00529-swing.non"),
    ],
)
def test_keen_files_hold_the_same_clues_as_webpbn(shared: Path, keen: str, webpbn: str) -> None:
    (plain,) = loaded(f"keen/{keen}")
    (rich,) = loaded(f"webpbn/{webpbn}")
    assert (plain.rows, plain.columns) == (rich.rows, rich.columns)


def test_puzzles_shipped_in_the_repository_load_and_their_goals_solve_them() -> None:
    shipped = [p for folder in ("webpbn", "jwilk") for p in sorted((PUZZLES / folder).glob("*.n*"))]
    assert len(shipped) == 16 + 151
    for path in shipped:
        if path.name == Path(TRAILING_GARBAGE).name:
            continue
        (puzzle,) = load_all(path)
        if path.suffix == ".non":
            assert puzzle.solution is not None and satisfies(puzzle, puzzle.solution), path


def test_metadata_of_a_webpbn_non_file() -> None:
    (dancer,) = load_all(PUZZLES / "webpbn" / "webpbn-00001-dancer.non")
    assert (dancer.title, dancer.author) == ("Dancer", "Jan Wolter")
    assert dancer.copyright == "© Copyright 2004 by Jan Wolter"
    assert dancer.extra == (("catalogue", "webpbn.com #1"),)
    assert dancer.solution is not None and dancer.solution[0] == (0, 1, 1, 0, 0)


# Round trips ------------------------------------------------------------------------------

NON_KEYS = {"width", "height", "rows", "columns", "goal", "color", "title", "by", "copyright"}
NON_KEYS |= {"license"}


def kept(name: str, puzzle: Puzzle, position: int) -> Puzzle:
    """What writing ``puzzle`` in format ``name`` and reading it back must give."""
    bare = Puzzle(rows=puzzle.rows, columns=puzzle.columns)
    numbered = (("number", number(puzzle, position)),)
    if name in ("gecode", "nin", "keen"):
        return bare
    if name == "taai":
        return replace(bare, extra=numbered)
    if name == "taai-solution":
        assert puzzle.solution is not None
        return Puzzle.from_grid(puzzle.solution, extra=numbered)
    if name == "webpbn":
        extra = dict(puzzle.extra)
        tags = tuple((tag, extra[tag]) for tag in EXTRA_TAGS if tag in extra)
        return replace(puzzle, license=None, extra=tags)
    if name in ("non", "nonpack"):
        return replace(puzzle, extra=tuple((k, v) for k, v in puzzle.extra if k not in NON_KEYS))
    return puzzle


def can_hold(name: str, puzzles: list[Puzzle]) -> bool:
    fmt = by_name(name)
    if len(puzzles) > 1 and not fmt.holds_many:
        return False
    if name == "taai":
        return all(p.width == p.height and p.size == puzzles[0].size for p in puzzles)
    if name == "taai-solution":
        solved = all(p.solution is not None and satisfies(p, p.solution) for p in puzzles)
        return solved and all(p.size == puzzles[0].size for p in puzzles)
    return True


def assert_round_trip(name: str, puzzles: list[Puzzle]) -> None:
    if not can_hold(name, puzzles):
        if name != "taai-solution":  # it writes unsolved-looking grids faithfully, or refuses
            with pytest.raises(NonocpError):
                dumps(puzzles, name)
        return
    again = by_name(name).read(dumps(puzzles, name), f"round-trip.{name}")
    assert again == [kept(name, p, i) for i, p in enumerate(puzzles, start=1)]


def round_trip_sample(name: str) -> list[Puzzle]:
    """A file's puzzles, TAAI sets with their solutions attached.

    The three TAAI sets have one shape, so one goes through whole and the other two
    contribute their first hundred puzzles: that keeps the test file under a minute.
    """
    puzzles = loaded(name)
    if name.startswith("taai/") and not name.endswith(".solution.txt"):
        puzzles = attach_solutions(puzzles, loaded(name.replace(".txt", ".solution.txt")))
    whole = not name.startswith("taai/") or name.startswith("taai/taai2011")
    return puzzles if whole else puzzles[:100]


@pytest.mark.parametrize("fmt", [f.name for f in FORMATS])
def test_every_shared_puzzle_round_trips_through_every_writer(shared: Path, fmt: str) -> None:
    for name in shared_files():
        if name == TRAILING_GARBAGE:
            continue
        puzzles = round_trip_sample(name)
        assert_round_trip(fmt, puzzles)
        if len(puzzles) > 1 and not by_name(fmt).holds_many:
            for puzzle in puzzles[:20]:
                assert_round_trip(fmt, [puzzle])


TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs", "Cn")), max_size=12)
KEYS = st.from_regex(r"[a-z][a-z0-9_-]{0,7}", fullmatch=True) | st.sampled_from(EXTRA_TAGS)


@st.composite
def puzzles_with_metadata(draw: st.DrawFn) -> Puzzle:
    grid = draw(random_grids(max_side=6))
    picture = Puzzle.from_grid(grid)
    extra = draw(st.dictionaries(KEYS.filter(lambda k: k != "number"), TEXT, max_size=3))
    return Puzzle(
        rows=picture.rows,
        columns=picture.columns,
        title=draw(st.none() | TEXT),
        author=draw(st.none() | TEXT),
        copyright=draw(st.none() | TEXT),
        license=draw(st.none() | TEXT | st.just("CC-BY-4.0")),
        solution=draw(st.none() | st.just(grid)),
        extra=tuple(extra.items()),
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(puzzles_with_metadata(), min_size=1, max_size=3))
def test_random_puzzles_round_trip_through_every_writer(puzzles: list[Puzzle]) -> None:
    for fmt in FORMATS:
        assert_round_trip(fmt.name, puzzles)


def test_written_files_are_detected_as_what_they_are(tmp_path: Path) -> None:
    picture = tuple(tuple(int(c == "#") for c in row) for row in HEART)
    heart = [Puzzle.from_grid(picture, title="Heart")]
    for fmt in FORMATS:
        path = tmp_path / f"heart.{fmt.extensions[0]}"
        path.write_text(dumps(heart, fmt.name))
        assert detect(str(path), read_file(path)).name == fmt.name


@pytest.mark.parametrize("picture", ["#", ".", "##/.#", "###/###/#.."])
def test_a_taai_set_and_its_solutions_are_told_apart_whatever_the_first_row(picture: str) -> None:
    """A solution file whose picture's first row is filled throughout has no 0 there to
    tell it from clue lines: its rows making a square do."""
    grid = tuple(tuple(int(c == "#") for c in row) for row in picture.split("/"))
    for fmt in ("taai", "taai-solution"):
        assert detect("set.txt", dumps(Puzzle.from_grid(grid), fmt)).name == fmt


@pytest.mark.parametrize(
    ("numbers", "written"),
    [
        (("5", "12", "007"), ["5", "12", "007"]),
        (("5", "5", "9"), ["1", "2", "3"]),
        (("x",), ["1"]),
        (("5", "5 "), ["1", "2"]),  # "$5 " reads as 5 again
    ],
)
def test_a_taai_file_keeps_its_puzzles_numbers_unless_they_cannot_read_back(
    numbers: tuple[str, ...], written: list[str]
) -> None:
    """Sets converted into one file repeat their numbers, and JSON may give any text:
    then the puzzles are numbered in order."""
    picture = tuple(tuple(int(c == "#") for c in row) for row in HEART)
    puzzles = [Puzzle.from_grid(picture, extra=(("number", n),)) for n in numbers]
    for fmt in ("taai", "taai-solution"):
        again = by_name(fmt).read(dumps(puzzles, fmt), f"set.{fmt}")
        assert [number(p, i) for i, p in enumerate(again, 1) if isinstance(p, Puzzle)] == written


def test_dumps_writes_one_puzzle_or_many_only_if_they_read_back() -> None:
    heart = load(PUZZLES / "heart.txt")
    assert dumps(heart, "nin") == dumps([heart], "nin")
    with pytest.raises(NonocpError, match="no puzzle to write"):
        dumps([], "nin")
    with pytest.raises(PuzzleError, match="clue 3 needs 3 cells but a row has only 1"):
        dumps(Puzzle(rows=((3,),), columns=((1,),)), "json")


@pytest.mark.parametrize(
    "fmt", [f for f in FORMATS if f.name != "taai-solution"], ids=lambda f: f.name
)
def test_any_title_is_written_so_that_the_file_reads_back(tmp_path: Path, fmt: Format) -> None:
    """Line breaks, a form feed and ESC: a comment line, an XML text and a quoted string
    each hold only some of them, and the file must still read as the same puzzle, its
    title kept where the format keeps one (XML, which cannot hold the form feed and ESC,
    marks each with U+FFFD)."""
    heart = load(PUZZLES / "heart.txt")
    title = "two\nlines\x0cfeed\rreturn\x1bescape"
    path = tmp_path / f"p.{fmt.extensions[0]}"
    path.write_text(dumps(replace(heart, title=title), fmt.name), newline="")
    (again,) = load_all(path, fmt.name)
    assert (again.rows, again.columns) == (heart.rows, heart.columns)
    kept = {"non": title, "nonpack": title, "json": title}
    kept["webpbn"] = "two\nlines\ufffdfeed\rreturn\ufffdescape"
    assert again.title == kept.get(fmt.name)


def test_a_nin_text_with_a_blank_clue_line_is_told_from_keen_s() -> None:
    """Piped, it has no extension: ``W H`` and as many lines as that announces is .nin,
    though a blank line (an empty clue) splits it in two as Keen's files are split."""
    assert detect("<stdin>", "2 2\n2\n\n1\n1\n").name == "nin"
    assert detect("<stdin>", "2 2\n\n1\n1\n").name == "keen"  # a row clue 2 2, then columns


def test_format_option_overrides_the_extension(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.dat"
    path.write_text("2 2\n1\n1\n1\n1\n")
    assert load_all(path, "nin")[0].rows == ((1,), (1,))
    assert load_all(path)[0].rows == ((1,), (1,))  # sniffed: a .nin header
    with pytest.raises(NonocpError, match="unknown format"):
        load_all(path, "nope")


# Files holding many puzzles ------------------------------------------------------------

TAAI_10X10 = "".join(f"${n}\n" + "1\n" * 20 for n in (3, 7))
"""Two 10x10 puzzles, every line one filled cell (numbers need not start at 1)."""


def test_taai_files_of_another_size_read_when_consistent(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(TAAI_10X10.replace("\n", "\r\n"), newline="")
    puzzles = load_all(path)
    assert [p.size for p in puzzles] == ["10x10", "10x10"]
    assert [dict(p.extra)["number"] for p in puzzles] == ["3", "7"]


@pytest.mark.parametrize(
    ("puzzles", "ending"),
    [
        (TAAI_10X10, "\n"),
        (TAAI_10X10, "\n\n\n"),
        ("$1\n1\n\n1\n\n", "\n"),  # alone, and its last clue is empty: a blank line
        ("$1\n1\n\n1\n\n", "\r\n"),
    ],
)
def test_blank_lines_ending_a_taai_file_are_no_clues(
    tmp_path: Path, puzzles: str, ending: str
) -> None:
    """An editor's last newline, beyond the last puzzle. A puzzle alone in its file gives
    nothing to measure it by but its even number of lines: there, one such line goes."""
    bare, ended = tmp_path / "bare.txt", tmp_path / "ended.txt"
    bare.write_text(puzzles)
    ended.write_text(puzzles + ending, newline="")
    assert load_all(ended) == load_all(bare)


@pytest.mark.parametrize(
    "name", ["heart.txt", "webpbn/webpbn-00001-dancer.non", "jwilk/data001.nin"]
)
def test_lines_ended_the_old_mac_way_read_as_any_others(tmp_path: Path, name: str) -> None:
    text = (PUZZLES / name).read_text()
    old = tmp_path / Path(name).name
    old.write_text(text.replace("\n", "\r"), newline="")
    assert load_all(old) == load_all(PUZZLES / name)
    old.write_text(text.replace("\n", "\r", text.count("\n") - 1), newline="")  # one LF last
    assert load_all(old) == load_all(PUZZLES / name)


def test_a_nin_file_s_last_clue_may_be_a_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "p.nin"
    path.write_text("2 2\n1\n1\n2\n\n\n")  # the second column empty, then an editor's line
    assert load_all(path)[0].columns == ((2,), ())


def test_a_lone_empty_webpbn_count_is_an_empty_line(tmp_path: Path) -> None:
    path = tmp_path / "p.xml"
    path.write_text(
        '<puzzleset><puzzle><clues type="rows"><line><count>1</count></line>'
        "<line><count/></line></clues>"
        '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'
    )
    assert load_all(path)[0].rows == ((1,), ())


def test_select_by_index_title_catalogue_or_number(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(TAAI_10X10)
    puzzles = load_all(path)
    assert select(puzzles, index="2") == [puzzles[1]]
    assert select(puzzles, name="$7") == select(puzzles, name="7") == [puzzles[1]]
    assert select(puzzles, name="#2") == [puzzles[1]]
    assert select(puzzles) == puzzles
    named = [replace(puzzles[0], title="Heart", extra=(("catalogue", "webpbn.com #1"),))]
    assert select(named, name="heart") == select(named, name="webpbn.com #1") == named
    with pytest.raises(NonocpError, match=r"the file: there is no puzzle 3 \(it holds 2\)"):
        select(puzzles, index="3")
    with pytest.raises(NonocpError, match="no puzzle named '5'"):
        select(puzzles, name="5")


def test_a_file_is_checked_writable_and_left_as_it_was(tmp_path: Path) -> None:
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text("kept")
    check_writable(new)
    check_writable(old)
    check_writable("-")
    assert not new.exists() and old.read_text() == "kept"
    for wrong, why in [
        (tmp_path / "no" / "x.json", "No such file or directory"),
        (tmp_path, "Is a directory"),
    ]:
        with pytest.raises(NonocpError) as error:
            check_writable(wrong)
        assert str(error.value) == f"{wrong}: {why}"


def test_index_picks_ranges_and_lists_in_order_each_once() -> None:
    assert positions("7", 9, "f") == [7]
    assert positions("3,7,2-4", 9, "f") == [3, 7, 2, 4]
    assert positions(" 8 - 9 , 01", 9, "f") == [8, 9, 1]
    for index, why in [
        ("0", "f: there is no puzzle 0 (it holds 9)"),
        ("5-10", "f: there is no puzzle 10 (it holds 9)"),
        ("999999999", "f: there is no puzzle 999999999 (it holds 9)"),
        ("4-2", "the range 4-2 runs backwards"),
    ]:
        with pytest.raises(NonocpError) as error:
            positions(index, 9, "f")
        assert str(error.value) == why if why.startswith("f:") else f"--index {index!r}: {why}"
    for malformed in ("2,", "x", "-3", "\u00b9", "\u0661", "\u00a01", "1" + "0" * 9, "9" * 5000):
        with pytest.raises(NonocpError) as error:
            positions(malformed, 9, "f")
        assert str(error.value) == (
            f"--index {malformed!r}: expected N, N-M, or a list of them (3,7,10-12), "
            "numbers of up to 9 digits"
        )


def test_solutions_attach_by_number_even_for_part_of_a_set(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text(TAAI_10X10)
    puzzles = load_all(path)
    diagonal = tuple(tuple(int(r == c) for c in range(10)) for r in range(10))
    only_seven = [Puzzle.from_grid(diagonal, extra=(("number", "7"),))]
    first, second = attach_solutions(puzzles, only_seven)
    assert first.solution is None
    assert second.solution == diagonal and satisfies(second, diagonal)


def test_nonpack_bundles_and_their_names(tmp_path: Path) -> None:
    path = tmp_path / "pair.nonpack"
    path.write_text(
        'title "One"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n'
        "====\n"
        'title "None"\nwidth 2\nheight 1\nrows\n\ncolumns\n0\n\n'
        "====\n"
    )
    one, empty = load_all(path)
    assert (one.title, one.rows) == ("One", ((1,),))
    assert (empty.title, empty.rows, empty.columns) == ("None", ((),), ((), ()))
    assert select([one, empty], name="none") == [empty]


def test_webpbn_xml_with_html_entities_and_a_solution(tmp_path: Path) -> None:
    path = tmp_path / "export.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">\n'
        '<puzzleset><puzzle type="grid" defaultcolor="black">\n'
        "<source>webpbn.com</source><id>#9</id><title>Two</title><author>A &amp; B</author>\n"
        "<copyright>&copy; 2004</copyright>\n"
        '<color name="white" char=".">fff</color><color name="black" char="X">000</color>\n'
        '<clues type="columns"><line><count>1</count></line><line/></clues>\n'
        '<clues type="rows"><line><count>1</count></line><line></line></clues>\n'
        '<solution type="goal"><image>\n|X.|\n|..|\n</image></solution>\n'
        "</puzzle></puzzleset>\n"
    )
    (puzzle,) = load_all(path)
    assert (puzzle.rows, puzzle.columns) == (((1,), ()), ((1,), ()))
    assert (puzzle.title, puzzle.author, puzzle.copyright) == ("Two", "A & B", "© 2004")
    assert puzzle.extra == (("source", "webpbn.com"), ("id", "#9"))
    assert puzzle.solution == ((1, 0), (0, 0))
