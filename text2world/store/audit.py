"""The store audit: semantic checks and the figures that compare the store with the released set.

* ``write_only_predicates``: predicates some action sets or clears but no action precondition,
  no effect condition and no problem goal ever tests (a broken effect on them cannot be seen);
* ``domain_features`` / ``size_band``: the stratification fields of the manifest;
* ``audit_figures``: rule phrases per General (``lint``), actions needed by no problem and in no
  plan (``necessity``, from its cache), write-only predicates, sizes, and how many domains use
  constants, no types, ``:adl``, conditional effects, comments, upper case and successor counters.
"""

from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Iterable

from text2world.files import InputFileError, read_input_text
from text2world.pddl.model import (
    AddEffect,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    Effect,
    Formula,
    iter_atoms,
    iter_effects,
    strip_comments,
)
from text2world.store.curation import cached_validate

__all__ = [
    "SIZE_BANDS", "goal_predicates", "write_only_predicates", "domain_features", "size_band",
    "store_audit", "audit_lines",
]

_CONNECTIVES = {"and", "or", "not", "forall", "exists", "imply", "when", "=", "either"}
# Size bands by number of actions + predicates, cut at the released set's terciles (<= 8, 9-14,
# >= 15), so the store's skew towards large domains shows.
SIZE_BANDS = ((9, "small"), (15, "medium"), (10 ** 9, "large"))
# A static binary predicate over one type is a successor counter when its name says so or its
# type is a number-like one (knight-step over squares is a graph, count-step over counts is not).
_SUCCESSOR = re.compile(r"(succ|next|plus|minus|one-more|one-less|^inc|^dec|less|more|fewer|"
                        r"higher|lower|(count|room|level|load|stock|fuel|charge)-?step)", re.I)
_NUMBER_TYPE = re.compile(r"^(count|counter|level|num|number|amount|quantity|slot|"
                          r"capacity|fuel|charge|size|height|value|digit|n)\b", re.I)


def _predicates(formula: Formula) -> set[str]:
    return {atom.predicate.lower() for atom in iter_atoms(formula)}


def _effect_atoms(effects: tuple[Effect, ...], written: set[str], tested: set[str]) -> None:
    """Add the predicates ``effects`` set or clear to ``written``, those their conditions
    test to ``tested``."""
    for effect, _conditions in iter_effects(effects):
        if isinstance(effect, (AddEffect, DeleteEffect)):
            written.add(effect.atom.predicate.lower())
        elif isinstance(effect, ConditionalEffect):
            tested |= _predicates(effect.condition)


def goal_predicates(problem_text: str) -> set[str]:
    """Predicate names written in a problem's ``(:goal ...)`` (read from the text)."""
    code = strip_comments(problem_text)
    start = re.search(r"\(\s*:goal\b", code, re.I)
    if not start:
        return set()
    names = re.findall(r"\(\s*([^\s()]+)", code[start.end():])
    return {n.lower() for n in names if n.lower() not in _CONNECTIVES and not n.startswith(":")}


def write_only_predicates(domain: Domain, goals: Iterable[str] = ()) -> list[str]:
    """Predicates set or cleared by an effect that nothing tests (preconditions, effect
    conditions, ``goals``), in declaration order."""
    written: set[str] = set()
    tested: set[str] = {g.lower() for g in goals}
    for action in domain.actions:
        tested |= _predicates(action.precondition)
        _effect_atoms(action.effects, written, tested)
    return [p.name for p in domain.predicates if p.name.lower() in written - tested]


def successor_predicates(domain: Domain) -> list[str]:
    """Static binary predicates over one non-object type named like an ordering (counters)."""
    written: set[str] = set()
    for action in domain.actions:
        _effect_atoms(action.effects, written, set())
    found = []
    for predicate in domain.predicates:
        types = {p.type for p in predicate.parameters}
        if (len(predicate.parameters) == 2 and len(types) == 1
                and predicate.name.lower() not in written
                and (_SUCCESSOR.search(predicate.name) or _NUMBER_TYPE.search(next(iter(types))))):
            found.append(predicate.name)
    return found


def _uses_conditional(domain: Domain) -> bool:
    return any(isinstance(effect, ConditionalEffect)
               for action in domain.actions for effect, _ in iter_effects(action.effects))


def domain_features(text: str, domain: Domain) -> list[str]:
    """Stratification features of a domain (sorted): constants, untyped, adl,
    conditional-effects, quantifiers, action-costs, comments, mixed-case, successor-counter."""
    requirements = {r.lower() for r in domain.requirements}
    code = strip_comments(text)
    features = set()
    if domain.constants:
        features.add("constants")
    if not domain.typed:
        features.add("untyped")
    if ":adl" in requirements:
        features.add("adl")
    if _uses_conditional(domain):
        features.add("conditional-effects")
    if re.search(r"\(\s*(forall|exists)\b", " ".join(a.precondition.to_pddl()
                                                    for a in domain.actions)):
        features.add("quantifiers")
    if ":action-costs" in requirements:
        features.add("action-costs")
    if ";" in text:
        features.add("comments")
    if re.search(r"[A-Z]", code):
        features.add("mixed-case")
    if successor_predicates(domain):
        features.add("successor-counter")
    return sorted(features)


def size_band(domain: Domain) -> str:
    size = len(domain.actions) + len(domain.predicates)
    return next(name for limit, name in SIZE_BANDS if size < limit)


