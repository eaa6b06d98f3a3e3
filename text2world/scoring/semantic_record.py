"""The semantic scores a run records, and the one rule that averages them.

A round's log record holds ``semantic`` (``semantic.semantic_summary``: ok, reason, the four
metrics, the top diagnoses, settings); an item's ``ec["semantic"]`` holds the compact form per
round k (EC_k: the last round at or before k, ``ec_semantic``), so correction curves exist for
the semantic metrics too.

The headline rule (``headline_value``), used by the run summary, the report's intervals and the
Inspect scorer alike: the headline of each metric is its mean over ALL items of the round, an
item whose domain could not be simulated counting 0: a fixed denominator, so a score cannot
drop because a correction made one more item simulable. The mean over the simulated items alone
(``METRIC_simulated``, ``CONDITIONAL``) is reported beside it, labelled, with the share that
could be simulated.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from text2world.scoring.semantic import METRICS, VERDICTS

__all__ = [
    "CONDITIONAL", "compact_semantic", "verdict_of", "ec_semantic", "headline_value",
    "semantic_rounds",
]

# The records read here are a generation run's rounds and items (``GenerationRound``,
# ``GenerationItem`` of ``tasks.generation.records``); scoring sits below the engine and the
# tasks, so it reads them as the JSON mappings they are.

CONDITIONAL = "_simulated"  # suffix of a semantic metric's mean over the simulated items alone


def compact_semantic(summary: Mapping[str, Any] | None) -> dict | None:
    """The compact per-round record (ok, verdict, the four metrics) of a semantic summary."""
    if summary is None:
        return None
    return {"ok": bool(summary.get("ok")), "verdict": verdict_of(summary),
            **{m: summary.get(m) for m in METRICS}}


def verdict_of(record: Mapping[str, Any]) -> str:
    """The verdict of a semantic record; records written before verdicts existed say only
    ``ok``: those that could not be simulated are ``not_simulated``, the rest are counted as
    ``equivalent`` when all four metrics are 1.0 and ``different`` otherwise."""
    verdict = record.get("verdict")
    if verdict in VERDICTS:
        return verdict
    if not record.get("ok"):
        return "not_simulated"
    values = [record.get(m) for m in METRICS if record.get(m) is not None]
    return "equivalent" if values and all(v == 1.0 for v in values) else "different"


def ec_semantic(rounds: Sequence[Mapping[str, Any]], ec: int) -> list[dict | None] | None:
    """Per k in 0..ec, the compact semantic record of the last round at or before k."""
    if not rounds or not any(r.get("semantic") for r in rounds):
        return None
    return [compact_semantic(rounds[min(k, len(rounds) - 1)].get("semantic"))
            for k in range(ec + 1)]


def headline_value(cell: dict, metric: str, simulated_only: bool = False) -> float | None:
    """One round's value of ``metric`` as the headline counts it: 0 when the round could not be
    simulated (None with ``simulated_only``: left out of ``METRIC_simulated``); None when a
    simulated round has no value for it (no gold plan), which leaves it out of both."""
    if not cell.get("ok"):
        return None if simulated_only else 0.0
    value = cell.get(metric)
    return float(value) if isinstance(value, (int, float)) else None


def semantic_rounds(items: Sequence[Mapping[str, Any]], ec: int) -> list[dict] | None:
    """Per round: items scored, the share that could be simulated, each metric's mean over all
    of them (``headline_value``: 0 for an item that could not be simulated) and, as
    ``METRIC_simulated``, its mean over the simulated ones."""
    if not any((item.get("ec") or {}).get("semantic") for item in items):
        return None
    rows = []
    for k in range(ec + 1):
        cells = [item["ec"]["semantic"][k] for item in items
                 if (item.get("ec") or {}).get("semantic")
                 and len(item["ec"]["semantic"]) > k and item["ec"]["semantic"][k] is not None]
        ok = [c for c in cells if c.get("ok")]
        verdicts = Counter(verdict_of(c) for c in cells)
        row = {"round": k, "items": len(cells),
               "simulable": len(ok) / len(cells) if cells else None,
               "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS}}
        for metric in METRICS:
            counted = [v for v in (headline_value(c, metric) for c in cells) if v is not None]
            simulated = [v for v in (headline_value(c, metric, True) for c in cells)
                         if v is not None]
            row[metric] = sum(counted) / len(counted) if counted else None
            row[metric + CONDITIONAL] = sum(simulated) / len(simulated) if simulated else None
        rows.append(row)
    return rows
