"""Steve Simpson's ``.non`` format with the nonogram-db extensions, and ``.nonpack`` bundles.

A file is a sequence of ``key value`` lines: ``width``/``height`` first, then ``rows`` and
``columns`` sections of exactly that many clue lines (numbers separated by commas; a
blank line or ``0`` is an empty clue), and metadata: ``title``, ``by``, ``copyright``,
``license``, ``catalogue``, ``goal "0101..."``. Values may be quoted and carry HTML
entities. Unknown keys are kept as extras so conversions do not lose them; lines that
are not ``key value`` are ignored, as the format asks. A bundle is several such files
joined by ``====`` lines.

Colour puzzles (``color`` keys, letters after the numbers) are recognised and refused
with a clear message until nonocp can solve them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from nonocp.errors import InputError
from nonocp.formats import (
    DIGITS,
    LONG_NUMBER,
    NO_CELLS,
    NOT_SUPPORTED,
    Format,
    Reading,
    consistent,
    each,
    shown,
)
from nonocp.formats.lines import Line, at_lines, end_of, is_blank, numbered_lines, parse_clues
from nonocp.puzzle import Clue, Grid, Puzzle, format_clue

KEY_LINE = re.compile(r"[ \t]*([A-Za-z][\w-]*)(?:[ \t]+(.*?))?[ \t]*")
SEPARATOR = re.compile(r"={4,}[ \t]*")
COLOUR_LETTER = re.compile(r"(?<=\d)[ \t]*([A-Za-z])", re.ASCII)
SPDX_ID = re.compile(r"[A-Za-z0-9.+-]+")
FIELDS = {"title": "title", "by": "author", "copyright": "copyright", "license": "license"}
STRUCTURE = {"width", "height", "rows", "columns", "goal", "color"}
KNOWN_KEYS = {*STRUCTURE, *FIELDS, "catalogue"}


def unquote(raw: str | None) -> str:
    text = (raw or "").strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return html.unescape(text)


def quoted(value: str) -> str:
    """A string value the reader gives back unchanged, line breaks and quotes included."""
    escaped = html.escape(value, quote=False).replace('"', "&quot;")
    return '"' + escaped.replace("\n", "&#10;").replace("\r", "&#13;") + '"'


@dataclass
class Draft:
    """What one puzzle's lines have said so far; ``puzzle`` checks it is complete."""

    source: str
    size: dict[str, int] = field(default_factory=dict)
    sections: dict[str, tuple[list[Line], list[Clue]]] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    extra: list[tuple[str, str]] = field(default_factory=list)
    goal: tuple[Line, str] | None = None
    given: dict[str, int] = field(default_factory=dict)
    """The line of each key a puzzle states once (its size, goal, title and the like):
    a second would silently replace the first."""

    def error(self, line: Line, message: str, column: int = 1) -> InputError:
        return InputError(self.source, line[0], column, message)

    def take(self, line: Line, key: str, value: str | None, rest: Iterator[Line]) -> None:
        """Act on one ``key value`` line; sections read their clue lines from ``rest``."""
        if key == "color":
            raise self.error(line, f"{NOT_SUPPORTED} (found a 'color' line)")
        if key in ("width", "height") or (key in ("rows", "columns") and value):
            self.set_size(line, {"rows": "height", "columns": "width"}.get(key, key), value)
        elif key in ("rows", "columns"):
            self.sections[key] = self.section(line, key, rest)
        elif key == "goal":
            self.once(line, key)
            self.goal = (line, unquote(value))
        elif key in FIELDS:
            self.once(line, key)
            self.metadata[FIELDS[key]] = unquote(value)
        elif value is not None:
            self.extra.append((key, unquote(value)))

    def once(self, line: Line, key: str) -> None:
        if key in self.given:
            raise self.error(line, f"second {key} (the first is at line {self.given[key]})")
        self.given[key] = line[0]

    def set_size(self, line: Line, key: str, value: str | None) -> None:
        self.once(line, key)
        if not (value and value.isascii() and value.isdigit()):
            found = shown(value) if value else "nothing"
            raise self.error(line, f"expected a number after {key}, found {found}")
        if len(value) > DIGITS:
            raise self.error(line, f"{LONG_NUMBER} after {key}")
        if int(value) == 0:
            raise self.error(line, f"{key} 0: {NO_CELLS}")
        self.size[key] = int(value)

    def section(self, start: Line, key: str, rest: Iterator[Line]) -> tuple[list[Line], list[Clue]]:
        """The clue lines after ``rows``/``columns`` (exactly height/width of them), and
        their clues."""
        if "width" not in self.size or "height" not in self.size:
            raise self.error(start, f"expected 'width N' and 'height N' before '{key}'")
        if key in self.sections:
            raise self.error(start, f"second '{key}' section")
        kind, count = (
            ("row", self.size["height"]) if key == "rows" else ("column", self.size["width"])
        )
        lines = list(islice(rest, count))
        keyword = next((i for i, line in enumerate(lines) if starts_with_key(line)), None)
        if keyword is not None or len(lines) < count:
            found = len(lines) if keyword is None else keyword
            where = end_of([start, *lines]) if keyword is None else lines[keyword][0]
            raise InputError(
                self.source,
                where,
                1,
                f"expected {count} {kind} clue lines after '{key}' (line {start[0]}), "
                f"found {found}",
            )
        for line in lines:
            self.refuse_colour(line)
        return lines, parse_clues(lines, self.source, commas=True)

    def full(self) -> str:
        """Why a clue line cannot start here: the section above already has all its lines."""
        if not self.sections:
            return " outside a rows or columns section"
        key = list(self.sections)[-1]
        return f": '{key}' already has its {len(self.sections[key][0])} clues"

    def refuse_colour(self, line: Line) -> None:
        letter = COLOUR_LETTER.search(line[1])
        if letter:
            message = f"{NOT_SUPPORTED} (colour letter {letter[1]!r})"
            raise self.error(line, message, letter.start(1) + 1)

    def solution(self) -> Grid | None:
        """The ``goal`` string as a grid: row by row, ``0`` empty and ``1`` filled."""
        if self.goal is None:
            return None
        line, cells = self.goal
        width, height = self.size["width"], self.size["height"]
        bad = re.search(r"[^01]", cells)
        if bad:
            written = line[1].find(cells)  # not there if the goal was written with entities
            column = written + bad.start() + 1 if written >= 0 else 1
            raise self.error(line, f"expected 0 or 1 in goal, found {bad[0]!r}", column)
        if len(cells) != width * height:
            raise self.error(
                line,
                f"goal has {len(cells)} cells, expected {width * height} (width {width} "
                f"times height {height})",
            )
        return tuple(
            tuple(map(int, cells[row * width : (row + 1) * width])) for row in range(height)
        )

    def puzzle(self, end: int) -> Puzzle:
        missing = [k for k in ("width", "height") if k not in self.size] + [
            k for k in ("rows", "columns") if k not in self.sections
        ]
        if missing:
            raise InputError(self.source, end, 1, f"expected a '{missing[0]}' line")
        (row_lines, rows), (column_lines, columns) = self.sections["rows"], self.sections["columns"]
        puzzle = Puzzle(
            rows=tuple(rows),
            columns=tuple(columns),
            solution=self.solution(),
            extra=tuple(self.extra),
            **self.metadata,
        )
        return consistent(puzzle, at_lines(self.source, row_lines, column_lines))


