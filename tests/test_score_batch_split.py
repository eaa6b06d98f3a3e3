"""``t2w score-batch`` on pool processes (a local pool's, Ray's workers) cuts each answer's
semantic comparison per gold problem, schedules the batch's problems longest expected first
and merges them per line (issue 51): its output file is the one process's, byte for byte,
and stays so when a pool process dies mid-batch (its lines are scored again, here, in reward
workers).

Each run is ``t2w`` in a subprocess, as a user starts it, from an empty ``T2W_HOME`` of its own
(no run finds another's planner answers on disk).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from processes import HAS_PROC, descendants, wait_for
from repo_paths import REPO
from trainer_helpers import require_ray, write_batch

from text2world.batch_scoring import (
    Call,
    CallRunner,
    Outcome,
    chunks,
    parse_line,
    pool_calls,
    pool_process_init,
    score_problem_in_pool,
    split_scoring,
    start_chunk_in_pool,
)
from text2world.bounded import memory_limit_mb
from text2world.model.reference import reference_answer
from text2world.pddl.perturb import drop_action
from text2world.rewards import DEFAULT_LIMIT, DEFAULT_METRIC
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


def command(source: Path, home: Path, *engine: str) -> list[str]:
    return [sys.executable, "-m", "text2world.cli", "score-batch", str(source),
            "--out", str(home / "out.jsonl"), *engine]


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "T2W_HOME": str(home), "PYTHONPATH": str(REPO)}


def score_batch(source: Path, home: Path, *engine: str) -> str:
    result = subprocess.run(command(source, home, *engine), cwd=REPO, env=environment(home),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return (home / "out.jsonl").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return write_batch(tmp_path_factory.mktemp("split"), batch_lines())


@pytest.fixture(scope="module")
def here(source, tmp_path_factory) -> str:
    """The one process's output: every answer scored whole, in a reward worker."""
    return score_batch(source, tmp_path_factory.mktemp("one"), "--engine", "local",
                       "--workers", "1")


def test_the_pool_cut_per_problem_writes_the_lines_of_one_process(tmp_path, source, here):
    pool = score_batch(source, tmp_path, "--engine", "local", "--workers", "2")

    lines = [json.loads(row) for row in here.splitlines()]
    assert len(lines) == len(batch_lines())
    verdicts = {line["verdict"] for line in lines}
    # what a merge must get right: equivalence over every problem, and answers that differ
    assert "equivalent" in verdicts and verdicts - {"equivalent", None}, verdicts
    assert any("semantic verdict" in line["reason"] for line in lines)
    assert pool == here


def test_ray_cut_per_problem_writes_the_lines_of_one_process(tmp_path, source, here):
    require_ray()
    assert score_batch(source, tmp_path, "--ray", "--workers", "2") == here


def _forked_children(pid: int) -> list[int]:
    """The pool processes of ``t2w`` process ``pid``: its children forked as themselves (a
    reward worker runs ``text2world.bounded``)."""
    try:
        own = Path(f"/proc/{pid}/cmdline").read_bytes()
        return [child for child in descendants(pid)
                if Path(f"/proc/{child}/cmdline").read_bytes() == own]
    except OSError:  # gone meanwhile
        return []


