"""The prediction in the gold's terms, for semantic scoring: the prediction aligned and
translated into the gold's vocabulary and orders (``text2world.scoring.alignment``), and each gold
problem projected onto it (types it declares, atoms of predicates it has, typing written the
other way)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, TypeVar

from text2world.pddl.model import Action, Domain, Predicate
from text2world.simulation import PlanningProblem

if TYPE_CHECKING:
    from text2world.scoring.alignment import Alignment

__all__ = ["align_prediction", "aligned_prediction", "project_problem", "without_unused_constants"]

_TOKEN = re.compile(r"[^\s()]+")
Declared = TypeVar("Declared", Predicate, Action)  # a declaration that has a name


def align_prediction(gold: Domain, predicted: Domain) -> tuple[Domain, dict | None, str]:
    """The prediction renamed into the gold's vocabulary, a summary of the mapping, and a note."""
    translated, alignment = aligned_prediction(gold, predicted)
    return translated, alignment.to_dict(), ""


def aligned_prediction(gold: Domain, predicted: Domain) -> tuple[Domain, "Alignment"]:
    """The prediction in the gold's vocabulary and argument orders (typing written as
    predicates kept, see ``Alignment.translate``), its declarations in the gold's order (so
    that a prediction equal to the gold up to a rewrite prints as the gold and finds its
    plans in the planner cache), and the ``Alignment``."""
    from dataclasses import replace

    from text2world.scoring.alignment import align
    alignment = align(gold, predicted)
    translated = alignment.translate(predicted, typing=True)

    def in_gold_order(items: Iterable[Declared], reference: Iterable[Declared]) -> tuple[Declared, ...]:
        rank = {x.name: i for i, x in enumerate(reference)}
        return tuple(sorted(items, key=lambda x: rank.get(x.name, len(rank))))

    translated = replace(translated,
                         predicates=in_gold_order(translated.predicates, gold.predicates),
                         actions=in_gold_order(translated.actions, gold.actions))
    return translated, alignment


def project_problem(gold: Domain, predicted: Domain, problem: PlanningProblem,
                    typing_types: dict[str, str] | None = None,
                    typing_predicates: dict[str, str] | None = None
                    ) -> tuple[PlanningProblem, int, list[str]]:
    """The gold's problem for the prediction: object types mapped to the nearest ancestor the
    prediction declares, init atoms of predicates it lacks dropped, its constants added.

    Typing written the other way (``Alignment.typing_types`` / ``typing_predicates``): an
    object has a predicted type standing for a gold predicate when the init holds that
    predicate of it (the deepest such type under its nearest one), and a predicted predicate
    standing for a gold type holds of every object of that type or a subtype.

    Returns the problem, the number of dropped init atoms and notes.
    """
    from text2world.pddl.model import TypedName

    typing_types = typing_types or {}
    typing_predicates = typing_predicates or {}
    gold_parent = {t.name: t.type for t in gold.types}
    parent = {t.name: t.type for t in predicted.types}
    known_types = set(parent) | {"object"}

    def nearest(kind: str) -> str:
        seen = set()
        while kind not in known_types and kind in gold_parent and kind not in seen:
            seen.add(kind)
            kind = gold_parent[kind]
        return kind if kind in known_types else "object"

    def chain(kind: str, parents: dict[str, str]) -> list[str]:
        found: list[str] = []
        while kind in parents and kind not in found:
            found.append(kind)
            kind = parents[kind]
        return found + ["object"]

    held: dict[str, set] = {}
    if typing_types:
        wanted = set(typing_types.values())
        for atom in problem.init:
            if len(atom) == 2 and atom[0] in wanted:
                held.setdefault(atom[1], set()).add(atom[0])

    def object_type(name: str, kind: str) -> str:
        base = nearest(kind)
        if name in held:
            fitting = [t for t, p in typing_types.items()
                       if p in held[name] and base in chain(t, parent)]
            if fitting:
                return max(fitting, key=lambda t: (len(chain(t, parent)), t))
        return base

    constants = {c.name: c for c in predicted.constants}
    objects = [constants.get(o.name, TypedName(o.name, object_type(o.name, o.type)))
               for o in problem.objects]
    names = {o.name for o in objects}
    objects += [c for c in predicted.constants if c.name not in names]
    arity = {p.name: len(p.parameters) for p in predicted.predicates}
    covered = set(typing_types.values())  # gold predicates read as types: not lost
    init = frozenset(a for a in problem.init if arity.get(a[0], -1) == len(a) - 1)
    dropped = sum(1 for a in problem.init if a not in init and a[0] not in covered)
    if typing_predicates:
        init |= {(q, o.name) for o in problem.objects for q, t in typing_predicates.items()
                 if t in chain(o.type, gold_parent) and arity.get(q) == 1}
    functions = {f.name for f in predicted.functions}
    values = tuple(v for v in problem.function_values if v[0][0] in functions)
    if "total-cost" in functions and not any(v[0] == ("total-cost",) for v in values):
        values += ((("total-cost",), 0.0),)
    notes = []
    missing = sorted({a[0] for a in problem.init} - set(arity) - covered)
    if missing:
        notes.append(f"problem {problem.name}: the prediction has no predicate "
                     + ", ".join(missing) + f" ({dropped} initial atoms dropped)")
    metric = problem.metric if "total-cost" in functions else None
    return (PlanningProblem(problem.name, predicted.name, tuple(objects), init, problem.goal,
                            values, metric), dropped, notes)


def without_unused_constants(domain: Domain) -> tuple[Domain, tuple[str, ...]]:
    """The domain without the constants no action names, and their names: such a constant is
    no object of the gold's problems and would only widen the parameters' ranges (in the
    simulator and in the planner alike), so it is ignored, like an unused predicate."""
    from dataclasses import replace

    from text2world.scoring.alignment.result import UNMAPPED_PREFIX

    used = {token for action in domain.actions
            for token in _TOKEN.findall(action.to_pddl().lower())}
    unused = tuple(c.name for c in domain.constants if c.name not in used)
    if not unused:
        return domain, ()
    kept = tuple(c for c in domain.constants if c.name in used)
    # in the prediction's own words: an unmatched name carries a prefix after translation
    return replace(domain, constants=kept), tuple(n.removeprefix(UNMAPPED_PREFIX)
                                                  for n in unused)
