"""Prob2Domain (``t2w eval --description problems``): the model is given each domain's problems
and shipped plans instead of a description (the ``prob2domain`` prompt), through the CLI with
the reference models offline; scored as every generated domain; the run says what it was
given; prompts that describe a description are refused with a message."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from llm_server import forbid_network
from typer.testing import CliRunner

from text2world.cli import app
from text2world.engine.run_store import read_jsonl
from text2world.store.datasets import load_dataset
from text2world.store.plans import problems_text, shipped_plan

runner = CliRunner()
DOMAINS = ("blocksworld", "gripper", "brewery")


def _eval(*args: str):
    return runner.invoke(app, ["eval", "--no-progress", "--workers", "0",
                               "--domains", ",".join(DOMAINS), *args])


def _run_of(result) -> Path:
    assert result.exit_code == 0, result.output
    runs = [p for p in Path(os.environ["T2W_RUNS_DIR"]).iterdir() if "__problems__" in p.name]
    assert len(runs) == 1, runs
    return runs[0]


def test_the_prompt_is_the_problems_and_plans_and_the_run_says_so(monkeypatch):
    calls = forbid_network(monkeypatch)
    run = _run_of(_eval("--model", "reference/oracle", "--ec", "0", "--description", "problems"))
    assert "__problems__prob2domain__ec0__" in run.name
    config = json.loads((run / "config.json").read_text())
    assert config["description"] == "problems" and config["prompt"] == "prob2domain"
    assert config["skipped_items"] == []
    store = load_dataset()
    records = {r["item"]: r for r in read_jsonl(run / "log.jsonl") if r.get("item")}
    assert set(records) == set(DOMAINS)
    for item, logged in records.items():
        record = store.get(item)
        prompt = logged["rounds"][0]["messages"][-1]["content"]
        assert "Problems and plans:" in prompt and record.abstract.strip() not in prompt
        for problem in record.problems:
            assert problem.pddl.strip() in prompt
            plan = shipped_plan(record, problem.name, problem.pddl)
            assert "\n".join(plan.plan) in prompt  # every step, in order
        # scored as every generated domain: paper, canonical and semantic
        scores = logged["rounds"][0]["scores"]
        assert scores["paper"]["f1_effects"] == scores["canonical"]["f1_effects"] == 1.0
        assert logged["rounds"][0]["semantic"]["verdict"] == "equivalent"
    report = runner.invoke(app, ["report", str(run)])
    assert report.exit_code == 0, report.output
    assert "problems/prob2domain" in " ".join(report.output.split())
    assert calls == []


@pytest.mark.parametrize("args, message", [
    (["--prompt", "few-shot"], "--description problems takes the prob2domain prompt"),
    (["--description", "abstract", "--prompt", "prob2domain"],
     "--prompt prob2domain shows a domain's problems and plans"),
    (["--description", "plans"], "choose abstract, concrete, problems"),
    (["--mystery"], "mystery worlds do not have: drop --mystery"),
])
def test_prompts_of_descriptions_are_refused_with_a_message(args, message):
    chosen = args if "--description" in args else [*args, "--description", "problems"]
    result = _eval("--model", "reference/oracle", "--ec", "0", *chosen)
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split())


def test_a_problem_without_a_shipped_plan_says_so_and_no_problems_is_no_text():
    record = load_dataset().get("gripper")
    text = problems_text(record)
    assert text.count("A solution plan (") == len(record.problems)
    changed = replace(record, problems=(replace(record.problems[0],
                                                pddl=record.problems[0].pddl + " "),))
    assert "No solution plan is given for this problem." in problems_text(changed)
    assert problems_text(replace(record, problems=())) is None
