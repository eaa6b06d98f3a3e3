"""95% intervals of a world-model run's means: per metric, one value per item where the metric
applies to it (the same values ``tasks.wm.metrics.aggregate`` averages), clustered by domain
(many items share one, so whole domains are resampled)."""

from __future__ import annotations

from typing import Callable, Sequence

from text2world.stats import bootstrap_mean
from text2world.tasks.wm.metrics import PROPOSE_KS
from text2world.tasks.wm.records import WmItem


def wm_item_values(task: str, record: WmItem) -> dict[str, float]:
    """One world-model item's contribution to each metric of ``tasks.wm.metrics.aggregate``
    (metrics that do not apply to the item, e.g. fact F1 of an illegal action, are absent)."""
    m = record.get("metrics")
    if not isinstance(m, dict):
        return {}
    out: dict[str, float] = {}
    if task == "next-state":
        out["accuracy"] = float(bool(m.get("correct")))
        if m.get("kind") == "legal":
            out["exact_legal"] = float(bool(m.get("exact")))
            for part in ("state", "dynamic", "static"):
                for key in ("precision", "recall", "f1"):
                    value = (m.get(part) or {}).get(key)
                    if value is not None:
                        out[f"{part}_{key}"] = float(value)
        else:
            out["illegal_accuracy"] = float(bool(m.get("correct")))
    elif task == "verify":
        out["accuracy"] = float(bool(m.get("correct")))
        if m.get("positive"):
            out["false_negative_rate"] = float(m.get("predicted") is not True)
        else:
            out["false_positive_rate"] = float(m.get("predicted") is True)
            if m.get("step_correct") is not None:
                out["step_accuracy"] = float(bool(m["step_correct"]))
    elif task == "propose":
        first = m.get("first_hit")
        for k in PROPOSE_KS:
            out[f"hit@{k}"] = float(first is not None and first <= k)
        out["applicable@1"] = float(m.get("first_applicable") == 1)
    elif task == "plan":
        for key in ("success", "declared_done", "state_accuracy"):
            if m.get(key) is not None:
                out[key] = float(m[key])
        if m.get("success") and m.get("cost_ratio") is not None:
            out["cost_ratio"] = float(m["cost_ratio"])
    return out


def wm_intervals(task: str, records: Sequence[WmItem]) -> dict[str, dict]:
    """Metric -> Interval dict over the records, resampling domains."""
    columns: dict[str, tuple[list[float], list[str]]] = {}
    for record in records:
        for metric, value in wm_item_values(task, record).items():
            values, clusters = columns.setdefault(metric, ([], []))
            values.append(value)
            clusters.append(str(record.get("domain")))
    return {metric: bootstrap_mean(values, clusters).as_dict()
            for metric, (values, clusters) in columns.items()}


def wm_grouped_intervals(task: str, records: Sequence[WmItem],
                         key: Callable[[WmItem], object]) -> dict[str, dict[str, dict]]:
    """Group -> metric -> Interval dict (e.g. by rho: ``key=lambda r: f"{r['rho']:g}"``)."""
    groups: dict[str, list[WmItem]] = {}
    for record in records:
        groups.setdefault(str(key(record)), []).append(record)
    return {group: wm_intervals(task, rows) for group, rows in groups.items()}
