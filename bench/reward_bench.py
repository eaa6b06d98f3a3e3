"""Reward throughput: ``text2world.rewards`` on the store's golds (the released Text2World domains
with their problems) and answers of mixed quality (the noisy reference model's first rounds,
broken by ``pddl.perturb``, its repaired later rounds, actions dropped, the oracle).

Prints, all measured in this run (machine and load printed; compare ratios, not seconds):

1. rewards per CPU-second (semantic metric; CPU of this process and of the planner processes it
   waits for) with the golds prepared (a training run's steady
   state: each gold is prepared once per process), and including the preparation; target >= 20.
   That pass scores the same answers again, so whatever is kept by content (an answer's parse,
   its plans, a planner timeout) is not paid again; hence also the rate on answers not seen
   before (other seeds of the same makers, golds prepared, empty planner caches; the median of
   ``--passes`` passes, each forgetting the answers), and with
   ``--planner-limit S`` the same answers under that option (it changes rewards: how many is
   printed);
2. the floor: the mean reward of trivial answers on the same golds (an empty domain, no PDDL);
   determinism: answers whose reward differs between two passes in this process, and between
   this process and a fresh one with another ``PYTHONHASHSEED`` and empty planner caches (its
   own ``T2W_HOME``); rewards a clock shaped (reason "timeout:"), the only ones that may differ;
3. ``score-batch`` on a local Ray with 2 workers vs 1 on the same 400 lines (wall, each on a
   fresh Ray whose start is not counted); target >= 1.7x;
4. the start-up of ``domain_reward``'s first call in a fresh process (imports, the store, the
   batch's gold prepared), 8 completions of one gold; target < 3 s;
5. with ``--breakdown``, where the CPU of the answers not seen before goes: each answer timed
   on its own, by maker, the costliest, the garbage collector, the main steps.

    python bench/reward_bench.py [--golds N] [--lines 400] [--skip-ray] [--skip-processes]
                                 [--skip-fresh] [--passes 3] [--planner-limit S] [--breakdown]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from text2world.batch_scoring import BatchLine, score_batch
from text2world.model.reference import reference_answer
from text2world.pddl import perturb
from text2world.rewards import domain_reward, forget_answers, resolve_gold, reward_for
from text2world.store.datasets import load_dataset


def mixed_answers(records, per_gold: int) -> list[tuple[str, str]]:
    """(gold id, answer) pairs: for each gold, noisy reference rounds 0..3, a dropped action,
    the oracle, in turn (seeded)."""
    pairs = []
    for record in records:
        makers = [lambda r, k: reference_answer("noisy-oracle", r.domain, r.id, k % 4, seed=k),
                  lambda r, k: f"```pddl\n{perturb.drop_action(r.domain, seed=k)}\n```",
                  lambda r, k: reference_answer("oracle", r.domain, r.id, 0)]
        for k in range(per_gold):
            pairs.append((record.id, makers[k % len(makers)](record, k)))
    return pairs


def fresh_answers(records, per_gold: int, seen: set[str]) -> list[tuple[str, str]]:
    """(gold id, answer) pairs not in ``seen``: the noisy reference model's rounds 0 and 2 and
    dropped actions, with other seeds than ``mixed_answers``'s."""
    return [(gold, answer) for gold, _, answer in fresh_answer_kinds(records, per_gold, seen)]


def fresh_answer_kinds(records, per_gold: int, seen: set[str]) -> list[tuple[str, str, str]]:
    """``fresh_answers`` as (gold id, maker, answer); the maker is "noisy" or "dropped"."""
    found = []
    for record in records:
        for k in range(per_gold):
            if k % 2 == 0:
                kind = "noisy"
                answer = reference_answer("noisy-oracle", record.domain, record.id, k % 4, seed=1000 + k)
            else:
                kind = "dropped"
                answer = f"```pddl\n{perturb.drop_action(record.domain, seed=1000 + k)}\n```"
            if answer not in seen:
                found.append((record.id, kind, answer))
    return found


def cpu_seconds() -> float:
    """CPU seconds of this process, of its waited-for children (Fast Downward's searches) and
    of its reward workers (``text2world.bounded``: the answers are scored there, their planner
    processes included)."""
    from text2world.rewards import in_workers, reward_workers

    times = os.times()
    workers = reward_workers().cpu() if in_workers() else 0.0
    return time.process_time() + times.children_user + times.children_system + workers


