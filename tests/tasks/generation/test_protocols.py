"""Generation protocols (``t2w eval --feedback``, ``--agent``) and test-time scaling
(``--epochs`` in ``t2w report``): the paper's protocol keeps its runs' names and numbers, the
feedback protocols report what they say they do, the agent's tool calls go through litellm to
a real loopback server and through the reference model, and pass@k is Chen et al.'s."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import json
from math import comb
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer, broken_parenthesis, pddl_answer, small_domain, write_store

from text2world.engine.run_store import Run
from text2world.reports.scaling import pass_at_k, scaling_curves, select
from text2world.tasks.generation.feedback import behavior_report, loop_ends, plans_text
from text2world.tasks.generation.prompts import EvalError
from text2world.tasks.generation.task import EvalOptions, evaluate, options_from_run, plan

STORE_ITEMS = 2  # items of the built-in store in the reference-model runs (CPU-bound)


def reference_options(tmp_path: Path, **changes) -> EvalOptions:
    base = dict(model="reference/noisy-oracle", limit=STORE_ITEMS, workers=0,
                runs_root=tmp_path / "runs")
    base.update(changes)
    return EvalOptions(**base)


# ---- the run's identity


def test_paper_protocol_keeps_its_run_names_and_other_protocols_get_their_own(tmp_path):
    syntax = plan(reference_options(tmp_path))
    names = {kind: plan(reference_options(tmp_path, feedback=kind)).run_path.name
             for kind in ("plans", "behavior")}
    agent = plan(reference_options(tmp_path, agent=True, tool_budget=4))
    # the paper's protocol: the folder name runs always had (no protocol part)
    assert syntax.run_path.name.endswith("__ec3__" + syntax.run_path.name.rsplit("__", 1)[1])
    assert syntax.prepared.config["protocol"] == "syntax"
    assert names["plans"] != names["behavior"] != syntax.run_path.name
    assert "__plans__" in names["plans"] and "__behavior__" in names["behavior"]
    assert "__agent4__" in agent.run_path.name and agent.prepared.config["ec"] == 0
    assert agent.prepared.config["tool_budget"] == 4
    assert plan(reference_options(tmp_path, feedback="behavior")).prepared.config["oracle_feedback"]


def test_bad_protocol_options_are_clear_errors(tmp_path):
    with pytest.raises(EvalError, match="unknown feedback kind 'tests'"):
        plan(reference_options(tmp_path, feedback="tests"))
    with pytest.raises(EvalError, match="--agent is a protocol of its own"):
        plan(reference_options(tmp_path, feedback="plans", agent=True))
    with pytest.raises(EvalError, match="needs semantic scoring"):
        plan(reference_options(tmp_path, feedback="behavior", semantic=False))


def test_an_old_run_config_without_a_protocol_resumes_as_syntax(tmp_path):
    run = evaluate(reference_options(tmp_path, limit=1, semantic=False)).run
    config = json.loads((run.path / "config.json").read_text())
    for key in ("protocol", "feedback", "agent", "oracle_feedback"):
        config.pop(key)
    (run.path / "config.json").write_text(json.dumps(config))
    resumed = options_from_run(run.path)
    assert resumed.feedback == "syntax" and resumed.agent is False
    assert plan(resumed).run_path == run.path  # the same identity


# ---- feedback reports


def test_behavior_report_is_labelled_oracle_and_bounded():
    semantic = {"verdict": "incomplete", "diagnoses": [
        {"kind": "missing-action", "action": "drive", "message": f"`drive` {i}"}
        for i in range(6)], "problems": [
        {"name": "p01", "plan_valid": False, "plan_reason": "unsolvable",
         "gold_plan_accepted": False, "gold_plan_reason": "step 1 (drive a b): no action"}]}
    report = behavior_report(semantic)
    assert report["oracle"] and report["text"].startswith("ORACLE FEEDBACK")
    assert len(report["findings"]) == 3 and report["open"] == 3
    assert behavior_report({"verdict": "equivalent", "diagnoses": [], "problems": []})["open"] == 0
    assert "could not be simulated" in behavior_report(None)["findings"][0]["message"]


def test_plans_report_shows_plans_and_failures_and_the_loop_stops_on_a_resubmission():
    text = plans_text([{"problem": "p1", "solved": True, "status": "SOLVED_SATISFICING",
                        "plan": ["(move a b)"], "message": ""},
                       {"problem": "p2", "solved": False, "status": "UNSOLVABLE_PROVEN",
                        "message": ""},
                       {"problem": "p3", "solved": False, "status": "invalid_problem",
                        "message": "unknown predicate 'on'"}])
    assert "p1: solved in 1 step(s): (move a b)" in text
    assert "p2: UNSOLVABLE_PROVEN (no plan exists" in text
    assert "p3: cannot be read under your domain: unknown predicate 'on'" in text
    report = {"kind": "plans", "findings": [{"solved": True}], "open": 0, "text": text}
    assert not loop_ends(report, "(define)", None)
    assert loop_ends(report, "(define)", {"domain": "(define)\n", "feedback": report})
    assert loop_ends({**report, "findings": []}, "(define)", None)


def test_behavior_protocol_corrects_a_valid_domain_that_loses_an_action(tmp_path):
    # bus-routing: noisy-oracle validates at EC_1 with an action lost (seed 0)
    result = evaluate(reference_options(tmp_path, domains=["bus-routing"], limit=None,
                                        feedback="behavior"))
    item = result.run.items()[0]
    reported = [r for r in item["rounds"] if r.get("feedback")]
    assert reported and reported[0]["feedback"]["oracle"]
    assert reported[0]["error_text"].startswith("ORACLE FEEDBACK")
    # the next round's prompt carries the report; the loop ends once nothing is left
    following = item["rounds"][reported[0]["round"] + 1]
    assert "ORACLE FEEDBACK" in following["messages"][-1]["content"]
    assert item["ec"]["semantic"][-1]["verdict"] == "equivalent"
    assert item["rounds"][-1]["feedback_end"]["open"] == 0
    assert result.summary["protocol"] == "behavior" and result.summary["oracle_feedback"]
    assert result.summary["feedback_rounds"] >= 1


def test_paper_protocol_never_reports_behaviour(tmp_path):
    result = evaluate(reference_options(tmp_path, domains=["bus-routing"], limit=None))
    item = result.run.items()[0]
    assert not any(r.get("feedback") for r in item["rounds"])
    assert item["valid_round"] == len(item["rounds"]) - 1  # stops once the domain validates
    assert item["ec"]["semantic"][-1]["verdict"] != "equivalent"  # the lost action stays lost
    assert result.summary["protocol"] == "syntax" and result.summary["feedback_rounds"] == 0


# ---- the agent


def test_reference_agent_validates_before_submitting(tmp_path):
    result = evaluate(reference_options(tmp_path, domains=["brewery"], limit=None, agent=True,
                                        semantic=False))
    item = result.run.items()[0]
    (rnd,) = item["rounds"]
    assert rnd["kind"] == "agent" and item["tool_calls"] == len(rnd["tool_calls"]) >= 1
    assert {call["name"] for call in rnd["tool_calls"]} == {"validate_domain"}
    assert json.loads(rnd["tool_calls"][-1]["answer"])["ok"] is True  # validated, then submitted
    assert rnd["valid"] and result.summary["tool_calls"] == item["tool_calls"]
    assert result.summary["calls"] == rnd["turns"] == item["tool_calls"] + 1  # one per turn
    assert rnd["transcript"][0]["role"] == "assistant" and rnd["transcript"][1]["role"] == "tool"


def test_agent_tool_calls_through_litellm_to_a_loopback_server(tmp_path):
    name = "t2wp-agent"
    gold = small_domain(name)
    steps = [[{"name": "validate_domain", "arguments": {"pddl": broken_parenthesis(gold)}}],
             [{"name": "validate_domain", "arguments": {"pddl": gold}},
              {"name": "plan", "arguments": {"pddl": gold, "problem": "p9"}},
              {"name": "no_such_tool", "arguments": {}},
              {"name": "validate_domain", "arguments": {"pddl": gold}}]]
    store = write_store(tmp_path / "store", [name])
    with ScriptedLLMServer({name: Script([pddl_answer(gold)], tool_calls=steps)}) as server:
        result = evaluate(EvalOptions(model="openai/test-model", api_base=server.url,
                                      dataset=str(store), agent=True, tool_budget=4, workers=0,
                                      max_retries=0, runs_root=tmp_path / "runs"))
        bodies = list(server.bodies)
    item = result.run.items()[0]
    calls = item["rounds"][0]["tool_calls"]
    assert [c["name"] for c in calls] == ["validate_domain", "validate_domain", "plan",
                                          "no_such_tool", "validate_domain"]
    assert all(c["ok"] for c in calls[:2])  # the tool answered; the first domain is broken
    assert [json.loads(c["answer"])["ok"] for c in calls[:2]] == [False, True]
    assert "unknown_problem" in calls[2]["answer"] and "unknown_tool" in calls[3]["answer"]
    # the budget (4) is spent: the fifth call is refused and no tools are offered any more
    assert "tool_budget_spent" in calls[4]["answer"]
    assert "tools" in bodies[0] and "tools" not in bodies[-1]
    assert any(m.get("role") == "tool" for m in bodies[1]["messages"])
    assert item["valid"] and item["rounds"][0]["turns"] == 3


# ---- test-time scaling


def test_pass_at_k_is_the_unbiased_estimator():
    for n, c, k in ((4, 1, 1), (4, 2, 2), (10, 3, 5), (5, 0, 3), (5, 5, 1)):
        assert pass_at_k(n, c, k) == pytest.approx(1 - comb(n - c, k) / comb(n, k))
    assert pass_at_k(4, 3, 2) == 1.0


def _sample(epoch: int, valid: bool, executable: bool, verdict: str, domain: str) -> dict:
    return {"item": "x", "epoch": epoch, "valid": valid, "valid_round": 0 if valid else None,
            "ec": {"paper": [{"executable": float(executable)}],
                   "semantic": [{"verdict": verdict}]},
            "rounds": [{"domain": domain}]}


def test_best_of_n_selects_without_the_gold():
    samples = [_sample(0, False, False, "not_simulated", "a"), _sample(1, True, True, "incomplete", "b"),
               _sample(2, True, True, "equivalent", "c"), _sample(3, True, True, "equivalent", "c2")]
    outcomes = {"b": ("UNSOLVABLE",), "c": ("SOLVED", 3), "c2": ("SOLVED", 3)}
    # the valid samples whose behaviour agrees with most others: c (first of c, c2)
    assert select(samples, lambda d: outcomes[d]) is samples[2]
    assert select(samples[:2], lambda d: outcomes[d]) is samples[1]  # the one valid
    assert select(samples[:1], lambda d: ()) is samples[0]  # none valid: the first
    curves = scaling_curves(samples, {"epochs": 4, "ec": 0}, {}, "paper")
    assert curves is not None
    assert curves["pass_at_k"]["equivalent"][0] == pytest.approx(0.5)
    assert curves["pass_at_k"]["executable"][-1] == 1.0
    assert len(curves["best_of_n"]["executable"]) == 4


def test_epochs_give_scaling_curves_in_the_report(tmp_path):
    from text2world.reports.generation import build_report

    run = evaluate(reference_options(tmp_path, domains=["brewery", "bus-routing"], limit=None,
                                     epochs=3, semantic=False)).run
    report = build_report([run.path], out_dir=tmp_path / "report", plots=False)
    ((label, curves),) = report.data["scaling"].items()
    assert curves["epochs"] == 3 and curves["items"] == 2
    assert len(curves["pass_at_k"]["executable"]) == 3
    assert curves["pass_at_k"]["executable"] == sorted(curves["pass_at_k"]["executable"])
    assert "Test-time scaling" in report.markdown and "pass@k executable" in report.markdown
    assert len(Run.open(run.path).items()) == 6


# ---- Inspect


def test_inspect_agent_task_calls_the_same_tools(tmp_path):
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval

    import text2world.integrations.inspect_reference  # noqa: F401  (the t2w/ provider)
    from text2world.integrations.inspect_engine import ITEM_KEY
    from text2world.integrations.inspect_generation import generation

    log = inspect_eval(generation(domains="brewery", agent=True, tool_budget=5, semantic=False),
                       model="t2w/noisy-oracle", log_dir=str(tmp_path / "logs"),
                       display="none")[0]
    assert log.status == "success", log.error
    item = log.samples[0].scores["engine_scorer"].metadata[ITEM_KEY]
    calls = item["rounds"][0]["tool_calls"]
    assert item["protocol"] == "agent" and calls and calls[0]["name"] == "validate_domain"
    assert json.loads(calls[-1]["answer"])["ok"] is True and item["valid"]
    with pytest.raises(ValueError, match="unknown feedback kind"):
        generation(feedback="unit-tests")
