"""The summary of a problem run: per correction round parseable / solvable / equivalent (and
the looser metrics) with their 95% intervals, the same for each trivial strategy (the floors),
what decided equivalence, and the items that are solvable but mean something else."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from text2world.engine.run_store import ItemRecord, RunConfig, RunSummary
from text2world.tasks.problem.intervals import floor_intervals, round_intervals
from text2world.tasks.problem.records import ProblemSummary, problem_items, problem_summary

MAX_FAILURES = 50  # solvable-but-not-equivalent items listed in the summary


def summarize_problems(config: RunConfig, records: Sequence[ItemRecord]) -> ProblemSummary:
    items = problem_items(records)
    ec = int(config.get("ec", 0))
    failures = []
    for item in sorted(items, key=lambda i: (str(i.get("item")), int(i.get("epoch") or 0))):
        series = item.get("ec") or {}
        if (series.get("solvable") or [0])[-1] and not (series.get("equivalent") or [0])[-1]:
            failures.append({"item": item.get("item"), "epoch": item.get("epoch", 0),
                             "rule": item.get("rule"),
                             "counterexample": (item.get("counterexample") or {}).get("text")})
    return {"kind": "problem", "style": str(config.get("description") or ""),
            "size": str(config.get("size") or ""), "ec": ec,
            "per_round": round_intervals(items, ec + 1) if items else [],
            "floors": floor_intervals(items) if items else {},
            "rules": dict(Counter(str(i.get("rule")) for i in items)),
            "undecided": sum(1 for i in items if i.get("equivalent_open")),
            "solvable_not_equivalent": len(failures), "failures": failures[:MAX_FAILURES]}


def problem_headline(summary: RunSummary) -> dict[str, float | None]:
    """The last round's parseable, solvable and equivalent means."""
    rounds = problem_summary(summary).get("per_round") or []
    last = rounds[-1] if rounds else {}
    return {metric: (last.get(metric) or {}).get("mean")
            for metric in ("parseable", "solvable", "equivalent")}
