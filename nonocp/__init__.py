"""nonocp: solve, count and check nonograms with constraint programming.

The public API is loaded lazily: ``import nonocp`` costs nothing, the readers (lark) load
on first use and OR-tools only when something is actually solved. The command line's
start-up depends on it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nonocp.answers import Count, Result, Status, Stop, Uniqueness
    from nonocp.engine import Analysis, Enumeration, analyze, count, solutions, solve
    from nonocp.errors import InputError, NonocpError, PuzzleError
    from nonocp.formats import dumps, load, load_all, load_each
    from nonocp.puzzle import Puzzle, satisfies

__all__ = [
    "Analysis",
    "Count",
    "Enumeration",
    "InputError",
    "NonocpError",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Status",
    "Stop",
    "Uniqueness",
    "analyze",
    "count",
    "dumps",
    "load",
    "load_all",
    "load_each",
    "satisfies",
    "solutions",
    "solve",
]

_MODULE_OF = {
    "Analysis": "nonocp.engine",
    "Count": "nonocp.answers",
    "Enumeration": "nonocp.engine",
    "Result": "nonocp.answers",
    "Status": "nonocp.answers",
    "Stop": "nonocp.answers",
    "Uniqueness": "nonocp.answers",
    "analyze": "nonocp.engine",
    "count": "nonocp.engine",
    "solutions": "nonocp.engine",
    "solve": "nonocp.engine",
    "InputError": "nonocp.errors",
    "NonocpError": "nonocp.errors",
    "PuzzleError": "nonocp.errors",
    "dumps": "nonocp.formats",
    "load": "nonocp.formats",
    "load_all": "nonocp.formats",
    "load_each": "nonocp.formats",
    "Puzzle": "nonocp.puzzle",
    "satisfies": "nonocp.puzzle",
}


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})  # the API too, before anything loads it


def __getattr__(name: str) -> Any:
    if name in _MODULE_OF:
        return getattr(import_module(_MODULE_OF[name]), name)
    raise AttributeError(f"module 'nonocp' has no attribute {name!r}")
