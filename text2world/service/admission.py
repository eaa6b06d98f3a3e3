"""Admission to scoring: a bounded, fair queue in front of the scoring processes.

Every scoring request takes one of ``slots`` (one per scoring process). Limits, each answered
with a JSON error and ``Retry-After``:

* per client (its address): at most ``client_concurrency`` jobs scoring at once and at most
  ``client_limit`` requests inside the service (scoring or waiting); past the latter, 429;
* at most ``max_queue`` requests waiting in all, each for at most ``queue_timeout`` seconds;
  past either, 503.

A request past the client's limit or the queue's is not refused at once: it waits outside, up
to ``limit_wait`` seconds, for its client to have a request fewer inside (or for a waiting
place), and is refused only when none comes in time. A client that sends more at once than
its limit (a batch sent over many connections, or connections spread unevenly over several
server workers) is then served at the pace its share allows instead of half refused. At most
``max_queue`` requests of a client, and ``max_queue`` in all, wait outside; past that the
refusal is at once.

Capacity is shared across clients, however many there are and however many connections
each opens. A waiting request has a *rank*: how many requests its client already had inside
(scoring or waiting) when it arrived, plus its recent refused requests (429, 503; each counts
1, halving every ``REFUSAL_HALF_LIFE`` seconds): a client that asks for more than it gets
ranks behind one that does not.

* A free slot goes to the waiting request of the lowest rank (ties: the client with the
  fewest requests inside now, then the request that waited longest): every client's first
  request, then every client's second, and so on, so clients that keep many requests inside
  take turns, and a client that sends one request at a time (rank 0) is served next, however
  many others flood.
* The waiting places are shared the same way: when every one is taken, a request takes the
  place of the waiting request of the highest rank (as high: of the client with the most
  requests inside now; the latest of them) if that comes after its own, and that request
  gets the 503 instead. So 50 clients flooding the service cannot leave a client that sends
  one request at a time without a place.

A client alone may use every slot. A job that runs long is *demoted* by the executor
(``service.executor``: lower CPU priority) and gives its slot back, moving to one of ``background``
places (one per slot); it still counts among its client's jobs, so a client whose jobs all
run long holds background places and leaves the slots to clients with short jobs. A client
whose job ran past the time limit is served only when no other client is waiting, for
``penalty_seconds``: a stream of runaway jobs costs other clients at most the slots those jobs
already hold.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator

from text2world.errors import ApiError

DEFAULT_QUEUE_TIMEOUT = 30.0  # seconds a request may wait for a slot
LIMIT_WAIT = 5.0  # seconds a request past a limit waits for room before its 429 or 503
PENALTY_LIMITS = 3  # a client whose job ran past the time limit yields for this many limits
REFUSAL_HALF_LIFE = 5.0  # seconds: how long a client's refused requests weigh on its rank


def default_client_limit(slots: int) -> int:
    """Requests one client may have inside (scoring or waiting), unless set: 4 per slot, at
    least 8."""
    return max(8, 4 * slots)


def default_queue_limit(slots: int) -> int:
    """Requests that may wait in all, unless set: 16 per slot, at least 32."""
    return max(32, 16 * slots)


@dataclass
class Grant:
    """One admitted job: its client, and whether it was moved to the background."""

    client: str
    demoted: bool = False


@dataclass
class _Waiter:
    client: str
    sequence: int
    future: asyncio.Future = field(repr=False)
    rank: float = 0.0  # its client's requests inside and recent refusals when it arrived


class Admission:
    def __init__(self, slots: int, client_concurrency: int, client_limit: int, max_queue: int,
                 queue_timeout: float, penalty_seconds: float, limit_wait: float = 0.0) -> None:
        self.slots = slots
        self.limit_wait = limit_wait  # see the module's docstring; 0: refuse at once
        self.client_concurrency = client_concurrency
        self.client_limit = client_limit
        self.max_queue = max_queue
        self.queue_timeout = queue_timeout
        self.penalty_seconds = penalty_seconds
        self._free = slots
        self.background = slots
        self._background_used = 0
        self._running: Counter[str] = Counter()
        self._inside: Counter[str] = Counter()
        self._waiting: list[_Waiter] = []
        self._penalized_until: dict[str, float] = {}
        self._sequence = 0
        self._job_seconds = 0.05  # moving average, for Retry-After
        # per client: (refusals, decaying with REFUSAL_HALF_LIFE, and when last counted)
        self._refused: dict[str, tuple[float, float]] = {}
        # requests waiting outside for room (``limit_wait``): per client, and for the queue
        self._outside: dict[str, list[asyncio.Future]] = {}
        self._outside_queue: list[asyncio.Future] = []

    @classmethod
    def for_settings(cls, settings: Any) -> "Admission":
        """The bounds of an ``api.settings.Settings``, per server worker."""
        return cls(settings.processes, settings.per_client_concurrency,
                   settings.per_client_limit, settings.queue_limit, settings.queue_timeout,
                   penalty_seconds=PENALTY_LIMITS * settings.score_timeout,
                   limit_wait=min(settings.limit_wait, settings.queue_timeout))

    @classmethod
    def for_slots(cls, slots: int, score_timeout: float) -> "Admission":
        """The default bounds for ``slots`` scoring processes (those of ``api.settings`` left
        unset): what the MCP server's and the agent protocol's tools run with."""
        return cls(slots, slots, default_client_limit(slots), default_queue_limit(slots),
                   DEFAULT_QUEUE_TIMEOUT, penalty_seconds=PENALTY_LIMITS * score_timeout,
                   limit_wait=LIMIT_WAIT)

    # ---- state, for /readyz and tests

    def snapshot(self) -> dict:
        return {"slots": self.slots, "free": self._free, "waiting": len(self._waiting),
                "clients": len(self._inside), "background": self._background_used}

    @property
    def background_used(self) -> int:
        return self._background_used

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: the queue ahead drained at the recent rate."""
        ahead = len(self._waiting) + self.slots
        return max(1, math.ceil(self._job_seconds * ahead / max(1, self.slots)))

    def penalize(self, client: str) -> None:
        """``client``'s job ran past the time limit."""
        self._penalized_until[client] = time.monotonic() + self.penalty_seconds

    # ---- taking and giving back a slot

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[Grant]:
        await self.acquire(client)
        grant = Grant(client)
        started = time.monotonic()
        try:
            yield grant
        finally:
            self._job_seconds += 0.1 * (time.monotonic() - started - self._job_seconds)
            self.release(client, demoted=grant.demoted)

    def demote(self, grant: Grant) -> bool:
        """Move a running job to the background, freeing its slot for the next request;
        False when every background place is taken (the job keeps its slot)."""
        if grant.demoted or self._background_used >= self.background:
            return False
        grant.demoted = True
        self._background_used += 1
        self._free += 1
        self._dispatch()
        return True

    def _busy(self, status: int, code: str, message: str) -> ApiError:
        seconds = self.retry_after()
        return ApiError(status, code, f"{message}; retry after {seconds} s",
                        headers={"Retry-After": str(seconds)}, retry_after=seconds)

    async def acquire(self, client: str) -> None:
        """Wait for a slot for ``client``, or raise the 429/503 ``ApiError``."""
        deadline = time.monotonic() + self.limit_wait
        if self._inside[client] >= self.client_limit:
            await self._wait_outside(self._outside.setdefault(client, []), self.max_queue,
                                     lambda: self._inside[client] < self.client_limit,
                                     deadline)
            if not self._outside.get(client, True):
                del self._outside[client]
        if self._inside[client] >= self.client_limit:
            self._refuse(client)
            raise self._busy(429, "too_many_requests",
                             f"this client ({client}) already has {self._inside[client]} scoring "
                             f"requests in progress; the limit is {self.client_limit} "
                             "(T2W_API_CLIENT_LIMIT)")
        if self._free > 0 and self._running[client] < self.client_concurrency:
            self._free -= 1
            self._running[client] += 1
            self._inside[client] += 1
            return
        rank = self._inside[client] + self._refusals(client)
        if len(self._waiting) >= self.max_queue and not self._make_room(client, rank):
            await self._wait_outside(self._outside_queue, self.max_queue,
                                     lambda: len(self._waiting) < self.max_queue
                                     or self._free > 0, deadline)
            if self._free > 0 and self._running[client] < self.client_concurrency \
                    and self._inside[client] < self.client_limit:
                self._free -= 1
                self._running[client] += 1
                self._inside[client] += 1
                return
        if self._inside[client] >= self.client_limit:  # others of its client came first
            self._refuse(client)
            raise self._busy(429, "too_many_requests",
                             f"this client ({client}) already has {self._inside[client]} scoring "
                             f"requests in progress; the limit is {self.client_limit} "
                             "(T2W_API_CLIENT_LIMIT)")
        if len(self._waiting) >= self.max_queue and not self._make_room(client, rank):
            self._refuse(client)
            raise self._busy(503, "server_busy",
                             f"the server is busy: {len(self._waiting)} scoring requests are "
                             f"waiting, the limit is {self.max_queue} (T2W_API_MAX_QUEUE)")
        self._sequence += 1
        waiter = _Waiter(client, self._sequence, asyncio.get_running_loop().create_future(),
                         rank)
        self._waiting.append(waiter)
        self._inside[client] += 1
        try:
            await asyncio.wait_for(asyncio.shield(waiter.future), self.queue_timeout)
        except BaseException as err:
            if waiter.future.done() and not waiter.future.cancelled():
                if waiter.future.exception() is not None:
                    raise  # its place went to a request of a lower rank (``_make_room``)
                # Granted just as we gave up: hand the slot on.
                self.release(client)
            else:
                waiter.future.cancel()
                self._waiting.remove(waiter)
                self._leave(client)
            if isinstance(err, asyncio.TimeoutError):
                raise self._busy(503, "queue_timeout",
                                 f"the request waited {self.queue_timeout:g} s for a free "
                                 "scoring process (T2W_API_QUEUE_TIMEOUT)") from None
            raise

    async def _wait_outside(self, outside: list[asyncio.Future], bound: int,
                            room: Any, deadline: float) -> None:
        """Wait until ``room()`` or ``deadline`` (at once when ``bound`` requests wait
        outside already), woken by ``_wake`` when a request leaves."""
        loop = asyncio.get_running_loop()
        while not room() and len(outside) < bound:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            woken = loop.create_future()
            outside.append(woken)
            try:
                await asyncio.wait_for(asyncio.shield(woken), left)
            except asyncio.TimeoutError:
                return
            finally:
                if woken in outside:
                    outside.remove(woken)
                elif not woken.done():
                    woken.cancel()

    @staticmethod
    def _wake(outside: list[asyncio.Future] | None) -> None:
        """Wake the first request waiting outside in ``outside`` (room was made)."""
        while outside:
            woken = outside.pop(0)
            if not woken.done():
                woken.set_result(None)
                return

    def _make_room(self, client: str, rank: float) -> bool:
        """Every waiting place is taken: give ``client``'s request of ``rank`` the place of the
        latest waiting request of the highest rank (as high: whose client has more inside
        now), if that comes after it; that request gets the 503 (and its client a refusal).
        False: none comes after it."""
        last = max(self._waiting,
                   key=lambda w: (w.rank, self._inside[w.client], w.sequence))
        if (last.rank, self._inside[last.client]) <= (rank, self._inside[client] + 1):
            return False
        self._waiting.remove(last)
        self._leave(last.client)
        self._refuse(last.client)
        last.future.set_exception(self._busy(
            503, "server_busy",
            f"the server is busy: this client ({last.client}) asks for more than its share "
            "(requests inside, or refused), and its waiting place went to a client that asks "
            f"for less (T2W_API_MAX_QUEUE {self.max_queue})"))
        return True

    def _refusals(self, client: str, now: float | None = None) -> float:
        """``client``'s recent refusals: each counts 1, halving every ``REFUSAL_HALF_LIFE``
        seconds. A client refused once in a while stays near 0; one that retries a flood of
        refused requests ranks behind everyone else until it stops."""
        count, at = self._refused.get(client, (0.0, 0.0))
        now = time.monotonic() if now is None else now
        return count * 0.5 ** ((now - at) / REFUSAL_HALF_LIFE) if count else 0.0

    def _refuse(self, client: str) -> None:
        now = time.monotonic()
        self._refused[client] = (self._refusals(client, now) + 1.0, now)
        if len(self._refused) > 10_000:  # forget clients whose refusals have faded
            self._refused = {c: v for c, v in self._refused.items()
                             if self._refusals(c, now) > 0.01}

    def _leave(self, client: str) -> None:
        self._inside[client] -= 1
        if self._inside[client] <= 0:
            del self._inside[client]
            self._running.pop(client, None)
        outside = self._outside.get(client)
        self._wake(outside)
        if outside is not None and not outside:
            del self._outside[client]
        self._wake(self._outside_queue)

    def release(self, client: str, demoted: bool = False) -> None:
        """Give back the slot (or, ``demoted``, the background place) ``client`` was granted."""
        self._running[client] -= 1
        self._leave(client)
        if demoted:
            self._background_used -= 1
        else:
            self._free += 1
        self._dispatch()

    def _dispatch(self) -> None:
        now = time.monotonic()
        while self._free > 0 and self._waiting:
            best, best_key = None, None
            for waiter in self._waiting:
                running = self._running[waiter.client]
                if running >= self.client_concurrency:
                    continue
                key = (self._penalized_until.get(waiter.client, 0.0) > now, waiter.rank,
                       self._inside[waiter.client], waiter.sequence)
                if best_key is None or key < best_key:
                    best, best_key = waiter, key
            if best is None:
                return
            self._waiting.remove(best)
            self._free -= 1
            self._running[best.client] += 1
            best.future.set_result(None)
        # Forget penalties that ran out, so the table stays small.
        if len(self._penalized_until) > 1000:
            self._penalized_until = {c: t for c, t in self._penalized_until.items() if t > now}
