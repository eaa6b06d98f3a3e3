"""Evaluation runs in the runs directory: their configs (without credentials) and summaries.

The viewer (``api.viewer``) adds each run's overview and items under the same prefix.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, cast

from fastapi import APIRouter, Query

from text2world.api.dependencies import SettingsDep, check_plain
from text2world.api.schemas import ERRORS, RunDetail, RunPage
from text2world.engine.run_reader import RunInfo, find_run, list_runs
from text2world.engine.run_store import (
    SUMMARY_FILE,
    RunError,
    RunSummary,
    kind_names,
    kind_spec,
    run_epochs,
    run_label,
)
from text2world.errors import ApiError
from text2world.model.credentials import redact

router = APIRouter(prefix="/v1", tags=["runs"])

MAX_DEPTH = 50  # levels of a run's config or summary shown; deeper values are dropped


def _redact(value: Any) -> Any:
    """A run's config or summary as shown: credentials masked by the package's one rule
    (``model.credentials.redact``; configs hold none, but never echo one)."""
    return redact(value, max_depth=MAX_DEPTH)


def _field(config: Any, *names: str) -> str | None:
    if not isinstance(config, dict):
        return None
    for name in names:
        value = config.get(name)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            return value["name"]
    return None


def run_status(info: RunInfo) -> dict:
    """Kind, task, reference flag, and whether the run can be shown: ok; failed (no item
    finished: the model could not be reached); damaged (its files cannot be read, or of an
    unknown kind), each with its reason. The leaderboard lists every run and never breaks."""
    config = info.config if isinstance(info.config, dict) else {}
    result: dict[str, Any] = {
        "kind": info.kind if info.kind in kind_names() else "unknown",
        "task": config.get("task") if isinstance(config.get("task"), str) else None,
        "reference_model": bool(config.get("reference_model")), "status": "ok",
        "reason": None}
    summary = info.summary if isinstance(info.summary, dict) else None
    if info.error is not None:
        result.update(status="damaged", reason=info.error)
    elif summary is None:
        result.update(status="damaged", reason="; ".join(info.problems)
                      or f"{SUMMARY_FILE} is missing")
    elif summary.get("finished_items") == 0 and (summary.get("planned_items") or 0) > 0:
        stop = summary.get("stop_reason") or summary.get("stopped")
        result.update(status="failed", reason=str(stop) if stop else (
            "no item finished: the model could not be reached or every call failed "
            "(see errors.jsonl; resuming the run retries)"))
    return result


def _kind_view(kind: str, summary: Any) -> dict:
    """What the viewer shows of a run from its kind's registration (``KindSpec``): the kind's
    label and the run's headline values (its task's ``headline``), so that it lists a kind
    it has no table of its own for; None for what cannot be had (an unknown kind, a summary
    its task cannot read)."""
    if kind not in kind_names():
        return {"kind_label": None, "headline": None}
    try:
        spec = kind_spec(kind)
    except (RunError, ImportError) as err:  # a registration that does not load: say so
        return {"kind_label": f"{kind} (its descriptor does not load: {err})", "headline": None}
    headline = None
    if isinstance(summary, dict):
        try:
            headline = {name: value if value is None or math.isfinite(value) else None
                        for name, value in spec.headline(cast(RunSummary, summary)).items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            headline = None  # listed without its values; its page says what is wrong
    return {"kind_label": spec.label(), "headline": headline}


def _run_entry(info: RunInfo, detail: bool = False) -> dict:
    """A run as the API shows it (read by the run store's reader, credentials dropped)."""
    config = info.config
    known = config if isinstance(config, dict) else {}
    result = {"id": info.run_id, "finished": info.finished,
              "model": _field(config, "model", "model_name"),
              "label": run_label(known, info.run_id), "epochs": run_epochs(known),
              "dataset": _field(config, "dataset", "dataset_name"),
              "summary": _redact(info.summary), "problems": info.problems,
              **run_status(info)}
    result.update(_kind_view(result["kind"], info.summary))
    if detail:
        result["config"] = _redact(config)
        result["logged_items"] = info.logged_items()
        result["published"] = _published(config)
    return result


def _published(config: Any) -> dict | None:
    """A generation run's published figures (the paper's row of its model), or None."""
    from text2world.reports.published import PublishedError, published_row

    if not isinstance(config, dict):
        return None
    try:
        return published_row(config)
    except PublishedError as err:  # a broken user table must not hide the run
        return {"error": str(err)}


def _runs(runs_dir: Path) -> list[RunInfo]:
    try:
        return list_runs(runs_dir, confined=True)
    except RunError as err:
        raise ApiError(503, "runs_unavailable", str(err)) from None


@router.get("/runs", response_model=RunPage, summary="List the evaluation runs")
def list_evaluation_runs(
    settings: SettingsDep,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict:
    """Evaluation runs in the runs directory, with their summaries, a page at a time; a run
    whose files are missing or damaged lists why in `problems`."""
    runs = _runs(settings.runs_dir)
    page = runs[offset: offset + limit]
    return {"runs_dir": str(settings.runs_dir), "total": len(runs), "offset": offset,
            "limit": limit,
            "next_offset": offset + limit if offset + limit < len(runs) else None,
            "items": [_run_entry(info) for info in page]}


@router.get("/runs/{run_id}", response_model=RunDetail, responses=ERRORS,
            summary="Get one evaluation run")
def get_evaluation_run(run_id: str, settings: SettingsDep) -> dict:
    """One run: its config (without credentials), summary and number of logged items."""
    check_plain(run_id, "run")
    info = find_run(settings.runs_dir, run_id)
    if info is not None:
        return _run_entry(info, detail=True)
    raise ApiError(404, "unknown_run",
                   f"no run {run_id!r} in {settings.runs_dir} (GET /v1/runs lists the runs)")
