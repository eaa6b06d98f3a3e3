"""The eval's worker pool: scoring jobs of one gold go to the worker that scored it first (its
per-process caches serve them), an idle worker still takes any job, validations go first."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time

import pytest

from text2world.engine.pool import WORKER_GC_THRESHOLDS, CpuQueue, WorkerPool, make_executor


def pid(_: int = 0) -> int:
    return os.getpid()


def collector(_: int = 0) -> tuple:
    import gc

    return os.getpid(), gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()


def test_jobs_of_one_key_run_on_one_worker_and_idle_workers_steal():
    pool = WorkerPool(2, mp_context=multiprocessing.get_context("fork"))
    try:
        async def scenario() -> tuple:
            queue = CpuQueue(pool)
            first = await asyncio.gather(queue.submit(False, pid, affinity="x"),
                                         queue.submit(False, pid, affinity="y"))
            second = await asyncio.gather(queue.submit(False, pid, affinity="x"),
                                          queue.submit(False, pid, affinity="y"))
            # two jobs of x at once: the worker that is not x's home takes one rather than idle
            stolen = await asyncio.gather(queue.submit(False, pid, affinity="x"),
                                          queue.submit(False, pid, affinity="x"))
            plain = await queue.submit(True, pid)
            return first, second, stolen, plain

        first, second, stolen, plain = asyncio.run(scenario())
    finally:
        pool.shutdown()
    assert first[0] != first[1] and os.getpid() not in first
    assert second == first  # x on x's worker, y on y's
    assert set(stolen) == set(first)
    assert plain in first


def test_a_pool_shut_down_without_waiting_is_not_woken_again_at_exit():
    """A pool shut down without waiting (a run stopped by Ctrl-C or SIGTERM) leaves nothing in
    the interpreter's exit list of manager threads to wake (on Python 3.11 that wakeup can
    race the manager thread closing its pipe: "Bad file descriptor" printed at exit); its
    manager threads still end, and the exit hook finds nothing of it."""
    import time
    from concurrent.futures import process

    pool = WorkerPool(2, mp_context=multiprocessing.get_context("fork"))
    assert [f.result(60) for f in (pool.submit_on(0, pid), pool.submit_on(1, pid))]
    managers = [worker._executor_manager_thread for worker in pool.workers]
    assert all(manager in process._threads_wakeups for manager in managers)
    pool.submit_on(0, time.sleep, 0.5)
    pool.shutdown(wait=False, cancel_futures=True)
    assert not any(manager in process._threads_wakeups for manager in managers)
    for manager in managers:
        manager.join(60)
        assert not manager.is_alive()


def test_eval_workers_freeze_what_they_inherited_and_collect_less_often():
    """The collector of a scoring worker (``pool.worker_init``) skips the eval process's heap and
    runs every ``WORKER_GC_THRESHOLDS`` allocations; the eval process keeps its own settings."""
    import gc

    before = gc.get_threshold()
    executor = make_executor(1, 10)
    assert executor is not None
    try:
        worker, thresholds, frozen, enabled = executor.submit(collector).result(timeout=120)
    finally:
        executor.shutdown()
    assert worker != os.getpid() and enabled
    assert thresholds == WORKER_GC_THRESHOLDS and frozen > 0
    assert gc.get_threshold() == before


def test_an_idle_worker_prefers_its_own_jobs_then_unclaimed_then_any():
    class Fake:
        _max_workers = 2

    queue = CpuQueue(Fake())  # type: ignore[arg-type]
    loop = asyncio.new_event_loop()
    try:
        def job(key):
            return (pid, (), loop.create_future(), key)

        queue.homes.update({"a": 0, "b": 1})
        queue.later.extend([job("a"), job("b"), job(None), job("c")])
        assert queue._next_for(1)[3] == "b"
        assert queue._next_for(1)[3] is None  # no key: anyone's
        assert queue._next_for(1)[3] == "c"  # a key no worker holds yet
        assert queue._next_for(1)[3] == "a"  # only a's job is left: taken rather than idle
        assert queue._next_for(1) is None
        queue.later.append(job("a"))
        queue.urgent.append(job("b"))
        assert queue._next_for(0)[3] == "b"  # validations first, wherever they go
        queue.urgent.extend([job("b"), job("a")])
        assert queue._next_for(0)[3] == "a"  # ... its own golds' first
        assert queue._next_for(0)[3] == "b"
        assert queue._next_for(0)[3] == "a"  # then scoring
    finally:
        loop.close()


def test_scoring_that_falls_behind_goes_before_validations():
    """A model that answers at once makes calls faster than the pool scores: past ``BACKLOG``
    waiting scoring jobs, a worker takes its oldest own scoring job before a validation (the
    answers it validated are then still parsed in its cache), still never waiting."""
    class Fake:
        _max_workers = 2

    queue = CpuQueue(Fake())  # type: ignore[arg-type]
    loop = asyncio.new_event_loop()
    try:
        def job(key, index=0):
            return (pid, (index,), loop.create_future(), key)

        queue.homes.update({"a": 0, "b": 1})
        queue.later.extend(job("b", i) for i in range(CpuQueue.BACKLOG))
        queue.urgent.append(job("a"))
        assert queue._next_for(0)[1:4:2] == ((0,), "a")  # not behind: the validation first
        queue.later.append(job("a", 99))
        queue.urgent.append(job("a"))
        assert queue._next_for(0)[1] == (99,)  # behind: its own scoring job first
        assert queue._next_for(0)[1] == (0,) and not queue.urgent  # then the validation
        queue.later.append(job("b", 100))
        assert queue._next_for(1)[1] == (0,)  # the oldest of its own
        queue.urgent.append(job("a"))
        assert queue._next_for(0)[3] == "a" and not queue.urgent  # none of its own: validate
        assert queue._next_for(0)[3] == "b"  # nothing else: another worker's scoring job
    finally:
        loop.close()


_ORPHAN = """
import os, sys, time
from text2world.children import die_with_parent, start_child
mode = sys.argv[1]
parent = os.getpid()
pid = os.fork()
if pid == 0:
    if mode == "start_child":
        start_child(parent)
    else:  # the watcher alone, as off Linux (no PR_SET_PDEATHSIG)
        sys.platform = "other"
        die_with_parent(parent, poll=0.1)
    time.sleep(60)
    os._exit(0)
print(pid, flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("mode", ["start_child", "watch"])
def test_a_child_dies_with_its_parent_whatever_kills_it(mode):
    """``children.die_with_parent`` (every scoring child's, the Fast Downward launcher's): a
    parent killed with SIGKILL takes its child along, at once on Linux, else by the watcher."""
    import signal
    import subprocess
    import sys

    from processes import alive, wait_for

    parent = subprocess.Popen([sys.executable, "-c", _ORPHAN, mode], stdout=subprocess.PIPE,
                              text=True, env=os.environ)
    try:
        child = int(parent.stdout.readline())
        assert wait_for(lambda: alive(child), 10)
        time.sleep(0.3)  # the child has told the kernel and started its watcher
        assert alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        assert wait_for(lambda: not alive(child), 10), f"child {child} outlived its parent"
    finally:
        parent.kill()
        parent.wait(10)
