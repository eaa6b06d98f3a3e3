"""Faithful rewrites of a domain: the same world written another way, as models write it.

Each rewrite keeps behaviour on every problem of the original (objects keep their names, a
problem's atoms are read through the alignment): semantic scoring must call the rewrite
``equivalent`` with every metric 1.0. Used by the property tests and ``bench/align_bench.py``;
``mutants`` holds the behaviour-changing counterparts.

``REWRITES`` maps a class name to a function ``(domain, seed) -> Domain | None`` (None: the
class does not apply to this domain, e.g. no binary predicate, or no type to write as a
predicate).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable, Iterator

from text2world.pddl.model import (
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
    Not,
    Or,
    Predicate,
    Quantified,
    TypedName,
    iter_atoms,
    iter_effects,
    map_formula,
)
from text2world.scoring.mutants import rename_effect, rename_formula
from text2world.simulation import PlanningProblem, conjuncts

__all__ = ["unused_constants", "REWRITES", "drop_action", "reachable_problems"]


def _rename(domain: Domain, predicates: dict[str, str], actions: dict[str, str],
            types: dict[str, str]) -> Domain:
    def t(name: str) -> str:
        return types.get(name, name)

    def p(name: str) -> str:
        return predicates.get(name, name)

    def keep(name: str) -> str:
        return name

    return replace(
        domain,
        types=tuple(TypedName(t(x.name), t(x.type)) for x in domain.types),
        constants=tuple(TypedName(c.name, t(c.type)) for c in domain.constants),
        predicates=tuple(Predicate(p(x.name), tuple(TypedName(v.name, t(v.type))
                                                     for v in x.parameters))
                         for x in domain.predicates),
        functions=tuple(replace(f, parameters=tuple(TypedName(v.name, t(v.type))
                                                    for v in f.parameters))
                        for f in domain.functions),
        actions=tuple(Action(actions.get(a.name, a.name),
                             tuple(TypedName(v.name, t(v.type)) for v in a.parameters),
                             rename_formula(a.precondition, keep, p, t),
                             tuple(rename_effect(e, keep, p, t) for e in a.effects))
                      for a in domain.actions))


def opaque_names(domain: Domain, seed: int = 0) -> Domain:
    """Every type, predicate and action renamed to a meaningless name (``zq0``, ...), the
    actions in another order."""
    names = ([("t", x.name) for x in domain.types if x.name != "object"]
             + [("p", x.name) for x in domain.predicates] + [("a", x.name) for x in domain.actions])
    fresh = [f"zq{i}" for i in range(len(names))]
    random.Random(seed).shuffle(fresh)
    table: dict[str, dict[str, str]] = {"t": {}, "p": {}, "a": {}}
    for (kind, name), new in zip(names, fresh):
        table[kind][name] = new
    renamed = _rename(domain, table["p"], table["a"], table["t"])
    actions = list(renamed.actions)
    random.Random(seed).shuffle(actions)
    return replace(renamed, actions=tuple(actions))


def reversed_parameters(domain: Domain, seed: int = 0) -> Domain | None:
    """Every action's parameter list reversed (``(stack ?y ?x)``)."""
    if not any(len(a.parameters) > 1 for a in domain.actions):
        return None
    return replace(domain, actions=tuple(replace(a, parameters=a.parameters[::-1])
                                         for a in domain.actions))


def _swap_binary(domain: Domain, rename: bool) -> Domain | None:
    binary = {p.name for p in domain.predicates if len(p.parameters) == 2}
    if not binary:
        return None
    new_name = {name: f"{name}-swapped" if rename else name for name in binary}

    def keep(name: str) -> str:
        return name

    def predicate(name: str) -> str:
        return new_name.get(name, name)

    def arguments(name: str, args: tuple) -> tuple:
        return args[::-1] if name in binary else args

    return replace(
        domain,
        predicates=tuple(Predicate(new_name[p.name], p.parameters[::-1]) if p.name in binary
                         else p for p in domain.predicates),
        actions=tuple(replace(a, precondition=rename_formula(a.precondition, keep, predicate,
                                                           keep, arguments),
                              effects=tuple(rename_effect(e, keep, predicate, keep, arguments)
                                            for e in a.effects))
                      for a in domain.actions))


def swapped_arguments(domain: Domain, seed: int = 0) -> Domain | None:
    """Every binary predicate's arguments swapped, everywhere."""
    return _swap_binary(domain, rename=False)


def swapped_and_renamed(domain: Domain, seed: int = 0) -> Domain | None:
    """Every binary predicate's arguments swapped and the predicate renamed."""
    return _swap_binary(domain, rename=True)


