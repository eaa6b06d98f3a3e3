"""The semantic plan of a generated world: what exists, what relations mean, what actions do.

A family builds a ``WorldPlan`` (types with glosses, predicates with a gloss template, actions
with their parameters, preconditions, effects, conditional effects and costs) and its problems
(``ProblemSpec``); the PDDL domain and problems are printed from it here, the descriptions by
``worlds.prose``. Both read the same plan, so they agree by construction.

Glosses are templates over the predicate's parameter names: ``"{d} is at {l}"`` for
``(drone-at ?d ?l)``. A literal is written in a family compactly: ``"at v to"`` or, negated,
``"!at v to"`` (variable names without ``?``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from text2world.errors import Text2WorldError

__all__ = [
    "TypeSpec", "PredicateSpec", "Literal", "literal", "When", "ActionSpec", "WorldPlan",
    "ProblemSpec", "domain_pddl", "problem_pddl",
]


class WorldPlanError(Text2WorldError, ValueError):
    """A semantic plan that does not hold together (a family's bug, said with the name)."""


@dataclass(frozen=True)
class TypeSpec:
    name: str
    gloss: str  # "A small flying delivery vehicle."


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    params: tuple[tuple[str, str], ...]  # (variable without '?', type)
    gloss: str  # template over the variables: "{d} is at {l}"
    negated: str  # the same fact denied: "{d} is not at {l}"

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.params)


@dataclass(frozen=True)
class Literal:
    predicate: str
    args: tuple[str, ...]  # variable names (in an action) or object names (in a problem)
    positive: bool = True

    def to_pddl(self, variables: bool = True) -> str:
        prefix = "?" if variables else ""
        atom = "(" + " ".join([self.predicate, *(prefix + a for a in self.args)]) + ")"
        return atom if self.positive else f"(not {atom})"


def literal(text: str) -> Literal:
    """``"at v to"`` or ``"!at v to"`` as a ``Literal``."""
    positive = not text.startswith("!")
    name, *args = text.lstrip("!").split()
    return Literal(name, tuple(args), positive)


@dataclass(frozen=True)
class When:
    """A conditional effect: when every condition holds, the effects happen."""

    condition: tuple[Literal, ...]
    effects: tuple[Literal, ...]


@dataclass(frozen=True)
class ActionSpec:
    name: str
    params: tuple[tuple[str, str], ...]
    purpose: str  # what the action does, over its variables: "{d} flies from {a} to {b}"
    pre: tuple[Literal, ...]
    effects: tuple[Literal, ...]  # positive: added, negative: deleted
    when: tuple[When, ...] = ()
    cost: int | None = None


@dataclass(frozen=True)
class WorldPlan:
    name: str  # the PDDL domain name
    title: str  # the manifest's name
    general: str  # the abstract General: what exists and the objective, no rule stated
    rules: tuple[str, ...]  # the concrete General adds these sentences (how the world works)
    types: tuple[TypeSpec, ...]
    predicates: tuple[PredicateSpec, ...]
    actions: tuple[ActionSpec, ...]
    costs: bool = False

    def predicate(self, name: str) -> PredicateSpec:
        for spec in self.predicates:
            if spec.name == name:
                return spec
        raise WorldPlanError(f"world {self.name}: no predicate {name!r}")

    def requirements(self) -> list[str]:
        found = [":strips", ":typing"]
        literals = [lit for a in self.actions for lit in a.pre] + \
            [lit for a in self.actions for w in a.when for lit in w.condition]
        if any(not lit.positive for lit in literals):
            found.append(":negative-preconditions")
        if any(a.when for a in self.actions):
            found.append(":conditional-effects")
        if self.costs:
            found.append(":action-costs")
        return found

    def check(self) -> None:
        """Every literal names a declared predicate with its arity and typed variables."""
        types = {t.name for t in self.types}
        for predicate in self.predicates:
            for var, kind in predicate.params:
                if kind not in types:
                    raise WorldPlanError(f"{self.name}: predicate {predicate.name} has "
                                         f"undeclared type {kind!r}")
                if "{" + var + "}" not in predicate.gloss + predicate.negated:
                    raise WorldPlanError(f"{self.name}: gloss of {predicate.name} omits {var}")
        for action in self.actions:
            bound = dict(action.params)
            every = [*action.pre, *action.effects,
                     *(lit for w in action.when for lit in (*w.condition, *w.effects))]
            for lit in every:
                spec = self.predicate(lit.predicate)
                if len(spec.params) != len(lit.args):
                    raise WorldPlanError(f"{self.name}: {action.name} uses {lit.predicate} "
                                         f"with {len(lit.args)} arguments")
                for arg, (_, kind) in zip(lit.args, spec.params):
                    if bound.get(arg) != kind:
                        raise WorldPlanError(f"{self.name}: {action.name}: ?{arg} is not a "
                                             f"{kind} in {lit.to_pddl()}")


