"""``t2w import-inspect LOG``: an Inspect log of text2world's tasks as a text2world run folder.

The folder has the layout ``t2w eval`` (or ``t2w wm``) writes (``runs.Run``): ``config.json``,
``log.jsonl`` (one item record per scored sample: the record the task's scorer put in the
score's metadata, built by the same functions as ``t2w eval`` and ``t2w wm``), ``errors.jsonl``
(samples that ended in an error, as infrastructure errors) and ``summary.json``
(``runs.summarize`` / ``wm.runner.summarize_run``), so ``t2w report``, ``t2w view`` and the
leaderboard read it beside runs of ``t2w eval``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from text2world.runs import Run, code_version, runs_dir, summarize, utc_now

ITEM_KEY = "t2w_item"  # as inspect_generation.ITEM_KEY (kept here: no Inspect import needed)
GENERATION_KEY = "text2world"
WM_KEY = "text2world_wm"


class ImportError_(ValueError):
    """The log cannot be imported; the message says why."""


@dataclass(frozen=True)
class Imported:
    path: Path
    items: int
    errors: int
    summary: dict


def _read_log(path: Path):
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ImportError_("reading an Inspect log needs inspect-ai: pip install "
                           "'text2world[inspect]'") from None
    if not path.is_file():
        raise ImportError_(f"{path}: no such file")
    try:
        return read_eval_log(str(path))
    except Exception as err:  # noqa: BLE001 - inspect raises many classes for bad files
        raise ImportError_(f"{path}: not a readable Inspect log ({type(err).__name__}: "
                           f"{str(err)[:300]})") from None


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def import_inspect_log(path: Path, out: Path | None = None) -> Imported:
    """Write the run folder of the Inspect log at ``path`` (default: ``runs/inspect-...``)."""
    log = _read_log(Path(path))
    metadata = log.eval.metadata or {}
    settings = metadata.get(GENERATION_KEY) or metadata.get(WM_KEY)
    if not isinstance(settings, dict):
        raise ImportError_(f"{path}: task {log.eval.task!r} is not a text2world task "
                           "(text2world/generation, next_state, verify, propose, plan)")
    if log.samples is None:
        raise ImportError_(f"{path}: the log holds no samples (written with --no-log-samples?)")
    wm = settings.get("kind") == "wm"
    model = log.eval.model
    config = {
        **settings, "model": model, "litellm_model": None,
        "api_base": log.eval.model_base_url, "api_key_env": None,
        "reference_model": model.startswith("t2w/"),
        "generation": log.eval.model_generate_config.model_dump(exclude_none=True),
        "seed": settings.get("seed", 0),
        "timeout": None, "max_retries": None, "code_version": code_version(),
        "imported_from": {"inspect_log": str(Path(path).resolve()), "eval_id": log.eval.eval_id,
                          "task": log.eval.task, "created": log.eval.created,
                          "status": log.status, "imported": utc_now()},
    }
    if wm:
        config.update(description=settings["rules"], prompt=f"wm-{settings['task']}", ec=0)
    if out is None:
        name = f"inspect-{_slug(log.eval.task.split('/')[-1])}__{_slug(model)}__" \
               f"{settings.get('dataset', '')}__{log.eval.eval_id[:8]}"
        out = runs_dir() / name[:180]
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ImportError_(f"{out} already exists; remove it or choose another --out")
    items, errors = [], []
    for sample in log.samples:
        record = None
        for score in (sample.scores or {}).values():
            record = (score.metadata or {}).get(ITEM_KEY) or record
        if sample.error is not None or record is None:
            message = sample.error.message if sample.error is not None else "no score"
            errors.append({"item": str(sample.id), "error": {"kind": "inspect_error",
                                                             "message": message[:2000]},
                           "at": utc_now()})
            continue
        items.append(record)
    run, _ = Run.create_or_resume(out, config)
    try:
        run.lock()
        for record in items:
            run.append_item(record)
        for error in errors:
            run.append_error(error)
        if wm:
            from text2world.wm.runner import summarize_run

            summary = summarize_run(run.config, items, errors)
        else:
            summary = summarize(run.config, items, errors)
        summary["planned_items"] = settings.get("planned_items", len(log.samples))
        run.write_summary(summary)
    finally:
        run.close()
    return Imported(out, len(items), len(errors), summary)
