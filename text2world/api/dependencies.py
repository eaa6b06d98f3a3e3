"""What the endpoints share, handed to them with ``Depends``: the settings, the scoring
executor (started by the app's lifespan) and store lookups by plain name."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any

import anyio
from fastapi import Depends, Request

from text2world.api.jobs import ApiError
from text2world.api.scoring import ScoringExecutor, ScoringTimeout, ScoringUnavailable
from text2world.api.settings import Settings
from text2world.engine.run_reader import RUN_NAME
from text2world.store.datasets import Dataset, DatasetError, list_datasets, load_dataset

# Ids that may name a domain, dataset or run: a plain file name, never a path.
PLAIN_NAME = RUN_NAME
_RECORD_TTL = 1.0  # seconds a store record found by the score endpoint is reused
_RECENT_RECORDS = 4096


def get_settings(request: Request) -> Settings:
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
    known = [entry["name"] for entry in list_datasets()]
    if name not in known:
        raise ApiError(404, "unknown_dataset",
                       f"dataset {name!r} does not exist; known datasets: {', '.join(known)} "
                       "(GET /v1/datasets)")
    try:
        return load_dataset(name)
    except DatasetError as err:
        raise ApiError(503, "dataset_unavailable", f"dataset {name!r} cannot be read: {err}") from None


def record_named(dataset_name: str, record_id: str):
    check_plain(record_id, "domain")
    dataset = dataset_named(dataset_name)
    try:
        return dataset.get(record_id)
    except KeyError:
        raise ApiError(404, "unknown_domain",
                       f"dataset {dataset_name!r} has no domain with id {record_id!r} "
                       "(GET /v1/domains lists the ids)") from None


class RecentRecords:
    """Store records found in the last second: a lookup reads folder listings and times, so it
    runs in a thread; most requests name a gold looked up a moment ago and skip that hop."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], tuple[float, Any]] = {}

    async def get(self, dataset: str, record_id: str):
        key = (dataset, record_id)
        found = self.found.get(key)
        now = time.monotonic()
        if found is not None and now - found[0] < _RECORD_TTL:
            return found[1]
        record = await anyio.to_thread.run_sync(record_named, dataset, record_id)
        if len(self.found) >= _RECENT_RECORDS:
            self.found.clear()
        self.found[key] = (now, record)
        return record


def get_records(request: Request) -> RecentRecords:
    return request.app.state.records


RecordsDep = Annotated[RecentRecords, Depends(get_records)]


# --------------------------------------------------------------------------------------------
# Scoring jobs


def get_executor(request: Request) -> ScoringExecutor | None:
    """None until the lifespan has started it (or under an ASGI server without lifespan)."""
    return getattr(request.app.state, "executor", None)


class JobRunner:
    """Runs a scoring job for the requesting client, turning executor failures into API errors."""

    def __init__(self, request: Request) -> None:
        self.executor = get_executor(request)
        self.settings = get_settings(request)
        self.client = request.client.host if request.client else "unknown"

    async def __call__(self, job: Callable[[Any], Any], task: Any) -> Any:
        if self.executor is None:
            raise ApiError(503, "not_ready", "the scoring service has not started; retry shortly",
                           headers={"Retry-After": "1"}, retry_after=1)
        try:
            return await self.executor.run(job, task, self.client)
        except ScoringTimeout:
            raise ApiError(422, "scoring_timeout",
                           f"scoring took longer than the {self.settings.score_timeout:g} s "
                           "limit and was stopped; send a smaller or simpler domain",
                           timeout_seconds=self.settings.score_timeout) from None
        except ScoringUnavailable as err:
            raise ApiError(503, "scoring_unavailable", f"{err}; retry the request",
                           headers={"Retry-After": "1"}, retry_after=1) from None


JobRunnerDep = Annotated[JobRunner, Depends(JobRunner)]
