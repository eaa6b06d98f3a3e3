"""``t2w judge``: the LLM-judge baseline against our semantic verdicts, on the engine. The
judged run is a reference run of the built-in store (semantic scores); the judges are the
offline reference judges and an LLM judge served by the loopback server."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer
from typer.testing import CliRunner

from text2world.cli import app as cli
from text2world.stats import bootstrap_kappa, cohen_kappa
from text2world.tasks.generation.task import EvalOptions, evaluate
from text2world.tasks.judge.agreement import parse_rating
from text2world.tasks.judge.task import JudgeError, JudgeOptions, judge

LIMIT = 10


@pytest.fixture(scope="module")
def judged(tmp_path_factory) -> Path:
    """reference/noisy-oracle on the first test items of the built-in store: some final
    domains equivalent to the gold, some incomplete (an action dropped)."""
    root = tmp_path_factory.mktemp("judge")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("T2W_HOME", str(root / "home"))
        result = evaluate(EvalOptions(model="reference/noisy-oracle", limit=LIMIT, ec=3,
                                      workers=0, runs_root=root / "runs"))
    return result.run.path


def _judge(judged: Path, model: str, **options) -> dict:
    return judge(JudgeOptions(model=model, source=judged, runs_root=judged.parent,
                              **options)).summary


def test_kappa_by_hand():
    assert cohen_kappa([(True, True), (False, False), (True, False), (False, True)]) == 0.0
    assert cohen_kappa([(True, True), (False, False)]) == 1.0
    assert cohen_kappa([(True, True), (True, True)]) is None  # chance agreement 1
    # 20 rated pairs, po = 0.7, pe = 0.5: kappa 0.4
    pairs = [(True, True)] * 7 + [(False, False)] * 7 + [(True, False)] * 3 + [(False, True)] * 3
    interval = bootstrap_kappa([[pair] for pair in pairs])
    assert interval.mean == pytest.approx(0.4) and interval.low < 0.4 < interval.high
    assert parse_rating("close.\n\nRating: [[5]]") == 5
    assert parse_rating("<think>[[1]]</think> Rating: 4") == 4
    assert parse_rating("Rating: [[7]]") is None and parse_rating("no idea") is None


def test_reference_judges_floor_and_ceiling(judged):
    summaries = {name: _judge(judged, f"reference/judge-{name}")
                 for name in ("yes", "random", "oracle")}
    yes, random, oracle = summaries["yes"], summaries["random"], summaries["oracle"]
    matrix = oracle["confusion"]
    assert matrix["same"]["same"] > 0 and matrix["different"]["different"] > 0, matrix
    assert matrix["same"]["different"] == matrix["different"]["same"] == 0
    assert oracle["kappa"]["mean"] == pytest.approx(1.0) and oracle["accuracy"] == 1.0
    assert oracle["kappa"]["low"] == pytest.approx(1.0) and oracle["disagreements"] == []
    assert yes["kappa"]["mean"] == pytest.approx(0.0)
    assert yes["kappa"]["low"] == pytest.approx(0.0) == yes["kappa"]["high"]
    assert yes["accuracy"] == pytest.approx(yes["ours_same"])
    assert random["kappa"]["low"] <= 0.0 <= random["kappa"]["high"]  # chance: 0 not excluded
    for summary in summaries.values():  # floors and ceiling on every report, same items
        assert summary["judged"] == oracle["judged"] >= 5
        assert summary["reference"]["reference/judge-random"]["kappa"] == random["kappa"]
        assert summary["reference"]["reference/judge-oracle"]["kappa"]["mean"] == 1.0
        assert summary["paper_kappa"]["value"] == 0.10
    # the disagreements of judge-yes are our incomplete/different items, with a counterexample
    assert {row["verdict"] for row in yes["disagreements"]} <= {"different", "incomplete"}
    assert all(row["counterexample"] for row in yes["disagreements"])
    assert len(yes["disagreements"]) == matrix["different"]["different"]


def test_an_llm_judge_through_the_loopback_server(judged):
    from text2world.engine.run_store import Run

    items = [json.loads(line) for line in (judged / "log.jsonl").read_text().splitlines()]
    names = sorted(str(item["item"]) for item in items)
    scripts = {f"(domain {name})": Script([f"They match.\n\nRating: [[{5 if i % 2 else 2}]]"])
               for i, name in enumerate(names)}
    scripts[f"(domain {names[0]})"] = Script(["I cannot tell."])  # no rating: not counted
    with ScriptedLLMServer(scripts) as server:
        options = dict(api_base=server.url, timeout=5, retry_base_delay=0.01)
        summary = _judge(judged, "openai/judge-model", epochs=2, **options)
        first_calls = len(server.requests)
        again = judge(JudgeOptions(model="openai/judge-model", source=judged,
                                   runs_root=judged.parent, epochs=2, **options))
    assert first_calls == 2 * summary["items"] + 2 * (names[0] not in
                                                      summary["excluded_items"])
    assert again.new_items == 0 and len(server.requests) == first_calls  # resumed: no call
    assert summary["unparsed_items"] == ([names[0]] if names[0] not in
                                         summary["excluded_items"] else [])
    assert summary["epochs"] == 2 and "kappa" in summary["spread"]
    assert summary["judged"] == sum(sum(row.values()) for row in summary["confusion"].values())
    assert summary["kappa"]["method"] == "items+epochs"
    for row in summary["disagreements"]:
        assert row["judge"] != row["ours"] and row["rating"] in (2, 5)
    run = Run.open(again.run.path)
    assert run.config["kind"] == "judge" and run.config["source_run"] == judged.name
    assert "gpt4_evaluation" in run.config["prompt_source"]
    assert len(run.paid_calls()) == first_calls  # every answered call is in the ledger


def test_cli_and_report(judged, tmp_path):
    # a runs folder of its own: resuming with --epochs 2 must not change the oracle run the
    # other tests judge with (test order is random)
    runner = CliRunner()
    result = runner.invoke(cli, ["judge", str(judged), "--model", "reference/judge-oracle",
                                 "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 0, result.output
    assert "1.00 [1.00, 1.00]" in result.output and "Confusion matrix" in result.output
    run_path = " ".join(result.output.split()).split("run: ")[-1].split(" (")[0]  # wrapped at 80
    again = runner.invoke(cli, ["judge", "--resume", run_path, "--epochs", "2",
                                "--runs-dir", str(tmp_path / "runs")])
    assert again.exit_code == 0 and "resumed" in again.output and "over 2 epochs" in " ".join(again.output.split())
    report = runner.invoke(cli, ["report", run_path, "--json"])
    assert report.exit_code == 0, report.output
    assert json.loads(report.output)["kappa"]["mean"] == pytest.approx(1.0)


def test_bad_input_is_a_clear_error(judged, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["judge", str(tmp_path / "nothing"), "--model",
                                 "reference/judge-yes"])
    assert result.exit_code == 1 and "nothing" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["judge", str(judged)])
    assert result.exit_code == 1 and "--model" in result.output
    with pytest.raises(JudgeError, match="not judged items"):
        _judge(judged, "reference/judge-yes", domains=["no-such-item"])
    # a judge run is not a generation run
    made = judge(JudgeOptions(model="reference/judge-yes", source=judged,
                              runs_root=judged.parent, limit=1))
    with pytest.raises(JudgeError, match="not a generation run"):
        _judge(made.run.path, "reference/judge-yes")
    # reference judges judge only, and the reference generators do not judge
    result = runner.invoke(cli, ["judge", str(judged), "--model", "reference/oracle",
                                 "--runs-dir", str(judged.parent)])
    assert result.exit_code == 1 and "cannot judge" in " ".join(result.output.split())
    result = runner.invoke(cli, ["eval", "--model", "reference/judge-yes", "--limit", "1",
                                 "--runs-dir", str(tmp_path / "runs"), "--quiet"])
    assert result.exit_code != 0 and "only inside t2w judge" in " ".join(result.output.split())


def test_the_viewer_shows_a_judge_run(judged):
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    made = judge(JudgeOptions(model="reference/judge-yes", source=judged,
                              runs_root=judged.parent))
    with TestClient(create_app(Settings(runs_dir=judged.parent, executor="thread",
                                        score_processes=1))) as client:
        data = client.get(f"/v1/runs/{made.run.path.name}/overview").json()
        assert data["kind"] == "judge" and data["judge"]["kappa"]["mean"] == pytest.approx(0.0)
        assert data["judge"]["reference"]["reference/judge-oracle"]["kappa"]["mean"] == 1.0
        assert len(data["items"]) == data["judge"]["judged"]
        wrong = data["judge"]["disagreements"][0]
        item = client.get(f"/v1/runs/{made.run.path.name}/items/{wrong['item']}").json()
        assert item["kind"] == "judge" and item["counterexample"] == wrong["counterexample"]
        assert "Rating: [[5]]" in item["response"]
        listing = client.get("/v1/runs").json()
        entry = next(r for r in listing["items"] if r["id"] == made.run.path.name)
        assert entry["summary"]["kappa"]["mean"] == pytest.approx(0.0)
        assert client.get(f"/v1/runs/{made.run.path.name}").json()["published"] is None
        assert "judgeRunPage" in client.get("/view/assets/viewer.js").text
