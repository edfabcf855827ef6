"""The ``nonocp`` command line.

``main`` is the installed script's entry point. It imports the commands itself, so that a
Ctrl-C while they load (a tenth of a second, often hit when a shell loop runs nonocp over
many files) ends the program as a Ctrl-C during a solve does: exit status 130 and nothing
on stderr, not a traceback. SIGTERM (``timeout``, a scheduler, CI) is taken as Ctrl-C, so
that a batch it stops still prints what it has answered.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

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
    run()


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
