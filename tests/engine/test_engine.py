"""One engine for every task: ``t2w eval``, each ``t2w wm`` task and the contamination probe
behave alike when killed (parent-only ``kill -9``), terminated (SIGTERM), resumed, extended
(``--limit`` then the full selection), given contradicting flags on ``--resume``, or run for
several epochs; run folders written before the engine still open everywhere.

Real processes and a real loopback OpenAI-compatible server (``tests/llm_server.py``)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from llm_server import Script, ScriptedLLMServer, priced_home, write_store
from repo_paths import FIXTURES as TEST_FIXTURES
from repo_paths import REPO
from typer.testing import CliRunner

from text2world.api.app import create_app
from text2world.api.settings import Settings
from text2world.cli import app
from text2world.engine import list_runs, open_run
from text2world.engine.run_store import RunError, read_jsonl
from text2world.tasks.registry import summarize_run

FIXTURES = TEST_FIXTURES / "runs"
NAMES = [f"t2we-{i}" for i in range(6)]
PRICE_IN, PRICE_OUT = 2.0, 4.0  # USD per million tokens of the priced test alias
runner = CliRunner()

# Each task's command over a small selection; the loopback server answers every prompt with
# the same text (a format error for the world-model tasks, no PDDL for eval: each item still
# makes its calls and is scored as wrong).
TASKS = {
    "eval": ["eval", "--ec", "0", "--workers", "0", "--no-progress"],
    "wm-next-state": ["wm", "next-state", "--domains", "blocksworld", "--problems", "1"],
    "wm-verify": ["wm", "verify", "--domains", "blocksworld", "--problems", "1"],
    "wm-propose": ["wm", "propose", "--domains", "blocksworld", "--problems", "1"],
    "wm-plan": ["wm", "plan", "--domains", "blocksworld", "--problems", "1"],
    "probe": ["contamination"],
}
USES_STORE = ("eval", "probe")  # the others run on the built-in store's problems


def resume_command(task: str) -> list[str]:
    return TASKS[task][:2] if task.startswith("wm-") else TASKS[task][:1]


@pytest.fixture()
def setup(tmp_path):
    store = write_store(tmp_path / "store", NAMES)
    home = priced_home(tmp_path / "home", PRICE_IN, PRICE_OUT)
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(tmp_path / "runs"),
           "PYTHONPATH": str(REPO), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    return {"store": store, "home": home, "env": env, "runs": tmp_path / "runs"}


def command_for(task: str, setup: dict, server: ScriptedLLMServer, *extra: str) -> list[str]:
    data = ["--dataset", str(setup["store"])] if task in USES_STORE else []
    return [sys.executable, "-m", "text2world.cli", *TASKS[task], *data, "--model",
            "priced-test", "--api-base", server.url, "--timeout", "30", "--retry-delay",
            "0.01", "--quiet", *extra]


def answer_server() -> ScriptedLLMServer:
    return ScriptedLLMServer({}, latency=0.05, default=Script(["I cannot tell."]))


def cost(request) -> float:
    return (request.prompt_tokens * PRICE_IN + request.completion_tokens * PRICE_OUT) / 1e6


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
@pytest.mark.parametrize("task", list(TASKS))
def test_stopped_run_resumes_losing_nothing_and_pays_each_call_once(task, signum, setup):
    """Stopped mid-run (kill -9 of the parent alone, or SIGTERM): the resumed run finishes
    every item once, repeats no answered call, and the ledger counts every received answer
    of both attempts exactly once. SIGTERM also writes the summary and exits 143 with one
    line that gives the resume command."""
    run = setup["runs"] / "stopped"
    with answer_server() as server:
        command = command_for(task, setup, server, "-j", "1", "--run-id", "stopped")
        server.hold_after(2)
        process = subprocess.Popen(command, env=setup["env"], cwd=REPO,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            assert server.held.wait(180), "the run never reached the held request"
            assert server.wait_until(server.settled, 30)
            answered = len(server.answered())
            # Stop it only once every answered call is in the cache (written on receipt).
            assert server.wait_until(lambda: len(list(
                (setup["home"] / "cache").glob("??/*.json"))) >= answered, 30)
            os.kill(process.pid, signum)  # the parent alone, never its group
            if signum == signal.SIGTERM:
                time.sleep(0.5)
                server.release()  # the call in flight returns; the run stops anyway
            code = process.wait(60)
        finally:
            if process.poll() is None:
                process.kill()
        stopped_at = time.time()
        stderr = process.stderr.read().decode()
        if signum == signal.SIGTERM:
            assert code == 143, stderr
            lines = [line for line in stderr.splitlines() if line.strip()]
            # one message, wrapped at 80 columns (the run's folder whole on a line of its own)
            assert "stopped by SIGTERM" in lines[0] and stderr.count("stopped by") == 1, stderr
            assert f"--resume {run}" in " ".join(stderr.split()) and "Traceback" not in stderr, stderr
            summary = json.loads((run / "summary.json").read_text())
            assert summary["finished_items"] == len(read_jsonl(run / "log.jsonl"))
        else:
            assert code == -signal.SIGKILL
        answered_hashes = {r.body_hash for r in server.answered()}
        seen_before = len(server.requests)
        logged_before = len(read_jsonl(run / "log.jsonl"))
        server.release()

        resume = [sys.executable, "-m", "text2world.cli", *resume_command(task), "--resume",
                  str(run), "--quiet", "--retry-delay", "0.01"]
        resumed = subprocess.run(resume, env=setup["env"], cwd=REPO, capture_output=True,
                                 text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr

    config = json.loads((run / "config.json").read_text())
    items = [record["item"] for record in read_jsonl(run / "log.jsonl")]
    assert len(items) == len(set(items)) == config["planned_items"] > logged_before
    later = server.requests[seen_before:]
    assert not [r for r in later if r.body_hash in answered_hashes]  # nothing paid twice
    summary = json.loads((run / "summary.json").read_text())
    assert summary["kind"] == config["kind"] and summary["finished_items"] == len(items)
    # Every answer a client received, in either attempt, once (a held request answered
    # after a kill -9 went to a dead client).
    received = [r for r in server.requests if r.answered and
                (signum == signal.SIGTERM or r.done_at < stopped_at or r.at > stopped_at)]
    paid = read_jsonl(run / "paid.jsonl")
    assert summary["paid_calls"] == len(paid) == len(received)
    assert summary["cost_paid"] == pytest.approx(sum(cost(r) for r in received))
    assert all(line["kind"] == config["kind"] and "epoch" in line for line in paid)


@pytest.mark.slow
@pytest.mark.parametrize("task", ["eval", "wm-verify", "probe"])
def test_limit_then_full_run_then_resume_finishes_every_item(task, setup):
    """``--limit 1``, then the same command without it (stopped by SIGTERM), then
    ``--resume RUN``: the run of the full command ends with every item done."""
    wider = ["--domains", "blocksworld,gripper"] if task.startswith("wm-") else []
    limit = "--limit-domains" if task.startswith("wm-") else "--limit"  # wm: whole domains
    with answer_server() as server:
        small = subprocess.run(command_for(task, setup, server, *wider, limit, "1"),
                               env=setup["env"], cwd=REPO, capture_output=True, text=True,
                               timeout=300)
        assert small.returncode == 0, small.stdout + small.stderr
        server.hold_after(len(server.answered()) + 2)
        full = subprocess.Popen(command_for(task, setup, server, *wider, "-j", "1"),
                                env=setup["env"],
                                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            assert server.held.wait(180)
            full.send_signal(signal.SIGTERM)
            time.sleep(0.3)
            server.release()
            assert full.wait(60) == 143
        finally:
            if full.poll() is None:
                full.kill()
        message = " ".join(full.stderr.read().decode().split())  # wrapped at 80 columns
        run = Path(message.split("--resume ", 1)[1].split()[0])
        resumed = subprocess.run([sys.executable, "-m", "text2world.cli",
                                  *resume_command(task), "--resume", str(run), "--quiet"],
                                 env=setup["env"], cwd=REPO, capture_output=True, text=True,
                                 timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    config = json.loads((run / "config.json").read_text())
    done = {record["item"] for record in read_jsonl(run / "log.jsonl")}
    if task == "wm-verify":  # items built from the domain's problems: all of them
        assert len(done) == config["planned_items"] > 2
    else:
        assert done == set(NAMES) and config["selected"] == NAMES
        assert config["selection"] == {"limit": None, "domains": None}


@pytest.mark.parametrize("task,flag,value,recorded", [
    ("eval", "--ec", "7", "1"),
    ("eval", "--limit", "5", "2"),
    ("wm-verify", "--rules", "none", "pddl"),
    ("probe", "--prompt-tokens", "30", "20"),
    # flags whose parameter is named as its option field (cli/run_options.py), a shared one
    # and task ones, and the old name of --prompt-tokens
    ("eval", "--seed", "3", "0"),
    ("wm-verify", "--problems", "2", "1"),
    ("wm-verify", "--rho", "0.5", "0.25,0.5,0.75,1.0"),
    ("probe", "--prefix-tokens", "30", "20"),
])
def test_a_flag_contradicting_the_resumed_run_is_refused(task, flag, value, recorded, tmp_path):
    legacy = {"eval": "legacy-eval", "wm-verify": "legacy-wm", "probe": "legacy-probe"}[task]
    run = tmp_path / legacy
    shutil.copytree(FIXTURES / legacy, run)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    result = runner.invoke(app, [*resume_command(task), "--resume", str(run), flag, value])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert f"{flag} {value} contradicts the run" in text and f"{flag} {recorded}" in text
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before  # nothing was run
    help_text = " ".join(runner.invoke(app, [*resume_command(task), "--help"],
                                       env={"COLUMNS": "1000"}).output.split())
    assert "--max-concurrency" in help_text and "may be given again" in help_text


def test_allowed_overrides_on_resume_and_kind_checks(tmp_path):
    run = tmp_path / "legacy-eval"
    shutil.copytree(FIXTURES / "legacy-eval", run)
    again = runner.invoke(app, ["eval", "--resume", str(run), "--max-concurrency", "2",
                                "--timeout", "30", "--quiet"])
    assert again.exit_code == 0, again.output
    assert "(0 new items, 2/2 items done" in " ".join(again.output.split())  # the old run is finished: no call
    wrong = runner.invoke(app, ["wm", "verify", "--resume", str(run)])
    assert wrong.exit_code == 1 and "is a generation run, not a wm run" in " ".join(wrong.output.split())
    probe = runner.invoke(app, ["contamination", "--resume", str(run)])
    assert probe.exit_code == 1 and "not a contamination run" in " ".join(probe.output.split())


@pytest.mark.parametrize("task", ["eval", "wm-verify", "probe"])
def test_epochs_give_samples_per_item_and_a_spread(task, tmp_path, monkeypatch):
    store = write_store(tmp_path / "store", NAMES[:2])
    data = ["--dataset", str(store)] if task in USES_STORE else []
    extra = ["--problems", "1", "--rho", "1"] if task.startswith("wm-") else ["--limit", "2"]
    with answer_server() as server:
        result = runner.invoke(app, [*TASKS[task], *data, *extra, "--model",
                                     "openai/test-model", "--api-base", server.url,
                                     "--epochs", "3", "--run-id", "epochs", "--quiet"])
        assert result.exit_code == 0, result.output
        run = open_run(Path(os.environ["T2W_RUNS_DIR"]) / "epochs")
        items = run.items()
        planned = run.config["planned_items"]
        assert sorted({item["epoch"] for item in items}) == [0, 1, 2]
        assert len(items) == 3 * planned
        # each epoch's calls are samples of their own: none is answered from the cache
        calls = sum(len(item.get("rounds") or item.get("calls") or []) for item in items)
        assert len(server.requests) == calls
        summary = json.loads((run.path / "summary.json").read_text())
        assert summary["epochs"] == 3 and len(summary["per_epoch"]) == 3
        assert summary["spread"] and all({"mean", "std", "min", "max"} <= set(values)
                                         for values in summary["spread"].values())
        # a repeated command is answered from the run (and the cache): no call
        seen = len(server.requests)
        again = runner.invoke(app, [*TASKS[task], *data, *extra, "--model", "openai/test-model",
                                    "--api-base", server.url, "--epochs", "3", "--run-id",
                                    "epochs-again", "--quiet"])
        assert again.exit_code == 0 and len(server.requests) == seen


@pytest.fixture()
def legacy_runs(tmp_path) -> Path:
    root = tmp_path / "runs"
    shutil.copytree(FIXTURES, root)
    (root / "damaged").mkdir()
    (root / "damaged" / "config.json").write_text("{not json")
    (root / "unknown-kind").mkdir()
    (root / "unknown-kind" / "config.json").write_text('{"kind": "chess", "model": "m"}')
    (root / "linked").symlink_to(root / "legacy-eval", target_is_directory=True)
    return root


def test_run_folders_written_before_the_engine_are_read_by_the_run_store(legacy_runs):
    infos = {info.run_id: info for info in list_runs(legacy_runs)}
    assert {name: info.kind for name, info in infos.items()} == {
        "legacy-eval": "generation", "legacy-wm": "wm", "legacy-probe": "contamination",
        "linked": "generation", "damaged": None, "unknown-kind": "chess"}
    assert infos["damaged"].error and "not valid JSON" in infos["damaged"].error
    assert "unknown kind" in infos["unknown-kind"].error
    for name in ("legacy-eval", "legacy-wm", "legacy-probe"):
        run = open_run(legacy_runs / name)
        assert run.version == 1 and run.items()
        assert summarize_run(run)["finished_items"] == len(run.items())
    probe = summarize_run(open_run(legacy_runs / "legacy-probe"))
    assert probe["prefix_tokens"] == 20 and probe["prompt_tokens"] > 20  # usage, not prefix


COMMON_COUNTS = ("finished_items", "planned_items", "infrastructure_errors", "calls",
                 "cached_calls", "completion_tokens", "cost", "cost_paid", "paid_calls")


@pytest.mark.parametrize("name", ["legacy-eval", "legacy-wm", "legacy-probe"])
def test_old_runs_summarize_as_they_were_summarized_when_written(name, legacy_runs):
    """The one reader and the engine's one count read a run written before them as it was
    summarized then; the viewer's counts are the same counts."""
    from text2world.engine.summary import run_counts
    from text2world.reports import runview
    from text2world.tasks.registry import summarize_run

    run = open_run(legacy_runs / name)
    stored, now = run.stored_summary(), summarize_run(run)
    assert stored is not None
    for key in COMMON_COUNTS:
        if key in stored:
            assert now[key] == stored[key], key
    if name == "legacy-eval":  # every value of the generation summary, not only the counts
        assert {k: v for k, v in now.items() if k in stored and k != "updated"} == {
            k: v for k, v in stored.items() if k != "updated"}
    page = runview.overview(run, run.scored_items())
    counts = run_counts(run)
    assert page["summary"]["calls"] == counts["calls"] == now["calls"]
    assert {k: page["summary"][k] for k in ("finished_items", "cost", "completion_tokens")} == {
        k: now[k] for k in ("finished_items", "cost", "completion_tokens")}


