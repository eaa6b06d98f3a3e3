"""Model-level mutants and renamings of domains, and whether a mutant changes behaviour.

Used by the semantic scorer's tests and benchmark: a scorer must give 1.0 to a consistent
renaming of the gold and must detect every mutant that behaves differently on a reachable state
of the gold's problems. ``behaviour_differs`` decides the latter exhaustively (breadth-first over
the reachable states, bounded), independently of the scorer's sampling.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Callable

from text2world.pddl.model import (
    VARIABLE,
    Action,
    AddEffect,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    Effect,
    ForallEffect,
    Formula,
    FunctionEffect,
    Predicate,
    Quantified,
    Truth,
    TypedName,
    map_formula,
)
from text2world.simulation import PlanningProblem, Simulator, conjuncts

__all__ = [
    "mutants", "Arguments", "rename_formula", "rename_effect", "rename", "behaviour_differs",
]


@dataclass(frozen=True)
class Mutant:
    kind: str         # drop-precondition, drop-add, drop-delete, swap-add-delete, swap-parameters
    action: str
    detail: str       # the literal or parameters concerned
    domain: Domain


def mutants(domain: Domain) -> list[Mutant]:
    """Every single-point mutant of the four kinds, action by action, in a fixed order."""
    found: list[Mutant] = []
    for index, action in enumerate(domain.actions):
        def with_action(new: Action) -> Domain:
            actions = list(domain.actions)
            actions[index] = new
            return replace(domain, actions=tuple(actions))

        literals = conjuncts(action.precondition)
        for position, literal in enumerate(literals):
            rest = literals[:position] + literals[position + 1:]
            precondition = And(tuple(rest)) if rest else Truth()
            found.append(Mutant("drop-precondition", action.name, literal.to_pddl(),
                                with_action(replace(action, precondition=precondition))))
        for position, effect in enumerate(action.effects):
            if not isinstance(effect, (AddEffect, DeleteEffect)):
                continue
            other_effects = action.effects[:position] + action.effects[position + 1:]
            kind = "drop-add" if isinstance(effect, AddEffect) else "drop-delete"
            found.append(Mutant(kind, action.name, effect.to_pddl(),
                                with_action(replace(action, effects=other_effects))))
            swapped = (DeleteEffect(effect.atom) if isinstance(effect, AddEffect)
                       else AddEffect(effect.atom))
            effects = list(action.effects)
            effects[position] = swapped
            found.append(Mutant("swap-add-delete", action.name, effect.to_pddl(),
                                with_action(replace(action, effects=tuple(effects)))))
        parameters = action.parameters
        for i in range(len(parameters)):
            for j in range(i + 1, len(parameters)):
                if parameters[i].type != parameters[j].type:
                    continue  # a swap across types is a type error, not a subtle mutant
                names = {parameters[i].name: parameters[j].name,
                         parameters[j].name: parameters[i].name}
                found.append(Mutant("swap-parameters", action.name,
                                    f"{parameters[i].name} {parameters[j].name}",
                                    with_action(_rename_action_variables(action, names))))
                break  # one swap per action keeps the set small
            else:
                continue
            break
    return found


def _rename_action_variables(action: Action, names: dict[str, str]) -> Action:
    """Swap variable names inside the body (the parameter list keeps its order)."""
    def term(t: str) -> str:
        return names.get(t, t)

    return replace(action, precondition=rename_formula(action.precondition, term),
                   effects=tuple(rename_effect(e, term) for e in action.effects))


# ``arguments(predicate, args)``: an atom's arguments reordered (or as they are)
Arguments = Callable[[str, tuple[str, ...]], tuple[str, ...]]


def rename_formula(formula: Formula, term: Callable[[str], str],
                   predicate: Callable[[str], str] = lambda p: p,
                   kind: Callable[[str], str] = lambda k: k,
                   arguments: Arguments | None = None) -> Formula:
    """The formula with terms, predicate names and types mapped; ``arguments(predicate,
    args)`` may also reorder an atom's (original) arguments."""
    def node(f: Formula) -> Formula:
        if isinstance(f, Atom):
            name = f.predicate if f.predicate == "=" else predicate(f.predicate)
            args = f.args if arguments is None else arguments(f.predicate, f.args)
            return Atom(name, tuple(term(a) for a in args))
        if isinstance(f, Quantified):
            return Quantified(f.quantifier,
                              tuple(TypedName(term(v.name), kind(v.type)) for v in f.variables),
                              f.body)
        return f

    return map_formula(formula, node)


