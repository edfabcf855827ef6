"""Magnitude instance files and answer lines.

Two input styles: ``base64`` (one 16x16 grid per line, 256 cells row-major, most
significant bit first, 44 characters with the pad; the instance is the grid's magnitudes)
and ``counts`` (per instance a line of row magnitudes, then a line of column magnitudes,
any sizes). Answers are one line per instance in the input's style: the grid in base64
(followed by ``unproven`` when it is not proven optimal), or ``<filled> <status> <row>
<row> ...`` with rows as 0/1 strings. An instance without a grid is answered by its
status word alone.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from nonocp.errors import InputError
from nonocp.formats import DIGITS, LONG_NUMBER, name_of, read_file
from nonocp.magnitude.bounds import Magnitudes, magnitudes
from nonocp.magnitude.optimize import Result, Status
from nonocp.puzzle import Grid, too_large

SIDE = 16
BASE64_LENGTH = 44
BASE64_ALPHABET = re.compile(r"[A-Za-z0-9+/]*=?")


class Style(StrEnum):
    BASE64 = "base64"
    COUNTS = "counts"


STATUS_WORD = "|".join(status.value for status in Status)
COUNTS_ANSWER = re.compile(rf"\d+ ({STATUS_WORD})( [01]+)+")
UNPROVEN_CUT = "|".join(Status.UNPROVEN.value[:n] for n in range(len(Status.UNPROVEN.value)))
ANSWER_START = {
    Style.BASE64: re.compile(
        rf"[A-Za-z0-9+/]{{0,{BASE64_LENGTH - 1}}}"
        rf"|[A-Za-z0-9+/]{{{BASE64_LENGTH - 1}}}= (?:{UNPROVEN_CUT})"
    ),
    Style.COUNTS: re.compile(r"(\d+( [a-z]*| [a-z]+( [01]*)+)?)?"),
}
"""What an interrupted run can leave of its last answer line: a base64 grid short of at
least its pad (or whole, its status word cut), or the first fields of a counts answer, the last
one perhaps cut."""


@dataclass(frozen=True)
class Instance:
    rows: Magnitudes
    columns: Magnitudes
    line: int
    """The input line the instance starts on."""
    picture: Grid | None = None
    """The grid a base64 instance was given as: one answer, if not the best."""


def read_instances(path: str, style: Style | None = None) -> tuple[Style, list[Instance]]:
    """The instances of a file, in the style given or detected from its first line."""
    text, source = read_file(path), name_of(path)
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InputError(source, None, None, "no instance found (the file is empty)")
    chosen = style or detect(lines[0][1].strip())
    read = _base64_instances if chosen is Style.BASE64 else _counts_instances
    return chosen, list(read(source, lines))


def detect(first_line: str) -> Style:
    """Base64 lines are one word and never a plain number; counts lines are the rest."""
    return Style.COUNTS if len(first_line.split()) > 1 or first_line.isdigit() else Style.BASE64


def _base64_instances(path: str, lines: list[tuple[int, str]]) -> Iterator[Instance]:
    for n, line in lines:
        indent = len(line) - len(line.lstrip())
        picture = decode_grid(line.strip(), path, n, indent + 1)
        yield Instance(*magnitudes(picture), n, picture)


def decode_grid(text: str, path: str, line: int, column: int = 1) -> Grid:
    """A 16x16 grid from its 44 base64 characters; errors located at the bad character."""
    valid = BASE64_ALPHABET.match(text)
    if valid is None or valid.end() != len(text):
        bad = valid.end() if valid else 0
        raise InputError(
            path, line, column + bad, f"expected a base64 character, found {text[bad]!r}"
        )
    if len(text) != BASE64_LENGTH:
        raise InputError(
            path,
            line,
            column,
            f"expected {BASE64_LENGTH} base64 characters (a {SIDE}x{SIDE} grid), found {len(text)}",
        )
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise InputError(path, line, column, f"not valid base64 ({error})") from None
    if len(data) != SIDE * SIDE // 8:  # 44 characters without the pad: 264 bits
        end = column + BASE64_LENGTH - 1
        raise InputError(path, line, end, f"expected '=' (the pad), found {text[-1]!r}")
    if base64.b64encode(data).decode("ascii") != text:  # bits past the grid's 256
        end = column + BASE64_LENGTH - 2
        raise InputError(path, line, end, f"{text[-2]!r} sets bits past the grid's 256")
    bits = int.from_bytes(data, "big")
    cells = SIDE * SIDE
    return tuple(
        tuple((bits >> (cells - 1 - (i * SIDE + j))) & 1 for j in range(SIDE)) for i in range(SIDE)
    )


def encode_grid(grid: Grid) -> str:
    bits = 0
    for row in grid:
        for cell in row:
            bits = bits << 1 | cell
    return base64.b64encode(bits.to_bytes(SIDE * SIDE // 8, "big")).decode("ascii")


def _counts_instances(path: str, lines: list[tuple[int, str]]) -> Iterator[Instance]:
    """Each pair of lines as an instance; every line's numbers are read before the pairs
    are counted, so that a stray word is named where it stands, not at the file's end."""
    numbers = [(n, _numbers(path, n, text)) for n, text in lines]
    if len(numbers) % 2:
        n, _ = numbers[-1]
        message = f"expected a line of column magnitudes after line {n}, found end of file"
        raise InputError(path, n + 1, 1, message)
    for (row_line, rows), (column_line, columns) in zip(numbers[::2], numbers[1::2], strict=True):
        why = too_large(len(columns), len(rows))
        if why is not None:
            raise InputError(path, row_line, 1, why)
        _check_fit(path, row_line, rows, len(columns), "row", "columns")
        _check_fit(path, column_line, columns, len(rows), "column", "rows")
        yield Instance(tuple(k for _, k in rows), tuple(k for _, k in columns), row_line)