@pytest.mark.skipif(not HAS_PROC, reason="finds the pool's processes in /proc (Linux)")
def test_a_pool_process_killed_mid_batch_leaves_its_lines_to_reward_workers(
        tmp_path, source, here):
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(command(source, tmp_path, "--engine", "local", "--workers", "2"),
                               cwd=REPO, env=environment(tmp_path), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        # both at once (the pool forks its processes together): not a passing fork-and-exec
        assert wait_for(lambda: len(_forked_children(process.pid)) == 2, timeout=120,
                        step=0.01), "the pool's two processes never appeared"
        os.kill(_forked_children(process.pid)[0], signal.SIGKILL)
        scored_before = out.read_text().count("\n") if out.exists() else 0
        stdout, stderr = process.communicate(timeout=600)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stdout + stderr
    assert "Traceback" not in stderr, stderr
    assert scored_before < len(batch_lines())  # the pool broke mid-batch
    lines = [json.loads(row) for row in out.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [line["id"] for line in batch_lines()]
    assert out.read_text(encoding="utf-8") == here


@contextmanager
def two_pool_processes(engine: str) -> Iterator[CallRunner]:
    """Two pool processes: a local pool's, or a local Ray's workers."""
    if engine == "ray":
        require_ray()
        from text2world.integrations.ray_batch import ray_calls, ray_session

        with ray_session(workers=2) as ray:
            yield ray_calls(ray)
        return
    with ProcessPoolExecutor(2, initializer=pool_process_init,
                             initargs=(memory_limit_mb(),)) as pool:
        yield pool_calls(pool)


@pytest.mark.parametrize("stage", [start_chunk_in_pool, score_problem_in_pool],
                         ids=["chunk", "problem"])
@pytest.mark.parametrize("engine", ["pool", "ray"])
def test_a_task_lost_with_its_process_gets_its_lines_scored_whole(engine, stage, here):
    """The first task of a stage (a chunk scored up to the comparison; the problem expected
    longest) ends its process: each line it held, or whose problems were not all in yet, is
    scored whole (again in a pool process, else here), every line once."""
    tasks = [parse_line(line, "test") for line in batch_lines()]
    killed = []
    with two_pool_processes(engine) as run:
        def dying(calls: list[Call]) -> Iterator[Outcome]:
            if calls and calls[0][0] is stage and not killed:
                killed.append(calls[0][2])
                calls = [(os._exit, (9,), calls[0][2]), *calls[1:]]
            return run(calls)

        found = [line for part in split_scoring(chunks(tasks), DEFAULT_METRIC, DEFAULT_LIMIT,
                                                dying) for line in part]
    assert killed  # the stage had tasks, and the first one's process died
    expected = {line["id"]: line for line in map(json.loads, here.splitlines())}
    assert sorted(line["id"] for line in found) == sorted(expected)
    assert {line["id"]: line for line in found} == expected


# ----------------------------------------------------------------- a line a clock shaped

# A single-point mutant of bike-sharing (an answer of bench/scaling_bench.py's batch) whose
# third problem neither lama-first nor the prover answers within the limits: its planner run
# ends on Fast Downward's CPU limit.
CLOCKED_ANSWER = Path(__file__).parent / "fixtures" / "bike_sharing_past_the_planner_limit.pddl"
SMALL_LIMIT = 2.0  # CPU seconds per answer, and so per planner run: a test-sized clock


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _rescored(task: dict, clocked: list) -> tuple[list[dict], float]:
    """In a fresh pool process: the line scored whole with ``clocked`` handed over, and the
    CPU seconds its planner processes spent."""
    from text2world.batch_scoring import score_chunk_in_pool

    before = _children_cpu()
    lines = score_chunk_in_pool([task], DEFAULT_METRIC, SMALL_LIMIT, clocked)
    return lines, _children_cpu() - before


def _fresh_process(function, *args):
    with ProcessPoolExecutor(1, initializer=pool_process_init,
                             initargs=(memory_limit_mb(),)) as pool:
        return pool.submit(function, *args).result()


def test_a_line_scored_again_whole_is_charged_its_clocked_planner_run_not_run_again(
        tmp_path, monkeypatch):
    """A line a clock shaped is scored again whole (its line must be the unsplit one); the
    planner answer Fast Downward's CPU limit shaped in its problem's task goes with it, so the
    rescoring gives the same line without running the planner again (it ran it twice before:
    the batch's tail was twice its longest planner run)."""
    monkeypatch.setenv("T2W_HOME", str(tmp_path))  # empty: no planner answer on disk
    task = parse_line({"id": "clocked", "gold_id": "bike-sharing",
                       "response": CLOCKED_ANSWER.read_text(encoding="utf-8")}, "test").task()
    calls: list[Call] = []
    with two_pool_processes("pool") as run:
        def recorded(batch: list[Call]) -> Iterator[Outcome]:
            calls.extend(batch)
            return run(batch)

        (found,) = [line for part in split_scoring([[task]], DEFAULT_METRIC, SMALL_LIMIT,
                                                   recorded) for line in part]
    assert found["reward"] == 0.0 and "no plan within 2 CPU seconds" in found["reason"]
    (again,) = [args for function, args, _ in calls if function.__name__ == "score_chunk_in_pool"]
    clocked = again[3]
    assert len(clocked) == 1, clocked  # the one planner run the limit ended
    ((_, timeout), (answer, spent)) = clocked[0]
    assert timeout == SMALL_LIMIT and answer.status == "Timeout" and spent > 0.5

    handed, planner_cpu = _fresh_process(_rescored, task, clocked)
    planned_again, planner_cpu_again = _fresh_process(_rescored, task, [])
    assert handed == planned_again == [found]  # the unsplit line, whichever way
    assert planner_cpu < 0.1 and planner_cpu_again > spent / 2  # not run; run again
