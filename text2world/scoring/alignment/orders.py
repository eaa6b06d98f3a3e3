"""Argument positions: the order of each mapped predicate's arguments and of each mapped
action's parameters that agrees best with the gold, decided jointly (a prediction may write
``(stack ?y ?x)`` and ``(on-top ?below ?above)`` at once)."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Callable, Iterable

from text2world.scoring.alignment.structure import Side, Translator

__all__ = [
    "MAX_PERMUTED_ARITY", "MAX_PERMUTED_PARAMETERS", "MAX_ORDERED_PARAMETERS", "joint_orders",
]

MAX_PERMUTED_ARITY = 4  # predicate argument orders tried: all of them up to this arity (24)
MAX_PERMUTED_PARAMETERS = 6  # action parameter orders tried exhaustively up to this (720)
MAX_ORDERED_PARAMETERS = 16  # past this many parameters an action's order stays as written
ORDER_ROUNDS = 2  # predicate orders, then action orders, this many times


def _typed_orders(types: list[str], theirs: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Orders that put every argument at a position of its type (gold position i takes
    predicted position order[i]); all orders when none does (types not mapped alike)."""
    allowed = [[k for k, t in enumerate(types) if t == wanted] for wanted in theirs]
    found: list[tuple] = []

    def extend(prefix: list[int]) -> None:
        if len(prefix) == len(allowed):
            found.append(tuple(prefix))
            return
        for k in allowed[len(prefix)]:
            if k not in prefix:
                extend(prefix + [k])

    extend([])
    return found or list(permutations(range(len(types))))


def _greedy_start(literals: list, gold_literals: list, types: list[str],
                  theirs: tuple[str, ...]) -> tuple:
    """An order to start exchanges from, for long parameter lists: pairs of a gold and a
    predicted position placed one at a time, each the pair that makes the most literals agree
    among those whose parameters are all placed (so that once ``?c1`` is placed,
    ``(on ?c1 ?s1)`` places ``?s1``, and symmetric positions are not paired at random).
    Cubic in the positions (``MAX_ORDERED_PARAMETERS`` bounds them)."""
    gold_counts = Counter(gold_literals)

    def placed_agreement(where: dict[int, int]) -> int:
        placed = set(where.values())
        moved: Counter = Counter()
        for role, predicate, args in literals:
            if all(a[0] != "p" or a[1] in where for a in args):
                moved[(role, predicate, tuple(("p", where[a[1]]) if a[0] == "p" else a
                                              for a in args))] += 1
        wanted = Counter({x: n for x, n in gold_counts.items()
                          if all(a[0] != "p" or a[1] in placed for a in x[2])})
        return sum((moved & wanted).values())

    where: dict[int, int] = {}  # predicted position -> gold position
    while len(where) < len(theirs):
        # the most telling pair first (a literal of one parameter, such as (analyzed ?c1),
        # places it before its symmetric siblings), ties in written order
        pairs = [(k, i) for i in range(len(theirs)) if i not in where.values()
                 for k in range(len(types)) if k not in where]
        k, i = max(pairs, key=lambda pair: (placed_agreement({**where, pair[0]: pair[1]})
                                            + (types[pair[0]] == theirs[pair[1]]),
                                            -pair[1], -pair[0]))
        where[k] = i
    order = [0] * len(theirs)
    for k, i in where.items():
        order[i] = k
    return tuple(order)


def _best(written: tuple, agreement: Callable[[tuple], float], limit: int,
          candidates: Iterable[tuple] | None = None, start: tuple | None = None) -> tuple:
    """The order with the highest agreement, kept only when strictly better than as written.
    Past ``limit`` positions, pairwise exchanges from ``start`` (or as written) while the
    agreement strictly increases."""
    best, best_value = written, agreement(written)
    if len(written) <= limit:
        for order in candidates if candidates is not None else permutations(written):
            value = agreement(order)
            if value > best_value:
                best, best_value = order, value
        return best
    if start is not None and agreement(start) > best_value:
        best, best_value = start, agreement(start)
    improved = True
    while improved:  # pairwise exchanges: bounded by the agreement strictly increasing
        improved = False
        for i in range(len(best)):
            for j in range(i + 1, len(best)):
                swapped = list(best)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                value = agreement(tuple(swapped))
                if value > best_value:
                    best, best_value, improved = tuple(swapped), value, True
    return best


