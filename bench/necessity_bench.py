"""Sweep: remove each action of every store domain and re-solve its problems (Fast Downward).

Fills the committed content cache ``data/necessity-cache.json`` (the tests read it and re-solve a
sample) and prints what the audit counts: actions needed by no problem, actions in no plan, and
the solves done / answered from the cache with the wall time, so the cache's saving is measured
in the same run.

    python bench/necessity_bench.py [--ids a,b] [--workers 2] [--prune] [--cache PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from text2world.store.datasets import data_dir
from text2world.store.necessity import (
    CACHE_NAME,
    SolveCache,
    analyse_domains,
    necessity_problems,
    optional_actions,
    store_domains,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ids", default="", help="comma-separated store ids (default all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--prune", action="store_true",
                        help="drop cache entries the current store does not use")
    args = parser.parse_args(argv)
    data = data_dir()
    cache_path = args.cache or data / CACHE_NAME
    cache = SolveCache(cache_path)
    ids = [i for i in args.ids.split(",") if i] or None
    domains = store_domains(data, ids)
    before = len(cache.entries)
    start = time.perf_counter()
    uses = analyse_domains(domains, cache, workers=args.workers, progress=print)
    wall = time.perf_counter() - start
    cache.save(prune=args.prune and ids is None)
    optional = optional_actions(data)
    actions = sum(len(u.actions) for u in uses)
    none = [(u.id, a) for u in uses for a in u.needed_by_none()]
    no_plan = [(u.id, a) for u in uses for a in u.in_no_plan()]
    problems = [p for u in uses for p in necessity_problems(u, optional.get(u.id, {}))]
    print(f"domains {len(uses)}, actions {actions}, problems "
          f"{sum(len(p) for _, _, p in domains)}")
    print(f"actions needed by no problem: {len(none)} in "
          f"{len({i for i, _ in none})} domains; in no plan: {len(no_plan)}")
    print(f"solved now: {len(cache.entries) - before} (cache had {before}); wall {wall:.1f} s")
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
