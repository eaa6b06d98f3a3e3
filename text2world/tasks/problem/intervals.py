"""95% intervals of a problem run's means, from its logged items (``stats.bootstrap_mean``):
per correction round (EC_0 .. EC_k) and metric, and per trivial strategy (the floors), one
value per item (an item's epochs resampled within it), the items resampled by domain (a
domain's problems share its predicates and its description's wording: they are not independent
draws, so whole domains are resampled, as the world-model tasks do). The summary, ``t2w report`` and the
viewer take them here."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from text2world.stats import bootstrap_mean
from text2world.tasks.problem.records import ProblemItem

# parseable / solvable / equivalent (0/1: an open answer counts 0), then the looser metrics
METRICS = ("parseable", "solvable", "equivalent", "similarity", "init_f1", "goal_f1")


def metric_value(verdict: dict[str, Any], metric: str) -> float:
    """One verdict's value of ``metric`` (a bool as 0/1; None, an open answer, as 0)."""
    value = verdict.get(metric)
    return float(value) if isinstance(value, (int, float)) else 0.0


def _interval(items: Sequence[ProblemItem],
              value: Callable[[ProblemItem], float | None]) -> dict[str, Any]:
    """The bootstrap interval of ``value`` over the items (epochs within an item, items
    clustered by domain)."""
    samples: dict[str, list[float]] = {}
    domains: dict[str, str] = {}
    for item in items:
        found = value(item)
        if found is not None:
            key = str(item.get("item"))
            samples.setdefault(key, []).append(found)
            domains[key] = str(item.get("domain"))
    return bootstrap_mean(list(samples.values()), [domains[key] for key in samples]).as_dict()


def round_intervals(items: Sequence[ProblemItem], rounds: int) -> list[dict]:
    """Per round: {"round", metric: Interval dict}."""
    out = []
    for index in range(rounds):
        row: dict = {"round": index}
        for metric in METRICS:
            def value(item: ProblemItem, metric: str = metric) -> float | None:
                series = (item.get("ec") or {}).get(metric) or []
                if len(series) <= index or series[index] is None:
                    return None
                return float(series[index])
            row[metric] = _interval(items, value)
        out.append(row)
    return out


def floor_intervals(items: Sequence[ProblemItem]) -> dict[str, dict]:
    """Per trivial strategy: metric -> Interval dict, on the same items."""
    strategies = sorted({name for item in items for name in (item.get("floors") or {})})
    out: dict[str, dict] = {}
    for name in strategies:
        out[name] = {}
        for metric in METRICS:
            def value(item: ProblemItem, metric: str = metric) -> float | None:
                verdict = (item.get("floors") or {}).get(name)
                return None if verdict is None else metric_value(verdict, metric)
            out[name][metric] = _interval(items, value)
    return out
