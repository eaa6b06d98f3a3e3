"""Caps on grounding (issue 46): a quantifier over more object combinations than
``MAX_QUANTIFIED_BINDINGS`` is refused before any grounding with a ``limit:`` reason, and the
relaxation's quantified effects stop at ``MAX_EFFECT_BINDINGS`` in all, before their loops."""

from __future__ import annotations

import resource

import pytest
from hostile_answers import hostile_domain

from text2world.pddl.model import parse_domain
from text2world.simulation import Simulator, parse_problem
from text2world.simulation.problem import MAX_QUANTIFIED_BINDINGS, GroundingTooLarge
from text2world.simulation.relaxed import MAX_EFFECT_BINDINGS, RelaxationTooLarge, RelaxedTask
from text2world.store.datasets import load_dataset


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("variables", [11, 14, 20])
def test_a_quantifier_over_too_many_combinations_is_refused_before_grounding(variables):
    domain = hostile_domain(variables)
    problem = load_dataset().get("blocksworld").problems[0].pddl
    started = _cpu()
    with pytest.raises(GroundingTooLarge) as refused:
        Simulator(parse_domain(domain), parse_problem(domain, problem))
    assert _cpu() - started < 5  # CPU seconds: not one combination enumerated
    reason = refused.value.reason
    assert reason.startswith("limit: action shuffle quantifies over ")
    assert f"more than the {MAX_QUANTIFIED_BINDINGS:,} grounding allows" in reason
    assert f"{3 ** (variables + 1):,} combinations" in reason  # 3 blocks, forall of exists


def test_every_gold_of_the_store_is_under_the_cap():
    largest = 0
    for record in load_dataset():
        domain = parse_domain(record.domain)
        for problem in record.problems:
            simulator = Simulator(domain, parse_problem(record.domain, problem.pddl))
            largest = max(largest, simulator.largest_quantifier()[0])
    assert 1 < largest <= MAX_QUANTIFIED_BINDINGS // 100  # far under it


# Each ground action's effect quantifies over 4 variables x 12 objects (20,736, under the
# simulator's cap); 12 x 12 ground actions of it is 3 million combinations.
SPREAD = """(define (domain spread) (:requirements :strips :typing :conditional-effects)
  (:types thing)
  (:predicates (mark ?a - thing ?b - thing) (seen ?a - thing))
  (:action paint :parameters (?x - thing ?y - thing)
    :precondition (and)
    :effect (forall (?a ?b ?c ?d - thing) (when (mark ?a ?b) (seen ?c)))))"""


def test_the_relaxation_s_quantified_effects_stop_before_their_loops():
    objects = " ".join(f"t{i}" for i in range(12))
    problem = (f"(define (problem p) (:domain spread) (:objects {objects} - thing) "
               "(:init (mark t0 t1)) (:goal (seen t2)))")
    simulator = Simulator(parse_domain(SPREAD), parse_problem(SPREAD, problem))
    started = _cpu()
    with pytest.raises(RelaxationTooLarge, match=f"more than {MAX_EFFECT_BINDINGS:,} "
                                                 "combinations of objects"):
        RelaxedTask(simulator)
    assert _cpu() - started < 10  # CPU seconds, well under what 3 million would take
