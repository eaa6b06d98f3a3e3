"""Benchmark of ``t2w eval``'s scheduler: 101 domains, EC3, concurrency 1, 8 and 32.

A loopback OpenAI-compatible server (tests/llm_server.py) answers every call after a fixed
latency. Each domain needs a seeded number of correction rounds (0-3, some never valid); its
answers are the gold domain broken by text2world.pddl.perturb until the round it is fixed. Each
concurrency level runs in a fresh process (its own cache and memory), through litellm, with
validation and scoring of every round as in a real run.

Printed per level: wall time; the ideal time (the critical path: the items' calls x latency,
scheduled greedily on N slots in run order, zero overhead); their ratio; the CPU time the
run used (validation + scoring of each round, tarski parsing dominates; the scoring
workers are forked from the eval process); the lower bound that CPU time puts on the wall
time with this machine's cores; and the peak memory (RSS) of the eval process. The load
average is printed too: on a shared machine other processes take CPU from the run.

    python bench/eval_bench.py                       # default: latency 0.3 s, levels 1 8 32
    python bench/eval_bench.py --latency 2 --levels 8 32
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
OFFICIAL = REPO.parent / "shared" / "text2world-official" / "test.json"
_DOMAIN_NAME = re.compile(r"(\(\s*define\s*\(\s*domain\s+)([^\s()]+)", re.IGNORECASE)


def build_store(root: Path, count: int, seed: int) -> tuple[Path, dict[str, list[str]]]:
    """A store of ``count`` real domains, each renamed to a unique marker, and the scripted
    answers of each (broken by perturbations until the round it is fixed)."""
    from text2world.pddl import perturb
    from text2world.store.datasets import load_dataset

    source = load_dataset(str(OFFICIAL)) if OFFICIAL.is_file() else load_dataset()
    records = list(source)
    rng = random.Random(seed)
    answers: dict[str, list[str]] = {}
    for index in range(count):
        record = records[index % len(records)]
        marker = f"bench-{index:03d}"
        gold = _DOMAIN_NAME.sub(lambda m: m.group(1) + marker, record.domain, count=1)
        if marker not in gold:
            gold = f"; {marker}\n{gold}"
        (root / "domains").mkdir(parents=True, exist_ok=True)
        (root / "domains" / f"{marker}.pddl").write_text(gold, encoding="utf-8")
        folder = root / "descriptions" / marker
        folder.mkdir(parents=True, exist_ok=True)
        description = record.abstract or f"The {record.name} planning domain."
        (folder / "abstract.md").write_text(f"Domain {marker}.\n{description}",
                                            encoding="utf-8")
        needed = rng.choices([0, 1, 2, 3, 4], weights=[40, 25, 15, 10, 10])[0]
        breakers = [perturb.break_parenthesis, perturb.undefine_predicate]
        script = []
        for round_index in range(needed):
            broken = breakers[round_index % 2](gold, seed=round_index)
            if broken == gold:
                broken = perturb.break_parenthesis(gold, seed=round_index)
            script.append(broken)
        script.append(gold)
        answers[marker] = [f"Step by step.\n\n```pddl\n{text.strip()}\n```\n" for text in script]
    return root, answers


def ideal_time(calls: list[int], latency: float, slots: int) -> tuple[float, float]:
    """(greedy schedule in run order with zero overhead, simple lower bound)."""
    finish = [0.0] * min(slots, len(calls))
    heapq.heapify(finish)
    for count in calls:
        start = heapq.heappop(finish)
        heapq.heappush(finish, start + count * latency)
    makespan = max(finish) if finish else 0.0
    bound = max(max(calls) * latency, sum(calls) * latency / slots) if calls else 0.0
    return makespan, bound


def run_level(store: Path, url: str, concurrency: int, workers: int | None) -> dict:
    """One concurrency level, in this (fresh) process."""
    import resource

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from text2world.tasks.generation.task import EvalOptions, evaluate, plan

    home = Path(tempfile.mkdtemp(prefix="t2w-bench-home-"))
    os.environ["T2W_HOME"] = str(home)
    options = EvalOptions(model="openai/bench-model", api_base=url, dataset=str(store), ec=3,
                          max_concurrency=concurrency, timeout=120, max_retries=2,
                          retry_base_delay=0.05, workers=workers, runs_root=home / "runs",
                          use_cache=False)
    evaluation_plan = plan(options)
    from text2world.model.client import litellm_module

    litellm_module()
    cpu_before = os.times()
    started = time.monotonic()
    result = evaluate(options, evaluation_plan=evaluation_plan)
    wall = time.monotonic() - started
    import multiprocessing

    for worker in multiprocessing.active_children():  # reap the scoring workers so that
        worker.join(30)                                # their CPU time is counted
    cpu_after = os.times()
    by_id = {item["item"]: item for item in result.run.items()}
    calls = [by_id[record.id]["rounds_used"] for record in evaluation_plan.selection]
    cpu_main = (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system)
    cpu = cpu_main + (cpu_after.children_user - cpu_before.children_user) + \
        (cpu_after.children_system - cpu_before.children_system)
    return {"concurrency": concurrency, "wall": wall, "calls": calls, "cpu": cpu,
            "cpu_main": cpu_main,
            "items": len(by_id), "valid_at_round": result.summary["valid_at_round"],
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per call")
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--domains", type=int, default=101)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None,
                        help="validation/scoring processes (default: eval's own choice)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--_level", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--_store", help=argparse.SUPPRESS)
    parser.add_argument("--_url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._level is not None:
        print(json.dumps(run_level(Path(args._store), args._url, args._level, args.workers)))
        return

    from llm_server import Script, ScriptedLLMServer

    work = Path(tempfile.mkdtemp(prefix="t2w-bench-"))
    store, answers = build_store(work / "store", args.domains, args.seed)
    scripts = {marker: Script(texts) for marker, texts in answers.items()}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"eval benchmark: {args.domains} domains, EC3, latency {args.latency:.2f}s per call, "
          f"{cores} cores, load average {os.getloadavg()[0]:.1f}")
    results = []
    with ScriptedLLMServer(scripts, latency=args.latency) as server:
        for level in args.levels:
            command = [sys.executable, __file__, "--_level", str(level), "--_store", str(store),
                       "--_url", server.url]
            if args.workers is not None:
                command += ["--workers", str(args.workers)]
            done = subprocess.run(command, capture_output=True, text=True, cwd=REPO,
                                  env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
            if done.returncode != 0:
                sys.exit(f"level {level} failed:\n{done.stderr[-3000:]}")
            result = json.loads(done.stdout.strip().splitlines()[-1])
            ideal, bound = ideal_time(result["calls"], args.latency, level)
            result.update(ideal=ideal, lower_bound=bound, ratio=result["wall"] / ideal,
                          cpu_bound=result["cpu"] / cores,
                          ratio_cpu_aware=result["wall"] / max(ideal, result["cpu"] / cores),
                          calls_total=sum(result["calls"]))
            results.append(result)
            print(f"  concurrency {level:>3}: wall {result['wall']:7.2f}s  ideal "
                  f"{ideal:7.2f}s  ratio {result['ratio']:5.2f}  | calls {sum(result['calls'])}"
                  f"  CPU {result['cpu']:6.1f}s (eval loop {result['cpu_main']:5.1f}s; "
                  f">= {result['cpu'] / cores:5.1f}s wall on "
                  f"{cores} cores; ratio to max(ideal, CPU/cores) "
                  f"{result['ratio_cpu_aware']:4.2f})  peak RSS {result['peak_rss_mb']:.0f} MB",
                  flush=True)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
