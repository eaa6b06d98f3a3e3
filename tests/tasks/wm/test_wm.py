"""World-model tasks: items, answer parsing, scoring, reference models, the model path over a
loopback OpenAI-compatible server, resume after a kill, the CLI and reports.

Small on purpose (two train domains, few items): full sweeps live in bench/wm_bench.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer
from repo_paths import REPO
from typer.testing import CliRunner

from text2world.cli.main import app
from text2world.simulation import GroundAction, atom_to_pddl
from text2world.store.datasets import load_dataset
from text2world.tasks.wm import WmError, WmOptions, build, run_wm
from text2world.tasks.wm.items import execute
from text2world.tasks.wm.parse import AnswerError, parse_actions, parse_next_state, parse_plan_step, parse_verify
from text2world.tasks.wm.world import world_for

DOMAINS = ["blocksworld", "gripper"]


def options(**changes) -> WmOptions:
    base = dict(model="reference/oracle", domains=DOMAINS, problems_per_domain=2,
                max_concurrency=4, size="easy")
    base.update(changes)
    return WmOptions(**base)


def headline(result, key: str) -> float:
    return result.summary["metrics"]["all"]["all"][key]


# ---- the oracle is perfect, the noisy reference in between, on every task


@pytest.mark.parametrize("task,changes,keys", [
    ("next-state", {"form": "full"}, ["accuracy", "state_f1", "dynamic_f1", "static_f1"]),
    ("next-state", {"form": "diff", "rules": "concrete", "render": "text"}, ["accuracy"]),
    ("verify", {}, ["accuracy", "step_accuracy"]),
    ("propose", {}, ["hit@1", "hit@10"]),
    ("plan", {}, ["success", "state_accuracy"]),
    ("plan", {"k": 3, "rhos": (0.5,)}, ["success"]),
])
def test_oracle_scores_100_percent(task, changes, keys):
    result = run_wm(options(task=task, **changes))
    assert result.summary["finished_items"] == result.summary["planned_items"] > 0
    for key in keys:
        assert headline(result, key) == 1.0, key
    assert result.summary["metrics"]["all"]["all"]["format_errors"] == 0
    if task == "verify":
        assert headline(result, "false_positive_rate") == 0.0
        assert headline(result, "false_negative_rate") == 0.0
    if task == "next-state":  # off the plan too (the default share)
        by_origin = result.summary["metrics"]["origin"]
        assert set(by_origin) == {"on-plan", "off-plan"}
        assert all(row["items"] > 0 and row["accuracy"] == 1.0 for row in by_origin.values())


@pytest.mark.parametrize("task,key", [("next-state", "accuracy"), ("verify", "accuracy"),
                                      ("propose", "hit@1"), ("plan", "success")])
def test_noisy_reference_scores_in_between(task, key):
    result = run_wm(options(model="reference/noisy-oracle", task=task))
    assert 0.0 < headline(result, key) < 1.0
    if task == "propose":  # more proposals, more hits
        values = [headline(result, f"hit@{k}") for k in (1, 3, 5, 10)]
        assert values == sorted(values) and values[-1] > values[0]


# ---- items


def test_items_are_deterministic_for_a_seed():
    first = build(options(task="verify"))[2].items
    again = build(options(task="verify"))[2].items
    other = build(options(task="verify", seed=7))[2].items
    assert first == again
    assert [i["plan"] for i in first] != [i["plan"] for i in other]


def test_next_state_has_a_labelled_share_of_illegal_actions():
    items = build(options(task="next-state", illegal_share=0.5))[2].items
    illegal = [i for i in items if not i["applicable"]]
    assert 0 < len(illegal) < len(items)
    for item in illegal:
        world = world_for(load_dataset().get(item["domain"]), item["problem"])
        state = _replay(world, item)
        assert not world.simulator.is_applicable(state, GroundAction.parse(item["action"]))
        assert item["id"].endswith("/illegal") and item["unsatisfied"]


def _replay(world, item) -> frozenset:
    """The item's state, from its prefix replayed in the true simulator: on the plan, the
    plan's state at that step."""
    sim = world.simulator
    state = sim.initial_state
    for step in item["prefix_plan"]:
        action = GroundAction.parse(step)
        assert sim.is_applicable(state, action), step
        state = sim.successor(state, action)
    assert sorted(map(atom_to_pddl, state)) == item["state"]
    if item["origin"] == "on-plan":
        assert state == world.states[item["prefix"]]
    return state


