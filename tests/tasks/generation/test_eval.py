"""``t2w eval`` against a real OpenAI-compatible server on 127.0.0.1, reached through litellm."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import json
from pathlib import Path

import pytest
from llm_server import (
    Script,
    ScriptedLLMServer,
    broken_parenthesis,
    forbid_network,
    pddl_answer,
    small_domain,
    undefined_predicate,
    write_store,
)

from text2world.engine.run_store import Run, read_jsonl
from text2world.scoring.metrics import score
from text2world.tasks.generation.rescore import rescore_run
from text2world.tasks.generation.task import EvalOptions, evaluate, plan

NAMES = ["t2wt-valid", "t2wt-fix1", "t2wt-fix2", "t2wt-fix3", "t2wt-never", "t2wt-nopddl",
         "t2wt-think", "t2wt-429", "t2wt-500", "t2wt-slow"]


def gold(name: str) -> str:
    return small_domain(name)


def scripts() -> dict[str, Script]:
    def broken_then_fixed(name: str, corrections: int) -> list[str]:
        breakers = [broken_parenthesis, undefined_predicate]
        return ([pddl_answer(breakers[i % 2](gold(name))) for i in range(corrections)]
                + [pddl_answer(gold(name), "Fixed.")])

    return {
        "t2wt-valid": Script([pddl_answer(gold("t2wt-valid"))]),
        "t2wt-fix1": Script(broken_then_fixed("t2wt-fix1", 1)),
        "t2wt-fix2": Script(broken_then_fixed("t2wt-fix2", 2)),
        "t2wt-fix3": Script(broken_then_fixed("t2wt-fix3", 3)),
        "t2wt-never": Script([pddl_answer(broken_parenthesis(gold("t2wt-never")))]),
        "t2wt-nopddl": Script(["I cannot write domain t2wt-nopddl, sorry.",
                               pddl_answer(gold("t2wt-nopddl"))]),
        "t2wt-think": Script(["<think>\nthe (define (domain wrong)) draft\n</think>\n"
                              + pddl_answer(gold("t2wt-think"))],
                             reasoning="reasoning field of a reasoning model"),
        "t2wt-429": Script([pddl_answer(gold("t2wt-429"))], faults=["429", "429"]),
        "t2wt-500": Script([pddl_answer(gold("t2wt-500"))], faults=["500"]),
        "t2wt-slow": Script([pddl_answer(gold("t2wt-slow"))], faults=["slow"]),
    }


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    return write_store(tmp_path / "store", NAMES)


@pytest.fixture()
def server():
    with ScriptedLLMServer(scripts(), slow_seconds=2.5) as running:
        yield running


def options(store: Path, server: ScriptedLLMServer, **changes) -> EvalOptions:
    base = dict(model="openai/test-model", api_base=server.url, dataset=str(store), ec=3,
                timeout=1.0, max_retries=3, retry_base_delay=0.01, max_concurrency=4,
                workers=0)
    base.update(changes)
    return EvalOptions(**base)


def by_item(run: Run) -> dict[str, dict]:
    return {item["item"]: item for item in run.items()}


def test_rounds_scores_and_faults_through_litellm(store, server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    network = forbid_network(monkeypatch)
    result = evaluate(options(store, server))
    assert network == []  # litellm reached nothing but the loopback server
    items = by_item(result.run)
    assert set(items) == set(NAMES)
    expected_rounds = {"t2wt-valid": 1, "t2wt-fix1": 2, "t2wt-fix2": 3, "t2wt-fix3": 4,
                       "t2wt-never": 4, "t2wt-nopddl": 2, "t2wt-think": 1, "t2wt-429": 1,
                       "t2wt-500": 1, "t2wt-slow": 1}
    for name, count in expected_rounds.items():
        assert items[name]["rounds_used"] == count, name
        assert items[name]["valid"] == (name != "t2wt-never"), name
        assert items[name]["valid_round"] == (None if name == "t2wt-never" else count - 1)

    # error categories of the rounds, in the paper's taxonomy
    fix2 = items["t2wt-fix2"]["rounds"]
    assert [r["category"] for r in fix2] == ["IncorrectParentheses", "Other", None]
    assert "unknown-pred" in fix2[1]["error_text"]
    nopddl = items["t2wt-nopddl"]["rounds"][0]
    assert not nopddl["extracted"] and nopddl["validation"]["errors"][0]["kind"] == "NoDomainFound"

    # EC_i carries the last round <= i: executability per round, both modes
    for mode in ("paper", "canonical"):
        assert [s["executable"] for s in items["t2wt-fix2"]["ec"][mode]] == [False, False,
                                                                            True, True]
        assert [s["executable"] for s in items["t2wt-never"]["ec"][mode]] == [False] * 4
        assert items["t2wt-valid"]["ec"][mode][0]["f1_effects"] == 1.0
    # the recorded score equals the library's score of the recorded domain
    last = items["t2wt-fix3"]["rounds"][-1]
    assert last["scores"]["paper"] == score(gold("t2wt-fix3"), last["domain"], "paper").to_dict()

    # reasoning kept in the log, stripped before extraction
    think = items["t2wt-think"]["rounds"][0]
    assert "<think>" in think["response"] and think["reasoning"] == \
        "reasoning field of a reasoning model"
    assert "(domain t2wt-think)" in think["domain"] and think["valid"]

    # retries: 429 twice, 500 once, one answer slower than the timeout
    assert items["t2wt-429"]["rounds"][0]["attempts"] == 3
    assert items["t2wt-500"]["rounds"][0]["attempts"] == 2
    assert items["t2wt-slow"]["rounds"][0]["attempts"] == 2
    statuses = [r.status for r in server.requests if r.marker == "t2wt-429"]
    assert statuses == [429, 429, 200]

    # the correction prompt carries the error and the history of earlier rounds
    fix3_bodies = [b for b in server.bodies if "t2wt-fix3" in json.dumps(b)]
    last_prompt = fix3_bodies[-1]["messages"][-1]["content"]
    assert "Round 3\nDomain with errors:" in last_prompt
    assert "Round 1\nDomain with errors:" in last_prompt and "Round 2" in last_prompt
    assert fix3_bodies[-1]["temperature"] == 0

    # summary: EC_0 .. EC_3 from one run, counts per round
    summary = json.loads((result.run.path / "summary.json").read_text())
    assert summary["finished_items"] == 10 and summary["infrastructure_errors"] == 0
    assert summary["valid_at_round"] == [5, 7, 8, 9]
    exec_curve = [row["executable"] for row in summary["metrics"]["paper"]]
    assert exec_curve == pytest.approx([0.5, 0.7, 0.8, 0.9])
    config = json.loads((result.run.path / "config.json").read_text())
    assert config["dataset_hash"] and config["prompt_hash"] and config["code_version"]
    assert "EMPTY" not in (result.run.path / "config.json").read_text()


def test_infrastructure_errors_are_separate_and_retried_on_resume(store, monkeypatch):
    with ScriptedLLMServer({"t2wt-valid": Script([pddl_answer(gold("t2wt-valid"))],
                                                 faults=["500"] * 3),
                            "t2wt-fix1": Script([pddl_answer(gold("t2wt-fix1"))])}) as srv:
        opts = options(store, srv, domains=["t2wt-valid", "t2wt-fix1"], max_retries=1)
        first = evaluate(opts)
        assert first.failed_items == 1
        errors = read_jsonl(first.run.errors_path)
        assert errors[0]["item"] == "t2wt-valid" and errors[0]["error"]["attempts"] == 2
        assert [i["item"] for i in first.run.items()] == ["t2wt-fix1"]
        assert first.summary["infrastructure_errors"] == 1
        assert first.summary["metrics"]["paper"][0]["items"] == 1  # not scored as a failure
        second = evaluate(opts)  # same command again: resumes, retries only the failed item
        assert second.resumed and second.new_items == 1
        assert sorted(i["item"] for i in second.run.items()) == ["t2wt-fix1", "t2wt-valid"]
        assert second.summary["infrastructure_errors"] == 0
        fix1_requests = [r for r in srv.requests if r.marker == "t2wt-fix1"]
        assert len(fix1_requests) == 1


def test_cache_means_a_repeated_run_never_pays_twice(store, server, tmp_path):
    opts = options(store, server, domains=["t2wt-fix2", "t2wt-valid"], run_id="first")
    first = evaluate(opts)
    answered = len(server.answered())
    assert answered == 4
    second = evaluate(options(store, server, domains=["t2wt-fix2", "t2wt-valid"],
                              run_id="second"))
    assert len(server.answered()) == answered  # everything came from the cache
    assert all(r["cached"] for item in second.run.items() for r in item["rounds"])
    assert second.summary["cached_calls"] == 4
    assert [i["ec"] for i in sorted(first.run.items(), key=lambda i: i["item"])] == \
        [i["ec"] for i in sorted(second.run.items(), key=lambda i: i["item"])]
    evaluate(options(store, server, domains=["t2wt-valid"], run_id="third", use_cache=False))
    assert len(server.answered()) == answered + 1
    # a different generation setting is a different call
    evaluate(options(store, server, domains=["t2wt-valid"], run_id="fourth", temperature=0.5))
    assert len(server.answered()) == answered + 2

    from typer.testing import CliRunner

    from text2world.cli import app

    runner = CliRunner()
    inspected = json.loads(runner.invoke(app, ["cache", "inspect", "--json"]).output)
    # the --no-cache call rewrote an existing entry; the temperature 0.5 call added one
    assert inspected["entries"] == answered + 1
    assert inspected["models"]["openai/test-model"]["entries"] == answered + 1
    cleared = runner.invoke(app, ["cache", "clear", "--model", "openai/test-model", "--yes"])
    assert cleared.exit_code == 0 and f"removed {answered + 1}" in cleared.output
    evaluate(options(store, server, domains=["t2wt-valid"], run_id="fifth"))
    assert len(server.answered()) == answered + 3  # the cache was really emptied


def test_same_command_resumes_and_skips_finished_items(store, server):
    opts = options(store, server, domains=["t2wt-valid", "t2wt-fix1"])
    first = evaluate(opts)
    requests = len(server.requests)
    again = evaluate(opts)
    assert again.resumed and again.new_items == 0 and again.run.path == first.run.path
    assert len(server.requests) == requests
    assert len(read_jsonl(first.run.log_path)) == 2


def test_different_settings_refuse_to_mix_into_one_run(store, server):
    from text2world.engine.run_store import RunError

    evaluate(options(store, server, domains=["t2wt-valid"], run_id="fixed"))
    with pytest.raises(RunError, match="different run"):
        evaluate(options(store, server, domains=["t2wt-valid"], run_id="fixed", ec=1))


def test_rescore_run_without_calling_the_model(store, server):
    result = evaluate(options(store, server, domains=["t2wt-fix1", "t2wt-never"]))
    before = len(server.requests)
    summary = rescore_run(result.run.path, ("canonical",))
    assert len(server.requests) == before
    rescored = {r["item"]: r for r in read_jsonl(result.run.path / "scores.jsonl")}
    items = by_item(result.run)
    for name in ("t2wt-fix1", "t2wt-never"):
        assert rescored[name]["ec"]["canonical"] == items[name]["ec"]["canonical"]
    assert summary["metrics"]["canonical"] == result.summary["metrics"]["canonical"]


def test_rescore_run_rewrites_the_summary_every_run_gets(store, server):
    """score-run goes through the engine's summary: the counts, epochs, per-epoch values and
    their spread are those of the run, not dropped."""
    result = evaluate(options(store, server, domains=["t2wt-fix1", "t2wt-valid"], epochs=2))
    summary = rescore_run(result.run.path, ("paper", "canonical"))
    assert set(result.summary) <= set(summary)
    assert summary["epochs"] == 2 and len(summary["per_epoch"]) == 2 and summary["spread"]
    for key in ("finished_items", "calls", "cached_calls", "cost", "cost_paid", "paid_calls",
                "calls_sent", "per_epoch", "spread", "metrics", "valid_at_round"):
        assert summary[key] == result.summary[key], key
    stored = result.run.stored_summary()
    assert stored["epochs"] == 2 and stored["per_epoch"] == summary["per_epoch"]
    assert stored["rescored"]["modes"] == ["paper", "canonical"]


def test_plan_checks_before_any_call(store, server, monkeypatch):
    from text2world.tasks.generation.task import EvalError

    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    with pytest.raises(EvalError, match="DEEPSEEK_API_KEY"):
        plan(EvalOptions(model="deepseek-r1", dataset=str(store)))
    with pytest.raises(EvalError, match="unknown model"):
        plan(EvalOptions(model="no-such-model-xyz", dataset=str(store)))
    with pytest.raises(EvalError, match="t2wt-missing"):
        plan(options(store, server, domains=["t2wt-missing"]))
    with pytest.raises(EvalError, match="secret"):
        plan(options(store, server, model_args={"api_key": "sk-123"}))
    assert server.requests == []


def test_few_shot_uses_two_train_domains(tmp_path, server):
    root = write_store(tmp_path / "fs", ["t2wt-valid", "t2wt-fix1", "t2wt-train-a",
                                         "t2wt-train-b"])
    (root / "manifest.json").write_text(json.dumps({"domains": [
        {"id": "t2wt-train-a", "split": "train"}, {"id": "t2wt-train-b", "split": "train"},
        {"id": "t2wt-valid", "split": "test"}, {"id": "t2wt-fix1", "split": "test"}]}))
    result = evaluate(options(root, server, prompt="few-shot", domains=["t2wt-valid"]))
    prompt = server.bodies[0]["messages"][-1]["content"]
    assert "Example 1:" in prompt and "(domain t2wt-train-a)" in prompt
    assert "(domain t2wt-train-b)" in prompt
    assert result.run.config["few_shot_examples"] == ["t2wt-train-a", "t2wt-train-b"]
    assert result.run.config["exemplars_evaluated"] == []


def test_a_few_shot_exemplar_is_not_evaluated_unless_asked(tmp_path, server):
    from text2world.tasks.generation.prompts import EvalError

    root = write_store(tmp_path / "fs", ["t2wt-valid", "t2wt-train-a", "t2wt-train-b"])
    (root / "manifest.json").write_text(json.dumps({"domains": [
        {"id": "t2wt-train-a", "split": "train"}, {"id": "t2wt-train-b", "split": "train"},
        {"id": "t2wt-valid", "split": "test"}]}))
    chosen = ["t2wt-valid", "t2wt-train-b"]
    with pytest.raises(EvalError, match="exemplar t2wt-train-b is also selected.*"
                                        "--allow-exemplar-items"):
        plan(options(root, server, prompt="few-shot", domains=chosen))
    with pytest.raises(EvalError, match="exemplars t2wt-train-a, t2wt-train-b are also"):
        plan(options(root, server, prompt="few-shot", split="train"))
    assert server.requests == []
    # Zero-shot prompts hold no gold: the same selection is fine.
    plan(options(root, server, domains=chosen))
    allowed = plan(options(root, server, prompt="few-shot", domains=chosen,
                           allow_exemplar_items=True))
    assert allowed.config["exemplars_evaluated"] == ["t2wt-train-b"]
