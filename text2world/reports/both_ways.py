"""The same world both ways: a model's ``t2w eval`` run (it wrote each domain) against its
``t2w wm next-state`` run (it predicted successors directly).

For every next-state item whose domain the eval run has a valid generated domain for (the
last valid round's), the model's own domain is aligned to the gold vocabulary
(``scoring.alignment``) and simulated by us from the item's state and action. Compared with the
model's direct answer and with the truth: how often both agree, which is closer to the truth,
and how many items show "can simulate but cannot write" (direct answer right, own domain
wrong) versus "can write but cannot simulate" (the reverse). Nothing calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from text2world.engine.run_reader import open_run
from text2world.engine.run_store import Run, RunError
from text2world.errors import Text2WorldError
from text2world.pddl.model import Domain, parse_domain
from text2world.reports.rendering import count_of
from text2world.scoring.alignment import align
from text2world.simulation import GroundAction, PlanningProblem, SimulationError, Simulator, parse_problem
from text2world.simulation.problem import TypedName, parse_atom
from text2world.store.datasets import load_dataset
from text2world.tasks.generation.records import generation_items
from text2world.tasks.wm.kind import WmKind
from text2world.tasks.wm.records import WmItem, wm_items


class BothWaysError(Text2WorldError, ValueError):
    """Runs that cannot be compared (wrong kinds, different models, nothing in common)."""


@dataclass
class BothWays:
    data: dict
    markdown: str


def _state(values) -> frozenset:
    return frozenset(a for a in (parse_atom(v) for v in values or ()) if a is not None)


def _own_domains(eval_run: Run) -> dict[str, str]:
    """Domain id -> the model's last valid generated domain text."""
    found = {}
    for item in generation_items(eval_run.items()):
        valid = [r for r in item.get("rounds") or [] if r.get("valid") and r.get("domain")]
        if valid:
            found[str(item["item"])] = valid[-1]["domain"]
    return found


def own_prediction(gold: Domain, gold_text: str, own: Domain, item: dict) -> dict:
    """The model's own domain (in the gold's vocabulary) simulated on the item: applicable,
    and the successor restricted to the gold's predicates."""
    translated = align(gold, own).translate(own)
    gold_predicates = {p.name for p in gold.predicates}
    own_predicates = {p.name for p in translated.predicates}
    state = frozenset(a for a in _state(item["state"]) if a[0] in own_predicates)
    objects = tuple(TypedName(name, kind) for name, kind in item["objects"])
    goal = parse_problem(gold_text, _goal_problem(gold, item)).goal
    problem = PlanningProblem("both-ways", translated.name, objects, state, goal)
    simulator = Simulator(translated, problem)
    action = GroundAction.parse(item["action"])
    if not simulator.is_applicable(state, action):
        return {"applicable": False, "state": None}
    successor = simulator.successor(state, action)
    return {"applicable": True,
            "state": frozenset(a for a in successor if a[0] in gold_predicates)}


def _goal_problem(gold: Domain, item: dict) -> str:
    constants = {c.name for c in gold.constants}
    objects = " ".join(f"{name} - {kind}" if gold.typed else name
                       for name, kind in item["objects"] if name not in constants)
    return (f"(define (problem both-ways) (:domain {gold.name}) (:objects {objects}) "
            f"(:init) (:goal {item['goal']}))")


def _direct(record: WmItem, item: dict) -> dict | None:
    """The model's direct answer as (applicable, full state); None for a format error."""
    answer = record.get("answer")
    if record.get("format_error") or not isinstance(answer, dict):
        return None
    if not answer.get("applicable"):
        return {"applicable": False, "state": None}
    if answer.get("state") is not None:
        return {"applicable": True, "state": _state(answer["state"])}
    before = _state(item["state"])
    return {"applicable": True, "state": (before - _state(answer.get("removed")))
            | _state(answer.get("added"))}


def _same(a: dict | None, b: dict | None) -> bool:
    return a is not None and b is not None and a["applicable"] == b["applicable"] and \
        a["state"] == b["state"]


