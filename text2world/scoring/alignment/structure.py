"""Structure of a domain for alignment: where each type, predicate and action is used, as
feature sets in the gold's vocabulary, compared as Jaccard similarities."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from text2world.pddl.model import (
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
    Not,
    Or,
    Quantified,
)

__all__ = [
    "Side", "side_of", "MAX_CONTEXT", "type_depths", "Translator", "wl_colours",
    "structure_scores",
]

# A literal's role: "pre", "add", ... ("n" before it: negated), or in context a tuple whose
# last item names the predicate beside it.
Role = str | tuple[str, ...]

FUNCTION = "\x00function"  # stands for the predicate of a function effect in literal lists
_VARIABLE = re.compile(r"\?[^\s(),]+")


@dataclass
class Side:
    """What alignment needs from one domain, extracted once."""

    types: dict[str, str]  # name -> parent (declared types only)
    predicates: dict[str, tuple[str, ...]]  # name -> parameter types
    actions: dict[str, tuple[str, ...]]  # name -> parameter types
    constants: dict[str, str]  # name -> type
    literals: dict[str, list[tuple[str | tuple, str, tuple]]]  # action -> (role, predicate, args)
    depths: dict[str, int]  # type -> depth below object


def side_of(domain: Domain) -> Side:
    """Signatures of a domain's names and, per action, its literals as (role, predicate,
    arguments): a role is pre/npre/add/del/cond/ncond, or in context (role, role of a literal
    beside it, its predicate); an argument is a parameter position, a quantified variable with
    its type, a constant or a function term."""
    constants = {c.name: c.type for c in domain.constants}
    literals: dict[str, list] = {}
    for action in domain.actions:
        positions = {p.name: i for i, p in enumerate(action.parameters)}
        found: list = []

        def arg(x: str, bound: dict) -> tuple:
            if x in bound:
                return ("q", bound[x])
            if x in positions:
                return ("p", positions[x])
            if x in constants:
                return ("c", x)
            return ("t", x)  # a function term or number: kept as text

        def walk(f: Formula, role: str, bound: dict, into: list) -> None:
            if isinstance(f, Atom):
                into.append((role, f.predicate, tuple(arg(x, bound) for x in f.args)))
            elif isinstance(f, Not):
                walk(f.formula, "n" + role, bound, into)
            elif isinstance(f, And):
                for part in f.parts:
                    walk(part, role, bound, into)
            elif isinstance(f, Or):
                # A disjunct is told apart by what it is conjoined with: (or (and (paper ?i)
                # (takes-paper ?b)) (and (glass ?i) (takes-glass ?b))) pairs paper with its bin;
                # and by its alternatives: (imply a b) is (or (not a) b).
                branches = []
                for part in f.parts:
                    branch: list = []
                    walk(part, role, bound, branch)
                    branches.append(branch)
                for i, branch in enumerate(branches):
                    into.extend(_in_context(branch, branch))
                    others = [x for j, b in enumerate(branches) if j != i for x in b]
                    into.extend(_in_context(branch, others, "alt")[len(branch):])
            elif isinstance(f, Quantified):
                walk(f.body, role, {**bound, **{v.name: v.type for v in f.variables}}, into)

        def walk_effect(e: Effect, bound: dict, into: list) -> None:
            if isinstance(e, AddEffect):
                walk(e.atom, "add", bound, into)
            elif isinstance(e, DeleteEffect):
                walk(e.atom, "del", bound, into)
            elif isinstance(e, ConditionalEffect):
                # A condition is told apart by what it causes, and an effect by its condition
                # (two levers that open or close the same door differ only there).
                conditions: list = []
                walk(e.condition, "cond", bound, conditions)
                effects: list = []
                walk_effect(e.effect, bound, effects)
                into.extend(_in_context(conditions, effects))
                into.extend(_in_context(effects, conditions))
            elif isinstance(e, ForallEffect):
                inner = {**bound, **{v.name: v.type for v in e.variables}}
                for x in e.effects:
                    walk_effect(x, inner, into)
            elif isinstance(e, FunctionEffect):
                # Functions are not aligned: compared as text, variables by position (two
                # actions may differ only in their cost).
                into.append((e.operation, FUNCTION, (("t", term(e.term, bound)),
                                                     ("t", term(e.value, bound)))))

        def term(text: str, bound: dict) -> str:
            return _VARIABLE.sub(lambda m: "?q" if m.group(0) in bound
                                 else f"?{positions.get(m.group(0), m.group(0))}", text)

        walk(action.precondition, "pre", {}, found)
        for e in action.effects:
            walk_effect(e, {}, found)
        literals[action.name] = found
    return Side(
        types={t.name: t.type for t in domain.types},
        predicates={p.name: tuple(x.type for x in p.parameters) for p in domain.predicates},
        actions={a.name: tuple(x.type for x in a.parameters) for a in domain.actions},
        constants=constants,
        literals=literals,
        depths=type_depths({t.name: t.type for t in domain.types}),
    )


MAX_CONTEXT = 12  # literals beside one another in a disjunct or conditional effect, at most


def _in_context(literals: list, others: list, relation: str = "") -> list:
    """The literals, plus for each plain literal one entry per plain literal of ``others``
    beside it: role ``(role, other role, other predicate)``. Partial credit when only some of
    the neighbours map; bounded by ``MAX_CONTEXT``."""
    plain = [(r, p) for r, p, _ in others if isinstance(r, str)]
    result = list(literals)
    if len(plain) > MAX_CONTEXT:
        return result
    for role, predicate, args in literals:
        if isinstance(role, str):
            result.extend(((role, relation + r, p), predicate, args) for r, p in plain
                          if (r, p) != (role, predicate))
    return result


def type_depths(types: dict[str, str]) -> dict[str, int]:
    """Depth of each declared type below ``object`` (linear: each depth is computed once)."""
    depths: dict[str, int] = {}
    for start in types:
        chain, name = [], start
        while name in types and name not in depths and name not in chain:
            chain.append(name)
            name = types[name]
        base = depths.get(name, 0)
        for offset, item in enumerate(reversed(chain), start=1):
            depths[item] = base + offset
    return depths


class Translator:
    """Names of one side expressed in the gold's vocabulary under the current mappings, and
    argument positions under the current orders (``mappings["orders"]``: predicted action ->
    parameter order, ``mappings["arguments"]``: predicted predicate -> argument order; gold
    position i is predicted position order[i])."""

    def __init__(self, mappings: dict[str, dict], side: str) -> None:
        self.mappings = mappings
        self.side = side  # "g" or "p": unmapped names stay apart between the two sides
        self._inverse: dict = {}

    def _order(self, table: str, name: str) -> tuple | None:
        if self.side == "g":
            return None
        orders: dict = self.mappings.get(table, {})
        return orders.get(name)

    def position(self, action: str, index: int) -> int:
        """A predicted parameter position as the gold's position under the action's order."""
        order = self._order("orders", action)
        if order is None or index >= len(order):
            return index
        inverse = self._inverse.get(order)
        if inverse is None:
            inverse = self._inverse[order] = {k: i for i, k in enumerate(order)}
        return inverse[index]

    def argument_position(self, predicate: str, index: int) -> int:
        """A predicted predicate's argument position as the gold's under its argument order."""
        order = self._order("arguments", predicate)
        if order is None or index >= len(order):
            return index
        return order.index(index)

    def literal(self, action: str, role: Role, predicate: str, args: tuple) -> tuple:
        """A literal of an action in the gold's vocabulary and argument positions."""
        if self.side == "g":
            return role, predicate, args
        order = self._order("arguments", predicate)
        if order is not None and len(order) == len(args):
            args = tuple(args[k] for k in order)
        if self._order("orders", action) is not None:
            args = tuple(("p", self.position(action, a[1])) if a[0] == "p" else a
                         for a in args)
        return self.role(role), self("predicates", predicate), self.args(args)

    def signature(self, table: str, name: str, types: tuple[str, ...]) -> tuple[str, ...]:
        """Parameter types of a predicted action (``orders``) or predicate (``arguments``) in
        the gold's order and vocabulary."""
        order = self._order(table, name)
        if order is not None and len(order) == len(types):
            types = tuple(types[k] for k in order)
        return tuple(self("types", t) for t in types)

    def __call__(self, kind: str, name: str) -> str:
        if self.side == "g":
            return name
        if kind == "types" and name == "object":
            return name
        if kind == "predicates" and name in ("=", FUNCTION):
            return name
        mapped = self.mappings[kind].get(name)
        return mapped if mapped is not None else "\x00p:" + name

    def role(self, role: Role) -> Role:
        """A literal's role; in context it names a predicate beside it, to translate."""
        if isinstance(role, str):
            return role
        return (role[0], role[1], self("predicates", role[2]))

    def args(self, args: tuple) -> tuple:
        return tuple(("c", self("constants", a[1])) if a[0] == "c"
                     else ("q", self("types", a[1])) if a[0] == "q" else a for a in args)


