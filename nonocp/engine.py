"""Solving, uniqueness and counting, logic first and solvers last, behind one honest ``Result``.

Nothing here reports more than was proven: a search stopped by a time limit says
"unknown", a count stopped early says "at least N", and every grid handed back has
first passed ``satisfies``, which recomputes the clues from the cells.

Line logic goes first (``nonocp.logic``): it fixes only cells every solution shares, so
the search starts from them without losing a solution. When it fixes every cell, the grid
is the only solution and nothing else is loaded; a contradiction proves there is none.
What it leaves open goes to the compiled depth-first search (``nonocp.logic.search``),
which probes the root, then searches within a probe budget: it settles most puzzles
outright. Where it gives up, a race takes over from the cells probing proved: the search
without a budget and a clause-learning solver (Glucose, ``nonocp.sat``), sharing the core
where there is one; on a large puzzle, a search without probing in place of one of them
(``_sides``).

The solvers live in ``nonocp.sat`` (Glucose: the race's solver, and enumeration) and
``nonocp.cpsat`` (CP-SAT: the models a caller chooses), imported only when logic and the
depth-first search leave work for them: importing OR-tools takes about a third of a
second, far longer than solving a puzzle logic settles, so such puzzles (most of the
hand-made ones) never pay for it. This module keeps the orchestration (the result types
are ``nonocp.answers``'s), and is cheap to import.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import KW_ONLY, dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Generic, NamedTuple, Protocol, TypeVar, cast

from nonocp.answers import (
    Count,
    Enumerating,
    Halt,
    Result,
    Searched,
    Solutions,
    Status,
    Stop,
    Tally,
    Uniqueness,
    checked,
    one_by_one,
)
from nonocp.clock import (
    UNHEEDED_CTRL_C,
    deadline_after,
    interruptible,
    later,
    seconds_left,
    stop_until_ended,
)
from nonocp.errors import NonocpError
from nonocp.logic import Deduction, deduce
from nonocp.logic.board import unknown_in
from nonocp.pool import cores
from nonocp.puzzle import Grid, Known, Puzzle, too_large

Outcome = TypeVar("Outcome")
"""What a thread of ``_in_threads`` hands back."""

if TYPE_CHECKING:
    from nonocp.logic.search import Found, Stopper
    from nonocp.models import ModelBuilder

SEARCH_PROBES = 10000
"""The probes (each tries both values of a cell, about 20 microseconds) the compiled
search may spend below its root before the race takes over. With Glucose in the race,
back to back against 40,000 (the budget on small puzzles while CP-SAT raced): the three
tournament sets 110.7 s against 138.1 s, the survey's held-back puzzles under 1 s but
for Gettys, Thing and #19080 (40,000: also #3867), and random 30x30 seeds 1-400 4.63 s
against 4.92 s, though seed 91, which the static order solves in 31,354 probes, takes
0.84 s against 0.18 s. Larger puzzles had 10,000 already: 40,000 slowed 9 of random
100x100 seeds 1-10."""

LARGE_SEARCH_PROBES = 0
"""The budget, in place of ``search_probes``, where line logic left at least 2,000 cells
open (``_large``): there the race takes over from the probed root at once. Of the
survey's puzzles and random 60x60 and 100x100 ones that probing leaves that large, the
budget settled only Marley, and spent 0.06-0.29 s on the rest. Each engine three times,
turns alternating (ad-hoc script): Gettys 0.99 s against 1.10 s for two solutions, 1.00 s
against 1.29 s for one; #16900, Lion and #19080 0.09-0.16 s faster; random 60x60 seeds
1-10 0.04-0.10 s and random 100x100 seeds 1, 2, 5 and 7 0.1-0.2 s faster (seed 6 3.71 s
against 3.62 s); Marley 0.22 s against 0.17 s; the same verdicts."""

COUNT_PROBES = 20000
"""The same budget when enumerating or counting: past it an enumeration goes on with
a solver from the probed root (``_others``), and a count with the search without a
budget racing it."""


def searched(
    puzzle: Puzzle,
    deadline: float | None,
    logic: bool,
    limit: int | None,
    probes: int,
    large_probes: int | None = None,
) -> tuple[Found | None, float]:
    """Line logic, then the compiled search from what it proved (None when logic is off),
    and the seconds loading the search took (see ``search_from``).

    Line logic runs first, in Python, because it settles most hand-made puzzles in a few
    milliseconds; only a puzzle it leaves open pays for loading the compiled search.
    """
    if not logic:
        return None, 0.0
    deduction = deduce(puzzle, deadline, probing=0)
    return search_from(puzzle, deduction, deadline, limit, probes, large_probes)


def search_from(
    puzzle: Puzzle,
    deduction: Deduction,
    deadline: float | None,
    limit: int | None,
    probes: int,
    large_probes: int | None = None,
) -> tuple[Found, float]:
    """The compiled search for up to ``limit`` solutions from what ``deduction`` proved,
    within ``probes`` (``large_probes``, when given, where it left a large puzzle open),
    or its answer when logic alone decided the puzzle; and the seconds
    loading the search took, by which the caller moves its deadline and start on, as the
    search's own deadline is: the first search after installing compiles it
    (``nonocp.logic.search.load``), and a limit spent compiling would answer "unknown" for
    a puzzle the search settles in a second."""
    from nonocp.logic.search import Found, load, search

    if deduction.contradiction or deduction.grid is not None:
        grids = () if deduction.grid is None else (deduction.grid,)
        return Found(grids, True, 0, len(grids), deduction.known), 0.0
    if seconds_left(deadline) == 0:  # logic used the time up: no search would start
        return Found((), False, 0, 0, deduction.known), 0.0
    spent = load()
    if large_probes is not None and _large(unknown_in(deduction.known)):
        probes = large_probes
    stopper = _stopper()
    searching = partial(
        search,
        puzzle,
        deduction.known,
        limit=limit,
        probes=probes,
        deadline=later(deadline, spent),
        stopper=stopper,
    )
    (found,) = _in_threads([Side(searching, stopper.stop)])
    return found, spent


def solve(
    puzzle: Puzzle,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    logic: bool = True,
    prove_unique: bool = True,
    search_probes: int = SEARCH_PROBES,
) -> Result:
    """The puzzle's verdict, proven: a solution and whether it is the only one (with a
    second solution where it is not), that it has none, or ``unknown`` when
    ``time_limit`` seconds (None: no limit) ran out first; ``prove_unique=False`` stops
    at the first solution. Every grid returned has passed ``satisfies``.

    Logic and the compiled search go first, a race finishes what they leave open (see
    ``solve_from``); ``build`` makes the CP-SAT model that replaces Glucose in the race,
    None leaving the choice to the engine (see ``_sides``); ``logic=False`` hands the
    whole puzzle to CP-SAT."""
    admit(puzzle)
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    wanted = _wanted(prove_unique)
    found, spent = searched(puzzle, deadline, logic, wanted, search_probes, LARGE_SEARCH_PROBES)
    return _settle(puzzle, found, later(deadline, spent), build, started + spent, prove_unique)


def solve_from(
    puzzle: Puzzle,
    deduction: Deduction,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    prove_unique: bool = True,
    search_probes: int = SEARCH_PROBES,
) -> Result:
    """The verdict, starting from what ``deduce`` already proved.

    When logic settled the puzzle that is the answer; otherwise one solution is searched
    for, then (unless ``prove_unique`` is False) a second that differs from it on the
    cells logic left open: the uniqueness proof. The compiled search tries first, with at
    most ``search_probes`` probes below its root (``LARGE_SEARCH_PROBES`` where logic left
    a large puzzle open); the race finishes what it leaves.
    """
    admit(puzzle)
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    wanted = _wanted(prove_unique)
    found, spent = search_from(
        puzzle, deduction, deadline, wanted, search_probes, LARGE_SEARCH_PROBES
    )
    return _settle(puzzle, found, later(deadline, spent), build, started + spent, prove_unique)


class Analysis(NamedTuple):
    """What logic proved about a puzzle (its ``rating`` among it), the verdict from
    there, and the seconds both took (not counting loading the search)."""

    deduction: Deduction
    result: Result
    seconds: float

    @property
    def solved(self) -> bool:
        return self.result.status is Status.SOLVED


def analyze(
    puzzle: Puzzle, time_limit: float | None = None, build: ModelBuilder | None = None
) -> Analysis:
    """How far logic gets on ``puzzle``, which rates how hard it is for a person, then
    the verdict from there, all within one time limit: what ``nonocp analyze`` reports."""
    admit(puzzle)
    started = time.perf_counter()
    deadline = deadline_after(time_limit)
    deduction = deduce(puzzle, deadline)
    deduced = time.perf_counter() - started
    result = solve_from(puzzle, deduction, seconds_left(deadline), build=build)
    return Analysis(deduction, result, deduced + result.seconds)


def _wanted(prove_unique: bool) -> int:
    """The solutions a verdict needs: two refute uniqueness, one answers otherwise."""
    return 2 if prove_unique else 1


Verdict = tuple[Status, Uniqueness, tuple[Grid, ...]]
"""What a result says, without its timing: status, uniqueness and the grids shown."""


def _settle(
    puzzle: Puzzle,
    found: Found | None,
    deadline: float | None,
    build: ModelBuilder | None,
    started: float,
    prove_unique: bool,
) -> Result:
    def result(verdict: Verdict) -> Result:
        status, uniqueness, grids = verdict
        grid = grids[0] if grids else None
        other = grids[1] if len(grids) == 2 else None
        return Result(status, uniqueness, grid, other, seconds=time.perf_counter() - started)

    if found is None:
        from nonocp import cpsat

        halt = Halt()
        model = cpsat.Solving(puzzle, None, build, deadline, halt)
        return result(_race([Side(partial(_by_solver, model, None, prove_unique), halt.halt)]))
    verdict = _verdict_of(puzzle, found, prove_unique)
    if verdict is not None:
        return result(verdict)
    first = found.solutions[0] if found.solutions else None  # checked by _verdict_of
    return result(_finished(Left(puzzle, found.known, first, deadline, build, prove_unique)))


def _verdict_of(puzzle: Puzzle, found: Found, prove_unique: bool) -> Verdict | None:
    """The verdict a search's solutions prove, or None when the search stopped short."""
    grids = tuple(checked(puzzle, grid) for grid in found.solutions)
    if found.exhausted and not grids:
        return Status.NONE, Uniqueness.NONE, ()
    if grids and not prove_unique:
        return Status.SOLVED, Uniqueness.UNCHECKED, grids[:1]
    if len(grids) == 2:
        return Status.SOLVED, Uniqueness.MULTIPLE, grids
    if found.exhausted:
        return Status.SOLVED, Uniqueness.UNIQUE, grids
    return None