def corpus_sizes(texts: Iterable[str]) -> dict:
    """Mean numbers of predicates, actions and types, and feature counts, over domain texts."""
    sizes: dict[str, list[int]] = {"predicates": [], "actions": [], "types": []}
    features: dict[str, int] = {}
    parsed = 0
    for text in texts:
        result = cached_validate(text)
        if not result.ok or result.domain is None:
            continue
        parsed += 1
        domain = result.domain
        sizes["predicates"].append(len(domain.predicates))
        sizes["actions"].append(len(domain.actions))
        sizes["types"].append(len(domain.types))
        for feature in domain_features(text, domain):
            features[feature] = features.get(feature, 0) + 1
    return {"domains": parsed,
            **{f"mean_{k}": round(statistics.mean(v), 1) if v else 0.0 for k, v in sizes.items()},
            "features": dict(sorted(features.items()))}


def store_write_only(data: Path) -> dict[str, list[str]]:
    """id -> write-only predicates, for every store domain (goals of all its problems count)."""
    found = {}
    for path in sorted((data / "domains").glob("*.pddl")):
        result = cached_validate(path.read_text(encoding="utf-8"))
        if not result.ok or result.domain is None:
            continue
        goals: set[str] = set()
        for problem in (data / "problems" / path.stem).glob("*.pddl"):
            goals |= goal_predicates(problem.read_text(encoding="utf-8"))
        names = write_only_predicates(result.domain, goals)
        if names:
            found[path.stem] = names
    return found


def _released_records(path: Path) -> list[dict]:
    import json

    from text2world.store.datasets import MAX_DATASET_FILE_BYTES, DatasetError
    try:
        records = json.loads(read_input_text(path, "--released", MAX_DATASET_FILE_BYTES))
    except InputFileError as err:
        raise DatasetError(str(err)) from None
    except ValueError as err:
        raise DatasetError(f"{path}: cannot read the released JSON ({err})") from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise DatasetError(f"{path}: expected a JSON list of records")
    return records


def store_audit(data: Path, released: Path | None = None, *, solve: bool = False,
                workers: int = 2) -> dict:
    """The audit's figures for the store folder ``data`` (and the released set when given).

    Necessity figures come from ``data/necessity-cache.json``; solves it lacks are counted as
    ``missing`` unless ``solve`` is set (then Fast Downward fills the cache)."""
    from text2world.store.lint import corpus_figures, lint_records, lint_store
    from text2world.store.necessity import CACHE_NAME, SolveCache, analyse_domains, store_domains
    ids = sorted(p.stem for p in (data / "domains").glob("*.pddl"))
    texts = [(data / "domains" / f"{i}.pddl").read_text(encoding="utf-8") for i in ids]
    cache = SolveCache(data / CACHE_NAME)
    uses = analyse_domains(store_domains(data, ids), cache, solve=solve, workers=workers)
    if solve:
        cache.save()
    problems = [len(list((data / "problems" / i).glob("*.pddl"))) for i in ids]
    write_only = store_write_only(data)
    store = {
        "lint": corpus_figures(lint_store(data, ids)),
        "necessity": {
            "actions": sum(len(u.actions) for u in uses),
            "needed_by_no_problem": sum(len(u.needed_by_none()) for u in uses),
            "domains_with_such_actions": sum(1 for u in uses if u.needed_by_none()),
            "in_no_plan": sum(len(u.in_no_plan()) for u in uses),
            "missing_solves": sum(u.missing for u in uses),
        },
        "write_only_predicates": sum(len(v) for v in write_only.values()),
        "write_only": write_only,
        "problems": {"total": sum(problems), "min_per_domain": min(problems, default=0),
                     "domains_with_fewer_than_3": sum(1 for n in problems if n < 3)},
        "sizes": corpus_sizes(texts),
    }
    result = {"store": store}
    if released is not None:
        records = _released_records(released)
        result["released"] = {
            "lint": corpus_figures(lint_records(
                (str(r.get("id")), str(r.get("corrected_description") or "")) for r in records)),
            "sizes": corpus_sizes(str(r.get("pddl_domain") or "") for r in records),
        }
    return result


def audit_lines(audit: dict) -> list[str]:
    """The audit as plain lines, store and released side by side where both exist."""
    store, released = audit["store"], audit.get("released", {})
    lines = []

    def row(label: str, mine: object, theirs: object = None) -> None:
        lines.append(f"{label:<52} {mine!s:>10}" + (f" {theirs!s:>10}" if theirs is not None
                                                       else ""))
    row("", "store", "released" if released else None)
    for key in ("rule_phrases_per_general", "generals_with_3_or_more",
                "effect_counter_or_action_findings_per_description", "failing"):
        row(f"lint: {key.replace('_', ' ')}", store["lint"][key],
            released.get("lint", {}).get(key) if released else None)
    for key, value in store["necessity"].items():
        row(f"necessity: {key.replace('_', ' ')}", value)
    row("write-only predicates", store["write_only_predicates"])
    for key, value in store["problems"].items():
        row(f"problems: {key.replace('_', ' ')}", value)
    sizes, other = store["sizes"], released.get("sizes", {}) if released else {}
    for key in ("domains", "mean_predicates", "mean_actions", "mean_types"):
        row(f"size: {key.replace('_', ' ')}", sizes[key], other.get(key) if released else None)
    features = sorted(set(sizes["features"]) | set(other.get("features", {})))
    for feature in features:
        row(f"domains with {feature}", sizes["features"].get(feature, 0),
            other.get("features", {}).get(feature, 0) if released else None)
    return lines
