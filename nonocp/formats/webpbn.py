"""webpbn's XML format (black-and-white grid puzzles), read with the standard library.

``<puzzleset>`` holds ``<puzzle>`` elements with ``<clues type="columns">`` and
``<clues type="rows">`` (a ``<line>`` of ``<count>`` elements per line), optional
``<title>``, ``<author>``, ``<copyright>`` and a ``<solution>`` whose ``<image>`` draws
the picture between ``|`` bars. webpbn's exports declare a DTD nobody fetches yet use
HTML entities such as ``&copy;``, so those are resolved from Python's HTML entity table.

Files are parsed by the fast C parser. When anything is wrong, they are parsed again
from expat events so that every element remembers where it starts: errors inside the
structure (a count that is not a number, a bad image row) are then located as
precisely as syntax errors, at no cost to the files that are right.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from html.entities import html5
from xml.parsers import expat

from nonocp.errors import InputError
from nonocp.formats import (
    LONG_NUMBER,
    NO_CELLS,
    NOT_SUPPORTED,
    NUMBER,
    ZERO_BESIDE,
    Format,
    Reading,
    consistent,
    each,
    shown,
    zero_beside,
)
from nonocp.puzzle import Clue, Grid, Puzzle, clue
from nonocp.words import counted

TEXT_FIELDS = ("title", "author", "copyright")
EXTRA_TAGS = ("source", "id", "authorid", "description")
HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">'
)
ENTITIES = {name.removesuffix(";"): text for name, text in html5.items() if name.endswith(";")}
COUNT = re.compile(rf"\s*{NUMBER}\s*", re.ASCII)
"""A ``<count>``'s text: one number, ASCII blanks around it (a no-break space is none)."""
BLANKS = " \t\n\r\f\v"
r"""The blanks ``COUNT`` allows, those of ``re.ASCII``'s ``\s``."""

Where = dict[ET.Element, tuple[int, int]]


def quick_parse(text: str) -> ET.Element | None:
    """The document parsed by the C parser, or None when only the careful parse can tell why not."""
    parser = ET.XMLParser()
    parser.entity.update(ENTITIES)
    try:
        parser.feed(text)
        return parser.close()
    except ET.ParseError:
        return None


def located_parse(text: str, source: str) -> tuple[ET.Element, Where]:
    """The document's root element, and the line and column where each element starts.

    Elements are built from expat events so each can remember its position; this is
    slower than the C parser, so it runs only to locate an error.
    """
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.UseForeignDTD(True)
    where: Where = {}

    def here() -> tuple[int, int]:
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def start(tag: str, attributes: dict[str, str]) -> None:
        where[builder.start(tag, attributes)] = here()

    def entity(name: str, _is_parameter: bool) -> None:
        if name not in ENTITIES:
            raise InputError(source, *here(), f"unknown entity &{name};")
        builder.data(ENTITIES[name])

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.SkippedEntityHandler = entity
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        message = f"invalid XML: {expat.ErrorString(error.code)}"
        raise InputError(source, error.lineno, error.offset + 1, message) from None
    return builder.close(), where


class Reader:
    """Turns ``<puzzle>`` elements into puzzles, with errors located at their elements."""

    def __init__(self, source: str, where: Where) -> None:
        self.source = source
        self.where = where

    def error(self, element: ET.Element, message: str, lines_below: int = 0) -> InputError:
        line, column = self.where.get(element, (0, 0))
        return InputError(
            self.source, line + lines_below, column if not lines_below else 1, message
        )

    def puzzle(self, element: ET.Element) -> Puzzle:
        if element.get("type", "grid") != "grid":
            raise self.error(
                element, f"only grid puzzles are supported, found {element.get('type')!r}"
            )
        self.require_black_and_white(element)
        text = {tag: element.findtext(tag) for tag in TEXT_FIELDS}
        extra = tuple(
            (tag, value) for tag in EXTRA_TAGS if (value := element.findtext(tag)) is not None
        )
        rows, columns = self.clues(element, "rows"), self.clues(element, "columns")
        puzzle = Puzzle(
            rows=rows,
            columns=columns,
            solution=self.solution(element, len(columns), len(rows)),
            extra=extra,
            **text,
        )

        def located(kind: str, index: int, message: str) -> InputError:
            return self.error(self.lines(element, f"{kind}s")[index], message)

        return consistent(puzzle, located)

    def require_black_and_white(self, element: ET.Element) -> None:
        if element.get("defaultcolor", "black") != "black":
            raise self.error(
                element, f"{NOT_SUPPORTED} (defaultcolor {element.get('defaultcolor')!r})"
            )
        for named in element.iter("color"):
            if named.get("name") not in ("black", "white"):
                raise self.error(named, f"{NOT_SUPPORTED} (colour {named.get('name')!r})")
        for count in element.iter("count"):
            if count.get("color", "black") != "black":
                raise self.error(count, f"{NOT_SUPPORTED} (a {count.get('color')!r} count)")

    def clues(self, element: ET.Element, kind: str) -> tuple[Clue, ...]:
        return tuple(map(self.line, self.lines(element, kind)))

    def lines(self, element: ET.Element, kind: str) -> list[ET.Element]:
        """The ``<line>`` elements of the puzzle's one ``<clues type="kind">``."""
        found = [c for c in element.findall("clues") if c.get("type") == kind]
        if len(found) != 1:
            at, how_many = (found[1], "two") if found else (element, "none")
            raise self.error(at, f'expected one <clues type="{kind}">, found {how_many}')
        lines = found[0].findall("line")
        if not lines:
            raise self.error(found[0], f"expected a <line> for each of the {kind}: {NO_CELLS}")
        return lines

    def line(self, element: ET.Element) -> Clue:
        counts = element.findall("count")
        texts = [count.text or "" for count in counts]
        if len(texts) == 1 and not texts[0].strip(BLANKS):  # <count/> alone: an empty line
            return ()
        for count, text in zip(counts, texts, strict=True):
            if not COUNT.fullmatch(text):
                raise self.error(count, count_error(text))
        found = [int(text) for text in texts]
        if zero_beside(found):
            raise self.error(counts[found.index(0)], ZERO_BESIDE)
        return clue(found)

    def solution(self, element: ET.Element, width: int, height: int) -> Grid | None:
        goals = [s for s in element.findall("solution") if s.get("type", "goal") == "goal"]
        image = goals[0].find("image") if goals else None
        if image is None:
            return None
        filled, empty = (
            self.colour_char(element, "black", "X"),
            self.colour_char(element, "white", "."),
        )
        rows: list[tuple[int, ...]] = []
        for below, raw in enumerate((image.text or "").split("\n")):
            row = raw.strip()
            if not row:
                continue
            cells = row.removeprefix("|").removesuffix("|")
            if not row.startswith("|") or not row.endswith("|") or set(cells) - {filled, empty}:
                raise self.error(
                    image,
                    f"expected an image row '|' {filled}/{empty} cells '|', found {shown(row)}",
                    below,
                )
            if len(cells) != width:
                wanted = f"expected {counted(width, 'cell')} (the puzzle's width) in an image row"
                raise self.error(image, f"{wanted}, found {len(cells)}", below)
            rows.append(tuple(int(c == filled) for c in cells))
        if rows and len(rows) != height:
            wanted = f"expected {counted(height, 'image row')} (the puzzle's height)"
            raise self.error(image, f"{wanted}, found {len(rows)}")
        return tuple(rows) or None

    @staticmethod
    def colour_char(element: ET.Element, name: str, default: str) -> str:
        named = [c for c in element.findall("color") if c.get("name") == name]
        return named[0].get("char", default) if named else default


