"""Compilation of the domain model's formulas and effects into slot-indexed nodes.

Variables become integer slots of a binding list, so evaluation never looks names up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import Any

from text2world.pddl.model import (
    Action,
    AddEffect,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Effect,
    ForallEffect,
    Formula,
    FunctionEffect,
    Not,
    Or,
    Quantified,
    Truth,
    TypedName,
)
from text2world.simulation.problem import COST_FUNCTION, SimulationError, UnsupportedFeature, WorkLimitExceeded

__all__ = [
    "Node", "MAX_LOOP_DEPTH", "work_limit_exceeded", "compile_cached", "Scope",
    "compile_formula", "compile_effect", "conjuncts", "free_slots", "CompiledAction",
]

# A compiled formula or effect: its kind first ("atom", "and", "forall", "add", ...), then
# its parts, variables as slot numbers (ints) and objects as names.
Node = tuple[Any, ...]

# Loops one generated function nests at most; CPython stops at 20 nested blocks per function.
MAX_LOOP_DEPTH = 16


def work_limit_exceeded(max_work: int) -> None:
    raise WorkLimitExceeded(f"grounding needed more than {max_work:,} search steps in one call")


@lru_cache(maxsize=4096)
def compile_cached(source: str, filename: str) -> CodeType:
    """The code object of generated ``source``: its values come in through the namespace it
    runs in, so one source serves every simulator of the same shape (compiling is most of
    building a simulator: every round's prediction and every gold problem builds one)."""
    return compile(source, filename, "exec")

_COMPARISONS = frozenset({"<", "<=", ">", ">="})

# A term is an int (the binding slot of a variable) or a str (an object). Formula nodes:
#   ("atom", pred, terms) ("eq", t1, t2) ("not", node) ("and", nodes) ("or", nodes)
#   ("exists"|"forall", ((slot, type), ...), node) ("true",)
# Effect nodes:
#   ("add"|"del", pred, terms) ("when", cond, effects) ("forall", ((slot, type), ...), effects)
#   ("cost", term) where term is a float or (function, terms)


class Scope:
    def __init__(self) -> None:
        self.size = 0

    def new_slot(self) -> int:
        self.size += 1
        return self.size - 1


def _term(name: str, env: dict[str, int], where: str) -> int | str:
    if name.startswith("?"):
        if name not in env:
            raise SimulationError(f"{where}: variable {name} is not bound")
        return env[name]
    return name


def compile_formula(formula: Formula, env: dict[str, int], scope: Scope, where: str) -> Node:
    if isinstance(formula, Atom):
        if formula.predicate in _COMPARISONS:
            raise UnsupportedFeature(f"{where}: numeric comparison {formula.to_pddl()}")
        terms = tuple(_term(a, env, where) for a in formula.args)
        if any(a.startswith("(") for a in formula.args):
            raise UnsupportedFeature(f"{where}: function term in {formula.to_pddl()}")
        if formula.predicate == "=":
            return ("eq", terms[0], terms[1])
        return ("atom", formula.predicate, terms)
    if isinstance(formula, Truth):
        return ("true",)
    if isinstance(formula, Not):
        return ("not", compile_formula(formula.formula, env, scope, where))
    if isinstance(formula, And):
        return ("and", tuple(compile_formula(p, env, scope, where) for p in formula.parts))
    if isinstance(formula, Or):
        return ("or", tuple(compile_formula(p, env, scope, where) for p in formula.parts))
    if isinstance(formula, Quantified):
        inner, variables = _bind(formula.variables, env, scope)
        return (formula.quantifier, variables,
                compile_formula(formula.body, inner, scope, where))
    raise UnsupportedFeature(f"{where}: unsupported formula {formula!r}")


def _bind(variables: tuple[TypedName, ...], env: dict[str, int],
          scope: Scope) -> tuple[dict[str, int], tuple]:
    """A new slot for each quantified variable: the environment inside the quantifier, and the
    (slot, type) pairs the compiled node carries."""
    inner = dict(env)
    bound = []
    for variable in variables:
        slot = scope.new_slot()
        inner[variable.name] = slot
        bound.append((slot, variable.type))
    return inner, tuple(bound)


def _parse_cost(value: str, env: dict[str, int], where: str) -> float | Node:
    try:
        return float(value)
    except ValueError:
        pass
    words = value.strip("() ").split()
    if not value.startswith("(") or not words:
        raise UnsupportedFeature(f"{where}: cost {value} is not a number or a function term")
    return (words[0], tuple(_term(w, env, where) for w in words[1:]))


def compile_effect(effect: Effect, env: dict[str, int], scope: Scope, where: str) -> Node:
    if isinstance(effect, AddEffect):
        node = compile_formula(effect.atom, env, scope, where)
        return ("add", node[1], node[2])
    if isinstance(effect, DeleteEffect):
        node = compile_formula(effect.atom, env, scope, where)
        return ("del", node[1], node[2])
    if isinstance(effect, ConditionalEffect):
        return ("when", compile_formula(effect.condition, env, scope, where),
                (compile_effect(effect.effect, env, scope, where),))
    if isinstance(effect, ForallEffect):
        inner, variables = _bind(effect.variables, env, scope)
        return ("forall", variables,
                tuple(compile_effect(e, inner, scope, where) for e in effect.effects))
    if isinstance(effect, FunctionEffect):
        if effect.operation != "increase" or effect.term.strip("() ") != COST_FUNCTION:
            raise UnsupportedFeature(
                f"{where}: numeric effect {effect.to_pddl()} (only action costs, "
                f"(increase (total-cost) ...), are supported)")
        return ("cost", _parse_cost(effect.value, env, where))
    raise UnsupportedFeature(f"{where}: unsupported effect {effect!r}")


def conjuncts(formula: Formula) -> list[Formula]:
    if isinstance(formula, And):
        return [c for part in formula.parts for c in conjuncts(part)]
    if isinstance(formula, Truth):
        return []
    return [formula]


def free_slots(node: Node) -> set[int]:
    """Slots a formula node reads that are not bound inside it."""
    kind = node[0]
    if kind == "atom":
        return {t for t in node[2] if isinstance(t, int)}
    if kind == "eq":
        return {t for t in node[1:] if isinstance(t, int)}
    if kind == "not":
        return free_slots(node[1])
    if kind in ("and", "or"):
        return set().union(*(free_slots(n) for n in node[1])) if node[1] else set()
    if kind in ("exists", "forall"):
        return free_slots(node[2]) - {slot for slot, _ in node[1]}
    return set()


@dataclass
class CompiledAction:
    action: Action
    arity: int
    slots: int
    param_types: tuple[str, ...]
    conjuncts: tuple[tuple[Formula, tuple], ...]  # (lifted literal, node), in written order
    steps: tuple                                  # join plan, see Simulator._compile
    effects: tuple


