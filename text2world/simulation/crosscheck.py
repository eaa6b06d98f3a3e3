"""Cross-check of the simulation core against unified-planning's SequentialSimulator.

unified-planning (UP) parses the domain and problem text itself, so this checks the whole chain
(tarski parse, ``pddl.py`` model, ``simulation.py`` semantics) against an independent
implementation: along seeded random walks, every visited state must have the same applicable
ground actions in both, and the successors (and step costs) of the applicable actions must agree.

Also builds small synthetic problems (a few objects per type, a seeded random initial state) for
golds that come without problems, such as the released Text2World set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable

from text2world.pddl.model import Domain, parse_domain
from text2world.simulation import GroundAction, Simulator, atom_to_pddl, parse_problem

__all__ = ["up_problem", "up_plan_valid", "UPSide", "crosscheck_walk", "synthetic_problem"]

UPState = Any  # a state of unified-planning's sequential simulator (an untyped library)


@dataclass
class CrossCheck:
    """What one cross-checked walk compared and every disagreement found."""

    states: int = 0
    successors: int = 0
    mismatches: list[str] = field(default_factory=list)
    skipped: str = ""  # why nothing could be compared (UP cannot parse, conflicting effects)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def up_problem(domain_text: str, problem_text: str) -> Any:
    """The problem as unified-planning parses it (its own PDDL reader)."""
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import get_environment
    get_environment().credits_stream = None
    return PDDLReader().parse_problem_string(domain_text, problem_text)


def up_plan_valid(domain_text: str, problem_text: str, steps: Iterable[str | GroundAction]) -> bool:
    """Whether unified-planning's own validator (its own parse of the texts) accepts the plan
    ``steps`` (PDDL step strings or ``GroundAction``); its parser's errors propagate."""
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.shortcuts import PlanValidator

    problem = up_problem(domain_text, problem_text)
    actions = {a.name.lower(): a for a in problem.actions}
    objects = {o.name.lower(): o for o in problem.all_objects}
    ground = [s if isinstance(s, GroundAction) else GroundAction.parse(s) for s in steps]
    plan = SequentialPlan([ActionInstance(actions[g.name], [objects[x] for x in g.args])
                           for g in ground])
    with PlanValidator(problem_kind=problem.kind, plan_kind=plan.kind) as validator:
        return validator.validate(problem, plan).status.name == "VALID"


class UPSide:
    """unified-planning's simulator with states and actions converted to ours."""

    def __init__(self, domain_text: str, problem_text: str) -> None:
        from unified_planning.shortcuts import SequentialSimulator
        self.problem = up_problem(domain_text, problem_text)
        self.simulator = SequentialSimulator(problem=self.problem)
        self.actions = {a.name.lower(): a for a in self.problem.actions}
        self.objects = {o.name.lower(): o for o in self.problem.all_objects}
        self.fluents = [key for key in self.problem.initial_values
                        if key.fluent().type.is_bool_type()]
        # UP's reader turns (increase (total-cost) x) into a MinimizeActionCosts metric
        from unified_planning.model.metrics import MinimizeActionCosts
        from unified_planning.model.walkers import StateEvaluator
        self.costs = next((m for m in self.problem.quality_metrics
                           if isinstance(m, MinimizeActionCosts)), None)
        self.evaluator = StateEvaluator(self.problem)
        self.pruned = True  # False once UP's static-fluent pruning had to be switched off

    def initial_state(self) -> UPState:
        return self.simulator.get_initial_state()

    def applicable(self, state: UPState) -> tuple[GroundAction, ...]:
        try:
            found = list(self.simulator.get_applicable_actions(state))
        except ValueError as err:
            # UP 1.3's grounder removes an object twice from a list when a parameter occurs in
            # two static atoms that both exclude it ("list.remove(x): x not in list"); its
            # unpruned grounding is correct, only slower.
            if "list.remove" not in str(err) or not self.pruned:
                raise
            from unified_planning.engines.compilers.grounder import GrounderHelper
            self.simulator._grounder = GrounderHelper(self.problem, prune_actions=False)
            self.simulator._grounded_actions = None
            self.pruned = False
            found = list(self.simulator.get_applicable_actions(state))
        return tuple(sorted(
            GroundAction(action.name.lower(), tuple(str(p).lower() for p in params))
            for action, params in found))

    def apply(self, state: UPState, action: GroundAction) -> UPState:
        return self.simulator.apply(state, self.actions[action.name],
                                    [self.objects[a] for a in action.args])

    def atoms(self, state: UPState) -> frozenset:
        return frozenset(
            (key.fluent().name.lower(), *(str(a).lower() for a in key.args))
            for key in self.fluents if state.get_value(key).bool_constant_value())

    def step_cost(self, state: UPState, action: GroundAction) -> float:
        if self.costs is None:
            return 0.0
        up_action = self.actions[action.name]
        expression = self.costs.get_action_cost(up_action)
        if expression is None:
            return 0.0
        env = self.problem.environment
        binding = {env.expression_manager.ParameterExp(p): env.expression_manager.ObjectExp(
            self.objects[a]) for p, a in zip(up_action.parameters, action.args)}
        value = self.evaluator.evaluate(env.substituter.substitute(expression, binding), state)
        return float(value.constant_value())