RACE = cores() > 1
"""Whether a large puzzle's probing search races the other side (see ``_sides``): only
where a second core lets it run at full speed beside it. A small puzzle's two sides race
on one core too, sharing it."""


class Solving(Protocol):
    """A solver over one puzzle (``sat.Solving`` or ``cpsat.Solving``): solutions one
    after another, each differing from those before on the cells left open."""

    def search(self) -> Searched: ...

    def exclude(self, grid: Grid) -> None: ...


def _by_solver(solving: Solving, first: Grid | None, prove_unique: bool) -> Verdict:
    """A solver's verdict: a first solution (unless one is given), then, for uniqueness,
    a second that differs from it."""
    found = solving.search() if first is None else first
    if found is None:
        return _unfinished(None)
    if found is False:
        return Status.NONE, Uniqueness.NONE, ()
    if not prove_unique:
        return Status.SOLVED, Uniqueness.UNCHECKED, (found,)
    solving.exclude(found)
    second = solving.search()
    if second is None:
        return _unfinished(found)
    if second is False:
        return Status.SOLVED, Uniqueness.UNIQUE, (found,)
    return Status.SOLVED, Uniqueness.MULTIPLE, (found, second)


@dataclass(frozen=True)
class Side(Generic[Outcome]):
    """One side of a race: how to run it to its outcome (a verdict, or the budgeted
    search's solutions), and how to stop it from another thread."""

    run: Callable[[], Outcome]
    stop: Callable[[], None]


