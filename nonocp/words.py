"""How nonocp's messages count things, from the puzzle's checks to the command line's
summaries: one rule, so that none says ``1 cells``."""

from __future__ import annotations


def counted(count: int, thing: str) -> str:
    """``3 files``, ``1 file``."""
    return f"{count} {thing}{'s' * (count != 1)}"
