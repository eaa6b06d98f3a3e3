"""Simulation speed against unified-planning, and the full cross-check sweep.

Speed (default): for every store domain, a seeded random walk on its first problem; at each
visited state both simulators enumerate the applicable ground actions and compute the successors
of up to ``--expand`` of them (the same ones). Prints successor computations per second for ours
and for unified-planning's SequentialSimulator on the same walks, in the same run, and the ratio
(target >= 20). One-time setup (parsing, compiling, UP's grounding) is excluded on both sides.

Cross-check (``--crosscheck``): every store problem, and every released gold on a synthetic
problem (the released set has no problems), walked in both simulators: same applicable actions,
same successors, same step costs. Prints the counts, every mismatch and every skip with its reason.

    python bench/sim_bench.py [--steps 10] [--expand 10] [--domains N]
    python bench/sim_bench.py --crosscheck [--steps 15] [--released-only | --store-only]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from text2world.pddl.model import parse_domain  # noqa: E402
from text2world.simulation import Simulator, parse_problem  # noqa: E402
from text2world.simulation.crosscheck import UPSide, crosscheck_walk, synthetic_problem  # noqa: E402

DATA = ROOT / "data"
OFFICIAL = ROOT.parent / "shared" / "text2world-official" / "test.json"


def store_problems(first_only: bool, after: str = "") -> list[tuple[str, str, str]]:
    jobs = []
    for path in sorted((DATA / "domains").glob("*.pddl")):
        if path.stem <= after:
            continue
        problems = sorted((DATA / "problems" / path.stem).glob("*.pddl"))
        for problem in problems[:1] if first_only else problems:
            jobs.append((f"{path.stem}/{problem.stem}", path.read_text(), problem.read_text()))
    return jobs


def speed(args) -> None:
    jobs = store_problems(first_only=True)[: args.domains]
    ours_time = up_time = 0.0
    ours_count = up_count = 0
    ratios = []
    pruned_time = [0.0, 0.0]  # (ours, UP) on domains where UP's own pruning works
    unpruned = 0
    for key, domain_text, problem_text in jobs:
        domain = parse_domain(domain_text)
        sim = Simulator(domain, parse_problem(domain_text, problem_text))
        up = UPSide(domain_text, problem_text)
        up_state = up.initial_state()
        up.applicable(up_state)  # UP grounds every action on its first call: setup, not timed
        walk = sim.random_walk(args.steps, seed=args.seed)
        rng = random.Random(args.seed)
        plan = []  # per state: the actions to expand
        for state in walk.states:
            options = list(sim.applicable(state))
            plan.append(rng.sample(options, min(args.expand, len(options))))

        start = time.process_time()
        count = 0
        for state, chosen in zip(walk.states, plan):
            sim.applicable(state)
            for action in chosen:
                sim.successor(state, action)
                count += 1
        mine = time.process_time() - start

        start = time.process_time()
        up_states = [up_state]
        for action in walk.actions:  # the walk itself, in UP (not timed: only reaches states)
            up_states.append(up.apply(up_states[-1], action))
        start = time.process_time()
        for state, chosen in zip(up_states, plan):
            list(up.simulator.get_applicable_actions(state))
            for action in chosen:
                up.apply(state, action)
        theirs = time.process_time() - start
        if count:
            ours_time += mine
            up_time += theirs
            ours_count += count
            up_count += count
            ratios.append(theirs / max(mine, 1e-9))
            if up.pruned:
                pruned_time[0] += mine
                pruned_time[1] += theirs
            else:
                unpruned += 1
        print(f"{key:40s} {count:5d} successors  ours {count / max(mine, 1e-9):10.0f}/s  "
              f"UP {count / max(theirs, 1e-9):8.0f}/s  ratio {theirs / max(mine, 1e-9):6.1f}",
              flush=True)
    print()
    print(f"domains: {len(ratios)} with successors; steps {args.steps}, expand {args.expand}, "
          f"seed {args.seed}")
    print(f"ours: {ours_count / ours_time:,.0f} successor computations/s "
          f"(applicable-set enumeration included)")
    print(f"unified-planning SequentialSimulator: {up_count / up_time:,.0f}/s")
    print(f"ratio (total UP time / total ours, same work): {up_time / ours_time:.1f}x "
          f"(target >= 20); per-domain median {statistics.median(ratios):.1f}x, "
          f"min {min(ratios):.1f}x")
    print(f"UP's static-fluent pruning crashes (UP 1.3 bug) and is off on {unpruned} domains; "
          f"ratio on the other {len(ratios) - unpruned}: "
          f"{pruned_time[1] / max(pruned_time[0], 1e-9):.1f}x")


class JobTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise JobTimeout()


def crosscheck(args) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    jobs = []
    if not args.released_only:
        jobs += [("store " + key, d, p) for key, d, p in
                 store_problems(first_only=args.first_problem, after=args.after)]
    if not args.store_only and OFFICIAL.exists():
        records = json.loads(OFFICIAL.read_text())
        ids = [str(r["id"]) for r in records]
        if args.released_from:
            records = records[ids.index(args.released_from):]
        for record in records:
            try:
                domain = parse_domain(record["pddl_domain"])
                problem = synthetic_problem(domain, seed=args.seed)
            except Exception as err:  # noqa: BLE001 - the released set has one broken gold
                print(f"SKIP released {record['id']}: the gold does not parse "
                      f"({type(err).__name__})")
                continue
            jobs.append((f"released {record['id']}", record["pddl_domain"], problem))
    checked = states = successors = 0
    skipped, failed, no_moves = [], [], 0
    start = time.time()
    for key, domain_text, problem_text in jobs:
        signal.alarm(args.job_limit)  # unified-planning can take very long to ground
        try:
            result = crosscheck_walk(domain_text, problem_text, steps=args.steps,
                                     seed=args.seed)
        except JobTimeout:
            skipped.append(f"{key}: more than {args.job_limit}s (unified-planning's grounding)")
            print("SKIP", skipped[-1], flush=True)
            continue
        except Exception as err:  # noqa: BLE001 - report, keep sweeping
            failed.append(f"{key}: {type(err).__name__}: {err}")
            print("ERROR", failed[-1], flush=True)
            continue
        finally:
            signal.alarm(0)
        if result.skipped:
            skipped.append(f"{key}: {result.skipped[:160]}")
            print("SKIP", skipped[-1], flush=True)
            continue
        checked += 1
        states += result.states
        successors += result.successors
        print(f"ok {key}: {result.states} states, {result.successors} successors "
              f"", flush=True)
        no_moves += result.successors == 0
        if result.mismatches:
            failed.append(f"{key}: {result.mismatches}")
            print("MISMATCH", failed[-1], flush=True)
    print()
    print(f"cross-checked {checked} of {len(jobs)} problems in {time.time() - start:.0f}s: "
          f"{states} states, {successors} successors compared, seed {args.seed}, "
          f"{args.steps} steps")
    print(f"mismatches or errors: {len(failed)}; skipped: {len(skipped)}; "
          f"no applicable action at the start: {no_moves}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--expand", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--domains", type=int, default=None)
    parser.add_argument("--crosscheck", action="store_true")
    parser.add_argument("--released-only", action="store_true")
    parser.add_argument("--store-only", action="store_true")
    parser.add_argument("--first-problem", action="store_true",
                        help="cross-check only the first problem of each store domain")
    parser.add_argument("--after", default="", help="resume a sweep after this domain id")
    parser.add_argument("--released-from", default="", help="start at this released id")
    parser.add_argument("--job-limit", type=int, default=120,
                        help="seconds per cross-checked problem (a longer one is skipped)")
    args = parser.parse_args()
    crosscheck(args) if args.crosscheck else speed(args)


if __name__ == "__main__":
    main()
