"""Pictures for the terminal: clues that stay apart, and a picture that never wraps."""

from __future__ import annotations

import io

from rich.console import Console

from nonocp.puzzle import Puzzle
from nonocp.render import full_width, picture


def drawn(puzzle: Puzzle, width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(picture(puzzle, puzzle.solution or [], width=width))
    return console.export_text().splitlines()


def test_two_digit_column_clues_stay_apart() -> None:
    full = Puzzle.from_grid([[1] * 12] * 12)
    clues, first, *_ = drawn(full, 80)
    assert clues.split() == ["12"] * 12  # not "1212121212"
    assert first.startswith("12 ") and first.count("█") == 3 * 12  # three characters a cell
    assert max(map(len, drawn(full, 80))) == full_width(full)


def test_a_picture_too_wide_is_drawn_small_and_one_too_wide_for_that_is_named() -> None:
    wide = Puzzle.from_grid([[1, 0] * 15, [0, 1] * 15])
    assert drawn(wide, 79) == ["▀▄" * 15]  # one text line holds two rows of half blocks
    said = " ".join(line.strip() for line in drawn(wide, 20))
    assert said.startswith("(a 30x2 picture needs 30 columns even drawn small, and the")
    assert said.endswith("terminal has 20: widen it, or use --plain)")
