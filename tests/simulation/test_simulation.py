"""The simulation core: semantics on hand-written domains, and agreement with unified-planning."""

from __future__ import annotations

import pytest
from repo_paths import REPO

from text2world.pddl.model import parse_domain
from text2world.simulation import (
    GroundAction,
    ProblemError,
    SimulationError,
    Simulator,
    UnsupportedFeature,
    WorkLimitExceeded,
    parse_plan,
    parse_problem,
    simulator_from_text,
)
from text2world.simulation.crosscheck import crosscheck_walk, synthetic_problem
from text2world.store.datasets import load_dataset

DATA = REPO / "data"

ADL = """
(define (domain adl)
  (:requirements :strips :typing :negative-preconditions :equality :disjunctive-preconditions
                 :existential-preconditions :universal-preconditions :conditional-effects
                 :action-costs)
  (:types vehicle place - object truck - vehicle)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (road ?a - place ?b - place) (lamp ?p - place)
               (visited ?p - place) (alarm) (done))
  (:functions (total-cost) - number (distance ?a - place ?b - place) - number)
  (:action drive
    :parameters (?v - truck ?from - place ?to - place)
    :precondition (and (at ?v ?from) (or (road ?from ?to) (= ?to depot)))
    :effect (and (not (at ?v ?from)) (at ?v ?to) (visited ?to)
                 (increase (total-cost) (distance ?from ?to))))
  (:action toggle
    :parameters (?p - place)
    :precondition (exists (?v - vehicle) (at ?v ?p))
    :effect (and (when (lamp ?p) (not (lamp ?p))) (when (not (lamp ?p)) (lamp ?p))))
  (:action all-off
    :parameters ()
    :precondition (forall (?p - place) (not (lamp ?p)))
    :effect (and (alarm) (forall (?p - place) (when (visited ?p) (not (visited ?p))))))
  (:action hop
    :parameters (?v - vehicle ?a - place ?b - place)
    :precondition (and (at ?v ?a) (not (= ?a ?b)) (not (alarm)))
    :effect (and (at ?v ?b) (not (at ?v ?a)) (increase (total-cost) 1)))
  (:action stay
    :parameters (?v - vehicle ?a - place ?b - place)
    :precondition (at ?v ?a)
    :effect (and (not (at ?v ?a)) (at ?v ?b))))
"""

ADL_PROBLEM = """
(define (problem adl-1) (:domain adl)
  (:objects t1 - truck v1 - vehicle home shop - place)
  (:init (at t1 home) (at v1 shop) (road home shop) (lamp shop)
         (= (distance home shop) 7) (= (distance home depot) 2) (= (distance home home) 0)
         (= (distance shop home) 7) (= (distance shop depot) 3) (= (distance shop shop) 0)
         (= (distance depot home) 2) (= (distance depot shop) 3) (= (distance depot depot) 0)
         (= (total-cost) 0))
  (:goal (and (at t1 shop) (not (lamp shop))))
  (:metric minimize (total-cost)))
"""


@pytest.fixture(scope="module")
def adl() -> Simulator:
    return simulator_from_text(ADL, ADL_PROBLEM)


def names(actions) -> set[str]:
    return {str(a) for a in actions}


def test_problem_model(adl: Simulator) -> None:
    problem = adl.problem
    assert {o.name: o.type for o in problem.objects} == {
        "t1": "truck", "v1": "vehicle", "home": "place", "shop": "place", "depot": "place"}
    assert ("at", "t1", "home") in problem.init
    assert dict(problem.function_values)[("distance", "home", "shop")] == 7.0
    assert problem.metric and "total-cost" in problem.metric
    # the type hierarchy: a truck is a vehicle
    assert adl.objects_of_type("vehicle") == ("t1", "v1")
    assert adl.objects_of_type("truck") == ("t1",)
    assert adl.objects_of_type("object") == ("depot", "home", "shop", "t1", "v1")


def test_applicable_covers_every_feature(adl: Simulator) -> None:
    got = names(adl.applicable(adl.initial_state))
    # drive: typed on truck only, disjunction with equality to a constant
    assert {"(drive t1 home shop)", "(drive t1 home depot)"} <= got
    assert not any(a.startswith("(drive v1") for a in got)
    assert "(drive t1 home home)" not in got
    # existential precondition over a supertype: home has t1, shop has v1, depot nobody
    assert {"(toggle home)", "(toggle shop)"} <= got and "(toggle depot)" not in got
    # universal precondition fails: the shop lamp is on
    assert "(all-off)" not in got
    # inequality forbids hop a a; stay a a is allowed (distinct parameters may co-bind)
    assert "(hop t1 home home)" not in got and "(stay t1 home home)" in got
    assert "(hop v1 shop home)" in got


