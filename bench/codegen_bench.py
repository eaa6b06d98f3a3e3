"""The simulator's generated code on the store's domains: how many sources, their hash, and the
time of ``applicable()`` in the initial state of each domain's first problem.

Run it on two checkouts to see that a change to ``simulation.codegen`` leaves the code of
ordinary actions as it was (the same hash: the same hot loops) and what it costs:

    PYTHONPATH=/path/to/main python bench/codegen_bench.py
    PYTHONPATH=. python bench/codegen_bench.py
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import time

import text2world.simulation.codegen as codegen
import text2world.simulation.conditions as conditions
from text2world.simulation import SimulationError, simulator_from_text
from text2world.store.datasets import load_dataset


def main() -> None:
    sources: list[str] = []
    compile_source = codegen.compile_cached.__wrapped__

    def recording(source: str, filename: str):
        sources.append(source)
        return compile_source(source, filename)

    codegen.compile_cached = recording  # type: ignore[assignment]
    conditions.compile_cached = recording  # type: ignore[assignment]
    elapsed, calls = 0.0, 0
    for record in load_dataset():
        if not record.problems:
            continue
        try:
            simulator = simulator_from_text(record.domain, record.problems[0].pddl)
            started = time.perf_counter()
            for _ in range(3):
                simulator.applicable(simulator.initial_state)
                calls += 1
            elapsed += time.perf_counter() - started
        except SimulationError:
            continue
    digest = hashlib.sha256("\n#\n".join(sources).encode()).hexdigest()[:16]
    print(f"code: {codegen.__file__}")
    print(f"{len(sources)} generated sources, sha256 {digest}; {calls} applicable() calls in "
          f"{elapsed * 1000:.1f} ms")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
