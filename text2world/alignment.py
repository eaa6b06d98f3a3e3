"""Alignment of vocabularies: map a predicted domain's names onto the gold domain's.

A model that writes ``pick-up`` for the gold's ``pickup``, ``Block`` for ``block`` or invents its
own names for everything still describes the same world. ``align(gold, predicted)`` maps the
prediction's types, predicates, actions and constants onto the gold's, one to one, in four steps:

1. exact names are matched first, and a confidence of 1.0;
2. then names equal after normalisation (case, ``-``/``_``/camelCase, word order, plural and verb
   endings, ``is-``/``has-`` prefixes), where the normal form is unique on both sides: 0.95;
3. the rest by structure, solved as an optimal assignment (``scipy.optimize.linear_sum_assignment``)
   per kind over a score mixing a fuzzy name similarity with structural similarity:
   types by their place in the hierarchy and where they are used, predicates by arity, parameter
   types and where they occur (precondition, negated precondition, add, delete, condition) in
   which action with which parameters, actions by parameter types and the literals they test, add
   and delete. Types come first, then predicates and actions inform each other for two rounds
   (the first round of predicates uses anonymous usage profiles, later rounds the action mapping);
4. a pair scoring below ``THRESHOLD`` stays unmapped. The confidence of an assigned pair is its
   score.

A gold without types (all its parameters are ``object``) takes every predicted type as ``object``:
``Alignment.gold_untyped`` says so and the type mapping sends each predicted type to ``object``.

Predicate argument positions are not mapped: a predicate whose arguments the prediction swapped
keeps its order in the translation (its literals then differ from the gold's, which is what
canonical scoring should see).

Work is bounded: the feature sets are linear in the domain's size, each kind's score matrix is
(predicted names x gold names) computed with sparse-free dense products over a shared feature
vocabulary, and the assignment is cubic in the number of names that no name rule matched. The
domain parser already bounds the input (``pddl.MAX_DOMAIN_CHARS``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

import Levenshtein
import numpy as np

from .pddl import (Action, AddEffect, And, Atom, ConditionalEffect, DeleteEffect, Domain,
                   ForallEffect, Formula, FunctionEffect, Not, Or, Predicate, Quantified, Truth,
                   TypedName)

KINDS: tuple[str, ...] = ("types", "predicates", "actions", "constants")
THRESHOLD = 0.5  # an assigned pair scoring below this stays unmapped
EXACT_CONFIDENCE = 1.0
NORMALISED_CONFIDENCE = 0.95
UNMAPPED_PREFIX = "unmapped-"
FUNCTION = "\x00function"  # stands for the predicate of a function effect in literal lists
_VARIABLE = re.compile(r"\?[^\s(),]+")
ROUNDS = 2  # predicate/action rounds after the first, anonymous one
SWAP_GAP = 0.2  # exchanges of partners tried when they cost at most this much score
MAX_SWAPS = 20  # per kind


class FrozenMap(Mapping):
    """A read-only, hashable, picklable mapping (scores travel between processes)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping | Iterable = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __setattr__(self, name, value):
        raise AttributeError("FrozenMap is read-only")

    def __reduce__(self):
        return (FrozenMap, (self._data,))


