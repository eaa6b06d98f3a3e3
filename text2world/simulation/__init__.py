"""The simulation core: ground PDDL semantics of a domain on one problem.

Built on the immutable domain model of ``pddl.py``; problems are parsed with tarski
(``raise_on_error=True``) into the small immutable ``PlanningProblem``. Supported: STRIPS,
typing with a type hierarchy, negative preconditions, equality, disjunctive, existential and
universal preconditions, conditional and universally quantified effects, action costs
(``(increase (total-cost) n)`` with a number or a static function term) and constants.

Semantics follow VAL: every condition of a step (precondition, effect conditions) is evaluated
in the state before the step; deletes are applied before adds, so an atom both deleted and added
is true afterwards. Distinct parameters may bind the same object unless ``(not (= ...))`` says
otherwise. The state holds the true ground atoms (closed world); the cost of a plan is tracked
beside it, not in it.

A state is a ``frozenset`` of ground atoms, each a tuple ``(predicate, arg1, ...)`` of lower-case
strings. Applicable actions are found by joining the precondition's positive atoms against the
state (most constrained atom first, a lazy per-state index by argument), so parameter tuples
are never enumerated blindly; parameters that occur in no positive atom range over the objects
of their type.

Typical use::

    problem = parse_problem(domain, problem_text)
    sim = Simulator(domain, problem)
    state = sim.initial_state
    for action in sim.applicable(state): ...
    state = sim.successor(state, action)
    report = sim.validate_plan(["(pick-up a)", "(stack a b)"])
"""

from text2world.simulation.compiler import conjuncts
from text2world.simulation.problem import (
    DEFAULT_MAX_WORK,
    GroundAction,
    GroundAtom,
    PlanningProblem,
    ProblemError,
    SimulationError,
    State,
    UnsupportedFeature,
    WorkLimitExceeded,
    atom_to_pddl,
    parse_plan,
    parse_problem,
)
from text2world.simulation.simulator import PlanValidation, Simulator, Walk, simulator_from_text

__all__ = ["DEFAULT_MAX_WORK", "GroundAction", "GroundAtom", "PlanValidation", "PlanningProblem",
           "ProblemError", "SimulationError", "Simulator", "State", "UnsupportedFeature",
           "Walk", "WorkLimitExceeded", "atom_to_pddl", "conjuncts", "parse_plan",
           "parse_problem", "simulator_from_text"]
