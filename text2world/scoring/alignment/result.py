"""The result of aligning two vocabularies: ``Alignment`` and the prediction renamed by it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, NoReturn

from text2world.pddl.model import (
    Action,
    AddEffect,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    Effect,
    ForallEffect,
    Formula,
    Predicate,
    Quantified,
    TypedName,
    map_formula,
)

__all__ = ["KINDS", "UNMAPPED_PREFIX", "FrozenMap", "Alignment"]

KINDS: tuple[str, ...] = ("types", "predicates", "actions", "constants")
UNMAPPED_PREFIX = "unmapped-"


class FrozenMap(Mapping):
    """A read-only, hashable, picklable mapping (scores travel between processes)."""

    __slots__ = ("_data",)
    _data: dict

    def __init__(self, data: Mapping | Iterable = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("FrozenMap is read-only")

    def __reduce__(self) -> tuple[type[FrozenMap], tuple[dict]]:
        return (FrozenMap, (self._data,))


@dataclass(frozen=True)
class Alignment:
    """How a predicted domain's names map onto a gold domain's.

    ``types``, ``predicates``, ``actions``, ``constants``: predicted name -> gold name (one to
    one, except that with ``gold_untyped`` every predicted type maps to ``object``).
    ``confidence[kind][predicted name]`` is in [0, 1] for each mapped pair.
    ``unmapped_gold[kind]`` / ``unmapped_predicted[kind]``: names left without a partner, sorted.
    ``notes``: sentences for reports (a gold without types, a kind with too many names left to
    match by structure).
    ``argument_orders[predicate]``: for a mapped predicate whose arguments the prediction wrote
    in another order (``(at ?place ?thing)`` for the gold's ``(at ?thing ?place)``), the order
    that puts them back: gold argument ``i`` is predicted argument ``order[i]``. ``translate``
    reorders the predicate's parameters and every atom of it.
    ``parameter_orders[action]``: the same for a mapped action's parameters (``(stack ?y ?x)``
    for the gold's ``(stack ?x ?y)``); ``translate`` reorders its parameter list (variables
    keep their names, so its literals need no change).
    ``type_predicates``: a predicted type standing for a gold unary static predicate
    (``?b - ball`` for the untyped gold's ``(ball ?b)``) and a predicted unary static
    predicate standing for a gold type; ``translate(..., typing=True)`` keeps such types
    (``typing_types``) and semantic scoring derives objects' types and atoms from them
    (``typing_types``, ``typing_predicates``).
    """

    types: FrozenMap
    predicates: FrozenMap
    actions: FrozenMap
    constants: FrozenMap
    confidence: FrozenMap  # kind -> FrozenMap(predicted name -> confidence)
    unmapped_gold: FrozenMap  # kind -> tuple of gold names
    unmapped_predicted: FrozenMap  # kind -> tuple of predicted names
    gold_untyped: bool = False
    notes: tuple[str, ...] = ()  # what a reader of the mapping should know, in words
    # predicted predicate -> order: gold argument i is the predicted argument order[i]; only
    # for predicates whose arguments the prediction wrote in another order
    argument_orders: FrozenMap = FrozenMap()
    # predicted action -> order: gold parameter i is the predicted parameter order[i]; only
    # for actions whose parameters the prediction wrote in another order
    parameter_orders: FrozenMap = FrozenMap()
    # typing written as predicates: "types": predicted type -> gold unary static predicate,
    # "predicates": predicted unary static predicate -> gold type, "confidence": per name
    type_predicates: FrozenMap = FrozenMap()
    _gold_names: FrozenMap = FrozenMap()  # kind -> frozenset of gold names (for prefixing)

    def mapping(self, kind: str) -> FrozenMap:
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
        return getattr(self, kind)

    @property
    def is_identity(self) -> bool:
        """Every predicted name maps to itself and nothing predicted is unmapped."""
        return (not self.argument_orders and not self.parameter_orders
                and not self._typing("types") and not self._typing("predicates")
                and all(not self.unmapped_predicted[k] for k in KINDS)
                and all(p == g for k in KINDS for p, g in self.mapping(k).items()))

    def _typing(self, key: str) -> Mapping:
        return self.type_predicates.get(key, FrozenMap())

    def typing_types(self) -> dict[str, str]:
        """Translated type name -> gold predicate, for predicted types standing for a gold
        unary static predicate (an object has the type when the gold's problem holds the
        predicate of it)."""
        return {self._typing_type_name(t): p for t, p in self._typing("types").items()}

    def typing_predicates(self) -> dict[str, str]:
        """Translated predicate name -> gold type, for predicted unary static predicates
        standing for a gold type (true of every object of that type or a subtype)."""
        return {self.rename("predicates", q): t for q, t in self._typing("predicates").items()}

    def _typing_type_name(self, predicate: str) -> str:
        name = "type-" + predicate
        while name in self._gold_names.get("types", frozenset()):
            name = "type-" + name
        return name

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

    def translate(self, predicted: Domain, typing: bool = False) -> Domain:
        """The predicted domain renamed into the gold's vocabulary.

        With ``typing``, predicted types standing for gold unary predicates keep a name of
        their own (``typing_types``) instead of mapping to ``object`` or being prefixed.

        Mapped names take their gold name, unmapped ones are prefixed (see ``rename``); parameter,
        variable and constant types are translated. With ``gold_untyped`` the translated domain
        declares no types (its requirements are kept as written). Variables keep their names.
        """
        typed_as = self._typing("types") if typing else {}
        if self.is_identity:
            return predicted
        constant_names = {x.name for x in predicted.constants}

        def t(name: str) -> str:
            if name in typed_as:
                return self._typing_type_name(typed_as[name])
            return self.rename("types", name)

        def c(name: str) -> str:  # an argument: a variable or a constant
            return self.rename("constants", name) if name in constant_names else name

        def typed(items: tuple[TypedName, ...]) -> tuple[TypedName, ...]:
            return tuple(TypedName(x.name, t(x.type)) for x in items)

        def translated(f: Formula) -> Formula:
            if isinstance(f, Atom):
                return atom(f)
            if isinstance(f, Quantified):
                return Quantified(f.quantifier, typed(f.variables), f.body)
            return f

        def formula(f: Formula) -> Formula:
            return map_formula(f, translated)

        def atom(a: Atom) -> Atom:
            args = tuple(c(x) for x in a.args)
            order = self.argument_orders.get(a.predicate)
            if order is not None and len(order) == len(args):
                args = tuple(args[i] for i in order)
            return Atom(self.rename("predicates", a.predicate), args)

        def declared(p: Predicate) -> Predicate:
            parameters = typed(p.parameters)
            order = self.argument_orders.get(p.name)
            if order is not None and len(order) == len(parameters):
                # keep the declaration's variable names in place: only types move
                parameters = tuple(TypedName(parameters[k].name, parameters[i].type)
                                   for k, i in enumerate(order))
            return Predicate(self.rename("predicates", p.name), parameters)

        def effect(e: Effect) -> Effect:
            if isinstance(e, AddEffect):
                return AddEffect(atom(e.atom))
            if isinstance(e, DeleteEffect):
                return DeleteEffect(atom(e.atom))
            if isinstance(e, ConditionalEffect):
                return ConditionalEffect(formula(e.condition), effect(e.effect))
            if isinstance(e, ForallEffect):
                return ForallEffect(typed(e.variables), tuple(effect(x) for x in e.effects))
            return e  # FunctionEffect: functions are not aligned

        def parameters(action: Action) -> tuple[TypedName, ...]:
            result = typed(action.parameters)
            order = self.parameter_orders.get(action.name)
            if order is not None and len(order) == len(result):
                result = tuple(result[i] for i in order)
            return result

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
            predicates=tuple(declared(p) for p in predicted.predicates),
            functions=predicted.functions,
            actions=tuple(Action(self.rename("actions", a.name), parameters(a),
                                 formula(a.precondition), tuple(effect(e) for e in a.effects))
                          for a in predicted.actions),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: per kind the mapped pairs (predicted, gold, confidence) and the unmapped."""
        result: dict = {"gold_untyped": self.gold_untyped, "notes": list(self.notes),
                        "argument_orders": {p: list(o) for p, o in sorted(
                            self.argument_orders.items())},
                        "parameter_orders": {a: list(o) for a, o in sorted(
                            self.parameter_orders.items())},
                        "type_predicates": {
                            key: [{"predicted": p, "gold": g, "confidence": round(
                                self._typing("confidence").get(p, 0.0), 4)}
                                  for p, g in self._typing(key).items()]
                            for key in ("types", "predicates")}}
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
