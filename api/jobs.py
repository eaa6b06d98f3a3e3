"""Scoring jobs and the executor that runs them off the event loop, within a time limit.

Kept apart from ``api.app`` so that scoring processes import only the library, not the web
framework: a scoring process starts (or restarts after a timeout) in a fraction of the time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import anyio

from text2world.extract import NoDomainFound, extract_domain
from text2world.metrics import ScoringError, score
from text2world.pddl import DomainInputError
from text2world.validation import validate


class ApiError(Exception):
    """An error answered as ``{"error": {"code", "message", ...}}`` with an HTTP status."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details

    def __reduce__(self):
        # Raised inside scoring processes: must survive pickling back to the server.
        return (_api_error, (self.status, self.code, self.message, self.details))


def _api_error(status: int, code: str, message: str, details: dict) -> ApiError:
    return ApiError(status, code, message, **details)


# --------------------------------------------------------------------------------------------
# Scoring jobs: plain functions on plain data, so they can run in a child process


def _domain_of(task: dict) -> tuple[str, bool]:
    if task.get("response") is not None:
        try:
            return extract_domain(task["response"]), True
        except NoDomainFound as err:
            raise ApiError(422, "no_domain_found", f"response: {err}") from None
    return task["pddl"], False


def validate_job(task: dict) -> dict:
    text, extracted = _domain_of(task)
    result = validate(text, fold_case=not task.get("exact_case", False))
    return {**result.to_dict(), "extracted": extracted}


def score_job(task: dict) -> dict:
    text, extracted = _domain_of(task)
    try:
        result = score(task["gold"], text, mode=task["mode"])
    except ScoringError as err:
        raise ApiError(422, "unscorable", f"the pair cannot be scored: {err}") from None
    except DomainInputError as err:
        raise ApiError(422, "invalid_domain", f"gold domain: {err.message}") from None
    checked = validate(text)
    semantic = None
    if task.get("semantic"):
        from text2world.semantic import semantic_score
        semantic = semantic_score(task["gold"], text, task.get("problems") or ()).to_dict()
    return {**result.to_dict(), "validation": {**checked.to_dict(), "extracted": extracted},
            "semantic": semantic}


_TINY_DOMAIN = ("(define (domain ready) (:requirements :strips) (:predicates (p))\n"
                "  (:action flip :parameters () :precondition (p) :effect (not (p))))")


def _warm_up_process() -> None:
    # Import the parser and run every code path once, so a job's time limit never pays for it.
    validate(_TINY_DOMAIN)
    for mode in ("paper", "canonical"):
        score(_TINY_DOMAIN, _TINY_DOMAIN, mode=mode)


def _pid(delay: float) -> int:
    time.sleep(delay)  # stay busy a moment, so the next ping goes to another process
    return os.getpid()


def _init_scoring_process(golds: tuple[str, ...]) -> None:
    # The server owns shutdown: Ctrl-C or a SIGTERM to the process group must not kill a job
    # half way or print a traceback from every child; the pool ends these processes itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _warm_up_process()
    warm_gold_cache(golds)


def warm_gold_cache(golds: tuple[str, ...]) -> None:
    """Parse gold domains into the caches of text2world.metrics (keyed by the gold text)."""
    for gold in golds:
        for mode in ("paper", "canonical"):
            try:
                score(gold, gold, mode=mode)
            except Exception:  # noqa: BLE001 - a gold that cannot be scored is reported per request
                pass


def gold_cache_info(_: object = None) -> dict:
    """Counters of this process's gold-parse caches (text2world.metrics), for diagnostics."""
    from text2world import metrics

    return {mode: metrics_cache.cache_info()._asdict() for mode, metrics_cache in
            (("paper", metrics._paper_gold_view), ("canonical", metrics._canonical_gold_view))}


class ScoringTimeout(Exception):
    pass


