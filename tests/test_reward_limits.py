"""The reward's hard bounds (issue 46): hostile quantified answers get 0 with a ``timeout:`` or
``limit:`` reason within their CPU limit plus 2 CPU-s (the planner's processes included) and
under 2 GB, in warm worker processes that are killed and replaced when they overrun; normal
answers get the same reward as in this process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from hostile_answers import GOLD, UNDER_THE_CAP, hostile_answer
from repo_paths import REPO, TESTS

from text2world.pddl.perturb import drop_action
from text2world.rewards import resolve_gold, reward_for, reward_workers
from text2world.store.datasets import load_dataset

HAS_PROC = sys.platform.startswith("linux")
GIB = 1024 ** 3

# Run in a fresh process that reaps every process under it (a subreaper: the planner processes
# of a killed worker are reaped here too), so that the kernel's own accounting of their CPU
# and memory is read, not ours.
_MEASURE = textwrap.dedent("""
    import ctypes, json, os, resource, sys
    sys.path.insert(0, {tests!r})
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    from hostile_answers import GOLD, hostile_answer
    from text2world.bounded import tree_cpu
    from text2world.rewards import resolve_gold, reward_for, reward_workers
    gold = resolve_gold(GOLD)
    warm = reward_for(gold, gold.domain, limit={limit})  # the worker started, the gold prepared
    def cpu():
        mine = resource.getrusage(resource.RUSAGE_SELF)
        theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime
    old = set(reward_workers().pids())
    before = cpu() + reward_workers().cpu()
    detail = reward_for(gold, hostile_answer({variables}), limit={limit})
    again = reward_for(gold, gold.domain, limit={limit})
    # a replacement, started after the kill, does none of the answer's work
    replacement = sum(tree_cpu(pid) or 0 for pid in reward_workers().pids() if pid not in old)
    reward_workers().close()
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    print(json.dumps({{"warm": warm.reward, "reward": detail.reward, "reason": detail.reason,
                      "again": again.reward, "spent": cpu() - before - replacement,
                      "peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}}))
""")


def _measured(variables: int, limit: float) -> dict:
    script = _MEASURE.format(tests=str(TESTS), variables=variables, limit=limit)
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree's CPU in Linux /proc")
@pytest.mark.parametrize("variables,limit", [(3, 2.0), (UNDER_THE_CAP, 2.0), (14, 10.0),
                                             (20, 10.0)])
def test_a_quantified_answer_gets_0_within_its_limit_and_under_2_gb(variables, limit):
    measured = _measured(variables, limit)
    assert measured["warm"] == 1.0 and measured["again"] == 1.0  # before, and after a kill
    assert measured["reward"] == 0.0
    reason = measured["reason"]
    assert reason.startswith("timeout:") or "limit:" in reason, reason
    if variables >= 11:  # refused before grounding, whatever the problem
        assert "limit:" in reason and "combinations of objects" in reason, reason
    assert measured["spent"] <= limit + 2, measured  # CPU seconds, the kernel's count
    assert measured["peak"] < 2 * GIB, measured


def test_normal_answers_get_the_same_reward_in_a_worker_as_in_this_process(monkeypatch):
    gold = resolve_gold(GOLD)
    store = load_dataset()
    answers = [gold.domain, drop_action(gold.domain, seed=1), "no PDDL at all",
               store.get("gripper").domain]
    in_workers = [reward_for(gold, answer, every_score=True) for answer in answers]
    assert reward_workers().pids(), "the rewards were not scored in a worker"
    monkeypatch.setenv("T2W_REWARD_WORKERS", "0")
    here = [reward_for(gold, answer, every_score=True) for answer in answers]
    assert in_workers == here
    assert [d.reward for d in here][:3] == [1.0, here[1].reward, 0.0] and 0 < here[1].reward < 1


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree's CPU in Linux /proc")
def test_score_batch_gives_hostile_lines_0_with_a_reason_and_scores_the_rest(tmp_path):
    gold = load_dataset().get(GOLD).domain
    lines = [{"id": "gold", "gold_id": GOLD, "response": gold},
             {"id": "costly", "gold_id": GOLD, "response": hostile_answer(3)},
             {"id": "huge", "gold_id": GOLD, "response": hostile_answer(20)},
             {"id": "after", "gold_id": GOLD, "response": gold}]
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "text2world.cli", "score-batch", str(source),
                           "--out", str(out), "--limit", "2"], cwd=REPO, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    scored = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert scored["gold"]["reward"] == scored["after"]["reward"] == 1.0
    assert scored["costly"]["reward"] == 0.0
    assert scored["costly"]["reason"].startswith("timeout:"), scored["costly"]["reason"]
    assert scored["huge"]["reward"] == 0.0 and "limit:" in scored["huge"]["reason"]