@dataclass(frozen=True)
class Left:
    """A puzzle the budgeted search left open: the cells probing proved, its first
    solution if it found one, the deadline, the CP-SAT model asked for (None: the
    engine's choice) and whether uniqueness is to be proven."""

    puzzle: Puzzle
    known: Known
    first: Grid | None
    deadline: float | None
    build: ModelBuilder | None
    prove_unique: bool


def _sides(left: Left) -> list[Side]:
    """What finishes a puzzle the budgeted search left: the search with no budget and a
    clause-learning solver; on a large puzzle, the search without probing and one of
    those two, chosen by how much the root settled (the probing search only where a
    second core lets it race).

    On these puzzles run times are heavy-tailed and hardly related from one method to
    another (each is often many times faster than the other), so a race costs about the
    fastest of them, but each side beyond the cores' count slows the others. Even two
    sides sharing one core pay on a small puzzle: the tournament sets under ``taskset -c
    1`` took 44-55 s each against 51-78 s with Glucose alone, the slowest puzzle 6.7-8.1 s
    against 10.8-12.4 s; among the other small puzzles measured, only those Glucose
    settles alone (random 30x30 seed 91: 0.6 s against 0.35 s) lose by it.

    - **The search with no budget** refreshes its beliefs at every node: too slow per
      node for the budgeted search, which settles most puzzles in a few hundred probes,
      but far fewer nodes on those it leaves.
    - **The solver** is Glucose on ``nonocp.sat``'s formula, or CP-SAT when the caller
      chose a model (``build``). On the survey's held-back puzzles neither the search nor
      CP-SAT answered Gettys in 60 s, which Glucose settles in 1.5-2.7 s (Thing: 0.1-0.7 s
      against 4.6-13 s); on the tournament sets it did as well as CP-SAT (the 124
      puzzles either raced for over 0.3 s: 77.7 s against 81.2 s) before its formula's
      cells lost their variables per covering block, and better since.
    - **The search without probing** solves large puzzles the probing search is slow
      on (Faase's two solutions: 2.6-3.3 s against 10 s; see ``_by_search``). Its partner
      on a large puzzle depends on the root (``_random_like``): where line logic and
      probing fixed almost nothing, as on random pictures, the probing search solves
      the seeds it leaves and Glucose hardly ever finds anything (random 100x100: nothing
      in 60 s), and the search without probing sweeps (``SWEEP_LINES``) so that the two
      fail on other seeds still; where they fixed part of a picture, Glucose finishes
      what both searches leave, and a third side would only slow them.
    - **Decimation** goes first on Glucose's side there (``_by_clause_learning``): on
      Gettys it finds a solution in about 0.45 s, where Glucose needs 1.5-2.7 s.
    """
    open_cells = unknown_in(left.known)
    if not _large(open_cells):
        return [_searching(left, probing=True), _learning(left)]
    probing = [_searching(left, probing=True)] if RACE else []
    if _random_like(open_cells, left.puzzle):
        return [*probing, _searching(left, probing=False, sweep=SWEEP_LINES)]
    return [_searching(left, probing=False), _learning(left, decimating=True)]


