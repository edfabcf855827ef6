"""nonocp's own JSON: the natural format for scripts that make or consume puzzles.

One puzzle is an object ``{"rows": [[3, 1], ...], "columns": [...], "title": ...}`` with
the optional ``author``, ``copyright``, ``license``, ``solution`` (rows of 0/1) and
``extra`` (an object of strings); many puzzles are a list of those, or an object whose
``"puzzles"`` key holds the list. Unknown keys are errors, so a misspelt ``colums`` is
reported rather than ignored. JSON carries no line numbers past parsing, so errors in
the structure are located by their path, as in ``puzzles[3].rows[2][1]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from nonocp.errors import InputError
from nonocp.formats import (
    DIGITS,
    LONG_NUMBER,
    ZERO_BESIDE,
    Format,
    Reading,
    consistent,
    each,
    zero_beside,
)
from nonocp.puzzle import Clue, Grid, Puzzle, clue
from nonocp.words import counted

TEXT_FIELDS = ("title", "author", "copyright", "license")
KEYS = {"rows", "columns", "solution", "extra", *TEXT_FIELDS}


class Shape(Exception):
    """A value that is not what the format expects there; ``read`` adds the file name."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")

    def read_in(self, source: str) -> InputError:
        """The error as the file ``source`` reports it (JSON paths, not lines, locate it)."""
        return InputError(source, None, None, str(self))


def whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def listed(value: object, path: str, what: str) -> list:
    if not isinstance(value, list):
        raise Shape(path, f"expected {what}, found {json.dumps(value)[:40]}")
    return value


def clue_at(value: object, path: str) -> Clue:
    numbers = listed(value, path, "a list of block lengths")
    if set(map(type, numbers)) <= {int} and min(numbers, default=0) >= 0:
        if max(numbers, default=0) >= 10**DIGITS:
            i = next(i for i, n in enumerate(numbers) if n >= 10**DIGITS)
            raise Shape(f"{path}[{i}]", LONG_NUMBER)
        if zero_beside(numbers):
            raise Shape(f"{path}[{numbers.index(0)}]", ZERO_BESIDE)
        return tuple(numbers) if 0 not in numbers else clue(numbers)
    i, n = next((i, n) for i, n in enumerate(numbers) if not whole_number(n))
    raise Shape(f"{path}[{i}]", f"expected a whole number >= 0, found {json.dumps(n)[:40]}")


def clues_at(value: object, path: str) -> tuple[Clue, ...]:
    clues = listed(value, path, "a list of clues")
    return tuple(clue_at(c, f"{path}[{i}]") for i, c in enumerate(clues))


def grid_at(value: object, path: str, width: int, height: int) -> Grid:
    """A picture of ``height`` rows of ``width`` 0/1 cells, the puzzle's size."""
    rows = listed(value, path, "a list of rows of 0/1 cells")
    if len(rows) != height:
        wanted = f"expected {counted(height, 'row')} (the puzzle's height)"
        raise Shape(path, f"{wanted}, found {len(rows)}")
    for r, row in enumerate(rows):
        cells = listed(row, f"{path}[{r}]", "a list of 0/1 cells")
        if len(cells) != width:
            wanted = f"expected {counted(width, 'cell')} (the puzzle's width)"
            raise Shape(f"{path}[{r}]", f"{wanted}, found {len(cells)}")
        if not (set(map(type, cells)) <= {int} and set(cells) <= {0, 1}):
            c, cell = next(
                (c, x) for c, x in enumerate(cells) if type(x) is not int or x not in (0, 1)
            )
            raise Shape(f"{path}[{r}][{c}]", f"expected 0 or 1, found {json.dumps(cell)}")
    return tuple(map(tuple, rows))


def text_at(value: object, path: str) -> str:
    """A string every format can write: JSON's escapes also spell a NUL, which no text
    file may hold, and lone surrogates, which UTF-8 cannot encode."""
    if not isinstance(value, str):
        raise Shape(path, f"expected a string, found {json.dumps(value)[:40]}")
    unwritable = next((c for c in value if c == "\0" or "\ud800" <= c <= "\udfff"), None)
    if unwritable is not None:
        raise Shape(path, f"expected text, found the character {json.dumps(unwritable)}")
    return value


def extra_at(value: object, path: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise Shape(path, "expected an object of strings")
    return tuple(
        (text_at(key, f"{path} key"), text_at(text, f"{path}.{key}")) for key, text in value.items()
    )


def puzzle_at(value: object, path: str) -> Puzzle:
    if not isinstance(value, dict):
        raise Shape(path or "top level", 'expected a puzzle object {"rows": ..., "columns": ...}')
    unknown = sorted(set(value) - KEYS)
    if unknown:
        known = ", ".join(sorted(KEYS))
        raise Shape(path or "top level", f"unknown key {unknown[0]!r} (known keys: {known})")
    for key in ("rows", "columns"):
        if key not in value:
            raise Shape(path or "top level", f"expected a {key!r} key")
    prefix = f"{path}." if path else ""
    rows = clues_at(value["rows"], f"{prefix}rows")
    columns = clues_at(value["columns"], f"{prefix}columns")
    solution = value.get("solution")
    puzzle = Puzzle(
        rows=rows,
        columns=columns,
        solution=None
        if solution is None
        else grid_at(solution, f"{prefix}solution", len(columns), len(rows)),
        extra=extra_at(value["extra"], f"{prefix}extra") if "extra" in value else (),
        **{k: text_at(value[k], prefix + k) for k in TEXT_FIELDS if value.get(k) is not None},
    )

    def located(kind: str, index: int, message: str) -> Shape:
        return Shape(f"{prefix}{kind}s[{index}]", message)

    return consistent(puzzle, located)


def puzzles_at(data: object, source: str) -> list[Reading]:
    """The puzzles of a document: one, or each item of a list, a bad item's error in its place."""
    if isinstance(data, dict) and "puzzles" in data:
        if len(data) > 1:
            unknown = min(set(data) - {"puzzles"})
            raise Shape("top level", f"unknown key {unknown!r} beside 'puzzles'")
        items = listed(data["puzzles"], "puzzles", "a list of puzzles")
        paths = [f"puzzles[{i}]" for i in range(len(items))]
    elif isinstance(data, list):
        items, paths = data, [f"[{i}]" for i in range(len(data))]
    else:
        return [puzzle_at(data, "")]
    return each(lambda item: read_item(source, *item), zip(items, paths, strict=True))


def read_item(source: str, value: object, path: str) -> Puzzle:
    """The puzzle at ``path`` in a list of them, its error the file's."""
    try:
        return puzzle_at(value, path)
    except Shape as error:
        raise error.read_in(source) from None


def read(text: str, source: str) -> list[Reading]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(source, error.lineno, error.colno, f"invalid JSON: {error.msg}") from None
    except RecursionError:
        raise InputError(source, None, None, "invalid JSON: nested too deeply") from None
    except ValueError:  # Python's limit on converting long numbers
        raise InputError(
            source, None, None, "invalid JSON: a number of over 4,300 digits"
        ) from None
    try:
        return puzzles_at(data, source)
    except Shape as error:
        raise error.read_in(source) from None
    except RecursionError:  # an error showing a value nested almost as deep as JSON may go
        raise InputError(source, None, None, "a value nested too deeply for a puzzle") from None


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