def test_next_state_has_a_labelled_deterministic_share_of_off_plan_states():
    items = build(options(task="next-state", off_plan_share=0.5))[2].items
    assert items == build(options(task="next-state", off_plan_share=0.5))[2].items
    off = [i for i in items if i["origin"] == "off-plan"]
    assert 0 < len(off) < len(items)
    assert all("/off-plan" in i["id"] for i in off)
    left_the_plan = 0
    for item in off:
        world = world_for(load_dataset().get(item["domain"]), item["problem"])
        state = _replay(world, item)
        left_the_plan += state not in world.states
        if item["applicable"]:
            after = world.simulator.successor(state, GroundAction.parse(item["action"]))
            assert sorted(map(atom_to_pddl, after)) == item["next_state"]
    assert left_the_plan > 0
    # the on-plan items do not depend on the share; none without it; some by default
    on_plan = {i["id"]: i for i in items if i["origin"] == "on-plan"}
    without = build(options(task="next-state", off_plan_share=0.0))[2].items
    assert all(i["origin"] == "on-plan" for i in without)
    assert all(without_item == on_plan[without_item["id"]] for without_item in without
               if without_item["id"] in on_plan)
    default = build(options(task="next-state"))[2].items
    assert any(i["origin"] == "off-plan" for i in default)
    assert any(i["origin"] == "on-plan" for i in default)


def _up_valid(domain_text: str, problem_text: str, steps: list[str]) -> bool:
    """unified-planning's own plan validator, on its own parse of the texts."""
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.shortcuts import PlanValidator

    from text2world.simulation.crosscheck import up_problem

    problem = up_problem(domain_text, problem_text)
    actions = {a.name.lower(): a for a in problem.actions}
    objects = {o.name.lower(): o for o in problem.all_objects}
    plan = SequentialPlan([ActionInstance(actions[g.name], [objects[x] for x in g.args])
                           for g in map(GroundAction.parse, steps)])
    with PlanValidator(problem_kind=problem.kind, plan_kind=plan.kind) as validator:
        return validator.validate(problem, plan).status.name == "VALID"


def test_positive_plans_succeed_and_negatives_fail_in_both_validators():
    items = build(options(task="verify"))[2].items
    store = load_dataset()
    mutations = set()
    assert sum(1 for i in items if not i["valid"]) >= len(items) // 2 - 1
    for item in items:
        record = store.get(item["domain"])
        problem = next(p for p in record.problems if p.name == item["problem"])
        world = world_for(record, item["problem"])
        ours = execute(world, world.states[item["prefix"]], item["plan"])
        full = world.simulator.validate_plan(item["prefix_plan"] + item["plan"])
        assert ours["valid"] == full.valid == item["valid"], item["id"]
        assert ours["first_failing_step"] == item["first_failing_step"]
        assert _up_valid(record.domain, problem.pddl, item["prefix_plan"] + item["plan"]) \
            == item["valid"], item["id"]
        mutations.add(item["mutation"])
    assert {"none", "drop"} <= mutations and len(mutations) >= 3