def build_both_ways(eval_path: Path, wm_path: Path) -> BothWays:
    try:
        eval_run, wm_run = open_run(eval_path), open_run(wm_path)
    except RunError as err:
        raise BothWaysError(str(err)) from None
    if wm_run.kind != WmKind.name or wm_run.config.get("task") != "next-state":
        raise BothWaysError(f"{wm_path} is not a t2w wm next-state run")
    if eval_run.kind == WmKind.name:
        raise BothWaysError(f"{eval_path} is a world-model run; give a t2w eval run first")
    if eval_run.config.get("model") != wm_run.config.get("model"):
        raise BothWaysError(f"the runs are of different models ({eval_run.config.get('model')}"
                            f" vs {wm_run.config.get('model')}): compare one model's runs")
    own_texts = _own_domains(eval_run)
    dataset = load_dataset(wm_run.config.get("dataset") or "text2world")
    gold_records = {r.id: r for r in dataset.records}
    items = {i["id"]: i for i in _wm_items(wm_run)}
    rows, missing = [], set()
    for record in wm_items(wm_run.items()):
        item = items.get(record["item"])
        domain_id = record["domain"]
        if item is None or domain_id not in gold_records:
            continue
        if domain_id not in own_texts:
            missing.add(domain_id)
            continue
        gold_text = gold_records[domain_id].domain
        try:
            own = own_prediction(parse_domain(gold_text), gold_text,
                                 parse_domain(own_texts[domain_id]), item)
        except (SimulationError, ValueError, KeyError, TypeError) as err:
            own = {"applicable": None, "state": None, "error": str(err)[:200]}
        truth = {"applicable": item["applicable"],
                 "state": _state(item["next_state"]) if item["applicable"] else None}
        direct = _direct(record, item)
        rows.append({"item": record["item"], "domain": domain_id,
                     "agree": _same(own, direct), "own_correct": _same(own, truth),
                     "direct_correct": _same(direct, truth),
                     "own_error": own.get("error")})
    if not rows:
        raise BothWaysError("no next-state item of the wm run has a valid generated domain in "
                            "the eval run (domains in common: none)")
    count = len(rows)

    def share(key: str) -> float:
        return sum(1 for r in rows if r[key]) / count

    agree, own_right, direct_right = share("agree"), share("own_correct"), \
        share("direct_correct")
    simulate_not_write = sum(1 for r in rows if r["direct_correct"] and not r["own_correct"])
    write_not_simulate = sum(1 for r in rows if r["own_correct"] and not r["direct_correct"])
    own_errors = sum(1 for r in rows if r["own_error"])
    domains = len({r["domain"] for r in rows})
    data = {"eval_run": str(eval_path), "wm_run": str(wm_path),
            "model": wm_run.config.get("model"), "items": count, "domains": domains,
            "domains_without_valid_domain": sorted(missing), "agree": agree,
            "own_domain_accuracy": own_right, "direct_accuracy": direct_right,
            "simulate_not_write": simulate_not_write, "write_not_simulate": write_not_simulate,
            "own_domain_errors": own_errors, "rows": rows}
    markdown = "\n".join([
        f"# The same world both ways: {data['model']}", "",
        f"{count_of(count, 'next-state item')} over {count_of(domains, 'domain')} with a valid",
        f"generated domain ({count_of(len(missing), 'domain')} without one left out).", "",
        "| measure | value |", "| --- | --- |",
        f"| own domain and direct answer agree | {100 * agree:.1f}% |",
        f"| own domain (simulated by us) right | {100 * own_right:.1f}% |",
        f"| direct next-state answer right | {100 * direct_right:.1f}% |",
        f"| can simulate but cannot write (direct right, own wrong) | {simulate_not_write} |",
        f"| can write but cannot simulate (own right, direct wrong) | {write_not_simulate} |",
        f"| own domain cannot simulate the item | {own_errors} |", ""])
    return BothWays(data, markdown)


def _wm_items(run: Run) -> list[dict]:
    """The wm run's items, rebuilt from its options (deterministic for the seed)."""
    from text2world.tasks.wm.task import build, options_from_run

    return build(options_from_run(run.path))[2].items