@dataclass(frozen=True)
class Alignment:
    """How a predicted domain's names map onto a gold domain's.

    ``types``, ``predicates``, ``actions``, ``constants``: predicted name -> gold name (one to
    one, except that with ``gold_untyped`` every predicted type maps to ``object``).
    ``confidence[kind][predicted name]`` is in [0, 1] for each mapped pair.
    ``unmapped_gold[kind]`` / ``unmapped_predicted[kind]``: names left without a partner, sorted.
    """

    types: FrozenMap
    predicates: FrozenMap
    actions: FrozenMap
    constants: FrozenMap
    confidence: FrozenMap  # kind -> FrozenMap(predicted name -> confidence)
    unmapped_gold: FrozenMap  # kind -> tuple of gold names
    unmapped_predicted: FrozenMap  # kind -> tuple of predicted names
    gold_untyped: bool = False
    _gold_names: FrozenMap = FrozenMap()  # kind -> frozenset of gold names (for prefixing)

    def mapping(self, kind: str) -> FrozenMap:
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
        return getattr(self, kind)

    @property
    def is_identity(self) -> bool:
        """Every predicted name maps to itself and nothing predicted is unmapped."""
        return (not self.gold_untyped
                and all(not self.unmapped_predicted[k] for k in KINDS)
                and all(p == g for k in KINDS for p, g in self.mapping(k).items()))

    def rename(self, kind: str, name: str) -> str:
        """The name a predicted ``kind`` name gets in the gold's vocabulary: its gold partner, or
        the name behind ``UNMAPPED_PREFIX`` (repeated until it collides with no gold name)."""
        mapping = self.mapping(kind)
        if name in mapping:
            return mapping[name]
        if kind == "types" and name == "object":
            return "object"
        if kind == "predicates" and name == "=":
            return "="
        taken = self._gold_names.get(kind, frozenset())
        renamed = UNMAPPED_PREFIX + name
        while renamed in taken:
            renamed = UNMAPPED_PREFIX + renamed
        return renamed

    def translate(self, predicted: Domain) -> Domain:
        """The predicted domain renamed into the gold's vocabulary.

        Mapped names take their gold name, unmapped ones are prefixed (see ``rename``); parameter,
        variable and constant types are translated. With ``gold_untyped`` the translated domain
        declares no types (its requirements are kept as written). Variables keep their names.
        """
        if self.is_identity:
            return predicted
        constant_names = {x.name for x in predicted.constants}

        def t(name: str) -> str:
            return self.rename("types", name)

        def c(name: str) -> str:  # an argument: a variable or a constant
            return self.rename("constants", name) if name in constant_names else name

        def typed(items: tuple[TypedName, ...]) -> tuple[TypedName, ...]:
            return tuple(TypedName(x.name, t(x.type)) for x in items)

        def formula(f: Formula) -> Formula:
            if isinstance(f, Atom):
                return atom(f)
            if isinstance(f, Not):
                return Not(formula(f.formula))
            if isinstance(f, And):
                return And(tuple(formula(p) for p in f.parts))
            if isinstance(f, Or):
                return Or(tuple(formula(p) for p in f.parts))
            if isinstance(f, Quantified):
                return Quantified(f.quantifier, typed(f.variables), formula(f.body))
            return f

        def atom(a: Atom) -> Atom:
            return Atom(self.rename("predicates", a.predicate), tuple(c(x) for x in a.args))

        def effect(e):
            if isinstance(e, AddEffect):
                return AddEffect(atom(e.atom))
            if isinstance(e, DeleteEffect):
                return DeleteEffect(atom(e.atom))
            if isinstance(e, ConditionalEffect):
                return ConditionalEffect(formula(e.condition), effect(e.effect))
            if isinstance(e, ForallEffect):
                return ForallEffect(typed(e.variables), tuple(effect(x) for x in e.effects))
            return e  # FunctionEffect: functions are not aligned

        types = []
        seen = set()
        for item in predicted.types:
            name, parent = t(item.name), t(item.type)
            if name == "object" or name in seen:
                continue
            seen.add(name)
            types.append(TypedName(name, parent if parent != name else "object"))
        return Domain(
            name=predicted.name,
            requirements=predicted.requirements,
            types=tuple(types),
            constants=tuple(TypedName(c(x.name), t(x.type)) for x in predicted.constants),
            predicates=tuple(Predicate(self.rename("predicates", p.name), typed(p.parameters))
                             for p in predicted.predicates),
            functions=predicted.functions,
            actions=tuple(Action(self.rename("actions", a.name), typed(a.parameters),
                                 formula(a.precondition), tuple(effect(e) for e in a.effects))
                          for a in predicted.actions),
        )

    def to_dict(self) -> dict:
        """JSON-able: per kind the mapped pairs (predicted, gold, confidence) and the unmapped."""
        result: dict = {"gold_untyped": self.gold_untyped}
        for kind in KINDS:
            mapping = self.mapping(kind)
            result[kind] = {
                "mapped": [{"predicted": p, "gold": g,
                            "confidence": round(self.confidence[kind][p], 4)}
                           for p, g in sorted(mapping.items())],
                "unmapped_gold": list(self.unmapped_gold[kind]),
                "unmapped_predicted": list(self.unmapped_predicted[kind]),
            }
        return result


# --------------------------------------------------------------------------------------------
# Names


