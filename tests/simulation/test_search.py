"""The in-process search on the compiled simulator and the planner front that falls back to Fast
Downward: valid plans (ours and unified-planning's validator), optimal lengths equal to Fast
Downward's optimal search, clear bound statuses, and semantic scores that depend on the planner
only through the plans it chose."""

from __future__ import annotations

import random

import pytest
from planning_helpers import SWITCHES, TOKENS, switches_problem, tokens_problem

from text2world.pddl.model import parse_domain
from text2world.planning import front as planner_front
from text2world.scoring import semantic, semantic_gold
from text2world.scoring.mutants import mutants
from text2world.simulation import simulator_from_text
from text2world.simulation.crosscheck import up_plan_valid
from text2world.simulation.relaxed import RelaxedTask
from text2world.simulation.search import (
    BOUND,
    SOLVED,
    UNSOLVABLE,
    SearchLimits,
    greedy_search,
    optimal_search,
)
from text2world.store import datasets
from text2world.store.datasets import load_dataset
from text2world.tasks.wm import planner as wm_planner

# every 13th store domain: a spread of sizes and features (costs, negative preconditions, ...)
# node bounds only (no clock), so the outcome is the same on any machine
LIMITS = SearchLimits(max_expanded=3_000, max_evaluated=30_000, max_seconds=600)
SAMPLE = [r.id for r in sorted(load_dataset().records, key=lambda r: r.id)[::13]]


def store_problems(ids=SAMPLE):
    for record in load_dataset().records:
        if record.id in ids:
            for problem in record.problems:
                yield record, problem


def test_plans_are_valid_in_the_simulator_and_in_unified_planning():
    checked = 0
    for record, problem in store_problems():
        sim = simulator_from_text(record.domain, problem.pddl)
        found = [greedy_search(sim, limits=LIMITS)]
        if problem.name == record.problems[0].name:  # optimal search: the small problems
            found.append(optimal_search(sim, limits=LIMITS))
        for result in found:
            if result.status == BOUND:  # Fast Downward's part (the benchmark counts them)
                continue
            assert result.status == SOLVED, (record.id, problem.name, result)
            assert sim.validate_plan(result.plan).valid
            assert up_plan_valid(record.domain, problem.pddl, result.steps()), \
                (record.id, problem.name, result.algorithm)
            checked += 1
    assert checked >= len(SAMPLE) * 3 - 2


def test_optimal_plans_have_fast_downwards_optimal_lengths_and_costs():
    compared = 0
    for record, problem in store_problems():
        sim = simulator_from_text(record.domain, problem.pddl)
        ours = optimal_search(sim, limits=LIMITS)
        if ours.status == BOUND:
            continue  # too big for this sample's bound: Fast Downward answers those
        theirs = wm_planner._fast_downward(record.domain, problem.pddl, 60, optimal=True)
        assert ours.solved and theirs.solved, (record.id, problem.name, ours, theirs)
        assert ours.cost == theirs.cost, (record.id, problem.name)
        if not sim.problem.metric:
            assert len(ours.plan) == len(theirs.plan)
        compared += 1
    assert compared >= len(SAMPLE) + 2


def test_search_is_deterministic_and_plans_from_any_state():
    record = load_dataset().get("blocksworld")
    sim = simulator_from_text(record.domain, record.problems[1].pddl)
    first, again = greedy_search(sim), greedy_search(sim)
    assert first.plan == again.plan and first.expanded == again.expanded
    optimal = optimal_search(sim)
    middle = sim.initial_state
    for action in optimal.plan[:3]:
        middle = sim.successor(middle, action)
    rest = optimal_search(sim, start=middle)  # a suffix of an optimal plan is optimal
    assert rest.solved and rest.cost == optimal.cost - 3
    assert optimal_search(sim, heuristic="blind").cost == optimal.cost


def test_unsolvable_is_proved_when_the_reachable_space_is_exhausted():
    sim = simulator_from_text(SWITCHES, switches_problem(4))  # 16 states
    for result in (greedy_search(sim), optimal_search(sim)):
        assert result.status == UNSOLVABLE and "every reachable state" in result.message
    # a goal the relaxation cannot reach needs no search: s9 is neither off nor on, so it
    # cannot be turned on
    unreachable = switches_problem(3).replace("s2 - switch", "s2 s9 - switch").replace(
        "(and (on s0) (off s0))", "(on s9)")
    for result in (greedy_search(simulator_from_text(SWITCHES, unreachable)),
                   optimal_search(simulator_from_text(SWITCHES, unreachable))):
        assert result.status == UNSOLVABLE and result.expanded == 0


