"""The planner-front answers of the gold problems ship with the store (data/plans/gold-front.json):
current for every gold problem, valid in the simulator, and used by semantic scoring's gold
preparation on a fresh home without planning."""

from __future__ import annotations

import pytest

from text2world.pddl.model import parse_domain
from text2world.planning import front
from text2world.planning.fast_downward import PlanCache
from text2world.planning.front import gold_front_answer
from text2world.scoring.semantic import SemanticSettings, planner_inputs, prepare_gold
from text2world.simulation import GroundAction, Simulator, parse_problem
from text2world.store.datasets import load_dataset

STORE = load_dataset()


@pytest.mark.parametrize("record", [r for r in STORE.records if r.problems][::10],
                         ids=lambda r: r.id)
def test_gold_answers_are_current_and_replay(record):
    domain = parse_domain(record.domain)
    for problem in record.problems:
        parsed = parse_problem(record.domain, problem.pddl)
        answer = gold_front_answer(PlanCache.key(front.FRONT, *planner_inputs(domain, parsed)))
        assert answer is not None, f"{record.id}/{problem.name}: python -m text2world.tasks.wm.plan_writer --gold-front"
        if answer["solved"]:
            simulator = Simulator(domain, parsed, max_work=SemanticSettings().max_work)
            assert simulator.validate_plan([GroundAction.parse(s) for s in answer["plan"]]).valid


@pytest.mark.parametrize("record", [r for r in STORE.records if r.problems][3::10],
                         ids=lambda r: r.id)
def test_the_front_answers_the_gold_problems_as_shipped(record):
    """What the front's in-process search answers now is what ships (the same plan, step for
    step): a change to the search, its heuristic or the relaxation's grounding that changes a
    plan must regenerate gold-front.json (and changes gold plans, so scores)."""
    domain = parse_domain(record.domain)
    settings = SemanticSettings()
    for problem in record.problems:
        parsed = parse_problem(record.domain, problem.pddl)
        simulator = Simulator(domain, parsed, max_work=settings.max_work)
        answer = gold_front_answer(PlanCache.key(front.FRONT, *planner_inputs(domain, parsed)))
        found, why = front.search_plan(simulator)
        if found is None:  # Fast Downward answered it
            assert answer is not None and not answer["planner"].startswith("in-process"), why
        else:
            assert answer is not None and list(found.plan) == answer["plan"]
            assert found.planner == answer["planner"]


def test_a_fresh_home_prepares_golds_without_planning(tmp_path, monkeypatch):
    def no_planner(*args, **kwargs):
        raise AssertionError("a gold was planned although its answer ships")

    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    monkeypatch.setattr(front, "plan_problem", no_planner)
    front.clear_memory()
    record = STORE.get("blocksworld")
    cache = prepare_gold(record.domain, [(p.name, p.pddl) for p in record.problems],
                         SemanticSettings(seed=12345))  # a settings key no other test built
    assert all(p.plan for p in cache.problems)
