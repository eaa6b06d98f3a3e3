"""``t2w import-inspect LOG``: an Inspect log of text2world's tasks as a text2world run folder.

The folder is what the engine writes (``engine.run_store.Run``): ``config.json`` (the engine's
config fields, the task's part from the Inspect task's metadata), ``log.jsonl`` (one record per
scored sample: the log record the engine task's solver returned, kept in the score's
metadata), ``errors.jsonl`` (samples that ended in an error) and ``summary.json``
(``engine.runner.summarize``), so ``t2w report``, ``t2w view`` and ``GET /v1/runs`` read it
beside the runs of ``t2w eval`` and ``t2w wm``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    Run,
    RunConfig,
    RunSummary,
    code_version,
    make_run_id,
    runs_dir,
    utc_now,
)
from text2world.errors import Text2WorldError

ITEM_KEY = "t2w_item"  # inspect_engine.ITEM_KEY (kept here: reading needs no task import)
CONFIG_KEY = "text2world"  # inspect_engine.CONFIG_KEY


class ImportError_(Text2WorldError, ValueError):
    """The log cannot be imported; the message says why."""


@dataclass(frozen=True)
class Imported:
    path: Path
    items: int
    errors: int
    summary: RunSummary
    failures: tuple[tuple[str, str], ...] = ()  # (sample id, error message) of each failed sample


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


def _log_selection(settings: dict, log) -> dict:
    """What the log covers, which Inspect's own options narrow after the task chose its
    samples (``--limit``, ``--sample-id``; ``--epochs`` repeats them): the samples it ran, in
    the task's order, and its epochs; an empty log keeps the task's selection."""
    ran = list(dict.fromkeys(str(sample.id) for sample in log.samples or ()))
    epochs = max([int(log.eval.config.epochs or 1)]
                 + [int(sample.epoch or 1) for sample in log.samples or ()])
    if not ran:
        return {"epochs": epochs}
    order = {item: index for index, item in enumerate(settings.get("selected") or ())}
    ran.sort(key=lambda item: order.get(item, len(order)))
    return {"selected": ran, "planned_items": len(ran), "epochs": epochs}


def import_inspect_log(path: Path, out: Path | None = None) -> Imported:
    """Write the run folder of the Inspect log at ``path`` (default: ``runs/inspect-...``)."""
    from text2world.engine.kinds import spec_of
    from text2world.engine.summary import summarize
    from text2world.tasks.registry import task_for_kind

    log = _read_log(Path(path))
    settings = (log.eval.metadata or {}).get(CONFIG_KEY)
    if not isinstance(settings, dict) or not spec_of(str(settings.get("kind"))).inspect_import:
        raise ImportError_(f"{path}: task {log.eval.task!r} is not a text2world task "
                           "(text2world/generation, next_state, verify, propose, plan, problem)")
    if log.samples is None:
        raise ImportError_(f"{path}: the log holds no samples (written with --no-log-samples?)")
    model = log.eval.model
    config: RunConfig = {
        **settings, **_log_selection(settings, log), "model": model, "litellm_model": None,
        "api_base": log.eval.model_base_url, "api_key_env": None,
        "reference_model": model.startswith("t2w/"),
        "generation": log.eval.model_generate_config.model_dump(exclude_none=True),
        "timeout": None, "max_retries": None, "code_version": code_version(),
        "imported_from": {"inspect_log": str(Path(path).resolve()), "eval_id": log.eval.eval_id,
                          "task": log.eval.task, "created": log.eval.created,
                          "status": log.status, "imported": utc_now()},
    }
    if out is None:
        out = runs_dir() / make_run_id(("inspect", log.eval.task.split("/")[-1], model,
                                        settings.get("dataset", "")), log.eval.eval_id)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ImportError_(f"{out} already exists; remove it or choose another --out")
    items: list[ItemRecord] = []  # each the record its task's solver returned, as Inspect kept it
    errors: list[ErrorRecord] = []
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
        # Inspect numbers epochs from 1; the engine's samples are (item, epoch from 0)
        items.append({**record, "epoch": max(0, int(sample.epoch or 1) - 1)})
    run, _ = Run.create_or_resume(out, config)
    try:
        run.lock()
        for record in items:
            run.append_item(record)
        for error in errors:
            run.append_error(error)
        summary = summarize(task_for_kind(settings["kind"]), run)
        run.write_summary(summary)
    finally:
        run.close()
    return Imported(out, len(items), len(errors), summary,
                    tuple((e["item"], e["error"]["message"]) for e in errors))
