"""The papers' protocols, selectable: verify by rollout, propose with one query per K and the
previous actions shown, static/dynamic transitions, the planning protocol labels; and the
generated hard problems."""

from __future__ import annotations

import statistics
from pathlib import Path

from llm_server import Script, ScriptedLLMServer
from wm_helpers import overall, wm_options

from text2world.pddl.model import parse_domain
from text2world.simulation import Simulator, parse_problem
from text2world.store.datasets import load_dataset
from text2world.tasks.wm import build, run_wm
from text2world.tasks.wm.generators import generate_problem, sized_records


def options(**changes):
    return wm_options(**{"problems_per_domain": 1, **changes})


def test_verify_rollout_is_its_own_task_and_the_oracle_rolls_out_every_step():
    result = run_wm(options(task="verify-rollout"))
    row = overall(result)
    assert row["accuracy"] == 1.0 and row["rollout_state_accuracy"] == 1.0
    assert row["false_positive_rate"] == 0.0 and row["step_accuracy"] == 1.0
    assert "rollout" in result.summary["protocol"]
    for item in result.run.items():
        # one call per step the model rolls out, plus the goal question when none fails
        failing = item["metrics"]["predicted"] is False and item["answer"]["first_failing_step"]
        steps = len(item["calls"])
        assert steps >= 1 and (failing or item["calls"][-1]["response"].find("goal_holds") > 0)
    noisy = overall(run_wm(options(task="verify-rollout", model="reference/noisy-oracle",
                                   problems_per_domain=2)))
    assert noisy["accuracy"] < 1.0


def test_a_rollout_that_never_answers_is_wrong_both_ways():
    with ScriptedLLMServer({}, default=Script(["Let me think about it."])) as server:
        result = run_wm(options(task="verify-rollout", model="openai/test-model",
                                api_base=server.url, max_retries=0))
    row = overall(result)
    assert row["accuracy"] == 0.0 and row["format_error_rate"] == 1.0
    assert row["false_positive_rate"] == row["false_negative_rate"] == 1.0


def test_propose_per_k_asks_once_per_k_and_shows_previous_actions():
    result = run_wm(options(task="propose", k=5, per_k=True, rhos=(0.5,)))
    row = overall(result)
    assert [row[f"hit@{k}"] for k in (1, 2, 3, 5)] == [1.0] * 4 and row["hit@10"] is None
    for item in result.run.items():
        assert len(item["calls"]) == 4  # K = 1, 2, 3, 5
        assert set(item["answer"]["per_k"]) == {"1", "2", "3", "5"}
    first = result.run.items()[0]["calls"][0]["messages"][1]["content"]
    assert "## Actions taken so far" in first and "1. (" in first


def test_next_state_has_static_and_dynamic_transitions_when_asked():
    domains = ["gripper", "job-shop"]  # both have actions that can change nothing
    items = build(options(task="next-state", static_share=0.5, illegal_share=0.0,
                          off_plan_share=0.0, domains=domains))[2].items
    static = [i for i in items if i["id"].endswith("/static")]
    assert static and len(static) < len(items)
    for item in static:
        assert item["next_state"] == item["state"] and not item["added"]
    result = run_wm(options(task="next-state", static_share=0.5, illegal_share=0.0,
                            off_plan_share=0.0, domains=domains))
    by_kind = result.summary["metrics"]["transition"]
    assert by_kind["static"]["items"] == len(static) and by_kind["dynamic"]["items"] > 0
    assert by_kind["static"]["baselines"]["copy-state"]["accuracy"] == 1.0
    assert by_kind["dynamic"]["baselines"]["copy-state"]["accuracy"] == 0.0
    assert overall(result)["dynamic_transition_accuracy"] == 1.0


def test_planning_protocols_are_labelled():
    loop = run_wm(options(task="plan", rhos=(1.0,)))
    choose = run_wm(options(task="plan", k=3, rhos=(1.0,)))
    assert loop.summary["protocol"] == "loop (K=1)"
    assert choose.summary["protocol"].startswith("self-selection (K=3")


def test_generated_problems_are_bigger_seeded_and_solvable():
    record = load_dataset().get("gripper")
    problem = generate_problem(record, 0, "h01")
    assert problem == generate_problem(record, 0, "h01")
    assert problem != generate_problem(record, 1, "h01")
    domain = parse_domain(record.domain)
    big = Simulator(domain, parse_problem(record.domain, problem.pddl))
    small = Simulator(domain, parse_problem(record.domain, record.problems[0].pddl))
    assert len(big.applicable(big.initial_state)) >= 20 > len(small.applicable(
        small.initial_state))
    hard = sized_records([record], "hard")[0]
    assert hard.problems and all(p.name.startswith("h") for p in hard.problems)
    result = run_wm(options(task="propose", size="hard", domains=["gripper"]))
    row = overall(result)
    assert row["hit@1"] == 1.0
    assert row["baselines"]["random-applicable"]["hit@1"] < 0.5
    counts = [i["baselines"]["random-applicable"]["applicable_actions"]
              for i in result.run.items()]
    assert statistics.median(counts) >= 20


def test_next_state_with_worked_examples_from_the_train_split():
    result = run_wm(options(task="next-state", examples=2, domains=["gripper", "job-shop"]))
    assert overall(result)["accuracy"] == 1.0
    for item in result.run.items():
        prompt = item["calls"][0]["messages"][1]["content"]
        assert prompt.count("# Worked example") == 2 and "Right answer:" in prompt
        assert f"(domain {item['domain']})" not in prompt.split("# Your question")[0]
    assert result.run.config["examples"] == 2


def test_the_same_world_both_ways():
    """The oracle writes the gold domains and predicts every successor: both ways agree. The
    noisy reference's own domains and direct answers differ from the truth in places."""
    import json
    import os

    from typer.testing import CliRunner

    from text2world.cli.main import app

    runner = CliRunner()
    runs = Path(os.environ["T2W_RUNS_DIR"])
    for model, run_id in (("reference/oracle", "eval-oracle"),
                          ("reference/noisy-oracle", "eval-noisy")):
        result = runner.invoke(app, ["eval", "--model", model, "--domains",
                                     "blocksworld,gripper", "--ec", "0", "--no-semantic",
                                     "--no-progress", "--run-id", run_id])
        assert result.exit_code == 0, result.output
    wm = run_wm(options(task="next-state", model="reference/oracle"))
    result = runner.invoke(app, ["wm", "both-ways", str(runs / "eval-oracle"),
                                 str(wm.run.path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["items"] > 0 and data["agree"] == data["own_domain_accuracy"] == 1.0
    assert data["direct_accuracy"] == 1.0 and data["write_not_simulate"] == 0
    noisy = run_wm(options(task="next-state", model="reference/noisy-oracle",
                           problems_per_domain=2))
    bad = runner.invoke(app, ["wm", "both-ways", str(runs / "eval-oracle"),
                              str(noisy.run.path)])
    assert bad.exit_code == 1 and "different models" in bad.output
    result = runner.invoke(app, ["wm", "both-ways", str(runs / "eval-noisy"),
                                 str(noisy.run.path), "--json"])
    if result.exit_code == 0:  # the noisy reference wrote at least one valid domain
        data = json.loads(result.stdout)
        assert data["direct_accuracy"] < 1.0
        assert data["write_not_simulate"] + data["simulate_not_write"] <= data["items"]
    else:
        assert "no next-state item" in result.output