def test_alternative_good_actions_count_as_hits():
    """gripper: either gripper may pick the first ball; moving away empty-handed is not a hit."""
    world = world_for(load_dataset().get("gripper"), "p01")
    state = world.states[0]
    optimum = world.remaining_cost(0)
    hits, misses = [], []
    for action in world.simulator.applicable(state):
        successor, cost = world.step_cost(state, action)
        to_go = world.optimal_cost_from(successor)
        (hits if to_go is not None and cost + to_go <= optimum else misses).append(action)
    assert world.plan[0] in hits
    assert len(hits) >= 2 and misses


# ---- answers


def test_answers_are_parsed_robustly():
    fenced = '<think>\nhmm {"x": 1}\n</think>\nSure.\n```json\n{"applicable": true, ' \
             '"state": ["(on a b)", "clear(a)", "hand-empty"]}\n```\n'
    assert parse_next_state(fenced, "full")["state"] == {("on", "a", "b"), ("clear", "a"),
                                                         ("hand-empty",)}
    bare = 'The answer is {"applicable": true, "added": ["(on a b)"], "removed": []} ok'
    assert parse_next_state(bare, "diff")["added"] == {("on", "a", "b")}
    listed = "Added:\n(holding a)\nRemoved:\n(on-table a)\n(clear a)\n"
    answer = parse_next_state(listed, "diff")
    assert answer["added"] == {("holding", "a")} and len(answer["removed"]) == 2
    assert parse_next_state("The action is not applicable here.", "full")["applicable"] is False
    assert parse_verify('```json\n{"reaches_goal": false, "first_failing_step": 2}\n```') == \
        {"reaches_goal": False, "first_failing_step": 2}
    assert parse_actions('{"actions": ["(pick a)", "pick a", "(drop b)"]}') == \
        ["(pick a)", "(drop b)"]
    assert parse_plan_step('{"done": true}')["done"] is True
    for bad, parser in [("I think it works.", lambda t: parse_next_state(t, "full")),
                        ("maybe", parse_verify), ('{"actions": "pick a"}', parse_actions),
                        ('{"action": 3}', parse_plan_step)]:
        with pytest.raises(AnswerError):
            parser(bad)


# ---- the model path over a real OpenAI-compatible server, resume, CLI, report


def test_model_path_over_a_loopback_server_with_format_errors():
    scripts = {"(domain blocksworld": Script(['```json\n{"reaches_goal": true}\n```']),
               "(domain gripper": Script(["I cannot tell."])}
    with ScriptedLLMServer(scripts) as server:
        result = run_wm(options(model="openai/test-model", api_base=server.url, task="verify",
                                max_retries=0))
        assert len(server.answered()) == result.summary["planned_items"]
    items = {i["item"]: i for i in result.run.items()}
    blocks = [i for i in items.values() if i["domain"] == "blocksworld"]
    grip = [i for i in items.values() if i["domain"] == "gripper"]
    assert all(i["metrics"]["correct"] == (i["item"].endswith("/pos")) for i in blocks)
    assert all(i["format_error"] and not i["metrics"]["correct"] for i in grip)
    per_domain = result.summary["metrics"]["domain"]
    assert per_domain["blocksworld"]["false_positive_rate"] == 1.0
    assert per_domain["blocksworld"]["false_negative_rate"] == 0.0
    assert per_domain["gripper"]["format_errors"] == len(grip)
    # the same command again: everything is done, nothing is asked
    again = run_wm(options(model="openai/test-model", api_base=server.url, task="verify"))
    assert again.new_items == 0 and again.resumed


