"""The generation task's part of a run's summary: mean metrics per round (EC_0 .. EC_k) for
each scoring mode, valid domains per round, the protocol, intervals. The counts every task
shares (items, calls, tokens, costs) are the engine's (``engine.summary.common_summary``)."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from text2world.engine.run_store import ErrorRecord, RunConfig
from text2world.scoring.score_base import METRICS, MODES, mode_metrics
from text2world.stats import mean_or_none
from text2world.tasks.generation.records import (
    GenerationItem,
    GenerationSummary,
    config_ec,
    generation_config,
)

NO_PDDL = "NoDomainFound"  # the error kind of a round whose answer holds no domain: counted apart


def summarize(config: RunConfig, items: Sequence[GenerationItem],
              open_errors: Sequence[ErrorRecord]) -> GenerationSummary:
    """Mean metrics per round (EC_0 .. EC_k) for each scoring mode, and what else only a
    generation run has (``open_errors``: unused, the engine counts them).

    The items are taken in (item, epoch) order, not the log's (the order they finished in,
    which a pool changes from run to run): a float sum depends on its order, and a summary
    must not depend on which worker finished first."""
    items = sorted(items, key=lambda item: (str(item.get("item")), int(item.get("epoch") or 0)))
    ec = config_ec(config)
    per_mode: dict[str, list[dict]] = {}
    for mode in MODES:
        rounds = []
        for r in range(ec + 1):
            row: dict[str, float | int | None] = {"round": r}
            scored = [item["ec"][mode][r] for item in items
                      if item.get("ec", {}).get(mode) and len(item["ec"][mode]) > r
                      and item["ec"][mode][r] is not None]
            row["items"] = len(scored)
            for metric in mode_metrics(mode):
                row[metric] = mean_or_none([float(s[metric]) for s in scored if s.get(metric) is not None])
            rounds.append(row)
        per_mode[mode] = rounds
    from text2world.scoring.semantic_record import semantic_rounds  # lazy: the simulator is not needed here
    from text2world.tasks.generation.intervals import summary_intervals
    semantic = semantic_rounds(items, ec)
    if semantic is not None:
        per_mode["semantic"] = semantic
    valid_at = [sum(1 for item in items if ((valid := item.get("valid_round")) is not None
                                            and valid <= r))
                for r in range(ec + 1)]
    return {
        "description": config.get("description"),
        "prompt": config.get("prompt"),
        "ec": ec,
        "valid_at_round": valid_at,
        # the protocol (tasks/generation/feedback.py); runs made before protocols: syntax
        "protocol": generation_config(config).get("protocol") or "syntax",
        "oracle_feedback": bool(generation_config(config).get("oracle_feedback")),
        "tool_calls": sum(int(item.get("tool_calls") or 0) for item in items),
        "feedback_rounds": sum(1 for item in items for rnd in item.get("rounds", [])
                               if rnd.get("feedback")),
        "metrics": per_mode,
        "intervals": summary_intervals(items, ec),  # 95%, [low, high] at EC_0 and EC_k
    }


def error_categories(items: Sequence[GenerationItem], ec: int) -> list[dict]:
    """Per round: how many items were invalid, by error category (no PDDL counted apart)."""
    rows = []
    for r in range(ec + 1):
        counts: Counter = Counter()
        for item in items:
            rounds = item.get("rounds", [])
            if len(rounds) > r and not rounds[r].get("valid"):
                errors = rounds[r].get("validation", {}).get("errors", [])
                kind = errors[0].get("kind") if errors else None
                counts[NO_PDDL if kind == NO_PDDL else (rounds[r].get("category") or "Other")] += 1
        rows.append({"round": r, "invalid": sum(counts.values()), "categories": dict(counts)})
    return rows


def item_cell(item: GenerationItem, mode: str) -> dict:
    """An item's outcome in ``mode``: executable at EC_0 and at its last round, the round from
    which it stays valid, rounds used, the last round's similarity and mean F1, the EC_0 error
    category (a report's per-domain cell, the viewer's item row)."""
    scores = (item.get("ec") or {}).get(mode) or []
    first = scores[0] if scores else None
    last = scores[-1] if scores else None
    f1 = (mean_or_none([last[m] for m in METRICS[2:] if last.get(m) is not None])
          if last else None)
    return {
        "exec_ec0": None if first is None else bool(first["executable"]),
        "exec_eck": None if last is None else bool(last["executable"]),
        "valid_round": item.get("valid_round"),
        "rounds": item.get("rounds_used"),
        "similarity_eck": None if last is None else last["similarity"],
        "f1_mean_eck": f1,
        "category_ec0": (item.get("rounds") or [{}])[0].get("category"),
    }