def crosscheck_walk(domain_text: str, problem_text: str, *, steps: int = 20, seed: int = 0,
                    successors_per_state: int = 4) -> CrossCheck:
    """Walk ``steps`` seeded random steps in both simulators and compare every visited state.

    At each state: the applicable sets must be equal; the successors of up to
    ``successors_per_state`` applicable actions (seeded sample, the walk's own step included)
    must be equal atom for atom and cost for cost.
    """
    from unified_planning.exceptions import UPConflictingEffectsException, UPException

    result = CrossCheck()
    try:
        up = UPSide(domain_text, problem_text)
    except Exception as err:  # noqa: BLE001 - UP's parser raises many classes
        result.skipped = f"unified-planning cannot parse it: {type(err).__name__}: {err}"
        return result
    domain = parse_domain(domain_text)
    ours = Simulator(domain, parse_problem(domain, problem_text))
    rng = random.Random(seed)
    state, up_state = ours.initial_state, up.initial_state()
    if up.atoms(up_state) != state:
        result.mismatches.append(_diff("initial state", state, up.atoms(up_state)))
        return result
    for _ in range(steps + 1):
        result.states += 1
        mine = ours.applicable(state)
        try:
            theirs = up.applicable(up_state)
        except Exception as err:  # noqa: BLE001 - UP's grounder has bugs of its own
            result.skipped = f"unified-planning's simulator fails: {type(err).__name__}: {err}"
            return result
        if mine != theirs:
            only_ours = sorted(set(mine) - set(theirs))[:5]
            only_up = sorted(set(theirs) - set(mine))[:5]
            result.mismatches.append(
                f"state {result.states}: applicable differ; only ours: "
                f"{' '.join(map(str, only_ours))}; only UP: {' '.join(map(str, only_up))}")
            return result
        if not mine:
            break
        step = mine[rng.randrange(len(mine))]
        others = [a for a in mine if a != step]
        sample = [step] + rng.sample(others, min(len(others), successors_per_state - 1))
        next_states = None
        for action in sample:
            successor, cost = ours.transition(state, action)
            try:
                up_next = up.apply(up_state, action)
            except UPConflictingEffectsException as err:
                # UP refuses an atom both added and deleted; VAL (and we) let the add win.
                if action == step:
                    result.skipped = f"UP refuses conflicting effects of {action}: {err}"
                    return result
                continue
            except UPException as err:
                result.mismatches.append(f"UP cannot apply {action}: {err}")
                return result
            result.successors += 1
            up_atoms = up.atoms(up_next)
            if up_atoms != successor:
                result.mismatches.append(_diff(f"successor of {action}", successor, up_atoms))
                return result
            up_cost = up.step_cost(up_state, action)
            if abs(up_cost - cost) > 1e-9:
                result.mismatches.append(f"cost of {action}: ours {cost}, UP {up_cost}")
                return result
            if action == step:
                next_states = (successor, up_next)
        if next_states is None:
            break
        state, up_state = next_states
    return result