@pytest.mark.slow
def test_resume_after_the_process_is_killed(tmp_path):
    answer = '```json\n{"reaches_goal": false, "first_failing_step": 1}\n```'
    with ScriptedLLMServer({}, default=Script([answer])) as server:
        server.hold_after(3)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        command = [sys.executable, "-m", "text2world.cli", "wm", "verify", "--model",
                   "openai/test-model", "--api-base", server.url, "--domains", "blocksworld",
                   "-j", "1", "--run-id", "killed", "--size", "easy"]
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        log = Path(os.environ["T2W_RUNS_DIR"]) / "killed" / "log.jsonl"
        try:
            assert server.held.wait(120), proc.stderr.read().decode() if proc.poll() else ""
            time.sleep(0.2)
        finally:
            os.kill(proc.pid, signal.SIGKILL)  # the parent only
            proc.wait()
        done = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(done) == 3
        server.release()
        result = run_wm(options(model="openai/test-model", api_base=server.url,
                                task="verify", domains=["blocksworld"], run_id="killed",
                                problems_per_domain=None, max_concurrency=1))
    ids = [json.loads(line)["item"] for line in log.read_text().splitlines()]
    assert result.resumed and len(ids) == len(set(ids)) == result.summary["planned_items"]
    assert result.new_items == len(ids) - 3


