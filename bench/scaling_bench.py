"""Semantic scoring on many cores: predicted from the tasks' CPU, measured on this machine.

The batch is bench/semantic_bench.py's throughput batch (store domains spread over the store;
each gold against itself and ``--per-domain`` sampled single-point mutants) or, with
``--answers N``, N distinct answers spread over every store domain with problems (each
domain's gold and its sampled single-point mutants, as evenly as the domains' mutants
allow: the batch of a leaderboard or a ``score-batch`` run of that size, not one batch
replicated), cut into one task per gold problem (``text2world.scoring.semantic_tasks``)
and fed to a pool of forked worker processes longest expected first (LPT, by the CPU each
gold problem's own preparation took).
Everything runs from an empty ``T2W_HOME``; each measured run gets an empty one of its own
(a run must not find the previous run's planner answers on disk).

Prints:

* the machine (cores, CPU model) and its load average before and after;
* the CPU of each task (the worker's CPU and its Fast Downward children's; the longest and a
  histogram, every one with ``--each``), their sum and the longest (the makespan's lower
  bound on any number of workers);
* the prediction: the measured task CPUs replayed through the same scheduler (LPT by the
  expected costs) for 2, 16 and 64 workers, the makespan and the efficiency (sum of task CPU /
  workers x makespan), beside the ideal (LPT by the true CPUs) and whole pairs as tasks (the
  unsplit granularity);
* with ``--answers``, the same prediction for each GRPO step of ``--step`` answers (256) the
  batch holds: consecutive answers, a few prompts (domains, in a seeded order) with several
  answers each, as a trainer's step scores them;
* the truth: the batch scored with 1 and with N workers (``--workers``, default the cores),
  wall time, CPU-s including the child processes, the speed-up of N over 1 and the
  efficiency N workers reached, beside the prediction for N (``--predict-only``: the
  1-worker run alone, which measures the task CPUs);
* with ``--score-batch local|ray``, instead of all that: the batch scored by ``t2w
  score-batch``'s own function on that engine with 1 and with ``--workers`` workers (the
  issue's "score-batch --ray on a batch of 1,000 answers").

    python bench/scaling_bench.py [--domains 16] [--per-domain 4] [--workers N] [--each]
    python bench/scaling_bench.py --answers 1000 [--step 256] --predict-only
    python bench/scaling_bench.py --answers 1000 --score-batch ray --workers 16
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOME = tempfile.mkdtemp(prefix="t2w-scaling-bench-")
os.environ["T2W_HOME"] = os.path.join(HOME, "prepare")  # empty: nothing cached yet

from text2world.scoring.mutants import mutants  # noqa: E402
from text2world.scoring.semantic import prepare_gold  # noqa: E402
from text2world.scoring.semantic_tasks import (  # noqa: E402
    ProblemTask,
    expected_costs,
    lpt_makespan,
    lpt_order,
    merge_all,
    problem_tasks,
    score_problem,
    task_sizes,
)
from text2world.store.datasets import load_dataset, store_problems  # noqa: E402

PREDICTED_WORKERS = (2, 16, 64)
TARGET = 0.75  # the efficiency whose batch size is printed


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def own_cpu() -> float:
    """This process's CPU seconds and its finished children's (Fast Downward's runs)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed_task(task: ProblemTask):
    """``score_problem`` and the CPU it took in the worker, children included."""
    before = own_cpu()
    part = score_problem(task)
    return part, own_cpu() - before


def batch(domains: int, per_domain: int, seed: int) -> list[tuple[str, str, list]]:
    records = sorted((r for r in load_dataset().records if r.problems), key=lambda r: r.id)
    rng = random.Random(seed)
    pairs: list[tuple[str, str, list]] = []
    for record in records[::max(1, len(records) // domains)][:domains]:
        gold, problems = store_problems(record.id)
        cache = prepare_gold(gold, problems)  # in the parent: every worker inherits it
        candidates = mutants(cache.domain)
        chosen = rng.sample(candidates, min(per_domain, len(candidates)))
        pairs += [(gold, text, problems)
                  for text in [gold] + [m.domain.to_pddl() for m in chosen]]
    return pairs


def spread_batch(answers: int, seed: int) -> list[tuple[str, str, list]]:
    """``answers`` distinct answers over every store domain with problems, the domains in a
    seeded order and their answers together (the gold first, then sampled single-point
    mutants): one more answer per domain in turn until there are ``answers``, a domain with
    fewer distinct mutants taking what it has. ``SystemExit`` when the store holds fewer."""
    records = sorted((r for r in load_dataset().records if r.problems), key=lambda r: r.id)
    rng = random.Random(seed)
    rng.shuffle(records)
    candidates: list[tuple[str, list, list[str]]] = []
    for record in records:
        gold, problems = store_problems(record.id)
        cache = prepare_gold(gold, problems)  # in the parent: every worker inherits it
        texts = list(dict.fromkeys(m.domain.to_pddl() for m in mutants(cache.domain)))
        candidates.append((gold, problems, [text for text in texts if text != gold]))
    available = sum(1 + len(texts) for _, _, texts in candidates)
    if answers > available:
        raise SystemExit(f"--answers {answers}: the store holds {available} distinct answers "
                         f"(golds and their single-point mutants); ask for fewer")
    quota = [0] * len(candidates)
    while sum(quota) < answers:
        for index, (_, _, texts) in enumerate(candidates):
            if quota[index] <= len(texts) and sum(quota) < answers:
                quota[index] += 1
    pairs: list[tuple[str, str, list]] = []
    for (gold, problems, texts), count in zip(candidates, quota):
        if count:
            pairs += [(gold, text, problems) for text in [gold] + rng.sample(texts, count - 1)]
    return pairs


def measure(tasks: list[ProblemTask], order: list[int], workers: int, label: str):
    """Score the tasks in ``order`` with ``workers`` forked processes from an empty home:
    (wall seconds, CPU-s of the workers and their children, each task's CPU, the parts)."""
    os.environ["T2W_HOME"] = os.path.join(HOME, label)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = children.ru_utime + children.ru_stime
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        list(pool.map(abs, range(workers)))  # every worker started before the clock
        started = time.monotonic()
        results = list(pool.map(timed_task, [tasks[i] for i in order], chunksize=1))
        wall = time.monotonic() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = children.ru_utime + children.ru_stime - before
    task_cpu = [0.0] * len(tasks)
    parts = []
    for index, (part, seconds) in zip(order, results):
        task_cpu[index] = seconds
        parts.append(part)
    return wall, spent, task_cpu, parts


def comparable(score) -> dict:
    """A score without its wall-clock fields."""
    return score.to_dict() | {"seconds": 0, "planner_seconds": 0}


def efficiency(total: float, workers: int, makespan: float) -> float:
    return total / (workers * makespan) if makespan else 1.0


def predicted_efficiency(task_cpu: list[float], expected: list[float], sizes: list[int],
                         workers: int) -> float:
    """The efficiency of ``workers`` fed these tasks longest expected first."""
    return efficiency(sum(task_cpu), workers,
                      lpt_makespan(task_cpu, workers, lpt_order(expected, sizes)))


def print_steps(tasks: list[ProblemTask], task_cpu: list[float], expected: list[float],
                step: int) -> None:
    """The prediction for each GRPO step of ``step`` consecutive answers of the batch."""
    pairs = max(task.pair for task in tasks) + 1
    steps = pairs // step
    if not steps:
        print(f"  no GRPO step of {step} answers in a batch of {pairs}")
        return
    print(f"\nprediction per GRPO step of {step} answers (the batch's {steps} steps of "
          f"consecutive answers: each a few prompts with several answers)")
    print(f"  {'step':>4}  {'domains':>7}  {'task CPU':>8}  {'longest':>7}  " + "  ".join(
        f"{workers:>2} workers" for workers in PREDICTED_WORKERS))
    for number in range(steps):
        chosen = [index for index, task in enumerate(tasks)
                  if number * step <= task.pair < (number + 1) * step]
        cpu = [task_cpu[index] for index in chosen]
        guesses = [expected[index] for index in chosen]
        sizes = task_sizes([tasks[index] for index in chosen])
        domains = len({tasks[index].gold for index in chosen})
        print(f"  {number + 1:>4}  {domains:>7}  {sum(cpu):7.1f}s  {max(cpu):6.2f}s  " +
              "  ".join(f"{predicted_efficiency(cpu, guesses, sizes, workers):10.2f}"
                        for workers in PREDICTED_WORKERS))


def score_batch_runs(pairs: list[tuple[str, str, list]], engine: str, workers: int) -> None:
    """``score-batch``'s scoring of the batch (``batch_scoring.score_batch``, as the command
    runs it: the local pool or Ray, start-up included) with 1 and ``workers`` workers, each
    from an empty ``T2W_HOME``: wall time, the speed-up, whether the lines are the same."""
    from text2world.batch_scoring import BatchLine, run_here, score_batch
    from text2world.integrations.ray_batch import run_on_ray

    ids = {record.domain: record.id for record in load_dataset().records}
    lines = [BatchLine(f"answer-{number}", ids[gold], text)
             for number, (gold, text, _) in enumerate(pairs)]
    walls, outputs = {}, {}
    for count in sorted({1, workers}):
        label = f"{engine}-{count}"
        os.environ["T2W_HOME"] = os.path.join(HOME, label)
        out = Path(HOME) / f"{label}.jsonl"

        def runner(parts, metric, limit, count=count):
            if engine == "ray":
                return run_on_ray(workers=count)(parts, metric, limit)
            return run_here(parts, metric, limit, count)

        started = time.monotonic()
        score_batch(lines, out, runner=runner)
        walls[count] = time.monotonic() - started
        outputs[count] = out.read_text(encoding="utf-8").splitlines()
        print(f"  score-batch, {engine}, {count} worker(s): {walls[count]:.1f} s wall"
              + (" (Ray's start-up included)" if engine == "ray" else ""))
    one, many = outputs[1], outputs[workers]
    differ = [a for a, b in zip(one, many) if a != b]
    clocked = [a for a in differ if "timeout:" in a]
    print(f"  {workers} workers: {walls[1] / walls[workers]:.2f}x one worker, efficiency "
          f"{walls[1] / (workers * walls[workers]):.2f}; lines identical: "
          f"{len(one) - len(differ)} of {len(one)} (of the others, {len(clocked)} with a "
          f"timeout: a clock shaped them)")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", type=int, default=16, help="store domains in the batch")
    parser.add_argument("--per-domain", type=int, default=4, help="mutants per domain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="workers of the measured parallel run (default: the cores)")
    parser.add_argument("--each", action="store_true", help="print every task's CPU")
    parser.add_argument("--answers", type=int, default=0,
                        help="N distinct answers over the whole store instead of --domains "
                             "and --per-domain")
    parser.add_argument("--step", type=int, default=256,
                        help="answers of a GRPO step, predicted apart with --answers (256)")
    parser.add_argument("--predict-only", action="store_true",
                        help="measure the task CPUs on one worker and predict; no N-worker run")
    parser.add_argument("--score-batch", choices=("local", "ray"), default=None,
                        help="instead: t2w score-batch's own scoring of the batch on that "
                             "engine, 1 worker against --workers")
    args = parser.parse_args()
    if args.answers < 0 or args.step < 1 or args.workers < 1:
        parser.error("--answers must be >= 0, --step and --workers >= 1")

    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}, Python "
          f"{platform.python_version()}; load average {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} before; T2W_HOME empty ({HOME})")
    started = own_cpu()
    if args.answers:
        pairs = spread_batch(args.answers, args.seed)
        described = (f"{len({gold for gold, _, _ in pairs})} domains, the gold and sampled "
                     f"mutants each, seed {args.seed}")
    else:
        pairs = batch(args.domains, args.per_domain, args.seed)
        described = f"{args.domains} domains, the gold and {args.per_domain} mutants each"
    if args.score_batch:
        print(f"batch: {len(pairs)} answers ({described})")
        score_batch_runs(pairs, args.score_batch, args.workers)
        return
    tasks = problem_tasks(pairs)
    expected = expected_costs(tasks)
    order = lpt_order(expected, task_sizes(tasks))
    print(f"batch: {len(pairs)} pairs ({described}), {len(tasks)} tasks (one per gold "
          f"problem); golds prepared in {own_cpu() - started:.1f} CPU-s")

    wall_1, cpu_1, task_cpu, parts_1 = measure(tasks, order, 1, "one")
    total, longest = sum(task_cpu), max(task_cpu)
    ranked = sorted(range(len(tasks)), key=lambda i: -task_cpu[i])
    print(f"\ntask CPU (worker and its children), measured on 1 worker: sum {total:.1f} s, "
          f"median {statistics.median(task_cpu) * 1000:.0f} ms, longest {longest:.2f} s "
          f"(the makespan's lower bound on any number of workers)")
    shown = ranked if args.each else ranked[:10]
    for index in shown:
        task = tasks[index]
        gold_id = next(r.id for r in load_dataset().records if r.domain == task.gold)
        print(f"  {task_cpu[index]:7.3f} s  pair {task.pair:3d} ({gold_id}) problem "
              f"{task.problems[task.index][0] if task.problems else '-'}"
              f" (expected {expected[index]:.3f})")
    edges = (0.01, 0.1, 1.0, 10.0)
    counts = [sum(1 for c in task_cpu if low <= c < high)
              for low, high in zip((0.0, *edges), (*edges, float("inf")))]
    print("  histogram: " + ", ".join(
        f"{label} {count}" for label, count in zip(
            ("<10 ms", "10-100 ms", "0.1-1 s", "1-10 s", ">=10 s"), counts)))

    pair_cpu = [0.0] * len(pairs)
    for index, task in enumerate(tasks):
        pair_cpu[task.pair] += task_cpu[index]
    print("\nprediction: the measured task CPUs through the scheduler "
          "(efficiency = task CPU / (workers x makespan))")
    print(f"  {'workers':>7}  {'LPT by expected cost':>24}  {'by the gold cost alone':>22}  "
          f"{'LPT by true CPU':>20}  {'whole pairs, LPT':>20}")
    predicted = {}
    cost_alone = lpt_order(expected)  # the rule before the problem's size (lpt_order)
    for workers in sorted({*PREDICTED_WORKERS, args.workers}):
        by_expected = lpt_makespan(task_cpu, workers, order)
        by_cost = lpt_makespan(task_cpu, workers, cost_alone)
        ideal = lpt_makespan(task_cpu, workers)
        whole = lpt_makespan(pair_cpu, workers)
        predicted[workers] = (by_expected, efficiency(total, workers, by_expected))
        print(f"  {workers:>7}  {by_expected:8.1f} s, eff {predicted[workers][1]:.2f}  "
              f"{by_cost:8.1f} s, eff {efficiency(total, workers, by_cost):.2f}  "
              f"{ideal:8.1f} s, eff {efficiency(total, workers, ideal):.2f}  "
              f"{whole:8.1f} s, eff {efficiency(total, workers, whole):.2f}")

    # the longest task bounds the makespan: the batch a target efficiency needs around it
    for workers in (16, 64):
        needed = TARGET * workers * longest  # the makespan is at least the longest task
        print(f"  {workers} workers at efficiency {TARGET:g} need at least {needed:.0f} CPU-s "
              f"of tasks beside a longest of {longest:.1f} s ({needed / total:.1f}x this batch)")
    if args.answers:
        print_steps(tasks, task_cpu, expected, args.step)
    if args.predict_only:
        load = os.getloadavg()
        print(f"\nload average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} after "
              f"(1-worker run: {wall_1:.1f} s wall, {cpu_1:.1f} CPU-s)")
        return

    wall_n, cpu_n, _, parts_n = measure(tasks, order, args.workers, "many")
    scores_1, scores_n = merge_all(parts_1), merge_all(parts_n)
    differ = [index for index, (one, many) in enumerate(zip(scores_1, scores_n))
              if comparable(one) != comparable(many)]
    clocked = [index for index in differ if scores_1[index].timeouts or scores_n[index].timeouts]
    print(f"\ntruth on this machine ({len(tasks)} tasks in LPT order, each run from an empty "
          f"T2W_HOME):")
    print(f"  1 worker: {wall_1:.1f} s wall, {cpu_1:.1f} CPU-s (workers and children)")
    print(f"  {args.workers} workers: {wall_n:.1f} s wall, {cpu_n:.1f} CPU-s; speed-up "
          f"{wall_1 / wall_n:.2f}x one worker, efficiency {wall_1 / (args.workers * wall_n):.2f}"
          f" (predicted {total / predicted[args.workers][0] / args.workers:.2f} "
          f"from the task CPUs: {total / predicted[args.workers][0]:.2f}x)")
    print(f"  scores of the two runs identical: {len(pairs) - len(differ)} of {len(pairs)}; "
          f"of the others, {len(clocked)} shaped by a clock (a timeout: such a score may not "
          f"repeat)")
    for index in differ[:5]:
        print(f"    pair {index}: timeouts {scores_1[index].timeouts[:1]} vs "
              f"{scores_n[index].timeouts[:1]}")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} after")


if __name__ == "__main__":
    main()
