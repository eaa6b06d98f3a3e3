"""The problem reward's floors and cost (``scoring.problem_answer.score_problem_answer``, what
``metric="problem"`` and the services pay) on the store: for each domain with two problems or
more, its first problem is the gold, answered four ways:

- ``gold``: the gold itself in a fenced block with prose around it;
- ``rewrite``: a faithful rewrite (objects renamed, facts and goal conjuncts shuffled);
- ``other``: the domain's second store problem, copied (a trivial answer);
- ``empty-goal``: the gold's objects and initial state with the goal ``(and)`` (a trivial one).

Each answer is scored once in this process, from an empty ``T2W_HOME`` (planner caches empty),
and timed in CPU seconds (this process's, plus Fast Downward's processes when the planner is
asked). Prints, per kind, the answers, the mean and range of the rewards, the median and the
90th percentile of the CPU. Expected: 1 for every gold and rewrite, 0 for every trivial one.

    python bench/problem_answer_bench.py [--limit N]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "scoring")]  # the rewrites, repo_paths


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _answers(record, item) -> dict[str, str]:
    from problem_rewrites import renamed, renaming, render

    gold = record.problems[0].pddl
    rng = random.Random(1)
    goal = gold.lower().index("(:goal")
    return {"gold": f"Here is the problem.\n```pddl\n{gold}\n```\nIt has (one) goal.",
            "rewrite": render(item, *renamed(item, renaming(item, rng)), rng),
            "other": record.problems[1].pddl,
            "empty-goal": gold[:goal] + "(:goal (and)))"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="the first N domains")
    limit = parser.parse_args().limit
    os.environ["T2W_HOME"] = tempfile.mkdtemp(prefix="t2w-problem-answer-")
    from problem_rewrites import store_problems

    from text2world.scoring.problem_answer import score_problem_answer
    from text2world.store.datasets import load_dataset

    items = {item.name: item for item in store_problems()}
    records = [r for r in load_dataset() if len(r.problems) >= 2][:limit]
    rewards: dict[str, list[float]] = {}
    seconds: dict[str, list[float]] = {}
    for record in records:
        item = items[f"{record.id}/{record.problems[0].name}"]
        for kind, answer in _answers(record, item).items():
            started = _cpu()
            scored = score_problem_answer(record.domain, record.problems[0].pddl, answer)
            seconds.setdefault(kind, []).append(_cpu() - started)
            rewards.setdefault(kind, []).append(scored.reward)
    print(f"problem answers on {len(records)} store domains (CPU per answer, ms)")
    for kind, values in rewards.items():
        cpu = sorted(seconds[kind])
        p90 = cpu[min(len(cpu) - 1, int(0.9 * len(cpu)))]
        print(f"{kind:>10}: {len(values)} answers, reward mean {statistics.mean(values):.2f} "
              f"(min {min(values):g}, max {max(values):g}), CPU median "
              f"{statistics.median(cpu) * 1000:.0f}, p90 {p90 * 1000:.0f}")


if __name__ == "__main__":
    main()
