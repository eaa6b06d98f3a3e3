"""``text2world.bounded``: worker processes whose memory (RLIMIT_AS) and CPU (the job's budget,
its child processes included; RLIMIT_CPU behind it) the operating system bounds, killed and
replaced past them, kept warm between jobs."""

from __future__ import annotations

import os
import sys

import pytest

from text2world.bounded import Workers, tree_cpu

HAS_PROC = sys.platform.startswith("linux")
GIB = 1024 ** 3
# A job that burns CPU in one C call (no Python bytecode for a handler to run between):
# the factorial of ten million takes minutes.
BURN = ("math", "factorial", (10_000_000,))
# A job that spends its CPU in a child process (as Fast Downward's search does)
CHILD_BURN = ("subprocess", "run", ([sys.executable, "-c", "while True: pass"],))


@pytest.fixture
def workers():
    pool = Workers(memory_mb=512)
    yield pool
    pool.close()


def test_a_job_runs_and_its_worker_is_kept_warm(workers):
    assert workers.run(("os", "getpid", ()), 5) == ("ok", workers.pids()[0])
    first = workers.pids()
    assert workers.run(("math", "comb", (10, 3)), 5) == ("ok", 120)
    assert workers.pids() == first  # the same process, not one per job
    outcome, text = workers.run(("math", "sqrt", (-1,)), 5)
    assert outcome == "error" and "ValueError" in text and workers.pids() == first


def test_memory_past_the_limit_is_refused_and_the_worker_replaced(workers):
    first = workers.pids()
    outcome, _ = workers.run(("builtins", "bytearray", (GIB,)), 5)
    assert outcome == "memory"
    assert workers.pids() != first  # a fresh one for the next job
    assert workers.run(("math", "comb", (10, 3)), 5) == ("ok", 120)


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree's CPU in Linux /proc")
@pytest.mark.parametrize("job", [BURN, CHILD_BURN], ids=["in-the-worker", "in-its-child"])
def test_cpu_past_the_budget_kills_the_worker_and_its_children(workers, job):
    assert workers.run(("math", "comb", (10, 3)), 5) == ("ok", 120)
    (pid,) = workers.pids()
    assert tree_cpu(pid) is not None
    outcome, text = workers.run(job, 1.0)
    assert outcome == "timeout", text
    assert not os.path.exists(f"/proc/{pid}/stat") or _zombie(pid)
    assert workers.pids() and workers.pids() != [pid]  # replaced
    assert workers.run(("math", "comb", (10, 3)), 5) == ("ok", 120)


@pytest.mark.skipif(not HAS_PROC, reason="reads the worker's limits in Linux /proc")
def test_the_worker_s_own_rlimit_cpu_is_set_for_each_job():
    # behind the caller's watch (which reads /proc): the worker's RLIMIT_CPU (SIGXCPU)
    pool = Workers(memory_mb=512)
    try:
        assert pool.run(("math", "comb", (10, 3)), 5) == ("ok", 120)
        (pid,) = pool.pids()
        with open(f"/proc/{pid}/limits") as limits:
            row = next(line for line in limits if line.startswith("Max cpu time"))
        assert row.split()[3] != "unlimited"  # a soft limit, set per job
    finally:
        pool.close()


def _zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
