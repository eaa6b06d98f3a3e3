"""The run page (``t2w view``) of a contamination probe, also the data of its report
(``reports.probe``). Found by ``tasks.registry.run_page``."""

from __future__ import annotations

from typing import Sequence

from text2world.engine.run_store import Run
from text2world.tasks.contamination.intervals import probe_interval
from text2world.tasks.contamination.records import ProbeItem
from text2world.tasks.page import page_counts


def overview(run: Run, items: Sequence[ProbeItem]) -> dict:
    """A contamination probe: the mean and median n-gram contamination rate of the probed
    domains (with a 95% interval), the share above one half, one row per domain."""
    rates = sorted(float(i["rate"]) for i in items if isinstance(i.get("rate"), (int, float)))
    median = None
    if rates:
        middle = len(rates) // 2
        median = rates[middle] if len(rates) % 2 else (rates[middle - 1] + rates[middle]) / 2
    rows = [{"item": str(i.get("item")), "name": i.get("name"), "rate": i.get("rate"),
             "contaminated": i.get("contaminated"), "counted": i.get("counted"),
             "finish_reason": i.get("finish_reason")} for i in items]
    return {"kind": "contamination", "run_id": run.run_id, "config": run.config,
            "summary": page_counts(run, items),
            "measures": {"mean_rate": probe_interval(items), "median_rate": median,
                         "domains_above_half": sum(1 for r in rates if r > 0.5),
                         "domains": len(rates), "n": run.config.get("n"),
                         "max_mismatches": run.config.get("max_mismatches"),
                         "prefix_tokens": run.config.get("prefix_tokens")
                         or run.config.get("prompt_tokens")},
            "rates": rates, "items": sorted(rows, key=lambda r: -(r["rate"] or 0.0))}