def _numbers(path: str, line: int, text: str) -> list[tuple[int, int]]:
    """The run counts of a line, each with the column it starts at."""
    numbers = []
    for match in re.finditer(r"\S+", text):
        token = match.group()
        if not re.fullmatch("[0-9]+", token):
            negative = re.fullmatch(r"-\d+", token)
            what = "run counts cannot be negative" if negative else "expected a run count"
            raise InputError(path, line, match.start() + 1, f"{what}, found {token!r}")
        if len(token) > DIGITS:
            raise InputError(path, line, match.start() + 1, LONG_NUMBER)
        numbers.append((match.start() + 1, int(token)))
    return numbers


def _check_fit(
    path: str, line: int, counts: list[tuple[int, int]], length: int, kind: str, across: str
) -> None:
    """A line of ``length`` cells holds at most (length + 1) // 2 runs."""
    most = (length + 1) // 2
    for index, (column, k) in enumerate(counts, start=1):
        if k > most:
            message = f"{kind} {index} has {k} runs but {length} {across} hold at most {most}"
            raise InputError(path, line, column, message)


def answer_line(result: Result, style: Style) -> str:
    if result.grid is None:
        return result.status.value
    if style is Style.BASE64:
        grid = encode_grid(result.grid)
        return grid if result.optimal else f"{grid} {result.status.value}"
    rows = " ".join("".join(map(str, row)) for row in result.grid)
    return f"{result.filled} {result.status.value} {rows}"


def answer_grid(text: str, style: Style, path: str, line: int) -> Grid | None:
    """The grid an answer line holds (None for a status word), for resuming a run."""
    if text in {status.value for status in Status}:
        return None
    if style is Style.BASE64:
        grid, _, status = text.partition(" ")
        decoded = decode_grid(grid, path, line)  # first: a line of another file fails here
        if status not in ("", Status.UNPROVEN.value):
            raise InputError(path, line, len(grid) + 2, f"expected '{Status.UNPROVEN.value}'")
        return decoded
    if not COUNTS_ANSWER.fullmatch(text):
        raise InputError(path, line, 1, "expected '<filled> <status> <rows of 0 and 1>'")
    return tuple(tuple(int(cell) for cell in row) for row in text.split()[2:])


def answer_start(text: str, style: Style) -> bool:
    """Whether ``text`` can be the start of an answer line, as an interrupted run leaves
    its last one."""
    return ANSWER_START[style].fullmatch(text) is not None
