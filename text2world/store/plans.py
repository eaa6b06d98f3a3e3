"""Reference plans shipped with the store (``data/plans/<domain>.json``), so no first run of
the world-model tasks has to plan the store.

One file per domain: ``{"planner": ..., "problems": {name: entry}}`` where an entry is
``{"key": sha256 of the domain and problem texts, "status": "solved" | "unsolvable",
"plan": [steps], "cost": c, "optimal": bool, "bound_s": seconds}``. ``optimal`` is true when
the optimal search (A* LM-cut) proved the plan optimal within ``bound_s``; otherwise the plan
is LAMA's first solution (satisficing) found after the optimal search ran out of that bound,
or, for a generated problem LAMA cannot plan in that bound either, the generator's own walk
(``"planner": "generator walk"``, satisficing).
An entry whose key does not match the current texts is stale and ignored (the planner runs
as before). ``python -m text2world.tasks.wm.plan_writer`` regenerates the files (``--domains a,b``;
``--generated``: the generated problems of ``data/generated/``, into ``data/plans/generated/``):
writing needs the world-model tasks' planner and generator, which sit above the store.

``data/plans/gold-front.json`` ships the answers of semantic scoring's planner front
(``planning.front.cached_plan``) for every gold problem of the store, keyed as its disk cache is
(the front's configuration and the printed texts), so a fresh ``T2W_HOME`` does not plan the
golds again (``plan_writer --gold-front`` regenerates it; an answer of another configuration never matches).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from text2world.store.datasets import Record, atomic_write_text, data_dir

__all__ = [
    "FORMAT", "plan_key", "plans_path", "record_root", "problem_entries", "shipped_plan",
    "write_gold_front",
]

PLANS_FOLDER = "plans"
FORMAT = "t2w-shipped-plans-1"


@dataclass(frozen=True)
class ShippedPlan:
    plan: tuple[str, ...]
    cost: float | None
    optimal: bool
    bound_s: float
    status: str = "solved"  # or "timeout" / "unsolvable": no plan within bound_s (plan empty)


def plan_key(domain_text: str, problem_text: str) -> str:
    digest = hashlib.sha256()
    for text in (domain_text, problem_text):
        digest.update(text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def plans_path(record_id: str, root: Path | None = None, generated: bool = False) -> Path:
    """The plans of a domain's store problems, or (``generated``) of its generated ones."""
    folder = (root or data_dir()) / PLANS_FOLDER
    return (folder / "generated" if generated else folder) / f"{record_id}.json"


def record_root(record: Record, folder: str) -> Path | None:
    """The store folder ``record`` was read from when it ships ``folder`` (``plans``,
    ``keys``) of its own, as a generated folder does; else None (the built-in store's)."""
    root = Path(record.folder) if record.folder else None
    return root if root is not None and (root / folder).is_dir() else None


_loaded: dict[tuple[str, int], dict] = {}


def problem_entries(path: Path) -> dict:
    """The ``problems`` of a shipped per-domain file (plans, answer keys), read once per
    version of the file; empty when it is missing or unreadable (which only costs planning)."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    key = (str(path), stamp)
    if key not in _loaded:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            problems = data.get("problems") if isinstance(data, dict) else None
            _loaded[key] = problems if isinstance(problems, dict) else {}
        except (OSError, ValueError):
            _loaded[key] = {}
    return _loaded[key]


def _entries(record_id: str, root: Path | None = None, generated: bool = False) -> dict:
    return problem_entries(plans_path(record_id, root, generated))


def shipped_plan(record: Record, problem_name: str, problem_text: str,
                 root: Path | None = None) -> ShippedPlan | None:
    """The shipped plan of a problem, None when there is none or it is stale; a problem the
    planner could not solve within the bound is shipped as such (``status``, no plan)."""
    root = root or record_root(record, PLANS_FOLDER)
    entry = _entries(record.id, root).get(problem_name) or \
        _entries(record.id, root, generated=True).get(problem_name)
    if not isinstance(entry, dict) or entry.get("key") != plan_key(record.domain, problem_text):
        return None
    if entry.get("status") in ("timeout", "unsolvable"):
        return ShippedPlan((), None, False, float(entry.get("bound_s") or 0.0),
                           str(entry["status"]))
    if entry.get("status") != "solved":
        return None
    steps = entry.get("plan")
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        return None
    return ShippedPlan(tuple(steps), entry.get("cost"), bool(entry.get("optimal")),
                       float(entry.get("bound_s") or 0.0))


def problems_text(record: Record) -> str | None:
    """The record's problems with their shipped solution plans, as the Prob2Domain prompt shows
    them instead of a description (``t2w eval --description problems``); None without problems.
    A problem without a shipped plan (stale, or a dataset that ships none) says so."""
    if not record.problems:
        return None
    parts = []
    for problem in record.problems:
        shipped = shipped_plan(record, problem.name, problem.pddl)
        if shipped is None:
            plan = "No solution plan is given for this problem."
        elif shipped.status != "solved":
            plan = ("It has no solution plan." if shipped.status == "unsolvable" else
                    f"No solution plan was found within {shipped.bound_s:g} s.")
        else:
            steps = len(shipped.plan)
            plan = (f"A solution plan ({steps} step{'s' if steps != 1 else ''}):\n"
                    + "\n".join(shipped.plan))
        parts.append(f"Problem {problem.name}:\n```pddl\n{problem.pddl.strip()}\n```\n{plan}")
    return "\n\n".join(parts)


def write_gold_front(records: list[Record], root: Path | None = None) -> int:
    """Plan every gold problem as semantic scoring's gold preparation does (the same printed
    texts and simulator) and write the answers; returns how many were written."""
    from dataclasses import asdict

    from text2world.pddl.model import parse_domain
    from text2world.planning.fast_downward import PlanCache
    from text2world.planning.front import FRONT, GOLD_FRONT_FILE, plan_problem
    from text2world.scoring.semantic import SemanticSettings, planner_inputs
    from text2world.simulation import Simulator, parse_problem

    settings = SemanticSettings()
    answers = {}
    for record in records:
        try:
            domain = parse_domain(record.domain)
        except Exception:  # noqa: BLE001 - a gold tarski cannot read is scored without plans
            continue
        for problem in record.problems:
            try:
                parsed = parse_problem(record.domain, problem.pddl)
                simulator = Simulator(domain, parsed, max_work=settings.max_work)
            except Exception:  # noqa: BLE001 - as above: gold preparation reports these
                continue
            texts = planner_inputs(domain, parsed)
            result = plan_problem(*texts, settings.planner_timeout, simulator=simulator)
            if result.status != "Timeout":  # as the disk cache: a timeout may not repeat
                answers[PlanCache.key(FRONT, *texts)] = asdict(result)
    atomic_write_text((root or data_dir()) / PLANS_FOLDER / GOLD_FRONT_FILE,
                      json.dumps({"format": FORMAT, "planner": FRONT, "answers": answers},
                                 indent=0, sort_keys=True) + "\n")
    return len(answers)