def test_an_exploding_problem_stops_at_its_bound_then_falls_back(tmp_path, monkeypatch):
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    text = switches_problem(40)  # 2^40 states
    sim = simulator_from_text(SWITCHES, text)
    nodes = greedy_search(sim, limits=SearchLimits(max_expanded=300, max_seconds=60))
    assert nodes.status == BOUND and nodes.bound == "expanded" and nodes.expanded == 301
    assert "300" in nodes.message
    clock = optimal_search(sim, limits=SearchLimits(10**9, 10**9, max_seconds=0.3))
    assert clock.status == BOUND and clock.bound == "seconds"
    # the front gives up at its bound; h^2 proves s0 never on and off at once, so no Fast
    # Downward is run
    with monkeypatch.context() as patch:
        patch.setattr(planner_front, "fast_downward_with_prover", _no_fast_downward)
        result = planner_front.plan_problem(SWITCHES, text, timeout=20)
    assert result.status == "UNSOLVABLE_PROVEN" and result.planner == planner_front.PROOF
    assert "(off s0) and (on s0) are never true together" in result.message
    # a problem unsolvable by counting alone: h^2 sees no proof, Fast Downward answers
    result = planner_front.plan_problem(TOKENS, tokens_problem(30), timeout=1)
    assert result.planner.startswith((planner_front.FALLBACK, planner_front.PROVER))
    assert "bound" in result.planner
    assert not result.solved and result.status in ("UNSOLVABLE_PROVEN", "Timeout",
                                                   "UNSOLVABLE_INCOMPLETELY")


def _no_fast_downward(*_args, **_kwargs):
    raise AssertionError("h^2 answers: no Fast Downward")


GATE = """(define (domain gate) (:requirements :strips :negative-preconditions)
  (:predicates (alarm) (open) (through))
  (:action disarm :parameters () :precondition (alarm) :effect (not (alarm)))
  (:action open-gate :parameters () :precondition (not (alarm)) :effect (open))
  (:action pass :parameters () :precondition (open) :effect (through)))"""


def test_relaxation_counts_what_must_be_deleted():
    """A negated atom (goal or precondition) is reached in the relaxation by deleting it:
    without that, h would miss the steps that only undo something."""
    goal = simulator_from_text(SWITCHES, switches_problem(3).replace(
        "(and (on s0) (off s0))", "(and (not (off s0)) (not (off s1)))"))
    relaxed = RelaxedTask(goal)
    assert relaxed.evaluate(goal.initial_state)[0] == 2.0
    assert relaxed.evaluate(goal.initial_state, "max")[0] == 1.0
    gate = simulator_from_text(GATE, "(define (problem p) (:domain gate) (:init (alarm)) "
                                     "(:goal (through)))")
    relaxed = RelaxedTask(gate)
    value, preferred = relaxed.evaluate(gate.initial_state)
    assert value == 3.0 and [str(a) for a in preferred] == ["(disarm)"]
    assert relaxed.evaluate(gate.initial_state, "add")[0] == 3.0  # a chain: h_add = h_FF
    assert [str(a) for a in greedy_search(gate).plan] == ["(disarm)", "(open-gate)", "(pass)"]


def test_unsupported_features_fall_back_to_fast_downward(tmp_path, monkeypatch):
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    numeric = """(define (domain tank) (:requirements :strips :action-costs)
      (:predicates (full)) (:functions (total-cost) - number (fuel) - number)
      (:action fill :parameters () :precondition (and)
        :effect (and (increase (fuel) 1) (full))))"""
    problem = "(define (problem p) (:domain tank) (:init (= (fuel) 0)) (:goal (full)))"
    result = planner_front.plan_problem(numeric, problem, timeout=20)
    assert result.planner.startswith(planner_front.FALLBACK)
    assert "in-process search not possible" in result.planner and "numeric effect" in \
        result.planner
    # text neither parser reads: Fast Downward gives the verdict, no exception escapes
    broken = planner_front.plan_problem(numeric.replace("(fuel) - number", "(fuel)"),
                                        problem, timeout=20)
    assert broken.planner.startswith(planner_front.FALLBACK) and not broken.solved


# --------------------------------------------------------------------------------------------
# Semantic scores with in-process plans vs Fast Downward's


