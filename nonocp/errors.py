"""The errors nonocp reports to users.

Every failure a user can cause (a bad file, inconsistent clues) is a ``NonocpError``
whose message is one line; the CLI prints it and exits with status 2.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class NonocpError(Exception):
    """A problem with the user's input, reported as one line and exit status 2: a line
    break it quotes from a file is written as ``\\n`` or ``\\r``."""

    def __init__(self, message: str) -> None:
        super().__init__(message.replace("\r", "\\r").replace("\n", "\\n"))


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


@contextmanager
def named_os_errors(path: str | Path, failing: str, reading: bool = False) -> Iterator[None]:
    """The operating system's refusal (no such file, permission denied, disk full) as one
    line, ``path: reason``, not a traceback; ``failing`` when it gives no reason. A file
    that cannot be ``reading`` is an ``InputError``, as is one that reads as no puzzle."""
    try:
        yield
    except OSError as error:
        reason = error.strerror or failing
        if reading:
            raise InputError(str(path), None, None, reason) from None
        raise NonocpError(f"{path}: {reason}") from None