_STOP_WORDS = frozenset({"is", "has", "a", "an", "the"})
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[-_\s]+")


def _stem(token: str) -> str:
    """A light stemmer for plural and verb endings: picks/picking/picked -> pick,
    boxes -> box, moves/moving/moved/move -> mov."""
    for suffix in ("ing", "ed"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: -len(suffix)]
            if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "aeiouls":
                token = token[:-1]  # stopped -> stop
            break
    else:
        if token.endswith("es") and len(token) >= 5 and token[-3] in "xsz" or token.endswith(
                ("ches", "shes")):
            token = token[:-2]
        elif token.endswith("s") and not token.endswith(("ss", "us", "is")) and len(token) >= 4:
            token = token[:-1]
    if token.endswith("e") and len(token) >= 4:
        token = token[:-1]
    return token


def name_tokens(name: str) -> tuple[str, ...]:
    """Words of a name: split on ``-``, ``_`` and camelCase, lower-cased, stemmed, without
    ``is``/``has``/articles (unless nothing else is left)."""
    words = [w for w in _SEPARATORS.split(_CAMEL.sub(r"\1-\2", name).lower()) if w]
    kept = [w for w in words if w not in _STOP_WORDS] or words
    return tuple(_stem(w) for w in kept)


def name_keys(name: str) -> frozenset[str]:
    """Normal forms: the words joined in order (pick-up = pickup) and sorted (word order)."""
    tokens = name_tokens(name)
    return frozenset({"j:" + "".join(tokens), "s:" + "-".join(sorted(tokens))})


def _fuzzy(left: str, right: str) -> float:
    """Name similarity in [0, 1] beyond the normal forms: 0 below a Levenshtein ratio of 0.5."""
    a, b = "".join(name_tokens(left)), "".join(name_tokens(right))
    ta, tb = set(name_tokens(left)), set(name_tokens(right))
    jaccard = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    best = max(Levenshtein.ratio(a, b), jaccard)
    return max(0.0, (best - 0.5) / 0.5)


# --------------------------------------------------------------------------------------------
# Structure of one domain


@dataclass
class _Side:
    """What alignment needs from one domain, extracted once."""

    types: dict[str, str]  # name -> parent (declared types only)
    predicates: dict[str, tuple[str, ...]]  # name -> parameter types
    actions: dict[str, tuple[str, ...]]  # name -> parameter types
    constants: dict[str, str]  # name -> type
    literals: dict[str, list[tuple[str, str, tuple]]]  # action -> (role, predicate, args)


