"""What the endpoints share, handed to them with ``Depends``: the settings, the scoring
executor (started by the app's lifespan) and store lookups by plain name."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any

import anyio
from fastapi import Depends, Request

from text2world.api.settings import Settings
from text2world.engine.run_reader import RUN_NAME
from text2world.errors import ApiError, ScoringTimeout, ScoringUnavailable
from text2world.service.error_codes import api_error
from text2world.service.executor import ScoringExecutor
from text2world.store.datasets import (
    Dataset,
    DatasetUnavailable,
    Record,
    StoreGold,
    UnknownDataset,
    UnknownDomain,
    gold_from_store,
    named_dataset,
    named_record,
)

# Ids that may name a domain, dataset or run: a plain file name, never a path.
PLAIN_NAME = RUN_NAME
_RECORD_TTL = 1.0  # seconds a store record found by the score endpoint is reused
_RECENT_RECORDS = 4096


# The dependencies below only read the app's state: coroutines, so that FastAPI calls them on
# the event loop. A plain function (or a class) is run in its thread pool instead, and those
# hand-offs were 40 % of the front process's CPU per scoring request (py-spy, bench/api_bench.py).


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


# --------------------------------------------------------------------------------------------
# Store access by name (synchronous: FastAPI runs these endpoints in its thread pool)


def check_plain(value: str, what: str) -> None:
    if not PLAIN_NAME.match(value) or ".." in value:
        raise ApiError(404, f"unknown_{what}",
                       f"{what} {value!r} does not exist: {what} ids are plain names of letters, "
                       "digits, '.', '_' and '-'")


def dataset_named(name: str) -> Dataset:
    """A dataset by name only: the built-in store or an imported dataset, never a path."""
    check_plain(name, "dataset")
    try:
        return named_dataset(name)
    except (UnknownDataset, DatasetUnavailable) as err:
        raise api_error(err) from None


def record_named(dataset_name: str, record_id: str) -> Record:
    check_plain(record_id, "domain")
    check_plain(dataset_name, "dataset")
    try:
        return named_record(dataset_name, record_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err) from None


def gold_named(dataset_name: str, gold_id: str) -> StoreGold:
    """The gold of ``POST /v1/score``'s ``gold_id`` (``store.datasets.gold_from_store``)."""
    check_plain(gold_id, "domain")
    check_plain(dataset_name, "dataset")
    try:
        return gold_from_store(dataset_name, gold_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err) from None


class RecentRecords:
    """Store golds found in the last second: a lookup reads folder listings and times, so it
    runs in a thread; most requests name a gold looked up a moment ago and skip that hop."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], tuple[float, Any]] = {}

    async def get(self, dataset: str, record_id: str) -> StoreGold:
        key = (dataset, record_id)
        found = self.found.get(key)
        now = time.monotonic()
        if found is not None and now - found[0] < _RECORD_TTL:
            return found[1]
        record = await anyio.to_thread.run_sync(gold_named, dataset, record_id)
        if len(self.found) >= _RECENT_RECORDS:
            self.found.clear()
        self.found[key] = (now, record)
        return record


async def get_records(request: Request) -> RecentRecords:
    return request.app.state.records


RecordsDep = Annotated[RecentRecords, Depends(get_records)]


# --------------------------------------------------------------------------------------------
# Scoring jobs


def executor_of(request: Request) -> ScoringExecutor | None:
    """None until the lifespan has started it (or under an ASGI server without lifespan)."""
    return getattr(request.app.state, "executor", None)


class JobRunner:
    """Runs a scoring job for the requesting client, turning executor failures into API errors."""

    def __init__(self, request: Request) -> None:
        self.executor = executor_of(request)
        self.settings: Settings = request.app.state.settings
        self.client = request.client.host if request.client else "unknown"

    async def __call__(self, job: Callable[[Any], Any], task: Any) -> Any:
        if self.executor is None:
            raise ApiError(503, "not_ready", "the scoring service has not started; retry shortly",
                           headers={"Retry-After": "1"}, retry_after=1)
        try:
            return await self.executor.run(job, task, self.client)
        except (ScoringTimeout, ScoringUnavailable) as err:
            raise api_error(err) from None


async def get_executor(request: Request) -> ScoringExecutor | None:
    return executor_of(request)


async def job_runner(request: Request) -> JobRunner:
    return JobRunner(request)


JobRunnerDep = Annotated[JobRunner, Depends(job_runner)]
