"""The run page (``t2w view``) of a judge run (``t2w judge``). Found by
``tasks.registry.run_page``."""

from __future__ import annotations

from typing import Sequence

from text2world.engine.run_store import Run
from text2world.tasks.judge.records import JudgeItem
from text2world.tasks.page import page_counts


def overview(run: Run, items: Sequence[JudgeItem]) -> dict:
    """A judge run: the judge's agreement with our semantic verdicts (kappa with its interval,
    confusion matrix, accuracy), the reference judges' on the same items, the disagreements
    with our counterexample, one row per judged item."""
    from text2world.tasks.judge.task import task_from_run

    judged = task_from_run(run).summarize(run.config, items, run.open_errors())
    rows = [{"item": str(i.get("item")), "name": i.get("name"), "epoch": i.get("epoch", 0),
             "verdict": i.get("verdict"), "ours": i.get("ours"), "judge": i.get("judge"),
             "rating": i.get("rating")} for i in items]
    return {"kind": "judge", "run_id": run.run_id, "config": run.config,
            "summary": page_counts(run, items), "judge": judged,
            "items": sorted(rows, key=lambda r: (r["item"], r["epoch"]))}
