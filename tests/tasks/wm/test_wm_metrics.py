"""Metrics that cannot be gamed and the baselines printed beside them (issue 21): a format
error is wrong on every metric, verify's error rates count format errors on both sides, hit@K
only up to the K asked, ratios printed as ratios, no item repeated across rho, and every run
logs its trivial baselines on the same items."""

from __future__ import annotations

import pytest
from llm_server import Script, ScriptedLLMServer
from wm_helpers import overall, wm_options

from text2world.tasks.wm import build, run_wm
from text2world.tasks.wm.items import prefix_length
from text2world.tasks.wm.metrics import aggregate, score_next_state, shown

options = wm_options


def test_a_format_error_is_wrong_on_every_next_state_metric():
    item = {"applicable": True, "state": ["(a)", "(b)"], "next_state": ["(a)", "(c)"]}
    for answer in (None, {"applicable": False, "state": None, "added": set(),
                          "removed": set()}):
        scored = score_next_state(item, answer, "full")
        assert not scored["exact"] and not scored["correct"]
        assert all(scored[part]["f1"] == 0.0 for part in ("state", "dynamic", "static"))


def test_unparsable_answers_score_zero_and_below_the_copy_state_baseline():
    with ScriptedLLMServer({}, default=Script(["The state changes in several ways."])) as server:
        result = run_wm(options(model="openai/test-model", api_base=server.url,
                                task="next-state", max_retries=0))
    row = overall(result)
    assert row["format_errors"] == row["items"] > 0 and row["format_error_rate"] == 1.0
    copy = row["baselines"]["copy-state"]
    for key in ("accuracy", "state_f1", "dynamic_f1", "static_f1"):
        assert row[key] == 0.0 and row[key] <= copy[key], key
    assert copy["state_f1"] > 0.5  # the floor a model has to beat


def test_verify_counts_format_errors_as_false_positives_and_negatives():
    records = [{"metrics": {"positive": positive, "predicted": None, "correct": False,
                            "step_correct": None if positive else False, "mutation": None},
                "format_error": "unreadable"} for positive in (True, False)]
    row = aggregate("verify", records)
    assert row["false_positive_rate"] == 1.0 and row["false_negative_rate"] == 1.0


def test_propose_hits_only_up_to_the_k_asked_and_strict_beside_optimal():
    result = run_wm(options(task="propose", k=1))
    row = overall(result)
    assert row["hit@1"] == row["strict_hit@1"] == 1.0  # the oracle names the plan's action
    assert row["hit@2"] is None and row["hit@10"] is None and row["strict_hit@3"] is None
    baselines = row["baselines"]
    assert set(baselines) == {"random-applicable", "every-applicable"}
    assert 0.0 < baselines["random-applicable"]["hit@1"] < 1.0
    assert baselines["every-applicable"]["applicable@1"] == 1.0
    assert result.run.config["slack"] == 0.0  # the default: optimal actions only


def test_verify_and_plan_baselines_are_logged_with_each_item():
    verify = overall(run_wm(options(task="verify")))
    valid, invalid = verify["baselines"]["always-valid"], verify["baselines"]["always-invalid"]
    assert valid["false_negative_rate"] == 0.0 and valid["false_positive_rate"] == 1.0
    assert invalid["false_negative_rate"] == 1.0 and invalid["false_positive_rate"] == 0.0
    assert valid["accuracy"] + invalid["accuracy"] == pytest.approx(1.0)
    plan = run_wm(options(task="plan", rhos=(0.5, 1.0)))
    walk = overall(plan)["baselines"]["random-walk"]
    assert walk["items"] == overall(plan)["items"] and 0.0 <= walk["success"] < 1.0
    assert all("random-walk" in item["baselines"] for item in plan.run.items())


def test_items_are_not_repeated_across_rho():
    items = build(options(task="verify", rhos=(0.25, 0.5, 0.75, 1.0)))[2].items
    keys = [(i["domain"], i["problem"], i["prefix"], i["valid"]) for i in items]
    assert len(keys) == len(set(keys))
    assert prefix_length(0.25, 2) == prefix_length(0.5, 2)  # where repeats came from


def test_ratios_print_as_ratios_and_rates_as_percentages():
    assert shown("cost_ratio", 1.0) == "1.00" and shown("cost_ratio", 1.25) == "1.25"
    assert shown("success", 1.0) == "100.0" and shown("hit@1", None) == "-"


def test_cli_takes_model_args_and_prints_only_the_k_asked():
    import json

    from typer.testing import CliRunner

    from text2world.cli.main import app

    runner = CliRunner()
    result = runner.invoke(app, ["wm", "propose", "--model", "reference/oracle", "--domains",
                                 "gripper", "-k", "1", "--problems", "1"])
    assert result.exit_code == 0, result.output
    assert "hit@1" in result.output and "hit@3" not in result.output
    assert "random-applicable" in result.output and "every-applicable" in result.output
    result = runner.invoke(app, ["wm", "verify", "--model", "reference/oracle", "--domains",
                                 "gripper", "--problems", "1", "--model-arg", "top_p=0.5",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["finished_items"] > 0
