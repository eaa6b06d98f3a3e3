"""The main commands on their defaults over the whole store, as
tests/project/test_default_paths.py runs them: wall seconds and CPU seconds (user + system,
child processes included: the scoring workers and Fast Downward) of each, in a fresh working
folder with a fresh ``$T2W_HOME``.

``--propose`` adds ``t2w wm propose --model reference/oracle`` over the whole store (CI runs it
on the first 3 domains: see the test's docstring); ``--only`` picks steps by name. The machine
(cores) and the load average before and after are printed: on a shared machine other
processes stretch the wall figures, so compare CPU seconds.

    python bench/default_paths_bench.py [--propose] [--only eval-noisy,wm-build]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (name, t2w arguments): the order of the test, later steps read earlier runs
STEPS: list[tuple[str, list[str]]] = [
    ("eval-noisy", ["eval", "--model", "reference/noisy-oracle", "--ec", "3", "--run-id", "noisy",
                    "--no-progress"]),
    ("eval-oracle", ["eval", "--model", "reference/oracle", "--run-id", "oracle", "--no-progress"]),
    ("wm-build", ["wm", "build", "--out", "items.jsonl"]),
    *[(f"wm-{task}", ["wm", task, "--model", "reference/oracle", "--run-id", f"wm-{task}"])
      for task in ("next-state", "verify", "verify-rollout", "plan")],
    ("wm-propose-3", ["wm", "propose", "--model", "reference/oracle", "--run-id", "wm-propose-3",
                      "--limit-domains", "3"]),
    ("contamination", ["contamination", "--model", "reference/oracle", "--run-id", "probe"]),
    ("report", ["report", "noisy"]),
    ("report-wm", ["report", "wm-next-state"]),
    ("compare", ["compare", "runs/noisy", "runs/oracle"]),
    ("view-bundle", ["view", "--bundle", "bundle"]),
]
PROPOSE_WHOLE = ("wm-propose", ["wm", "propose", "--model", "reference/oracle", "--run-id",
                                "wm-propose"])


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_step(args: list[str], work: Path, env: dict[str, str]) -> tuple[int, float, float]:
    """(exit code, wall seconds, CPU seconds with its children) of one ``t2w`` process."""
    cpu, started = children_cpu(), time.monotonic()
    done = subprocess.run([sys.executable, "-m", "text2world.cli", *args], cwd=work, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
    return done.returncode, time.monotonic() - started, children_cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--propose", action="store_true", help="also propose over the whole store")
    parser.add_argument("--only", default="", help="comma-separated step names (all)")
    args = parser.parse_args(argv)
    steps = STEPS + ([PROPOSE_WHOLE] if args.propose else [])
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {name for name, _ in steps}
        if unknown:
            parser.error(f"unknown step(s): {', '.join(sorted(unknown))}")
        steps = [s for s in steps if s[0] in wanted]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {platform.machine()}, {cores} cores, Python {platform.python_version()}; "
          f"load average before: {os.getloadavg()[0]:.1f}")
    failed = 0
    total_wall = total_cpu = 0.0
    with tempfile.TemporaryDirectory(prefix="t2w-default-paths-") as folder:
        work = Path(folder)
        env = {k: v for k, v in os.environ.items() if not k.startswith("T2W_")}
        env.update(T2W_HOME=str(work / "home"),
                   PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p))
        for name, t2w_args in steps:
            code, wall, cpu = run_step(t2w_args, work, env)
            total_wall, total_cpu = total_wall + wall, total_cpu + cpu
            failed += code != 0
            print(f"{name:<16} {wall:8.1f} s wall {cpu:8.1f} CPU-s"
                  + (f"  FAILED (exit {code})" if code else ""), flush=True)
    print(f"{'total':<16} {total_wall:8.1f} s wall {total_cpu:8.1f} CPU-s; "
          f"load average after: {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
