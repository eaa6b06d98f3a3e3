"""``t2w eval --task problem`` on the whole store with the reference models, from an empty
``T2W_HOME``: wall and CPU seconds (the command's process and its scoring workers, Fast
Downward's included), and parseable / solvable / equivalent per correction round with their
95% intervals, beside the floors of the trivial answers. The figures of docs/tasks/problems.md.

    python bench/problem_task_bench.py [--models reference/noisy-oracle,reference/oracle]
        [--description explicit] [--size both] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from first_command_bench import machine  # bench/ is on the path of a bench run


def _pct(interval: dict) -> str:
    mean, low, high = interval.get("mean"), interval.get("low"), interval.get("high")
    if mean is None:
        return "-"
    return f"{100 * mean:.1f} [{100 * (low or 0):.1f}, {100 * (high or 0):.1f}]"


def run(model: str, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "T2W_HOME": str(Path(home) / "home"),
               "T2W_RUNS_DIR": str(Path(home) / "runs")}
        command = [sys.executable, "-m", "text2world.cli", "eval", "--task", "problem",
                   "--model", model, "--ec", "3", "--split", "all", "--description",
                   args.description, "--size", args.size, "--no-progress", "--quiet"]
        if args.limit:
            command += ["--limit", str(args.limit)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"{model}: exit {done.returncode}: {done.stderr[-2000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        (summary_path,) = (Path(home) / "runs").glob("problem__*/summary.json")
        summary = json.loads(summary_path.read_text())
    print(f"{model}: {summary['finished_items']} items ({args.description}, {args.size}), "
          f"wall {wall:.0f} s, CPU {cpu:.0f} s (its processes and their children), "
          f"{summary['calls']} calls; load {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    for row in summary["per_round"]:
        print(f"  EC_{row['round']}: " + ", ".join(
            f"{metric} {_pct(row[metric])}" for metric in ("parseable", "solvable", "equivalent")))
    for name, row in summary["floors"].items():
        print(f"  floor {name}: " + ", ".join(
            f"{metric} {_pct(row[metric])}" for metric in ("parseable", "solvable", "equivalent")))
    print(f"  decided by: {summary['rules']}; open: {summary['undecided']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="reference/noisy-oracle,reference/oracle")
    parser.add_argument("--description", default="explicit")
    parser.add_argument("--size", default="both")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    print(f"machine: {machine()}; T2W_HOME empty for each model")
    for model in args.models.split(","):
        run(model, args)


if __name__ == "__main__":
    main()
