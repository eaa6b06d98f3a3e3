"""The checks a generated world passes, the store's own: tarski parses the domain without a
warning and each problem against it; every problem is solved (the planning layer's front:
in-process search, Fast Downward behind it); every action is needed by some problem (removed,
the problem has no plan: ``store.necessity``'s rule); no predicate is written and never read;
both descriptions are in the store's format (``store.lint.format_problems``) and the abstract
one passes the lint; sizes within curation's limits and token lengths in the store's band.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from text2world.errors import Text2WorldError
from text2world.pddl.model import Domain
from text2world.pddl.validation import validate
from text2world.planning.fast_downward import PlanResult
from text2world.planning.front import plan_problem, search_plan
from text2world.simulation import PlanningProblem, Simulator, parse_problem
from text2world.store.audit import goal_predicates, write_only_predicates
from text2world.store.curation import MAX_ACTIONS, MAX_PREDICATES
from text2world.store.lint import format_problems, lint_text
from text2world.store.necessity import without_action
from text2world.store.tokens import count_gpt2_tokens

__all__ = ["PLAN_TIMEOUT", "store_band", "Verified", "verify_world"]

PLAN_TIMEOUT = 10.0  # Fast Downward's CPU seconds, when the in-process search gives up


@dataclass(frozen=True)
class TokenBand:
    """The store's smallest and largest GPT-2 token counts (domain, abstract, concrete)."""

    domain: tuple[int, int]
    abstract: tuple[int, int]
    concrete: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"domain": list(self.domain), "abstract": list(self.abstract),
                "concrete": list(self.concrete)}


class StoreUnavailable(Text2WorldError, LookupError):
    """The store (its manifest), which the checks compare a world with, cannot be read."""


@lru_cache(maxsize=4)
def store_band(store: Path) -> TokenBand:
    """The band of the store's manifest (``data/manifest.json``)."""
    path = store / "manifest.json"
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["domains"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise StoreUnavailable(f"{path}: the store's manifest cannot be read ({err}); worlds "
                               "are checked against the store: set T2W_DATA_DIR to a clone's "
                               "data/ folder") from None

    def span(values: list[int]) -> tuple[int, int]:
        return min(values), max(values)

    return TokenBand(span([e["tokens"] for e in entries]),
                     span([e["description_tokens"]["abstract"] for e in entries]),
                     span([e["description_tokens"]["concrete"] for e in entries]))


@dataclass
class Verified:
    """What the checks found: ``failures`` (empty: the world passes), each problem's plan and
    cost, the parsed domain, token counts and which problem needs each action."""

    failures: list[str] = field(default_factory=list)
    plans: dict[str, PlanResult] = field(default_factory=dict)
    costs: dict[str, float] = field(default_factory=dict)
    needed_by: dict[str, str] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    domain: Domain | None = None

    @property
    def ok(self) -> bool:
        return not self.failures


def _necessary(domain: Domain, domain_text: str, action: str, problem: PlanningProblem,
               problem_text: str) -> bool | None:
    """Is ``problem`` unsolvable without ``action``? None when no planner could tell."""
    reduced = replace(domain, actions=tuple(a for a in domain.actions if a.name != action))
    result, _why = search_plan(Simulator(reduced, problem))
    if result is None:
        result = plan_problem(without_action(domain_text, action), problem_text, PLAN_TIMEOUT)
    if result.solved:
        return False
    return True if result.status.startswith("UNSOLVABLE") else None


def verify_world(domain_text: str, problems: dict[str, str], abstract: str, concrete: str,
                 band: TokenBand) -> Verified:
    """Run every check on one world (``problems``: name -> text, smallest first)."""
    found = Verified()
    validation = validate(domain_text)
    if not validation.ok or validation.domain is None:
        found.failures.append(f"tarski: {validation.errors[0] if validation.errors else '?'}")
        return found
    if validation.warnings:
        found.failures.append(f"validation warning: {validation.warnings[0]}")
    domain = found.domain = validation.domain
    if len(domain.predicates) > MAX_PREDICATES or len(domain.actions) > MAX_ACTIONS:
        found.failures.append(f"complexity: {len(domain.predicates)} predicates, "
                              f"{len(domain.actions)} actions")
    parsed: dict[str, PlanningProblem] = {}
    for name, text in problems.items():
        try:
            parsed[name] = parse_problem(domain, text)
            simulator = Simulator(domain, parsed[name])
        except Exception as err:  # noqa: BLE001 - tarski raises many classes
            found.failures.append(f"{name}: does not parse: {err}")
            continue
        result = plan_problem(domain_text, text, PLAN_TIMEOUT, simulator=simulator)
        if not result.solved:
            found.failures.append(f"{name}: not solved ({result.status}: {result.message})")
            continue
        found.plans[name] = result
        found.costs[name] = simulator.validate_plan(result.plan).cost
    if found.failures:
        return found
    for action in domain.actions:
        for name, result in found.plans.items():
            if action.name in result.actions:
                verdict = _necessary(domain, domain_text, action.name, parsed[name],
                                     problems[name])
                if verdict:
                    found.needed_by[action.name] = name
                    break
        else:
            found.failures.append(f"necessity: action {action.name} is needed by no problem")
    goals = set().union(*(goal_predicates(t) for t in problems.values()))
    unread = write_only_predicates(domain, goals)
    if unread:
        found.failures.append(f"write-only predicates: {', '.join(unread)}")
    lint = lint_text(abstract, "abstract.md")
    found.failures += [f"lint: {f}" for f in lint.failures]
    for kind, text in (("abstract", abstract), ("concrete", concrete)):
        found.failures += [f"{kind}.md: {p}" for p in format_problems(domain, text, kind)]
    found.tokens = {"domain": count_gpt2_tokens(domain_text),
                    "abstract": count_gpt2_tokens(abstract),
                    "concrete": count_gpt2_tokens(concrete)}
    for part, (low, high) in band.to_dict().items():
        if not low <= found.tokens[part] <= high:
            found.failures.append(f"tokens: {part} has {found.tokens[part]} GPT-2 tokens, "
                                  f"outside the store's band {low}-{high}")
    return found