@dataclass(frozen=True)
class ProblemSpec:
    name: str  # p01, p02, ...
    objects: tuple[tuple[str, str], ...]  # (object, type), in declaration order
    init: tuple[Literal, ...]  # positive ground facts
    goal: tuple[Literal, ...]
    size: str = "small"  # "small" or "hard"
    meta: dict = field(default_factory=dict, compare=False, hash=False)


# --------------------------------------------------------------------------------------------
# PDDL


def _typed(params: tuple[tuple[str, str], ...]) -> str:
    return " ".join(f"?{v} - {t}" for v, t in params)


def _conjunction(literals: tuple[Literal, ...] | list[str], indent: str) -> str:
    parts = [lit if isinstance(lit, str) else lit.to_pddl() for lit in literals]
    if len(parts) == 1:
        return parts[0]
    lines, line = [], "(and"
    for part in parts:
        if len(line) + len(part) + 1 > 72:
            lines.append(line)
            line = indent + "     "
        line += " " + part if not line.endswith(" ") else part
    lines.append(line + ")")
    return "\n".join(lines)


def action_pddl(action: ActionSpec, costs: bool) -> str:
    effects: list[str] = [lit.to_pddl() for lit in action.effects if lit.positive]
    effects += [lit.to_pddl() for lit in action.effects if not lit.positive]
    for when in action.when:
        condition = _conjunction(when.condition, "")
        result = _conjunction(when.effects, "")
        effects.append(f"(when {condition} {result})")
    if costs and action.cost is not None:
        effects.append(f"(increase (total-cost) {action.cost})")
    pad = "    "
    return (f"  (:action {action.name}\n"
            f"{pad}:parameters ({_typed(action.params)})\n"
            f"{pad}:precondition {_conjunction(action.pre, pad + '             ')}\n"
            f"{pad}:effect {_conjunction(effects, pad + '       ')})")


def domain_pddl(plan: WorldPlan) -> str:
    """The domain's PDDL text, laid out like the store's."""
    lines = [f"(define (domain {plan.name})",
             f"  (:requirements {' '.join(plan.requirements())})",
             f"  (:types {' '.join(t.name for t in plan.types)})",
             "  (:predicates"]
    lines += [f"    ({' '.join([p.name, _typed(p.params)]).strip()})" for p in plan.predicates]
    lines[-1] += ")"
    if plan.costs:
        lines.append("  (:functions (total-cost) - number)")
    body = "\n\n".join(action_pddl(a, plan.costs) for a in plan.actions)
    return "\n".join(lines) + "\n\n" + body + ")\n"


def problem_pddl(plan: WorldPlan, problem: ProblemSpec) -> str:
    """A problem's PDDL text: objects grouped by type in declaration order."""
    by_type: dict[str, list[str]] = {}
    for name, kind in problem.objects:
        by_type.setdefault(kind, []).append(name)
    objects = "\n            ".join(f"{' '.join(names)} - {kind}"
                                    for kind, names in by_type.items())
    init = [lit.to_pddl(variables=False) for lit in problem.init]
    if plan.costs:
        init.insert(0, "(= (total-cost) 0)")
    init_lines, line = [], ""
    for fact in init:
        if line and len(line) + len(fact) > 70:
            init_lines.append(line)
            line = ""
        line = f"{line} {fact}" if line else fact
    init_lines.append(line)
    goal = _conjunction([g.to_pddl(variables=False) for g in problem.goal], "        ")
    text = (f"(define (problem {plan.name}-{problem.name})\n"
            f"  (:domain {plan.name})\n"
            f"  (:objects {objects})\n"
            f"  (:init " + "\n         ".join(init_lines) + ")\n"
            f"  (:goal {goal})")
    if plan.costs:
        text += "\n  (:metric minimize (total-cost))"
    return text + ")\n"
