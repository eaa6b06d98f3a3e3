"""The verdict of semantic scoring, what the alignment could not match, and how sure it was.

- ``incomplete``: a gold action, or a predicate some gold action changes, has no counterpart
  in the prediction, or is mapped onto a name of another arity. Predicates no action changes
  (static facts, typing written as predicates) and predicates no action uses do not count.
- ``equivalent``: every metric that could be measured is 1.0 and no disagreement was found.
- ``different``: otherwise, with the diagnoses.
- ``not_simulated``: decided before any of this (the score says why).

A diagnosis is stated under the chosen mapping; when the action or a predicate of its literal
was mapped with a confidence under ``UNCERTAIN``, the diagnosis says so, since the mapping may
be what is wrong rather than the literal.
"""

from __future__ import annotations

import re
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING

from text2world.pddl.model import Domain
from text2world.scoring.diagnosis import Diagnosis

if TYPE_CHECKING:
    from text2world.scoring.alignment import Alignment

__all__ = ["Verdict", "unmatched_parts", "uncertain_pairs", "qualify", "decide"]



class Verdict(StrEnum):
    """The answer of semantic scoring (``SemanticScore.verdict``). A ``StrEnum``: each member is
    its string, so comparisons, JSON and the records on disk are unchanged."""

    EQUIVALENT = "equivalent"
    DIFFERENT = "different"
    INCOMPLETE = "incomplete"
    NOT_SIMULATED = "not_simulated"


UNCERTAIN = 0.7  # a mapped pair under this confidence is reported as uncertain
_NAME = re.compile(r"\(\s*(?:not\s*\(\s*)?([^\s()]+)")


def _changed_predicates(domain: Domain) -> set[str]:
    from text2world.scoring.alignment.structure import side_of
    from text2world.scoring.alignment.typing_predicates import static_unary

    side = side_of(domain)
    changed = set()
    for literals in side.literals.values():
        for role, predicate, _ in literals:
            base = role if isinstance(role, str) else role[0]
            if base.lstrip("n") in ("add", "del"):
                changed.add(predicate)
    return changed - static_unary(side)


def unmatched_parts(alignment: "Alignment", gold: Domain, predicted: Domain
                    ) -> tuple[str, ...]:
    """Gold parts without a counterpart, in words (empty: the structure corresponds)."""
    found = []
    for name in alignment.unmapped_gold["actions"]:
        found.append(f"action {name}: no counterpart in the prediction")
    changed = _changed_predicates(gold)
    for name in alignment.unmapped_gold["predicates"]:
        if name in changed:
            found.append(f"predicate {name} (changed by the gold's actions): no counterpart "
                         "in the prediction")
    for kind, table, theirs in (
            ("action", {a.name: len(a.parameters) for a in predicted.actions},
             {a.name: len(a.parameters) for a in gold.actions}),
            ("predicate", {p.name: len(p.parameters) for p in predicted.predicates},
             {p.name: len(p.parameters) for p in gold.predicates})):
        mapping = alignment.actions if kind == "action" else alignment.predicates
        for p, g in sorted(mapping.items()):
            if p in table and g in theirs and table[p] != theirs[g] and (
                    kind == "action" or g in changed):
                found.append(f"{kind} {g}: mapped from {p}, which has {table[p]} parameters "
                             f"where the gold's has {theirs[g]}")
    return tuple(found)


def uncertain_pairs(alignment: "Alignment") -> dict[tuple[str, str], str]:
    """(kind, gold name) -> a phrase, for mapped actions and predicates of low confidence."""
    found = {}
    for kind in ("actions", "predicates"):
        for p, g in alignment.mapping(kind).items():
            confidence = alignment.confidence[kind].get(p, 1.0)
            if confidence < UNCERTAIN:
                found[(kind, g)] = (f"{kind[:-1]} {g} is mapped from {p} with confidence "
                                    f"{confidence:.2f}")
    return found


def qualify(diagnoses: tuple[Diagnosis, ...], uncertain: dict[tuple[str, str], str]
            ) -> tuple[Diagnosis, ...]:
    """Diagnoses resting on an uncertain mapping say so instead of blaming a literal."""
    if not uncertain:
        return diagnoses
    result = []
    for d in diagnoses:
        reasons = [uncertain[("actions", d.action)]] if ("actions", d.action) in uncertain else []
        match = _NAME.match(d.literal or "")
        if match and ("predicates", match.group(1)) in uncertain:
            reasons.append(uncertain[("predicates", match.group(1))])
        if reasons:
            why = "; ".join(reasons)
            d = replace(d, uncertain=why,
                        message=f"{d.message} (the mapping is uncertain: {why}; the "
                                "difference may lie in the mapping, not in this literal)")
        result.append(d)
    return tuple(result)


def decide(metrics: dict, diagnoses: tuple, unmatched: tuple[str, ...]) -> Verdict:
    """``incomplete``, ``equivalent`` or ``different`` for a simulated prediction."""
    if unmatched:
        return Verdict.INCOMPLETE
    measured = [v for v in metrics.values() if v is not None]
    if measured and all(v == 1.0 for v in measured) and not diagnoses:
        return Verdict.EQUIVALENT
    return Verdict.DIFFERENT