def _side(domain: Domain) -> _Side:
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

        def walk(f: Formula, role, bound: dict, into: list) -> None:
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

        def walk_effect(e, bound: dict, into: list) -> None:
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
    return _Side(
        types={t.name: t.type for t in domain.types},
        predicates={p.name: tuple(x.type for x in p.parameters) for p in domain.predicates},
        actions={a.name: tuple(x.type for x in a.parameters) for a in domain.actions},
        constants=constants,
        literals=literals,
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


def _depth(types: dict[str, str], name: str) -> int:
    depth, seen = 0, set()
    while name in types and name not in seen and depth < len(types) + 1:
        seen.add(name)
        name = types[name]
        depth += 1
    return depth


class _Translator:
    """Names of one side expressed in the gold's vocabulary under the current mappings."""

    def __init__(self, mappings: dict[str, dict[str, str]], side: str) -> None:
        self.mappings = mappings
        self.side = side  # "g" or "p": unmapped names stay apart between the two sides

    def __call__(self, kind: str, name: str) -> str:
        if self.side == "g":
            return name
        if kind == "types" and name == "object":
            return name
        if kind == "predicates" and name in ("=", FUNCTION):
            return name
        mapped = self.mappings[kind].get(name)
        return mapped if mapped is not None else "\x00p:" + name

    def role(self, role):
        """A literal's role; in context it names a predicate beside it, to translate."""
        if isinstance(role, str):
            return role
        return (role[0], role[1], self("predicates", role[2]))

    def args(self, args: tuple) -> tuple:
        return tuple(("c", self("constants", a[1])) if a[0] == "c"
                     else ("q", self("types", a[1])) if a[0] == "q" else a for a in args)


def _anonymous_role(role):
    """The role without the predicate beside it (before any are mapped)."""
    return role if isinstance(role, str) else role[:2]


def _anonymous_args(args: tuple) -> tuple:
    return tuple(a if a[0] == "p" else (a[0],) for a in args)


WL_LEVELS = 3


def _wl_colours(gold: _Side, predicted: _Side) -> tuple[dict, dict]:
    """Weisfeiler-Lehman colours of every type, predicate and action, in the graph that joins
    predicates and actions to the types of their parameters (by position) and actions to the
    predicates they use (by role and argument positions). Refined ``WL_LEVELS`` times with one
    colour table for both sides, so that equal colours mean equal neighbourhoods, whatever the
    names. Tells apart names whose own usage profiles tie (a pair of types, predicates and
    actions that a first guess could swap consistently)."""
    table: dict = {}
    result = []
    for side in (gold, predicted):
        edges = []  # (kind, name, other kind, other name, label)
        for kind, table_ in (("predicates", side.predicates), ("actions", side.actions)):
            for name, types in table_.items():
                for i, t in enumerate(types):
                    if t in side.types:
                        edges.append((kind, name, "types", t, ("param", i)))
        for action, literals in side.literals.items():
            for role, predicate, args in literals:
                if predicate not in side.predicates:
                    continue
                edges.append(("actions", action, "predicates", predicate,
                              (_anonymous_role(role), _anonymous_args(args))))
                if not isinstance(role, str) and role[2] in side.predicates:
                    # predicates side by side in a disjunct or a conditional effect
                    edges.append(("predicates", predicate, "predicates", role[2],
                                  ("beside", role[0], role[1])))
        colour = {
            "types": {n: table.setdefault(("T", _depth(side.types, n)), len(table))
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


def _multiset(items: Iterable) -> frozenset:
    """A multiset as a set of (item, occurrence number), for Jaccard."""
    counts: Counter = Counter()
    result = []
    for item in items:
        counts[item] += 1
        result.append((item, counts[item]))
    return frozenset(result)


def _features(kind: str, side: _Side, tr: _Translator, names: list[str], anonymous: bool,
              colours: dict | None = None):
    """Per name: (signature features, usage features) in the gold's vocabulary."""
    signatures, usages = [], []
    if kind == "types":
        for name in names:
            signatures.append(frozenset({("depth", _depth(side.types, name)),
                                         ("parent", tr("types", side.types.get(name, "object")))}))
            usage = []
            for predicate, types in side.predicates.items():
                key = ("arity", len(types)) if anonymous else tr("predicates", predicate)
                usage.extend(("pp", key, i) for i, x in enumerate(types) if x == name)
            for action, types in side.actions.items():
                key = ("arity", len(types)) if anonymous else tr("actions", action)
                usage.extend(("ap", key, i) for i, x in enumerate(types) if x == name)
            usages.append(_multiset(usage))
    elif kind == "predicates":
        uses: dict[str, list] = {name: [] for name in names}
        for action, literals in side.literals.items():
            key = ("anon",) if anonymous else tr("actions", action)
            for role, predicate, args in literals:
                if predicate in uses:
                    if anonymous:
                        uses[predicate].append((key, _anonymous_role(role), _anonymous_args(args)))
                    else:
                        uses[predicate].append((key, tr.role(role), tr.args(args)))
        for name in names:
            types = side.predicates[name]
            signatures.append(frozenset({("arity", len(types))}
                                        | {(i, tr("types", x)) for i, x in enumerate(types)}))
            usages.append(_multiset(uses[name]))
    elif kind == "actions":
        for name in names:
            types = side.actions[name]
            signatures.append(frozenset({("arity", len(types))}
                                        | {(i, tr("types", x)) for i, x in enumerate(types)}))
            usages.append(_multiset((tr.role(role), tr("predicates", predicate), tr.args(args))
                                    for role, predicate, args in side.literals[name]))
    else:  # constants
        uses: dict = {name: [] for name in names}
        for action, literals in side.literals.items():
            for role, predicate, args in literals:
                for i, a in enumerate(args):
                    if a[0] == "c" and a[1] in uses:
                        uses[a[1]].append((tr.role(role), tr("predicates", predicate), i))
        for name in names:
            signatures.append(frozenset({("type", tr("types", side.constants[name]))}))
            usages.append(_multiset(uses[name]))
    if colours is not None and kind in colours:
        usages = [usage | {(("wl", level, colour), 1)
                           for level, colour in enumerate(colours[kind][name])}
                  for usage, name in zip(usages, names)]
    return signatures, usages


def _jaccard(left: list[frozenset], right: list[frozenset], both_empty: float) -> np.ndarray:
    """Pairwise Jaccard similarity of two lists of sets, as one matrix product."""
    vocabulary: dict = {}
    for group in (left, right):
        for items in group:
            for item in items:
                vocabulary.setdefault(item, len(vocabulary))
    a = np.zeros((len(left), max(1, len(vocabulary))), dtype=np.float32)
    b = np.zeros((len(right), max(1, len(vocabulary))), dtype=np.float32)
    for matrix, group in ((a, left), (b, right)):
        for row, items in enumerate(group):
            matrix[row, [vocabulary[x] for x in items]] = 1.0
    common = a @ b.T
    union = a.sum(1)[:, None] + b.sum(1)[None, :] - common
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(union > 0, common / np.maximum(union, 1), both_empty)


# Weights of the signature (types, arity) against the usage (where and how a name is used).
_SIGNATURE_WEIGHT = {"types": 0.3, "predicates": 0.3, "actions": 0.3, "constants": 0.4}
_ARITY_MISMATCH = {"predicates": 0.5, "actions": 0.6}
_NAME_WEIGHT = 0.5  # of a fuzzy name similarity; the rest of the score is structure


def _structure(kind: str, gold: _Side, predicted: _Side, mappings: dict, gold_names: list[str],
               predicted_names: list[str], anonymous: bool,
               colours: tuple[dict, dict] | None) -> np.ndarray:
    g_colours, p_colours = colours if colours else (None, None)
    g_sig, g_use = _features(kind, gold, _Translator(mappings, "g"), gold_names, anonymous,
                             g_colours)
    p_sig, p_use = _features(kind, predicted, _Translator(mappings, "p"), predicted_names,
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


# --------------------------------------------------------------------------------------------
# Matching


def _match_names(gold_names: list[str], predicted_names: list[str]):
    """Exact matches, then normal forms unique on both sides. Returns (pairs, confidences)."""
    pairs: dict[str, str] = {}
    confidence: dict[str, float] = {}
    gold_set = set(gold_names)
    for name in predicted_names:
        if name in gold_set:
            pairs[name] = name
            confidence[name] = EXACT_CONFIDENCE
    rest_gold = [g for g in gold_names if g not in pairs.values()]
    rest_predicted = [p for p in predicted_names if p not in pairs]
    by_key: dict[str, tuple[set, set]] = {}
    for side, names in ((0, rest_gold), (1, rest_predicted)):
        for name in names:
            for key in name_keys(name):
                by_key.setdefault(key, (set(), set()))[side].add(name)
    candidates: dict[str, set] = {}
    gold_candidates: dict[str, set] = {}
    for gold_side, predicted_side in by_key.values():
        for p in predicted_side:
            candidates.setdefault(p, set()).update(gold_side)
        for g in gold_side:
            gold_candidates.setdefault(g, set()).update(predicted_side)
    for p in rest_predicted:
        options = candidates.get(p, set())
        if len(options) == 1:
            (g,) = options
            if gold_candidates.get(g) == {p}:
                pairs[p] = g
                confidence[p] = NORMALISED_CONFIDENCE
    return pairs, confidence


class _KindState:
    """Names of one kind and the pairs fixed by name rules, plus the current assignment."""

    def __init__(self, gold_names: list[str], predicted_names: list[str]) -> None:
        self.gold_names = sorted(gold_names)
        self.predicted_names = sorted(predicted_names)
        self.fixed, self.fixed_confidence = _match_names(self.gold_names, self.predicted_names)
        taken = set(self.fixed.values())
        self.open_gold = [g for g in self.gold_names if g not in taken]
        self.open_predicted = [p for p in self.predicted_names if p not in self.fixed]
        # A fuzzy name similarity only among the names no rule matched (quadratic, cheap).
        self.names = np.array([[_fuzzy(p, g) for g in self.open_gold]
                               for p in self.open_predicted], dtype=np.float64).reshape(
            len(self.open_predicted), len(self.open_gold))
        self.assigned: dict[str, str] = {}
        self.assigned_confidence: dict[str, float] = {}
        self.scores = np.zeros((len(self.open_predicted), len(self.open_gold)))
        self.first_scores: np.ndarray | None = None  # from names and anonymous structure

    def swap_candidates(self, limit: int) -> list[tuple[str, str]]:
        """Pairs of assigned names whose partners, exchanged, score nearly as well: where a
        consistent but wrong choice among near-symmetric names may hide."""
        if len(self.assigned) < 2:
            return []
        row = {p: i for i, p in enumerate(self.open_predicted)}
        col = {g: j for j, g in enumerate(self.open_gold)}
        names = sorted(self.assigned)
        rows = np.array([row[p] for p in names])
        cols = np.array([col[self.assigned[p]] for p in names])
        # Near-symmetric names tie in the first, anonymous round; later rounds, built on one
        # choice, no longer show it.
        scores = self.scores if self.first_scores is None else np.maximum(self.scores,
                                                                          self.first_scores)
        cross = scores[np.ix_(rows, cols)]  # [i, j]: predicted i with the gold of j
        kept = np.diag(cross)
        gap = kept[:, None] + kept[None, :] - cross - cross.T
        i, j = np.nonzero(np.triu(gap <= SWAP_GAP, k=1))
        order = np.lexsort((j, i, gap[i, j]))[:limit]
        return [(names[i[k]], names[j[k]]) for k in order]

    @property
    def open(self) -> bool:
        return bool(self.open_gold and self.open_predicted)

    def mapping(self) -> dict[str, str]:
        return {**self.fixed, **self.assigned}

    def assign(self, structure: np.ndarray) -> None:
        name_part = _NAME_WEIGHT * self.names
        scores = name_part + (1 - name_part) * structure
        # Pairs under the threshold are worth nothing, so the assignment does not trade a good
        # pair for two weak ones.
        worth = np.where(scores >= THRESHOLD, scores, 0.0)
        from scipy.optimize import linear_sum_assignment  # 0.3 s to import: only when needed

        rows, cols = linear_sum_assignment(worth, maximize=True)
        self.scores = scores
        if self.first_scores is None:
            self.first_scores = scores
        self.assigned, self.assigned_confidence = {}, {}
        for row, col in zip(rows, cols):
            if scores[row, col] >= THRESHOLD:
                p, g = self.open_predicted[row], self.open_gold[col]
                self.assigned[p] = g
                self.assigned_confidence[p] = float(min(1.0, scores[row, col]))


def _agreement(gold: _Side, predicted: _Side, mappings: dict, gold_untyped: bool) -> int:
    """How many signature and literal features mapped pairs share: what canonical scoring
    counts (parameter types, predicate signatures, action literals)."""
    total = 0
    for kind in ("types", "predicates", "actions"):
        if kind == "types" and gold_untyped:
            continue
        pairs = sorted(mappings[kind].items())
        p_sig, p_use = _features(kind, predicted, _Translator(mappings, "p"),
                                 [p for p, _ in pairs], False)
        g_sig, g_use = _features(kind, gold, _Translator(mappings, "g"), [g for _, g in pairs],
                                 False)
        total += sum(len(a & b) for a, b in zip(p_sig, g_sig))
        if kind == "actions":
            total += sum(len(a & b) for a, b in zip(p_use, g_use))
    return total


def align(gold: Domain, predicted: Domain) -> Alignment:
    """Map the predicted domain's types, predicates, actions and constants onto the gold's."""
    gold_side, predicted_side = _side(gold), _side(predicted)
    gold_untyped = not gold.typed
    states = {
        "types": _KindState([] if gold_untyped else list(gold_side.types),
                            [] if gold_untyped else list(predicted_side.types)),
        "predicates": _KindState(list(gold_side.predicates), list(predicted_side.predicates)),
        "actions": _KindState(list(gold_side.actions), list(predicted_side.actions)),
        "constants": _KindState(list(gold_side.constants), list(predicted_side.constants)),
    }
    if gold_untyped:
        type_mapping = {name: "object" for name in predicted_side.types}
    mappings = {kind: state.mapping() for kind, state in states.items()}
    if gold_untyped:
        mappings["types"] = type_mapping

    colours = None
    if any(state.open for state in states.values()):
        colours = _wl_colours(gold_side, predicted_side)

    def step(kind: str, anonymous: bool = False, with_colours: bool = False) -> None:
        state = states[kind]
        if not state.open:
            return
        state.assign(_structure(kind, gold_side, predicted_side, mappings, state.open_gold,
                                state.open_predicted, anonymous,
                                colours if with_colours else None))
        if not (kind == "types" and gold_untyped):
            mappings[kind] = state.mapping()

    step("types", anonymous=True, with_colours=True)
    step("predicates", anonymous=True, with_colours=True)
    step("constants")
    step("actions", with_colours=True)
    for _ in range(ROUNDS):
        if not (states["predicates"].open or states["actions"].open or states["types"].open
                or states["constants"].open):
            break
        step("predicates")
        step("types")
        step("constants")
        step("actions")

    # Alternating rounds can settle on a consistent but wrong choice among near-symmetric names
    # (two predicates and the two actions that use them, exchanged together). Try exchanging
    # such partners, re-deciding what depends on them, and keep what agrees more.
    def snapshot():
        return ({k: (dict(st.assigned), dict(st.assigned_confidence), st.scores)
                 for k, st in states.items()}, {k: dict(m) for k, m in mappings.items()})

    def restore(saved) -> None:
        kept, saved_mappings = saved
        for k, (assigned, confidences, scores) in kept.items():
            states[k].assigned, states[k].assigned_confidence, states[k].scores = (
                assigned, confidences, scores)
        mappings.clear()
        mappings.update(saved_mappings)

    depends = {"types": ("predicates", "actions"), "predicates": ("actions",),
               "actions": ("predicates",)}
    best = None
    for kind, dependents in depends.items():
        if kind == "types" and gold_untyped:
            continue
        candidates = states[kind].swap_candidates(MAX_SWAPS)
        if candidates and best is None:
            best = _agreement(gold_side, predicted_side, mappings, gold_untyped)
        for first, second in candidates:
            state = states[kind]
            if first not in state.assigned or second not in state.assigned:
                continue
            saved = snapshot()
            state.assigned = dict(state.assigned)
            state.assigned[first], state.assigned[second] = (state.assigned[second],
                                                             state.assigned[first])
            row = {p: i for i, p in enumerate(state.open_predicted)}
            col = {g: j for j, g in enumerate(state.open_gold)}
            state.assigned_confidence = dict(state.assigned_confidence)
            for name in (first, second):
                state.assigned_confidence[name] = float(min(1.0, state.scores[
                    row[name], col[state.assigned[name]]]))
            mappings[kind] = state.mapping()
            for dependent in dependents:
                step(dependent)
            value = _agreement(gold_side, predicted_side, mappings, gold_untyped)
            if value > best:
                best = value
            else:
                restore(saved)

    confidence = {}
    unmapped_gold, unmapped_predicted = {}, {}
    for kind, state in states.items():
        confidence[kind] = FrozenMap({**state.fixed_confidence, **state.assigned_confidence})
        mapped = mappings[kind]
        taken = set(mapped.values())
        unmapped_gold[kind] = tuple(g for g in state.gold_names if g not in taken)
        unmapped_predicted[kind] = tuple(p for p in state.predicted_names if p not in mapped)
    if gold_untyped:
        confidence["types"] = FrozenMap({name: 1.0 for name in predicted_side.types})
        unmapped_predicted["types"] = ()
    gold_names = FrozenMap({
        "types": frozenset(gold_side.types) | {"object"},
        "predicates": frozenset(gold_side.predicates),
        "actions": frozenset(gold_side.actions),
        "constants": frozenset(gold_side.constants),
    })
    return Alignment(
        types=FrozenMap(sorted(mappings["types"].items())),
        predicates=FrozenMap(sorted(mappings["predicates"].items())),
        actions=FrozenMap(sorted(mappings["actions"].items())),
        constants=FrozenMap(sorted(mappings["constants"].items())),
        confidence=FrozenMap(confidence),
        unmapped_gold=FrozenMap(unmapped_gold),
        unmapped_predicted=FrozenMap(unmapped_predicted),
        gold_untyped=gold_untyped,
        _gold_names=gold_names,
    )
