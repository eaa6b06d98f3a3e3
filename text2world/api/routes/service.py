"""Liveness and readiness of the service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from text2world.api.dependencies import SettingsDep, get_executor
from text2world.api.schemas import ErrorResponse, Health, Readiness
from text2world.errors import ApiError
from text2world.service.executor import ScoringExecutor
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.version import __version__

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=Health, summary="Liveness: the process answers")
def healthz(settings: SettingsDep) -> dict:
    """The process answers, with its version, executor kind and the number of built-in
    domains (null when the store cannot be read). Whether scoring works: `/readyz`."""
    try:
        domains = len(load_dataset(BUILTIN))
    except DatasetError:
        domains = None
    return {"status": "ok", "version": __version__,
            "executor": settings.executor, "domains": domains}


@router.get("/readyz", response_model=Readiness, responses={503: {"model": ErrorResponse}},
            summary="Readiness: scoring works")
def readyz(executor: Annotated[ScoringExecutor | None, Depends(get_executor)]) -> dict:
    """200 once the scoring processes are up, with how many are alive, free and waited for;
    503 (with Retry-After) while they start or when none can run."""
    status = executor.status() if executor is not None else None
    if status is None or not status["ready"]:
        why = ("the scoring processes are starting" if status is None or not status["started"]
               else f"no scoring process is up ({status['error'] or 'restarts fail'})")
        raise ApiError(503, "not_ready", f"not ready: {why}", headers={"Retry-After": "1"},
                       retry_after=1)
    return {"status": "ready", **{key: status[key] for key in
                                  ("executor", "scoring_processes", "alive", "free", "waiting")}}
