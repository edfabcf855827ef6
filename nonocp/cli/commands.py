"""Every ``nonocp`` command on one Typer app; ``run`` turns user errors into one line."""

from __future__ import annotations

import logging
import sys

from nonocp.cli import analyze, convert, generate, magnitude, solve  # noqa: F401  (commands register themselves on the app)
from nonocp.cli.app import EXIT_BAD_INPUT, app, report
from nonocp.errors import NonocpError


def run() -> None:
    logging.basicConfig(format="nonocp: %(message)s")  # the engine's notices, on stderr
    try:
        app()
    except NonocpError as error:
        report(error)
        sys.exit(EXIT_BAD_INPUT)
