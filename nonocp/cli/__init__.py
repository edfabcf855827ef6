"""The ``nonocp`` command line.

``main`` is the installed script's entry point. It imports the commands itself, so that a
Ctrl-C while they load (a tenth of a second, often hit when a shell loop runs nonocp over
many files) ends the program as a Ctrl-C during a solve does: exit status 130 and nothing
on stderr, not a traceback.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130
"""The shell's status for a program ended by Ctrl-C (128 + SIGINT)."""


def main() -> None:
    try:
        from nonocp.cli.commands import run
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    run()