def _argument_orders(gold: Side, predicted: Side, mappings: dict) -> dict[str, tuple]:
    """For each mapped predicate, the order of its arguments that agrees best with the gold:
    parameter types and the arguments of its atoms in mapped actions (under the current
    parameter orders)."""
    tr = Translator({**mappings, "arguments": {}}, "p")
    uses: dict = {"g": {}, "p": {}}
    for action, target in mappings["actions"].items():
        for role, predicate, args in predicted.literals.get(action, ()):
            role, _, args = tr.literal(action, role, predicate, args)
            uses["p"].setdefault(predicate, []).append((target, role, args))
    for target in mappings["actions"].values():
        for role, predicate, args in gold.literals.get(target, ()):
            uses["g"].setdefault(predicate, []).append((target, role, args))
    orders = {}
    for p, g in mappings["predicates"].items():
        mine, theirs = predicted.predicates.get(p), gold.predicates.get(g)
        if mine is None or theirs is None or len(mine) != len(theirs) or len(mine) < 2:
            continue
        gold_uses = Counter(uses["g"].get(g, ()))
        types = [tr("types", t) for t in mine]
        mine_uses = uses["p"].get(p, ())

        def agreement(order: tuple) -> int:
            typed = sum(types[k] == theirs[i] for i, k in enumerate(order))
            moved = Counter((a, r, tuple(args[k] for k in order)) for a, r, args in mine_uses)
            return typed + sum((moved & gold_uses).values())

        if len(mine) > MAX_PERMUTED_ARITY:
            continue
        best = _best(tuple(range(len(mine))), agreement, MAX_PERMUTED_ARITY,
                     _typed_orders(types, theirs))
        if best != tuple(range(len(mine))):
            orders[p] = best
    return orders


def _parameter_orders(gold: Side, predicted: Side, mappings: dict) -> dict[str, tuple]:
    """For each mapped action, the order of its parameters that agrees best with the gold's:
    parameter types and literals (under the current predicate argument orders)."""
    tr = Translator({**mappings, "orders": {}}, "p")
    orders = {}
    for p, g in mappings["actions"].items():
        mine, theirs = predicted.actions.get(p), gold.actions.get(g)
        if mine is None or theirs is None or len(mine) != len(theirs) or not (
                2 <= len(mine) <= MAX_ORDERED_PARAMETERS):
            continue
        gold_literals = Counter(gold.literals[g])
        literals = [tr.literal(p, *x) for x in predicted.literals[p]]
        types = [tr("types", t) for t in mine]

        def agreement(order: tuple) -> int:
            # gold position i is predicted position order[i]
            where = {k: i for i, k in enumerate(order)}
            typed = sum(types[k] == theirs[i] for i, k in enumerate(order))
            moved = Counter((r, q, tuple(("p", where[a[1]]) if a[0] == "p" else a
                                         for a in args)) for r, q, args in literals)
            return typed + sum((moved & gold_literals).values())

        long = len(mine) > MAX_PERMUTED_PARAMETERS
        best = _best(tuple(range(len(mine))), agreement, MAX_PERMUTED_PARAMETERS,
                     None if long else _typed_orders(types, theirs),
                     _greedy_start(literals, gold.literals[g], types, theirs) if long else None)
        if best != tuple(range(len(mine))):
            orders[p] = best
    return orders


def _total_agreement(gold: Side, predicted: Side, mappings: dict) -> int:
    """Parameter types and literals that agree over all mapped actions under the orders."""
    tr = Translator(mappings, "p")
    total = 0
    for p, g in mappings["actions"].items():
        if p not in predicted.actions or g not in gold.actions:
            continue
        total += sum(a == b for a, b in zip(tr.signature("orders", p, predicted.actions[p]),
                                            gold.actions[g]))
        moved = Counter(tr.literal(p, *x) for x in predicted.literals[p])
        total += sum((moved & Counter(gold.literals[g])).values())
    return total


def joint_orders(gold: Side, predicted: Side, mappings: dict) -> tuple[dict, dict]:
    """Predicate argument orders and action parameter orders, each decided given the other,
    ``ORDER_ROUNDS`` times, once starting from the parameters and once from the arguments
    (a domain with a chain such as ``(succ ?a ?b) (succ ?b ?c)`` admits a consistent but
    wrong pair of choices from either start); the start that agrees more overall wins, the
    parameters' on a tie. Returns (argument orders, parameter orders)."""
    found = []
    for parameters_first in (True, False):
        arguments: dict = {}
        parameters: dict = {}
        for _ in range(ORDER_ROUNDS):
            if parameters_first:
                parameters = _parameter_orders(gold, predicted,
                                               {**mappings, "arguments": arguments})
            arguments = _argument_orders(gold, predicted, {**mappings, "orders": parameters})
            if not parameters_first:
                parameters = _parameter_orders(gold, predicted,
                                               {**mappings, "arguments": arguments})
        value = _total_agreement(gold, predicted,
                                 {**mappings, "arguments": arguments, "orders": parameters})
        found.append((value, parameters_first, arguments, parameters))
        if not arguments and not parameters:
            break  # nothing to reorder: the other start finds the same
    _, _, arguments, parameters = max(found, key=lambda x: (x[0], x[1]))
    return arguments, parameters
