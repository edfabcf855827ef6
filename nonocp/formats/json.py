"""nonocp's own JSON: the natural format for scripts that make or consume puzzles.

One puzzle is an object ``{"rows": [[3, 1], ...], "columns": [...], "title": ...}`` with
the optional ``author``, ``copyright``, ``license``, ``solution`` (rows of 0/1) and
``extra`` (an object of strings); many puzzles are a list of those, or an object whose
``"puzzles"`` key holds the list. Unknown keys are errors, so a misspelt ``colums`` is
reported rather than ignored. An error names the value's line and column and its path,
as in ``puzzles[3].rows[2][1]``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence

from nonocp.errors import InputError
from nonocp.formats import (
    DIGITS,
    LONG_NUMBER,
    NO_CELLS,
    ZERO_BESIDE,
    Format,
    Reading,
    consistent,
    each,
    position,
    zero_beside,
)
from nonocp.puzzle import Clue, Grid, Puzzle, clue
from nonocp.words import counted

TEXT_FIELDS = ("title", "author", "copyright", "license")
KEYS = {"rows", "columns", "solution", "extra", *TEXT_FIELDS}
BLANKS = re.compile(r"[ \t\n\r]*")
"""What JSON allows between values."""
STRING = r'"(?:[^"\\]|\\.)*"'
"""A JSON string, which the searches below step over whole: a bracket or number in it is text."""
INTEGER = re.compile(rf"{STRING}|(?<![0-9.eE+-])-?(?P<digits>[0-9]+)(?![0-9.eE])")
"""A string, or an integer: a number with a fraction or exponent is a float, which Python
converts however long it is."""
BRACKET = re.compile(rf"{STRING}|[\[{{]|[\]}}]")
"""A string, or a bracket or brace, which nests."""
NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}
"""How a bracket or brace changes the depth; a string leaves it."""


Where = tuple[str | int, ...]
"""A value's place in a document: the keys and indexes that lead to it from the top."""


def written(where: Where) -> str:
    """A place as messages write it: ``puzzles[3].rows[2][1]``, or ``top level``."""
    text = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in where)
    return text.removeprefix(".") or "top level"


class Shape(Exception):
    """A value that is not what the format expects there, at ``where`` (in its ``key``,
    when the key is at fault); ``read`` places it in the file."""

    def __init__(self, where: Where, message: str, key: str | None = None) -> None:
        super().__init__(f"{written(where)}: {message}")
        self.where = where
        self.key = key

    def read_in(self, source: str, document: Document) -> InputError:
        """The error as the file ``source`` reports it: at the line and column of the
        value in the ``document``, with its path."""
        return InputError(source, *document.position(self.where, self.key), str(self))


class Document:
    """A file's JSON text, in which an error's value is found again by its place: ``json``
    gives no positions once a document parses, but its decoder skips values at C speed
    (0.06 s to place an error in the last puzzle of a 1.5 MB set of 1000, which nonocp
    reads in 0.2 s; parsing the text again with Lark, keeping positions, took 4.5 s)."""

    decoder = json.JSONDecoder()

    def __init__(self, text: str) -> None:
        self.text = text

    def position(self, where: Where, key: str | None = None) -> tuple[int, int]:
        """The line and column of the value at ``where`` (of its ``key``, if given)."""
        at = self.blank_after(0)
        for step in where:
            at = self.item(at, step) if isinstance(step, int) else self.member(at, step)[1]
        if key is not None:
            at = self.member(at, key)[0]
        return position(self.text, at)

    def item(self, at: int, index: int) -> int:
        """Where the ``index``th item of the array at ``at`` starts."""
        at = self.blank_after(at + 1)  # past "[" or ","
        for _ in range(index):
            at = self.blank_after(self.blank_after(self.value_end(at)) + 1)  # past ","
        return at

    def member(self, at: int, key: str) -> tuple[int, int]:
        """Where the key ``key`` of the object at ``at`` starts, and its value: the last,
        if it is written twice, as ``json`` keeps the last."""
        found = None
        end = at
        while self.text[end] != "}":
            start = self.blank_after(end + 1)  # past "{" or ","
            if self.text[start] == "}":  # an empty object
                break
            name, after = self.decoder.raw_decode(self.text, start)
            value = self.blank_after(self.blank_after(after) + 1)  # past ":"
            if name == key:
                found = (start, value)
            end = self.blank_after(self.value_end(value))
        assert found is not None  # a place leads through the data read from the same text
        return found

    def value_end(self, at: int) -> int:
        """Where the value at ``at`` ends; its brackets are counted when it is nested about
        as deep as ``json`` goes, for skipping it recurses from deeper than reading did."""
        try:
            return self.decoder.raw_decode(self.text, at)[1]
        except RecursionError:
            return nest_end(self.text, at)

    def blank_after(self, at: int) -> int:
        return BLANKS.match(self.text, at).end()  # type: ignore[union-attr]  # matches always


