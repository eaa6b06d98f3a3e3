"""What the results viewer (``t2w view``) shows of a run, computed from the run store.

The run page: scores per round for every scoring mode in the log, syntax-error categories per
round and the per-domain table (the report's own computations). The item page: the logged
record with the gold domain, the lines its validation errors point at, and, per round, the
per-action diff of gold vs generated (``metrics.action_diff``). Nothing here calls a model or
writes a file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from text2world.engine.run_store import SCORE_MODES, Run, RunError, RunKind, mean, run_kind
from text2world.engine.summary import run_counts
from text2world.errors import Text2WorldError
from text2world.reports.generation import LoadedRun, error_category_rows, per_domain_rows
from text2world.scoring.metrics import action_diff
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.tasks.generation.summary import summarize

# "line 73:37" inside a parser message: a second place an error points at.
_PARSER_LINE = re.compile(r"\bline (\d+):\d+")


class ViewError(Text2WorldError, LookupError):
    """An item or round the run does not have; the message says what exists."""


def modes_of(items: list[dict]) -> list[str]:
    """Scoring modes in the log: paper and canonical first, then any other (semantic)."""
    found = {mode for item in items for mode in (item.get("ec") or {})}
    return [m for m in SCORE_MODES if m in found] + sorted(found - set(SCORE_MODES))


def _numeric(value) -> bool:
    return isinstance(value, (int, float))  # bool included: executable counts as 1 or 0


def _generic_round_means(items: list[dict], mode: str, ec: int) -> list[dict]:
    """Means per round of every numeric field of a mode the run store does not know."""
    rows = []
    for r in range(ec + 1):
        scored = [item["ec"][mode][r] for item in items
                  if len((item.get("ec") or {}).get(mode) or []) > r
                  and isinstance(item["ec"][mode][r], dict)]
        keys: list[str] = []
        for score in scored:
            keys += [k for k, v in score.items() if _numeric(v) and k not in keys]
        row: dict = {"round": r, "items": len(scored)}
        for key in keys:
            row[key] = mean([float(s[key]) for s in scored if _numeric(s.get(key))])
        rows.append(row)
    return rows


def _generic_cell(item: dict, mode: str) -> dict:
    """An item's first and last scores in a mode the report does not know: its numeric fields."""
    scores = [s for s in (item.get("ec") or {}).get(mode) or [] if isinstance(s, dict)]
    if not scores:
        return {}
    first, last = scores[0], scores[-1]
    return {"exec_ec0": first.get("executable"), "exec_eck": last.get("executable"),
            "eck": {k: v for k, v in last.items() if _numeric(v)},
            "verdict_eck": last.get("verdict")}  # semantic scores: the last round's verdict


def overview(run: Run, items: list[dict]) -> dict:
    """Everything the run page shows, by the run's kind (``RunKind``: generation, wm,
    contamination, judge)."""
    try:
        kind = run_kind(run.config)
    except RunError:
        raise ViewError(f"run {run.run_id!r} is of an unknown kind {run.kind!r}: the viewer "
                        "shows generation (t2w eval), world-model (t2w wm), contamination and "
                        "judge runs") from None
    return OVERVIEWS[kind](run, items)


def generation_overview(run: Run, items: list[dict]) -> dict:
    """Per-round scores with 95% intervals, error categories, per-domain rows."""
    from text2world.tasks.generation.intervals import generation_intervals

    ec = int(run.config.get("ec", 0))
    modes = modes_of(items)
    summary = {**summarize(run.config, items, []), **run_counts(run, items)}
    per_round = {mode: summary["metrics"][mode] if mode in summary["metrics"]
                 else _generic_round_means(items, mode, ec) for mode in modes}
    loaded = LoadedRun(run, items, "run")
    rows: dict[str, dict[str, Any]] = {str(item["item"]): {"item": str(item["item"]), "name": item.get("name"),
                                "valid": item.get("valid"), "cost": item.get("cost"),
                                "scores": {}} for item in items}
    for item in items:
        rows[str(item["item"])].update(valid_round=item.get("valid_round"),
                                       rounds=item.get("rounds_used"),
                                       category_ec0=(item.get("rounds") or [{}])[0].get("category"))
    for mode in modes:
        if mode in SCORE_MODES:
            for row in per_domain_rows([loaded], mode):
                cell = row.get("run") or {}
                rows[row["item"]]["scores"][mode] = {key: cell.get(key) for key in (
                    "exec_ec0", "exec_eck", "similarity_eck", "f1_mean_eck")}
        else:
            for item in items:
                rows[str(item["item"])]["scores"][mode] = _generic_cell(item, mode)
    return {
        "run_id": run.run_id,
        "kind": run.kind,
        "config": run.config,
        "ec": ec,
        "modes": modes,
        "summary": {key: summary[key] for key in (
            "finished_items", "planned_items", "infrastructure_errors", "valid_at_round",
            "calls", "cached_calls", "prompt_tokens", "completion_tokens", "cost", "cost_paid")},
        "per_round": per_round,
        "intervals": {mode: generation_intervals(items, mode, [k for k in per_round[mode][0]
                                                              if k not in ("round", "items",
                                                                           "simulable")],
                                                 ec + 1) if per_round[mode] else []
                      for mode in modes},
        "error_categories": error_category_rows(loaded),
        "items": [rows[key] for key in sorted(rows)],
    }