def _searching(left: Left, probing: bool, sweep: int = 0) -> Side:
    stopper = _stopper()
    return Side(partial(_by_search, left, stopper, probing, sweep), stopper.stop)


def _learning(left: Left, decimating: bool = False) -> Side:
    halt = Halt()
    return Side(partial(_by_clause_learning, left, halt, decimating), halt.halt)


def _unfinished(first: Grid | None) -> Verdict:
    """The verdict of a search stopped short: unknown, or a solution whose uniqueness is."""
    if first is None:
        return Status.UNKNOWN, Uniqueness.UNKNOWN, ()
    return Status.SOLVED, Uniqueness.UNKNOWN, (first,)


def _finished(left: Left) -> Verdict:
    """The race's verdict on what the budgeted search left, unless the deadline has
    passed already: then no side starts, since on a very large puzzle merely setting one
    up (its grids, its formula) takes seconds, and 3000x3000 puzzles had overrun a limit of
    2 s by 9 s."""
    found = () if left.first is None else (left.first,)
    if seconds_left(left.deadline) == 0:
        return _pooled(found)
    return _race(_sides(left), found)


def _race(sides: list[Side[Verdict]], found: tuple[Grid, ...] = ()) -> Verdict:
    """The sides' verdicts, each side in a thread of its own (``_in_threads``): the first
    conclusive verdict wins (the searches run without the GIL, the solvers in C++);
    without one, the sides' solutions and those ``found`` before are pooled."""
    verdicts = _in_threads(sides)
    conclusive = [v for v in verdicts if v[1] is not Uniqueness.UNKNOWN]
    if conclusive:
        return conclusive[0]
    return _pooled([*found, *(grid for verdict in verdicts for grid in verdict[2])])


def _pooled(grids: Iterable[Grid]) -> Verdict:
    """The verdict of searches that all stopped short, from the solutions they found
    between them: two different ones refute uniqueness, though no search found a second
    alone. Each searches in an order of its own, and on a large puzzle the racing
    searches start afresh from the root, not from the budgeted search's solution."""
    distinct = tuple(dict.fromkeys(grids))
    if len(distinct) >= 2:
        return Status.SOLVED, Uniqueness.MULTIPLE, distinct[:2]
    return _unfinished(distinct[0] if distinct else None)


def _in_threads(sides: list[Side[Outcome]]) -> list[Outcome]:
    """Each side's outcome, in the order they ended, each side run in a thread of its
    own: whichever ends first stops the rest. This thread only waits, so that Ctrl-C
    reaches it at once and stops every side, as a deadline does, where compiled code or
    a solver running here would hold it for its whole run (a minute, on a large puzzle).
    Stopped sides are waited for, after Ctrl-C for ``UNHEEDED_CTRL_C`` at most."""
    outcomes: list[Outcome | BaseException] = []
    ended = threading.Event()
    done = [False] * len(sides)  # a side that has ended is not stopped: it may run again

    def run(index: int, side: Side[Outcome]) -> None:
        try:
            outcomes.append(side.run())
        except BaseException as error:  # handed to the caller's thread
            outcomes.append(error)
        done[index] = True
        ended.set()

    def stop_the_rest() -> None:
        for index, side in enumerate(sides):
            if not done[index]:
                side.stop()

    threads = [
        threading.Thread(target=run, args=(index, side), name="nonocp-race", daemon=True)
        for index, side in enumerate(sides)
    ]
    try:
        for thread in threads:
            thread.start()
        ended.wait()
    except KeyboardInterrupt:
        stop_until_ended(stop_the_rest, threads, deadline_after(UNHEEDED_CTRL_C))
        raise
    stop_until_ended(stop_the_rest, threads)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return cast(list[Outcome], outcomes)


