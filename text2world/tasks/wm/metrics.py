"""Scores of one answer per task, and their aggregation (overall, by rho, by domain).

next-state: exact-state accuracy; fact-level precision/recall/F1 over the whole predicted
state; over the changed facts (dynamic: signed changes, +atom added, -atom removed) and over
the unchanged facts (static: facts of the old state the answer keeps vs those that truly
stay). An illegal action is right only when the answer says it is not applicable; an answer
that calls a legal action inapplicable predicts no change. Next-state items are also
summarized by origin: on the plan, or off it (a state a random walk reached).
"""

from __future__ import annotations

from text2world.tasks.wm.parse import parse_atom

PROPOSE_KS = (1, 3, 5, 10)


def _atoms(values) -> set:
    return {a for a in (parse_atom(v) for v in values) if a is not None}


def prf(predicted: set, truth: set) -> dict:
    hits = len(predicted & truth)
    precision = hits / len(predicted) if predicted else (1.0 if not truth else 0.0)
    recall = hits / len(truth) if truth else (1.0 if not predicted else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def score_next_state(item: dict, answer: dict | None, form: str) -> dict:
    """``answer`` is ``parse_next_state``'s result, None for a format error."""
    if not item["applicable"]:
        said_no = answer is not None and answer["applicable"] is False
        return {"kind": "illegal", "correct": said_no, "exact": said_no}
    before = _atoms(item["state"])
    truth = _atoms(item["next_state"])
    if answer is None or not answer["applicable"]:
        predicted = before
    elif form == "full" or answer["state"] is not None:
        predicted = set(answer["state"])
    else:
        predicted = (before - answer["removed"]) | answer["added"]
    true_changes = {("+",) + a for a in truth - before} | {("-",) + a for a in before - truth}
    predicted_changes = ({("+",) + a for a in predicted - before}
                         | {("-",) + a for a in before - predicted})
    exact = predicted == truth and answer is not None and bool(answer["applicable"])
    return {"kind": "legal", "correct": exact, "exact": exact,
            "state": prf(predicted, truth),
            "dynamic": prf(predicted_changes, true_changes),
            "static": prf(predicted & before, truth & before),
            "said_inapplicable": answer is not None and not answer["applicable"]}


def score_verify(item: dict, answer: dict | None) -> dict:
    predicted = None if answer is None else answer["reaches_goal"]
    correct = predicted is not None and predicted == item["valid"]
    step_correct = None
    if not item["valid"]:
        step_correct = bool(correct and answer["first_failing_step"]
                            == item["first_failing_step"])
    return {"positive": item["valid"], "predicted": predicted, "correct": correct,
            "step_correct": step_correct, "mutation": item.get("mutation")}


def summarize_items(task: str, records: list[dict]) -> dict:
    """Overall, by rho and by domain: counts and means of each task's metrics."""
    groups: dict[str, dict[str, list[dict]]] = {"all": {"all": records}, "rho": {},
                                                 "domain": {}}
    for record in records:
        groups["rho"].setdefault(f"{record['rho']:g}", []).append(record)
        groups["domain"].setdefault(record["domain"], []).append(record)
    summary = {}
    for name, by_key in groups.items():
        summary[name] = {key: aggregate(task, rows) for key, rows in sorted(by_key.items())}
    if task == "verify":  # negatives by how they were made ("none": the positives)
        kinds: dict[str, list[dict]] = {}
        for record in records:
            kind = (record.get("metrics") or {}).get("mutation") or "none"
            kinds.setdefault(kind, []).append(record)
        summary["mutation"] = {key: aggregate(task, rows) for key, rows in sorted(kinds.items())}
    if task == "next-state":  # states along the plan vs states a random walk reached
        origins: dict[str, list[dict]] = {}
        for record in records:
            origins.setdefault(record.get("origin") or "on-plan", []).append(record)
        summary["origin"] = {key: aggregate(task, rows) for key, rows in sorted(origins.items())}
    if task == "propose":
        steps: dict[str, list[dict]] = {}
        for record in records:
            steps.setdefault(str(record["prefix"]), []).append(record)
        summary["step"] = {key: aggregate(task, rows)
                           for key, rows in sorted(steps.items(), key=lambda kv: int(kv[0]))}
    return summary


def _mean(values: list) -> float | None:
    values = [float(v) for v in values if v is not None]
    return sum(values) / len(values) if values else None


def aggregate(task: str, records: list[dict]) -> dict:
    scored = [r for r in records if r.get("metrics") is not None]
    out: dict = {"items": len(scored),
                 "format_errors": sum(1 for r in scored if r.get("format_error"))}
    metrics = [r["metrics"] for r in scored]
    if task == "next-state":
        legal = [m for m in metrics if m["kind"] == "legal"]
        illegal = [m for m in metrics if m["kind"] == "illegal"]
        out.update(accuracy=_mean([m["correct"] for m in metrics]),
                   exact_legal=_mean([m["exact"] for m in legal]),
                   illegal_share=len(illegal) / len(metrics) if metrics else None,
                   illegal_accuracy=_mean([m["correct"] for m in illegal]))
        for part in ("state", "dynamic", "static"):
            for key in ("precision", "recall", "f1"):
                out[f"{part}_{key}"] = _mean([m[part][key] for m in legal])
    elif task == "verify":
        positives = [m for m in metrics if m["positive"]]
        negatives = [m for m in metrics if not m["positive"]]
        out.update(accuracy=_mean([m["correct"] for m in metrics]),
                   false_positive_rate=_mean([m["predicted"] is True for m in negatives]),
                   false_negative_rate=_mean([m["predicted"] is not True for m in positives]),
                   step_accuracy=_mean([m["step_correct"] for m in negatives]),
                   positives=len(positives), negatives=len(negatives))
    elif task == "propose":
        for k in PROPOSE_KS:
            out[f"hit@{k}"] = _mean([m["first_hit"] is not None and m["first_hit"] <= k
                                     for m in metrics])
        out["applicable@1"] = _mean([m["first_applicable"] == 1 for m in metrics])
        out["unchecked"] = sum(1 for m in metrics if m.get("unchecked"))
    elif task == "plan":
        out.update(success=_mean([m["success"] for m in metrics]),
                   declared_done=_mean([m["declared_done"] for m in metrics]),
                   state_accuracy=_mean([m["state_accuracy"] for m in metrics]),
                   mean_steps=_mean([m["steps"] for m in metrics]),
                   cost_ratio=_mean([m["cost_ratio"] for m in metrics if m["success"]]))
    return out
