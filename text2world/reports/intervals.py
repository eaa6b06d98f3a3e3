"""95% intervals of every mean a run reports, from its logged items (``stats``).

* generation runs: per scoring mode, round (EC_0 .. EC_k) and metric, one value per item
  (each item is its own domain, so items are resampled);
* world-model runs: per metric, one value per item where the metric applies to it (the same
  values ``tasks.wm.metrics.aggregate`` averages), clustered by domain: many items share one;
* contamination probes: the per-domain contamination rate.

``t2w report``, ``t2w compare``, the viewer and ``/v1/runs`` all take their intervals here.
"""

from __future__ import annotations

from text2world.scoring.semantic_record import CONDITIONAL, headline_value
from text2world.stats import RESAMPLES, SEED, bootstrap_mean
from text2world.tasks.wm.metrics import PROPOSE_KS


def generation_samples(items: list[dict], mode: str, round_index: int,
                       metric: str) -> dict[str, list[float]]:
    """Item id -> the metric at EC_round in each epoch of the item (executable as 0/1);
    items without it left out. A semantic round that could not be simulated counts 0 (the
    headline, as the semantic tables give it), except in ``METRIC_simulated``, the mean over
    the simulated rounds alone, which leaves it out."""
    simulated_only = mode == "semantic" and metric.endswith(CONDITIONAL)
    metric = metric.removesuffix(CONDITIONAL) if simulated_only else metric
    values: dict[str, list[float]] = {}
    for item in items:
        scores = (item.get("ec") or {}).get(mode) or []
        if len(scores) > round_index and isinstance(scores[round_index], dict):
            score = scores[round_index]
            value = (headline_value(score, metric, simulated_only) if mode == "semantic"
                     else score.get(metric))
            if isinstance(value, (int, float)):
                values.setdefault(str(item.get("item")), []).append(float(value))
    return values


def generation_values(items: list[dict], mode: str, round_index: int,
                      metric: str) -> dict[str, float]:
    """Item id -> the metric at EC_round, averaged over the item's epochs."""
    return {item: sum(samples) / len(samples)
            for item, samples in generation_samples(items, mode, round_index, metric).items()}


def generation_intervals(items: list[dict], mode: str, metrics: list[str] | tuple[str, ...],
                         rounds: int) -> list[dict]:
    """Per round: {"round", metric: Interval dict} for each metric."""
    out = []
    for r in range(rounds):
        row: dict = {"round": r}
        for metric in metrics:
            # items resampled, and each item's epochs within it
            samples = list(generation_samples(items, mode, r, metric).values())
            row[metric] = bootstrap_mean(samples).as_dict()
        out.append(row)
    return out


def summary_intervals(items: list[dict], ec: int, resamples: int = 1000) -> dict:
    """For summary.json (the leaderboard): per scoring mode in the log, the intervals of every
    metric at EC_0 and EC_k, as [low, high] (the means are in ``metrics``)."""
    modes = sorted({mode for item in items for mode in (item.get("ec") or {})})
    out: dict = {}
    for mode in modes:
        metrics = sorted({key for item in items for score in (item["ec"].get(mode) or [])
                          if isinstance(score, dict) for key, value in score.items()
                          if isinstance(value, (int, float)) and key != "ok"})
        if mode == "semantic":  # each also over the simulated rounds alone, as the summary has it
            metrics += [metric + CONDITIONAL for metric in metrics]
        out[mode] = {}
        for label, index in (("ec0", 0), ("eck", ec)):
            out[mode][label] = {}
            for metric in metrics:
                interval = bootstrap_mean(
                    list(generation_samples(items, mode, index, metric).values()),
                    resamples=resamples)
                out[mode][label][metric] = [interval.low, interval.high]
    return out


def wm_item_values(task: str, record: dict) -> dict[str, float]:
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


def wm_intervals(task: str, records: list[dict]) -> dict[str, dict]:
    """Metric -> Interval dict over the records, resampling domains."""
    columns: dict[str, tuple[list[float], list[str]]] = {}
    for record in records:
        for metric, value in wm_item_values(task, record).items():
            values, clusters = columns.setdefault(metric, ([], []))
            values.append(value)
            clusters.append(str(record.get("domain")))
    return {metric: bootstrap_mean(values, clusters).as_dict()
            for metric, (values, clusters) in columns.items()}


def wm_grouped_intervals(task: str, records: list[dict], key) -> dict[str, dict[str, dict]]:
    """Group -> metric -> Interval dict (e.g. by rho: ``key=lambda r: f"{r['rho']:g}"``)."""
    groups: dict[str, list[dict]] = {}
    for record in records:
        groups.setdefault(str(key(record)), []).append(record)
    return {group: wm_intervals(task, rows) for group, rows in groups.items()}


def probe_interval(items: list[dict]) -> dict:
    """The mean contamination rate over the probed domains."""
    return bootstrap_mean([float(i["rate"]) for i in items
                           if isinstance(i.get("rate"), (int, float))]).as_dict()


def method_note() -> str:
    return (f"95% intervals: percentile bootstrap, {RESAMPLES} resamples, seed {SEED}; items "
            "resampled (world-model items: whole domains, since items of one domain are not "
            "independent)")