def _by_clause_learning(left: Left, halt: Halt, decimating: bool) -> Verdict:
    """The verdict of Glucose on ``nonocp.sat``'s formula, or of CP-SAT on the model
    ``build`` makes. Built here, in the side's own thread, so that the search is already
    running meanwhile (the formula of a large puzzle takes a few tenths of a second).

    ``decimating`` first asks decimation for a solution (``nonocp.logic.decimation``),
    and with a first solution in hand a second is looked for near it before the solver
    looks anywhere (``search.other_nearby``). On Gettys, for two solutions, Glucose takes
    1.5-2.7 s; decimation finds one in about 0.45 s and a window beside it another in
    0.01 s. Elsewhere it costs Glucose a late start: #16900, where it gives up after 0.4 s
    (Glucose then takes 0.1 s), and Faase, which it solves in 1.8-3.4 s, while the search
    without probing, racing it, settles Faase in 2-3 s."""
    puzzle, known, deadline = left.puzzle, left.known, left.deadline
    first = left.first
    if first is None and decimating:
        from nonocp.logic.decimation import decimate

        first = _checked_run(puzzle, halt, partial(decimate, puzzle, known, deadline))
    if first is not None and left.prove_unique:
        from nonocp.logic.search import other_nearby

        nearby = partial(other_nearby, puzzle, known, first, deadline)
        other = _checked_run(puzzle, halt, nearby)
        if other is not None:
            return Status.SOLVED, Uniqueness.MULTIPLE, (first, other)
    solving: Solving
    if left.build is None:
        from nonocp import sat

        solving = sat.Solving(puzzle, known, deadline, halt)
    else:
        from nonocp import cpsat

        solving = cpsat.Solving(puzzle, known, left.build, deadline, halt)
    return _by_solver(solving, first, left.prove_unique)


def _checked_run(puzzle: Puzzle, halt: Halt, run: Callable[[Stopper], Grid | None]) -> Grid | None:
    """The grid a compiled ``run`` finds, checked, with a stopper ``halt`` stops; None when
    it finds none or is halted, before or while it runs."""
    stopper = _stopper()
    if not halt.admit(stopper.stop):
        return None
    grid = run(stopper)
    return None if grid is None else checked(puzzle, grid)


def _large(open_cells: int) -> bool:
    """Whether at least ``kernel.RESTART_CELLS`` cells are open: where the dynamic search
    restarts, and the race's sides change."""
    from nonocp.logic.kernel import RESTART_CELLS

    return open_cells >= RESTART_CELLS


RANDOM_OPEN = 0.85
"""The share of a large puzzle's cells still open at the root from which it counts as a
random picture's (``_random_like``). Of random 100x100 seeds 1-2000, 1,975 leave at
least 99% open and 6 leave 87-95%; the random 60x60 seeds of 1-300 left large leave
62-100% (48 of them 85-95%); the survey's large puzzles Gettys 57%, Faase 71%, Marley
76% and webpbn #16900 52%, but #19080 (50x50) 99.9%. At 95%, the share before, such
100x100 seeds raced Glucose, which hardly ever solves one, and its formula could take
120 MiB. First mode, each share in a process of its own in turn (ad-hoc script), on ten
of them (those six, and 6283, 12349, 12648 and 12708 from the batches): median 3.2 s
against 11.8 s, 1363 1.4 s against 55.8 s, 12349 13.2 s against unknown at 60 s, 6283
unknown at both, none more than 0.05 s slower, and the six over 5 s at 95% peaked at 160
MiB against 281-316 MiB; validate mode alike. The 48 random 60x60 seeds took 23.8 s in
all against 26.5 s in first mode and 23.7 s against 25.3 s in validate mode (medians
0.42 s against 0.43 s, the same verdicts)."""


def _random_like(open_cells: int, puzzle: Puzzle) -> bool:
    """Whether line logic and probing left nearly every cell of ``puzzle`` open
    (``RANDOM_OPEN``)."""
    return open_cells >= RANDOM_OPEN * puzzle.width * puzzle.height


SWEEP_LINES = 10
"""How many lines deep, from the first line with an open cell, the search without
probing branches on a random picture, sweeping from another side of the grid at each
restart (``kernel._dive``). Random 100x100 seeds 1-140, first mode: 128 solved against
126 with the search branching anywhere (seeds 27, 51 and 114 gained, 101 lost), median
2.49 s; seeds 81-140 took 768 s against 790 s in all."""


def _stopper() -> Stopper:
    from nonocp.logic.search import Stopper

    return Stopper()


