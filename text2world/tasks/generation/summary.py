"""The summary of a generation run: counts and mean metrics per round (EC_0 .. EC_k) for
each scoring mode, tokens, costs (``cost_paid`` from the paid ledger)."""

from __future__ import annotations

from text2world.engine.run_store import SCORE_MODES, mean, mode_metrics, utc_now


def summarize(config: dict, items: list[dict], open_errors: list[dict],
              paid: list[dict] | None = None) -> dict:
    """Counts and mean metrics per round (EC_0 .. EC_k) for each scoring mode.

    ``paid``: the run's ledger of paid calls (``Run.paid_calls``); ``cost_paid`` is its sum,
    which includes calls of killed attempts and of items that failed later. Without a ledger
    it is the cost of the logged rounds not answered from the cache."""
    ec = int(config.get("ec", 0))
    per_mode: dict[str, list[dict]] = {}
    for mode in SCORE_MODES:
        rounds = []
        for r in range(ec + 1):
            row: dict[str, float | int | None] = {"round": r}
            scored = [item["ec"][mode][r] for item in items
                      if item.get("ec", {}).get(mode) and len(item["ec"][mode]) > r
                      and item["ec"][mode][r] is not None]
            row["items"] = len(scored)
            for metric in mode_metrics(mode):
                row[metric] = mean([float(s[metric]) for s in scored if s.get(metric) is not None])
            rounds.append(row)
        per_mode[mode] = rounds
    from text2world.reports.intervals import summary_intervals
    from text2world.scoring.semantic_record import semantic_rounds  # lazy: the simulator is not needed here
    semantic = semantic_rounds(items, ec)
    if semantic is not None:
        per_mode["semantic"] = semantic
    valid_at = [sum(1 for item in items if (item.get("valid_round") is not None
                                            and item["valid_round"] <= r))
                for r in range(ec + 1)]
    tokens_in = sum(item.get("usage", {}).get("prompt_tokens", 0) for item in items)
    tokens_out = sum(item.get("usage", {}).get("completion_tokens", 0) for item in items)
    return {
        "run_id": config.get("run_id"),
        "model": config.get("model"),
        "dataset": config.get("dataset"),
        "description": config.get("description"),
        "prompt": config.get("prompt"),
        "ec": ec,
        "planned_items": config.get("planned_items"),
        "finished_items": len(items),
        "infrastructure_errors": len(open_errors),
        "infrastructure_error_items": sorted(str(e.get("item")) for e in open_errors),
        "valid_at_round": valid_at,
        "calls": sum(len(item.get("rounds", [])) for item in items),
        "cached_calls": sum(1 for item in items for rnd in item.get("rounds", [])
                            if rnd.get("cached")),
        "prompt_tokens": tokens_in,
        "completion_tokens": tokens_out,
        "cost": sum(item.get("cost") or 0.0 for item in items),  # as if every call was paid
        "cost_paid": (sum(call.get("cost") or 0.0 for call in paid) if paid is not None else
                      sum(rnd.get("cost") or 0.0 for item in items
                          for rnd in item.get("rounds", []) if not rnd.get("cached"))),
        "paid_calls": (len(paid) if paid is not None else
                       sum(1 for item in items for rnd in item.get("rounds", [])
                           if not rnd.get("cached"))),
        "cost_unknown_calls": sum(1 for item in items for rnd in item.get("rounds", [])
                                  if rnd.get("cost") is None),
        # the protocol (tasks/generation/feedback.py); runs made before protocols: syntax
        "protocol": config.get("protocol") or "syntax",
        "oracle_feedback": bool(config.get("oracle_feedback")),
        "tool_calls": sum(int(item.get("tool_calls") or 0) for item in items),
        "feedback_rounds": sum(1 for item in items for rnd in item.get("rounds", [])
                               if rnd.get("feedback")),
        "metrics": per_mode,
        "intervals": summary_intervals(items, ec),  # 95%, [low, high] at EC_0 and EC_k
        "updated": utc_now(),
    }
