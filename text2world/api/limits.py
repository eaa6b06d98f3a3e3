"""Request limits of the REST service (ASGI middleware): body size and per-client request rate."""

from __future__ import annotations

import asyncio
import math
import time

from fastapi.responses import JSONResponse

from text2world.api.errors import error_response


class BodyLimitMiddleware:
    """Answer 413 to bodies over ``max_body`` bytes, declared or streamed (chunked), and 408
    (closing the connection) to a body not complete ``body_timeout`` seconds after its headers."""

    def __init__(self, app, max_body: int, body_timeout: float | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    trust_declared = True  # refuse on Content-Length alone (a subclass may need the body's head)
    # A refused body up to this many times the limit (and for at most DRAIN_SECONDS) is read
    # and dropped before the 413, as nginx's lingering close does: a client still sending
    # would otherwise see its connection reset instead of reading the answer. Past it, the
    # connection is closed at once, so the work a refused body causes stays bounded.
    DRAIN_FACTOR = 4
    DRAIN_SECONDS = 2.0

    def _too_large(self, size: str, head: bytes = b"") -> JSONResponse:
        # Connection: close: the server stops here instead of reading (and discarding) the
        # rest of a body it has refused.
        return error_response(
            413, "payload_too_large",
            f"the request body is {size} bytes; the limit is {self.max_body:,} bytes "
            "(T2W_API_MAX_BODY / t2w serve --max-body)", headers={"Connection": "close"},
            limit=self.max_body)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and self.trust_declared:
            try:
                length = int(declared)
            except ValueError:
                await error_response(422, "invalid_request", "invalid Content-Length header")(scope, receive, send)
                return
            if length > self.max_body:
                if length <= self._drain_bytes():
                    await self._discard(receive, length)
                await self._too_large(f"{length:,}")(scope, receive, send)
                return
        # Read the whole body first (it is at most max_body) so a streamed body that grows past
        # the limit is refused before the application sees any of it.
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout(self.body_timeout):
                complete = await self._read(receive, chunks)
        except TimeoutError:
            await error_response(
                408, "request_timeout",
                f"the request body did not arrive within {self.body_timeout:g} s "
                "(T2W_API_BODY_TIMEOUT); the connection is closed",
                headers={"Connection": "close"})(scope, receive, send)
            return
        if complete is None:
            return
        if not complete:
            await self._discard(receive, self._drain_bytes() - self.max_body)
            await self._too_large(f"over {self.max_body:,}", b"".join(chunks))(scope, receive, send)
            return
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


    def _drain_bytes(self) -> int:
        return self.DRAIN_FACTOR * self.max_body

    async def _discard(self, receive, budget: int) -> None:
        """Read and drop up to ``budget`` bytes of the rest of a refused body, within
        ``DRAIN_SECONDS``; stop early at its end or when the client goes away."""
        try:
            async with asyncio.timeout(self.DRAIN_SECONDS):
                while budget > 0:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    budget -= len(message.get("body", b""))
                    if not message.get("more_body", False):
                        return
        except TimeoutError:
            return

    async def _read(self, receive, chunks: list[bytes]) -> bool | None:
        """Read the body into ``chunks``: True when whole, False past ``max_body``, None when
        the client went away."""
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return False
            chunks.append(chunk)
            if not message.get("more_body", False):
                return True


# Seconds after another client's last request during which a client is paced to its rate.
RATE_WINDOW = 10.0


class ClientRateLimiter:
    """Per-client request rate: ``rate`` requests per second with bursts of ``burst``.

    A generic cell rate algorithm (GCRA, a token bucket without a timer): a client within its
    rate is let through at once; a client over it is held (nothing read, no work done) until
    its next request would conform, so a client that keeps N connections busy is paced to
    ``rate`` whatever it sends; past ``max_delay`` seconds of wait, or with ``max_held``
    requests already held, the answer is 429 with Retry-After and the connection is closed.
    Holding costs a timer, where serving a flood of cheap requests would cost the front's CPU
    (the HTTP server, JSON decoding, the hand-over to a scoring process) that every other client
    needs. The limit protects other clients, so it applies only while another client has sent a
    request within ``window`` seconds: a client alone may use the whole service (its bucket
    stays full), as admission lets it use every scoring process."""

    def __init__(self, rate: float, burst: int, max_delay: float, max_held: int,
                 window: float = RATE_WINDOW) -> None:
        self.interval = 1.0 / rate
        self.tolerance = (burst - 1) * self.interval
        self.max_delay = max_delay
        self.max_held = max_held
        self.window = window
        self._due: dict[str, float] = {}  # client -> theoretical arrival time of its next request
        self._held: dict[str, int] = {}
        # the two clients seen last, most recent first: enough to tell whether another is active
        self._recent: list[tuple[str, float]] = []

    def _others_active(self, client: str, now: float) -> bool:
        if self._recent and self._recent[0][0] == client:
            self._recent[0] = (client, now)
            others = self._recent[1:]
        else:
            others = self._recent[:1]
            self._recent = [(client, now), *others]
        return bool(others) and others[0][1] > now - self.window

    def admit(self, client: str, now: float) -> float | None:
        """Seconds ``client``'s request must wait (0: go now), or None: refuse it (429)."""
        if not self._others_active(client, now):
            if self._held.get(client):  # held requests keep their turns; the rest go at once
                return self._pace(client, now)
            self._due.pop(client, None)
            return 0.0
        return self._pace(client, now)

    def _pace(self, client: str, now: float) -> float | None:
        due = max(self._due.get(client, now), now)
        wait = due - self.tolerance - now
        if wait > 0 and (wait > self.max_delay or self._held.get(client, 0) >= self.max_held):
            return None
        self._due[client] = due + self.interval
        if len(self._due) > 10_000:  # forget clients whose bucket is full again
            self._due = {c: t for c, t in self._due.items() if t > now}
        return max(0.0, wait)

    def retry_after(self, client: str, now: float) -> int:
        due = self._due.get(client, now)
        return max(1, math.ceil(due - self.tolerance - now))

    async def hold(self, client: str, seconds: float) -> None:
        self._held[client] = self._held.get(client, 0) + 1
        try:
            await asyncio.sleep(seconds)
        finally:
            self._held[client] -= 1
            if not self._held[client]:
                del self._held[client]


class ClientRateMiddleware:
    """Paces each client address to its request rate (``ClientRateLimiter``) before anything
    of the request is read; liveness and readiness probes are exempt."""

    EXEMPT = ("/healthz", "/readyz")

    def __init__(self, app, limiter: ClientRateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.EXEMPT:
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else "unknown"
        now = time.monotonic()
        wait = self.limiter.admit(client, now)
        if wait is None:
            seconds = self.limiter.retry_after(client, now)
            response = error_response(
                429, "rate_limited",
                f"this client ({client}) sends more than {1 / self.limiter.interval:g} requests "
                f"per second (T2W_API_CLIENT_RATE); retry after {seconds} s",
                headers={"Retry-After": str(seconds), "Connection": "close"},
                retry_after=seconds)
            await response(scope, receive, send)
            return
        if wait:
            await self.limiter.hold(client, wait)
        await self.app(scope, receive, send)