def _by_search(left: Left, stopper: Stopper, probing: bool, sweep: int) -> Verdict:
    """The verdict of the dynamic search with no budget, with or without probing below
    the root.

    On large puzzles the two fail in different places: alone, 60 s each, the search
    without probing solved random 100x100 seeds 63 and 76 in 4.1 and 9.0 s, where the
    probing search raced against CP-SAT gave "unknown", and gave "unknown" on seeds 16,
    23 and 37, which the probing search solves in 10-31 s. Racing the probing search for
    one solution it took random 100x100 seeds 1-80 to 74 solved against 73 with CP-SAT,
    median 3.0 s against 7.3 s; for two, seeds 1-8 from a median 5.8 s to 3.1 s.

    Both start from the root the budgeted search probed, without probing it again
    (``probed``). Probing it once more rarely fixes anything (one more of random 60x60
    seed 1's 3,534 open cells; ``benchmarks/CHOICES.md`` records 5 of Gettys') and cost
    each side 0.1 s on random 100x100 puzzles (seeds 1-8: 0.34-4.12 s against 0.44-4.22 s
    to a solution) and 1.3 s on random 150x150 ones at density 0.1.
    """
    from nonocp.logic.search import search

    puzzle, wanted = left.puzzle, _wanted(left.prove_unique)
    found = search(
        puzzle,
        left.known,
        wanted,
        None,
        left.deadline,
        stopper,
        dynamic=True,
        probing=probing,
        sweep=sweep,
        probed=True,
    )
    verdict = _verdict_of(puzzle, found, left.prove_unique)
    if verdict is not None:
        return verdict
    return _unfinished(checked(puzzle, found.solutions[0]) if found.solutions else None)


@dataclass
class Enumeration:
    """The distinct solutions of a puzzle: those line logic and the compiled search find
    within ``probes``, then, unless they are all, those a solver produces besides them
    (``_others``), lazily, from the cells probing fixed.

    After iteration, ``exact`` says whether the search was exhausted, ``stopped_by`` why
    not, and ``loading`` how long loading the compiled search took. Another engine
    enumerates the same way with its own ``_the_rest`` (``nonocp.mip``).
    """

    puzzle: Puzzle
    _: KW_ONLY  # what follows is named: the MIP's enumeration has no use for build
    limit: int | None = None
    time_limit: float | None = None
    build: ModelBuilder | None = None
    logic: bool = True
    exact: bool = False
    stopped_by: Stop | None = None
    loading: float = 0.0
    probes: ClassVar[int] = COUNT_PROBES
    """The compiled search's budget before ``_the_rest`` takes over."""

    def __iter__(self) -> Iterator[Grid]:
        ending = enumerated(
            self.puzzle, self.limit, self.time_limit, self.logic, self.probes, self._the_rest
        )
        self.exact, self.stopped_by, self.loading = yield from ending

    def _the_rest(
        self, known: Known | None, deadline: float | None, earlier: tuple[Grid, ...]
    ) -> Enumerating:
        return _rest(self.puzzle, self.limit, self.build, known, deadline, earlier)


def _rest(
    puzzle: Puzzle,
    limit: int | None,
    build: ModelBuilder | None,
    known: Known | None,
    deadline: float | None,
    earlier: tuple[Grid, ...],
) -> Enumerating:
    """A solver's enumeration of the solutions but the ``earlier`` ones, from ``known``
    (``_others``); where the budgeted search found none, after the race's first ones
    (``_first_ones``)."""
    if not earlier and known is not None:
        earlier, complete = _first_ones(puzzle, limit, build, known, deadline)
        yield from earlier
        if complete:
            return True, None
    wanted = left_to_find(limit, earlier)
    if wanted == 0:
        return False, Stop.LIMIT
    return (yield from _others(puzzle, known, deadline, wanted, build, earlier, Halt()))


def _others(
    puzzle: Puzzle,
    known: Known | None,
    deadline: float | None,
    wanted: int | None,
    build: ModelBuilder | None,
    earlier: tuple[Grid, ...],
    halt: Halt,
) -> Enumerating:
    """Up to ``wanted`` solutions but the ``earlier`` ones, from ``known``: Glucose's, or
    CP-SAT's on the model ``build`` makes. Without logic (no ``known``), CP-SAT's, as
    ``solve`` hands it the whole puzzle then. Glucose enumerates faster from the probed
    root (``nonocp.sat``), and keeps a solution in less memory: on random 25x25 seed 9 at
    density 0.45 it found 46,762 in 60 s against 35,669, its process growing by 1.7 KB a
    solution after the first 10 s against 6.7 KB (CP-SAT's enumeration remembers every
    grid it reported)."""
    if build is None and known is not None:
        from nonocp import sat

        solving = sat.Solving(puzzle, known, deadline, halt)
        for grid in earlier:
            solving.exclude(grid)
        search = partial(interruptible, solving.search, halt.halt)  # Ctrl-C stops it at once
        return one_by_one(search, solving.exclude, wanted)
    from nonocp import cpsat

    return cpsat.enumerate_solutions(puzzle, known, deadline, wanted, build, earlier, halt)