def rewards_per_cpu_second(pairs: list[tuple[str, str]]) -> None:
    golds = sorted({gold for gold, _ in pairs})
    started = cpu_seconds()
    first = domain_reward([answer for _, answer in pairs], gold_id=[gold for gold, _ in pairs])
    cold = cpu_seconds() - started
    started = cpu_seconds()
    again = domain_reward([answer for _, answer in pairs], gold_id=[gold for gold, _ in pairs])
    warm = cpu_seconds() - started
    differing = [(gold, a, b) for (gold, _), a, b in zip(pairs, first, again) if a != b]
    print(f"answers whose reward differed between the two passes: {len(differing)} "
          f"{differing[:5]}  [target 0]")
    verdicts: dict[str, int] = {}
    for detail in domain_reward.last_details:
        verdicts[detail.verdict or ("not executable" if not detail.executable else "-")] = \
            verdicts.get(detail.verdict or ("not executable" if not detail.executable else "-"), 0) + 1
    print(f"answers: {len(pairs)} on {len(golds)} golds; mean reward {sum(first) / len(first):.3f}; "
          f"verdicts {json.dumps(verdicts, sort_keys=True)}")
    print(f"rewards per CPU-second, golds prepared: {len(pairs) / warm:.1f} "
          f"({warm:.2f} CPU-s)  [target >= 20]")
    print(f"rewards per CPU-second, golds prepared in the run: {len(pairs) / cold:.1f} ({cold:.2f} CPU-s)")
    timed_out = [detail for detail in domain_reward.last_details if detail.timed_out]
    print(f"rewards a clock shaped (reason 'timeout:'): {len(timed_out)} "
          f"{[d.reason[:120] for d in timed_out[:3]]}")
    trivial = {"empty domain": "(define (domain d) (:requirements :strips))", "no PDDL": "I do not know."}
    for name, answer in trivial.items():
        values = [reward_for(resolve_gold(gold), answer).reward for gold in golds]
        print(f"floor ({name}): mean reward {sum(values) / len(values):.3f}")


