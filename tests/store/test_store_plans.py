"""The store ships a reference plan for every problem (data/plans/), current for the texts,
and the simulator accepts each: every step applies and the goal holds at the end."""

from __future__ import annotations

import json

import pytest

from text2world.pddl.model import parse_domain
from text2world.simulation import Simulator, parse_problem
from text2world.store.datasets import load_dataset
from text2world.store.plans import plan_key, plans_path, shipped_plan
from text2world.tasks.wm.world import build_world

STORE = load_dataset()


@pytest.mark.parametrize("record", STORE.records, ids=lambda r: r.id)
def test_every_problem_has_a_current_plan_the_simulator_accepts(record):
    data = json.loads(plans_path(record.id).read_text())
    assert set(data["problems"]) == {p.name for p in record.problems}
    domain = parse_domain(record.domain)
    for problem in record.problems:
        entry = data["problems"][problem.name]
        assert entry["key"] == plan_key(record.domain, problem.pddl), \
            f"{record.id}/{problem.name}: stale plan; run python -m text2world.tasks.wm.plan_writer " \
            f"--missing"
        shipped = shipped_plan(record, problem.name, problem.pddl)
        assert shipped is not None and shipped.plan, problem.name
        assert shipped.optimal or shipped.bound_s > 0  # satisficing says its bound
        simulator = Simulator(domain, parse_problem(record.domain, problem.pddl))
        outcome = simulator.validate_plan(list(shipped.plan))
        assert outcome.valid, f"{record.id}/{problem.name}: {outcome}"


def test_a_world_uses_the_shipped_plan_without_planning(monkeypatch):
    import text2world.tasks.wm.world as world_module

    def no_planner(*args, **kwargs):
        raise AssertionError("the planner ran although a plan is shipped")

    monkeypatch.setattr(world_module, "optimal_plan", no_planner)
    record = STORE.get("blocksworld")
    problem = record.problems[0]
    world = build_world(record, problem.name, problem.pddl)
    assert [str(a) for a in world.plan] == list(shipped_plan(record, problem.name,
                                                             problem.pddl).plan)
    # a changed problem text makes the shipped plan stale: the planner is asked
    with pytest.raises(AssertionError, match="planner ran"):
        build_world(record, problem.name, problem.pddl + "\n; edited\n")


def test_every_generated_problem_has_a_shipped_plan_the_simulator_accepts():
    """data/generated/ problems come with their plans (the generator's walk where the planner
    finds none in its bound), so the default --size hard plans nothing on a fresh clone and
    every generated problem is a world."""
    from text2world.tasks.wm.generators import sized_records

    hard = sized_records(list(STORE.records), "hard")
    solved = 0
    for record in hard:
        if "generator_error" in record.meta:
            continue
        domain = parse_domain(record.domain)
        for problem in record.problems:
            shipped = shipped_plan(record, problem.name, problem.pddl)
            assert shipped is not None, f"{record.id}/{problem.name}: no shipped plan"
            assert shipped.status == "solved", f"{record.id}/{problem.name}: {shipped.status}"
            simulator = Simulator(domain, parse_problem(record.domain, problem.pddl))
            assert simulator.validate_plan(list(shipped.plan)).valid, problem.name
            solved += 1
    assert solved >= 190


def test_a_generated_problem_the_planner_cannot_solve_uses_the_generators_walk():
    """water-jugs/h02 grows too big for Fast Downward to ground in a second: without a
    shipped plan (another id) the world falls back to the generator's witness walk."""
    from dataclasses import replace

    from text2world.tasks.wm.generators import WITNESS_PLANS, sized_records

    record = sized_records([STORE.get("water-jugs")], "hard", witnesses=True)[0]
    unshipped = replace(record, id="water-jugs-unshipped")
    problem = next(p for p in record.problems if p.name == "h02")
    world = build_world(unshipped, problem.name, problem.pddl, planner_timeout=1,
                        use_cache=False)
    assert not world.optimal
    assert [a.to_pddl() for a in world.plan] == list(record.meta[WITNESS_PLANS]["h02"])
    assert len(set(world.states)) == len(world.states)  # the walk's loops are cut out


def test_a_problem_without_a_plan_is_a_clear_world_error():
    """No plan (here: proved unsolvable) is a WorldError naming the problem and what answered,
    which the task builders report as a skipped problem."""
    from text2world.tasks.wm.world import WorldError

    record = STORE.get("blocksworld")
    text = record.problems[0].pddl.replace("(:goal (and (on a b) (on b c)))",
                                           "(:goal (and (on a b) (on b a)))")
    assert text != record.problems[0].pddl
    with pytest.raises(WorldError, match=r"blocksworld/p01: no plan found \(unsolvable: in-process "):
        build_world(record, "p01", text, use_cache=False)
