"""Deadlines: one ``time.perf_counter`` value handed down from a command's time limit to
every solver it runs, so that the solvers one after another share one limit.

The compiled search and Glucose run without the GIL and read no clock: a timer thread
stops them when their deadline comes (``stopping_at``), as a race stops its losing sides.
Ctrl-C reaches Python only in the main thread, between two steps of Python code, so a
solve runs in a thread of its own while the main thread waits (``interruptible``), and a
stop is repeated until the solver has heard it (``stop_until_ended``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

Item = TypeVar("Item")


LONGEST = 1e8
"""The longest time limit, about three years: past it (infinity among them) a limit is
none, since a timer thread cannot wait past 9.2e9 s and a MIP's limit is whole
milliseconds."""


def valid_limit(time_limit: float | None) -> float | None:
    """``time_limit``, unless it is below 0 or NaN (which some solvers would read as no
    limit and others as none left): a ``ValueError`` then."""
    if time_limit is not None and not time_limit >= 0:
        raise ValueError(f"time limit {time_limit}: expected seconds from 0, or None for no limit")
    return time_limit


def deadline_after(time_limit: float | None) -> float | None:
    time_limit = valid_limit(time_limit)
    if time_limit is None or time_limit > LONGEST:
        return None
    return time.perf_counter() + time_limit


def later(deadline: float | None, seconds: float) -> float | None:
    """``deadline`` moved ``seconds`` on: time a limit does not count (loading the search)."""
    return None if deadline is None else deadline + seconds


def sooner(deadline: float | None, seconds: float) -> float | None:
    """``deadline`` or ``seconds`` from now, whichever comes first: a step's own budget
    within a command's limit. None where neither bounds anything (no deadline, and
    ``seconds`` infinite)."""
    other = time.perf_counter() + seconds
    earliest = other if deadline is None else min(deadline, other)
    return None if math.isinf(earliest) else earliest


def seconds_left(deadline: float | None) -> float | None:
    """The seconds before ``deadline`` (0 once it has passed), None when there is none."""
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


class OutOfTime(Exception):
    """The deadline passed before ``in_time``'s caller had gone through its items."""


def in_time(items: Iterable[Item], deadline: float | None) -> Iterator[Item]:
    """``items`` one by one, raising ``OutOfTime`` once ``deadline`` has passed. Solvers'
    models are built in Python, line by line, and on a large puzzle building alone would
    outlast a time limit: a random 200x200 puzzle's block-start model takes 18 s, its MIP
    47 s."""
    for item in items:
        if seconds_left(deadline) == 0:
            raise OutOfTime
        yield item


@contextmanager
def stopping_at(deadline: float | None, stop: Callable[[], None]) -> Iterator[None]:
    """Call ``stop`` from a timer thread at ``deadline`` while the block runs (at once when
    it has passed), and not after."""
    left = seconds_left(deadline)
    if left is None:
        yield
        return
    if left == 0:
        stop()
        yield
        return
    timer = threading.Timer(left, stop)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


UNHEEDED_CTRL_C = 1.0
"""Seconds a solver may take to stop after Ctrl-C before it is left to end with the
process (its thread is a daemon). SCIP heeds an interrupt between its steps, not within an
LP solve: Knotty's root LP went on for 26 s after Ctrl-C, to the time limit."""


def stop_until_ended(
    stop: Callable[[], None], threads: Iterable[threading.Thread], until: float | None = None
) -> None:
    """Call ``stop`` until ``threads`` have ended, or ``until`` passes: once is not enough,
    since a stop sent to a solver that has not yet begun its search is lost."""
    threads = list(threads)
    while any(thread.is_alive() for thread in threads):
        if until is not None and time.perf_counter() > until:
            return
        stop()
        for thread in threads:
            thread.join(0.01)


@contextmanager
def ctrl_c_unwrapped() -> Iterator[None]:
    """Raise a Ctrl-C during the block as ``KeyboardInterrupt``. Importing CP-SAT runs
    compiled code that imports another module, and pybind11 turns a Ctrl-C there into
    ``ImportError("initialization failed")``: a traceback and status 1 where the command
    would have said how far it got and ended with 130."""
    try:
        yield
    except ImportError as error:
        if isinstance(error.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


def interruptible(run: Callable[[], Item], stop: Callable[[], None]) -> Item:
    """``run()``, in a thread of its own while this one waits, so that Ctrl-C reaches this
    thread at once and ``stop``s the run. Run here, a solver's compiled search would hold
    Ctrl-C back until it returned: Glucose's or SCIP's on Knotty for minutes, CP-SAT's (kept
    from handling Ctrl-C itself) on a magnitude instance with no time limit for longer."""
    results: list[Item] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(run())
        except BaseException as error:  # handed to the caller's thread
            errors.append(error)

    thread = threading.Thread(target=target, name="nonocp-interruptible", daemon=True)
    try:
        thread.start()
        thread.join()
    except KeyboardInterrupt:
        stop_until_ended(stop, [thread], deadline_after(UNHEEDED_CTRL_C))
        raise
    if errors:
        raise errors[0]
    return results[0]
