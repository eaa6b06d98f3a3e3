"""``t2w score-batch`` on a local pool of several processes cuts each answer's semantic
comparison per gold problem, schedules the batch's problems longest expected first and merges
them per line (issue 51): its output file is the one process's, byte for byte.

Each run is ``t2w`` in a subprocess, as a user starts it, from an empty ``T2W_HOME`` of its own
(neither run finds the other's planner answers on disk).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from repo_paths import REPO

from text2world.model.reference import reference_answer
from text2world.pddl.perturb import drop_action
from text2world.store.datasets import load_dataset

# store domains of three or four problems each
GOLDS = ("gripper", "bike-sharing", "crop-rotation", "floor-tiling", "sudoku-fill")


def batch_lines() -> list[dict]:
    """The noisy reference model's answers (broken, then repaired; some lose an action),
    single-action mutants and the gold itself: verdicts of several kinds, diagnoses summed
    over the problems."""
    store = load_dataset()
    lines = []
    for gold in GOLDS:
        domain = store.get(gold).domain
        for round_index in range(3):
            lines.append({"id": f"{gold}-{round_index}", "gold_id": gold,
                          "response": reference_answer("noisy-oracle", domain, gold,
                                                       round_index, seed=0)})
        lines.append({"id": f"{gold}-dropped", "gold_id": gold,
                      "response": drop_action(domain, seed=3)})
        lines.append({"id": f"{gold}-oracle", "gold_id": gold,
                      "response": reference_answer("oracle", domain, gold, 0)})
    return lines


def score_batch(source: Path, home: Path, workers: int) -> str:
    out = home / "out.jsonl"
    env = {**os.environ, "T2W_HOME": str(home), "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "text2world.cli", "score-batch", str(source), "--out", str(out),
         "--engine", "local", "--workers", str(workers)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return out.read_text(encoding="utf-8")


def test_the_pool_cut_per_problem_writes_the_lines_of_one_process(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in batch_lines()),
                      encoding="utf-8")
    here = score_batch(source, tmp_path / "one", 1)
    pool = score_batch(source, tmp_path / "pool", 2)

    lines = [json.loads(row) for row in here.splitlines()]
    assert len(lines) == len(batch_lines())
    verdicts = {line["verdict"] for line in lines}
    # what a merge must get right: equivalence over every problem, and answers that differ
    assert "equivalent" in verdicts and verdicts - {"equivalent", None}, verdicts
    assert any("semantic verdict" in line["reason"] for line in lines)
    assert pool == here
