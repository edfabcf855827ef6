"""What the engine asks of CP-SAT: a tuned solver, one search, and a threaded enumeration.

This module is apart from ``nonocp.engine`` because importing OR-tools costs about a third
of a second, several times what solving a puzzle logic settles takes. The engine imports it
only when logic and its depth-first search leave work for CP-SAT, so the puzzles they
settle (and the CLI's start-up) never load OR-tools.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator

from nonocp.answers import Ending, Halt, Searched, SolverBug, Stop, checked
from nonocp.clock import OutOfTime, seconds_left, stop_until_ended
from nonocp.models import CellModel, ModelBuilder
from nonocp.models import automaton as automaton_model
from nonocp.models.ortools_cp import cp_model
from nonocp.puzzle import Grid, Known, Puzzle

LINEARIZATION = 0
"""CP-SAT's ``linearization_level`` (see ``_solver``). Level 1 (an LP over the model's
linear constraints) shortens the heavy tail of first solutions on some tournament sets
but not on others, and slows uniqueness proofs; ``benchmarks/portfolio.py`` measures it."""


def cells_for(
    puzzle: Puzzle, known: Known | None, build: ModelBuilder | None, deadline: float | None
) -> CellModel | None:
    """The model ``build`` makes of the cells logic left open (the automaton model if
    None), or None when the deadline passed while it was being built."""
    try:
        return (build or automaton_model.build)(puzzle, known, deadline)
    except OutOfTime:
        return None


def _solver(deadline: float | None, workers: int = 1) -> cp_model.CpSolver | None:
    """A solver with the time left before ``deadline``, or None when none is left.

    Logic has already done the probing and the models are pure Boolean, so CP-SAT's own
    probing, linear relaxation, symmetry detection and clause inprocessing cost more than
    they prune: turning them off halves the median time on the tournament puzzles logic
    leaves open, and does not slow the survey, Gecode/R, jwilk or mikix puzzles.

    Ctrl-C is left to Python, which stops the solves as a deadline does: CP-SAT's own
    handler, installed from the thread a race or an enumeration runs it in, aborted the
    process (``std::bad_function_call``).
    """
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.catch_sigint_signal = False
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.linearization_level = LINEARIZATION
    solver.parameters.symmetry_level = 0
    solver.parameters.use_sat_inprocessing = False
    left = seconds_left(deadline)
    if left == 0:
        return None
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    return solver


class Solving:
    """CP-SAT over one puzzle's model (``engine.Solving``): solutions one after another,
    each differing from those before on the cells logic left open."""

    def __init__(
        self,
        puzzle: Puzzle,
        known: Known | None,
        build: ModelBuilder | None,
        deadline: float | None,
        halt: Halt,
    ) -> None:
        self.puzzle = puzzle
        self.cells = cells_for(puzzle, known, build, deadline)
        self.deadline = deadline
        self.halt = halt

    def search(self) -> Searched:
        solver = _solver(self.deadline)
        if self.cells is None or solver is None or not self.halt.admit(solver.stop_search):
            return None
        status = solver.solve(self.cells.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return checked(self.puzzle, self.cells.grid(solver))
        if status == cp_model.INFEASIBLE:
            return False
        return None

    def exclude(self, grid: Grid) -> None:
        if self.cells is not None:
            self.cells.exclude(grid)


def enumerate_solutions(
    puzzle: Puzzle,
    known: Known | None,
    deadline: float | None,
    limit: int | None,
    build: ModelBuilder | None,
    forbidden: tuple[Grid, ...] = (),
    halt: Halt | None = None,
) -> Generator[Grid, None, Ending]:
    """The distinct solutions but the ``forbidden`` ones that a CP-SAT search in a thread
    produces, lazily, from ``known``; returns how the enumeration ended once the consumer
    has taken them all.

    CP-SAT can report the same assignment twice, so grids are deduplicated. A consumer
    that stops early stops the search, and one that pauses pauses it once ``WAITING``
    grids wait: an enumeration kept but no longer read neither spins nor fills memory.
    ``halt`` stops it from another thread, as the deadline does.
    """
    cells = cells_for(puzzle, known, build, deadline)
    if cells is None:
        return False, Stop.TIME_LIMIT
    for solution in forbidden:
        cells.forbid(solution)
    solver = _solver(deadline)
    if solver is None:
        return False, Stop.TIME_LIMIT
    solver.parameters.enumerate_all_solutions = True
    found: queue.SimpleQueue[Grid | None] = queue.SimpleQueue()
    asked_to_stop = threading.Event()
    if halt is not None and not halt.admit(solver.stop_search):
        return False, Stop.TIME_LIMIT
    callback = _Collector(puzzle, cells, limit, asked_to_stop, found)
    status_box: list[cp_model.CpSolverStatus] = []

    def run() -> None:
        try:
            status_box.append(solver.solve(cells.model, callback))
        finally:
            found.put(None)

    thread = threading.Thread(target=run, name="nonocp-enumeration", daemon=True)
    try:
        thread.start()
        while (grid := found.get()) is not None:
            yield grid
    finally:
        asked_to_stop.set()
        stop_until_ended(solver.stop_search, [thread])
    if callback.error is not None:
        raise callback.error
    return _ending(status_box[0], callback.count, limit)


WAITING = 256
"""The most found grids that wait for the consumer before the search pauses."""


def _ending(status: cp_model.CpSolverStatus, count: int, limit: int | None) -> Ending:
    if limit is not None and count >= limit:
        return False, Stop.LIMIT
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return True, None
    return False, Stop.TIME_LIMIT


class _Collector(cp_model.CpSolverSolutionCallback):
    """Hands each new, checked grid to the consumer; stops at the limit or when asked."""

    def __init__(
        self,
        puzzle: Puzzle,
        cells: CellModel,
        limit: int | None,
        asked_to_stop: threading.Event,
        found: queue.SimpleQueue,
    ) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.cells = cells
        self.limit = limit
        self.asked_to_stop = asked_to_stop
        self.found = found
        self.seen: set[Grid] = set()
        self.count = 0
        self.error: Exception | None = None

    def on_solution_callback(self) -> None:
        if self.asked_to_stop.is_set():
            self.stop_search()
            return
        grid = self.cells.grid(self)
        if grid in self.seen:
            return
        try:
            checked(self.puzzle, grid)
        except SolverBug as error:
            self.error = error
            self.stop_search()
            return
        self.seen.add(grid)
        self.count += 1
        self._hand_over(grid)
        if self.limit is not None and self.count >= self.limit:
            self.stop_search()

    def _hand_over(self, grid: Grid) -> None:
        """Put ``grid`` in the queue once fewer than ``WAITING`` wait there, or at once if
        the consumer has gone. A bounded ``queue.Queue`` would do this with a lock per grid,
        which made enumerating 40,320 solutions 7-10% slower."""
        while self.found.qsize() >= WAITING and not self.asked_to_stop.is_set():
            self.asked_to_stop.wait(0.01)
        self.found.put(grid)
