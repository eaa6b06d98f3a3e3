"""CPU of the problem-equivalence check (``scoring.problem_equivalence.compare_problems``) per
pair, against a plain tarski parse of the same two problems, on the store's problems.

Each store problem is paired with a faithful rewrite of itself (objects renamed, facts and goal
conjuncts shuffled) and with a mutant whose goal fact names another object of its type (or, for
a goal without arguments, which has a dropped initial fact). Each pair is checked once in this
process from an empty ``T2W_HOME`` (planner caches empty), and timed alone in CPU seconds
(``time.process_time``, this process; Fast Downward's processes, when the planner needs them, are
added from ``RUSAGE_CHILDREN``). Prints the median and the 90th percentile per kind of pair, the
rule that decided, and the median of the tarski parse of both texts. Target: median under 50 ms
CPU per pair.

    python bench/problem_equiv_bench.py [--limit N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "scoring")]  # the rewrites, repo_paths


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _tarski_parse(domain_text: str, problem_text: str) -> None:
    from tarski.io import PDDLReader
    reader = PDDLReader(raise_on_error=True)
    reader.parse_domain_string(domain_text.lower())
    reader.parse_instance_string(problem_text.lower())


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="the first N store problems only")
    args = parser.parse_args()
    os.environ["T2W_HOME"] = tempfile.mkdtemp(prefix="t2w-bench-")
    import logging
    logging.getLogger().setLevel(logging.ERROR)  # tarski's warnings on renamed problems
    from problem_rewrites import mutants, rewrites, store_problems

    from text2world.scoring.problem_equivalence import compare_problems

    items = store_problems()
    if args.limit:
        items = items[:args.limit]
    times: dict[str, list[float]] = {"rewrite": [], "mutant": []}
    parses: list[float] = []
    rules: Counter = Counter()
    verdicts: Counter = Counter()
    for index, item in enumerate(items):
        rewrite = rewrites(item, None, seed=index)["renamed, reordered"]
        changed = mutants(item, seed=index)
        mutant = next((text for name, (text, _, _) in changed.items() if name.startswith("goal")),
                      next(text for name, (text, _, _) in changed.items()
                           if name.startswith("dropped")))
        for kind, text in (("rewrite", rewrite), ("mutant", mutant)):
            start = time.process_time()
            _tarski_parse(item.domain_text, item.text)
            _tarski_parse(item.domain_text, text)
            parses.append(time.process_time() - start)
            start = _cpu()
            verdict = compare_problems(item.domain_text, item.text, text)
            times[kind].append(_cpu() - start)
            rules[(kind, verdict.rule)] += 1
            verdicts[(kind, verdict.equivalent)] += 1
    print(f"problem equivalence on {len(items)} store problems "
          f"(CPU per pair, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    for kind, values in times.items():
        print(f"  {kind:8} median {statistics.median(values) * 1000:6.1f} ms  "
              f"p90 {_quantile(values, 0.9) * 1000:7.1f} ms  "
              f"max {max(values) * 1000:7.1f} ms")
    both = times["rewrite"] + times["mutant"]
    print(f"  all pairs median {statistics.median(both) * 1000:6.1f} ms (target < 50 ms)")
    print(f"  tarski parse of the two problems: median "
          f"{statistics.median(parses) * 1000:.1f} ms")
    for (kind, rule), count in sorted(rules.items(), key=str):
        print(f"  {kind} decided by {rule}: {count}")
    for (kind, equivalent), count in sorted(verdicts.items(), key=str):
        print(f"  {kind} equivalent={equivalent}: {count}")


if __name__ == "__main__":
    main()
