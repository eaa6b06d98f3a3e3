"""Scores of one answer per task, and their aggregation (overall, by rho, by domain).

next-state: exact-state accuracy; fact-level precision/recall/F1 over the whole predicted
state; over the changed facts (dynamic: signed changes, +atom added, -atom removed) and over
the unchanged facts (static: facts of the old state the answer keeps vs those that truly
stay); and the simulator paper's transition-level split (Wang et al. 2024): exact accuracy
on static transitions (the action changes nothing) and dynamic ones (it changes something).
An illegal action is right only when the answer says it is not applicable. A format error,
and an answer that calls a legal action inapplicable, predict no next state: wrong on every
metric (F1 0), never "nothing changed" (that is the copy-state baseline's answer).
Next-state items are also summarized by origin: on the plan, or off it.

verify: a format error is wrong on positives and negatives alike (it counts in both the
false-positive and the false-negative rate). propose: hit@K (any action that keeps the goal
reachable within the optimal cost + slack) and strict hit@K (the reference plan's own action,
the papers' protocol), only for K up to the K asked ("-" above it).

Summary keys (``summarize_items``): groups ``all``/``rho``/``domain`` (and ``mutation``,
``origin``, ``step``, ``transition`` per task), each ``{key: aggregate}``; an aggregate has
``items``, ``format_errors``, ``format_error_rate``, the task's metrics and ``baselines``
(``{name: aggregate of that trivial strategy on the same items}``, see ``baselines.py``);
``macro`` is the mean over domains of each metric (the papers' macro-average; ``all`` is the
micro-average over items).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from text2world.simulation.problem import parse_atom

if TYPE_CHECKING:
    from text2world.engine.run_store import RunConfig
    from text2world.tasks.wm.records import WmItem

PROPOSE_KS = (1, 2, 3, 5, 10)
RATIO_KEYS = ("cost_ratio", "mean_steps")  # printed as ratios, every other metric as a percent
# The headline metric of each task (curves vs rho) and the columns of its tables.
HEADLINE = {"next-state": "accuracy", "verify": "accuracy", "verify-rollout": "accuracy",
            "propose": "hit@1",
            "plan": "success"}
COLUMNS = {
    "next-state": ["accuracy", "exact_legal", "illegal_accuracy", "static_transition_accuracy",
                   "dynamic_transition_accuracy", "state_f1", "dynamic_f1", "static_f1"],
    "verify": ["accuracy", "false_positive_rate", "false_negative_rate", "step_accuracy"],
    "verify-rollout": ["accuracy", "false_positive_rate", "false_negative_rate",
                       "step_accuracy", "rollout_state_accuracy"],
    "propose": [f"hit@{k}" for k in PROPOSE_KS] + [f"strict_hit@{k}" for k in PROPOSE_KS]
    + ["applicable@1"],
    "plan": ["success", "declared_done", "state_accuracy", "cost_ratio"],
}


def protocol_label(config: RunConfig) -> str:
    """How a run asked: planning K = 1 is the papers' loop; K > 1 is self-selection among the
    model's own candidates (not search); propose asks once for the top K or once per K."""
    task, k = config.get("task"), config.get("k")
    if task == "plan":
        return "loop (K=1)" if (k or 1) == 1 else f"self-selection (K={k}, not search)"
    if task == "propose":
        return f"one query per K up to {k}" if config.get("per_k") else f"one query, top {k}"
    if task == "next-state":
        return f"{config.get('form', 'full')} state"
    if task == "verify-rollout":
        return "rollout: the model predicts each step's state, then the goal"
    return "one-shot plan validation"


def shown(key: str, value) -> str:
    """A metric for a table: percent with one decimal, ratios with two, "-" when absent."""
    if value is None:
        return "-"
    if key in RATIO_KEYS:
        return f"{value:.2f}"
    return f"{100 * value:.1f}"


def _atoms(values) -> set:
    return {a for a in (parse_atom(v) for v in values) if a is not None}