def rename_effect(effect: Effect, term: Callable[[str], str],
                  predicate: Callable[[str], str] = lambda p: p,
                  kind: Callable[[str], str] = lambda k: k,
                  arguments: Arguments | None = None) -> Effect:
    def inner(x: Effect) -> Effect:
        return rename_effect(x, term, predicate, kind, arguments)

    if isinstance(effect, (AddEffect, DeleteEffect)):
        atom = rename_formula(effect.atom, term, predicate, kind, arguments)
        assert isinstance(atom, Atom)  # renaming an atom gives an atom
        return type(effect)(atom)
    if isinstance(effect, ConditionalEffect):
        return ConditionalEffect(rename_formula(effect.condition, term, predicate, kind, arguments),
                                 inner(effect.effect))
    if isinstance(effect, ForallEffect):
        return ForallEffect(tuple(TypedName(term(v.name), kind(v.type)) for v in effect.variables),
                            tuple(inner(e) for e in effect.effects))
    if isinstance(effect, FunctionEffect):
        value = VARIABLE.sub(lambda m: term(m.group(0)), effect.value)
        return FunctionEffect(effect.operation, effect.term, value)
    return effect


def rename(domain: Domain, *, actions: bool = True, predicates: bool = True,
           variables: bool = True, types: bool = True, prefix: str = "r") -> Domain:
    """A consistent renaming: every chosen kind of name gets a new one, the same everywhere.

    Type renaming keeps ``object``; objects of problems keep their names (a problem still
    refers to the renamed domain's types only through its own declarations, so rename
    types only when the problems are projected, as the semantic scorer does).
    """
    def new_predicate(name: str) -> str:
        return f"{prefix}-{name}-p" if predicates else name

    def new_type(name: str) -> str:
        return name if not types or name == "object" else f"{prefix}-{name}-t"

    def term(name: str) -> str:
        return f"?{prefix}{name[1:]}" if variables and name.startswith("?") else name

    renamed = []
    for action in domain.actions:
        renamed.append(Action(
            f"{prefix}-{action.name}-a" if actions else action.name,
            tuple(TypedName(term(p.name), new_type(p.type)) for p in action.parameters),
            rename_formula(action.precondition, term, new_predicate, new_type),
            tuple(rename_effect(e, term, new_predicate, new_type) for e in action.effects)))
    return replace(
        domain,
        types=tuple(TypedName(new_type(t.name), new_type(t.type)) for t in domain.types),
        constants=tuple(TypedName(c.name, new_type(c.type)) for c in domain.constants),
        predicates=tuple(Predicate(new_predicate(p.name),
                                   tuple(TypedName(v.name, new_type(v.type))
                                         for v in p.parameters))
                         for p in domain.predicates),
        actions=tuple(renamed))


def behaviour_differs(gold: Domain, mutant: Domain, problems: list[PlanningProblem], *,
                      max_states: int = 3000) -> str | None:
    """Where ``mutant`` (same vocabulary as ``gold``) behaves differently on a state reachable
    in the gold, breadth-first, at most ``max_states`` states per problem: a description of
    the first difference, or None when none was found."""
    for problem in problems:
        gold_sim, mutant_sim = Simulator(gold, problem), Simulator(mutant, problem)
        seen = {gold_sim.initial_state}
        queue = deque([gold_sim.initial_state])
        while queue:
            state = queue.popleft()
            expected = gold_sim.applicable(state)
            got = mutant_sim.applicable(state)
            if expected != got:
                differing = sorted(set(expected) ^ set(got))[0]
                return f"{problem.name}: {differing} applicable in one domain only"
            for action in expected:
                after = gold_sim.successor(state, action, check=False)
                if mutant_sim.successor(state, action, check=False) != after:
                    return f"{problem.name}: successor of {action} differs"
                if after not in seen and len(seen) < max_states:
                    seen.add(after)
                    queue.append(after)
    return None
