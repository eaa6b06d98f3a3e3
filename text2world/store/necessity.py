"""Does every action of a store domain matter? Remove each action and re-solve each problem.

An action is *necessary* for a problem when the problem has a plan with the full domain and none
without that action. An action needed by no problem can be broken without any simulation
noticing, so the store requires every action to be necessary for at least one problem of its
domain, or (when it is genuinely optional) to be used in the plan of one and justified in the
manifest's ``optional_actions``.

Solving is expensive (Fast Downward, about a second a problem), so results are cached by content
in ``data/necessity-cache.json``: sha256 of (domain text, problem text) -> solved and, for the
full domain, the plan's action names. Only the problems whose found plan uses an action are
re-solved without it (a plan that avoids the action proves it unnecessary there). The tests read
the committed cache, check it covers the current files, and re-solve a sample to check it is
honest; ``t2w data stats --audit --solve`` (or ``bench/necessity_bench.py``) fills it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from text2world.planning.fast_downward import PlanResult, solve_many
from text2world.store.datasets import DatasetError, atomic_write_text

__all__ = [
    "CACHE_NAME", "SOLVE_TIMEOUT", "UNSOLVABLE", "action_names", "without_action",
    "SolveCache", "analyse_domains", "store_domains", "optional_actions", "necessity_problems",
]

CACHE_NAME = "necessity-cache.json"
SOLVE_TIMEOUT = 20.0
UNSOLVABLE = ("UNSOLVABLE_PROVEN", "UNSOLVABLE_INCOMPLETELY")  # search space exhausted


def solve_key(domain_text: str, problem_text: str) -> str:
    digest = hashlib.sha256(domain_text.encode())
    digest.update(b"\0")
    digest.update(problem_text.encode())
    return digest.hexdigest()


def _block_end(text: str, start: int) -> int:
    """Index after the parenthesis closing the one at ``start`` (``;`` comments skipped)."""
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char == ";":
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise DatasetError(f"unbalanced parentheses after offset {start}")


def action_names(domain_text: str) -> list[str]:
    """Action names in declaration order (lower case), read from the text."""
    code = re.sub(r";[^\n]*", "", domain_text)
    return [m.group(1).lower() for m in re.finditer(r"\(\s*:action\s+([^\s()]+)", code, re.I)]


def without_action(domain_text: str, name: str) -> str:
    """The domain text with the ``(:action name ...)`` block removed; everything else verbatim."""
    for match in re.finditer(r"\(\s*:action\s+([^\s()]+)", domain_text, re.I):
        line_start = domain_text.rfind("\n", 0, match.start()) + 1
        if ";" in domain_text[line_start:match.start()]:
            continue  # inside a comment
        if match.group(1).lower() == name.lower():
            end = _block_end(domain_text, match.start())
            return domain_text[:match.start()] + domain_text[end:]
    raise DatasetError(f"domain has no action {name!r}")


@dataclass
class ActionUse:
    action: str
    used_in: list[str] = field(default_factory=list)  # problems whose found plan uses it
    necessary_for: list[str] = field(default_factory=list)  # unsolvable without it
    unknown: list[str] = field(default_factory=list)  # the solve without it timed out / failed

    @property
    def necessary(self) -> bool:
        return bool(self.necessary_for)


@dataclass
class DomainUse:
    id: str
    actions: dict[str, ActionUse]
    unsolved: list[str] = field(default_factory=list)  # problems without a plan at all
    missing: int = 0  # solves the cache lacked (only when not solving)

    def needed_by_none(self) -> list[str]:
        return [a for a, use in self.actions.items() if not use.necessary]

    def in_no_plan(self) -> list[str]:
        return [a for a, use in self.actions.items() if not use.used_in]


class SolveCache:
    """Content-keyed solve results, stored as one JSON file (sorted, so diffs stay small)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.entries: dict[str, dict] = {}
        self.used: set[str] = set()
        self.sources: dict[str, tuple[str, str]] = {}  # key -> (domain, problem) asked this run
        if path is not None and path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, ValueError) as err:
                raise DatasetError(f"{path}: not a valid solve cache ({err})") from None
            entries = data.get("solves") if isinstance(data, dict) else None
            if not isinstance(entries, dict):
                raise DatasetError(f"{path}: expected an object with a 'solves' mapping")
            self.entries = entries

    def get(self, key: str) -> dict | None:
        entry = self.entries.get(key)
        if entry is not None:
            self.used.add(key)
        return entry

    def put(self, key: str, result: PlanResult, with_plan: bool) -> None:
        # a timeout or crash is not a fact about the problem: never cached
        if result.solved or result.status in UNSOLVABLE:
            entry: dict = {"solved": result.solved}
            if with_plan and result.solved:
                entry["plan"] = list(result.actions)
            self.entries[key] = entry
            self.used.add(key)

    def save(self, prune: bool = False) -> None:
        if self.path is None:
            return
        entries = {k: v for k, v in self.entries.items() if not prune or k in self.used}
        atomic_write_text(self.path, json.dumps({"solves": dict(sorted(entries.items()))},
                                                indent=0, sort_keys=True) + "\n")