def count_error(text: str) -> str:
    """Why a ``<count>``'s text is not one number of at most ``DIGITS`` digits."""
    found = text.strip(BLANKS)
    if found.isascii() and found.isdigit():
        return f"{LONG_NUMBER} in <count>"
    return f"expected a number in <count>, found {shown(found)}"


def puzzles_in(root: ET.Element, reader: Reader) -> list[Reading]:
    if root.tag not in ("puzzleset", "puzzle"):
        raise reader.error(root, f"expected <puzzleset>, found <{root.tag}>")
    return each(reader.puzzle, [root] if root.tag == "puzzle" else root.findall("puzzle"))


def read(text: str, source: str) -> list[Reading]:
    """Parse fast; on any error, parse again keeping positions, which locates it."""
    root = quick_parse(text)
    if root is not None:
        try:
            readings = puzzles_in(root, Reader(source, {}))
            if all(isinstance(reading, Puzzle) for reading in readings):
                return readings
        except InputError:
            pass
    root, where = located_parse(text, source)
    return puzzles_in(root, Reader(source, where))


NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""The characters XML 1.0 cannot hold at all, not even as character references."""


def tagged(tag: str, value: str) -> str:
    """``<tag>value</tag>`` that parses back to ``value`` exactly (carriage returns
    included), but for each character XML cannot hold, which becomes U+FFFD (the mark
    of a character that could not be kept) rather than a file no parser reads.

    ``saxutils`` is imported here, when writing, as it loads ``urllib`` and ``email`` too:
    about a tenth of the CLI's import time, which every command would otherwise pay.
    """
    from xml.sax.saxutils import escape

    kept = NOT_XML.sub("\ufffd", value)
    return f"<{tag}>{escape(kept).replace(chr(13), '&#13;')}</{tag}>"


def clues_xml(kind: str, clues: Sequence[Clue]) -> list[str]:
    lines = ["<line>" + "".join(f"<count>{n}</count>" for n in c) + "</line>" for c in clues]
    return [f'<clues type="{kind}">', *lines, "</clues>"]


def puzzle_xml(puzzle: Puzzle) -> list[str]:
    extra = dict(puzzle.extra)
    values = {
        **{t: extra.get(t) for t in EXTRA_TAGS},
        **{t: getattr(puzzle, t) for t in TEXT_FIELDS},
    }
    order = ("source", "id", "title", "author", "authorid", "copyright", "description")
    lines = ['<puzzle type="grid" defaultcolor="black">']
    lines += [tagged(tag, values[tag]) for tag in order if values[tag] is not None]
    lines += [
        '<color name="white" char=".">fff</color>',
        '<color name="black" char="X">000</color>',
    ]
    lines += clues_xml("columns", puzzle.columns) + clues_xml("rows", puzzle.rows)
    if puzzle.solution is not None:
        image = ["|" + "".join(".X"[c] for c in row) + "|" for row in puzzle.solution]
        lines += ['<solution type="goal">', "<image>", *image, "</image>", "</solution>"]
    return [*lines, "</puzzle>"]


def write(puzzles: Sequence[Puzzle]) -> str:
    body = [line for puzzle in puzzles for line in puzzle_xml(puzzle)]
    return "\n".join([HEADER, "<puzzleset>", *body, "</puzzleset>"]) + "\n"


def looks_like(text: str) -> bool:
    head = text.lstrip()[:1000]
    return head.startswith("<") and ("<puzzleset" in head or "<puzzle" in head)


FORMAT = Format("webpbn", ("xml", "pbn"), read, write, looks_like, holds_many=True)