def find_item(items: list[dict], item_id: str) -> dict:
    for item in items:
        if str(item.get("item")) == item_id:
            return item
    raise ViewError(f"the run has no finished item {item_id!r} ({len(items)} items logged)")


def gold_domain(run: Run, item_id: str) -> tuple[str | None, str | None]:
    """(gold domain text, a note when it is missing or its dataset changed since the run)."""
    name = run.config.get("dataset") or BUILTIN
    source = run.config.get("dataset_source") or ""
    try:
        dataset = load_dataset(name)
    except DatasetError as err:
        if not (source and Path(source).exists()):
            return None, f"the run's dataset {name!r} cannot be read: {err}"
        try:
            dataset = load_dataset(source)
        except DatasetError as err2:
            return None, f"the run's dataset {name!r} cannot be read: {err2}"
    try:
        record = dataset.get(item_id)
    except KeyError:
        return None, f"dataset {dataset.name!r} no longer has the item {item_id!r}"
    note = None
    if run.config.get("dataset_hash") and dataset.content_hash != run.config["dataset_hash"]:
        note = (f"dataset {dataset.name!r} changed since the run: this gold domain may not be "
                "the one the run was scored against")
    return record.domain, note


def error_lines(validation: dict | None) -> list[int]:
    """1-based lines of the domain that the validation's errors point at."""
    lines: set[int] = set()
    for issue in (validation or {}).get("errors", []):
        if isinstance(issue.get("line"), int):
            lines.add(issue["line"])
        lines.update(int(n) for n in _PARSER_LINE.findall(str(issue.get("message", ""))))
    return sorted(lines)


def item_detail(run: Run, items: list[dict], item_id: str) -> dict:
    """One item as logged, with its neighbours in the run's item order; a generation item
    with the gold domain and the lines its validation errors point at."""
    item = find_item(items, item_id)
    order = sorted(str(i.get("item")) for i in items)
    position = order.index(item_id)
    kind = run.kind
    neighbours = {"run_id": run.run_id, "kind": kind, "position": position,
                  "count": len(order), "previous": order[position - 1] if position > 0 else None,
                  "next": order[position + 1] if position + 1 < len(order) else None}
    if kind != "generation":
        return {**item, **neighbours, "task": run.config.get("task") or item.get("task")}
    gold, gold_note = gold_domain(run, item_id)
    rounds = [{**rnd, "error_lines": error_lines(rnd.get("validation"))}
              for rnd in item.get("rounds", [])]
    return {**item, **neighbours, "rounds": rounds, "gold": gold, "gold_note": gold_note}


def round_diff(run: Run, items: list[dict], item_id: str, round_index: int | None) -> dict:
    """The per-action diff of the gold vs the domain of one round (default: the last)."""
    if run.kind != RunKind.GENERATION:
        raise ViewError(f"run {run.run_id!r} is a {run.kind} run: only generation "
                        "runs have a per-action diff")
    item = find_item(items, item_id)
    rounds = item.get("rounds") or []
    if not rounds:
        raise ViewError(f"item {item_id!r} has no rounds logged")
    if round_index is None:
        round_index = len(rounds) - 1
    if not 0 <= round_index < len(rounds):
        raise ViewError(f"item {item_id!r} has rounds 0 to {len(rounds) - 1}, not {round_index}")
    gold, gold_note = gold_domain(run, item_id)
    if gold is None:
        return {"round": round_index, "ok": False, "reason": gold_note, "actions": [],
                "predicates": []}
    diff = _action_diff(gold, rounds[round_index].get("domain") or "")
    return {"round": round_index, "gold_note": gold_note, **diff}


@lru_cache(maxsize=256)
def _action_diff(gold: str, predicted: str) -> dict:
    # Moving back and forth between items asks for the same diffs again (callers copy it).
    return action_diff(gold, predicted)


# --------------------------------------------------------------------------------------------
# World-model and contamination runs


def _wm_groups(task: str) -> dict:
    """The groupings of world-model items the run page shows, each with its key."""
    groups = {"rho": lambda r: f"{r['rho']:g}", "domain": lambda r: str(r.get("domain"))}
    if task == "next-state":
        groups["origin"] = lambda r: r.get("origin") or "on-plan"
    if task == "verify":
        groups["mutation"] = lambda r: (r.get("metrics") or {}).get("mutation") or "none"
    if task == "propose":
        groups["step"] = lambda r: str(r.get("prefix"))
    return groups