def _anonymous_role(role: Role) -> Role:
    """The role without the predicate beside it (before any are mapped)."""
    return role if isinstance(role, str) else role[:2]


def _anonymous_args(args: tuple) -> tuple:
    return tuple(a if a[0] == "p" else (a[0],) for a in args)


WL_LEVELS = 3


def wl_colours(gold: Side, predicted: Side) -> tuple[dict, dict]:
    """Weisfeiler-Lehman colours of every type, predicate and action, in the graph that joins
    predicates and actions to the types of their parameters (by position) and actions to the
    predicates they use (by role and argument positions). Refined ``WL_LEVELS`` times with one
    colour table for both sides, so that equal colours mean equal neighbourhoods, whatever the
    names. Tells apart names whose own usage profiles tie (a pair of types, predicates and
    actions that a first guess could swap consistently). Each name's colours are followed by
    those of the same graph without positions, which agree between domains that list
    parameters or arguments in other orders."""
    with_positions = _wl(gold, predicted, True)
    without = _wl(gold, predicted, False)
    return tuple({kind: {n: history + without[side][kind][n] for n, history in names.items()}
                  for kind, names in with_positions[side].items()}
                 for side in (0, 1))  # type: ignore[return-value]


def _wl(gold: Side, predicted: Side, positional: bool) -> tuple[dict, dict]:
    table: dict = {"positional": positional}  # one table per kind of graph
    result = []
    for side in (gold, predicted):
        edges: list[tuple] = []  # (kind, name, other kind, other name, label)
        for kind, table_ in (("predicates", side.predicates), ("actions", side.actions)):
            for name, types in table_.items():
                for i, t in enumerate(types):
                    if t in side.types:
                        edges.append((kind, name, "types", t,
                                      ("param", i) if positional else ("param",)))
        for action, literals in side.literals.items():
            for role, predicate, args in literals:
                if predicate not in side.predicates:
                    continue
                args = _anonymous_args(args) if positional else _positionless(args)
                edges.append(("actions", action, "predicates", predicate,
                              (_anonymous_role(role), args)))
                if not isinstance(role, str) and role[2] in side.predicates:
                    # predicates side by side in a disjunct or a conditional effect
                    edges.append(("predicates", predicate, "predicates", role[2],
                                  ("beside", role[0], role[1])))
        colour = {
            "types": {n: table.setdefault(("T", side.depths[n]), len(table))
                      for n in side.types},
            "predicates": {n: table.setdefault(("P", len(t)), len(table))
                           for n, t in side.predicates.items()},
            "actions": {n: table.setdefault(("A", len(t)), len(table))
                        for n, t in side.actions.items()},
        }
        history: dict = {kind: {n: [] for n in names} for kind, names in colour.items()}
        for _ in range(WL_LEVELS):
            near: dict = {kind: {n: [] for n in names} for kind, names in colour.items()}
            for kind, name, other_kind, other, label in edges:
                near[kind][name].append((0, label, colour[other_kind][other]))
                near[other_kind][other].append((1, label, colour[kind][name]))
            colour = {kind: {n: table.setdefault((c, tuple(sorted(near[kind][n], key=repr))),
                                                 len(table))
                             for n, c in names.items()}
                      for kind, names in colour.items()}
            for kind, names in colour.items():
                for n, c in names.items():
                    history[kind][n].append(c)
        result.append(history)
    return result[0], result[1]


