"""The process pool that validates and scores rounds for ``t2w eval``, its queue, and for
runs too small for a pool, the background preparation of their golds (``GoldPrefetch``).

Its workers are forked from the eval process (cheap: the modules are already imported), never
hold the run's lock (``runs``), ignore the signals sent to the process group (the parent
decides when they stop) and die with the parent whatever kills it: ``children.start_child``,
the start-up the API's scoring processes share.

Why two pools (this one and ``service.executor.ScoringExecutor``): this one scores a run's rounds in
batches, forked from the eval process (the modules are already imported), with affinity (a
gold's jobs go to the worker that prepared it) and validations first, and no time limit (a
round's score is the run's record; nothing waits on it but the run). The API's executor runs
one job per request from a warm fork server, each under a time limit that kills its process,
with fair admission between clients. They share the child's start-up and die-with-parent.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import multiprocessing
import os
import threading
from collections import OrderedDict, deque
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

from text2world.children import start_child

if TYPE_CHECKING:
    from text2world.store.datasets import Record


class WorkerPool(Executor):
    """Worker processes addressed one by one: one single-process pool per worker, so that a
    job can be sent to the worker that already holds what it needs (``submit_on``).
    ``submit`` sends a job to the least busy worker."""

    def __init__(self, workers: int, **pool_options) -> None:
        self._max_workers = workers
        self.workers = [ProcessPoolExecutor(max_workers=1, **pool_options)
                        for _ in range(workers)]
        # Forked workers: every process is forked before any pool starts its manager
        # thread (a fork after a thread started may deadlock the child: cpython #90622).
        for worker in self.workers:
            launch = getattr(worker, "_launch_processes", None)
            if launch is not None and not getattr(worker, "_safe_to_dynamically_spawn_children",
                                                  True):
                launch()
        self.running = [0] * workers
        self._lock = threading.Lock()

    def submit_on(self, index: int, fn, /, *args, **kwargs) -> Future:
        with self._lock:
            self.running[index] += 1
        future = self.workers[index].submit(fn, *args, **kwargs)
        future.add_done_callback(functools.partial(self._done, index))
        return future

    def _done(self, index: int, _: Future) -> None:
        with self._lock:
            self.running[index] -= 1

    def submit(self, fn, /, *args, **kwargs) -> Future:
        with self._lock:
            index = self.running.index(min(self.running))
        return self.submit_on(index, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut every worker's pool down. Each pool's manager thread, woken by its shutdown,
        is taken off the interpreter's exit list of threads to wake: on Python 3.11 that exit
        hook (``concurrent.futures.process._python_exit``) can write to a wakeup pipe the
        manager thread is closing at that moment and print "OSError: [Errno 9] Bad file
        descriptor" after a run stopped by Ctrl-C or SIGTERM. The threads are still joined at
        exit (they are not daemons)."""
        from concurrent.futures import process

        wakeups = getattr(process, "_threads_wakeups", None)
        for worker in self.workers:
            manager = getattr(worker, "_executor_manager_thread", None)
            worker.shutdown(wait=wait, cancel_futures=cancel_futures)
            if manager is not None and wakeups is not None:
                wakeups.pop(manager, None)


