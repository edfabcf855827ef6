"""Work spread over processes and answered in input order: batches of puzzles and of
magnitude instances.

Ctrl-C reaches every process of the group. The workers ignore it; the parent stops
waiting at once, ends the workers (a puzzle's search may have minutes to go, and there
is nothing in a worker to save) and passes ``KeyboardInterrupt`` on, so the answers
already handed back are all there is. A worker that dies (killed for memory, say) breaks
the pool with ``BrokenProcessPool``, where ``multiprocessing.Pool`` would start another
and wait forever for the lost task's answer.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

Task = TypeVar("Task")
Answer = TypeVar("Answer")


def cores() -> int:
    """The cores this process may run on (a scheduler or ``taskset`` may allow fewer than
    the machine has), where the system can say; else the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def in_order(
    work: Callable[[Task], Answer], tasks: Sequence[Task], jobs: int, most_per_chunk: int = 1
) -> Iterator[Answer]:
    """``work`` applied to each of ``tasks`` by ``jobs`` processes, the answers in the
    tasks' order; in this process when one job is asked for or there is one task.

    Workers take tasks in chunks of up to ``most_per_chunk``, about eight chunks a worker:
    where a task takes well under a millisecond, per-task overhead would otherwise
    dominate; where one may take a minute, chunks of one keep the workers evenly busy.
    """
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        yield from map(work, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor  # 5 ms that one job need not pay

    chunk = max(1, min(most_per_chunk, len(tasks) // (jobs * 8)))
    pool = ProcessPoolExecutor(jobs, initializer=leave_interrupts_to_the_parent)
    try:
        yield from pool.map(work, tasks, chunksize=chunk)
    except BaseException:  # Ctrl-C, or the caller stopped asking: nothing left to wait for
        end_workers(pool)
        raise
    finally:
        pool.shutdown(cancel_futures=True)


def leave_interrupts_to_the_parent() -> None:
    """A worker's initializer: Ctrl-C is the parent's to handle, and SIGTERM, which the
    parent ends its workers with, ends a worker whatever the parent made of it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the workers mid-task: SIGTERM's default action ends a process even inside
    the compiled search or a solver. ``ProcessPoolExecutor.terminate_workers`` does this
    from Python 3.14 on."""
    for process in list(pool._processes.values()):  # no public way before 3.14
        process.terminate()
