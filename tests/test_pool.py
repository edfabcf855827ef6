"""Work over processes: answers in order, and a worker's death reported, not waited on."""

from __future__ import annotations

import os
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from nonocp.pool import in_order


def after_sleeping(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_answers_come_in_the_tasks_order_whichever_finishes_first() -> None:
    tasks = [0.3, 0.0, 0.2, 0.0, 0.1, 0.0]
    for jobs in (1, 2, 3):
        assert list(in_order(after_sleeping, tasks, jobs)) == tasks


def test_a_worker_that_dies_breaks_the_batch_rather_than_hanging() -> None:
    with pytest.raises(BrokenProcessPool):
        list(in_order(os._exit, [1, 1, 1], jobs=2))