def starts_with_key(line: Line) -> bool:
    """Whether a line inside a section is a key, which means the section ended too early."""
    match = KEY_LINE.fullmatch(line[1])
    return match is not None and match[1] in KNOWN_KEYS


def read_one(lines: list[Line], source: str) -> Puzzle:
    draft = Draft(source)
    rest = iter(lines)
    for line in rest:
        match = KEY_LINE.fullmatch(line[1])
        if match:
            draft.take(line, match[1], match[2], rest)
        elif line[1].lstrip()[:1].isdigit():
            raise draft.error(
                line, f"expected a key such as columns or goal, found a clue line{draft.full()}"
            )
    return draft.puzzle(end_of(lines))


def puzzles_in(lines: list[Line]) -> list[list[Line]]:
    """The lines of each puzzle in a bundle: the non-blank runs between ``====`` lines."""
    found: list[list[Line]] = [[]]
    for line in lines:
        if SEPARATOR.fullmatch(line[1]):
            found.append([])
        else:
            found[-1].append(line)
    return [part for part in found if not all(map(is_blank, part))]


def read(text: str, source: str) -> list[Reading]:
    return each(lambda part: read_one(part, source), puzzles_in(numbered_lines(text)))


def metadata_lines(puzzle: Puzzle) -> list[str]:
    """``key value`` lines for everything the puzzle says about itself that .non can hold."""
    lines = [
        f"{key} {quoted(value)}"
        for key, value in puzzle.extra
        if KEY_LINE.fullmatch(key) and key not in STRUCTURE | FIELDS.keys()
    ]
    for key, attribute in FIELDS.items():
        value = getattr(puzzle, attribute)
        if value is not None:
            plain = key == "license" and SPDX_ID.fullmatch(value)
            lines.append(f"{key} {value if plain else quoted(value)}")
    return lines


def write_one(puzzle: Puzzle) -> str:
    lines = [
        *metadata_lines(puzzle),
        f"width {puzzle.width}",
        f"height {puzzle.height}",
        "",
        "rows",
        *map(format_clue, puzzle.rows),
        "",
        "columns",
        *map(format_clue, puzzle.columns),
    ]
    if puzzle.solution is not None:
        lines += ["", 'goal "' + "".join(str(c) for row in puzzle.solution for c in row) + '"']
    return "\n".join(lines) + "\n"


def write(puzzles: Sequence[Puzzle]) -> str:
    return "====\n".join(map(write_one, puzzles))


def looks_like(text: str) -> bool:
    return (
        re.search(r"^[ \t]*(width|height)[ \t]+\d", text, re.MULTILINE) is not None
        and re.search(r"^[ \t]*(rows|columns)[ \t]*\r?$", text, re.MULTILINE) is not None
    )


def looks_like_pack(text: str) -> bool:
    return looks_like(text) and re.search(r"^={4,}[ \t]*\r?$", text, re.MULTILINE) is not None


FORMAT = Format("non", ("non",), read, write, looks_like)
PACK_FORMAT = Format("nonpack", ("nonpack",), read, write, looks_like_pack, holds_many=True)