def _first_ones(
    puzzle: Puzzle,
    limit: int | None,
    build: ModelBuilder | None,
    known: Known,
    deadline: float | None,
) -> tuple[tuple[Grid, ...], bool]:
    """The first solutions the race that ``solve`` runs finds (two, or one for ``limit``
    1), and whether they are all there are; for a puzzle the budgeted search found none
    of. On Faase it finds both in about 1.5 s, where CP-SAT found none in minutes and the
    count stayed "at least 0"."""
    prove_unique = limit is None or limit > 1
    _, uniqueness, grids = _finished(Left(puzzle, known, None, deadline, build, prove_unique))
    return grids, uniqueness in (Uniqueness.UNIQUE, Uniqueness.NONE)


Enumerated = Generator[Grid, None, tuple[bool, Stop | None, float]]
"""An ``Enumerating``, then also the seconds loading the compiled search took."""


def enumerated(
    puzzle: Puzzle,
    limit: int | None,
    time_limit: float | None,
    logic: bool,
    probes: int,
    rest: Callable[[Known | None, float | None, tuple[Grid, ...]], Enumerating],
) -> Enumerated:
    """The distinct solutions, up to ``limit``: those line logic and the compiled search
    find within ``probes``, and when that is not all of them (nor all asked for), those
    ``rest`` produces besides them, from the cells probing proved, within the deadline
    (which does not count loading the search). Every engine's enumeration starts here, so
    here clues no grid can satisfy and a limit that is not a count are refused.

    ``rest`` is told the grids found so far so that it looks only for others: on Knotty
    the search finds eight solutions within the budget where CP-SAT finds none in
    minutes, and starting it afresh had counted "at least 0"."""
    refuse(puzzle, limit)
    if limit == 0:
        return False, Stop.LIMIT, 0.0
    deadline = deadline_after(time_limit)
    found, spent = searched(puzzle, deadline, logic, limit, probes)
    earlier = () if found is None else found.solutions
    for grid in earlier:
        yield checked(puzzle, grid)
    if found is not None and found.enough(limit):
        return found.exhausted, None if found.exhausted else Stop.LIMIT, spent
    known = None if found is None else found.known
    exact, stopped_by = yield from rest(known, later(deadline, spent), earlier)
    return exact, stopped_by, spent


def admit(puzzle: Puzzle) -> None:
    """Refuse, before any solving, clues no grid can satisfy (``PuzzleError``) and a
    puzzle too large to hold while solving it (``NonocpError``)."""
    puzzle.validate()
    why = too_large(puzzle.width, puzzle.height)
    if why:
        raise NonocpError(why)


def refuse(puzzle: Puzzle, limit: int | None) -> None:
    """Refuse, before any solving, a puzzle ``admit`` refuses and a ``limit`` that is not
    a count (``ValueError``)."""
    admit(puzzle)
    if limit is not None and (type(limit) is not int or limit < 0):
        raise ValueError(f"limit {limit!r}: expected a whole number from 0, or None")


def left_to_find(limit: int | None, earlier: tuple[Grid, ...]) -> int | None:
    """How many solutions an enumeration's ``rest`` may add to the ``earlier`` ones."""
    return None if limit is None else limit - len(earlier)


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    logic: bool = True,
) -> Enumeration:
    """The distinct solutions, checked, as they are found (all of them, or up to
    ``limit``); after iteration ``exact`` says whether that was all, and ``stopped_by``
    what stopped it (``limit`` or ``time_limit``) if not."""
    return Enumeration(puzzle, limit=limit, time_limit=time_limit, build=build, logic=logic)


def count(
    puzzle: Puzzle,
    limit: int | None = None,
    time_limit: float | None = None,
    build: ModelBuilder | None = None,
    logic: bool = True,
) -> Count:
    """How many solutions the puzzle has: exactly when ``exact``, otherwise at least
    ``count``, stopped by ``limit`` or ``time_limit`` (see ``solutions``).

    The compiled search counts grids it never hands over, each checked against the clues
    as it is found (``kernel._satisfies``): a random 25x25 puzzle's 4,588 solutions take
    it 0.17 s, where CP-SAT's enumeration took 7.3 s. Where its budget
    (``COUNT_PROBES``) does not settle the count, the race's first solutions follow if it
    found none (``_first_ones``: it proves Forever unique in 0.13 s, where the search
    takes 13 s), and then the search counts on without a budget, racing a solver's
    enumeration (``_race_to_count``). Without ``logic``, CP-SAT counts alone."""
    if not logic:
        return count_all(solutions(puzzle, limit, time_limit, build, logic))
    refuse(puzzle, limit)
    started = time.perf_counter()
    if limit == 0:
        return Count(0, False, Stop.LIMIT)
    deadline = deadline_after(time_limit)
    deduction = deduce(puzzle, deadline, probing=0)
    found, spent = search_from(puzzle, deduction, deadline, limit, COUNT_PROBES)
    deadline = later(deadline, spent)
    total, earlier = _count_of(found, limit), found.solutions
    if not _settled(total) and not earlier and seconds_left(deadline) != 0:
        earlier, complete = _first_ones(puzzle, limit, build, found.known, deadline)
        total = _count_grids(earlier, complete, limit)
    if not _settled(total) and seconds_left(deadline) != 0:
        told = earlier if len(earlier) == total.count else None  # the solver must skip each
        total = _race_to_count(puzzle, found.known, told, limit, deadline, build)
    return replace(total, seconds=time.perf_counter() - started - spent)


