"""One runs folder with a run of every kind, made offline with the reference models (the real
pipeline: generation with semantic scoring, two world-model tasks, a contamination probe), a
run that could not connect to its server (as a user's typo in --api-base makes one) and a
damaged run (a config.json that is not JSON). The viewer, report, compare tests and
bench/view_bench.py use it."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@dataclass
class RunKinds:
    runs_dir: Path
    noisy: Path  # generation, reference/noisy-oracle, EC 3, semantic scores
    oracle: Path  # generation, reference/oracle, EC 1
    next_state: Path  # wm next-state, noisy oracle
    propose: Path  # wm propose, oracle
    probe: Path  # contamination probe, oracle
    unreachable: Path  # generation run whose server never answered
    damaged: Path  # config.json is not JSON


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: nothing listens


def make_runs(root: Path, items: int = 4, oracle_items: int | None = None) -> RunKinds:
    """Every kind of run under ``root/runs`` (``T2W_HOME`` is ``root/home`` while it runs):
    ``items`` store items for the noisy generation run, ``oracle_items`` (default the same)
    for the oracle's."""
    from text2world.engine.run_store import RunError
    from text2world.model.client import FatalModelError
    from text2world.tasks.contamination.task import ProbeOptions, probe
    from text2world.tasks.generation.task import EvalOptions, evaluate
    from text2world.tasks.wm.task import WmOptions, run_wm

    runs = root / "runs"
    saved = {key: os.environ.get(key) for key in ("T2W_HOME", "T2W_RUNS_DIR")}
    os.environ["T2W_HOME"] = str(root / "home")
    os.environ["T2W_RUNS_DIR"] = str(runs)
    try:
        noisy = evaluate(EvalOptions(model="reference/noisy-oracle", ec=3, limit=items,
                                     workers=0, semantic=True, runs_root=runs)).run.path
        oracle = evaluate(EvalOptions(model="reference/oracle", ec=1,
                                      limit=oracle_items or items, workers=0,
                                      semantic=False, runs_root=runs)).run.path
        next_state = run_wm(WmOptions(model="reference/noisy-oracle", task="next-state",
                                      limit=1, problems_per_domain=1,
                                      runs_root=runs)).run.path
        propose = run_wm(WmOptions(model="reference/oracle", task="propose", limit=1,
                                   problems_per_domain=1, runs_root=runs)).run.path
        probe_path = probe(ProbeOptions(model="reference/oracle", limit=2,
                                        runs_root=runs)).run_path
        try:
            evaluate(EvalOptions(model="openai/nothing-listens", ec=1, limit=2, workers=0,
                                 api_base=f"http://127.0.0.1:{_closed_port()}/v1", timeout=2,
                                 max_retries=0, retry_base_delay=0.01, runs_root=runs))
        except (FatalModelError, RunError):
            pass
        unreachable = next(p for p in runs.iterdir() if "nothing-listens" in p.name)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    damaged = runs / "damaged-run"
    damaged.mkdir()
    (damaged / "config.json").write_text("{ not json", encoding="utf-8")
    (damaged / "log.jsonl").write_text("", encoding="utf-8")
    return RunKinds(runs, noisy, oracle, next_state, propose, probe_path, unreachable, damaged)