def types_as_predicates(domain: Domain, seed: int = 0) -> Domain | None:
    """A typed domain written untyped: each parameter ``?x - T`` becomes ``?x`` and the
    precondition tests ``(T ?x)``; a unary predicate per declared type."""
    if not domain.types:
        return None
    names = {t.name for t in domain.types}
    taken = {p.name for p in domain.predicates}
    predicate = {t: (t if t not in taken else f"is-{t}") for t in names}

    def untyped(items: Iterable[TypedName]) -> tuple[TypedName, ...]:
        return tuple(TypedName(v.name, "object") for v in items)

    def guard(items: Iterable[TypedName]) -> list[Formula]:
        return [Atom(predicate[v.type], (v.name,)) for v in items if v.type in names]

    def guarded(f: Formula) -> Formula:
        if not isinstance(f, Quantified):
            return f
        body, tests = f.body, guard(f.variables)
        if tests:
            guards = And(tuple(tests))
            body = (And((guards, body)) if f.quantifier == "exists"
                    else Or((Not(guards), body)))
        return Quantified(f.quantifier, untyped(f.variables), body)

    def formula(f: Formula) -> Formula:
        return map_formula(f, guarded)

    def effect(e: Effect) -> Effect:
        if isinstance(e, ConditionalEffect):
            return ConditionalEffect(formula(e.condition), effect(e.effect))
        if isinstance(e, ForallEffect):
            tests = guard(e.variables)
            inner = tuple(effect(x) for x in e.effects)
            if tests:  # a (when ...) inside gains the tests: PDDL has no nested when
                inner = tuple(ConditionalEffect(And(tuple(tests) + (x.condition,)), x.effect)
                              if isinstance(x, ConditionalEffect)
                              else ConditionalEffect(And(tuple(tests)), x) for x in inner)
            return ForallEffect(untyped(e.variables), inner)
        return e

    if any(c.type in names for c in domain.constants):
        return None  # constants would need their type atoms in every problem
    actions = []
    for a in domain.actions:
        precondition = formula(a.precondition)
        tests = guard(a.parameters)
        actions.append(Action(a.name, untyped(a.parameters),
                              And(tuple(tests) + tuple(conjuncts(precondition))),
                              tuple(effect(e) for e in a.effects)))
    return replace(
        domain,
        requirements=tuple(r for r in domain.requirements if r != ":typing"),
        types=(),
        predicates=tuple(Predicate(p.name, untyped(p.parameters)) for p in domain.predicates)
        + tuple(Predicate(predicate[t], (TypedName("?x", "object"),)) for t in sorted(names)),
        functions=tuple(replace(f, parameters=untyped(f.parameters)) for f in domain.functions),
        actions=tuple(actions))


def predicates_as_types(domain: Domain, seed: int = 0,
                        problems: Iterable[PlanningProblem] = ()) -> Domain | None:
    """An untyped domain whose unary static predicates act as types, written typed: each
    parameter tested by ``(P ?x)`` at the top of a precondition becomes ``?x - P`` and the test
    goes. Applies to the predicates used only so, and only when no object of ``problems``
    (parsed) satisfies two of them (types are exclusive)."""
    if domain.typed:
        return None
    changed = set()
    for a in domain.actions:
        for e in a.effects:
            for x in _effect_atoms(e):
                changed.add(x.predicate)
    unary = {p.name for p in domain.predicates if len(p.parameters) == 1} - changed
    tops: dict[str, int] = {}
    for a in domain.actions:
        params = {v.name for v in a.parameters}
        for c in conjuncts(a.precondition):
            if isinstance(c, Atom) and c.predicate in unary and c.args[0] in params:
                tops[c.predicate] = tops.get(c.predicate, 0) + 1
    uses: dict[str, int] = {}
    for a in domain.actions:
        for x in iter_atoms(a.precondition):
            uses[x.predicate] = uses.get(x.predicate, 0) + 1
        for e in a.effects:
            for x in _effect_atoms(e):
                uses[x.predicate] = uses.get(x.predicate, 0) + 1
    candidates = {p for p in unary if tops.get(p) and tops[p] == uses.get(p)}
    for problem in problems:
        if any(a[0] in candidates for a in _goal_atoms(problem.goal)):
            candidates -= {a[0] for a in _goal_atoms(problem.goal)}
        holders: dict[str, set] = {}
        for atom in problem.init:
            if atom[0] in candidates:
                holders.setdefault(atom[1], set()).add(atom[0])
        for kinds in holders.values():
            if len(kinds) > 1:
                candidates -= kinds
    if not candidates or domain.constants:
        return None
    actions = []
    for a in domain.actions:
        typed = {}
        kept = []
        for c in conjuncts(a.precondition):
            if (isinstance(c, Atom) and c.predicate in candidates
                    and c.args[0] not in typed and c.args[0] in {v.name for v in a.parameters}):
                typed[c.args[0]] = c.predicate
            else:
                kept.append(c)
        actions.append(Action(a.name, tuple(TypedName(v.name, typed.get(v.name, "object"))
                                            for v in a.parameters), And(tuple(kept)), a.effects))
    return replace(domain, requirements=tuple(domain.requirements) + (":typing",),
                   types=tuple(TypedName(t, "object") for t in sorted(candidates)),
                   predicates=tuple(p for p in domain.predicates if p.name not in candidates),
                   actions=tuple(actions))