class ScoringExecutor:
    """Runs scoring jobs off the event loop, at most ``size`` at a time, each within ``timeout``.

    In process mode a job past its limit is stopped by killing the pool (a thread cannot be
    stopped); the pool is rebuilt and jobs that were running beside it are retried once.
    Jobs waiting for a free slot do not use up their time limit.
    """

    def __init__(self, kind: str, size: int, timeout: float, warm: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.size = size
        self.timeout = timeout
        self._warm = warm
        self._pool: ProcessPoolExecutor | None = None
        self._pool_ready: asyncio.Future | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._lock = threading.Lock()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the server process runs threads, and forking those is unsafe.
        return ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_scoring_process, initargs=(self._warm,))

    async def start(self) -> None:
        self._slots = asyncio.Semaphore(self.size)
        if self.kind == "thread":
            self._threads = ThreadPoolExecutor(self.size, thread_name_prefix="t2w-score")
        if self.kind == "process":
            await self._started_pool()
        elif self._warm:
            await anyio.to_thread.run_sync(warm_gold_cache, self._warm)

    async def _started_pool(self) -> ProcessPoolExecutor:
        """The current pool once all its processes have started, so start-up never counts
        against a job's time limit. Concurrent callers share one start."""
        with self._lock:
            if self._pool is None:
                self._pool = self._new_pool()
                self._pool_ready = asyncio.ensure_future(self._all_processes_up(self._pool))
            pool, ready = self._pool, self._pool_ready
        try:
            await asyncio.shield(ready)
        except BrokenProcessPool:
            self._discard(pool, kill=True)
            raise
        return pool

    async def _all_processes_up(self, pool: ProcessPoolExecutor) -> None:
        seen: set[int] = set()
        deadline = time.monotonic() + 300
        while len(seen) < self.size and time.monotonic() < deadline:
            pings = [asyncio.wrap_future(pool.submit(_pid, 0.05)) for _ in range(self.size)]
            seen.update(await asyncio.gather(*pings))

    def _discard(self, pool: ProcessPoolExecutor, kill: bool) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        if kill:
            # The pool offers no way to stop one running job: end its processes, then reap
            # them off the event loop (it takes a moment).
            for process in list(getattr(pool, "_processes", {}).values()):
                try:
                    process.kill()
                except (OSError, ValueError, AttributeError):
                    pass
            threading.Thread(target=pool.shutdown, kwargs={"cancel_futures": True},
                             daemon=True).start()
        else:
            pool.shutdown(wait=False, cancel_futures=True)

    async def _run_in_thread(self, job, task: dict) -> dict:
        # A thread cannot be stopped: past the limit the request is answered, but the job keeps
        # its slot until it really ends, so runaway jobs cannot pile up beyond ``size``.
        await self._slots.acquire()
        try:
            future = asyncio.get_running_loop().run_in_executor(self._threads, job, task)
        except BaseException:
            self._slots.release()
            raise

        def finished(done: asyncio.Future) -> None:
            self._slots.release()
            if not done.cancelled():
                done.exception()  # retrieved: no "exception never retrieved" noise

        future.add_done_callback(finished)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except asyncio.TimeoutError:
            raise ScoringTimeout from None

    async def run(self, job, task: dict) -> dict:
        assert self._slots is not None, "ScoringExecutor.start() was not awaited"
        if self.kind == "thread":
            return await self._run_in_thread(job, task)
        async with self._slots:
            for attempt in range(2):
                pool = None
                try:
                    pool = await self._started_pool()
                    future = pool.submit(job, task)
                except (BrokenProcessPool, RuntimeError):
                    # The pool failed to start or broke (another job's timeout): use a new one.
                    if pool is not None:
                        self._discard(pool, kill=True)
                    continue
                try:
                    return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
                except asyncio.TimeoutError:
                    self._discard(pool, kill=True)
                    raise ScoringTimeout from None
                except BrokenProcessPool:
                    # Another job's timeout killed this pool under us: run again on a new one.
                    self._discard(pool, kill=False)
                    if attempt:
                        raise
            raise BrokenProcessPool("the scoring pool could not be restarted")

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # Running jobs end within their time limit; waiting lets the pool release its
            # semaphores and pipes cleanly.
            pool.shutdown(wait=True, cancel_futures=True)