def _sorted(args: tuple) -> tuple:
    """Arguments as a sorted tuple: a use of a predicate whatever its argument order."""
    return tuple(sorted(args, key=repr))


def _positionless(args: tuple) -> tuple:
    """Arguments without parameter positions, sorted: a literal whatever the order of the
    action's parameters and of the predicate's arguments."""
    return tuple(sorted((("p",) if a[0] == "p" else a for a in args), key=repr))


def _multiset(items: Iterable) -> frozenset:
    """A multiset as a set of (item, occurrence number), for Jaccard."""
    counts: Counter = Counter()
    result = []
    for item in items:
        counts[item] += 1
        result.append((item, counts[item]))
    return frozenset(result)


def _features(kind: str, side: Side, tr: Translator, names: list[str], anonymous: bool,
              colours: dict | None = None) -> tuple[list[frozenset], list[frozenset]]:
    """Per name: (signature features, usage features) in the gold's vocabulary."""
    signatures: list[frozenset] = []
    usages: list = []
    if kind == "types":
        for name in names:
            signatures.append(frozenset({("depth", side.depths[name]),
                                         ("parent", tr("types", side.types.get(name, "object")))}))
            usage: list[tuple] = []
            for predicate, types in side.predicates.items():
                key: tuple | str = ("arity", len(types)) if anonymous else tr("predicates", predicate)
                usage.extend(("pp", key, tr.argument_position(predicate, i))
                             for i, x in enumerate(types) if x == name)
            for action, types in side.actions.items():
                key = ("arity", len(types)) if anonymous else tr("actions", action)
                usage.extend(("ap", key, tr.position(action, i))
                             for i, x in enumerate(types) if x == name)
            usages.append(_multiset(usage))
    elif kind == "predicates":
        uses: dict[str, list] = {name: [] for name in names}
        for action, literals in side.literals.items():
            key = ("anon",) if anonymous else tr("actions", action)
            for role, predicate, args in literals:
                if predicate in uses:
                    if anonymous:
                        role, args = _anonymous_role(role), _anonymous_args(args)
                        uses[predicate].append((key, role, args))
                    else:
                        role, _, args = tr.literal(action, role, predicate, args)
                        uses[predicate].append((key, role, args))
                    # the same use whatever the order of the predicate's arguments
                    uses[predicate].append(("loose", key, role, _sorted(args)))
        for name in names:
            types = side.predicates[name]
            signatures.append(frozenset({("arity", len(types))}
                                        | {("loose", x) for x in
                                           sorted(tr("types", t) for t in types)}
                                        | {(i, x) for i, x in enumerate(
                                            tr.signature("arguments", name, types))}))
            usages.append(_multiset(uses[name]))
    elif kind == "actions":
        for name in names:
            types = side.actions[name]
            signatures.append(frozenset({("arity", len(types))}
                                        | {("loose", x) for x in
                                           sorted(tr("types", t) for t in types)}
                                        | {(i, x) for i, x in enumerate(
                                            tr.signature("orders", name, types))}))
            literals = [tr.literal(name, *literal) for literal in side.literals[name]]
            # and the same literals whatever the order of the action's parameters
            usages.append(_multiset(literals + [("loose", role, predicate, _positionless(args))
                                                for role, predicate, args in literals]))
    else:  # constants
        uses = {name: [] for name in names}
        for literals in side.literals.values():
            for role, predicate, args in literals:
                for i, a in enumerate(args):
                    if a[0] == "c" and a[1] in uses:
                        uses[a[1]].append((tr.role(role), tr("predicates", predicate),
                                           tr.argument_position(predicate, i)))
        for name in names:
            signatures.append(frozenset({("type", tr("types", side.constants[name]))}))
            usages.append(_multiset(uses[name]))
    if colours is not None and kind in colours:
        usages = [usage | {(("wl", level, colour), 1)
                           for level, colour in enumerate(colours[kind][name])}
                  for usage, name in zip(usages, names)]
    return signatures, usages