def fresh_rate(pairs: list[tuple[str, str]], planner_limit: float | None,
               passes: int = 1) -> list[float]:
    """Rewards per CPU-second on answers this process has not scored (the golds prepared),
    with empty planner caches (a temporary ``T2W_HOME``, the planner's memory cleared) and no
    answer's parse kept, ``passes`` times (each pass forgets the answers again; the median is
    the figure: the same work measured 17 to 21 per CPU-second in one hour on a 2-core machine);
    the rewards (the same in every pass, or the bench says so)."""
    runs, values = [], None
    for _ in range(passes):
        forget_answers()
        previous = os.environ.get("T2W_HOME")
        with tempfile.TemporaryDirectory() as home:
            os.environ["T2W_HOME"] = home
            try:
                started, children = cpu_seconds(), os.times()
                rewards = domain_reward([answer for _, answer in pairs],
                                        gold_id=[gold for gold, _ in pairs],
                                        planner_limit=planner_limit)
                spent, after = cpu_seconds() - started, os.times()
            finally:
                if previous is None:
                    os.environ.pop("T2W_HOME", None)
                else:
                    os.environ["T2W_HOME"] = previous
        if values is not None and rewards != values:
            changed = sum(a != b for a, b in zip(values, rewards))
            print(f"  rewards that differ between passes on answers not seen before: {changed}")
        values = rewards
        planner = (after.children_user + after.children_system - children.children_user
                   - children.children_system)
        runs.append((len(pairs) / spent, spent, planner))
    clocked = sum(detail.timed_out for detail in domain_reward.last_details)
    option = "default planner limit" if planner_limit is None else \
        f"planner_limit={planner_limit:g} (an option that changes rewards)"
    rate, spent, planner = sorted(runs)[len(runs) // 2]
    each = f"; passes: {', '.join(f'{r:.1f}' for r, _, _ in runs)}" if passes > 1 else ""
    print(f"rewards per CPU-second, {len(pairs)} answers not seen before, golds prepared, {option}: "
          f"{rate:.1f}{' (median pass)' if passes > 1 else ''} ({spent:.2f} CPU-s, {planner:.2f} of "
          f"them in Fast Downward's processes){each}; rewards a clock shaped: {clocked}; mean "
          f"reward {sum(values) / len(values):.3f}")
    return values


def breakdown(kinds: list[tuple[str, str, str]], costliest: int = 5) -> None:
    """Where the CPU of answers not seen before goes (the ``fresh_rate`` setting): each answer
    timed on its own (this process and the planner processes it waits for), by maker; the
    costliest answers; the cyclic garbage collector's collections; and the time inside the
    main steps (validation, parse, the planner front's search, Fast Downward's runs, alignment,
    simulation along the gold's trajectories), each counted without the steps it calls."""
    # measured in this process (its functions are timed here): no reward workers
    os.environ["T2W_REWARD_WORKERS"] = "0"
    import gc
    from collections import Counter

    from text2world.pddl import model, validation
    from text2world.planning import front
    from text2world.scoring import semantic, semantic_pair

    forget_answers()
    inside: Counter = Counter()
    calls: Counter = Counter()
    nested: list[float] = []

    def timed(name, function):
        def wrapper(*args, **kwargs):
            started = time.process_time()
            nested.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - started
                inner = nested.pop()
                inside[name] += spent - inner
                calls[name] += 1
                if nested:
                    nested[-1] += spent
        return wrapper

    steps = [(validation, "validate", "validation (tarski's parse)"),
             (model, "parse_domain", "parse into our model"),
             (front, "search_plan", "in-process planner search, h^2 included"),
             (front, "fast_downward_with_prover", "Fast Downward (this process's side)"),
             (semantic, "aligned_prediction", "alignment"),
             (semantic_pair.PairScorer, "_trajectory", "simulation along the gold's trajectories"),
             (semantic_pair.PairScorer, "_gold_answers_trajectory",
              "the same through the gold's answers (the gold itself, or with actions left out)")]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in steps]
    collections: dict[int, list[float]] = {}
    began = [0.0]

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            slot = collections.setdefault(info["generation"], [0, 0.0])
            slot[0] += 1
            slot[1] += time.process_time() - began[0]

    rows = []
    previous = os.environ.get("T2W_HOME")
    with tempfile.TemporaryDirectory() as home:
        os.environ["T2W_HOME"] = home
        for owner, name, label in steps:
            setattr(owner, name, timed(label, getattr(owner, name)))
        gc.callbacks.append(on_collection)
        try:
            for gold, kind, answer in kinds:
                started, children = cpu_seconds(), os.times()
                detail = reward_for(resolve_gold(gold), answer)
                after = os.times()
                rows.append((cpu_seconds() - started, after.children_user + after.children_system
                             - children.children_user - children.children_system,
                             gold, kind, detail.reward, detail.reason))
        finally:
            gc.callbacks.remove(on_collection)
            for owner, name, function in originals:
                setattr(owner, name, function)
            if previous is None:
                os.environ.pop("T2W_HOME", None)
            else:
                os.environ["T2W_HOME"] = previous
    total, planner = sum(r[0] for r in rows), sum(r[1] for r in rows)
    print(f"breakdown, {len(rows)} answers not seen before, each timed on its own: {total:.2f} CPU-s "
          f"({len(rows) / total:.1f} per CPU-s), {planner:.2f} in Fast Downward's processes")
    for kind in sorted({r[3] for r in rows}):
        mine = [r for r in rows if r[3] == kind]
        print(f"  {kind}: {len(mine)} answers, {sum(r[0] for r in mine):.2f} CPU-s, "
              f"{sum(r[1] for r in mine):.2f} in Fast Downward")
    rows.sort(key=lambda r: -r[0])
    top = rows[:costliest]
    rest = rows[costliest:]
    print(f"  the {len(top)} costliest: {sum(r[0] for r in top):.2f} CPU-s; the other {len(rest)}: "
          f"{sum(r[0] for r in rest):.2f} CPU-s ({len(rest) / max(sum(r[0] for r in rest), 1e-9):.1f} "
          "per CPU-s)")
    for seconds, fd, gold, kind, reward, reason in top:
        print(f"    {seconds:.2f} CPU-s ({fd:.2f} Fast Downward) {gold} ({kind}): reward {reward:.3f}; "
              f"{reason[:90]}")
    for generation in sorted(collections):
        count, seconds = collections[generation]
        print(f"  garbage collector, generation {generation}: {count} collections, {seconds:.2f} CPU-s")
    for label, seconds in inside.most_common():
        print(f"  in {label}: {seconds:.2f} CPU-s ({calls[label]} calls)")


def across_processes(pairs: list[tuple[str, str]]) -> None:
    """The rewards of a fresh process (another hash seed, empty caches) against this one's."""
    here = [d.to_dict() for d in domain_reward.last_details]
    script = ("import json, sys\n"
              "from text2world.rewards import domain_reward\n"
              "pairs = json.load(sys.stdin)\n"
              "domain_reward([a for _, a in pairs], gold_id=[g for g, _ in pairs])\n"
              "print(json.dumps([d.to_dict() for d in domain_reward.last_details]))\n")
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PYTHONHASHSEED": seed, "T2W_HOME": home}
        there = json.loads(subprocess.run([sys.executable, "-c", script], input=json.dumps(pairs),
                                          capture_output=True, text=True, check=True, env=env).stdout)
    differing = [(gold, a, b) for (gold, _), a, b in zip(pairs, here, there) if a != b]
    rewards = [(gold, a["reward"], b["reward"]) for gold, a, b in differing if a["reward"] != b["reward"]]
    unflagged = [gold for gold, a, b in differing if "timeout:" not in a["reason"] + b["reason"]]
    print(f"answers whose reward, verdict, reason or scores differ in a fresh process (PYTHONHASHSEED "
          f"{seed}, empty T2W_HOME): {len(differing)}, of which not flagged 'timeout:' {len(unflagged)} "
          f"{unflagged[:5]}  [target 0]; rewards that differ: {len(rewards)} {rewards[:5]}")


