"""Matching names: name rules first, then an optimal assignment over structure, rounds in
which predicates and actions inform each other, exchanges of near-symmetric partners, and the
order of predicate arguments."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import numpy as np

from text2world.pddl.model import Domain
from text2world.scoring.alignment.names import fuzzy, name_keys
from text2world.scoring.alignment.orders import MAX_PERMUTED_ARITY, joint_orders
from text2world.scoring.alignment.result import Alignment, FrozenMap
from text2world.scoring.alignment.structure import Side, Translator, side_of, structure_scores, wl_colours
from text2world.scoring.alignment.typing_predicates import type_predicates, typed_side

__all__ = [
    "THRESHOLD", "SEED_THRESHOLD", "EXACT_CONFIDENCE", "NORMALISED_CONFIDENCE", "ROUNDS",
    "MAX_PAIRS", "SWAP_GAP", "MAX_SWAPS", "align",
]

THRESHOLD = 0.5  # an assigned pair scoring below this stays unmapped
SEED_THRESHOLD = 0.1  # first-round pairs kept as context for later rounds (not as a result)
EXACT_CONFIDENCE = 1.0
NORMALISED_CONFIDENCE = 0.95
ROUNDS = 2  # predicate/action rounds after the first, anonymous one
# Structure is matched only while (names left on one side) x (on the other) stays under this:
# the score matrices, the fuzzy name loop and the assignment grow with it (500 x 500 names
# take about a second). Real domains have tens of names; the parser's size limit allows
# thousands.
MAX_PAIRS = 250_000
SWAP_GAP = 0.2  # exchanges of partners tried when they cost at most this much score
MAX_SWAPS = 20  # per kind
_NAME_WEIGHT = 0.5  # of a fuzzy name similarity; the rest of the score is structure


def _match_names(gold_names: list[str],
                 predicted_names: list[str]) -> tuple[dict[str, str], dict[str, float]]:
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
        self.too_many = len(self.open_predicted) * len(self.open_gold) > MAX_PAIRS
        # A fuzzy name similarity only among the names no rule matched.
        self.names = (np.zeros((0, 0)) if self.too_many
                      else fuzzy(self.open_predicted, self.open_gold))
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
        return bool(self.open_gold and self.open_predicted) and not self.too_many

    def mapping(self) -> dict[str, str]:
        return {**self.fixed, **self.assigned}

    def assign(self, structure: np.ndarray, threshold: float = THRESHOLD) -> None:
        name_part = _NAME_WEIGHT * self.names
        scores = name_part + (1 - name_part) * structure
        # Pairs under the threshold are worth nothing, so the assignment does not trade a good
        # pair for two weak ones.
        worth = np.where(scores >= threshold, scores, 0.0)
        from scipy.optimize import linear_sum_assignment  # 0.3 s to import: only when needed

        rows, cols = linear_sum_assignment(worth, maximize=True)
        self.scores = scores
        if self.first_scores is None:
            self.first_scores = scores
        self.assigned, self.assigned_confidence = {}, {}
        for row, col in zip(rows, cols):
            if scores[row, col] >= threshold:
                p, g = self.open_predicted[row], self.open_gold[col]
                self.assigned[p] = g
                self.assigned_confidence[p] = float(min(1.0, scores[row, col]))


def _agreement(gold: Side, predicted: Side, mappings: dict, gold_untyped: bool,
               gold_literals: dict) -> int:
    """How many things mapped pairs agree on: what canonical scoring counts (parents of types,
    arities and parameter types of predicates and actions, action literals)."""
    tr = Translator(mappings, "p")
    total = 0
    if not gold_untyped:
        total += sum(tr("types", predicted.types[p]) == gold.types[g]
                     for p, g in mappings["types"].items()
                     if p in predicted.types and g in gold.types)
    for kind, table, mine, theirs in (
            ("predicates", "arguments", predicted.predicates, gold.predicates),
            ("actions", "orders", predicted.actions, gold.actions)):
        for p, g in mappings[kind].items():
            total += (len(mine[p]) == len(theirs[g])) + sum(
                a == b for a, b in zip(tr.signature(table, p, mine[p]), theirs[g]))
    for p, g in mappings["actions"].items():
        if g not in gold_literals:
            gold_literals[g] = Counter(gold.literals[g])
        translated = Counter(tr.literal(p, r, q, a) for r, q, a in predicted.literals[p])
        total += sum((translated & gold_literals[g]).values())
    return total


def _used(side: Side) -> set[str]:
    return {predicate for literals in side.literals.values() for _, predicate, _ in literals}


def _ignore_unused(state: _KindState, gold: Side, predicted: Side) -> None:
    """Predicted predicates no action uses change no behaviour: they take no gold partner by
    structure (where they could only displace a used one), unless the gold has unused
    predicates left too (then like pairs with like)."""
    used_gold = _used(gold)
    if any(g not in used_gold for g in state.open_gold):
        return
    used = _used(predicted)
    state.open_predicted = [p for p in state.open_predicted if p in used]
    state.names = (np.zeros((0, 0)) if state.too_many
                   else fuzzy(state.open_predicted, state.open_gold))
    state.scores = np.zeros((len(state.open_predicted), len(state.open_gold)))


def _match_permuted(state: _KindState, gold: Side, predicted: Side, mappings: dict) -> bool:
    """Predicates left unmapped on both sides, tried again with their arguments in every
    order (a prediction may rename a predicate and swap its arguments at once: then no
    feature that names positions agrees). Each pair scores by its best order; an optimal
    assignment over those. True when a pair was added."""
    if state.too_many:
        return False
    taken = set(state.mapping().values())
    gold_left = [g for g in state.open_gold if g not in taken]
    predicted_left = [p for p in state.open_predicted if p not in state.assigned]
    if not gold_left or not predicted_left:
        return False
    scores = np.zeros((len(predicted_left), len(gold_left)))
    for row, p in enumerate(predicted_left):
        arity = len(predicted.predicates[p])
        if not 2 <= arity <= MAX_PERMUTED_ARITY:
            continue
        for order in permutations(range(arity)):
            # under the action parameter orders chosen so far and under none: those orders
            # were chosen without this predicate and may have absorbed its swap
            no_orders: dict = {}
            for parameters in (mappings["orders"], no_orders):
                trial = {**mappings, "orders": parameters,
                         "arguments": {**mappings["arguments"], p: order}}
                structure = structure_scores("predicates", gold, predicted, trial, gold_left,
                                             [p], False, None)[0]
                scores[row] = np.maximum(scores[row], structure)
    names = _NAME_WEIGHT * fuzzy(predicted_left, gold_left)
    scores = names + (1 - names) * scores
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(np.where(scores >= THRESHOLD, scores, 0.0),
                                       maximize=True)
    added = False
    for row, col in zip(rows, cols):
        if scores[row, col] >= THRESHOLD:
            p = predicted_left[row]
            state.assigned[p] = gold_left[col]
            state.assigned_confidence[p] = float(min(1.0, scores[row, col]))
            added = True
    if added:
        mappings["predicates"] = state.mapping()
    return added


def align(gold: Domain, predicted: Domain) -> Alignment:
    """Map the predicted domain's types, predicates, actions and constants onto the gold's.

    When one side declares types and the other none, the untyped one is also matched with its
    unary static predicates read as types (``typing_predicates.typed_side``: ``(ball ?b)``
    for ``?b - ball``); the matching that maps more of the gold's actions (then, more surely)
    is kept."""
    gold_side, predicted_side = side_of(gold), side_of(predicted)
    plain = _align(gold, predicted, gold_side, predicted_side)
    if gold.typed == predicted.typed:
        return plain
    derived = typed_side(predicted_side if gold.typed else gold_side)
    if derived is None:
        return plain
    side, read_as_types = derived
    typed = (_align(gold, predicted, gold_side, side, read_as_types=("predicted", read_as_types))
             if gold.typed else
             _align(gold, predicted, side, predicted_side, read_as_types=("gold", read_as_types)))
    return typed if _coverage(typed) > _coverage(plain) else plain


def _typing_from_types(read_as_types: tuple[str, set[str]], mappings: dict, types: _KindState,
                       predicted_side: Side) -> tuple[dict, dict, dict, bool]:
    """The type pairs of a matching where one side's predicates were read as types, as
    ``type_predicates`` gives them; the type mapping is left as the real domains have it.
    Returns (predicted type -> gold predicate, predicted predicate -> gold type, confidence,
    whether the gold is untyped)."""
    which, names = read_as_types
    confidence = {**types.fixed_confidence, **types.assigned_confidence}
    if which == "gold":  # the gold is untyped: predicted types stand for its predicates
        as_predicates = {t: g for t, g in mappings["types"].items() if g in names}
        mappings["types"] = {t: "object" for t in predicted_side.types}
        types.gold_names = []
        return as_predicates, {}, {t: confidence.get(t, 1.0) for t in as_predicates}, True
    as_types = {q: g for q, g in mappings["types"].items() if q in names}
    mappings["types"] = {t: g for t, g in mappings["types"].items() if t not in names}
    types.predicted_names = [t for t in types.predicted_names if t not in names]
    return {}, as_types, {q: confidence.get(q, 1.0) for q in as_types}, False


def _coverage(alignment: Alignment) -> tuple[int, float]:
    """Gold actions mapped, then the summed confidence of mapped actions and predicates."""
    return (len(alignment.actions),
            sum(alignment.confidence[k].get(p, 0.0) for k in ("actions", "predicates")
                for p in alignment.mapping(k)))


def _align(gold: Domain, predicted: Domain, gold_side: Side, predicted_side: Side,
           read_as_types: tuple[str, set[str]] | None = None) -> Alignment:
    """``align`` on given sides; ``read_as_types``: which side's predicates were read as
    types (``typed_side``), whose type pairs become ``Alignment.type_predicates``."""
    gold_untyped = not gold.typed and read_as_types is None
    states = {
        "types": _KindState([] if gold_untyped else list(gold_side.types),
                            [] if gold_untyped else list(predicted_side.types)),
        "predicates": _KindState(list(gold_side.predicates), list(predicted_side.predicates)),
        "actions": _KindState(list(gold_side.actions), list(predicted_side.actions)),
        "constants": _KindState(list(gold_side.constants), list(predicted_side.constants)),
    }
    _ignore_unused(states["predicates"], gold_side, predicted_side)
    if gold_untyped:
        type_mapping = {name: "object" for name in predicted_side.types}
    mappings: dict = {kind: state.mapping() for kind, state in states.items()}
    mappings["arguments"], mappings["orders"] = {}, {}
    if gold_untyped:
        mappings["types"] = type_mapping

    colours = None
    if any(state.open for state in states.values()):
        colours = wl_colours(gold_side, predicted_side)

    def step(kind: str, anonymous: bool = False, with_colours: bool = False,
             threshold: float = THRESHOLD) -> None:
        state = states[kind]
        if not state.open:
            return
        state.assign(structure_scores(kind, gold_side, predicted_side, mappings, state.open_gold,
                                state.open_predicted, anonymous,
                                colours if with_colours else None), threshold)
        if not (kind == "types" and gold_untyped):
            mappings[kind] = state.mapping()

    def refresh_orders() -> None:
        # argument and parameter orders under the mappings so far: later rounds compare
        # literals with the positions put back in the gold's order
        mappings["arguments"], mappings["orders"] = joint_orders(gold_side, predicted_side,
                                                                 mappings)

    # The first round seeds: its pairs only give later rounds a vocabulary to compare
    # literals in (and orders to put positions back), so a weak best guess is kept until a
    # later round confirms it at THRESHOLD or replaces it. A domain that renames everything
    # and reorders parameters and arguments scores low before anything is mapped.
    step("types", anonymous=True, with_colours=True, threshold=SEED_THRESHOLD)
    step("predicates", anonymous=True, with_colours=True, threshold=SEED_THRESHOLD)
    step("constants", threshold=SEED_THRESHOLD)
    step("actions", with_colours=True, threshold=SEED_THRESHOLD)
    for _ in range(ROUNDS):
        if not (states["predicates"].open or states["actions"].open or states["types"].open
                or states["constants"].open):
            break
        refresh_orders()
        step("predicates")
        step("types")
        step("constants")
        step("actions")

    # Alternating rounds can settle on a consistent but wrong choice among near-symmetric names
    # (two predicates and the two actions that use them, exchanged together). Try exchanging
    # such partners, re-deciding what depends on them, and keep what agrees more.
    def snapshot() -> tuple[dict, dict]:
        return ({k: (dict(st.assigned), dict(st.assigned_confidence), st.scores)
                 for k, st in states.items()}, {k: dict(m) for k, m in mappings.items()})

    def restore(saved: tuple[dict, dict]) -> None:
        kept, saved_mappings = saved
        for k, (assigned, confidences, scores) in kept.items():
            states[k].assigned, states[k].assigned_confidence, states[k].scores = (
                assigned, confidences, scores)
        mappings.clear()
        mappings.update(saved_mappings)

    depends = {"types": ("predicates", "actions"), "predicates": ("actions",),
               "actions": ("predicates",)}
    best = None
    gold_literals: dict = {}
    for kind, dependents in depends.items():
        if kind == "types" and gold_untyped:
            continue
        candidates = states[kind].swap_candidates(MAX_SWAPS)
        if candidates and best is None:
            best = _agreement(gold_side, predicted_side, mappings, gold_untyped,
                              gold_literals)
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
            refresh_orders()
            value = _agreement(gold_side, predicted_side, mappings, gold_untyped, gold_literals)
            if value > best:  # type: ignore[operator]  # set above: there are candidates
                best = value
            else:
                restore(saved)

    if _match_permuted(states["predicates"], gold_side, predicted_side, mappings):
        refresh_orders()
        step("actions")
    refresh_orders()
    if read_as_types is None:
        as_predicates, as_types, typing_confidence = type_predicates(gold_side, predicted_side,
                                                                     mappings)
    else:
        as_predicates, as_types, typing_confidence, gold_untyped = _typing_from_types(
            read_as_types, mappings, states["types"], predicted_side)

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
    # names accounted for by typing written as predicates (or the reverse) are not unmapped
    unmapped_gold["predicates"] = tuple(g for g in unmapped_gold["predicates"]
                                        if g not in as_predicates.values())
    unmapped_gold["types"] = tuple(g for g in unmapped_gold["types"]
                                   if g not in as_types.values())
    unmapped_predicted["predicates"] = tuple(p for p in unmapped_predicted["predicates"]
                                             if p not in as_types)
    unmapped_predicted["types"] = tuple(p for p in unmapped_predicted["types"]
                                        if p not in as_predicates)
    gold_names = FrozenMap({
        "types": frozenset(gold_side.types) | {"object"},
        "predicates": frozenset(p.name for p in gold.predicates),
        "actions": frozenset(gold_side.actions),
        "constants": frozenset(gold_side.constants),
    })
    notes = []
    if gold_untyped and predicted_side.types:
        notes.append("the gold declares no types: every predicted type maps to object")
    for kind, state in states.items():
        if state.too_many:
            notes.append(f"{kind}: {len(state.open_predicted)} predicted and "
                         f"{len(state.open_gold)} gold names left after matching names, more "
                         f"than {MAX_PAIRS:,} pairs: not matched by structure")
    return Alignment(
        types=FrozenMap(sorted(mappings["types"].items())),
        predicates=FrozenMap(sorted(mappings["predicates"].items())),
        actions=FrozenMap(sorted(mappings["actions"].items())),
        constants=FrozenMap(sorted(mappings["constants"].items())),
        confidence=FrozenMap(confidence),
        unmapped_gold=FrozenMap(unmapped_gold),
        unmapped_predicted=FrozenMap(unmapped_predicted),
        gold_untyped=gold_untyped,
        notes=tuple(notes),
        argument_orders=FrozenMap(sorted(mappings["arguments"].items())),
        parameter_orders=FrozenMap(sorted(mappings["orders"].items())),
        type_predicates=FrozenMap({"types": FrozenMap(sorted(as_predicates.items())),
                                   "predicates": FrozenMap(sorted(as_types.items())),
                                   "confidence": FrozenMap(sorted(typing_confidence.items()))}),
        _gold_names=gold_names,
    )
