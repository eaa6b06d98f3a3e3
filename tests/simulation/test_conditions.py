"""Compiled preconditions and goals (``simulation.conditions``) against the formula interpreter.

Quantified preconditions and goals are compiled to Python (iterating the state's atoms where a
positive atom names the quantified variable). Here every kind of formula the compiler handles
is checked against ``Simulator._holds`` (the interpreter, still used for conditional effects and
for explaining failed preconditions) on random states: applicable actions, the compiled test of
each ground action, and the goal must agree exactly.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from text2world.pddl.model import parse_domain
from text2world.simulation import GroundAction, Simulator, WorkLimitExceeded, parse_problem

DOMAIN = """
(define (domain quantified)
  (:requirements :adl)
  (:types a b - object a2 - a)
  (:constants c1 - a)
  (:predicates (p ?x - a) (q ?x - a ?y - b) (r ?y - b) (s) (t ?x - a ?z - a))
  (:action some-free
    :parameters (?x - a)
    :precondition (exists (?y - b) (and (q ?x ?y) (not (r ?y))))
    :effect (p ?x))
  (:action all-covered
    :parameters (?y - b)
    :precondition (forall (?x - a) (imply (p ?x) (q ?x ?y)))
    :effect (s))
  (:action only-holder
    :parameters (?x - a ?y - b)
    :precondition (and (q ?x ?y) (not (exists (?z - a) (and (q ?z ?y) (not (= ?z ?x))))))
    :effect (not (q ?x ?y)))
  (:action nested
    :parameters ()
    :precondition (exists (?x - a ?y - b) (and (q ?x ?y) (forall (?z - b) (q ?x ?z))))
    :effect (not (s)))
  (:action one-or-other
    :parameters (?x - a)
    :precondition (or (p ?x) (exists (?y - b) (r ?y)))
    :effect (p ?x))
  (:action all-p
    :parameters (?y - b)
    :precondition (and (r ?y) (forall (?x - a) (p ?x)))
    :effect (not (r ?y)))
  (:action constant-holder
    :parameters (?x - a)
    :precondition (and (p ?x) (exists (?y - b) (q c1 ?y)))
    :effect (t ?x ?x))
  (:action subtype-only
    :parameters (?y - b)
    :precondition (exists (?z - a2) (q ?z ?y))
    :effect (s))
  (:action same-twice
    :parameters ()
    :precondition (and (forall (?x - a) (not (t ?x ?x))) (not (s)))
    :effect (s))
  (:action self-linked
    :parameters ()
    :precondition (exists (?z - a) (t ?z ?z))
    :effect (not (s))))
"""

PROBLEM = """
(define (problem quantified-1) (:domain quantified)
  (:objects x1 x2 - a z1 - a2 y1 y2 - b)
  (:init (p x1))
  (:goal (and (s) (forall (?x - a) (imply (p ?x) (exists (?y - b) (q ?x ?y)))))))
"""


def _atoms(simulator: Simulator) -> list[tuple]:
    objects = sorted(o.name for o in simulator.problem.objects) + ["c1"]
    atoms = []
    for predicate in simulator.domain.predicates:
        for args in product(objects, repeat=len(predicate.parameters)):
            atoms.append((predicate.name, *args))
    return atoms


def _interpreted(simulator: Simulator, state: frozenset, action: GroundAction) -> bool:
    compiled, binding = simulator._bind(action)
    return all(simulator._holds(node, list(binding), state) for _, node in compiled.conjuncts)


def _candidates(simulator: Simulator) -> list[GroundAction]:
    found = []
    for action in simulator.domain.actions:
        kinds = [simulator.objects_of_type(p.type) for p in action.parameters]
        found += [GroundAction(action.name, args) for args in product(*kinds)]
    return found


@pytest.mark.parametrize("seed", range(6))
def test_compiled_conditions_agree_with_the_interpreter_on_random_states(seed: int) -> None:
    domain = parse_domain(DOMAIN)
    simulator = Simulator(domain, parse_problem(DOMAIN, PROBLEM))
    rng = random.Random(seed)
    atoms = _atoms(simulator)
    candidates = _candidates(simulator)
    kinds = set()
    for _trial in range(60):
        density = rng.choice((0.05, 0.2, 0.5, 0.8))
        state = frozenset(a for a in atoms if rng.random() < density)
        expected = {a for a in candidates if _interpreted(simulator, state, a)}
        assert set(simulator.applicable(state)) == expected
        for action in candidates:
            assert simulator.is_applicable(state, action) == (action in expected), action
        goal = simulator._holds(simulator._goal, [None] * 8, state)
        assert simulator.goal_reached(state) == goal
        kinds |= {a.name for a in expected}
        kinds.add(f"goal {goal}")
    # the random states exercise both outcomes of the goal and most actions
    assert {"goal True", "goal False"} <= kinds
    assert len(kinds) >= 9


WIDE = """
(define (domain wide) (:requirements :adl) (:types a)
  (:predicates (p ?x - a) (done))
  (:action check :parameters ()
    :precondition (forall (?x - a ?z - a ?w - a) (or (p ?x) (p ?z) (p ?w)))
    :effect (done)))
"""


def test_a_quantifier_over_too_many_objects_stops_at_the_work_bound() -> None:
    # 50 objects: 125,000 combinations, under the grounding cap (MAX_QUANTIFIED_BINDINGS), so
    # the work bound is what stops it
    objects = " ".join(f"x{i}" for i in range(50))
    problem = f"(define (problem w) (:domain wide) (:objects {objects} - a) (:init) (:goal (done)))"
    everything = frozenset(("p", f"x{i}") for i in range(50))
    bounded = Simulator(parse_domain(WIDE), parse_problem(WIDE, problem), max_work=10_000)
    # 125,000 combinations to read before the forall is known true: past the bound, a clear error
    with pytest.raises(WorkLimitExceeded, match="10,000"):
        bounded.applicable(everything)
    # a false forall stops at the first counterexample, well within the bound
    assert bounded.applicable(frozenset()) == ()
    roomy = Simulator(parse_domain(WIDE), parse_problem(WIDE, problem), max_work=300_000)
    assert roomy.applicable(everything) == (GroundAction("check", ()),)
