"""The ``nonocp`` command line.

``main`` is the installed script's entry point. It imports the commands itself, so that a
Ctrl-C while they load (a tenth of a second, often hit when a shell loop runs nonocp over
many files) ends the program as a Ctrl-C during a solve does: exit status 130 and nothing
on stderr, not a traceback. SIGTERM (``timeout``, a scheduler, CI) is taken as Ctrl-C, so
that a batch it stops still prints what it has answered.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import suppress
from types import FrameType
from typing import NoReturn

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_BAD_INPUT = 0, 1, 2
"""Every puzzle answered; one with no solution, or cut short by a time limit; bad input
or a bad option (one line on standard error)."""
EXIT_ALL_OPTIMAL, EXIT_NOT_ALL_OPTIMAL = EXIT_SOLVED, EXIT_UNSOLVED
"""``magnitude``'s: every instance answered optimal, or not."""
EXIT_INTERRUPTED = 130
"""The shell's status for a program ended by Ctrl-C (128 + SIGINT)."""


def main() -> None:
    signal.signal(signal.SIGTERM, _as_ctrl_c)
    try:
        from nonocp.cli.commands import run
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    try:
        run()
    except SystemExit as ending:
        if ending.code == EXIT_INTERRUPTED:
            _end_at_once(EXIT_INTERRUPTED)
        raise


def _end_at_once(status: int) -> NoReturn:
    """End the process without the interpreter's teardown. A solver that Ctrl-C caught
    as its thread started may still be running compiled code, and tearing OR-tools down
    under it aborts the process ("terminate called without an active exception", status
    -6, not 130). Nothing is lost: by now files are closed and a pool's workers ended; the
    standard streams are flushed here (unless their reader has gone)."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError):
            stream.flush()
    os._exit(status)


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
