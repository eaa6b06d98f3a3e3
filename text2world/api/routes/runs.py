"""Evaluation runs in the runs directory: their configs (without credentials) and summaries.

The viewer (``api.viewer``) adds each run's overview and items under the same prefix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query

from text2world.api.dependencies import PLAIN_NAME, SettingsDep, check_plain
from text2world.api.jobs import ApiError
from text2world.api.schemas import ERRORS, RunDetail, RunPage

router = APIRouter(prefix="/v1", tags=["runs"])

_MAX_RUN_FILE = 16 * 1024 * 1024  # bytes of config.json / summary.json we are willing to read
_SECRET_KEY = re.compile(r"(api[_-]?key|secret|password|authorization|bearer)", re.IGNORECASE)


def _finite(text: str) -> float | None:
    value = float(text)
    return value if value not in (float("inf"), float("-inf")) else None


def _read_json_file(path: Path, root: Path, problems: list[str]) -> Any:
    name = path.name
    try:
        if not path.exists():
            problems.append(f"{name} is missing")
            return None
        if not path.resolve().is_relative_to(root):
            problems.append(f"{name} points outside the runs directory")
            return None
        if not path.is_file():
            problems.append(f"{name} is not a file")
            return None
        if path.stat().st_size > _MAX_RUN_FILE:
            problems.append(f"{name} is larger than {_MAX_RUN_FILE:,} bytes")
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, RuntimeError, UnicodeDecodeError) as err:  # RuntimeError: symlink loop
        problems.append(f"{name} cannot be read ({err})")
        return None
    try:
        # Python writes NaN and Infinity into JSON (a mean over no items); JSON has no such
        # numbers and they cannot be sent back, so they become null.
        return json.loads(text, parse_constant=lambda constant: None, parse_float=_finite)
    except (ValueError, RecursionError) as err:
        # A summary being rewritten is replaced atomically, so this is a damaged file.
        problems.append(f"{name} is not valid JSON ({err})")
        return None


def _redact(value: Any, depth: int = 0) -> Any:
    """Drop anything named like a credential; configs should hold none, but never echo one."""
    if depth > 50:
        return None
    if isinstance(value, dict):
        return {key: ("<redacted>" if isinstance(key, str) and _SECRET_KEY.search(key)
                      and isinstance(item, str) else _redact(item, depth + 1))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item, depth + 1) for item in value]
    return value


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


def _is_run_dir(entry: Path, root: Path) -> bool:
    try:
        return (bool(PLAIN_NAME.match(entry.name)) and ".." not in entry.name
                and entry.is_dir() and entry.resolve().is_relative_to(root)
                and ((entry / "config.json").exists() or (entry / "summary.json").exists()))
    except (OSError, RuntimeError):  # unreadable entry or symlink loop: not a run
        return False


def _run_dirs(runs_dir: Path) -> list[Path]:
    try:
        if not runs_dir.is_dir():
            return []
        root = runs_dir.resolve()
        entries = sorted(runs_dir.iterdir(), key=lambda p: p.name)
    except (OSError, RuntimeError) as err:
        raise ApiError(503, "runs_unavailable",
                       f"the runs directory {runs_dir} cannot be read ({err})") from None
    return [entry for entry in entries if _is_run_dir(entry, root)]


def _run_summary(folder: Path, root: Path, detail: bool = False) -> dict:
    problems: list[str] = []
    config = _read_json_file(folder / "config.json", root, problems)
    summary = _read_json_file(folder / "summary.json", root, problems)
    result = {"id": folder.name, "finished": summary is not None,
              "model": _field(config, "model", "model_name"),
              "dataset": _field(config, "dataset", "dataset_name"),
              "summary": _redact(summary), "problems": problems}
    if detail:
        result["config"] = _redact(config)
        log_path = folder / "log.jsonl"
        try:
            if log_path.is_file() and log_path.resolve().is_relative_to(root):
                with log_path.open("rb") as stream:
                    result["logged_items"] = sum(1 for line in stream if line.strip())
        except (OSError, RuntimeError) as err:
            problems.append(f"log.jsonl cannot be read ({err})")
    return result


@router.get("/runs", response_model=RunPage, summary="List the evaluation runs")
def list_runs(
    settings: SettingsDep,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict:
    """Evaluation runs in the runs directory, with their summaries, a page at a time; a run
    whose files are missing or damaged lists why in `problems`."""
    folders = _run_dirs(settings.runs_dir)
    root = settings.runs_dir.resolve()
    page = folders[offset: offset + limit]
    return {"runs_dir": str(settings.runs_dir), "total": len(folders), "offset": offset,
            "limit": limit,
            "next_offset": offset + limit if offset + limit < len(folders) else None,
            "items": [_run_summary(folder, root) for folder in page]}


@router.get("/runs/{run_id}", response_model=RunDetail, responses=ERRORS,
            summary="Get one evaluation run")
def get_run(run_id: str, settings: SettingsDep) -> dict:
    """One run: its config (without credentials), summary and number of logged items."""
    check_plain(run_id, "run")
    for folder in _run_dirs(settings.runs_dir):
        if folder.name == run_id:
            return _run_summary(folder, settings.runs_dir.resolve(), detail=True)
    raise ApiError(404, "unknown_run",
                   f"no run {run_id!r} in {settings.runs_dir} (GET /v1/runs lists the runs)")