def _jaccard(left: list[frozenset], right: list[frozenset], both_empty: float) -> np.ndarray:
    """Pairwise Jaccard similarity of two lists of sets, as one sparse matrix product."""
    from scipy import sparse  # loaded with scipy.optimize anyway, and only when needed

    vocabulary: dict = {}
    matrices = []
    for group in (left, right):
        indices: list[int] = []
        indptr = [0]
        for items in group:
            indices.extend(vocabulary.setdefault(item, len(vocabulary)) for item in items)
            indptr.append(len(indices))
        matrices.append((indices, indptr))
    width = max(1, len(vocabulary))
    a, b = (sparse.csr_matrix((np.ones(len(indices), dtype=np.float64), indices, indptr),
                              shape=(len(indptr) - 1, width))
            for indices, indptr in matrices)
    common = (a @ b.T).toarray()
    sizes_a = np.diff(a.indptr).astype(np.float64)
    sizes_b = np.diff(b.indptr).astype(np.float64)
    union = sizes_a[:, None] + sizes_b[None, :] - common
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union > 0, common / np.maximum(union, 1), both_empty)


# Weights of the signature (types, arity) against the usage (where and how a name is used).
_SIGNATURE_WEIGHT = {"types": 0.3, "predicates": 0.3, "actions": 0.3, "constants": 0.4}
_ARITY_MISMATCH = {"predicates": 0.5, "actions": 0.6}


def structure_scores(kind: str, gold: Side, predicted: Side, mappings: dict, gold_names: list[str],
               predicted_names: list[str], anonymous: bool,
               colours: tuple[dict, dict] | None) -> np.ndarray:
    g_colours, p_colours = colours if colours else (None, None)
    g_sig, g_use = _features(kind, gold, Translator(mappings, "g"), gold_names, anonymous,
                             g_colours)
    p_sig, p_use = _features(kind, predicted, Translator(mappings, "p"), predicted_names,
                             anonymous, p_colours)
    weight = _SIGNATURE_WEIGHT[kind]
    result = (weight * _jaccard(p_sig, g_sig, 1.0)
              + (1 - weight) * _jaccard(p_use, g_use, 0.5))
    if kind in _ARITY_MISMATCH:
        table = predicted.predicates if kind == "predicates" else predicted.actions
        gold_table = gold.predicates if kind == "predicates" else gold.actions
        p_arity = np.array([len(table[n]) for n in predicted_names])
        g_arity = np.array([len(gold_table[n]) for n in gold_names])
        result = np.where(p_arity[:, None] == g_arity[None, :], result,
                          result * _ARITY_MISMATCH[kind])
    return result
