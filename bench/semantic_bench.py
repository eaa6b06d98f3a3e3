"""Semantic scoring over the store: mutant detection and time per pair.

For each store domain: the gold side is prepared once (cached: gold plans, sampled states), then
the gold itself, a consistent renaming of its variables, and its single-point mutants (drop a
precondition literal, drop an add or delete effect, swap add/delete, swap two parameters) are
scored. Swapping two parameters only reorders them, which the alignment undoes: such a mutant
is checked like the identity pairs (all metrics 1.0), not as a behaviour change. Each mutant's
ground truth comes from an independent breadth-first comparison of the reachable states
(``text2world.scoring.mutants.behaviour_differs``, bounded by ``--bfs-states``).

Prints: the share of behaviour-changing mutants detected (some metric < 1; target 100%), the
share of all mutants detected, failures of the identity pairs, the CPU time per pair (this
process plus the Fast Downward children; median, target <= 0.05 s, and p90, target <= 0.2 s)
with the Fast Downward share of it, and the share of pairs (and of planned problems) whose
plan came from Fast Downward because the in-process search reached its bound
(``text2world.planning.front``).

With ``--slowest N`` it lists the N pairs that took the most CPU, with each problem's planner
and plan-validity reason, and it prints the p90 of the pair CPU less the planner's time.

    python bench/semantic_bench.py [--domains 25] [--per-domain 4] [--seed 0] [--slowest 25]
    python bench/semantic_bench.py --all          # every mutant of every domain (long)
    python bench/semantic_bench.py --jobs 16      # throughput: pairs per second per core

With ``--jobs N`` it measures throughput instead: the same pairs (golds prepared in the parent
first, so each worker inherits them), scored by N forked worker processes at once, printing
pairs per second and pairs per second per core (N cores busy) with the machine and load.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A fresh home: the planner's disk cache must not hide Fast Downward's time from the figures.
os.environ["T2W_HOME"] = tempfile.mkdtemp(prefix="t2w-semantic-bench-")

from text2world.planning.front import FALLBACK  # noqa: E402
from text2world.scoring.mutants import behaviour_differs, mutants, rename  # noqa: E402
from text2world.scoring.semantic import METRICS, prepare_gold, semantic_score  # noqa: E402
from text2world.simulation import parse_problem  # noqa: E402
from text2world.store.datasets import load_dataset, store_problems  # noqa: E402


def cpu() -> tuple[float, float]:
    """(this process, finished children) CPU seconds."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def detected(score) -> bool:
    return not score.ok or any(v is not None and v < 1.0 for v in score.metrics().values())


def perfect(score) -> bool:
    return score.ok and all(v == 1.0 for v in score.metrics().values())


_PAIRS: list[tuple[str, str, list]] = []  # (gold, prediction, problems), inherited by fork


def _score_pair(index: int) -> bool:
    gold, text, problems = _PAIRS[index]
    return semantic_score(gold, text, problems).ok


