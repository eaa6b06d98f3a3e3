"""The run page (``t2w view``) of a generation run: scores per round for every scoring mode in
the log with 95% intervals, syntax-error categories per round and one row per domain (the
report's own computations, ``summary``). Found by ``tasks.registry.run_page``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from text2world.engine.run_store import ItemRecord, Run
from text2world.engine.summary import run_counts
from text2world.scoring.score_base import MODES
from text2world.stats import mean_or_none
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.tasks.generation.records import GenerationItem, GenerationSummary, config_ec, generation_item
from text2world.tasks.generation.summary import error_categories, item_cell, summarize

# "line 73:37" inside a parser message: a second place an error points at.
_PARSER_LINE = re.compile(r"\bline (\d+):\d+")


def modes_of(items: Sequence[GenerationItem]) -> list[str]:
    """Scoring modes in the log: paper and canonical first, then any other (semantic)."""
    found = {mode for item in items for mode in (item.get("ec") or {})}
    return [m for m in MODES if m in found] + sorted(found - set(MODES))


def _numeric(value) -> bool:
    return isinstance(value, (int, float))  # bool included: executable counts as 1 or 0


def _generic_round_means(items: Sequence[GenerationItem], mode: str, ec: int) -> list[dict]:
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
            row[key] = mean_or_none([float(s[key]) for s in scored if _numeric(s.get(key))])
        rows.append(row)
    return rows


def _generic_cell(item: GenerationItem, mode: str) -> dict:
    """An item's first and last scores in a mode the report does not know: its numeric fields."""
    scores = [s for s in (item.get("ec") or {}).get(mode) or [] if isinstance(s, dict)]
    if not scores:
        return {}
    first, last = scores[0], scores[-1]
    return {"exec_ec0": first.get("executable"), "exec_eck": last.get("executable"),
            "eck": {k: v for k, v in last.items() if _numeric(v)},
            "verdict_eck": last.get("verdict")}  # semantic scores: the last round's verdict


def overview(run: Run, items: Sequence[GenerationItem]) -> dict:
    """Per-round scores with 95% intervals, error categories, per-domain rows."""
    from text2world.tasks.generation.intervals import generation_intervals

    ec = config_ec(run.config)
    modes = modes_of(items)
    summary: GenerationSummary = {**summarize(run.config, items, []), **run_counts(run, items)}
    per_round = {mode: summary["metrics"][mode] if mode in summary["metrics"]
                 else _generic_round_means(items, mode, ec) for mode in modes}
    rows: dict[str, dict[str, Any]] = {str(item["item"]): {"item": str(item["item"]), "name": item.get("name"),
                                "valid": item.get("valid"), "cost": item.get("cost"),
                                "scores": {}} for item in items}
    for item in items:
        rows[str(item["item"])].update(valid_round=item.get("valid_round"),
                                       rounds=item.get("rounds_used"),
                                       category_ec0=(item.get("rounds") or [{}])[0].get("category"))
    for mode in modes:
        for item in items:  # an item logged in several epochs: its last record, as the report
            if mode in MODES:
                cell = item_cell(item, mode)
                rows[str(item["item"])]["scores"][mode] = {key: cell.get(key) for key in (
                    "exec_ec0", "exec_eck", "similarity_eck", "f1_mean_eck")}
            else:
                rows[str(item["item"])]["scores"][mode] = _generic_cell(item, mode)
    return {
        "run_id": run.run_id,
        "kind": "generation",
        "config": run.config,
        "ec": ec,
        "modes": modes,
        "summary": {key: summary[key] for key in (
            "label", "finished_items", "finished_samples", "planned_items", "epochs",
            "infrastructure_errors", "valid_at_round",
            "calls", "cached_calls", "prompt_tokens", "completion_tokens", "cost", "cost_paid")},
        "per_round": per_round,
        "intervals": {mode: generation_intervals(items, mode, [k for k in per_round[mode][0]
                                                              if k not in ("round", "items",
                                                                           "simulable")],
                                                 ec + 1) if per_round[mode] else []
                      for mode in modes},
        "error_categories": error_categories(items, ec),
        "items": [rows[key] for key in sorted(rows)],
    }


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


def item_page(run: Run, item: ItemRecord) -> dict:
    """What the viewer's item page adds to a logged generation item: its rounds with the lines
    their validation errors point at, and the gold domain."""
    gold, gold_note = gold_domain(run, str(item.get("item")))
    rounds = [{**rnd, "error_lines": error_lines(rnd.get("validation"))}
              for rnd in generation_item(item).get("rounds", [])]
    return {"rounds": rounds, "gold": gold, "gold_note": gold_note}
