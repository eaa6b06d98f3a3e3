"""95% intervals of a generation run's means, from its logged items (``stats``): per scoring
mode, round (EC_0 .. EC_k) and metric, one value per item (each item is its own domain, so
items are resampled; an item's epochs are resampled within it). The run's summary, ``t2w
report``, ``t2w compare``, the viewer and ``/v1/runs`` all take them here."""

from __future__ import annotations

from typing import Sequence

from text2world.scoring.semantic_record import CONDITIONAL, headline_value
from text2world.stats import bootstrap_mean
from text2world.tasks.generation.records import GenerationItem


def generation_samples(items: Sequence[GenerationItem], mode: str, round_index: int,
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


def generation_values(items: Sequence[GenerationItem], mode: str, round_index: int,
                      metric: str) -> dict[str, float]:
    """Item id -> the metric at EC_round, averaged over the item's epochs."""
    return {item: sum(samples) / len(samples)
            for item, samples in generation_samples(items, mode, round_index, metric).items()}


def generation_intervals(items: Sequence[GenerationItem], mode: str, metrics: list[str] | tuple[str, ...],
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


def summary_intervals(items: Sequence[GenerationItem], ec: int, resamples: int = 1000) -> dict:
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
