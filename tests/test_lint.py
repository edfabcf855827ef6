"""The standards the code is held to, checked where CI can see them: ruff's lint rules and
formatting, and mypy's types, over the package, the tests and the benchmarks, with the
settings in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

CODE = ["nonocp", "tests", "benchmarks"]
"""The project's Python, as mypy's ``files`` names it: not a virtual environment someone
made inside the checkout under a name ruff does not skip."""

CHECKS = {
    "ruff lint": ["ruff", "check", *CODE],
    "ruff format": ["ruff", "format", "--check", *CODE],
    "mypy": ["mypy"],
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_code_passes(name: str) -> None:
    command = [sys.executable, "-m", *CHECKS[name]]
    run = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