def too_long(source: str, text: str) -> InputError:
    """The first integer too long for Python to convert: ``json`` fails on it without saying
    where."""
    most = sys.get_int_max_str_digits()
    at = next(m.start() for m in INTEGER.finditer(text) if len(m["digits"] or "") > most)
    return InputError(
        source, *position(text, at), f"invalid JSON: a number of over {most:,} digits"
    )


def nest_end(text: str, at: int) -> int:
    """Where the array or object at ``at`` ends, found by counting brackets: without
    recursion, so at any depth."""
    depth = 0
    for match in BRACKET.finditer(text, at):
        depth += NESTING.get(match[0], 0)
        if depth == 0:
            return match.end()
    raise AssertionError("the text parsed, so its brackets balance")


def too_deep(source: str, text: str, what: str) -> InputError:
    """``what`` went wrong at the first of the most deeply nested brackets: ``json`` gives
    up somewhere on the way there, and Python's recursion limit, not the text, says where."""
    depth, deepest = 0, (0, 0)
    for match in BRACKET.finditer(text):
        depth += NESTING.get(match[0], 0)
        if depth > deepest[1]:
            deepest = (match.start(), depth)
    at, most = deepest
    return InputError(source, *position(text, at), f"{what} ({most} levels here)")


def whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def listed(value: object, where: Where, what: str) -> list:
    if not isinstance(value, list):
        raise Shape(where, f"expected {what}, found {json.dumps(value)[:40]}")
    return value


def clue_at(value: object, where: Where) -> Clue:
    numbers = listed(value, where, "a list of block lengths")
    if set(map(type, numbers)) <= {int} and min(numbers, default=0) >= 0:
        if max(numbers, default=0) >= 10**DIGITS:
            i = next(i for i, n in enumerate(numbers) if n >= 10**DIGITS)
            raise Shape((*where, i), LONG_NUMBER)
        if zero_beside(numbers):
            raise Shape((*where, numbers.index(0)), ZERO_BESIDE)
        return tuple(numbers) if 0 not in numbers else clue(numbers)
    i, n = next((i, n) for i, n in enumerate(numbers) if not whole_number(n))
    raise Shape((*where, i), f"expected a whole number >= 0, found {json.dumps(n)[:40]}")


def clues_at(value: object, where: Where) -> tuple[Clue, ...]:
    clues = listed(value, where, "a list of clues")
    if not clues:
        raise Shape(where, f"expected a list of clues, found none: {NO_CELLS}")
    return tuple(clue_at(c, (*where, i)) for i, c in enumerate(clues))


def grid_at(value: object, where: Where, width: int, height: int) -> Grid:
    """A picture of ``height`` rows of ``width`` 0/1 cells, the puzzle's size."""
    rows = listed(value, where, "a list of rows of 0/1 cells")
    if len(rows) != height:
        wanted = f"expected {counted(height, 'row')} (the puzzle's height)"
        raise Shape(where, f"{wanted}, found {len(rows)}")
    for r, row in enumerate(rows):
        cells = listed(row, (*where, r), "a list of 0/1 cells")
        if len(cells) != width:
            wanted = f"expected {counted(width, 'cell')} (the puzzle's width)"
            raise Shape((*where, r), f"{wanted}, found {len(cells)}")
        if not (set(map(type, cells)) <= {int} and set(cells) <= {0, 1}):
            c, cell = next(
                (c, x) for c, x in enumerate(cells) if type(x) is not int or x not in (0, 1)
            )
            raise Shape((*where, r, c), f"expected 0 or 1, found {json.dumps(cell)}")
    return tuple(map(tuple, rows))


def text_at(value: object, where: Where, key: str | None = None) -> str:
    """A string every format can write: JSON's escapes also spell a NUL, which no text
    file may hold, and lone surrogates, which UTF-8 cannot encode. ``key``: the string
    is that key of the object at ``where``."""
    if not isinstance(value, str):
        raise Shape(where, f"expected a string, found {json.dumps(value)[:40]}")
    unwritable = next((c for c in value if c == "\0" or "\ud800" <= c <= "\udfff"), None)
    if unwritable is not None:
        found = f"found the character {json.dumps(unwritable)}"
        raise Shape(where, f"expected text{' in a key' if key else ''}, {found}", key)
    return value