def prf(predicted: set, truth: set) -> dict:
    hits = len(predicted & truth)
    precision = hits / len(predicted) if predicted else (1.0 if not truth else 0.0)
    recall = hits / len(truth) if truth else (1.0 if not predicted else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


_WRONG = {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def transition_kind(item: dict) -> str:
    """The paper's split of a legal transition: ``static`` when the action changes nothing."""
    return "static" if set(item["next_state"]) == set(item["state"]) else "dynamic"


def score_next_state(item: dict, answer: dict | None, form: str) -> dict:
    """``answer`` is ``parse_next_state``'s result, None for a format error."""
    if not item["applicable"]:
        said_no = answer is not None and answer["applicable"] is False
        return {"kind": "illegal", "correct": said_no, "exact": said_no}
    transition = transition_kind(item)
    if answer is None or not answer["applicable"]:  # no next state predicted
        return {"kind": "legal", "transition": transition, "correct": False, "exact": False,
                "state": _WRONG, "dynamic": _WRONG, "static": _WRONG,
                "said_inapplicable": answer is not None}
    before = _atoms(item["state"])
    truth = _atoms(item["next_state"])
    if form == "full" or answer["state"] is not None:
        predicted = set(answer["state"])
    else:
        predicted = (before - answer["removed"]) | answer["added"]
    true_changes = {("+",) + a for a in truth - before} | {("-",) + a for a in before - truth}
    predicted_changes = ({("+",) + a for a in predicted - before}
                         | {("-",) + a for a in before - predicted})
    exact = predicted == truth
    return {"kind": "legal", "transition": transition, "correct": exact, "exact": exact,
            "state": prf(predicted, truth),
            "dynamic": prf(predicted_changes, true_changes),
            "static": prf(predicted & before, truth & before),
            "said_inapplicable": False}


def score_verify(item: dict, answer: dict | None) -> dict:
    predicted = None if answer is None else answer["reaches_goal"]
    correct = predicted is not None and predicted == item["valid"]
    step_correct = None
    if not item["valid"]:
        step_correct = bool(correct and answer is not None and answer["first_failing_step"]
                            == item["first_failing_step"])
    return {"positive": item["valid"], "predicted": predicted, "correct": correct,
            "step_correct": step_correct, "mutation": item.get("mutation")}


def summarize_items(task: str, records: Sequence[WmItem]) -> dict:
    """Overall, by rho and by domain: counts and means of each task's metrics."""
    groups: dict[str, dict[str, list[WmItem]]] = {"all": {"all": list(records)}, "rho": {},
                                                   "domain": {}}
    for record in records:
        groups["rho"].setdefault(f"{record['rho']:g}", []).append(record)
        groups["domain"].setdefault(record["domain"], []).append(record)
    summary = {}
    for name, by_key in groups.items():
        summary[name] = {key: aggregate(task, rows) for key, rows in sorted(by_key.items())}
    # the papers' macro-average: each domain's mean, then the mean over domains
    summary["macro"] = macro_average(list(summary["domain"].values()))
    if task in ("verify", "verify-rollout"):  # negatives by how they were made
        kinds: dict[str, list[WmItem]] = {}
        for record in records:
            kind = (record.get("metrics") or {}).get("mutation") or "none"
            kinds.setdefault(kind, []).append(record)
        summary["mutation"] = {key: aggregate(task, rows) for key, rows in sorted(kinds.items())}
    if task == "next-state":  # states along the plan vs states a random walk reached
        origins: dict[str, list[WmItem]] = {}
        for record in records:
            origins.setdefault(record.get("origin") or "on-plan", []).append(record)
        summary["origin"] = {key: aggregate(task, rows) for key, rows in sorted(origins.items())}
    if task == "next-state":  # the paper's transition-level split (legal actions only)
        transitions: dict[str, list[WmItem]] = {}
        for record in records:
            kind = (record.get("metrics") or {}).get("transition")
            if kind:
                transitions.setdefault(kind, []).append(record)
        summary["transition"] = {key: aggregate(task, rows)
                                 for key, rows in sorted(transitions.items())}
    if task == "propose":
        steps: dict[str, list[WmItem]] = {}
        for record in records:
            steps.setdefault(str(record["prefix"]), []).append(record)
        summary["step"] = {key: aggregate(task, rows)
                           for key, rows in sorted(steps.items(), key=lambda kv: int(kv[0]))}
    return summary


def macro_average(rows: list[dict]) -> dict:
    """The mean over ``rows`` (per-domain aggregates) of every numeric metric a row has."""
    keys = sorted({k for row in rows for k, v in row.items()
                   if isinstance(v, float) and k != "format_error_rate"} | {"format_error_rate"})
    return {key: _mean([row.get(key) for row in rows]) for key in keys}


def _mean(values: list) -> float | None:
    values = [float(v) for v in values if v is not None]
    return sum(values) / len(values) if values else None


def aggregate(task: str, records: Sequence[WmItem], with_baselines: bool = True) -> dict:
    scored = [r for r in records if r.get("metrics") is not None]
    errors = sum(1 for r in scored if r.get("format_error"))
    out: dict = {"items": len(scored), "format_errors": errors,
                 "format_error_rate": errors / len(scored) if scored else None}
    metrics = [r["metrics"] for r in scored]
    if task == "next-state":
        legal = [m for m in metrics if m["kind"] == "legal"]
        illegal = [m for m in metrics if m["kind"] == "illegal"]
        out.update(accuracy=_mean([m["correct"] for m in metrics]),
                   exact_legal=_mean([m["exact"] for m in legal]),
                   illegal_share=len(illegal) / len(metrics) if metrics else None,
                   illegal_accuracy=_mean([m["correct"] for m in illegal]),
                   static_transition_accuracy=_mean([m["exact"] for m in legal
                                                     if m.get("transition") == "static"]),
                   dynamic_transition_accuracy=_mean([m["exact"] for m in legal
                                                      if m.get("transition") == "dynamic"]),
                   static_transitions=sum(1 for m in legal if m.get("transition") == "static"))
        for part in ("state", "dynamic", "static"):
            for key in ("precision", "recall", "f1"):
                out[f"{part}_{key}"] = _mean([m[part][key] for m in legal])
    elif task in ("verify", "verify-rollout"):
        positives = [m for m in metrics if m["positive"]]
        negatives = [m for m in metrics if not m["positive"]]
        out.update(accuracy=_mean([m["correct"] for m in metrics]),
                   false_positive_rate=_mean([m["predicted"] is not False for m in negatives]),
                   false_negative_rate=_mean([m["predicted"] is not True for m in positives]),
                   step_accuracy=_mean([m["step_correct"] for m in negatives]),
                   positives=len(positives), negatives=len(negatives))
        if task == "verify-rollout":  # the states the model predicted while steps applied
            out["rollout_state_accuracy"] = _mean([m.get("state_accuracy") for m in metrics])
    elif task == "propose":
        asked = min((m.get("k", max(PROPOSE_KS)) for m in metrics), default=max(PROPOSE_KS))
        for k in PROPOSE_KS:  # None above the K asked: the answer had no K-th action
            # --per-k: hit@K from the answer to the query that asked for K actions
            answers = [(m.get("per_k") or {}).get(str(k), m) for m in metrics]
            for name, field in ((f"hit@{k}", "first_hit"),
                                (f"strict_hit@{k}", "first_strict_hit")):
                out[name] = None if k > asked else _mean(
                    [a.get(field) is not None and a[field] <= k for a in answers])
        out["applicable@1"] = _mean([m["first_applicable"] == 1 for m in metrics])
        out["unchecked"] = sum(1 for m in metrics if m.get("unchecked"))
    elif task == "plan":
        out.update(success=_mean([m["success"] for m in metrics]),
                   declared_done=_mean([m["declared_done"] for m in metrics]),
                   state_accuracy=_mean([m["state_accuracy"] for m in metrics]),
                   mean_steps=_mean([m["steps"] for m in metrics]),
                   cost_ratio=_mean([m["cost_ratio"] for m in metrics if m["success"]]))
    if with_baselines:
        names = sorted({name for r in scored for name in r.get("baselines") or {}})
        out["baselines"] = {name: aggregate(task, [{"metrics": r["baselines"][name]}
                                                   for r in scored
                                                   if name in (r.get("baselines") or {})],
                                            with_baselines=False) for name in names}
    return out
