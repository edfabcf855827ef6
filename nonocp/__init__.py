"""nonocp: solve, count and check nonograms with constraint programming.

The public API is loaded lazily so that ``import nonocp`` (and the CLI's start-up) does
not pay for OR-tools until something is actually solved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nonocp.formats import load, load_all
from nonocp.puzzle import Puzzle, satisfies

if TYPE_CHECKING:
    from nonocp.engine import Count, Enumeration, Result, count, solutions, solve

__all__ = [
    "Count",
    "Enumeration",
    "Puzzle",
    "Result",
    "count",
    "load",
    "load_all",
    "satisfies",
    "solutions",
    "solve",
]

_ENGINE_NAMES = {"Count", "Enumeration", "Result", "count", "solutions", "solve"}


def __getattr__(name: str) -> Any:
    if name in _ENGINE_NAMES:
        from nonocp import engine

        return getattr(engine, name)
    raise AttributeError(f"module 'nonocp' has no attribute {name!r}")
