"""Goals of PDDL problems as sets of ground literals, and the questions the goal rules ask.

``ground_literals`` reads a goal formula as a conjunction of ground literals (negations pushed
inward, universal quantifiers grounded over the problem's objects), or says it is not one (a
disjunction, an existential with more than one witness). ``reach`` asks the project's planner
(``planning.front``: in-process search, an h^2 proof, Fast Downward) whether a state meeting a
set of literals is reachable from a problem's initial state, and returns that state when it is:
Planetarium's "facts every reachable goal state implies" are the literals whose negation, added
to the goal, is unreachable.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

from text2world.pddl.model import (
    AddEffect,
    And,
    Atom,
    DeleteEffect,
    Domain,
    Formula,
    Not,
    Or,
    Quantified,
    Truth,
    iter_effects,
)
from text2world.planning.front import PREDICTION_LIMITS, cached_plan
from text2world.simulation import PlanningProblem, Simulator

Literal = tuple  # (positive: bool, (predicate, arg1, ...))
MAX_GROUNDINGS = 10_000  # literals a grounded universal goal may hold
PROVEN_UNSOLVABLE = "UNSOLVABLE_PROVEN"  # the planner's status of a proof (not an incomplete search)


@dataclass(frozen=True)
class GoalLiterals:
    """A goal read as a conjunction of ground literals; ``unsatisfiable`` when it holds a literal
    and its negation, or ``(= a b)`` false, or ``(or)``."""

    literals: frozenset
    unsatisfiable: bool = False


def ground_literals(formula: Formula, simulator: Simulator) -> GoalLiterals | None:
    """``formula`` as a conjunction of ground literals over ``simulator``'s objects, or None
    when it is not one (a disjunction of two or more parts, an existential)."""
    found: set = set()
    unsat = [False]

    def walk(node: Formula, positive: bool, env: dict) -> bool:
        if isinstance(node, Atom):
            args = tuple(env.get(a, a) for a in node.args)
            if node.predicate == "=":
                if (args[0] == args[1]) != positive:
                    unsat[0] = True
                return True
            found.add((positive, (node.predicate, *args)))
            return True
        if isinstance(node, Truth):
            if not positive:
                unsat[0] = True
            return True
        if isinstance(node, Not):
            return walk(node.formula, not positive, env)
        if isinstance(node, (And, Or)):
            conjunctive = isinstance(node, And) == positive
            if conjunctive or len(node.parts) == 1:
                return all(walk(part, positive, env) for part in node.parts)
            if not node.parts:  # (or) is false, (not (and)) too
                unsat[0] = True
                return True
            return False
        if isinstance(node, Quantified):
            universal = (node.quantifier == "forall") == positive
            choices = [simulator.objects_of_type(v.type) for v in node.variables]
            count = 1
            for objects in choices:
                count *= len(objects)
            if count > MAX_GROUNDINGS or (not universal and count != 1):
                return False
            for binding in product(*choices):
                inner = dict(env)
                inner.update({v.name: o for v, o in zip(node.variables, binding)})
                if not walk(node.body, positive, inner):
                    return False
            return True
        return False

    if not walk(formula, True, {}):
        return None
    if any((not positive, atom) in found for positive, atom in found):
        unsat[0] = True
    return GoalLiterals(frozenset(found), unsat[0])


def static_predicates(domain: Domain) -> frozenset:
    """The predicates no action changes: their facts hold in every reachable state as in the
    initial one."""
    changed = {effect.atom.predicate for action in domain.actions
               for effect, _ in iter_effects(action.effects)
               if isinstance(effect, (AddEffect, DeleteEffect))}
    return frozenset(p.name for p in domain.predicates) - changed


def without_static(goal: GoalLiterals, init: frozenset, static: frozenset) -> GoalLiterals:
    """``goal`` less its literals on static predicates (true in every reachable state or in
    none, as in ``init``); unsatisfiable when one of them is false."""
    kept = set()
    unsat = goal.unsatisfiable
    for positive, atom in goal.literals:
        if atom[0] in static:
            if (atom in init) != positive:
                unsat = True
        else:
            kept.add((positive, atom))
    return GoalLiterals(frozenset(kept), unsat)


def literal_text(literal: Literal) -> str:
    positive, atom = literal
    text = "(" + " ".join(atom) + ")"
    return text if positive else f"(not {text})"


def goal_formula(literals: frozenset) -> Formula:
    parts = tuple(Atom(atom[0], tuple(atom[1:])) if positive else Not(Atom(atom[0], tuple(atom[1:])))
                  for positive, atom in sorted(literals))
    return And(parts) if parts else Truth()


@dataclass(frozen=True)
class Reach:
    """``reachable``: True (``state`` meets the literals), False (proved unreachable) or None
    (the planner gave no answer within its bounds; ``message`` says why)."""

    reachable: bool | None
    state: frozenset | None = None
    message: str = ""


def reach(domain_text: str, domain: Domain, problem: PlanningProblem, literals: frozenset,
          simulator: Simulator, *, timeout: float) -> Reach:
    """Whether a state meeting ``literals`` is reachable from ``problem``'s initial state, asked
    of the planner front on the problem with that goal (answers cached as every plan is)."""
    constants = {c.name for c in domain.constants}
    text = replace(problem, goal=goal_formula(literals)).to_pddl(domain.name, exclude=constants)
    result = cached_plan(domain_text, text, timeout, limits=PREDICTION_LIMITS)
    if result.solved:
        replayed = simulator.validate_plan(result.plan)
        return Reach(True, replayed.final_state)
    if result.status == PROVEN_UNSOLVABLE:
        return Reach(False, message=result.message)
    return Reach(None, message=f"{result.status}: {result.message}"[:300])


__all__ = ["GoalLiterals", "Literal", "MAX_GROUNDINGS", "Reach", "goal_formula",
           "PROVEN_UNSOLVABLE", "ground_literals", "literal_text", "reach", "static_predicates", "without_static"]
