"""Running scoring jobs off the event loop, each within a time limit, admitted fairly.

``process`` (the default): ``size`` scoring processes (``service.scorer``), each running one job at
a time and talking to the event loop over its own socket (no threads, no pool feeder: a job is
one write and one read). A job past its time limit is stopped by killing the one process that
runs it; a replacement is forked from the warm fork server in milliseconds, and no other
request is touched. ``thread``: jobs in threads (lighter, but a thread cannot be stopped: a
job past its limit is answered at once and keeps its slot until it really ends).

Admission (``service.admission``) bounds what each client and the queue may hold. A job still
running after ``demote_after`` seconds yields to shorter ones: its process is reniced to
``DEMOTED_NICE`` and the job gives its slot back (``Admission.demote``); a process is forked
for the freed slot, and the demoted one is retired once its job ends (or, when the pool is
short, set back to normal priority). Short jobs (most requests) then keep the cores whatever a
client with long-running inputs sends, and long jobs still use every cycle short ones leave.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import socket
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from text2world.bounded import HEADER_SIZE, decode_header, encode_header
from text2world.errors import ApiError, ScoringTimeout, ScoringUnavailable
from text2world.service.admission import Admission, Grant
from text2world.service.jobs import warm_gold_cache
from text2world.service.scorer import MAIN_VARIABLE, WARM_VARIABLE, scorer_main

log = logging.getLogger("text2world.api")

_PRELOAD = ["text2world.service._forkserver_preload"]
DEMOTED_NICE = 10  # CPU weight about a tenth of a normal process's (Linux CFS)


class _Scorer:
    def __init__(self, process, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.process = process
        self.reader = reader
        self.writer = writer

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()


def _start_process(cache_bytes: int | None):
    """Fork one scoring process from the fork server (blocking: run in a thread)."""
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    forkserver.ensure_running()
    # the PID the process must die with (a fork server gone before it starts: it exits at once)
    parent = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
    ours, theirs = socket.socketpair()
    try:
        process = context.Process(target=scorer_main, args=(theirs, cache_bytes, parent),
                                  name="t2w-scorer", daemon=True)
        process.start()
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return process, ours


def _start_fork_server(warm: bool) -> None:
    """The fork server imports the library (and parses the golds with ``warm``) once; every
    scoring process is forked from it. One per server process: its settings are those of the
    first start."""
    os.environ[WARM_VARIABLE] = "1" if warm else "0"
    # Each forked process re-runs the main script (as __mp_main__) unless the fork server ran
    # it first; CPython 3.11's fork server never does (it looks for a 'main_path' key that
    # get_preparation_data does not produce). For `t2w serve` that is half a second of imports
    # per fork, so the preload module runs the script once.
    main = sys.modules["__main__"]
    main_path = getattr(main, "__file__", None)
    if getattr(main.__spec__, "name", None) is None and main_path:
        os.environ[MAIN_VARIABLE] = os.path.abspath(main_path)
    else:
        os.environ.pop(MAIN_VARIABLE, None)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    from multiprocessing import forkserver

    forkserver.ensure_running()


class ScoringExecutor:
    def __init__(self, kind: str, size: int, timeout: float, admission: Admission | None = None,
                 warm: bool = False, warm_golds: Callable[[], tuple[str, ...]] | None = None,
                 cache_bytes: int | None = None, start_timeout: float = 300.0,
                 demote_after: float = 0.0) -> None:
        self.kind = kind
        self.demote_after = demote_after
        self.size = size
        self.timeout = timeout
        if admission is None:
            admission = Admission.for_slots(size, timeout)
        self.admission = admission
        self.warm = warm
        self._warm_golds = warm_golds
        self.cache_bytes = cache_bytes
        self.start_timeout = start_timeout
        self._scorers: dict[int, _Scorer] = {}
        self._idle: asyncio.Queue[_Scorer] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task] = set()
        self._started: asyncio.Event | None = None
        self._closed = False
        self._restarting = 0  # replacements being forked
        self._restart_failing = False  # the last attempt to fork a replacement failed
        self.start_error: str | None = None

    # ---- life cycle

    async def start(self, wait: bool = True) -> None:
        """Start the scoring processes; with ``wait=False`` in the background (readiness says
        when they are up; requests wait for them)."""
        self._idle = asyncio.Queue()
        self._started = asyncio.Event()
        if self.kind == "thread":
            self._threads = ThreadPoolExecutor(self.size, thread_name_prefix="t2w-score")
            task = self._spawn(self._warm_threads())
        else:
            task = self._spawn(self._start_processes())
        if wait:
            await task

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _warm_threads(self) -> None:
        if self.cache_bytes is not None:
            from text2world.scoring.caching import ALL_TEXT_CACHES

            for cache in ALL_TEXT_CACHES:
                cache.set_max_bytes(self.cache_bytes)
        if self.warm and self._warm_golds is not None:
            golds = await asyncio.to_thread(self._warm_golds)
            await asyncio.get_running_loop().run_in_executor(self._threads, warm_gold_cache, golds)
        assert self._started is not None  # made by start()
        self._started.set()

    async def _start_processes(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, _start_fork_server, self.warm)
            await asyncio.gather(*(self._add_scorer() for _ in range(self.size)))
        except Exception as err:  # noqa: BLE001 - reported by /readyz and in the log
            self.start_error = f"{type(err).__name__}: {err}"
            log.exception("the scoring processes could not be started")
        finally:
            assert self._started is not None  # made by start()
            self._started.set()

    async def _add_scorer(self) -> None:
        loop = asyncio.get_running_loop()
        process, sock = await loop.run_in_executor(None, _start_process, self.cache_bytes)
        reader, writer = await asyncio.open_connection(sock=sock)
        scorer = _Scorer(process, reader, writer)
        if self._closed:
            self._stop(scorer)
            return
        self._scorers[scorer.pid] = scorer
        # Notice a process that dies while idle (the OOM killer, a stray kill): readiness then
        # counts it out and it is replaced at once.
        loop.add_reader(process.sentinel, self._exited, scorer)
        assert self._idle is not None  # made by start()
        self._idle.put_nowait(scorer)

    def _exited(self, scorer: _Scorer) -> None:
        asyncio.get_running_loop().remove_reader(scorer.process.sentinel)
        if scorer.pid in self._scorers:
            self._replace(scorer)

    async def _replace_later(self) -> None:
        delay = 0.0
        self._restarting += 1
        try:
            while not self._closed:
                try:
                    await self._add_scorer()
                    self._restart_failing = False
                    return
                except Exception as err:  # noqa: BLE001 - retried; /readyz shows the shortfall
                    self._restart_failing = True
                    delay = min(5.0, delay * 2 or 0.1)
                    log.warning("a scoring process could not be restarted (%s); retrying in "
                                "%.1f s", err, delay)
                    await asyncio.sleep(delay)
        finally:
            self._restarting -= 1

    def _stop(self, scorer: _Scorer) -> None:
        loop = asyncio.get_running_loop()
        try:
            loop.remove_reader(scorer.process.sentinel)
        except (ValueError, OSError):
            pass
        scorer.writer.close()
        try:
            scorer.process.kill()
        except (OSError, ValueError, AttributeError):
            pass
        # Reap it off the event loop (it takes a moment).
        loop.run_in_executor(None, scorer.process.join, 10)

    def _replace(self, scorer: _Scorer) -> None:
        if self._scorers.pop(scorer.pid, None) is None:
            return  # already being replaced
        self._stop(scorer)
        self._spawn(self._replace_later())

    def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        scorers, self._scorers = list(self._scorers.values()), {}
        for scorer in scorers:
            try:
                asyncio.get_running_loop().remove_reader(scorer.process.sentinel)
            except (RuntimeError, ValueError, OSError):
                pass
            try:
                scorer.writer.close()  # an idle process ends on its own; a busy one is killed
            except RuntimeError:  # closed after its event loop ended (an eval's tools)
                pass
            try:
                scorer.process.kill()
            except (OSError, ValueError, AttributeError):
                pass
        for scorer in scorers:
            scorer.process.join(5)

    # ---- state

    def pids(self) -> set[int]:
        return set(self._scorers)

    def status(self) -> dict:
        alive = sum(scorer.alive() for scorer in list(self._scorers.values()))
        started = self._started is not None and self._started.is_set()
        if self.kind == "thread":
            alive = self.size if started else 0
        # Scoring works while a process is up, or being replaced as usual (after a job hit the
        # time limit): only failed restarts with none up make the service unready.
        working = alive > 0 or (self._restarting > 0 and not self._restart_failing)
        return {"executor": self.kind, "scoring_processes": self.size, "alive": alive,
                "restarting": self._restarting, "started": started, "error": self.start_error,
                "ready": started and working, **self.admission.snapshot()}

    def ready(self) -> bool:
        return self.status()["ready"]

    # ---- running a job

    async def run(self, job: Callable[[Any], Any], task: Any, client: str = "local",
                  timeout: float | None = None) -> Any:
        """``job(task)`` within the time limit (``timeout`` seconds, default the executor's),
        once ``client`` is admitted."""
        if self._idle is None:
            raise ScoringUnavailable("the executor has not been started")
        limit = self.timeout if timeout is None else timeout
        if self.kind == "thread":
            return await self._run_in_thread(job, task, client, limit)
        async with self.admission.slot(client) as grant:
            return await self._run_in_process(job, task, grant, limit)

    async def _idle_scorer(self) -> _Scorer:
        if self.start_error is not None and not self._scorers:
            raise ScoringUnavailable(f"the scoring processes could not start ({self.start_error})")
        try:
            while True:
                assert self._idle is not None  # made by start()
                scorer = await asyncio.wait_for(self._idle.get(), self.start_timeout)
                if scorer.pid in self._scorers and scorer.alive():
                    return scorer
                # Died while idle (e.g. the OOM killer): replace it, take the next one.
                if scorer.pid in self._scorers:
                    self._replace(scorer)
        except asyncio.TimeoutError:
            raise ScoringUnavailable(f"no scoring process became free within "
                                     f"{self.start_timeout:g} s") from None

    def _demote(self, scorer: _Scorer, grant: Grant) -> None:
        """The job has run ``demote_after`` seconds: lower its priority, free its slot."""
        if self._closed or scorer.pid not in self._scorers or not self.admission.demote(grant):
            return
        try:
            os.setpriority(os.PRIO_PROCESS, scorer.pid, DEMOTED_NICE)
        except OSError:  # it has just ended
            pass
        self._spawn(self._replace_later())  # a process for the slot it gave back

    def _after_demoted(self, scorer: _Scorer, reusable: bool) -> None:
        """A demoted job ended: retire its process, unless the pool is short without it."""
        wanted = self.size + self.admission.background_used - 1  # its place is given back next
        if len(self._scorers) + self._restarting - 1 >= wanted:
            self._retire(scorer)
            return
        if reusable:
            try:  # back to normal priority (needs CAP_SYS_NICE or RLIMIT_NICE), else a fresh one
                os.setpriority(os.PRIO_PROCESS, scorer.pid, os.getpriority(os.PRIO_PROCESS, 0))
                assert self._idle is not None  # made by start()
                self._idle.put_nowait(scorer)
                return
            except OSError:
                pass
        self._replace(scorer)

    def _retire(self, scorer: _Scorer) -> None:
        if self._scorers.pop(scorer.pid, None) is not None:
            self._stop(scorer)

    async def _run_in_process(self, job, task, grant: Grant, limit: float) -> Any:
        payload = pickle.dumps((job, task), protocol=pickle.HIGHEST_PROTOCOL)
        scorer = await self._idle_scorer()
        reusable = False
        demotion = None
        if self.demote_after > 0:
            demotion = asyncio.get_running_loop().call_later(self.demote_after, self._demote,
                                                             scorer, grant)
        try:
            async with asyncio.timeout(limit):  # from here on: the job's own time
                scorer.writer.write(encode_header(len(payload)))
                scorer.writer.write(payload)
                await scorer.writer.drain()
                size = decode_header(await scorer.reader.readexactly(HEADER_SIZE))
                outcome, value = pickle.loads(await scorer.reader.readexactly(size))
            reusable = True
        except TimeoutError:
            self.admission.penalize(grant.client)
            raise ScoringTimeout(limit) from None
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            raise ScoringUnavailable("the scoring process stopped while running the job") from None
        finally:
            if demotion is not None:
                demotion.cancel()
            if grant.demoted:
                self._after_demoted(scorer, reusable)
            elif reusable:
                assert self._idle is not None  # made by start()
                self._idle.put_nowait(scorer)
            else:  # past its limit, dead, or abandoned mid-job (cancelled): never reused
                self._replace(scorer)
        if outcome == "ok":
            return value
        if outcome == "api_error":
            status, code, message, details = value
            raise ApiError(status, code, message, **details)
        log.error("scoring job failed: %s", value)
        raise RuntimeError(f"scoring job failed: {value}")

    async def _run_in_thread(self, job, task, client: str, limit: float) -> Any:
        # A thread cannot be stopped: past the limit the request is answered, but the job keeps
        # its slot until it really ends, so runaway jobs cannot pile up beyond ``size``.
        await self.admission.acquire(client)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._threads, job, task)
        except BaseException:
            self.admission.release(client)
            raise

        def finished(done: asyncio.Future) -> None:
            self.admission.release(client)
            if not done.cancelled():
                done.exception()  # retrieved: no "exception never retrieved" noise

        future.add_done_callback(finished)
        try:
            return await asyncio.wait_for(asyncio.shield(future), limit)
        except asyncio.TimeoutError:
            self.admission.penalize(client)
            raise ScoringTimeout(limit) from None