def _settled(total: Count) -> bool:
    """Whether a count is all there is to know: exact, or up to the limit asked for."""
    return total.exact or total.stopped_by is Stop.LIMIT


def _count_of(found: Found, limit: int | None) -> Count:
    """The count a compiled search proved: exact when it was exhausted."""
    if found.exhausted:
        return Count(found.count, True, differing=found.differing)
    stop = Stop.LIMIT if limit is not None and found.count >= limit else Stop.TIME_LIMIT
    return Count(found.count, False, stop, differing=found.differing)


def _count_grids(grids: tuple[Grid, ...], complete: bool, limit: int | None) -> Count:
    """The count of solutions in hand, all there are when ``complete``."""
    tally = Tally.of(grids)
    if complete:
        return tally.total(True, None)
    return tally.total(False, Stop.LIMIT if left_to_find(limit, grids) == 0 else Stop.TIME_LIMIT)


def _race_to_count(
    puzzle: Puzzle,
    known: Known,
    earlier: tuple[Grid, ...] | None,
    limit: int | None,
    deadline: float | None,
    build: ModelBuilder | None,
) -> Count:
    """The count of the compiled search with no budget, or of a solver's enumeration of
    the solutions but the ``earlier`` ones (``_count_enumerated``), whichever ends first;
    at the deadline, the larger. Without ``earlier`` (more grids found than the search
    hands over), the search counts alone."""
    from nonocp.logic.search import search

    stopper = _stopper()
    counting = partial(search, puzzle, known, limit, None, deadline, stopper)
    sides = [Side(lambda: _count_of(counting(), limit), stopper.stop)]
    if earlier is not None:
        halt = Halt()
        enumerating = partial(
            _count_enumerated, puzzle, known, earlier, limit, deadline, build, halt
        )
        sides.append(Side(enumerating, halt.halt))
    counts = _in_threads(sides)
    settled = [c for c in counts if _settled(c)]
    return settled[0] if settled else max(counts, key=lambda c: c.count)


KEPT_CELLS = 50_000_000
"""The open cells, over every solution it has found, past which the solver racing the
search to count stops. It keeps each solution (Glucose the clause excluding it, a literal
per open cell; CP-SAT the grid), so a count left running for hours would take gigabytes.
This much is some 85 MB of clauses at the 1.7 KB a solution of random 25x25 seed 9
(density 0.45) took, about 80,000 solutions; the search, which keeps none, counts such a
puzzle many times faster (775,753 solutions in 10 s against 10,689)."""


def _count_enumerated(
    puzzle: Puzzle,
    known: Known,
    earlier: tuple[Grid, ...],
    limit: int | None,
    deadline: float | None,
    build: ModelBuilder | None,
    halt: Halt,
) -> Count:
    """The ``earlier`` solutions and those a solver enumerates besides them (``_others``),
    counted; past ``KEPT_CELLS``, those counted so far once the race or the deadline
    ends."""
    tally = Tally.of(earlier)
    wanted = left_to_find(limit, earlier)
    others = _others(puzzle, known, deadline, wanted, build, earlier, halt)
    most = KEPT_CELLS // max(1, unknown_in(known))
    while tally.count < most:
        try:
            tally.add(next(others))
        except StopIteration as ended:
            exact, stopped_by = ended.value
            return tally.total(exact, stopped_by)
    others.close()
    _until_halted(halt, deadline)
    return tally.total(False, Stop.TIME_LIMIT)


def _until_halted(halt: Halt, deadline: float | None) -> None:
    """Wait until ``halt`` stops this side of a race, or the deadline passes."""
    halted = threading.Event()
    if halt.admit(halted.set):
        halted.wait(seconds_left(deadline))


def count_all(enumeration: Solutions, each: Callable[[Grid], object] | None = None) -> Count:
    """Iterate an enumeration to its end, handing each solution to ``each`` (the command
    line draws them) and keeping only how many there were and where they differ."""
    started = time.perf_counter()
    tally = Tally()
    for grid in enumeration:
        if each is not None:
            each(grid)
        tally.add(grid)
    seconds = time.perf_counter() - started - enumeration.loading
    return tally.total(enumeration.exact, enumeration.stopped_by, seconds)