def ray_speedup(pairs: list[tuple[str, str]], lines: int) -> None:
    import ray

    from text2world.integrations.ray_batch import run_on_ray

    batch = [BatchLine(f"line-{i}", gold, answer) for i, (gold, answer) in enumerate(pairs[:lines])]
    outputs, seconds = [], {}
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            out = Path(tempfile.mkdtemp()) / "out.jsonl"
            started = time.perf_counter()
            score_batch(batch, out, runner=run_on_ray(workers=workers))
            seconds[workers] = time.perf_counter() - started
            outputs.append(out.read_text(encoding="utf-8"))
        finally:
            ray.shutdown()
    assert outputs[0] == outputs[1], "Ray with 1 and 2 workers must write the same lines"
    print(f"score-batch on Ray, {len(batch)} lines: 1 worker {seconds[1]:.1f} s, 2 workers "
          f"{seconds[2]:.1f} s: {seconds[1] / seconds[2]:.2f}x  [target >= 1.7x]; identical lines")


def first_call_startup(gold: str) -> None:
    script = (
        "import time; started = time.perf_counter()\n"
        "from text2world.rewards import domain_reward\n"
        "from text2world.store.datasets import load_dataset\n"
        f"answer = load_dataset().get({gold!r}).domain\n"
        f"domain_reward([answer] * 8, gold_id=[{gold!r}] * 8)\n"
        "from text2world.rewards import reward_workers\n"
        "print(time.perf_counter() - started, time.process_time() + reward_workers().cpu())\n")
    runs = sorted(tuple(map(float, subprocess.run([sys.executable, "-c", script], capture_output=True,
                                                  text=True, check=True).stdout.split()))
                  for _ in range(3))
    print(f"first domain_reward call in a fresh process ({gold}, 8 completions): median "
          f"{runs[1][0]:.2f} s wall, {runs[1][1]:.2f} CPU-s (of {', '.join(f'{r[0]:.2f}' for r in runs)} s)"
          "  [target < 3 s]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--golds", type=int, default=None, help="golds used (default: all)")
    parser.add_argument("--per-gold", type=int, default=4, help="answers per gold")
    parser.add_argument("--lines", type=int, default=400, help="lines for the Ray comparison")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--skip-processes", action="store_true", help="no fresh-process comparison")
    parser.add_argument("--skip-fresh", action="store_true", help="no rate on answers not seen before")
    parser.add_argument("--passes", type=int, default=3,
                        help="passes over the answers not seen before (the median is printed)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also where the CPU of answers not seen before goes: per answer, by "
                             "maker, the costliest, the garbage collector, the main steps")
    parser.add_argument("--planner-limit", type=float, default=None,
                        help="also the rate on answers not seen before under this planner_limit "
                             "(CPU-s per Fast Downward run on the answers' plans; changes rewards)")
    args = parser.parse_args()
    records = [r for r in load_dataset() if r.problems][:args.golds]
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}")
    pairs = mixed_answers(records, args.per_gold)
    rewards_per_cpu_second(pairs)
    if not args.skip_processes:
        across_processes(pairs)
    if not args.skip_fresh:
        kinds = fresh_answer_kinds(records, args.per_gold, {answer for _, answer in pairs})
        fresh = [(gold, answer) for gold, _, answer in kinds]
        default = fresh_rate(fresh, None, args.passes)
        if args.planner_limit is not None:
            limited = fresh_rate(fresh, args.planner_limit)
            changed = [(gold, a, b) for (gold, _), a, b in zip(fresh, default, limited) if a != b]
            print(f"rewards planner_limit={args.planner_limit:g} changed on those answers: {len(changed)} "
                  f"{[(gold, round(a, 4), round(b, 4)) for gold, a, b in changed[:5]]}")
        if args.breakdown:
            breakdown(kinds)
    first_call_startup(records[0].id)
    if not args.skip_ray:
        ray_pairs = pairs if len(pairs) >= args.lines else mixed_answers(records, -(-args.lines // len(records)))
        ray_speedup(ray_pairs, args.lines)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
