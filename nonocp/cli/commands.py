"""Every ``nonocp`` command on one Typer app; ``run`` turns user errors, usage errors
included, into one line."""

from __future__ import annotations

import logging
import sys

import typer

from nonocp.cli import EXIT_BAD_INPUT, analyze, convert, generate, magnitude, solve  # noqa: F401  (commands register themselves on the app)
from nonocp.cli.app import app, report
from nonocp.errors import NonocpError


def run() -> None:
    logging.basicConfig(format="nonocp: %(message)s")  # the engine's notices, on stderr
    try:
        status = app(standalone_mode=False)
    except NonocpError as error:
        report(error)
        sys.exit(EXIT_BAD_INPUT)
    except typer.TyperException as error:  # a usage error, which Typer would draw in a box
        if message := error.format_message():  # empty once bare ``nonocp`` printed its help
            print(f"nonocp: {message}{_usage(error)}", file=sys.stderr)
        sys.exit(error.exit_code)
    sys.exit(status or 0)


def _usage(error: typer.TyperException) -> str:
    """The command's usage after a usage error, which the error alone may not make plain
    (``convert FILE`` is told "Missing argument 'FILE'" when OUT is what is missing)."""
    context = getattr(error, "ctx", None)  # the command line's parse, on Typer's own errors
    if context is None:
        return ""
    usage: str = context.get_usage()
    return f" ({usage.replace('Usage:', 'usage:', 1)})"
