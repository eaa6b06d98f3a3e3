"""``t2w eval`` with a pool of several workers scores a round's semantic comparison as one job
per gold problem, longest expected first, and merges them (issue 51): the run's records are
the unsplit run's (``--workers 0``), byte for byte but for the wall-clock fields.

Each run is ``t2w`` in a subprocess, as a user starts it, from an empty ``T2W_HOME`` of its own
(a run must find neither the other's results on disk nor its planner answers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from repo_paths import REPO

# Items of the store with three or four problems each, the noisy oracle's answers to them
# (seed 0): equivalent domains (blocksworld, gripper), domains that lost an action (a
# verdict with diagnoses summed over the problems), and a broken first round (bus-routing).
ITEMS = "blocksworld,gripper,crop-rotation,floor-tiling,sudoku-fill,bus-routing"
WALL_CLOCK = {"finished", "updated", "latency", "seconds"}  # never deterministic


def eval_run(home: Path, workers: int) -> tuple[list[dict], dict]:
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs"),
           "PYTHONPATH": str(REPO), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    result = subprocess.run(
        [sys.executable, "-m", "text2world.cli", "eval", "--model", "reference/noisy-oracle",
         "--ec", "1", "--domains", ITEMS, "--no-progress", "--workers", str(workers),
         "--run-id", "split"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    run = home / "runs" / "split"
    records = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    return sorted(records, key=lambda record: record["item"]), \
        json.loads((run / "summary.json").read_text())


def without_wall_clock(value):
    if isinstance(value, dict):
        return {key: without_wall_clock(item) for key, item in value.items()
                if key not in WALL_CLOCK}
    if isinstance(value, list):
        return [without_wall_clock(item) for item in value]
    return value


def test_split_semantic_scoring_gives_the_unsplit_records(tmp_path):
    unsplit, unsplit_summary = eval_run(tmp_path / "unsplit", 0)
    split, split_summary = eval_run(tmp_path / "split", 2)

    rounds = [rnd for record in unsplit for rnd in record["rounds"]]
    verdicts = {rnd["semantic"]["verdict"] for rnd in rounds}
    # the batch covers what a merge must get right: several problems per pair, diagnoses
    # counted over them, verdicts other than equivalence
    assert {"equivalent", "not_simulated"} < verdicts, verdicts
    assert any(len(rnd["semantic"]["problems"]) >= 3 and rnd["semantic"]["diagnoses"]
               for rnd in rounds)
    assert len(split) == len(unsplit) == len(ITEMS.split(","))
    for before, after in zip(unsplit, split):
        # byte for byte: the same keys in the same order, the same values
        assert json.dumps(without_wall_clock(after)) == json.dumps(without_wall_clock(before))
    assert json.dumps(without_wall_clock(split_summary)) == \
        json.dumps(without_wall_clock(unsplit_summary))
