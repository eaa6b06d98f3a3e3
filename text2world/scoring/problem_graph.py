"""Problems as graphs of typed objects and labelled facts, and their isomorphisms.

A ``FactGraph`` holds a problem's objects with their types and its facts, each a tuple
``(label, arg1, ...)``: ``("init", "on", "a", "b")`` for an initial fact, ``("goal", "on", "a",
"b")`` or ``("goal-not", ...)`` for a goal literal. Two problems mean the same initial state when
a bijection of their objects, type for type (domain constants fixed), maps one's facts exactly
onto the other's: a graph isomorphism over objects and facts, static facts included.

``isomorphisms`` finds them: colour refinement (1-dimensional Weisfeiler-Leman over both graphs
at once, so colours compare across them) splits the objects into classes an isomorphism must
respect, then a backtracking search (VF2-like: each object's facts are checked as soon as their
objects are all mapped) yields the bijections. Facts whose label is in ``exact`` must map onto
each other both ways; the others only into the other graph's (a sub-isomorphism for them: a goal
that states more facts than the other). The search is bounded by its work
(``IsomorphismBound`` past it), never by a clock.

``best_matching`` is the matching fact-level F1 is reported after when no isomorphism exists: a
greedy assignment, type for type, that keeps the most facts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

from text2world.errors import Text2WorldError

Fact = tuple  # (label, predicate, arg1, ...)
Renaming = dict[str, str]  # an object of one problem -> the object of the other it stands for
MAX_MATCH_WORK = 200_000  # candidate assignments tried by one isomorphism search


class IsomorphismBound(Text2WorldError, RuntimeError):
    """The isomorphism search went past its work bound without an answer."""


@dataclass(frozen=True)
class FactGraph:
    """Objects (name -> type), the objects that keep their names (the domain's constants) and
    the labelled facts; a fact's arguments from position 2 on are objects."""

    objects: dict
    fixed: frozenset
    facts: frozenset

    def restricted(self, labels: Iterable[str]) -> "FactGraph":
        keep = set(labels)
        return FactGraph(self.objects, self.fixed,
                         frozenset(f for f in self.facts if f[0] in keep))

    def with_facts(self, facts: Iterable[Fact]) -> "FactGraph":
        return FactGraph(self.objects, self.fixed, self.facts | frozenset(facts))


def rename_fact(fact: Fact, mapping: Mapping[str, str]) -> Fact:
    return (fact[0], fact[1], *(mapping.get(a, a) for a in fact[2:]))


def _colours(graphs: tuple[FactGraph, FactGraph], facts: tuple[frozenset, frozenset]
             ) -> tuple[dict, dict]:
    """Stable colours of both graphs' objects (refined together: equal colours mean equal
    roles), from their types, fixed names and ``facts``."""
    colour: list[dict] = []
    for graph in graphs:
        colour.append({o: (t, o if o in graph.fixed else "") for o, t in graph.objects.items()})
    by_object: list[dict] = []
    for graph_facts in facts:
        index: dict = defaultdict(list)
        for fact in graph_facts:
            for position, arg in enumerate(fact[2:]):
                index[arg].append((fact, position))
        by_object.append(index)
    classes = -1
    while True:
        palette: dict = {}
        new: list[dict] = []
        for side in (0, 1):
            old = colour[side]
            signatures = {}
            for obj in old:
                around = sorted(
                    (fact[0], fact[1], position, tuple(old.get(a, a) for a in fact[2:]))
                    for fact, position in by_object[side].get(obj, ()))
                signatures[obj] = (old[obj], tuple(around))
            new.append({obj: palette.setdefault(sig, len(palette))
                        for obj, sig in signatures.items()})
        colour = new
        if len(palette) == classes:
            return colour[0], colour[1]
        classes = len(palette)


def isomorphisms(source: FactGraph, target: FactGraph, *, exact: Iterable[str] = ("init",),
                 max_work: int = MAX_MATCH_WORK) -> Iterator[Renaming]:
    """Every bijection ``source`` object -> ``target`` object, type for type, fixed objects to
    themselves, mapping the facts labelled ``exact`` exactly onto the target's and the other
    facts into the target's. Raises ``IsomorphismBound`` past ``max_work`` assignments."""
    labels = set(exact)
    if len(source.objects) != len(target.objects):
        return
    exact_s = frozenset(f for f in source.facts if f[0] in labels)
    exact_t = frozenset(f for f in target.facts if f[0] in labels)
    if len(exact_s) != len(exact_t):
        return
    if Counter(f[:2] for f in exact_s) != Counter(f[:2] for f in exact_t):
        return
    colour_s, colour_t = _colours((source, target), (exact_s, exact_t))
    if Counter(colour_s.values()) != Counter(colour_t.values()):
        return
    by_colour: dict = defaultdict(list)
    for obj, c in sorted(colour_t.items()):
        by_colour[c].append(obj)
    facts_of: dict = defaultdict(list)
    for fact in source.facts:
        for arg in set(fact[2:]):
            facts_of[arg].append(fact)
    # objects of the rarest colours first, then those with most facts: pruning comes early
    order = sorted(source.objects, key=lambda o: (len(by_colour[colour_s[o]]),
                                                  -len(facts_of[o]), o))
    goal_targets = target.facts
    mapping: dict = {}
    used: set = set()
    work = [0]

    def consistent(obj: str) -> bool:
        for fact in facts_of[obj]:
            if all(a in mapping for a in fact[2:]):
                if rename_fact(fact, mapping) not in goal_targets:
                    return False
        return True

    def extend(depth: int) -> Iterator[Renaming]:
        if depth == len(order):
            yield dict(mapping)
            return
        obj = order[depth]
        for candidate in by_colour[colour_s[obj]]:
            if candidate in used:
                continue
            work[0] += 1
            if work[0] > max_work:
                raise IsomorphismBound(f"the isomorphism search passed {max_work:,} steps")
            mapping[obj] = candidate
            used.add(candidate)
            if consistent(obj):
                yield from extend(depth + 1)
            del mapping[obj]
            used.discard(candidate)

    yield from extend(0)


def first_isomorphism(source: FactGraph, target: FactGraph, *, exact: Iterable[str] = ("init",),
                      max_work: int = MAX_MATCH_WORK) -> Renaming | None:
    """The first of ``isomorphisms``, or None when there is none."""
    return next(isomorphisms(source, target, exact=exact, max_work=max_work), None)


def best_matching(source: FactGraph, target: FactGraph) -> Renaming:
    """A matching of ``source``'s objects into ``target``'s, type for type (fixed objects to
    themselves), greedily keeping the most facts: objects with the most facts are placed first,
    each on the free target object that maps the most of its facts already placed. Objects left
    without a partner are left out."""
    targets_of_type: dict = defaultdict(list)
    for obj, kind in sorted(target.objects.items()):
        if obj not in target.fixed:
            targets_of_type[kind].append(obj)
    facts_of: dict = defaultdict(list)
    for fact in source.facts:
        for arg in set(fact[2:]):
            facts_of[arg].append(fact)
    target_facts = target.facts
    mapping = {o: o for o in source.fixed if o in target.objects}
    used = set(mapping.values())
    for obj in sorted(source.objects, key=lambda o: (-len(facts_of[o]), o)):
        if obj in mapping:
            continue
        best, best_score = None, -1
        for candidate in targets_of_type.get(source.objects[obj], ()):
            if candidate in used:
                continue
            mapping[obj] = candidate
            score = sum(1 for fact in facts_of[obj]
                        if all(a in mapping for a in fact[2:])
                        and rename_fact(fact, mapping) in target_facts)
            del mapping[obj]
            if score > best_score:
                best, best_score = candidate, score
        if best is not None:
            mapping[obj] = best
            used.add(best)
    return mapping


__all__ = ["Fact", "FactGraph", "IsomorphismBound", "MAX_MATCH_WORK", "best_matching",
           "first_isomorphism", "isomorphisms", "rename_fact"]
