"""The run page (``t2w view``) of a problem run (``t2w eval --task problem``): parseable /
solvable / equivalent per correction round with 95% intervals, the trivial strategies' floors,
what decided equivalence, and one row per item with its last verdict and counterexample.
Found by ``tasks.registry.run_page``."""

from __future__ import annotations

from typing import Sequence

from text2world.engine.run_store import Run
from text2world.tasks.page import page_counts
from text2world.tasks.problem.records import ProblemItem
from text2world.tasks.problem.summary import summarize_problems


def overview(run: Run, items: Sequence[ProblemItem]) -> dict:
    """The summary's tables and one row per item (its rounds, last verdict, counterexample)."""
    rows = []
    for item in items:
        series = item.get("ec") or {}
        rows.append({"item": str(item.get("item")), "epoch": item.get("epoch", 0),
                     "size": item.get("size"), "rounds": item.get("rounds_used"),
                     **{metric: series[metric][-1] if series.get(metric) else None
                        for metric in ("parseable", "solvable", "equivalent", "similarity")},
                     "rule": item.get("rule"),
                     "counterexample": (item.get("counterexample") or {}).get("text")})
    return {"kind": "problem", "run_id": run.run_id, "config": run.config,
            "summary": page_counts(run, items),
            "problem": summarize_problems(run.config, items),
            "items": sorted(rows, key=lambda r: (r["item"], r["epoch"]))}
