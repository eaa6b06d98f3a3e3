"""The run page (``t2w view``) of a world-model run: its task's metrics overall and by rho,
domain, origin, mutation or step, with 95% intervals, and one row per item. Found by
``tasks.registry.run_page``."""

from __future__ import annotations

from typing import Callable, Sequence

from text2world.engine.run_store import Run
from text2world.tasks.page import ViewError, page_counts
from text2world.tasks.wm.intervals import wm_grouped_intervals, wm_intervals, wm_item_values
from text2world.tasks.wm.metrics import COLUMNS, HEADLINE, aggregate
from text2world.tasks.wm.records import WmItem


def _wm_groups(task: str) -> dict[str, Callable[[WmItem], str]]:
    """The groupings of world-model items the run page shows, each with its key."""
    groups: dict[str, Callable[[WmItem], str]] = {
        "rho": lambda r: f"{r['rho']:g}", "domain": lambda r: str(r.get("domain"))}
    if task == "next-state":
        groups["origin"] = lambda r: r.get("origin") or "on-plan"
    if task == "verify":
        groups["mutation"] = lambda r: (r.get("metrics") or {}).get("mutation") or "none"
    if task == "propose":
        groups["step"] = lambda r: str(r.get("prefix"))
    return groups


def overview(run: Run, items: Sequence[WmItem]) -> dict:
    """A world-model run: its task's metrics overall and by rho / domain / origin / mutation /
    step (counts, means and 95% intervals, domains resampled), and one row per item."""
    task = str(run.config.get("task"))
    if task not in COLUMNS:
        raise ViewError(f"world-model run {run.run_id!r} has an unknown task {task!r}")
    scored = [item for item in items if item.get("metrics") is not None]
    groups = {}
    for name, key in _wm_groups(task).items():
        members: dict[str, list[WmItem]] = {}
        for item in scored:
            members.setdefault(key(item), []).append(item)
        ordered = sorted(members, key=lambda k: (float(k) if _is_number(k) else 0.0, k))
        intervals = wm_grouped_intervals(task, scored, key)
        groups[name] = [{"key": k, **aggregate(task, members[k]), "intervals": intervals[k]}
                        for k in ordered]
    headline = HEADLINE[task]
    rows = [{"item": str(item.get("item")), "domain": item.get("domain"),
             "problem": item.get("problem"), "rho": item.get("rho"),
             "group": item.get("origin") or (item.get("metrics") or {}).get("mutation"),
             "score": wm_item_values(task, item).get(headline),
             "format_error": item.get("format_error")} for item in items]
    return {"kind": "wm", "run_id": run.run_id, "config": run.config, "task": task,
            "columns": COLUMNS[task], "headline": headline,
            "summary": page_counts(run, items),
            "all": {**aggregate(task, scored), "intervals": wm_intervals(task, scored)},
            "groups": groups, "items": sorted(rows, key=lambda r: r["item"])}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