def _diff(what: str, ours: frozenset, theirs: frozenset) -> str:
    only_ours = " ".join(atom_to_pddl(a) for a in sorted(ours - theirs)[:5])
    only_up = " ".join(atom_to_pddl(a) for a in sorted(theirs - ours)[:5])
    return f"{what} differs; only ours: {only_ours or '-'}; only UP: {only_up or '-'}"


def synthetic_problem(domain: Domain, *, seed: int = 0, per_type: int = 2,
                      density: float = 0.2, enabled: int = 3, max_atoms: int = 400) -> str:
    """A small problem for a domain without problems, deterministic for a seed.

    ``per_type`` objects of every type without subtypes; each ground atom true with
    probability ``density`` (at most ``max_atoms``); then, for ``enabled`` random ground
    actions, the positive atoms of their precondition's top-level conjunction are made true and
    the negated ones false, so that actions tend to be applicable; a random integer 1..5 for
    every ground numeric function (an object of its type for an object-valued one); a random
    atom as the goal.
    """
    from text2world.pddl.model import Atom, Not, Truth, TypedName
    from text2world.simulation import PlanningProblem, conjuncts

    rng = random.Random(seed)
    parents = {t.type for t in domain.types}
    leaves = [t.name for t in domain.types if t.name not in parents] or ["object"]
    objects = [(f"o-{kind}-{i}", kind) for kind in leaves for i in range(per_type)]
    all_objects = tuple(TypedName(n, k) for n, k in objects) + domain.constants
    members = Simulator._type_closure(
        domain, PlanningProblem("p", domain.name, all_objects, frozenset(), Truth()))

    def groundings(parameters: Iterable[TypedName]) -> list[tuple[str, ...]]:
        tuples: list[tuple[str, ...]] = [()]
        for parameter in parameters:
            tuples = [t + (o,) for t in tuples for o in members.get(parameter.type, ())]
            if len(tuples) > 20 * max_atoms:
                rng.shuffle(tuples)
                tuples = tuples[:20 * max_atoms]
        return tuples

    init: dict[str, None] = {}
    candidates: list[str] = []
    for predicate in domain.predicates:
        for args in groundings(predicate.parameters):
            atom = "(" + " ".join((predicate.name, *args)) + ")"
            candidates.append(atom)
            if rng.random() < density and len(init) < max_atoms:
                init[atom] = None
    for action in rng.sample(domain.actions, min(enabled, len(domain.actions))):
        options = groundings(action.parameters)
        if not options:
            continue
        mapping = dict(zip((p.name for p in action.parameters), rng.choice(options)))
        for literal in conjuncts(action.precondition):
            negated = isinstance(literal, Not)
            positive = literal.formula if isinstance(literal, Not) else literal
            if not isinstance(positive, Atom) or positive.predicate == "=":
                continue
            text = "(" + " ".join((positive.predicate, *(mapping.get(a, a) for a in positive.args))) + ")"
            if negated:
                init.pop(text, None)
            else:
                init[text] = None
    facts = list(init)
    for function in domain.functions:
        if function.name == "total-cost":
            continue
        # an object-valued function (``(loc ?b - block) - place``) takes an object of its type
        values = (None if function.type in ("number", "int", "integer", "real")
                  else sorted(members.get(function.type, ())))
        if values == []:
            continue
        for args in groundings(function.parameters):
            value = rng.randint(1, 5) if values is None else rng.choice(values)
            facts.append(f"(= ({' '.join((function.name, *args))}) {value})")
    metric = ""
    if any(f.name == "total-cost" for f in domain.functions):
        facts.append("(= (total-cost) 0)")
        metric = "\n  (:metric minimize (total-cost))"
    goal = rng.choice(candidates) if candidates else "(and)"
    declared = " ".join(f"{n} - {k}" for n, k in objects)
    return (f"(define (problem synthetic-{seed}) (:domain {domain.name})\n"
            f"  (:objects {declared})\n  (:init {' '.join(facts)})\n  (:goal {goal}){metric})\n")