def wm_overview(run: Run, items: list[dict]) -> dict:
    """A world-model run: its task's metrics overall and by rho / domain / origin / mutation /
    step (counts, means and 95% intervals, domains resampled), and one row per item."""
    from text2world.reports.wm import COLUMNS, HEADLINE
    from text2world.tasks.wm.intervals import wm_grouped_intervals, wm_intervals, wm_item_values
    from text2world.tasks.wm.metrics import aggregate

    task = str(run.config.get("task"))
    if task not in COLUMNS:
        raise ViewError(f"world-model run {run.run_id!r} has an unknown task {task!r}")
    scored = [item for item in items if item.get("metrics") is not None]
    groups = {}
    for name, key in _wm_groups(task).items():
        members: dict[str, list[dict]] = {}
        for item in scored:
            members.setdefault(key(item), []).append(item)
        ordered = sorted(members, key=lambda k: (float(k) if _is_number(k) else 0.0, k))
        intervals = wm_grouped_intervals(task, scored, key)
        groups[name] = [{"key": k, **aggregate(task, members[k]), "intervals": intervals[k]}
                        for k in ordered]
    headline = HEADLINE[task]
    rows = [{"item": str(item.get("item")), "domain": item.get("domain"),
             "problem": item.get("problem"), "rho": item.get("rho"),
             "group": item.get("origin") or (item.get("metrics") or {}).get("mutation"),
             "score": wm_item_values(task, item).get(headline),
             "format_error": item.get("format_error")} for item in items]
    return {"kind": "wm", "run_id": run.run_id, "config": run.config, "task": task,
            "columns": COLUMNS[task], "headline": headline,
            "summary": _counts(run, items),
            "all": {**aggregate(task, scored), "intervals": wm_intervals(task, scored)},
            "groups": groups, "items": sorted(rows, key=lambda r: r["item"])}


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _counts(run: Run, items: list[dict]) -> dict:
    """The counts the run page shows (the engine's, ``run_counts``)."""
    counts = run_counts(run, items)
    return {key: counts[key] for key in ("finished_items", "planned_items",
                                         "infrastructure_errors", "calls", "prompt_tokens",
                                         "completion_tokens", "cost")}


def probe_overview(run: Run, items: list[dict]) -> dict:
    """A contamination probe: the mean and median n-gram contamination rate of the probed
    domains (with a 95% interval), the share above one half, one row per domain."""
    from text2world.tasks.contamination.intervals import probe_interval

    rates = sorted(float(i["rate"]) for i in items if isinstance(i.get("rate"), (int, float)))
    median = None
    if rates:
        middle = len(rates) // 2
        median = rates[middle] if len(rates) % 2 else (rates[middle - 1] + rates[middle]) / 2
    rows = [{"item": str(i.get("item")), "name": i.get("name"), "rate": i.get("rate"),
             "contaminated": i.get("contaminated"), "counted": i.get("counted"),
             "finish_reason": i.get("finish_reason")} for i in items]
    return {"kind": "contamination", "run_id": run.run_id, "config": run.config,
            "summary": _counts(run, items),
            "measures": {"mean_rate": probe_interval(items), "median_rate": median,
                         "domains_above_half": sum(1 for r in rates if r > 0.5),
                         "domains": len(rates), "n": run.config.get("n"),
                         "max_mismatches": run.config.get("max_mismatches"),
                         "prefix_tokens": run.config.get("prefix_tokens")
                         or run.config.get("prompt_tokens")},
            "rates": rates, "items": sorted(rows, key=lambda r: -(r["rate"] or 0.0))}


def judge_overview(run: Run, items: list[dict]) -> dict:
    """A judge run (``t2w judge``): the judge's agreement with our semantic verdicts (kappa
    with its interval, confusion matrix, accuracy), the reference judges' on the same items,
    the disagreements with our counterexample, one row per judged item."""
    from text2world.tasks.judge.task import task_from_run

    judged = task_from_run(run).summarize(run.config, items, run.open_errors())
    rows = [{"item": str(i.get("item")), "name": i.get("name"), "epoch": i.get("epoch", 0),
             "verdict": i.get("verdict"), "ours": i.get("ours"), "judge": i.get("judge"),
             "rating": i.get("rating")} for i in items]
    return {"kind": "judge", "run_id": run.run_id, "config": run.config,
            "summary": _counts(run, items), "judge": judged,
            "items": sorted(rows, key=lambda r: (r["item"], r["epoch"]))}


def _generation_page(run: Run, items: list[dict]) -> dict:
    return {**generation_overview(run, items), "kind": "generation"}


# The run page of each kind of run (``RunKind``).
OVERVIEWS = {RunKind.GENERATION: _generation_page, RunKind.WM: wm_overview,
             RunKind.CONTAMINATION: probe_overview, RunKind.JUDGE: judge_overview}
