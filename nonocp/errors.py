"""The errors nonocp reports to users.

Every failure a user can cause (a bad file, inconsistent clues) is a ``NonocpError``
whose message is one line; the CLI prints it and exits with status 2.
"""

from __future__ import annotations


class NonocpError(Exception):
    """A problem with the user's input, reported as one line and exit status 2."""


class InputError(NonocpError):
    """A file that cannot be read as a puzzle, located as ``file:line:col: message``."""

    def __init__(self, source: str, line: int | None, column: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        where = ":".join(str(part) for part in (source, line, column) if part is not None)
        super().__init__(f"{where}: {message}")


class PuzzleError(NonocpError):
    """Clues that no grid can satisfy for a reason visible before solving."""
