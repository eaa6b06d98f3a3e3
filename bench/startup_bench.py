"""Start-up cost of ``t2w eval``: a 1-item run, from launching the command to its first model
call, and in all.

Two models, each run ``--repeat`` times as a fresh process with a fresh ``$T2W_HOME`` (so no
answer comes from the cache):

* ``loopback``: ``openai/test-model`` through litellm against tests/llm_server.py on
  127.0.0.1, answering the item's gold domain after ``--latency`` seconds. The first call is
  the moment the server receives the request; the model's time is what the server spent
  answering (measured server-side).
* ``reference``: ``reference/oracle`` (offline). The first call is the moment the reference
  model is asked for its answer (a wrapper times ``text2world.model.reference.reference_answer``).

Printed per model (median over the repeats): time to the first call, the model's time, the
total wall time, the start-up cost = total - model time (target: at most 3 s), and the CPU
seconds the eval process used (user + system, children included: the Fast Downward runs
that plan the gold's problems for semantic scoring, about 1 CPU-s on the other core while
the eval process imports litellm; the loopback model's answers cost it no CPU). On a shared
machine other processes stretch every wall figure, so the CPU time, and the CPU time of a
bare ``import litellm`` measured in the same run, are printed too, with the load average.
The bare import is the reference for what any call costs, not a strict floor: ``t2w eval``
imports litellm with the garbage collector paused (``llm.litellm_module``), about a quarter
less CPU, and then also imports the OpenAI client at the first call.

    python bench/startup_bench.py [--repeat 3] [--latency 0.5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

# Runs the CLI; records when the reference model is first asked, and for how long it works.
WRAPPER = """
import json, os, sys, time
from text2world.model import reference as reference_models
marks = {"first": None, "model": 0.0}
real = reference_models.reference_answer
def timed(*args, **kwargs):
    started = time.time()
    if marks["first"] is None:
        marks["first"] = started
    try:
        return real(*args, **kwargs)
    finally:
        marks["model"] += time.time() - started
reference_models.reference_answer = timed
import atexit
atexit.register(lambda: open(os.environ["T2W_BENCH_MARKS"], "w").write(json.dumps(marks)))
from text2world.cli import app
sys.argv = ["t2w", *sys.argv[1:]]
app()
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def litellm_import_cpu() -> float:
    """CPU seconds of a fresh interpreter that only imports litellm (offline)."""
    before = _children_cpu()
    subprocess.run([sys.executable, "-c", "import litellm"], check=True, timeout=300,
                   env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    return _children_cpu() - before


def run_once(arguments: list[str], home: Path,
             marks: Path | None = None) -> tuple[float, float, float]:
    """Launch one ``t2w eval``; returns (launch time, total seconds, CPU seconds)."""
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs"),
           "PYTHONPATH": str(REPO), "OPENAI_API_KEY": "sk-bench"}
    if marks is not None:
        env["T2W_BENCH_MARKS"] = str(marks)
    cpu_before = _children_cpu()
    launched = time.time()
    result = subprocess.run([sys.executable, "-c", WRAPPER, *arguments], env=env, cwd=REPO,
                            capture_output=True, text=True, timeout=300)
    total = time.time() - launched
    cpu = _children_cpu() - cpu_before
    if result.returncode != 0:
        raise SystemExit(f"t2w eval failed ({result.returncode}):\n{result.stdout}\n"
                         f"{result.stderr}")
    return launched, total, cpu


def bench_loopback(repeat: int, latency: float, item: str, gold: str) -> list[dict]:
    from llm_server import Script, ScriptedLLMServer, pddl_answer

    rows = []
    with ScriptedLLMServer({}, latency=latency, default=Script([pddl_answer(gold)])) as server:
        for _ in range(repeat):
            seen = len(server.requests)
            with tempfile.TemporaryDirectory(prefix="t2w-startup-") as home:
                launched, total, cpu = run_once(
                    ["eval", "--model", "openai/test-model", "--api-base", server.url,
                     "--domains", item, "--ec", "0", "--no-progress"], Path(home))
            requests = server.requests[seen:]
            first = min(r.at for r in requests)
            model = sum((r.done_at or r.at) - r.at for r in requests)
            rows.append({"first_call": first - launched, "model": model, "total": total,
                         "cpu": cpu, "calls": len(requests)})
    return rows


def bench_reference(repeat: int, item: str) -> list[dict]:
    rows = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="t2w-startup-") as home:
            marks_path = Path(home) / "marks.json"
            launched, total, cpu = run_once(["eval", "--model", "reference/oracle", "--domains",
                                             item, "--ec", "0", "--no-progress"], Path(home),
                                            marks_path)
            marks = json.loads(marks_path.read_text())
        rows.append({"first_call": marks["first"] - launched, "model": marks["model"],
                     "total": total, "cpu": cpu, "calls": 1})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.5,
                        help="seconds the loopback server takes per answer")
    args = parser.parse_args()
    from text2world.store.datasets import load_dataset

    record = load_dataset().split("test")[0]
    print(f"1-item t2w eval of {record.id!r}, --ec 0, {args.repeat} runs per model, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'model':<10} {'first call':>10} {'model time':>10} {'total':>8} "
          f"{'start-up':>9} {'CPU':>6}  (seconds, median; start-up = total - model time, "
          "target <= 3)")
    for name, rows in (("loopback", bench_loopback(args.repeat, args.latency, record.id,
                                                   record.domain)),
                       ("reference", bench_reference(args.repeat, record.id))):
        def median(key: str) -> float:
            return statistics.median(row[key] for row in rows)

        overhead = statistics.median(row["total"] - row["model"] for row in rows)
        print(f"{name:<10} {median('first_call'):>10.2f} {median('model'):>10.2f} "
              f"{median('total'):>8.2f} {overhead:>9.2f} {median('cpu'):>6.2f}")
    floor = statistics.median(litellm_import_cpu() for _ in range(args.repeat))
    print(f"CPU of a bare 'import litellm' (what any call costs; t2w imports it with the "
          f"garbage collector paused): {floor:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