def unused_predicates(domain: Domain, seed: int = 0) -> Domain:
    """Two predicates declared that no action uses."""
    extra = (Predicate("zz-unused-flag", ()),
             Predicate("zz-unused-link", (TypedName("?a", "object"), TypedName("?b", "object"))))
    return replace(domain, predicates=domain.predicates + extra)


def unused_constants(domain: Domain, seed: int = 0) -> Domain | None:
    """A constant of every type an action's parameter has, that no action names (it would
    only widen the parameters' ranges: semantic scoring ignores such constants)."""
    declared = {t.name for t in domain.types} | {"object"}
    kinds = sorted({p.type for a in domain.actions for p in a.parameters} & declared)
    taken = {c.name for c in domain.constants}
    extra = tuple(TypedName(f"zz-unused-{kind}", kind) for kind in kinds
                  if f"zz-unused-{kind}" not in taken)
    return replace(domain, constants=domain.constants + extra) if extra else None


def _effect_atoms(e: Effect) -> Iterator[Atom]:
    """The atoms ``e`` sets or clears and those its conditions test, in pre-order."""
    for node, _conditions in iter_effects((e,)):
        if isinstance(node, (AddEffect, DeleteEffect)):
            yield node.atom
        elif isinstance(node, ConditionalEffect):
            yield from iter_atoms(node.condition)


def _goal_atoms(goal: Formula | None) -> list[tuple]:
    return [(a.predicate, *a.args) for a in iter_atoms(goal)] if goal is not None else []


REWRITES: dict[str, Callable] = {
    "opaque-names": opaque_names,
    "reversed-parameters": reversed_parameters,
    "swapped-arguments": swapped_arguments,
    "swapped-and-renamed": swapped_and_renamed,
    "types-as-predicates": types_as_predicates,
    "predicates-as-types": predicates_as_types,
    "unused-predicates": unused_predicates,
    "unused-constants": unused_constants,
}


def drop_action(domain: Domain, seed: int = 0) -> Domain | None:
    """A behaviour-changing mutant: one action (chosen by ``seed``) left out."""
    if len(domain.actions) < 2:
        return None
    index = random.Random(seed).randrange(len(domain.actions))
    return replace(domain, actions=domain.actions[:index] + domain.actions[index + 1:])


def reachable_problems(domain: Domain, count: int = 2, seed: int = 0,
                       walk: int = 8) -> list[tuple[str, str]]:
    """``(name, text)`` problems for a domain released without any (the Text2World golds):
    ``crosscheck.synthetic_problem`` objects and initial state, and as goal up to two atoms
    that a seeded random walk of ``walk`` steps makes true (so that a plan exists). A
    problem whose walk changes nothing keeps the synthetic random goal."""
    from text2world.simulation import Simulator, atom_to_pddl, parse_problem
    from text2world.simulation.crosscheck import synthetic_problem

    found = []
    for index in range(count):
        text = synthetic_problem(domain, seed=seed * 100 + index)
        try:
            problem = parse_problem(domain, text)
            states = Simulator(domain, problem).random_walk(walk, seed * 100 + index).states
        except Exception:  # noqa: BLE001 - a domain the simulator refuses: the text as is
            found.append((f"synthetic-{index}", text))
            continue
        reached = sorted(states[-1] - states[0])
        if reached:
            goal = "(and " + " ".join(atom_to_pddl(a) for a in reached[:2]) + ")"
            head, _, rest = text.partition("(:goal ")
            depth, end = 0, 0
            for position, char in enumerate(rest):
                depth += char == "("
                depth -= char == ")"
                if depth == 0:
                    end = position + 1
                    break
            text = head + "(:goal " + goal + rest[end:]
        found.append((f"synthetic-{index}", text))
    return found