def extra_at(value: object, where: Where) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise Shape(where, "expected an object of strings")
    return tuple(
        (text_at(key, where, key), text_at(text, (*where, key))) for key, text in value.items()
    )


def puzzle_at(value: object, where: Where) -> Puzzle:
    if not isinstance(value, dict):
        raise Shape(where, 'expected a puzzle object {"rows": ..., "columns": ...}')
    unknown = sorted(set(value) - KEYS)
    if unknown:
        known = ", ".join(sorted(KEYS))
        raise Shape(where, f"unknown key {unknown[0]!r} (known keys: {known})", unknown[0])
    for key in ("rows", "columns"):
        if key not in value:
            raise Shape(where, f"expected a {key!r} key")
    rows = clues_at(value["rows"], (*where, "rows"))
    columns = clues_at(value["columns"], (*where, "columns"))
    solution = value.get("solution")
    puzzle = Puzzle(
        rows=rows,
        columns=columns,
        solution=None
        if solution is None
        else grid_at(solution, (*where, "solution"), len(columns), len(rows)),
        extra=extra_at(value["extra"], (*where, "extra")) if "extra" in value else (),
        **{k: text_at(value[k], (*where, k)) for k in TEXT_FIELDS if value.get(k) is not None},
    )

    def located(kind: str, index: int, message: str) -> Shape:
        return Shape((*where, f"{kind}s", index), message)

    return consistent(puzzle, located)


def puzzles_at(data: object, source: str, document: Document) -> list[Reading]:
    """The puzzles of a document: one, or each item of a list, a bad item's error in its place."""
    if isinstance(data, dict) and "puzzles" in data:
        if len(data) > 1:
            unknown = min(set(data) - {"puzzles"})
            raise Shape((), f"unknown key {unknown!r} beside 'puzzles'", unknown)
        items = listed(data["puzzles"], ("puzzles",), "a list of puzzles")
        places: list[Where] = [("puzzles", i) for i in range(len(items))]
    elif isinstance(data, list):
        items, places = data, [(i,) for i in range(len(data))]
    else:
        return [puzzle_at(data, ())]
    return each(lambda item: read_item(source, document, *item), zip(items, places, strict=True))


def read_item(source: str, document: Document, value: object, where: Where) -> Puzzle:
    """The puzzle at ``where`` in a list of them, its error the file's."""
    try:
        return puzzle_at(value, where)
    except Shape as error:
        raise error.read_in(source, document) from None


def read(text: str, source: str) -> list[Reading]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(source, error.lineno, error.colno, f"invalid JSON: {error.msg}") from None
    except RecursionError:
        raise too_deep(source, text, "invalid JSON: nested too deeply") from None
    except ValueError:  # Python's limit on converting long numbers
        raise too_long(source, text) from None
    document = Document(text)
    try:
        return puzzles_at(data, source, document)
    except Shape as error:
        raise error.read_in(source, document) from None
    except RecursionError:  # an error showing a value nested almost as deep as JSON may go
        raise too_deep(source, text, "a value nested too deeply for a puzzle") from None


def array(lines: Sequence[tuple[int, ...]], indent: str) -> str:
    """A list of clues or rows, one per line: readable, and diffs stay small."""
    if not lines:
        return "[]"
    items = f",\n{indent}  ".join(json.dumps(list(line)) for line in lines)
    return f"[\n{indent}  {items}\n{indent}]"


def encode(puzzle: Puzzle, indent: str) -> str:
    inner = indent + "  "
    values: dict[str, object] = {k: getattr(puzzle, k) for k in TEXT_FIELDS}
    values["extra"] = dict(puzzle.extra) or None
    fields = [
        f"{inner}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in values.items()
        if v is not None
    ]
    grids = {"rows": puzzle.rows, "columns": puzzle.columns, "solution": puzzle.solution}
    fields += [
        f"{inner}{json.dumps(k)}: {array(v, inner)}" for k, v in grids.items() if v is not None
    ]
    return "{\n" + ",\n".join(fields) + f"\n{indent}}}"


def write(puzzles: Sequence[Puzzle]) -> str:
    if len(puzzles) == 1:
        return encode(puzzles[0], "") + "\n"
    body = ",\n".join("    " + encode(p, "    ") for p in puzzles)
    return '{\n  "puzzles": [\n' + body + "\n  ]\n}\n"


def looks_like(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


FORMAT = Format("json", ("json",), read, write, looks_like, holds_many=True)
