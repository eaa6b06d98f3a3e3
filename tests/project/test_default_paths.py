"""What a new user runs, on its defaults, over the whole store (slow): ``t2w eval`` with a
reference model, ``t2w eval --task problem`` with the noisy oracle, ``t2w wm build``, every
``t2w wm`` task with ``reference/oracle``, ``t2w contamination``, ``t2w report`` /
``compare`` / ``view --bundle`` on those runs, and ``inspect eval`` of each Inspect task on
``t2w/oracle`` (a few samples).

Each command is a real process (``python -m text2world.cli``) in a fresh working folder with a
fresh ``T2W_HOME`` and the default ``./runs``, offline. The whole-store runs are made once per
module and read by the tests after them. ``t2w wm propose`` over the whole store is too slow
for CI (thousands of optimal-planner calls, about half an hour on two cores), so it runs on the
first ``PROPOSE_DOMAINS`` domains here and whole in ``bench/default_paths_bench.py --propose``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from repo_paths import REPO

from text2world.api.bundle import bundle_key

pytestmark = pytest.mark.slow

STORE_TEST_ITEMS = 101  # the built-in store's test split
WM_TASKS = ("next-state", "verify", "verify-rollout", "plan")
PROPOSE_DOMAINS = 3
# each Inspect task -> the score the oracle must get in full
INSPECT_HEADLINES = {"generation": "f1_effects", "next_state": "accuracy", "verify": "accuracy",
                     "propose": "hit_at_1", "plan": "success"}
INSPECT_TASKS = tuple(INSPECT_HEADLINES)


@dataclass(frozen=True)
class Space:
    """A new user's working folder and environment."""

    work: Path
    env: dict[str, str]

    def t2w(self, *args: str, timeout: float = 1500) -> str:
        """Run ``t2w ARGS`` (this checkout's code); its output, after checking it succeeded."""
        done = subprocess.run([sys.executable, "-m", "text2world.cli", *args], cwd=self.work,
                              env=self.env, capture_output=True, text=True, timeout=timeout)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"t2w {' '.join(args)} exited {done.returncode}:\n{output[-4000:]}"
        assert "Traceback" not in output, output[-4000:]
        return output

    def summary(self, run_id: str) -> dict:
        return json.loads((self.work / "runs" / run_id / "summary.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def space(tmp_path_factory) -> Space:
    work = tmp_path_factory.mktemp("new-user")
    env = {k: v for k, v in os.environ.items() if not k.startswith("T2W_")}
    env.update(T2W_HOME=str(work / "home"), COLUMNS="120",
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p))
    return Space(work, env)


@pytest.fixture(scope="module")
def generation_runs(space) -> dict[str, str]:
    """run id -> the printed output of ``t2w eval`` on the whole store (its defaults: the test
    split, 3 correction rounds, semantic scoring) with the two reference models."""
    return {"noisy": space.t2w("eval", "--model", "reference/noisy-oracle", "--ec", "3",
                               "--run-id", "noisy", "--no-progress"),
            "oracle": space.t2w("eval", "--model", "reference/oracle", "--run-id", "oracle",
                                "--no-progress")}


@pytest.fixture(scope="module")
def wm_runs(space) -> dict[str, dict]:
    """task -> summary of ``t2w wm TASK --model reference/oracle`` on its defaults (hard
    worlds, every domain of the test split; propose on the first few domains)."""
    summaries = {}
    for task in WM_TASKS:
        space.t2w("wm", task, "--model", "reference/oracle", "--run-id", f"wm-{task}")
        summaries[task] = space.summary(f"wm-{task}")
    space.t2w("wm", "propose", "--model", "reference/oracle", "--run-id", "wm-propose",
              "--limit-domains", str(PROPOSE_DOMAINS))
    summaries["propose"] = space.summary("wm-propose")
    return summaries


def test_problem_task_on_its_defaults_scores_the_whole_store(space):
    """``t2w eval --task problem`` on its defaults (explicit descriptions, the store's and the
    generated problems of the test split's domains, 3 correction rounds): every item scored
    by meaning per round with intervals, the floors beside."""
    output = space.t2w("eval", "--task", "problem", "--model", "reference/noisy-oracle",
                       "--run-id", "problem-noisy", "--no-progress")
    summary = space.summary("problem-noisy")
    assert summary["kind"] == "problem" and summary["infrastructure_errors"] == 0
    assert summary["planned_items"] == summary["finished_items"] > STORE_TEST_ITEMS
    items = [json.loads(line) for line in (space.work / "runs" / "problem-noisy" / "log.jsonl")
             .read_text(encoding="utf-8").splitlines() if '"item"' in line]
    assert {item.get("size") for item in items} == {"easy", "hard"}
    rounds = summary["per_round"]
    assert [r["round"] for r in rounds] == [0, 1, 2, 3]
    equivalent = [r["equivalent"]["mean"] for r in rounds]
    assert equivalent == sorted(equivalent) and equivalent[0] < equivalent[-1] < 1.0
    for row in rounds:  # meaning is the strictest: equivalent <= solvable <= parseable
        assert row["equivalent"]["mean"] <= row["solvable"]["mean"] <= row["parseable"]["mean"]
        assert row["equivalent"]["low"] <= row["equivalent"]["mean"] <= row["equivalent"]["high"]
    assert rounds[-1]["parseable"]["mean"] == 1.0
    assert summary["floors"]["empty-goal"]["equivalent"]["mean"] == 0.0
    assert "EC_3" in output and "REFERENCE MODEL" in output and "Floors" in output


def test_eval_with_a_reference_model_scores_the_whole_store(space, generation_runs):
    noisy, oracle = space.summary("noisy"), space.summary("oracle")
    for summary in (noisy, oracle):
        assert summary["planned_items"] == summary["finished_items"] == STORE_TEST_ITEMS
        assert summary["infrastructure_errors"] == 0
        assert [r["round"] for r in summary["metrics"]["paper"]] == [0, 1, 2, 3]
    final = oracle["metrics"]["paper"][-1]
    assert final["executable"] == final["f1_effects"] == 1.0  # the oracle answers the gold
    rounds = [r["executable"] for r in noisy["metrics"]["paper"]]
    assert rounds == sorted(rounds) and rounds[0] < rounds[-1] < 1.0  # corrections help
    assert "EC_3" in generation_runs["noisy"] and "REFERENCE MODEL" in generation_runs["noisy"]


def test_wm_build_writes_every_task_and_every_generated_world(space):
    done = subprocess.run([sys.executable, "-m", "text2world.cli", "wm", "build"],  # defaults
                          cwd=space.work, env=space.env, capture_output=True, text=True,
                          timeout=1500)
    output = done.stderr
    assert done.returncode == 0 and "Traceback" not in output, output[-4000:]
    items = [json.loads(line) for line in done.stdout.splitlines()]
    tasks = {item["task"] for item in items}
    assert tasks == {"next-state", "verify", "verify-rollout", "propose", "plan"}
    # every generated problem is a world (the generator's walk where the planner has no plan);
    # only propose skips the worlds without a proved-optimal plan
    assert "no plan found" not in output
    assert output.count("skipped:") == output.count("propose needs one") <= 4, output


@pytest.mark.parametrize("task", WM_TASKS)
def test_each_wm_task_with_the_oracle_scores_100(wm_runs, task):
    summary = wm_runs[task]
    overall = summary["metrics"]["all"]["all"]
    assert overall["items"] > 100
    headline = {"next-state": "accuracy", "verify": "accuracy", "verify-rollout": "accuracy",
                "plan": "success"}[task]
    assert overall[headline] == 1.0 and overall["format_errors"] == 0, overall
    if task == "verify-rollout":
        assert overall["rollout_state_accuracy"] == 1.0, overall


def test_wm_propose_with_the_oracle_hits_every_item(wm_runs):
    overall = wm_runs["propose"]["metrics"]["all"]["all"]
    assert overall["items"] > 10 and overall["hit@1"] == 1.0, overall


def test_contamination_probe_on_its_defaults(space):
    """The probe of the whole test split (its default) with the oracle, which continues every
    gold domain word for word: every domain flagged."""
    output = space.t2w("contamination", "--model", "reference/oracle", "--run-id", "probe")
    summary = space.summary("probe")
    assert summary["planned_items"] == summary["finished_items"] == STORE_TEST_ITEMS, summary
    assert "REFERENCE MODEL" in output


def test_report_compare_and_view_bundle_read_those_runs(space, generation_runs, wm_runs):
    report = space.t2w("report", "noisy")
    assert "EC_3" in report
    wm_report = space.t2w("report", "wm-next-state")
    assert "rho" in wm_report.lower()
    compared = space.t2w("compare", "runs/noisy", "runs/oracle")  # paths, not run ids
    assert "f1" in compared.lower()
    space.t2w("view", "--bundle", "bundle")
    assert (space.work / "bundle" / "index.html").is_file()
    listing = space.work / "bundle" / "data" / f"{bundle_key('/v1/runs?limit=500&offset=0')}.js"
    bundled = listing.read_text(encoding="utf-8")
    for run_id in ("noisy", "oracle", *(f"wm-{task}" for task in WM_TASKS), "wm-propose"):
        assert f'"{run_id}"' in bundled, run_id


def test_each_protocol_over_the_whole_store(space, generation_runs):
    """``--feedback plans`` / ``behavior``, ``--agent`` and ``--epochs`` with the noisy
    reference over the whole store, offline: their reports name the protocol, the agent's its
    tool calls, the epochs' their scaling curves; the paper protocol's run is the baseline."""
    runs = {"plans": ("--feedback", "plans"), "behavior": ("--feedback", "behavior"),
            "agent": ("--agent",), "epochs": ("--epochs", "2")}
    for run_id, options in runs.items():
        space.t2w("eval", "--model", "reference/noisy-oracle", *options, "--run-id", run_id,
                  "--no-progress")
    summaries = {run_id: space.summary(run_id) for run_id in (*runs, "noisy")}
    for run_id, summary in summaries.items():
        epochs = 2 if run_id == "epochs" else 1
        assert summary["finished_items"] == STORE_TEST_ITEMS, run_id  # items, not samples
        assert summary["finished_samples"] == STORE_TEST_ITEMS * epochs, run_id
        assert summary["infrastructure_errors"] == 0, run_id
    assert [summaries[r]["protocol"] for r in ("plans", "behavior", "agent", "noisy")] == \
        ["plans", "behavior", "agent", "syntax"]
    assert summaries["behavior"]["oracle_feedback"] and not summaries["plans"]["oracle_feedback"]
    # the reference validates before submitting: at least one tool call per item
    assert summaries["agent"]["tool_calls"] >= STORE_TEST_ITEMS
    # behaviour feedback reveals the gold's behaviour: more final domains equivalent to it
    equivalent = {r: summaries[r]["metrics"]["semantic"][-1]["verdicts"]["equivalent"]
                  for r in ("behavior", "noisy")}
    assert equivalent["behavior"] > equivalent["noisy"], equivalent
    assert "protocol behavior" in space.t2w("report", "behavior")
    assert "tool calls" in space.t2w("report", "agent")
    scaling = space.t2w("report", "epochs")
    assert "pass@k executable" in scaling and "best-of-N equivalent" in scaling


@pytest.mark.parametrize("task", INSPECT_TASKS)
def test_inspect_eval_of_each_task_on_the_oracle(space, task, tmp_path):
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log
    from inspect_helpers import inspect_env

    env = {**inspect_env(tmp_path), "T2W_HOME": space.env["T2W_HOME"]}
    logs = tmp_path / "logs"
    done = subprocess.run([sys.executable, "-m", "inspect_ai", "eval", f"text2world/{task}",
                           "--model", "t2w/oracle", "--limit", "3", "--log-dir", str(logs),
                           "--display", "none"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    log = read_eval_log(str(next(logs.glob("*.eval"))))
    assert log.status == "success" and len(log.samples or []) == 3
    means = {score.name: score.metrics["mean"].value for score in log.results.scores
             if "mean" in score.metrics}
    assert means[INSPECT_HEADLINES[task]] == 1.0 and means.get("format_error", 0.0) == 0.0, means