def test_cli_runs_builds_and_reports(tmp_path):
    runner = CliRunner()
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["wm", "build", "--out", str(out), "--domains", "blocksworld",
                                 "-t", "next-state", "-t", "verify"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["task"] for line in lines} == {"next-state", "verify"}
    assert all("## Rules" in line["prompt"] for line in lines)
    result = runner.invoke(app, ["wm", "propose", "--model", "reference/noisy-oracle",
                                 "--domains", "blocksworld", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["task"] == "propose" and summary["finished_items"] > 0
    run_dir = Path(os.environ["T2W_RUNS_DIR"]) / summary["run_id"]
    result = runner.invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    written = {p.name for p in (run_dir / "report" / "wm").iterdir()}
    assert {"report.md", "accuracy_vs_rho.png", "hit_at_k.png", "per_step.png"} <= written
    bad = runner.invoke(app, ["wm", "verify", "--model", "reference/oracle", "--rules", "x"])
    assert bad.exit_code == 2
    bad = runner.invoke(app, ["wm", "verify", "--model", "reference/oracle", "--rho", "0"])
    assert bad.exit_code == 1 and "rho" in bad.output


def test_report_shows_next_state_on_and_off_the_plan(tmp_path):
    from text2world.reports.wm import build_wm_report

    result = run_wm(options(model="reference/noisy-oracle", task="next-state",
                            off_plan_share=0.5))
    report = build_wm_report([result.run.path], tmp_path / "report")
    by_origin = report.data["by_origin"][result.run.path.name]
    assert set(by_origin) == {"on-plan", "off-plan"}
    assert sum(row["items"] for row in by_origin.values()) == result.summary["finished_items"]
    assert "### Next-state on and off the plan" in report.markdown
    assert "| off-plan |" in report.markdown and "| on-plan |" in report.markdown


def test_bad_options_are_clear_errors():
    with pytest.raises(WmError, match="no domain"):
        build(options(domains=["no-such-domain"]))
    with pytest.raises(WmError, match="-k"):
        build(options(task="propose", k=99))
    with pytest.raises(WmError, match="off-plan share"):
        build(options(task="next-state", off_plan_share=1.5))


def test_rules_settings_and_plain_language_states():
    from text2world.tasks.wm import prompts

    record = load_dataset().get("blocksworld")
    item = build(options(task="next-state", domains=["blocksworld"]))[2].items[0]
    shown = {rules: prompts.next_state_prompt(item, record, rules, "atoms", "full")
             for rules in prompts.RULES}
    assert "(:action stack" in shown["pddl"]
    assert "Preconditions:" in shown["concrete"] and "Preconditions:" not in shown["abstract"]
    assert "Only the vocabulary" in shown["none"] and "Block ?top" not in shown["none"]
    text = prompts.next_state_prompt(item, record, "none", "text", "full")
    assert "directly on the table" in text or "sits directly on block" in text
    assert not any(atom in text.split("## Action")[0].split("## Current state")[1]
                   for atom in item["state"])


def test_planner_time_bound_is_kept_and_cached(tmp_path):
    from text2world.tasks.wm.planner import PlanCache, optimal_plan

    record = load_dataset().get("bike-sharing")
    problem = next(p for p in record.problems if p.name == "p03")  # optimal A* needs > 20 s
    cache = PlanCache(tmp_path)
    first = optimal_plan(record.domain, problem.pddl, timeout=1, cache=cache)
    assert first.status == "timeout" and not first.cached
    again = optimal_plan(record.domain, problem.pddl, timeout=1, cache=cache)
    assert again.status == "timeout" and again.cached
    lama = optimal_plan(record.domain, problem.pddl, timeout=20, cache=cache, optimal=False)
    assert lama.solved and lama.plan


def test_plan_and_next_state_over_a_loopback_server():
    """Multi-call planning through a real HTTP model: an inapplicable first action fails at
    step 1; declaring the goal reached at once fails too; atom-list answers are read."""
    scripts = {"(domain blocksworld": Script(['{"done": false, "action": "(stack a a)", '
                                             '"next_state": []}']),
               "(domain gripper": Script(["```json\n{\"done\": true}\n```"])}
    with ScriptedLLMServer(scripts) as server:
        result = run_wm(options(model="openai/test-model", api_base=server.url, task="plan",
                                rhos=(1.0,)))
    items = result.run.items()
    assert items and not any(i["metrics"]["success"] for i in items)
    for item in items:
        if item["domain"] == "blocksworld":
            assert item["metrics"]["failed_step"] == 1 and len(item["calls"]) == 1
        else:
            assert item["metrics"]["declared_done"] and item["metrics"]["steps"] == 0
    answer = "Added:\n(holding b)\nRemoved:\n(hand-empty)\n"
    with ScriptedLLMServer({}, default=Script([answer])) as server:
        result = run_wm(options(model="openai/test-model", api_base=server.url,
                                task="next-state", form="diff", domains=["blocksworld"]))
    records = result.run.items()
    assert all(r["format_error"] is None for r in records)
    assert all(r["answer"]["added"] == ["(holding b)"] for r in records if r["answer"])
    legal = [r for r in records if r["metrics"]["kind"] == "legal"]
    assert legal and all(0.0 <= r["metrics"]["dynamic"]["f1"] < 1.0 for r in legal)



def test_cli_build_writes_items_to_standard_output_by_default(tmp_path):
    """``t2w wm build`` without ``--out``: the JSONL items alone on standard output (so it
    pipes), the counts on standard error."""
    done = subprocess.run([sys.executable, "-m", "text2world.cli", "wm", "build",
                           "--domains", "blocksworld", "-t", "verify", "--size", "easy"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(REPO),
                               "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    items = [json.loads(line) for line in done.stdout.splitlines()]
    assert items and {item["task"] for item in items} == {"verify"}
    assert f"{len(items)} items written to standard output" in done.stderr
    assert not list(tmp_path.iterdir())  # no file written


@pytest.mark.parametrize("task", ["next-state", "build"])
def test_wm_limits_whole_domains_by_a_flag_that_says_so(task, tmp_path):
    """--limit counts items everywhere else; the world-model tasks select whole domains, so
    their flag says domains, and --limit is refused with the flag to use."""
    out = tmp_path / "items.jsonl"
    command = (["wm", "build", "--out", str(out)] if task == "build" else
               ["wm", task, "--model", "reference/oracle", "--runs-dir", str(tmp_path / "runs")])
    refused = CliRunner().invoke(app, [*command, "--limit", "2"])
    assert refused.exit_code == 1
    assert "use --limit-domains 2" in " ".join(refused.output.split())
    done = CliRunner().invoke(app, [*command, "--limit-domains", "1", "--problems", "1"])
    assert done.exit_code == 0, done.output
    written = out if task == "build" else next((tmp_path / "runs").iterdir()) / "log.jsonl"
    assert len({json.loads(line)["domain"] for line in written.read_text().splitlines()}) == 1
