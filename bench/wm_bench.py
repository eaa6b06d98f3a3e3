"""Benchmark of the world-model tasks (``t2w wm``).

1. Worlds: every selected problem parsed, planned optimally by Fast Downward (A* LM-cut, LAMA
   when optimal search runs out of time) and replayed in the simulator. Plans are cached on disk
   by content, so only the first run pays for the planner; printed: problems, how many were
   planned now (not from the cache), their wall time.
2. Items built per second, per task, from the built worlds (the simulator does the work:
   states along the plans, illegal actions, mutants checked to fail).
3. A whole task over the selection with a reference model at concurrency 8 (default the
   oracle): wall time of the run (items prebuilt) against the CPU time of the simulator calls
   (building the task's items and checking answers; thread CPU time) and of the Fast Downward
   calls (child processes) it needs, and the process CPU of the run (the model client's path
   through litellm included), which is what a reference model's run is made of.
   The oracle's proposals hit at rank 1 on a state along the plan, so it needs no planner call;
   ``--model reference/noisy-oracle`` exercises the planner on other successors.
4. Difficulty (issue 21's targets, over the selected items of ``--size``, default hard): the
   median number of applicable ground actions in the states of next-state and propose items
   (target >= 20), the random-applicable-action baseline's hit@1 on propose at the default
   ``--slack 0`` (target <= 20%), every task's baselines beside the model, and with
   ``--spread`` the oracle and the noisy oracle on every task (the gap a task can show).

    python bench/wm_bench.py                         # the first 30 test domains
    python bench/wm_bench.py --all                   # the whole store
    python bench/wm_bench.py --tasks propose --model reference/noisy-oracle --limit 10
    python bench/wm_bench.py --propose-ratio --all     # issue 32's figures (below)
    python bench/wm_bench.py --propose-ratio --all --keyed   # the keyed domains only

5. ``--propose-ratio`` (issue 32): ``t2w wm propose --model reference/oracle`` and ``t2w wm
   next-state --model reference/oracle`` (baselines included, defaults) as commands, each in a
   fresh runs folder, their CPU with children, and the ratio (target <= 2), cold (each from an
   empty ``T2W_HOME``) and warm (each again in its home); then the check of
   one proposal as a real model's (every applicable action of each propose item, one at a
   time, through the task's own check): the median and p90 (target median < 10 ms).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="every test domain of the store")
    parser.add_argument("--limit", type=int, default=30, help="test domains (default 30)")
    parser.add_argument("--tasks", default="next-state,verify,propose,plan")
    parser.add_argument("--model", default="reference/oracle")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--planner-timeout", type=float, default=20.0)
    parser.add_argument("--size", default="hard", choices=("hard", "easy"))
    parser.add_argument("--spread", action="store_true",
                        help="run the oracle and the noisy oracle on every task")
    parser.add_argument("--up-check", action="store_true",
                        help="validate every verify item's plan with unified-planning too")
    parser.add_argument("--propose-ratio", action="store_true",
                        help="only issue 32's figures: propose vs next-state CPU, check time")
    parser.add_argument("--keyed", action="store_true",
                        help="with --propose-ratio --all: only the test domains whose default "
                             "items have a current answer key (the others are listed)")
    args = parser.parse_args()
    if args.propose_ratio:
        domains = keyed_domains() if args.keyed else None
        propose_ratio(None if args.all or domains else args.limit, args.planner_timeout, domains)
        return

    from text2world.reports.wm import HEADLINE
    from text2world.tasks.wm import WmOptions, build_items, run_wm
    from text2world.tasks.wm.task import plan as wm_plan
    from text2world.tasks.wm.task import select_records
    from text2world.tasks.wm.world import WorldError, world_for

    limit = None if args.all else args.limit
    base = WmOptions(model=args.model, limit=limit, max_concurrency=args.concurrency,
                     planner_timeout=args.planner_timeout, size=args.size)
    _, records = select_records(base)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{len(records)} domains")

    started, cpu0, thread0 = time.monotonic(), children_cpu(), time.thread_time()
    problems = failed = 0
    for record in records:
        for problem in record.problems:
            problems += 1
            try:
                world_for(record, problem.name, args.planner_timeout)
            except WorldError:
                failed += 1
    print(f"worlds: {problems} problems ({failed} unusable) in {time.monotonic() - started:.1f}s"
          f" wall; planner CPU {children_cpu() - cpu0:.1f}s (0 when every plan was cached), "
          f"parse + replay CPU {time.thread_time() - thread0:.1f}s")

    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    build_cpu: dict[str, float] = {}
    for task in tasks:
        thread0, wall0 = time.thread_time(), time.monotonic()
        built = build_items(task, records, planner_timeout=args.planner_timeout)
        cpu, wall = time.thread_time() - thread0, time.monotonic() - wall0
        build_cpu[task] = cpu
        print(f"build {task:10s}: {len(built.items):5d} items in {wall:6.2f}s wall "
              f"({len(built.items) / max(wall, 1e-9):8.0f} items/s; CPU {cpu:.2f}s)")
        if task in ("next-state", "propose"):
            counts = applicable_counts(records, built.items, args.planner_timeout)
            print(f"  applicable ground actions per {task} state: median "
                  f"{statistics.median(counts):.0f}, p10 {percentile(counts, 10):.0f}, "
                  f"p90 {percentile(counts, 90):.0f} (target median >= 20)")

    if args.up_check:
        up_check(records, args.planner_timeout)
    from text2world.model.client import litellm_module

    litellm_module()  # imported once before the timed runs (seconds on a loaded machine)
    print(f"\nrun with {args.model} at concurrency {args.concurrency} (items prebuilt; "
          "process CPU: everything the run did here, the model client included):")
    with tempfile.TemporaryDirectory() as runs:
        os.environ["T2W_RUNS_DIR"] = runs
        models = ["reference/oracle", "reference/noisy-oracle"] if args.spread else [args.model]
        for task, model in ((t, m) for t in tasks for m in models):
            options = WmOptions(model=model, task=task, limit=limit, size=args.size,
                                max_concurrency=args.concurrency,
                                planner_timeout=args.planner_timeout)
            prepared = wm_plan(options)
            cpu0, process0 = children_cpu(), time.process_time()
            result = run_wm(prepared.options, None, prepared)
            planner_cpu = children_cpu() - cpu0
            process_cpu = time.process_time() - process0
            # what the task needs from the simulator and planner: its items (states, illegal
            # actions, mutants checked), checking answers, Fast Downward on successors
            needed = build_cpu[task] + result.stats["simulator_cpu"] + planner_cpu
            metrics = result.summary["metrics"]["all"]["all"]
            head = HEADLINE[task]
            print(f"{task:10s} {model}: {result.new_items:5d} items, "
                  f"{result.summary['calls']:5d} calls,"
                  f" wall {result.wall_time:6.1f}s; simulator CPU {build_cpu[task]:.2f}s items +"
                  f" {result.stats['simulator_cpu']:.2f}s answers"
                  f", planner CPU {planner_cpu:6.2f}s ({result.stats['planner_calls']} calls); "
                  f"wall / needed CPU = {result.wall_time / max(needed, 1e-3):6.1f}; process "
                  f"CPU {process_cpu:5.1f}s; "
                  f"{1000 * result.wall_time / max(result.new_items, 1):.0f} ms per item; "
                  f"{head} {metrics[head]:.3f}")
            print("  baselines on the same items: " + "; ".join(
                f"{name} {head} {row.get(head) if row.get(head) is None else round(row[head], 3)}"
                for name, row in metrics["baselines"].items())
                + (" (random-applicable target <= 0.2)" if task == "propose" else ""))


def keyed_domains() -> list[str]:
    """The test domains whose default (hard) propose items have a current answer key; prints
    the others."""
    from text2world.store.datasets import load_dataset
    from text2world.tasks.wm.answer_keys import key_is_current
    from text2world.tasks.wm.generators import sized_records

    records = [r for r in load_dataset().select("test", None) if r.problems]
    keyed, missing = [], []
    for record in sized_records(records, "hard"):
        generated = "generator_error" not in record.meta
        (keyed if key_is_current(record, generated) else missing).append(record.id)
    print(f"{len(keyed)} of {len(records)} test domains keyed; without a key: "
          f"{', '.join(missing) or 'none'}")
    return keyed


def command_cpu(task: str, limit: int | None, domains: list[str] | None, home: Path) -> float:
    """CPU-s (children included) of ``t2w wm TASK --model reference/oracle`` in a fresh runs
    folder, with ``home`` as ``T2W_HOME`` (its caches: plans, scores, responses)."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="t2w-wm-bench-") as runs:
        env = {**os.environ, "T2W_RUNS_DIR": runs, "T2W_HOME": str(home),
               "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        command = [sys.executable, "-m", "text2world.cli", "wm", task, "--model",
                   "reference/oracle"] + ([] if limit is None else ["--limit-domains", str(limit)]) \
            + ([] if domains is None else ["--domains", ",".join(domains)])
        cpu0 = children_cpu()
        done = subprocess.run(command, env=env, cwd=runs, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode:
            raise SystemExit(f"{' '.join(command[3:])} failed: {done.stderr[-1500:]}")
        return children_cpu() - cpu0


def propose_ratio(limit: int | None, planner_timeout: float,
                  domains: list[str] | None = None) -> None:
    """Issue 32: the propose command's CPU against next-state's, and one proposal's check.
    Each command runs twice in a ``T2W_HOME`` of its own: first empty (cold: what a new user
    pays), then again in it (warm: its caches filled)."""
    from first_command_bench import machine

    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} at start")
    tasks = ("next-state", "propose")
    with tempfile.TemporaryDirectory(prefix="t2w-wm-bench-home-") as homes:
        cpu = {}
        for state in ("cold", "warm"):
            for task in tasks:
                cpu[state, task] = command_cpu(task, limit, domains, Path(homes) / task)
            print(f"{state} ({'an empty' if state == 'cold' else 'the same'} T2W_HOME each): "
                  f"t2w wm next-state {cpu[state, 'next-state']:.1f} CPU-s, t2w wm propose "
                  f"{cpu[state, 'propose']:.1f} CPU-s (reference/oracle, baselines, children "
                  f"included); ratio "
                  f"{cpu[state, 'propose'] / max(cpu[state, 'next-state'], 1e-9):.2f} "
                  f"(target <= 2); load average {os.getloadavg()[0]:.1f}")
        os.environ["T2W_HOME"] = str(Path(homes) / "check")  # the check below: cold too
        check_proposals(limit, planner_timeout, domains)


