"""Gecode/R nonogram files (``row_rules`` / ``col_rules``), parsed with a Lark grammar.

The grammar (``gecode.lark``) accepts the variants found in the wild: a colon after the
section name, ``#`` and ``%`` comments, blank lines anywhere, spaces after commas,
trailing commas, CRLF, ``0`` for an empty line, and the sections in either order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

from lark import (
    Lark,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)
from lark.tree import Meta

from nonocp.errors import InputError
from nonocp.formats import (
    DIGITS,
    LONG_NUMBER,
    NO_CELLS,
    ZERO_BESIDE,
    Format,
    consistent,
    shown,
    zero_beside,
)
from nonocp.puzzle import Clue, Puzzle, clue, format_clue

Placed = tuple[Clue, int, int]
"""A clue and the line and column where the file writes it."""

TERMINAL_NAMES = {
    "NUMBER": "a number",
    "_COMMA": "','",
    "_COLON": "':'",
    "_NL": "end of line",
    "SECTION": "row_rules or col_rules",
    "$END": "end of file",
}


@cache
def parser() -> Lark:
    grammar = files("nonocp.formats").joinpath("gecode.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True)


class _Sections(Transformer[Token, dict[str, list[Placed]]]):
    """Turn the parse tree into ``{"row_rules": [...], "col_rules": [...]}``, each clue
    with its position: a clue too long for its line is only known once both sections are
    read, and is then reported where it is written."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def NUMBER(self, token: Token) -> int:
        if token.startswith("-"):
            raise InputError(
                self.source, token.line, token.column, "block lengths cannot be negative"
            )
        if len(token) > DIGITS:
            message = f"{LONG_NUMBER}, found {shown(token)}"
            raise InputError(self.source, token.line, token.column, message)
        return int(token)

    @v_args(meta=True)
    def clue(self, meta: Meta, numbers: list[int]) -> Placed:
        if zero_beside(numbers):
            raise InputError(self.source, meta.line, meta.column, ZERO_BESIDE)
        return clue(numbers), meta.line, meta.column

    def section(self, children: list) -> tuple[Token, list[Placed]]:
        return children[0], children[1:]

    def start(self, sections: list[tuple[Token, list[Placed]]]) -> dict[str, list[Placed]]:
        found: dict[str, list[Placed]] = {}
        for name, clues in sections:
            if name in found:
                raise InputError(self.source, name.line, name.column, f"second {name} section")
            if not clues:
                message = f"{name} section has no clues: {NO_CELLS}"
                raise InputError(self.source, name.line, name.column, message)
            found[str(name)] = clues
        return found


def describe(error: UnexpectedInput) -> str:
    """What the grammar expected at the error, in words."""
    if isinstance(error, UnexpectedToken):
        expected = sorted(error.expected)
        found = "end of file" if error.token.type == "$END" else repr(str(error.token))
    elif isinstance(error, UnexpectedCharacters):
        expected = sorted(error.allowed or ())
        found = repr(error.char)
    else:
        expected, found = [], "unexpected input"
    names = sorted({TERMINAL_NAMES.get(t, t) for t in expected if not t.startswith("__")})
    wanted = " or ".join(names) if names else "something else"
    return f"expected {wanted}, found {found}"


def read(text: str, source: str) -> list[Puzzle]:
    try:
        tree = parser().parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as error:
        raise InputError(source, error.line, error.column, describe(error)) from None
    try:
        sections = _Sections(source).transform(tree)
    except Exception as error:  # lark wraps errors raised in callbacks
        cause = getattr(error, "orig_exc", error)
        if isinstance(cause, InputError):
            raise cause from None
        raise
    last_line = text.count("\n") + 1
    for name in ("row_rules", "col_rules"):
        if name not in sections:
            raise InputError(source, last_line, 1, f"missing {name} section")
    placed = {"row": sections["row_rules"], "column": sections["col_rules"]}
    puzzle = Puzzle(
        rows=tuple(c for c, _, _ in placed["row"]), columns=tuple(c for c, _, _ in placed["column"])
    )

    def located(kind: str, index: int, message: str) -> InputError:
        _, line, column = placed[kind][index]
        return InputError(source, line, column, message)

    return [consistent(puzzle, located)]


def write(puzzles: Sequence[Puzzle]) -> str:
    (puzzle,) = puzzles
    lines = [f"# {line}" for line in (puzzle.title or "").splitlines()]  # each line a comment
    lines.append("row_rules")
    lines.extend(format_clue(c) for c in puzzle.rows)
    lines.append("")
    lines.append("col_rules")
    lines.extend(format_clue(c) for c in puzzle.columns)
    return "\n".join(lines) + "\n"


def looks_like(text: str) -> bool:
    return re.search(r"^[ \t]*(row|col)_rules", text, re.MULTILINE) is not None


FORMAT = Format("gecode", ("txt", "gecode"), read, write, looks_like)
