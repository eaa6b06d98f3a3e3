"""Types written as unary predicates, and unary predicates written as types.

An untyped gold says ``(ball ?b)`` where a model types ``?b - ball``, and a typed gold says
``?b - ball`` where a model tests ``(ball ?b)``. Both describe the same world. A unary
*static* predicate (never added or deleted) of one side is matched with a type of the other
by where they constrain the same parameters of mapped actions: the gold's parameter ``i``
tested by ``(P ?i)`` in the precondition against the predicted parameter at that position
typed ``T`` (or a subtype), and the reverse; as elsewhere, an optimal assignment over a score
mixing a fuzzy name similarity with that overlap (Jaccard), kept at ``THRESHOLD`` or above.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from text2world.scoring.alignment.names import fuzzy
from text2world.scoring.alignment.structure import Side, Translator

__all__ = ["THRESHOLD", "static_unary", "type_predicates", "typed_side"]

THRESHOLD = 0.5
_NAME_WEIGHT = 0.5


def static_unary(side: Side) -> set[str]:
    """Unary predicates no action adds or deletes."""
    changed = {predicate for literals in side.literals.values()
               for role, predicate, _ in literals
               if (role if isinstance(role, str) else role[0]).lstrip("n") in ("add", "del")}
    return {name for name, types in side.predicates.items()
            if len(types) == 1 and name not in changed}


def _ancestors(types: dict[str, str], name: str) -> list[str]:
    """The type and its declared ancestors (``object`` left out)."""
    chain: list[str] = []
    while name in types and name not in chain:
        chain.append(name)
        name = types[name]
    return chain


def _tested(side: Side, action: str, candidates: set[str]) -> dict[int, set[str]]:
    """Parameter position -> the candidate predicates tested on it at the precondition's top."""
    found: dict[int, set[str]] = {}
    for role, predicate, args in side.literals.get(action, ()):
        if role == "pre" and predicate in candidates and len(args) == 1 and args[0][0] == "p":
            found.setdefault(args[0][1], set()).add(predicate)
    return found


def _assign(pairs: Counter, left_count: Counter, right_count: Counter
            ) -> tuple[dict[str, str], dict[str, float]]:
    """Optimal one-to-one assignment of left to right names by overlap and name similarity."""
    left = sorted(left_count)
    right = sorted(right_count)
    if not left or not right:
        return {}, {}
    overlap = np.zeros((len(left), len(right)))
    for i, a in enumerate(left):
        for j, b in enumerate(right):
            common = pairs.get((a, b), 0)
            union = left_count[a] + right_count[b] - common
            overlap[i, j] = common / union if union else 0.0
    similar = fuzzy(left, right)
    names = _NAME_WEIGHT * similar
    # evidence of place is needed, except between names equal after normalisation
    scores = np.where((overlap > 0) | (similar >= 1.0), names + (1 - names) * overlap, 0.0)
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(np.where(scores >= THRESHOLD, scores, 0.0), maximize=True)
    mapping, confidence = {}, {}
    for row, col in zip(rows, cols):
        if scores[row, col] >= THRESHOLD:
            mapping[left[row]] = right[col]
            confidence[left[row]] = float(min(1.0, scores[row, col]))
    return mapping, confidence