def _solve_all(jobs: list[tuple[str, str, str]], cache: SolveCache, solve: bool, with_plan: bool,
               workers: int, timeout: float) -> dict[str, dict | None]:
    """key -> cache entry (None when unknown) for (key, domain, problem) jobs."""
    answers: dict[str, dict | None] = {}
    todo, queued = [], set()
    for key, domain, problem in jobs:
        cache.sources[key] = (domain, problem)
        entry = cache.get(key)
        if entry is not None and (not with_plan or not entry["solved"] or "plan" in entry):
            answers[key] = entry
        elif key not in queued:
            queued.add(key)
            todo.append((key, domain, problem))
    if solve and todo:
        for key, result in solve_many(todo, workers=workers, timeout=timeout).items():
            cache.put(key, result, with_plan)
            answers[key] = cache.entries.get(key)
    for key, _, _ in todo:
        answers.setdefault(key, None)
    return answers


def analyse_domains(domains: Iterable[tuple[str, str, dict[str, str]]], cache: SolveCache, *,
                    solve: bool = True, workers: int = 2, timeout: float = SOLVE_TIMEOUT,
                    progress: Callable[[str], None] | None = None) -> list[DomainUse]:
    """For ``(id, domain text, {problem name: text})``: which problems use and need each action.

    Without ``solve`` only the cache answers; what it lacks is counted in ``DomainUse.missing``.
    """
    domains = list(domains)
    full_jobs = [(solve_key(d, p), d, p) for _, d, problems in domains for p in problems.values()]
    full = _solve_all(full_jobs, cache, solve, True, workers, timeout)
    uses: list[DomainUse] = []
    # (use, action, domain without it, [(problem name, text) whose plan uses the action])
    candidates: list[tuple[DomainUse, str, str, list[tuple[str, str]]]] = []
    for record_id, domain, problems in domains:
        use = DomainUse(record_id, {a: ActionUse(a) for a in action_names(domain)})
        for name, problem in sorted(problems.items()):
            entry = full[solve_key(domain, problem)]
            if entry is None:
                use.missing += 1
            elif not entry["solved"]:
                use.unsolved.append(name)
            else:
                for action in sorted(set(entry.get("plan", [])) & set(use.actions)):
                    use.actions[action].used_in.append(name)
        for action, info in use.actions.items():
            if info.used_in:
                candidates.append((use, action, without_action(domain, action),
                                   [(n, problems[n]) for n in info.used_in]))
        uses.append(use)
    # Rounds: each action is re-solved without it on the next problem that uses it, until one
    # problem needs it (one is enough) or none is left.
    removals = 0
    while candidates:
        batch = [(use, action, variant, todo.pop(0)) for use, action, variant, todo in candidates]
        jobs = [(solve_key(variant, text), variant, text) for _, _, variant, (_, text) in batch]
        removals += len(jobs)
        answers = _solve_all(jobs, cache, solve, False, workers, timeout)
        for (use, action, _, (name, _)), (key, _, _) in zip(batch, jobs):
            entry = answers[key]
            if entry is None:
                use.missing += 1
                use.actions[action].unknown.append(name)
            elif not entry["solved"]:
                use.actions[action].necessary_for.append(name)
        candidates = [c for c in candidates if c[3] and not c[0].actions[c[1]].necessary]
    if progress:
        progress(f"{len(full_jobs)} full solves, {removals} solves without one action")
    return uses


def store_domains(data: Path, ids: Iterable[str] | None = None
                  ) -> list[tuple[str, str, dict[str, str]]]:
    """``(id, domain text, {problem name: text})`` for the store folder ``data``."""
    if ids is None:
        ids = sorted(p.stem for p in (data / "domains").glob("*.pddl"))
    result = []
    for record_id in ids:
        domain = (data / "domains" / f"{record_id}.pddl").read_text(encoding="utf-8")
        problems = {p.stem: p.read_text(encoding="utf-8")
                    for p in sorted((data / "problems" / record_id).glob("*.pddl"))}
        result.append((record_id, domain, problems))
    return result


def optional_actions(data: Path) -> dict[str, dict[str, str]]:
    """id -> {action: why it is optional}, from the manifest's people-written field."""
    path = data / "manifest.json"
    if not path.is_file():
        return {}
    manifest = json.loads(path.read_text(encoding="utf-8"))
    return {e["id"]: {k.lower(): v for k, v in (e.get("optional_actions") or {}).items()}
            for e in manifest.get("domains", []) if isinstance(e, dict) and "id" in e}


def necessity_problems(use: DomainUse, optional: dict[str, str]) -> list[str]:
    """Why a domain fails the requirement (empty when every action matters)."""
    problems = []
    if use.unsolved:
        problems.append(f"{use.id}: problems without a plan: {', '.join(use.unsolved)}")
    for action, info in use.actions.items():
        if info.necessary:
            if action in optional:
                problems.append(f"{use.id}: {action} is listed as optional but problem "
                                f"{info.necessary_for[0]} needs it")
            continue
        if info.unknown:
            problems.append(f"{use.id}: {action}: re-solving without it did not finish for "
                            f"{', '.join(info.unknown)}")
        elif action in optional and info.used_in:
            continue
        elif action in optional:
            problems.append(f"{use.id}: optional action {action} is used in no plan")
        else:
            problems.append(f"{use.id}: {action} is needed by no problem"
                            + (f" (used in {', '.join(info.used_in)})" if info.used_in
                               else " and used in no plan"))
    return problems