def check_proposals(limit: int | None, planner_timeout: float,
                    domains: list[str] | None) -> None:
    """The CPU of checking one proposal as a real model's, over every applicable action of
    each propose item."""
    import asyncio
    from types import SimpleNamespace

    from text2world.tasks.wm import WmOptions
    from text2world.tasks.wm.baselines import applicable_actions
    from text2world.tasks.wm.task import WmTask, _Solver, build

    options = WmOptions(model="reference/oracle", task="propose", limit=limit,
                        planner_timeout=planner_timeout, domains=domains)
    task = WmTask(options)
    _, records, built = build(options)
    task.records = {r.id: r for r in records}
    solver = _Solver(task, SimpleNamespace(spec=None))  # only its proposal check is used
    times: list[float] = []

    async def check_all() -> None:  # one event loop, each proposal timed alone
        for item in built.items:
            world = solver.world(item)
            for action in applicable_actions(world, world.states[item["prefix"]]):
                started = time.process_time()
                await solver.check_proposals(item, world, [action])
                times.append(time.process_time() - started)

    asyncio.run(check_all())
    times = times or [0.0]
    print(f"one proposal checked: median {1000 * statistics.median(times):.2f} ms, p90 "
          f"{1000 * percentile(times, 90):.2f} ms CPU over {len(times)} proposals "
          f"({task.stats['planner_calls']} planner calls; target median < 10 ms); "
          f"load {os.getloadavg()[0]:.1f}")


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share / 100 * len(ordered)))]