def type_predicates(gold: Side, predicted: Side, mappings: dict
                    ) -> tuple[dict[str, str], dict[str, str], dict[str, float]]:
    """(predicted type -> gold unary static predicate, predicted unary static predicate ->
    gold type, confidence per predicted name). Only names left unmapped are considered:
    predicted types that map to no gold type (all of them when the gold is untyped), gold
    predicates no predicted predicate maps to, predicted predicates mapped to nothing, gold
    types."""
    tr = Translator(mappings, "p")
    open_types = {t for t in predicted.types if mappings["types"].get(t, "object") == "object"}
    open_gold_predicates = static_unary(gold) - set(mappings["predicates"].values())
    open_predicates = static_unary(predicted) - set(mappings["predicates"])
    gold_types = set(gold.types)  # a gold type may also be tested as a predicate

    types_to_predicates: Counter = Counter()
    type_count: Counter = Counter()
    predicate_count: Counter = Counter()
    predicates_to_types: Counter = Counter()
    tested_count: Counter = Counter()
    gold_type_count: Counter = Counter()
    for action, target in mappings["actions"].items():
        mine, theirs = predicted.actions.get(action), gold.actions.get(target)
        if mine is None or theirs is None or len(mine) != len(theirs):
            continue
        gold_tested = _tested(gold, target, open_gold_predicates)
        mine_tested = _tested(predicted, action, open_predicates)
        for k in range(len(mine)):
            i = tr.position(action, k)  # the gold's position of predicted parameter k
            written = [t for t in _ancestors(predicted.types, mine[k]) if t in open_types]
            for t in written:
                type_count[t] += 1
                for p in gold_tested.get(i, ()):
                    types_to_predicates[(t, p)] += 1
            for p in gold_tested.get(i, ()):
                predicate_count[p] += 1
            gold_written = [t for t in _ancestors(gold.types, theirs[i]) if t in gold_types]
            for t in gold_written:
                gold_type_count[t] += 1
            for q in mine_tested.get(k, ()):
                tested_count[q] += 1
                for t in gold_written:
                    predicates_to_types[(q, t)] += 1
        # quantified variables: the gold's typed ``(forall (?p - plane) ...)`` against the
        # prediction's untyped one tested by ``(plane ?p)`` in the same action
        gold_quantified = {t for _, _, args in gold.literals.get(target, ())
                           for a in args if a[0] == "q" for t in _ancestors(gold.types, a[1])}
        mine_quantified = {q for _, q, args in predicted.literals.get(action, ())
                           if q in open_predicates and len(args) == 1 and args[0][0] == "q"}
        for t in gold_quantified:
            gold_type_count[t] += 1
        for q in mine_quantified:
            tested_count[q] += 1
            for t in gold_quantified:
                predicates_to_types[(q, t)] += 1
    as_predicates, first = _assign(types_to_predicates, type_count, predicate_count)
    as_types, second = _assign(predicates_to_types, tested_count, gold_type_count)
    return as_predicates, as_types, {**first, **second}


def typed_side(side: Side) -> tuple[Side, set[str]] | None:
    """The side with its unary static predicates read as types where they type a parameter:
    a parameter tested by ``(P ?x)`` at the top of a precondition gets type ``P`` and the test
    goes (the first such predicate when there are several). For matching an untyped domain
    with a typed one; None when no predicate types a parameter. Returns the side and the
    predicates read as types."""
    candidates = static_unary(side)
    actions = dict(side.actions)
    literals = dict(side.literals)
    used: set[str] = set()
    for action, types in side.actions.items():
        tested = _tested(side, action, candidates)
        if not tested:
            continue
        new_types = list(types)
        consumed = set()
        for position, predicates in tested.items():
            if position < len(new_types) and new_types[position] == "object":
                chosen = sorted(predicates)[0]
                new_types[position] = chosen
                consumed.add(("pre", chosen, (("p", position),)))
                used.add(chosen)
        actions[action] = tuple(new_types)
        literals[action] = [x for x in side.literals[action] if x not in consumed]
    if not used:
        return None
    # a predicate also used elsewhere (in a quantified condition, an effect's condition) stays
    # a predicate as well
    still_used = {predicate for found in literals.values() for _, predicate, _ in found}
    type_table: dict[str, str] = {**side.types, **{name: "object" for name in used}}
    from text2world.scoring.alignment.structure import type_depths

    # an untyped predicate's argument takes the type of the parameters it is always given
    seen: dict[tuple[str, int], set[str]] = {}
    for action, found in literals.items():
        for _, predicate, args in found:
            for place, a in enumerate(args):
                kind = actions[action][a[1]] if a[0] == "p" else "object"
                seen.setdefault((predicate, place), set()).add(kind)
    signatures: dict[str, tuple[str, ...]] = {}
    for name, parameter_types in side.predicates.items():
        if name in used and name not in still_used:
            continue
        signatures[name] = tuple(
            next(iter(seen[(name, place)])) if t == "object" and len(
                seen.get((name, place), ())) == 1 else t
            for place, t in enumerate(parameter_types))

    return Side(types=type_table,
                predicates=signatures,
                actions=actions, constants=side.constants, literals=literals,
                depths=type_depths(type_table)), used
