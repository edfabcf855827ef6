"""The ``nonocp`` command line: ``main`` runs the Typer app and turns user errors into one line."""

from __future__ import annotations

import logging
import sys

from nonocp.cli import analyze, convert, generate, magnitude, solve  # noqa: F401  (commands register themselves on the app)
from nonocp.cli.app import app
from nonocp.errors import NonocpError

EXIT_BAD_INPUT = 2


def main() -> None:
    logging.basicConfig(format="nonocp: %(message)s")  # the engine's notices, on stderr
    try:
        app()
    except NonocpError as error:
        print(f"nonocp: {error}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
