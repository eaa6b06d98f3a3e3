"""What the model is told between rounds of ``t2w eval --task problem --ec K``: the validator's
report on its problem against the gold domain, never the gold problem.

* no problem in the answer;
* the problem does not parse: the parser's message, an unknown predicate, object or type
  named as such with what the domain declares;
* a problem of another domain;
* the planner proves it unsolvable.

A problem that parses and is not proven unsolvable ends the loop (``findings`` empty): whether it
means what the text said is for the scorer to judge, not for the feedback to reveal.
"""

from __future__ import annotations

import re

from text2world.pddl.model import Domain

_UNDEFINED = re.compile(r"(Undefined\w*): Undefined element \"([^\"]+)\"")
_SHOWN = 12  # names of the domain listed in one finding


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def parse_finding(message: str, domain: Domain) -> str:
    """The parser's ``message`` in the domain's words: what is unknown and what it declares."""
    match = _UNDEFINED.search(message)
    if match is None:
        return message
    kind, name = match.groups()
    if kind == "UndefinedPredicate":
        return (f"unknown predicate {name!r}: the domain's predicates are "
                + _names([p.name for p in domain.predicates]))
    if kind == "UndefinedConstant":
        return (f"unknown object {name!r}: declare it in :objects with its type (or use a "
                "declared one)")
    types = [t.name for t in domain.types]
    return (f"unknown name {name!r} (a type or object the problem uses and nobody declares)"
            + (f": the domain's types are {_names(types)}" if types else ""))


def findings(verdict: dict, domain: Domain) -> list[str]:
    """The validator's findings on one round's problem (``problem_round_verdict``'s verdict)."""
    if not verdict.get("extracted", True):
        return [str(verdict.get("message") or "no PDDL problem in the answer") +
                ": answer with the whole problem, (define (problem ...) ...), in a ```pddl block"]
    if not verdict.get("parseable"):
        message = str(verdict.get("message") or "the problem does not parse").removeprefix(
            "the prediction does not parse: ")
        return [parse_finding(message, domain)]
    counterexample = verdict.get("counterexample") or {}
    if counterexample.get("kind") == "domain":
        return [str(counterexample.get("text"))]
    if verdict.get("solvable") is False:
        return ["the planner proves the problem unsolvable: no plan reaches its goal from its "
                "initial state"]
    return []


def feedback_text(found: list[str]) -> str:
    return "\n".join(f"- {finding}" for finding in found)
