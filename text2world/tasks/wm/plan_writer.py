"""Writes the store's shipped plans (``data/plans/<domain>.json``, ``data/plans/generated/``)
and the planner front's gold answers (``data/plans/gold-front.json``); ``store.plans`` reads
them. Writing plans the world-model tasks' generated problems with their optimal planner,
which sit above the store, hence this module here::

    python -m text2world.tasks.wm.plan_writer --missing
    python -m text2world.tasks.wm.plan_writer --generated
    python -m text2world.tasks.wm.plan_writer --gold-front
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from text2world.store.datasets import Record, atomic_write_text, load_dataset
from text2world.store.plans import FORMAT, plan_key, plans_path, shipped_plan, write_gold_front
from text2world.tasks.wm.generators import WITNESS_PLANS, sized_records
from text2world.tasks.wm.planner import PLANNER_VERSION, OptimalPlan, optimal_plan


def plan_record(record: Record, timeout: float) -> dict:
    """Plan every problem of ``record`` (optimal first, LAMA after a timeout)."""
    problems = {}
    witnesses = record.meta.get(WITNESS_PLANS, {})  # generated problems: the generator's walk
    for problem in record.problems:
        result = optimal_plan(record.domain, problem.pddl, timeout=timeout)
        optimal = result.solved
        if result.status == "timeout":
            result = optimal_plan(record.domain, problem.pddl, timeout=timeout, optimal=False)
        if not result.solved and witnesses.get(problem.name):
            result = OptimalPlan("solved", tuple(witnesses[problem.name]), None,
                                 planner="generator walk")
        problems[problem.name] = {
            "key": plan_key(record.domain, problem.pddl), "status": result.status,
            "plan": list(result.plan or []), "cost": result.cost, "optimal": optimal,
            "bound_s": timeout, **({"message": result.message} if not result.solved else {}),
            **({"planner": result.planner} if result.planner == "generator walk" else {})}
    return {"format": FORMAT, "planner": PLANNER_VERSION, "problems": problems}


def write_plans(records: list[Record], timeout: float, root: Path | None = None,
                only_missing: bool = False, generated: bool = False) -> list[str]:
    """Plan and write each record's file; returns one line per domain. ``records`` carry
    the problems to plan (the generated ones when ``generated``)."""
    lines = []
    for record in records:
        if only_missing and all(shipped_plan(record, p.name, p.pddl, root) is not None
                                for p in record.problems):
            continue
        started = time.monotonic()
        data = plan_record(record, timeout)
        atomic_write_text(plans_path(record.id, root, generated),
                          json.dumps(data, indent=1) + "\n")
        optimal = sum(1 for e in data["problems"].values() if e["optimal"])
        line = (f"{record.id}: {len(data['problems'])} problems, {optimal} optimal, "
                f"{time.monotonic() - started:.0f}s")
        lines.append(line)
        print(line, flush=True)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the store's reference plans")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds of optimal search per problem before LAMA (20)")
    parser.add_argument("--domains", default=None, help="comma-separated ids (all)")
    parser.add_argument("--missing", action="store_true",
                        help="only domains with a missing or stale plan")
    parser.add_argument("--generated", action="store_true",
                        help="the generated problems (data/generated/) instead")
    parser.add_argument("--gold-front", action="store_true",
                        help="the planner front's answers for the golds (gold-front.json)")
    args = parser.parse_args(argv)
    dataset = load_dataset()
    records = dataset.select("all", args.domains.split(",") if args.domains else None)
    if args.gold_front:
        print(f"{write_gold_front(list(dataset.records))} gold answers written")
        return
    if args.generated:
        records = [r for r in sized_records(records, "hard", witnesses=True)
                   if "generator_error" not in r.meta]
    write_plans(records, args.timeout, only_missing=args.missing, generated=args.generated)


if __name__ == "__main__":
    main(sys.argv[1:])