def test_successor_semantics(adl: Simulator) -> None:
    s0 = adl.initial_state
    # conditional effects read the old state: toggling flips, it does not switch on then off
    s1 = adl.successor(s0, GroundAction("toggle", ("shop",)))
    assert ("lamp", "shop") not in s1
    assert ("lamp", "shop") in adl.successor(s1, GroundAction("toggle", ("shop",)))
    # delete then add: staying in place keeps the atom (add wins)
    assert ("at", "t1", "home") in adl.successor(s0, GroundAction("stay", ("t1", "home", "home")))
    # action costs: a static function term and a constant
    _, cost = adl.transition(s0, GroundAction("drive", ("t1", "home", "shop")))
    assert cost == 7.0
    assert adl.transition(s0, GroundAction("hop", ("v1", "shop", "home")))[1] == 1.0
    # universally quantified conditional effect after the lamp is off
    s2 = adl.successor(s1, GroundAction("drive", ("t1", "home", "shop")))
    assert GroundAction("all-off") in adl.applicable(s2)
    s3 = adl.successor(s2, GroundAction("all-off"))
    assert ("alarm",) in s3 and not any(atom[0] == "visited" for atom in s3)
    assert GroundAction("hop", ("t1", "shop", "home")) not in adl.applicable(s3)
    with pytest.raises(SimulationError, match="not applicable"):
        adl.successor(s3, GroundAction("hop", ("t1", "shop", "home")))


