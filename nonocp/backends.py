"""Engines and models by name: what ``--engine`` and ``--model`` select, as one ``Backend``.

Every backend answers with the engine's ``Result``, ``Count`` and enumerations, so commands
and benchmarks treat them alike. Importing this module is cheap, and so is choosing a CP-SAT
backend: OR-tools loads only when logic leaves work for CP-SAT (``nonocp.cpsat``), or when
the MIP engine is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING

from nonocp.errors import NonocpError
from nonocp.models import ModelName

if TYPE_CHECKING:
    from nonocp.answers import Count, Result, Solutions
    from nonocp.models import ModelBuilder


class EngineName(StrEnum):
    CPSAT = "cpsat"
    MIP = "mip"


@dataclass(frozen=True)
class Backend:
    """The engine functions for one engine and model, called like ``nonocp.engine``'s:
    ``solve(puzzle, time_limit=, logic=, prove_unique=)``, ``solutions(puzzle, limit=,
    time_limit=, logic=)`` and ``count`` alike."""

    solve: Callable[..., Result]
    solutions: Callable[..., Solutions]
    count: Callable[..., Count]


def backend(name: str = EngineName.CPSAT, model: str | None = None) -> Backend:
    """The solver ``--engine`` and ``--model`` name; ``model`` None means the default:
    for ``cpsat``, the engine's own choice (Glucose in its race, the automaton model to
    enumerate), which naming a model replaces by CP-SAT on that model.

    The MIP is the block-start formulation by construction, so it takes no other model.
    """
    if name == EngineName.MIP:
        if model not in (None, ModelName.BLOCKS):
            raise NonocpError(f"--engine mip solves the block-start model, not --model {model}")
        from nonocp import mip

        return Backend(mip.solve, mip.solutions, mip.count)
    if name != EngineName.CPSAT:
        names = ", ".join(EngineName)
        raise NonocpError(f"unknown engine {name!r} (known engines: {names})")
    from nonocp import engine

    build = model_builder(model)
    return Backend(
        partial(engine.solve, build=build),
        partial(engine.solutions, build=build),
        partial(engine.count, build=build),
    )


def model_builder(model: str | None) -> ModelBuilder | None:
    """The builder of the CP-SAT model ``--model`` names, or None (the engine's choice)."""
    from nonocp.models import builder

    return None if model is None else builder(model)