def applicable_counts(records, items: list[dict], planner_timeout: float) -> list[int]:
    """The number of applicable ground actions in each item's state."""
    from text2world.tasks.wm.parse import parse_atom
    from text2world.tasks.wm.world import world_for

    by_id = {r.id: r for r in records}
    counts = []
    for item in items:
        world = world_for(by_id[item["domain"]], item["problem"], planner_timeout)
        state = frozenset(parse_atom(a) for a in item["state"])
        counts.append(len(world.simulator.applicable(state)))
    return counts or [0]


def up_check(records, planner_timeout: float) -> None:
    """Every positive plan valid and every negative plan invalid in unified-planning's own
    validator (its own parse of the texts), as in our simulator."""
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.shortcuts import PlanValidator

    from text2world.simulation import GroundAction
    from text2world.simulation.crosscheck import up_problem
    from text2world.tasks.wm import build_items

    started = time.monotonic()
    items = build_items("verify", records, planner_timeout=planner_timeout).items
    agree, disagree, skipped = 0, [], 0
    problems: dict = {}
    for item in items:
        record = next(r for r in records if r.id == item["domain"])
        key = (record.id, item["problem"])
        if key not in problems:
            text = next(p.pddl for p in record.problems if p.name == item["problem"])
            try:
                problems[key] = up_problem(record.domain, text)
            except Exception as err:  # noqa: BLE001 - UP's parser raises many classes
                problems[key] = err
        problem = problems[key]
        if isinstance(problem, Exception):
            skipped += 1
            continue
        actions = {a.name.lower(): a for a in problem.actions}
        objects = {o.name.lower(): o for o in problem.all_objects}
        steps = [GroundAction.parse(s) for s in item["prefix_plan"] + item["plan"]]
        plan = SequentialPlan([ActionInstance(actions[g.name], [objects[x] for x in g.args])
                               for g in steps])
        with PlanValidator(problem_kind=problem.kind, plan_kind=plan.kind) as validator:
            valid = validator.validate(problem, plan).status.name == "VALID"
        if valid == item["valid"]:
            agree += 1
        else:
            disagree.append(item["id"])
    print(f"unified-planning check: {agree} of {len(items)} verify items agree "
          f"({sum(1 for i in items if i['valid'])} positive), {len(disagree)} disagree "
          f"{disagree[:5]}, {skipped} skipped (UP cannot parse); "
          f"{time.monotonic() - started:.0f}s")


if __name__ == "__main__":
    main()
