"""Worlds per CPU-minute of ``t2w worlds generate``, planning and every check included.

Runs the command as a fresh process with a fresh ``$T2W_HOME`` (nothing cached) and counts
the CPU seconds of that process and its pool's workers (user + system, children included),
then prints the worlds per CPU-minute, the CPU seconds per world and what 1,000 worlds would
cost at that rate. The wall time is printed too, with the load average: on a shared machine
other processes stretch it, not the CPU time.

    python bench/worlds_bench.py [--count 300] [--seed 1] [--workers 2]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="t2w-worlds-bench-") as folder:
        out = Path(folder) / "worlds"
        env = {**os.environ, "T2W_HOME": str(Path(folder) / "home")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "text2world.cli", "worlds", "generate",
                        "--seed", str(args.seed), "--count", str(args.count), "--out", str(out),
                        "--workers", str(args.workers), "--quiet"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        generator = json.loads((out / "manifest.json").read_text())["generator"]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"worlds: {args.count} (seed {args.seed}, {args.workers} workers, "
          f"{len(generator['dropped'])} draws dropped, {generator['structures']} structures)")
    print(f"CPU: {cpu:.1f} s ({cpu / args.count:.3f} CPU-s per world)")
    print(f"worlds per CPU-minute: {60 * args.count / cpu:.0f}")
    print(f"1,000 worlds at this rate: {1000 * cpu / args.count / 60:.1f} CPU-minutes")
    print(f"wall: {wall:.1f} s (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