def throughput(args) -> None:
    """``--jobs N``: pairs per second (and per core) with N forked scoring processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    records = sorted(load_dataset().records, key=lambda r: r.id)
    step = max(1, len(records) // args.domains)
    rng = random.Random(args.seed)
    for record in records[::step][: args.domains]:
        gold_text, problems = store_problems(record.id)
        cache = prepare_gold(gold_text, problems)  # in the parent: workers inherit it
        candidates = mutants(cache.domain)
        chosen = rng.sample(candidates, min(args.per_domain, len(candidates)))
        _PAIRS.extend((gold_text, text, problems)
                      for text in [gold_text] + [m.domain.to_pddl() for m in chosen])
    work = range(len(_PAIRS))  # each pair once: a repeat would find its plans cached
    load = os.getloadavg()[0]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        list(pool.map(abs, range(args.jobs)))  # every worker started before the clock
        started = time.monotonic()
        scored = sum(1 for _ in pool.map(_score_pair, work, chunksize=1))
        wall = time.monotonic() - started
    rate = scored / wall
    print(f"{scored} pairs ({len(_PAIRS)} distinct) with {args.jobs} worker processes on "
          f"{os.cpu_count()} cores: {rate:.1f} pairs/s, {rate / args.jobs:.1f} pairs/s per core "
          f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", type=int, default=10, help="N store domains, spread over the store")
    parser.add_argument("--per-domain", type=int, default=4, help="mutants sampled per domain")
    parser.add_argument("--all", action="store_true", help="every mutant of every domain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bfs-states", type=int, default=1500)
    parser.add_argument("--slowest", type=int, default=0,
                        help="list the N pairs that took the most CPU, with their planners")
    parser.add_argument("--jobs", type=int, default=0,
                        help="throughput with N worker processes (pairs/s/core) instead")
    args = parser.parse_args()
    if args.jobs:
        throughput(args)
        return

    # The alignment's assignment solver loads scipy (0.3-0.4 s) the first time a pair needs it:
    # a once-per-process start-up cost (bench/startup_bench.py), not a pair's, so it is paid here
    import scipy.optimize  # noqa: F401
    import scipy.sparse  # noqa: F401

    records = sorted(load_dataset().records, key=lambda r: r.id)
    if not args.all:
        step = max(1, len(records) // args.domains)
        records = records[::step][: args.domains]
    rng = random.Random(args.seed)
    pair_cpu, planner_cpu, identity_failures, misses = [], [], [], []
    pair_labels: list[str] = []
    unplanned_cpu: list[float] = []  # pair CPU less the planner's time (wall: an estimate)
    changing = changing_detected = total = total_detected = unknown = 0
    prepare_cpu = 0.0
    fallback_pairs = planned = fallback_problems = 0
    started = time.time()
    for record in records:
        gold_text, problems = store_problems(record.id)
        before = cpu()
        cache = prepare_gold(gold_text, problems)
        after = cpu()
        prepare_cpu += sum(after) - sum(before)
        parsed = [parse_problem(gold_text, text) for _, text in problems]
        pairs = [("self", None, gold_text),
                 ("renamed-variables", None,
                  rename(cache.domain, actions=False, predicates=False, types=False).to_pddl()),
                 ("renamed-everything", None, rename(cache.domain).to_pddl())]
        candidates = mutants(cache.domain)
        chosen = candidates if args.all else rng.sample(
            candidates, min(args.per_domain, len(candidates)))
        pairs += [(f"{m.kind} {m.action} {m.detail}", m, m.domain.to_pddl()) for m in chosen]
        for label, mutant, text in pairs:
            before = cpu()
            score = semantic_score(gold_text, text, gold_cache=cache)
            after = cpu()
            pair_cpu.append(sum(after) - sum(before))
            planner_cpu.append(after[1] - before[1])
            unplanned_cpu.append(max(0.0, pair_cpu[-1] - score.planner_seconds))
            planners = [p.planner for p in score.problems if p.planner]
            pair_labels.append(f"{record.id} {label}: " + "; ".join(
                f"{p.name} {p.planner or '-'} ({p.plan_reason[:60]})" for p in score.problems))
            planned += len(planners)
            fallen = sum(p.startswith(FALLBACK) for p in planners)
            fallback_problems += fallen
            fallback_pairs += fallen > 0
            # swapping two parameters only reorders the action's parameters: a faithful
            # rewrite since the alignment maps parameter orders (issue 25), so it must score 1.0
            if mutant is None or mutant.kind == "swap-parameters":
                if not perfect(score):
                    identity_failures.append(f"{record.id} {label}: {score.metrics()} "
                                             f"{score.reason}")
                continue
            total += 1
            hit = detected(score)
            total_detected += hit
            truth = behaviour_differs(cache.domain, mutant.domain, parsed,
                                      max_states=args.bfs_states)
            if truth is not None:
                changing += 1
                changing_detected += hit
                if not hit:
                    misses.append(f"{record.id} {label}: differs ({truth}) but scored "
                                  f"{score.metrics()}")
            elif not hit:
                unknown += 1  # same behaviour on every explored reachable state
        print(f"{record.id:28s} {len(pairs):3d} pairs  median so far "
              f"{statistics.median(pair_cpu):.2f}s", flush=True)

    print()
    for line in identity_failures:
        print("IDENTITY NOT 1.0:", line)
    for line in misses:
        print("MISSED:", line)
    print(f"domains {len(records)}, mutants {total} (seed {args.seed}; "
          f"{'all' if args.all else f'{args.per_domain} sampled per domain'}), "
          f"wall {time.time() - started:.0f}s")
    print(f"behaviour-changing mutants (BFS <= {args.bfs_states} states per problem): "
          f"{changing}, detected {changing_detected} "
          f"({100 * changing_detected / max(changing, 1):.1f}%; target 100%)")
    print(f"all mutants detected: {total_detected}/{total} "
          f"({100 * total_detected / max(total, 1):.1f}%); "
          f"undetected and no difference on explored states: {unknown}")
    print(f"identity pairs (self, renamed variables, renamed everything, swapped parameters) "
          f"not scoring 1.0: {len(identity_failures)}")
    median = statistics.median(pair_cpu)
    p90 = sorted(pair_cpu)[int(0.9 * (len(pair_cpu) - 1))]
    print(f"CPU per pair (gold side cached): median {median:.3f}s (target <= 0.05), p90 "
          f"{p90:.3f}s (target <= 0.2); Fast Downward inside it: median "
          f"{statistics.median(planner_cpu):.3f}s, total share "
          f"{sum(planner_cpu) / max(sum(pair_cpu), 1e-9):.0%}; pair / Fast Downward time "
          f"{sum(pair_cpu) / max(sum(planner_cpu), 1e-9):.2f}")
    rest = sorted(unplanned_cpu)[int(0.9 * (len(unplanned_cpu) - 1))]
    print(f"without planning (pair CPU less the planner's wall time, so at most this): p90 "
          f"{rest:.3f}s: the simulation and comparison alone")
    print(f"planner: Fast Downward fallback in {fallback_pairs} of {len(pair_cpu)} pairs "
          f"({100 * fallback_pairs / max(len(pair_cpu), 1):.1f}%), {fallback_problems} of "
          f"{planned} planned problems; the others planned in-process (or read from cache)")
    if args.slowest:
        print(f"slowest {args.slowest} pairs (CPU s, problems: planner (plan validity)):")
        for seconds, line in sorted(zip(pair_cpu, pair_labels), reverse=True)[:args.slowest]:
            print(f"  {seconds:.3f}  {line}")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"gold side (once per domain): {prepare_cpu / len(records):.2f}s CPU per domain; "
          f"metrics: {', '.join(METRICS)}")


if __name__ == "__main__":
    main()
