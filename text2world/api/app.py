"""The text2world REST service: score and validate generated PDDL domains over HTTP.

A thin layer over the library (``text2world.score``, ``validate``, ``extract_domain``, the store).
Scoring is CPU-bound, so it runs in scoring processes (``service.executor``, ``service.scorer``),
never on the event loop; a job past the time limit is stopped by killing its one process and answered
with 422. Admission (``service.admission``) bounds each client and the queue (429/503 with
Retry-After). Gold domains are parsed once per scoring process (``text2world.scoring.metrics`` caches
gold parses, bounded in bytes), or once for all of them with ``warm``.

The endpoints live in ``api.routes`` (a router per resource), their models in ``api.schemas``
and what they share (settings, executor, store lookups) in ``api.dependencies``.

    t2w serve     # or: uvicorn text2world.api.app:app --http text2world.api.server:HeaderTimeoutProtocol
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI

from text2world.api import viewer
from text2world.api.dependencies import RecentRecords
from text2world.api.errors import install_handlers
from text2world.api.guard import GuardMiddleware
from text2world.api.limits import (
    BodyLimitMiddleware,
    ClientRateLimiter,
    ClientRateMiddleware,
)
from text2world.api.routes import ROUTERS
from text2world.api.settings import MAX_RATE_DELAY, Settings
from text2world.service.admission import Admission
from text2world.service.executor import ScoringExecutor
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.version import __version__

log = logging.getLogger("text2world.api")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service. ``settings`` default to the ``T2W_*`` environment variables."""
    settings = settings or Settings.from_env()

    def builtin_golds() -> tuple[str, ...]:
        if not settings.warm:
            return ()
        try:
            return tuple(record.domain for record in load_dataset(BUILTIN))
        except DatasetError as err:
            log.warning("cannot warm the gold cache: %s", err)
            return ()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        executor = ScoringExecutor(settings.executor, settings.processes, settings.score_timeout,
                                   Admission.for_settings(settings), warm=settings.warm,
                                   warm_golds=builtin_golds,
                                   cache_bytes=settings.gold_cache_bytes,
                                   demote_after=settings.demote_after)
        # In the background: /healthz answers at once, /readyz once scoring works; scoring
        # requests that arrive before wait for the first free process.
        await executor.start(wait=False)
        app.state.executor = executor
        try:
            yield
        finally:
            app.state.executor = None
            executor.close()

    app = FastAPI(
        title="text2world scoring service",
        version=__version__,
        description="Score and validate LLM-generated PDDL domains against the text2world "
                    "gold domains. Request bodies are JSON (`Content-Type: application/json`) "
                    "with strict types: `true`/`false` for a flag, never `\"yes\"`. Errors are "
                    "JSON: `{\"error\": {\"code\", \"message\"}}`.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.executor = None
    app.state.records = RecentRecords()
    app.add_middleware(BodyLimitMiddleware, max_body=settings.max_body, body_timeout=settings.body_timeout)
    if settings.per_client_rate > 0:  # added late: runs early, before the body is read
        app.add_middleware(ClientRateMiddleware, limiter=ClientRateLimiter(
            settings.per_client_rate, settings.per_client_burst, MAX_RATE_DELAY,
            settings.per_client_limit))
    # added last: runs first, a foreign or unauthorised request costs nothing else
    app.add_middleware(GuardMiddleware, allowed_hosts=settings.allowed_hosts, token=settings.token)
    install_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    viewer.install(app)  # the results viewer (/view/, /v1/runs/{id}/...) and offline /docs
    return app


app = create_app()
