"""Per-action diagnoses of semantic disagreements, in words a person can act on.

Every disagreement found while sampling (an action applicable in one domain only, a successor
that differs) is traced to a lifted literal: the gold's precondition literal that the prediction
lacks, the prediction's literal the gold does not have, or the effect that is missing or extra.
Counts are pooled over all sampled states of all problems.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from text2world.pddl.model import Domain
from text2world.simulation import GroundAction, SimulationError, Simulator, atom_to_pddl

__all__ = ["KINDS", "Diagnosis", "lift", "Diagnoser", "describe", "diagnoses_of"]

KINDS = ("missing-precondition", "extra-precondition", "missing-effect", "extra-effect",
         "missing-action", "extra-action", "parameter-types")


@dataclass(frozen=True)
class Diagnosis:
    action: str
    kind: str      # one of KINDS
    literal: str   # the lifted literal, PDDL ("" for a missing or extra action)
    count: int     # sampled states (preconditions, actions) or transitions (effects)
    message: str
    uncertain: str = ""  # why the mapping behind it is uncertain (scoring.verdict.qualify)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def lift(atom: tuple, parameters: tuple[str, ...], args: tuple[str, ...]) -> str:
    """A ground atom with the action's arguments replaced by its parameter names."""
    names: dict[str, str] = {}
    for name, arg in zip(parameters, args):
        names.setdefault(arg, name)
    return atom_to_pddl((atom[0], *(names.get(a, a) for a in atom[1:])))


class Diagnoser:
    """Collects disagreements between a gold and a (translated) prediction."""

    def __init__(self, gold: Domain, predicted: Domain) -> None:
        self.gold_params = {a.name: tuple(p.name for p in a.parameters) for a in gold.actions}
        self.predicted_params = {a.name: tuple(p.name for p in a.parameters)
                                 for a in predicted.actions}
        self.counts: Counter = Counter()

    def too_weak(self, action: GroundAction, gold: Simulator, gold_state: frozenset) -> None:
        """``action`` is applicable in the prediction but not in the gold."""
        if action.name not in self.gold_params or len(action.args) != len(
                self.gold_params[action.name]):
            self.counts[(action.name, "extra-action", "")] += 1
            return
        try:
            literals = gold.unsatisfied_literals(gold_state, action)
        except SimulationError:  # its arguments do not have the gold's parameter types
            self.counts[(action.name, "parameter-types", "wider than the gold's")] += 1
            return
        for literal in literals:
            self.counts[(action.name, "missing-precondition", literal.to_pddl())] += 1

    def too_strong(self, action: GroundAction, predicted: Simulator, state: frozenset) -> None:
        """``action`` is applicable in the gold but not in the prediction."""
        if action.name not in self.predicted_params or len(action.args) != len(
                self.predicted_params[action.name]):
            self.counts[(action.name, "missing-action", "")] += 1
            return
        try:
            literals = predicted.unsatisfied_literals(state, action)
        except SimulationError:  # the gold's arguments do not fit the prediction's types
            self.counts[(action.name, "parameter-types", "narrower than the gold's")] += 1
            return
        for literal in literals:
            self.counts[(action.name, "extra-precondition", literal.to_pddl())] += 1

    def effects(self, action: GroundAction, added: frozenset, deleted: frozenset,
                p_added: frozenset, p_deleted: frozenset) -> None:
        """The successors differ: gold changes (added, deleted), the prediction's (p_...)."""
        params = self.gold_params.get(action.name, ())
        for atom in added - p_added:
            self.counts[(action.name, "missing-effect", lift(atom, params, action.args))] += 1
        for atom in deleted - p_deleted:
            self.counts[(action.name, "missing-effect",
                         f"(not {lift(atom, params, action.args)})")] += 1
        for atom in p_added - added:
            self.counts[(action.name, "extra-effect", lift(atom, params, action.args))] += 1
        for atom in p_deleted - deleted:
            self.counts[(action.name, "extra-effect",
                         f"(not {lift(atom, params, action.args)})")] += 1

    def diagnoses(self) -> tuple[Diagnosis, ...]:
        return diagnoses_of(self.counts)


def diagnoses_of(counts: Counter) -> tuple[Diagnosis, ...]:
    """Diagnoses from a ``Diagnoser``'s counts (or several summed), most frequent first."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return tuple(Diagnosis(name, kind, literal, count, _message(name, kind, literal, count))
                 for (name, kind, literal), count in ordered)


_WITHOUT_COUNTS = {
    "missing-precondition": "precondition `{literal}` missing: applicable where the gold forbids it",
    "extra-precondition": "precondition `{literal}` is not in the gold: blocks the action where "
                          "the gold allows it",
    "missing-effect": "effect `{literal}` missing",
    "extra-effect": "effect `{literal}` is not in the gold",
    "parameter-types": "parameter types {literal} decide applicability where the gold differs",
    "missing-action": "no such action in the prediction",
    "extra-action": "no such action in the gold",
}


def describe(kind: str, literal: str) -> str:
    """A diagnosis in words without its counts (which differ per item): what reports count."""
    template = _WITHOUT_COUNTS.get(kind)
    if template is None:
        return f"{kind} `{literal}`" if literal else kind
    return template.format(literal=literal)


def _message(name: str, kind: str, literal: str, count: int) -> str:
    states = f"{count} sampled state{'s' if count != 1 else ''}"
    transitions = f"{count} sampled transition{'s' if count != 1 else ''}"
    if kind == "missing-precondition":
        return (f"`{name}`: precondition `{literal}` missing: applicable in {states} "
                "where the gold forbids it")
    if kind == "extra-precondition":
        return (f"`{name}`: precondition `{literal}` is not in the gold: blocks the action "
                f"in {states} where the gold allows it")
    if kind == "missing-effect":
        return f"`{name}`: effect `{literal}` missing (in {transitions})"
    if kind == "extra-effect":
        return f"`{name}`: effect `{literal}` is not in the gold (in {transitions})"
    if kind == "parameter-types":
        return (f"`{name}`: parameter types {literal}: decide applicability in {states} "
                "where the gold differs")
    if kind == "missing-action":
        return (f"`{name}`: no such action in the prediction (applicable in {states} "
                "of the gold)")
    return f"`{name}`: no such action in the gold (applicable in {states})"