def test_applicable_agrees_with_checking_every_tuple(adl: Simulator) -> None:
    """The join must find exactly the tuples a blind enumeration accepts."""
    state = adl.initial_state
    for _ in range(6):
        blind = set()
        for action in adl.domain.actions:
            pools = [adl.objects_of_type(p.type) for p in action.parameters]
            from itertools import product
            for args in product(*pools):
                ground = GroundAction(action.name, args)
                if adl.is_applicable(state, ground):
                    blind.add(ground)
        found = adl.applicable(state)
        assert set(found) == blind and len(found) == len(blind)
        state = adl.successor(state, found[len(found) // 2])


def test_validate_plan(adl: Simulator) -> None:
    good = adl.validate_plan("; a plan file\n0: (toggle shop) [1]\n(drive t1 home shop)\n")
    assert good.valid and good.goal_reached and good.cost == 7.0 and good.failed_step is None
    short = adl.validate_plan(["(toggle shop)"])
    assert not short.valid and short.failed_step is None and "goal is not reached" in short.reason
    bad = adl.validate_plan(["(toggle shop)", "(drive t1 shop home)"])
    assert not bad.valid and bad.failed_step == 1 and bad.steps_applied == 1
    assert bad.failed_action == GroundAction("drive", ("t1", "shop", "home"))
    assert bad.unsatisfied == ("(at t1 shop)", "(or (road shop home) (= home depot))")
    assert "step 2" in bad.reason
    unknown = adl.validate_plan(["(fly t1)"])
    assert unknown.failed_step == 0 and "no action 'fly'" in unknown.reason
    wrong_type = adl.validate_plan(["(drive v1 shop home)"])
    assert "v1 is a vehicle, not a truck" in wrong_type.reason
    arity = adl.validate_plan(["(toggle)"])
    assert "takes 1 argument" in arity.reason


def test_parse_plan_formats() -> None:
    assert parse_plan("(a x)\n1: (b y z) [2]\n;c\n") == [
        GroundAction("a", ("x",)), GroundAction("b", ("y", "z"))]
    assert parse_plan(["B Y", GroundAction("c")]) == [GroundAction("b", ("y",)), GroundAction("c")]


def test_random_walk_is_seeded(adl: Simulator) -> None:
    a = adl.random_walk(12, seed=3)
    assert a == adl.random_walk(12, seed=3)
    assert len(a.states) == len(a.actions) + 1
    for before, action, after in zip(a.states, a.actions, a.states[1:]):
        assert action in adl.applicable(before) and adl.successor(before, action) == after
    assert any(adl.random_walk(12, seed=s).actions != a.actions for s in range(4, 8))


def test_goal_test(adl: Simulator) -> None:
    assert not adl.goal_reached(adl.initial_state)
    assert adl.goal_reached(frozenset({("at", "t1", "shop")}))


def test_join_prunes_instead_of_enumerating() -> None:
    """4 parameters over 40 objects is 2.56M tuples; the static chain leaves 40 paths."""
    domain = ("(define (domain chain) (:requirements :strips :typing) (:types n)"
              " (:predicates (next ?a - n ?b - n) (mark ?a - n))"
              " (:action walk :parameters (?a - n ?b - n ?c - n ?d - n)"
              "  :precondition (and (next ?a ?b) (next ?b ?c) (next ?c ?d))"
              "  :effect (mark ?d)))")
    nodes = " ".join(f"n{i}" for i in range(40))
    links = " ".join(f"(next n{i} n{(i + 1) % 40})" for i in range(40))
    problem = f"(define (problem c) (:domain chain) (:objects {nodes} - n) (:init {links}) (:goal (mark n0)))"
    sim = simulator_from_text(domain, problem, max_work=1_000)
    assert len(sim.applicable(sim.initial_state)) == 40
    blind = simulator_from_text(domain.replace("(next ?a ?b) (next ?b ?c) (next ?c ?d)",
                                               "(not (mark ?a)) (not (mark ?b)) (not (mark ?c)) (not (mark ?d))"),
                                problem, max_work=1_000)
    with pytest.raises(WorkLimitExceeded):
        blind.applicable(blind.initial_state)


def test_clear_errors() -> None:
    with pytest.raises(ProblemError, match="does not parse"):
        simulator_from_text(ADL, "(define (problem x) (:domain adl) (:objects a - nosuchtype)"
                                 " (:init) (:goal (alarm)))")
    with pytest.raises(ProblemError, match="empty"):
        simulator_from_text(ADL, "  ")
    numeric = ("(define (domain num) (:requirements :strips :action-costs)"
               " (:predicates (p)) (:functions (fuel) - number)"
               " (:action a :parameters () :precondition (p) :effect (increase (fuel) 1)))")
    with pytest.raises(UnsupportedFeature, match="numeric effect"):
        simulator_from_text(numeric, "(define (problem n) (:domain num) (:init (p) (= (fuel) 3))"
                                     " (:goal (p)))")


STORE_SAMPLE = ["blocksworld", "peg-solitaire", "lights-out", "tic-tac-toe", "evacuation",
                "cargo-logistics"]


@pytest.mark.parametrize("domain_id", STORE_SAMPLE)
def test_agrees_with_unified_planning_on_store(domain_id: str) -> None:
    text = (DATA / "domains" / f"{domain_id}.pddl").read_text()
    problem = sorted((DATA / "problems" / domain_id).glob("*.pddl"))[0].read_text()
    result = crosscheck_walk(text, problem, steps=8, seed=11, successors_per_state=3)
    assert not result.skipped, result.skipped
    assert result.ok, result.mismatches
    assert result.states >= 2 and result.successors >= 2


def test_agrees_with_unified_planning_on_hand_written_adl() -> None:
    result = crosscheck_walk(ADL, ADL_PROBLEM, steps=10, seed=2, successors_per_state=10)
    assert result.ok, result.mismatches
    assert result.successors >= 10


def test_synthetic_problems_for_released_golds(official_test) -> None:
    records = {r["id"]: r for r in official_test}
    checked = 0
    for record in list(records.values())[:40:8]:
        domain = parse_domain(record["pddl_domain"])
        problem = synthetic_problem(domain, seed=1)
        parse_problem(domain, problem)  # tarski accepts what we generate
        result = crosscheck_walk(record["pddl_domain"], problem, steps=4, seed=1)
        assert result.ok, (record["id"], result.mismatches)
        if not result.skipped:  # UP's own grounder crashes on some; the benchmark counts them
            checked += result.states
    assert checked >= 5


def test_threads_sharing_a_simulator_get_the_same_answers_as_one_thread() -> None:
    """A cached gold's simulator is shared by the threads that score against it (the API's
    thread mode, the eval's gold prefetch): each thread keeps its own state index, so one
    thread's call never reads the atoms of the state another thread is looking at (before,
    hundreds of 9,000 calls answered with another state's actions)."""
    import sys
    import threading

    record = load_dataset().get("hospital-staffing")
    simulator = simulator_from_text(record.domain, record.problems[-1].pddl)
    states = list(simulator.random_walk(30, 1).states)
    expected = {state: simulator.applicable(state) for state in states}
    wrong: list[int] = []

    def worker(offset: int) -> None:
        for i in range(3000):
            state = states[(i + offset) % len(states)]
            found = simulator.applicable(state)
            if found != expected[state] or \
                    any(not simulator.is_applicable(state, action) for action in found[:2]):
                wrong.append(i)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=worker, args=(k * 7,)) for k in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(states) > 10 and sum(len(expected[s]) for s in states) > 100
    assert wrong == []