def test_one_rule_maps_a_config_to_its_kind_and_task(legacy_runs):
    from text2world.engine.run_store import kind_names, kind_of, run_kind
    from text2world.tasks.registry import summarize_run, task_for_kind, task_for_run

    assert kind_names() == ("generation", "wm", "contamination", "judge", "problem")
    for config, kind in [({}, "generation"), ({"kind": "eval"}, "generation"),
                         ({"kind": "generation"}, "generation"), ({"kind": "wm"}, "wm"),
                         ({"kind": "judge"}, "judge"), ({"kind": "contamination"}, "contamination"),
                         ({"kind": "problem"}, "problem")]:
        assert run_kind(config).name == kind and kind_of(config) == kind
        assert task_for_kind(kind).kind == kind
    assert kind_of({"kind": "chess"}) == "chess"
    with pytest.raises(RunError, match="unknown kind 'chess'"):
        run_kind({"kind": "chess"})
    with pytest.raises(RunError, match="unknown kind"):
        open_run(legacy_runs / "unknown-kind")
    # a run whose config says "eval" (as the first t2w eval wrote) opens as a generation run
    eval_run = legacy_runs / "eval-kind"
    shutil.copytree(legacy_runs / "legacy-eval", eval_run)
    config = json.loads((eval_run / "config.json").read_text())
    (eval_run / "config.json").write_text(json.dumps({**config, "kind": "eval"}))
    opened = open_run(eval_run)
    assert opened.kind == "generation" and task_for_run(opened).kind == "generation"
    assert summarize_run(opened)["metrics"] == \
        summarize_run(open_run(legacy_runs / "legacy-eval"))["metrics"]