def _scores(pairs, home, monkeypatch, force_fallback: bool):
    """Semantic scores of ``pairs`` with a fresh planner cache, and the gold plans used."""
    scores, golds = [], {}
    with monkeypatch.context() as patch:
        patch.setenv("T2W_HOME", str(home))
        if force_fallback:
            patch.setattr(planner_front, "search_plan", lambda *args, **kwargs: (None, "forced"))
            # the golds' shipped answers are the in-process ones: plan them here instead
            patch.setattr("text2world.planning.front.gold_front_answer", lambda *args, **kwargs: None)
        semantic_gold._GOLD_CACHE.clear()
        planner_front.clear_memory()
        for gold_id, text in pairs:
            gold, problems = datasets.store_problems(gold_id)
            cache = semantic.prepare_gold(gold, problems)
            golds[gold_id] = {p.name: p.plan for p in cache.problems}
            scores.append(semantic.semantic_score(gold, text, gold_cache=cache))
        semantic_gold._GOLD_CACHE.clear()
        planner_front.clear_memory()
    return scores, golds


@pytest.mark.slow
def test_semantic_metrics_differ_between_planners_only_through_plan_choice(tmp_path,
                                                                          monkeypatch):
    """Over store golds and their mutants, the four metrics with in-process plans and with
    Fast Downward's: every difference is explained by a different plan. Whether a plan exists
    (solvable or not) reads only validity and must agree; so must every metric of a problem
    whose plans are the same."""
    rng = random.Random(0)
    pairs = []
    for gold_id in SAMPLE:
        gold, _ = datasets.store_problems(gold_id)
        pairs.append((gold_id, gold))
        candidates = mutants(parse_domain(gold))
        pairs += [(gold_id, m.domain.to_pddl())
                  for m in rng.sample(candidates, min(4, len(candidates)))]
    fast_downward, fd_golds = _scores(pairs, tmp_path / "fd", monkeypatch, True)
    in_process, ip_golds = _scores(pairs, tmp_path / "ip", monkeypatch, False)
    differences = explained = 0
    for (gold_id, _), theirs, ours in zip(pairs, fast_downward, in_process):
        assert theirs.ok == ours.ok and theirs.ok, (gold_id, theirs.reason, ours.reason)
        # in-process unless the search reached a bound (then the same Fast Downward plan, its
        # prover's beside it, or its proof that the problem is unsolvable)
        fast_downward = (planner_front.FALLBACK + " (after", planner_front.PROVER + " beside",
                         planner_front.FD_UNSOLVABLE + " (after")
        assert all(p.planner.startswith(("in-process", *fast_downward))
                   or not p.planner for p in ours.problems)
        assert all(p.planner.startswith(fast_downward) or not p.planner
                   for p in theirs.problems)
        same_gold_plans = fd_golds[gold_id] == ip_golds[gold_id]
        for a, b in zip(theirs.problems, ours.problems):
            if a.plan_reason.startswith("timeout:"):
                # Fast Downward ran out of time where the front's h^2 may prove the problem
                # unsolvable (a clock shaped their side: nothing else to compare)
                assert b.plan_reason.startswith("timeout:") or b.planner == planner_front.PROOF
                continue
            # solvable or not: validity only, identical
            assert ("unsolvable" in a.plan_reason) == ("unsolvable" in b.plan_reason), \
                (gold_id, a.name, a.plan_reason, b.plan_reason)
            if a.plan_valid != b.plan_valid:
                differences += 1
                # both planners found a plan of the prediction; they differ, and the gold
                # simulator judged each (the reasons name the failing step)
                assert a.plan_valid is not None and b.plan_valid is not None
                assert "unsolvable" not in a.plan_reason
                explained += 1
            gold_plan_same = fd_golds[gold_id][a.name] == ip_golds[gold_id][a.name]
            if gold_plan_same:
                assert a.gold_plan_accepted == b.gold_plan_accepted
                assert (a.states, a.true_positive, a.false_positive, a.false_negative,
                        a.transitions, a.transitions_agreeing) == \
                    (b.states, b.true_positive, b.false_positive, b.false_negative,
                     b.transitions, b.transitions_agreeing), (gold_id, a.name)
            elif (a.gold_plan_accepted, a.true_positive, a.false_positive,
                  a.false_negative, a.transitions_agreeing) != (
                    b.gold_plan_accepted, b.true_positive, b.false_positive,
                    b.false_negative, b.transitions_agreeing):
                differences += 1
                explained += 1  # sampled along a different gold plan
        if same_gold_plans and all(a.plan_valid == b.plan_valid and
                                   not a.plan_reason.startswith("timeout:")
                                   for a, b in zip(theirs.problems, ours.problems)):
            assert theirs.metrics() == ours.metrics(), gold_id
    assert differences == explained