class CpuQueue:
    """Feeds the process pool one job per worker, validations first.

    Validation decides whether an item makes its next call, so it is on the critical path;
    scoring is not. A plain executor queue would put a validation behind every scoring job
    submitted before it. Unless scoring falls behind: past ``BACKLOG`` scoring jobs waiting
    (a model that answers at once, such as the reference models, makes the calls faster than
    a pool scores), a worker takes the oldest scoring job of its own before a validation, so
    that the answers it validated are still in its parse-tree cache when it scores them.

    A job may name an ``affinity`` (the gold it scores against): with a ``WorkerPool``, such
    jobs go to the worker that ran the first job of that key, whose per-process caches (the
    prepared semantic gold, parse trees) then serve them; a worker with nothing else to do
    still takes any job. Validations name the gold too: a worker takes a validation of its
    own golds (or of none yet) before another worker's, where the round's scoring will run.
    """

    HOMES = 4096  # affinity keys remembered
    BACKLOG = 8  # scoring jobs waiting past which scoring goes before validations

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self.slots = getattr(executor, "_max_workers", 1)
        self.urgent: deque = deque()
        self.later: deque = deque()
        self.running = 0  # jobs in a plain executor
        self.busy = [False] * self.slots  # a WorkerPool's workers running a job
        self.homes: OrderedDict = OrderedDict()  # affinity key -> worker index

    async def submit(self, urgent: bool, function, *args, affinity: str | None = None):
        future = asyncio.get_running_loop().create_future()
        (self.urgent if urgent else self.later).append((function, args, future, affinity))
        self._pump()
        return await future

    def _pump(self) -> None:
        if isinstance(self.executor, WorkerPool):
            self._pump_workers()
            return
        loop = asyncio.get_running_loop()
        while self.running < self.slots and (self.urgent or self.later):
            function, args, future, _ = (self.urgent or self.later).popleft()
            if future.cancelled():
                continue
            self.running += 1
            job = loop.run_in_executor(self.executor, function, *args)
            job.add_done_callback(functools.partial(self._finished, target=future))

    def _next_for(self, worker: int):
        """The job an idle worker takes: a validation (of its own golds or of none yet, else
        any), else a scoring job of its own or of no worker yet, else any scoring job (an idle
        worker never waits); past ``BACKLOG`` waiting scoring jobs, one of its own first."""
        for queue in (self.urgent, self.later):
            while queue and queue[0][2].cancelled():
                queue.popleft()
        behind = len(self.later) > self.BACKLOG
        order = ((self.later, True), (self.urgent, True), (self.urgent, False),
                 (self.later, False)) if behind else \
            ((self.urgent, True), (self.urgent, False), (self.later, True), (self.later, False))
        for queue, own in order:
            if not own:
                if queue:
                    return queue.popleft()
                continue
            for index, job in enumerate(queue):
                home = self.homes.get(job[3]) if job[3] is not None else None
                if not job[2].cancelled() and home in (None, worker):
                    del queue[index]
                    return job
        return None

    def _pump_workers(self) -> None:
        assert isinstance(self.executor, WorkerPool)
        for worker in range(self.slots):
            if self.busy[worker]:
                continue
            job = self._next_for(worker)
            if job is None:
                return
            function, args, future, affinity = job
            if future.cancelled():
                continue
            if affinity is not None and affinity not in self.homes:
                self.homes[affinity] = worker
                while len(self.homes) > self.HOMES:
                    self.homes.popitem(last=False)
            self.busy[worker] = True
            job_future = asyncio.wrap_future(self.executor.submit_on(worker, function, *args))
            job_future.add_done_callback(functools.partial(self._finished, target=future,
                                                           worker=worker))

    def _finished(self, done: asyncio.Future, target: asyncio.Future,
                  worker: int | None = None) -> None:
        if worker is None:
            self.running -= 1
        else:
            self.busy[worker] = False
        if not target.done():
            if done.cancelled():
                target.cancel()
            elif (error := done.exception()) is not None:
                target.set_exception(error)
            else:
                target.set_result(done.result())
        self._pump()


def pool_workers(executor: Executor | None) -> int:
    """The worker processes of ``make_executor``'s pool (0: none, scoring in this process).
    With more than one, a task may cut a job into parts that run side by side (a round's
    semantic score into one job per gold problem: ``scoring.semantic_tasks``)."""
    if executor is None:
        return 0
    return getattr(executor, "_max_workers", 1)


POOL_MIN_ITEMS = 5  # fewer items are validated and scored in the eval process itself


def uses_pool(workers: int | None, pending: int) -> bool:
    """Whether ``make_executor(workers, pending)`` starts a pool."""
    return workers > 0 if workers is not None else pending >= POOL_MIN_ITEMS


def make_executor(workers: int | None, pending: int) -> Executor | None:
    """The validation and scoring pool, or None to score in the event loop's thread.

    By default a pool only for more than 4 items: for fewer, starting processes costs more
    than it saves. The workers are forked (cheap: the modules are already imported) before
    the event loop and HTTP clients create threads, and the call returns at once: each
    worker imports the scoring modules on its own while the first model calls are made."""
    if not uses_pool(workers, pending):
        return None
    if workers is None:
        workers = min(2, os.cpu_count() or 1)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    executor = WorkerPool(workers, mp_context=multiprocessing.get_context(method),
                          initializer=worker_init, initargs=(os.getpid(),))
    for index in range(workers):  # with fork, the first submit starts the worker
        executor.submit_on(index, warm_up_worker, 0)
    return executor


