"""Protocols of one model side by side: the EC curve (EC_0 .. EC_k) of each of its generation
runs, labelled with the run's protocol (``t2w eval --feedback``, ``--agent``), for the viewer's
protocol page (``GET /v1/protocols?model=...``) and the test-time scaling panel of a run with
several epochs (``GET /v1/runs/{id}/scaling``).

The values are the run's own per-round means, computed as ``t2w report`` computes them
(``tasks.generation.summary.summarize``: every scoring mode, the semantic means over all items),
plus ``semantic.equivalent``: the share of the round's items whose semantic verdict is
``equivalent``. A protocol that reveals the gold (``behavior``) is labelled as oracle feedback.
Nothing here calls a model or writes a file.
"""

from __future__ import annotations

from typing import Any, Sequence

from text2world.engine.run_store import RunConfig, run_epochs, run_label
from text2world.tasks.generation.feedback import (
    PROTOCOLS,
    config_protocol,
    is_oracle,
    protocol_label,
)
from text2world.tasks.generation.records import GenerationItem, config_ec

EXECUTABILITY = "paper.executable"
# The semantic curve shown by default: the leaderboard's semantic column, else (runs scored
# without semantic scores) the paper's similarity.
SEMANTIC = ("semantic.plan_validity", "paper.similarity")
ORDER = (*PROTOCOLS, "agent")
_DISTINGUISH = ("dataset", "description", "prompt", "ec", "epochs", "temperature")


def round_curves(config: RunConfig,
                 items: Sequence[GenerationItem]) -> dict[str, list[float | None]]:
    """``mode.metric`` -> its mean per round (EC_0 .. EC_k), as the run's report has them."""
    from text2world.tasks.generation.summary import summarize

    metrics = summarize(config, items, [])["metrics"]
    curves: dict[str, list[float | None]] = {}
    for mode, rows in metrics.items():
        for row in rows:
            for key, value in row.items():
                if key in ("round", "items") or isinstance(value, dict):
                    continue
                if value is None or (isinstance(value, (int, float))
                                     and not isinstance(value, bool)):
                    curves.setdefault(f"{mode}.{key}", []).append(value)
            if mode == "semantic":
                counted = row.get("items") or 0
                equivalent = (row.get("verdicts") or {}).get("equivalent", 0)
                curves.setdefault("semantic.equivalent", []).append(
                    equivalent / counted if counted else None)
    return {key: values for key, values in curves.items()
            if any(value is not None for value in values)}


def round_intervals(items: Sequence[GenerationItem], curves: dict[str, list[float | None]]
                    ) -> dict[str, list[dict | None]]:
    """``mode.metric`` -> its 95% interval per round (``{"low", "high"}``, items resampled and
    each item's epochs within it), as the run's report gives them; ``semantic.equivalent`` (a
    share of verdicts, not a mean of item scores) has none."""
    from text2world.tasks.generation.intervals import generation_intervals

    intervals: dict[str, list[dict | None]] = {}
    for key, values in curves.items():
        mode, _, metric = key.partition(".")
        if key == "semantic.equivalent":
            continue
        rows = generation_intervals(items, mode, [metric], len(values))
        intervals[key] = [{"low": row[metric]["low"], "high": row[metric]["high"]}
                          if row[metric].get("low") is not None else None for row in rows]
    return intervals


def _order(series: dict) -> tuple:
    protocol = series["protocol"]
    return (ORDER.index(protocol) if protocol in ORDER else len(ORDER), protocol,
            series["run_id"])


def protocol_curves(model: str, runs: list[tuple[str, RunConfig, int, dict, dict]]) -> dict:
    """One series per generation run of ``model``: ``runs`` are (run id, config, finished
    items, ``round_curves`` of them, their ``round_intervals``). Runs of one protocol that differ in something else are
    told apart in their label (that setting, else the run id)."""
    series: list[dict[str, Any]] = []
    for run_id, config, items, curves, intervals in runs:
        if not items:
            continue
        series.append({
            "run_id": run_id, "protocol": config_protocol(config),
            "label": protocol_label(config), "run_label": run_label(config, run_id),
            "oracle_feedback": is_oracle(config_protocol(config))
            or bool(config.get("oracle_feedback")),
            "agent": bool(config.get("agent")), "tool_budget": config.get("tool_budget"),
            "dataset": config.get("dataset"), "ec": config_ec(config),
            "epochs": run_epochs(config), "items": items,
            "reference_model": bool(config.get("reference_model")),
            "curves": curves, "intervals": intervals, "_config": config})
    series.sort(key=_order)
    by_label: dict[str, list[dict]] = {}
    for entry in series:
        by_label.setdefault(entry["label"], []).append(entry)
    for group in by_label.values():
        if len(group) < 2:
            continue
        varying = [key for key in _DISTINGUISH
                   if len({str(e["_config"].get(key)) for e in group}) > 1]
        for entry in group:
            extra = ", ".join(f"{key} {entry['_config'].get(key)}" for key in varying)
            entry["label"] += f" · {extra}" if extra else f" · {entry['run_label']}"
        if len({e["label"] for e in group}) < len(group):
            for entry in group:
                entry["label"] += f" · {entry['run_label']}"
    for entry in series:
        del entry["_config"]
    metrics = sorted({key for entry in series for key in entry["curves"]})
    semantic = next((key for key in SEMANTIC
                     if any(key in entry["curves"] for entry in series)), None)
    notes = []
    datasets = sorted({str(entry["dataset"]) for entry in series})
    if len(datasets) > 1:
        notes.append(f"the runs are on different datasets ({', '.join(datasets)}): their curves "
                     "are over different items")
    if any(entry["oracle_feedback"] for entry in series):
        notes.append("oracle feedback reveals the gold's behaviour to the model: an upper bound "
                      "on what any testing agent could report (docs/protocols.md)")
    return {"model": model, "protocols": list(dict.fromkeys(e["protocol"] for e in series)),
            "headline": {"executability": EXECUTABILITY if any(
                EXECUTABILITY in e["curves"] for e in series) else None, "semantic": semantic},
            "metrics": metrics, "series": series, "notes": notes}


def run_scaling(config: RunConfig, items: Sequence[GenerationItem],
                mode: str = "paper") -> dict | None:
    """The test-time scaling curves of a run with several epochs (``reports.scaling``: pass@k,
    best-of-N, the correction budget), or None with one epoch; labelled with its protocol."""
    from text2world.reports.scaling import item_problems, scaling_curves

    if run_epochs(config) < 2:
        return None
    curves = scaling_curves(items, config, item_problems(config), mode)
    if curves is None:
        return None
    return {**curves, "label": protocol_label(config)}