@pytest.mark.parametrize("name", ["legacy-eval", "legacy-wm", "legacy-probe"])
def test_old_runs_open_in_report_viewer_and_api(name, legacy_runs, tmp_path):
    report = runner.invoke(app, ["report", str(legacy_runs / name), "--out",
                                 str(tmp_path / "report"), "--json"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    if name == "legacy-probe":  # the probe's report, not an empty eval report
        assert data["kind"] == "contamination" and data["measures"]["mean_rate"]["mean"] == 1.0
        assert data["measures"]["prefix_tokens"] == 20 and data["items"]
    else:
        assert data["runs"]
    client = TestClient(create_app(Settings(runs_dir=legacy_runs, executor="thread",
                                            score_processes=1)))
    listed = {item["id"]: item for item in client.get("/v1/runs").json()["items"]}
    assert listed[name]["finished"] and listed[name]["model"]
    detail = client.get(f"/v1/runs/{name}").json()
    assert detail["logged_items"] == len(read_jsonl(legacy_runs / name / "log.jsonl"))
    overview = client.get(f"/v1/runs/{name}/overview")
    assert overview.status_code == 200, overview.text
    first = overview.json()["items"][0]["item"]
    assert client.get(f"/v1/runs/{name}/items/{first}").status_code == 200


def test_score_run_and_report_refuse_what_they_cannot_do(legacy_runs):
    refused = runner.invoke(app, ["score-run", str(legacy_runs / "legacy-wm")])
    assert refused.exit_code == 1 and "is a wm run" in refused.output
    mixed = runner.invoke(app, ["report", str(legacy_runs / "legacy-eval"),
                                str(legacy_runs / "legacy-probe")])
    assert mixed.exit_code == 1 and "different tasks" in mixed.output


def test_wm_subcommand_help_lists_only_its_options():
    verify = runner.invoke(app, ["wm", "verify", "--help"]).output
    propose = runner.invoke(app, ["wm", "propose", "--help"]).output
    assert "--form" not in verify and "--top-k" not in verify and "--slack" not in verify
    assert "--top-k" in propose and "--slack" in propose and "--form" not in propose
    refused = runner.invoke(app, ["wm", "verify", "--model", "reference/oracle", "--form",
                                  "diff"])
    assert refused.exit_code == 1 and "--form applies to t2w wm next-state" in " ".join(refused.output.split())


@pytest.mark.slow
def test_progress_lines_without_a_terminal_are_bounded_and_quiet_silences_them(tmp_path):
    command = [sys.executable, "-m", "text2world.cli", "eval", "--model",
               "reference/noisy-oracle", "--limit", "12", "--ec", "0", "--no-semantic",
               "--workers", "0"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    shown = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True,
                           timeout=300)
    assert shown.returncode == 0, shown.stderr
    lines = [line for line in shown.stderr.splitlines() if line.startswith("eval: ")]
    assert 1 <= len(lines) <= 11 and lines[-1].startswith("eval: 12/12 items")
    quiet = subprocess.run([*command, "--quiet", "--run-id", "quiet"], env=env, cwd=REPO,
                           capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and "eval: " not in quiet.stderr
