"""Actions with more parameters than CPython nests loops (issue 31, item 2): simulated, not crashed."""

from __future__ import annotations

import pytest

from text2world.simulation import GroundAction, WorkLimitExceeded, simulator_from_text
from text2world.simulation.codegen import MAX_LOOP_DEPTH
from text2world.simulation.problem import GroundingTooLarge


def _chain_domain(arity: int, residual: bool) -> str:
    params = " ".join(f"?x{i} - n" for i in range(arity))
    links = " ".join(f"(next ?x{i} ?x{i + 1})" for i in range(arity - 1))
    # A disjunction is not written inline: it reads the binding list, which crosses the split.
    extra = f" (or (mark ?x0) (not (mark ?x{arity - 1})))" if residual else ""
    return ("(define (domain chain) (:requirements :strips :typing :negative-preconditions"
            " :disjunctive-preconditions) (:types n)"
            " (:predicates (next ?a - n ?b - n) (mark ?a - n))"
            f" (:action walk :parameters ({params}) :precondition (and {links}{extra})"
            f"  :effect (mark ?x{arity - 1})))")


def _chain_problem(size: int) -> str:
    nodes = " ".join(f"n{i}" for i in range(size))
    links = " ".join(f"(next n{i} n{(i + 1) % size})" for i in range(size))
    return f"(define (problem c) (:domain chain) (:objects {nodes} - n) (:init {links}) (:goal (mark n0)))"


@pytest.mark.parametrize("arity", [MAX_LOOP_DEPTH - 1, MAX_LOOP_DEPTH + 1, 30, 3 * MAX_LOOP_DEPTH + 5])
@pytest.mark.parametrize("residual", [False, True])
def test_wide_chain_is_enumerated_exactly(arity: int, residual: bool) -> None:
    sim = simulator_from_text(_chain_domain(arity, residual), _chain_problem(11), max_work=100_000)
    found = sim.applicable(sim.initial_state)
    expected = {tuple(f"n{(start + i) % 11}" for i in range(arity)) for start in range(11)}
    assert {a.args for a in found} == expected
    assert all(sim.is_applicable(sim.initial_state, a) for a in found)
    step = found[0]
    after = sim.successor(sim.initial_state, step)
    assert ("mark", step.args[-1]) in after
    # the last node marked and the first not (11 nodes: no path starts where it ends): one path fails
    if residual:
        again = {a.args for a in sim.applicable(after)}
        assert step.args not in again and len(again) == 10
    wrong = GroundAction("walk", tuple(reversed(step.args)))
    assert not sim.is_applicable(sim.initial_state, wrong)


def test_wide_unconstrained_action_stops_at_the_work_bound() -> None:
    """30 free parameters over 2 objects is 2**30 tuples: the work bound ends it, with its error."""
    params = " ".join(f"?x{i} - n" for i in range(30))
    domain = ("(define (domain free) (:requirements :strips :typing) (:types n)"
              " (:predicates (mark ?a - n))"
              f" (:action a :parameters ({params}) :precondition (and) :effect (mark ?x0)))")
    sim = simulator_from_text(domain, _chain_problem(2).replace("(next n0 n1) (next n1 n0)", ""),
                              max_work=10_000)
    with pytest.raises(WorkLimitExceeded):
        sim.applicable(sim.initial_state)


@pytest.mark.parametrize("width", [MAX_LOOP_DEPTH + 4, 2 * MAX_LOOP_DEPTH + 3])
def test_wide_quantifiers_are_evaluated(width: int) -> None:
    """``exists``/``forall`` over more variables than one function may nest loops."""
    ys = " ".join(f"?y{i} - n" for i in range(width))
    domain = ("(define (domain q) (:requirements :strips :typing :negative-preconditions"
              " :existential-preconditions :universal-preconditions) (:types n)"
              " (:predicates (mark ?a - n) (done))"
              f" (:action some :parameters () :precondition (exists ({ys}) (not (mark ?y{width - 1})))"
              "  :effect (done))"
              f" (:action every :parameters () :precondition (forall ({ys}) (not (mark ?y{width - 1})))"
              "  :effect (done)))")
    problem = "(define (problem p) (:domain q) (:objects {objects} - n) (:init {init}) (:goal (done)))"
    # one object: a single binding each; two with b marked: each search stops at its first binding
    nothing = simulator_from_text(domain, problem.format(objects="a", init=""), max_work=1_000)
    assert {a.name for a in nothing.applicable(nothing.initial_state)} == {"some", "every"}
    # two objects: 2**width bindings, past the grounding cap: refused before any work is done
    with pytest.raises(GroundingTooLarge, match="^limit:"):
        simulator_from_text(domain, problem.format(objects="a b", init="(mark b)"), max_work=1_000)
    marked = simulator_from_text(domain, problem.format(objects="a", init="(mark a)"), max_work=1_000)
    assert marked.applicable(marked.initial_state) == ()