# The cyclic garbage collector's thresholds in a scoring worker (CPython's: 700, 10, 10).
# Parsing and simulating allocate millions of objects, many of them kept (parse trees,
# prepared golds): with the default thresholds the collector examined them again and again,
# a fifth of a worker's CPU on ``t2w eval``'s first command, full collections of the whole
# heap included. Ten thousand allocations per young collection cut that by about two thirds,
# and a middle collection every hundred young ones (not ten) halves what was left: what
# survives a young collection here is mostly kept for long (caches), so walking it again
# soon finds little garbage. Cycles are still collected, later.
WORKER_GC_THRESHOLDS = (10_000, 100, 10)


def worker_init(parent: int) -> None:
    """A scoring worker: stops only when its parent says so, or dies with it. (Ctrl-C and
    SIGTERM sent to the process group are the parent's to handle: it still needs its workers
    to score the items whose calls are done before it stops.)

    What it inherited from the eval process is frozen (``gc.freeze``: the collector never
    walks it again; it is the parent's modules and state, which live as long as the worker),
    and the collector runs less often (``WORKER_GC_THRESHOLDS``). Neither changes a result,
    only when cycles are collected."""
    start_child(parent)
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)


WARM_UP_DOMAIN = ("(define (domain warm-up) (:requirements :strips) (:predicates (p))\n"
                  "  (:action a :parameters () :precondition (p) :effect (not (p))))")


def warm_up(_: int = 0) -> None:
    """Import the scoring modules and build the PDDL parser once (its first use costs more
    than a whole validation), off the critical path."""
    from text2world.pddl.validation import validate

    validate(WARM_UP_DOMAIN)


def warm_up_worker(_: int = 0) -> None:
    """``warm_up`` in a scoring worker; the modules it imported are then frozen too (see
    ``worker_init``)."""
    warm_up()
    gc.freeze()


class GoldPrefetch:
    """Prepares the semantic gold side of a few items (``semantic.prepare_gold``: problems
    parsed, gold plans from Fast Downward, trajectories sampled) in a background thread of the
    eval process, as soon as the run is planned, so that scoring the first answers finds it
    ready instead of starting it then.

    For runs scored in the eval process itself (no pool): the gold cache is per process. The
    thread holds the GIL only for parsing and sampling (a small share); the planner runs as a
    subprocess, on another core while the main thread imports the model client and waits for
    the model. It first warms up the validator (``warm_up``) so that one background thread
    does both. Results are only ever cache entries that scoring would compute the same way:
    scores do not change. A gold that fails here is prepared again by scoring, which reports
    why. The planner's processes die with the eval process (``planning.run_fast_downward``).
    """

    def __init__(self, golds: list[tuple[str, tuple]]) -> None:
        self.golds = golds  # (gold domain text, ((problem name, problem text), ...))
        self.prepared = 0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="t2w-gold-prefetch", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            warm_up(0)
        except Exception:  # noqa: BLE001 - validation reports its own failures when used
            pass
        from text2world.scoring.semantic import prepare_gold

        for gold, problems in self.golds:
            if self._stop.is_set():
                return
            try:
                prepare_gold(gold, [tuple(problem) for problem in problems])
                self.prepared += 1
            except Exception:  # noqa: BLE001 - scoring prepares it again and says why
                pass

    def cancel(self) -> None:
        """Start no further gold (the one being prepared finishes)."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the thread is done (within ``timeout`` seconds)."""
        self.thread.join(timeout)
        return not self.thread.is_alive()


def start_gold_prefetch(records: list[Record], semantic: bool,
                        workers: int | None) -> GoldPrefetch | None:
    """Prepare the golds of ``records`` in the background (``GoldPrefetch``) when a run of
    fewer than ``POOL_MIN_ITEMS`` items scores them semantically in this process (no pool:
    ``uses_pool``); else None. Larger runs score in the pool, whose workers prepare the golds
    they need (a prefetch here would also outrun the gold cache of this process)."""
    golds = [(r.domain, tuple((p.name, p.pddl) for p in r.problems))
             for r in records if r.problems]
    if not semantic or not golds or len(records) >= POOL_MIN_ITEMS \
            or uses_pool(workers, len(records)):
        return None
    return GoldPrefetch(golds)
