"""Mystery worlds: every store domain obfuscated consistently; the simulator's results are
identical under the renaming; the oracle scores the same on both; the report pairs them."""

from __future__ import annotations

import pytest

from text2world.pddl.model import parse_domain
from text2world.simulation import GroundAction, Simulator, parse_problem
from text2world.store.datasets import load_dataset
from text2world.tasks.wm import WmOptions, run_wm
from text2world.tasks.wm.mystery import mystery_record

STORE = load_dataset()


def _simulator(record, problem):
    return Simulator(parse_domain(record.domain), parse_problem(record.domain, problem.pddl))


@pytest.mark.parametrize("record", STORE.records, ids=lambda r: r.id)
def test_simulation_is_identical_under_the_renaming(record):
    mystery = mystery_record(record, seed=3)
    names = mystery.meta["mystery_names"]
    original_domain, renamed_domain = parse_domain(record.domain), parse_domain(mystery.domain)
    # no declared name survives (predicates, actions, types other than PDDL's own)
    assert not {p.name for p in original_domain.predicates} & \
        {p.name for p in renamed_domain.predicates}
    assert not {a.name for a in original_domain.actions} & \
        {a.name for a in renamed_domain.actions}

    def atom(a):
        return tuple(names.get(x, x) for x in a)

    def state(s):
        return frozenset(atom(a) for a in s)

    def action(g):
        return GroundAction(names.get(g.name, g.name), tuple(names.get(x, x) for x in g.args))

    problem = record.problems[0]
    renamed_problem = next(p for p in mystery.problems if p.name == problem.name)
    ours, theirs = _simulator(record, problem), _simulator(mystery, renamed_problem)
    assert state(ours.initial_state) == theirs.initial_state
    for seed in (0, 1):
        walk = ours.random_walk(8, seed)
        for before, step, after in zip(walk.states, walk.actions, walk.states[1:]):
            assert {action(g) for g in ours.applicable(before)} == \
                set(theirs.applicable(state(before)))
            assert theirs.successor(state(before), action(step)) == state(after)
            assert ours.goal_reached(after) == theirs.goal_reached(state(after))
            assert ours.transition(before, step)[1] == \
                theirs.transition(state(before), action(step))[1]


def test_descriptions_are_renamed_to_match():
    record = STORE.get("blocksworld")
    mystery = mystery_record(record)
    names = mystery.meta["mystery_names"]
    for predicate in parse_domain(record.domain).predicates:
        assert f"({predicate.name} " not in mystery.concrete.lower()
        assert f"({names[predicate.name]}" in mystery.concrete.lower()
    assert mystery_record(record) == mystery  # seeded: the same copy again
    assert mystery_record(record, seed=1).domain != mystery.domain


@pytest.mark.parametrize("task", ["next-state", "verify", "propose", "plan"])
def test_the_oracle_scores_the_same_on_original_and_mystery_worlds(task, tmp_path):
    from text2world.reports.wm import build_wm_report

    results = [run_wm(WmOptions(model="reference/oracle", task=task, size="easy",
                                domains=["blocksworld", "gripper"], problems_per_domain=1,
                                mystery=mystery, rhos=(0.5, 1.0)))
               for mystery in (False, True)]
    plain, obscured = (r.summary["metrics"]["all"]["all"] for r in results)
    head = {"next-state": "accuracy", "verify": "accuracy", "propose": "hit@1",
            "plan": "success"}[task]
    assert plain[head] == obscured[head] == 1.0
    assert plain["items"] == obscured["items"]
    calls = results[1].run.items()[0]["calls"][0]["messages"][1]["content"]
    assert "blocksworld" not in calls.lower() and "gripper" not in calls.lower()
    report = build_wm_report([r.run.path for r in results], tmp_path / "report")
    assert "## Side by side" in report.markdown and "mystery" in report.markdown


def test_a_mystery_store_runs_the_generation_task_with_the_same_oracle_score(tmp_path):
    import json
    import os
    from pathlib import Path

    from typer.testing import CliRunner

    from text2world.cli.main import app

    runner = CliRunner()
    out = tmp_path / "mystery"
    result = runner.invoke(app, ["wm", "mystery", "--out", str(out), "--domains",
                                 "blocksworld,gripper"])
    assert result.exit_code == 0, result.output
    mystery = load_dataset(str(out))
    assert {r.id for r in mystery} == {"blocksworld", "gripper"}
    assert "blocksworld" not in mystery.get("blocksworld").domain.lower()
    runs = Path(os.environ["T2W_RUNS_DIR"])
    scores = []
    for dataset, run_id in (("text2world", "plain"), (str(out), "mystery")):
        result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--dataset",
                                     dataset, "--domains", "blocksworld,gripper", "--ec", "0",
                                     "--no-semantic", "--no-progress", "--run-id", run_id])
        assert result.exit_code == 0, result.output
        summary = json.loads((runs / run_id / "summary.json").read_text())
        scores.append(summary)
    assert scores[0]["finished_items"] == scores[1]["finished_items"] == 2
    assert scores[1]["metrics"]["paper"][0]["f1_effects"] == 1.0
    assert json.dumps(scores[0].get("metrics"), sort_keys=True) == \
        json.dumps(scores[1].get("metrics"), sort_keys=True)
    again = runner.invoke(app, ["wm", "mystery", "--out", str(out)])
    assert again.exit_code == 1 and "not empty" in again.output
    # the same through t2w eval --mystery: a run of its own, the mystery texts in its log
    result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--mystery",
                                 "--domains", "blocksworld,gripper", "--ec", "0",
                                 "--no-semantic", "--no-progress", "--run-id", "flag"])
    assert result.exit_code == 0, result.output
    flagged = json.loads((runs / "flag" / "summary.json").read_text())
    assert json.dumps(flagged["metrics"], sort_keys=True) == \
        json.dumps(scores[0]["metrics"], sort_keys=True)
    log = (runs / "flag" / "log.jsonl").read_text()
    assert "(:action stack" not in log and "(:action pick" not in log
    config = json.loads((runs / "flag" / "config.json").read_text())
    assert config["mystery"] and config["dataset_hash"] != json.loads(
        (runs / "plain" / "config.json").read_text())["dataset_hash"]
