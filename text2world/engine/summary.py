"""A run's summary: the counts every task's summary shares, computed here once
(``common_summary``: items, calls, cached calls, tokens, cost, ``cost_paid``, paid calls,
calls of unknown cost, requests sent and unanswered), the task's own part beside them
(``Task.summarize``) and per-epoch headline values with their spread (``summarize``).

``t2w eval``/``t2w wm``/... at their checkpoints, ``Run.summary()``, ``t2w score-run`` and the
viewer's counts all go through here.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any, Sequence, TypedDict

from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    ModelCall,
    PaidCall,
    Run,
    RunConfig,
    RunSummary,
    SentCall,
    Usage,
    run_epochs,
    run_label,
    sample_key,
    utc_now,
)

if TYPE_CHECKING:
    from text2world.engine.task import Task


def _calls(item: ItemRecord) -> list[ModelCall]:
    return list(item.get("rounds") or item.get("calls") or [])


class CallTotals(TypedDict):
    usage: Usage
    cost: float
    latency: float


def call_totals(calls: Sequence[ModelCall]) -> CallTotals:
    """An item's ``usage``, ``cost`` and ``latency``: the sums over its calls (rounds)."""
    return {"usage": {"prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
                      "completion_tokens": sum(c.get("completion_tokens") or 0 for c in calls)},
            "cost": sum(c.get("cost") or 0.0 for c in calls),
            "latency": round(sum(c.get("latency") or 0.0 for c in calls), 4)}


def common_summary(config: RunConfig, items: Sequence[ItemRecord],
                   open_errors: Sequence[ErrorRecord], paid: Sequence[PaidCall] | None,
                   sent: Sequence[SentCall] | None = None) -> RunSummary:
    """What every task's summary says alike: counts, tokens of the calls (``prompt_tokens``
    is always the prompts' token usage), costs, the paid ledger's total and the requests
    sent but never answered (None: a run made before they were recorded)."""
    answered = {call.get("call") for call in paid or ()}
    return {
        "calls_sent": len(sent) if sent else None,
        "calls_sent_unanswered": (sum(1 for call in sent if call.get("call") not in answered)
                                  if sent else None),
        "run_id": config.get("run_id"),
        "label": run_label(config),
        "model": config.get("model"),
        "dataset": config.get("dataset"),
        "planned_items": config.get("planned_items"),
        # items, not samples: --epochs asks each item several times (``finished_samples``)
        "finished_items": len({sample_key(item)[0] for item in items}),
        "finished_samples": len(items),
        "epochs": run_epochs(config),
        "infrastructure_errors": len(open_errors),
        "infrastructure_error_items": sorted(str(e.get("item")) for e in open_errors),
        # a call with turns (an agent's round) made one request per turn
        "calls": sum(int(call.get("turns") or 1) for item in items for call in _calls(item)),
        "cached_calls": sum(1 for item in items for call in _calls(item) if call.get("cached")),
        "prompt_tokens": sum((item.get("usage") or {}).get("prompt_tokens", 0) for item in items),
        "completion_tokens": sum((item.get("usage") or {}).get("completion_tokens", 0)
                                 for item in items),
        "cost": sum(item.get("cost") or 0.0 for item in items),  # as if every call was paid
        # the ledger counts the calls of killed attempts and of samples that failed later
        "cost_paid": (sum(call.get("cost") or 0.0 for call in paid) if paid is not None else
                      sum(call.get("cost") or 0.0 for item in items for call in _calls(item)
                          if not call.get("cached"))),
        "paid_calls": (len(paid) if paid is not None else
                       sum(1 for item in items for call in _calls(item)
                           if not call.get("cached"))),
        "cost_unknown_calls": sum(1 for item in items for call in _calls(item)
                                  if "cost" in call and call.get("cost") is None),
    }


def summarize(task: Task, run: Run, items: Sequence[ItemRecord] | None = None,
              errors: Sequence[ErrorRecord] | None = None,
              paid: Sequence[PaidCall] | None = None,
              sent: Sequence[SentCall] | None = None) -> RunSummary:
    """The run's summary now: the task's, the common counts, and per-epoch headline values
    with their spread when the run has several epochs. ``items``, ``errors`` and ``paid``:
    the run's, when the caller has them in memory (else read from the run)."""
    items = run.items() if items is None else items
    errors = run.open_errors() if errors is None else errors
    paid = run.paid_calls() if paid is None else paid
    sent = run.sent_calls() if sent is None else sent
    config = run.config
    summary: RunSummary = {**task.summarize(config, items, errors),
                           **common_summary(config, items, errors, paid, sent)}
    summary.update(epoch_spread(task, config, items))
    summary["updated"] = utc_now()
    return summary


def epoch_spread(task: Task, config: RunConfig, items: Sequence[ItemRecord]) -> RunSummary:
    """A run of several epochs: its task's headline values per epoch (``per_epoch``) and their
    spread (``spread``); nothing for a run of one epoch. The summary and the reports show it."""
    epochs = run_epochs(config)
    if epochs < 2:
        return {}
    per_epoch = []
    for epoch in range(epochs):
        chosen = [item for item in items if sample_key(item)[1] == epoch]
        values = task.headline(task.summarize(config, chosen, [])) if chosen else {}
        per_epoch.append({"epoch": epoch, "finished_items": len(chosen), **values})
    return {"per_epoch": per_epoch, "spread": spread(per_epoch)}


def count_of(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun in the number it takes: ``1 item``, ``2 items``, ``0 items``,
    ``1,000 items``: how every count a person reads is written (reports, runs, commands)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def items_phrase(items: int, epochs: int = 1, noun: str = "item") -> str:
    """How every count of a run reads: ``2 items x 3 epochs``, ``1 item`` (one epoch)."""
    counted = count_of(items, noun)
    return f"{counted} x {epochs:,} epochs" if epochs > 1 else counted


def done_phrase(summary: RunSummary, new: int | None = None, noun: str = "item") -> str:
    """How far a run is, after ``new`` samples made now: ``2 new items, 2/2 items done``;
    with epochs, in samples: ``4 new samples, 3/4 samples done (2 items x 2 epochs)``."""
    planned = int(summary.get("planned_items") or 0)
    epochs = int(summary.get("epochs") or 1)
    made = "" if new is None else count_of(new, f"new {noun if epochs == 1 else 'sample'}") + ", "
    if epochs == 1:
        return f"{made}{summary.get('finished_items', 0):,}/{planned:,} {noun}s done"
    samples = summary.get("finished_samples", summary.get("finished_items", 0))
    return (f"{made}{samples:,}/{planned * epochs:,} samples done "
            f"({items_phrase(planned, epochs, noun)})")


def spread(per_epoch: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean, standard deviation (sample), min and max of each headline value over epochs."""
    names = [key for key in (per_epoch[0] if per_epoch else {})
             if key not in ("epoch", "finished_items")]
    result = {}
    for name in names:
        values = [float(row[name]) for row in per_epoch
                  if isinstance(row.get(name), (int, float))]
        if not values:
            continue
        result[name] = {"mean": statistics.fmean(values),
                        "std": statistics.stdev(values) if len(values) > 1 else 0.0,
                        "min": min(values), "max": max(values), "epochs": len(values)}
    return result


def run_counts(run: Run, items: Sequence[ItemRecord] | None = None) -> RunSummary:
    """The common counts of ``run`` now (``common_summary``), from its log, error records,
    paid ledger and sent record; ``items``: its finished items, when the caller has them."""
    return common_summary(run.config, run.items() if items is None else items,
                          run.open_errors(), run.paid_calls(), run.sent_calls())
